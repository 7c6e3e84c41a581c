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

// When `root` contains an error, or a Python 2 `print x` / `exec code`
// statement (tree-sitter-python parses them, Python 3 does not), reports
// exactly one diagnostic, in CPython 3.11's words, and returns true:
//   `syntax error: Missing parentheses in call to 'print'. Did you mean print(...)?`,
//   the tokenizer's errors found anywhere in the file (`unterminated string
//   literal (detected at line 3)`, `unmatched ')'`, `closing parenthesis ']'
//   does not match opening parenthesis '('`), `'(' was never closed` at the
//   innermost bracket left open at the end of the file, `expected ':'` after a
//   block header without its colon, else `invalid syntax` where the parse
//   stopped; or, when a line is indented deeper than the scanner can follow,
//   `nesting too deep: …` there (a warning: a limit of gshape, not an error). The order is CPython's: a tokenizer error
//   wins, then an open bracket unless an error ends on an earlier line.
bool report_syntax_error(TSNode root, const SourceFile& file, LocationMap& locations, DiagnosticSink& diags);

}  // namespace gshape::ts
