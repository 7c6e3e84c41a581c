// The one diagnostic for a file that does not parse: the first ERROR or
// MISSING node of the tree, described in words.
#pragma once

#include <tree_sitter/api.h>

#include "frontend/diagnostics.h"
#include "frontend/source.h"
#include "frontend/ts_locations.h"

namespace gshape::ts {

// Indentation (in columns, a tab reaching the next multiple of 8) beyond which
// tree-sitter-python's scanner loses track of blocks: it stores each indent
// level in one byte when it saves its state.
inline constexpr uint32_t kMaxIndentColumns = 255;

// When `root` contains an error, reports exactly one diagnostic and returns true:
//   `syntax error: unexpected 'text'` at the first ERROR node (the innermost one
//   where errors nest; its text up to the end of its first line, shortened),
//   `syntax error: missing ')'` at the first MISSING node, or, when a line is
//   indented deeper than the scanner can follow, `nesting too deep: …` there.
bool report_syntax_error(TSNode root, const SourceFile& file, LocationMap& locations, DiagnosticSink& diags);

}  // namespace gshape::ts
