// Prints the IR as an indented tree with locations (`gshape dump-ir`).
#pragma once

#include <iosfwd>

#include "frontend/ir.h"

namespace gshape {

// One node per line, children indented by two spaces, each with its
// `line:col` (e.g. `Call @3:5`). The format is what the golden tests hold.
void dump_ir(std::ostream& out, const ir::Module& module);

}  // namespace gshape
