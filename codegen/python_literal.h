// Python literals for generated code. Everything is pure ASCII with no line
// break, so an inserted literal never adds a line and reads the same under
// any source encoding a file declares (`# -*- coding: latin-1 -*-`).
#pragma once

#include <string>
#include <string_view>

namespace gshape::codegen {

// A single-quoted str literal for `text` (UTF-8): quotes, backslashes and
// control characters escaped, non-ASCII as \xNN / \uNNNN / \UNNNNNNNN;
// bytes that are not valid UTF-8 become \ufffd.
std::string python_str(std::string_view text);

}  // namespace gshape::codegen
