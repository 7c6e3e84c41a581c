// An analysis unit's result as text and back, for the analysis cache
// (codegen/analysis_cache.h): everything `gshape check`, `run` and the
// rewriter read of an AnalysisResult — obligations with their rendered
// texts (AnalysedObligation::Frozen), sites, shapes, diagnostics,
// statistics — so that a result read back prints byte for byte what the
// analysis printed. Terms are not rebuilt. Only results of options that
// split into units (splits_into_units: no launch, no --args=symbolic, no
// signatures) are written.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::gradual {

// A compact byte stream (varints, interned strings; analysis_serial.cpp).
std::string serialise_result(const AnalysisResult& result);

// The result `text` holds, its locations pointing into `unit`'s files (by
// path); nullopt when the text is not one serialise_result wrote or names a
// file `unit` does not hold.
std::optional<AnalysisResult> deserialise_result(std::string_view text, const Project& unit);

}  // namespace gshape::gradual
