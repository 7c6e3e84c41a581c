// Runs the built `gshape` binary (its path comes from CMake) for CLI tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "frontend/json_reader.h"
#include "run_process.h"

namespace gshape::testing {

inline ProcessResult gshape(const std::vector<std::string>& args, const std::string& working_dir = {}) {
  return run_process(GSHAPE_BINARY, args, working_dir);
}

// A JSON document parsed back (a test failure, and an empty document, when it is not one).
inline Json parse_json_or_fail(const std::string& text) {
  std::string error;
  std::optional<Json> doc = parse_json_text(text, error);
  EXPECT_TRUE(doc.has_value()) << error << "\n" << text;
  return doc.value_or(Json{});
}

// The stdout of a `gshape ... --format=json` run, parsed.
inline Json gshape_json(const std::vector<std::string>& args, const std::string& working_dir = {}) {
  return parse_json_or_fail(gshape(args, working_dir).out);
}

// A JSON file parsed.
inline Json parse_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json_or_fail(text.str());
}

// Number of (possibly overlapping) occurrences of `needle` in `haystack`.
inline std::size_t count_of(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace gshape::testing
