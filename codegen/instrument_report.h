// OUT/gshape-report.json: the review data of an instrumented tree. Every
// obligation (proven, refuted, deferred) in full (gradual::write_json), with
// what became of it at run time: a check inserted at a site of the module's
// table, not needed (proven), or not instrumentable (and why); per-file
// summaries; files copied without parsing. docs/instrumentation.md shows it.
#pragma once

#include <string>
#include <vector>

#include "codegen/instrument_tree.h"

namespace gshape::codegen {

inline constexpr const char* kReportFormat = "gshape-instrument-report";
inline constexpr int kReportVersion = 2;

std::string render_instrument_report(const TreeResult& tree, const std::vector<gradual::Obligation>& obligations,
                                     const TreeOptions& options);

}  // namespace gshape::codegen
