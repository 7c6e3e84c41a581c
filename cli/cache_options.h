// The analysis cache as the commands use it (codegen/analysis_cache.h):
// --cache-dir DIR and --no-cache, and the --verbose line saying what came
// from it. `gshape cache dir|clean` is cmd_cache.cpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/options.h"
#include "codegen/analysis_cache.h"
#include "gradual/analysis.h"

namespace gshape::cli {

// The option specs: --cache-dir DIR, --no-cache.
OptionSpec cache_dir_option();
OptionSpec no_cache_option();

// The cache home: --cache-dir, else $XDG_CACHE_HOME/gshape, else ~/.cache/gshape.
std::string cache_home_of(const ParsedArgs& args);

// The analysis cache for `options`, or nullptr with --no-cache or when the
// options analyse the project as one (a launch, --args=symbolic).
std::unique_ptr<codegen::DiskUnitCache> open_analysis_cache(const ParsedArgs& args,
                                                            const gradual::AnalysisOptions& options);

// The front end's file facts in the same cache home (for `check`: files
// whose import names are known are parsed only when their unit is analysed).
std::unique_ptr<codegen::DiskFileFacts> open_file_facts(const ParsedArgs& args);

// "modules parsed: 5 of 51 (the others' units came from the cache)" (--verbose, stderr).
std::string parse_stats_line(const Project& project);

// "analysis units: 4 (1 analysed, 3 from the cache)" (--verbose, stderr).
std::string unit_stats_line(const gradual::AnalysisResult& result);

// "Z3 time: 4.912 s in 5565 checks; by file (...):", then the `files` files
// Z3 spent most time on, slowest first, one a line (--verbose, stderr).
std::vector<std::string> solver_time_lines(const gradual::AnalysisResult& result, std::size_t files = 10);

// "Z3 checks by outcome ...", then one line per outcome (unsat, sat, unknown,
// unsat cores): checks, time, resource units and how they spread (--verbose).
std::vector<std::string> solver_profile_lines(const gradual::AnalysisResult& result);

}  // namespace gshape::cli
