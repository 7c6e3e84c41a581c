// `gshape instrument PATH -o OUT`: write the instrumented copy of a project.
// The rewriter is not there yet; the arguments are validated already, so the
// refusals users rely on (never write into the source tree) hold today.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/commands.h"

namespace gshape::cli {

namespace fs = std::filesystem;

namespace {

// Whether `inner` is `outer` or lies below it (both absolute and normal).
bool is_same_or_inside(const fs::path& inner, const fs::path& outer) {
  return std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end()).first == outer.end();
}

// An error message when `out` cannot receive the instrumented copy of `input`, or "".
std::string check_output_location(const std::string& input, const std::string& out) {
  std::error_code ec;
  fs::path input_abs = fs::canonical(input, ec);
  fs::path out_abs = fs::weakly_canonical(fs::absolute(out, ec), ec).lexically_normal();
  if (ec) return "cannot use output location '" + out + "': " + ec.message();
  if (!out_abs.has_filename()) out_abs = out_abs.parent_path();  // "out/" → "out"
  bool input_is_dir = fs::is_directory(input_abs, ec);
  // The tree the copy mirrors: the input directory, or the folder holding the input file.
  fs::path source_tree = input_is_dir ? input_abs : input_abs.parent_path();
  if (out_abs == input_abs) return "output '" + out + "' is the input itself; gshape never modifies the source tree";
  if (input_is_dir && is_same_or_inside(out_abs, source_tree)) {
    return "output directory '" + out + "' is inside the input '" + input +
           "'; gshape never writes into the source tree (choose a directory outside it)";
  }
  if (!input_is_dir && out_abs == source_tree) {
    return "output directory '" + out + "' holds the input '" + input +
           "'; the instrumented copy would overwrite it (choose another directory)";
  }
  if (fs::exists(out_abs, ec) && !fs::is_directory(out_abs, ec)) {
    return "output '" + out + "' exists and is not a directory";
  }
  // The nearest existing ancestor must be a directory we may write into.
  fs::path existing = out_abs;
  while (!fs::exists(existing, ec) && existing.has_parent_path() && existing != existing.parent_path()) {
    existing = existing.parent_path();
  }
  if (!fs::is_directory(existing, ec)) {
    return "cannot create output directory '" + out + "': '" + existing.string() + "' is not a directory";
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    return "cannot write to output location '" + out + "': " + std::strerror(errno);
  }
  return {};
}

int run_instrument(const ParsedArgs& args) {
  std::optional<OutputOptions> output = read_output_options("instrument", args);
  if (!output) return kExitUsage;
  if (args.positional.empty()) return usage_error("instrument", "'instrument' needs a PATH to instrument");
  if (args.positional.size() > 1) {
    return usage_error("instrument", "'instrument' takes one PATH, got " + std::to_string(args.positional.size()));
  }
  if (!args.has("output") || args.get("output").empty()) {
    return usage_error("instrument", "'instrument' needs an output directory: -o OUT");
  }
  const std::string& input = args.positional.front();
  std::error_code ec;
  if (!fs::exists(input, ec)) {
    std::cerr << input << ": error: no such file or directory\n";
    return kExitUsage;
  }
  std::string problem = check_output_location(input, args.get("output"));
  if (!problem.empty()) return fatal_error(problem);
  return fatal_error("'instrument' is not implemented yet");
}

}  // namespace

const Command& instrument_command() {
  static const Command command{
      "instrument",
      "write an instrumented copy of a project (not implemented yet)",
      R"(usage: gshape instrument [options] PATH -o OUT

Writes to OUT a copy of the project under PATH in which every shape
requirement that could not be settled statically is checked at run time.
The source tree is never modified: OUT may not be PATH or lie inside it.
Not implemented yet: the arguments are checked, then gshape exits with
status 2.

options:
  -o, --output OUT         the directory to write (required; created if missing)
  --color=auto|always|never
                           colour the diagnostics (auto: when stderr is a terminal)
  -h, --help               show this help

example:
  gshape instrument src/ -o build/instrumented
)",
      {{"output", 'o', true}, color_option()},
      false,
      run_instrument};
  return command;
}

}  // namespace gshape::cli
