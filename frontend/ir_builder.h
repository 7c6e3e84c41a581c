// tree-sitter-python concrete tree → IR (frontend/ir.h).
#pragma once

#include <memory>

#include "frontend/diagnostics.h"
#include "frontend/ir.h"
#include "frontend/source.h"

namespace gshape {

// Parses `file` and builds its IR. A file with syntax errors gets one
// diagnostic `syntax error: …` at its first ERROR or MISSING node and yields
// nullptr (the caller skips it). Never throws on any input; nesting deeper
// than the builder's limit becomes a warning, not a stack overflow.
// (Details, frontend/README.md: the syntax error may also be an indentation
// error tree-sitter lets through; code nested past 400 IR levels becomes
// Opaque with one `nesting too deep` warning and the Module is still returned.)
std::unique_ptr<ir::Module> build_module(const SourceFile& file, DiagnosticSink& diags);

}  // namespace gshape
