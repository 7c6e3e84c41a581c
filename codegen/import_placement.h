// Where the one-line runtime header (`import gshape_runtime as _gshape_rt;
// _gshape_checks = _gshape_rt.CheckTable(...)`) goes in an instrumented file,
// without adding a line and without disturbing what Python reads first.
//
// The rule, first match wins (docs/instrumentation.md explains each):
//   1. after the module docstring and `from __future__` imports, on the
//      line where the last of them ends: `"""doc"""; HEADER`;
//   2. before the first statement when it is a simple statement: `HEADER; import torch`;
//   3. on a blank or comment-only line before the first statement
//      (never line 1 when it is a shebang, never on or before a line
//      holding the encoding declaration, after a byte-order mark);
//   4. on a blank or comment-only line between two top-level statements,
//      or before a top-level simple statement that begins its line, when
//      no statement before that place can run a check or call this
//      module's functions while the module loads.
// Otherwise the file has no place for the header and is not instrumented.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir.h"

namespace gshape::codegen {

struct ImportPlacement {
  enum class Form : uint8_t {
    None,             // no valid place
    AfterStatement,   // insert "; " + HEADER at `offset` (end of the preamble)
    BeforeStatement,  // insert HEADER + "; " at `offset` (start of a simple statement)
    OwnLine,          // insert HEADER at `offset` (start of a blank or comment-only line)
  };
  Form form = Form::None;
  uint32_t offset = 0;
  bool before_comment = false;  // OwnLine on a comment line: HEADER + "  " keeps the comment apart
  int rule = 0;                 // 1-4 as above
  std::string problem;          // Form::None: why
};

// `wrapper_offsets`: where inserted checks begin (sorted); `call_begins`:
// where calls begin (sorted, from ExpressionIndex).
ImportPlacement place_runtime_import(const ir::Module& module, const std::vector<uint32_t>& wrapper_offsets,
                                     const std::vector<uint32_t>& call_begins);

// The text to insert at `placement.offset` for `header`.
std::string header_insertion(const ImportPlacement& placement, const std::string& header);

}  // namespace gshape::codegen
