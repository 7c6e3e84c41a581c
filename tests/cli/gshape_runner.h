// Runs the built `gshape` binary (its path comes from CMake) for CLI tests.
#pragma once

#include <string>
#include <vector>

#include "run_process.h"

namespace gshape::testing {

inline ProcessResult gshape(const std::vector<std::string>& args, const std::string& working_dir = {}) {
  return run_process(GSHAPE_BINARY, args, working_dir);
}

// Number of (possibly overlapping) occurrences of `needle` in `haystack`.
inline std::size_t count_of(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace gshape::testing
