// The Python exception class PyTorch raises when a constraint fails. Most
// shape errors are RuntimeErrors, but a dim out of range is an IndexError, a
// loss's batch mismatch a ValueError, a module's bad hyperparameter often a
// ValueError or an AssertionError: the run-time check raises a
// ShapeCheckError of that class too (a program that catches IndexError
// catches it as it caught PyTorch's), and the analysis reads `except`
// clauses by it.
#pragma once

#include <string_view>

namespace gshape::gradual {

// The class PyTorch 1.13 raises when constraint `tag` fails: "IndexError",
// "ValueError", "TypeError", "AssertionError", "NotImplementedError",
// "ZeroDivisionError", or "RuntimeError" (every other tag).
std::string_view python_error_of(std::string_view tag);

// Whether `except <caught>:` catches an exception of class `raised` (both
// builtin names; "Exception" and "BaseException" catch every one).
bool catches(std::string_view caught, std::string_view raised);

}  // namespace gshape::gradual
