// `gshape run SCRIPT [-- ARGS…]`: instrument a script (cached) and run it.
// Not implemented yet; its arguments are validated already.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"

namespace gshape::cli {

namespace {

int run_run(const ParsedArgs& args) {
  std::optional<OutputOptions> output = read_output_options("run", args);
  if (!output) return kExitUsage;
  if (args.positional.empty()) return usage_error("run", "'run' needs a SCRIPT to run");
  if (args.positional.size() > 1) {
    return usage_error("run", "unexpected argument '" + args.positional[1] +
                                  "' after the script (put the script's own arguments after '--')");
  }
  const std::string& script = args.positional.front();
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(script, ec);
  if (!std::filesystem::exists(status)) {
    std::cerr << script << ": error: no such file or directory\n";
    return kExitUsage;
  }
  if (!std::filesystem::is_regular_file(status)) {
    std::cerr << script << ": error: not a file (the script to run)\n";
    return kExitUsage;
  }
  return fatal_error("'run' is not implemented yet");
}

}  // namespace

const Command& run_command() {
  static const Command command{
      "run",
      "instrument a script and run it (not implemented yet)",
      R"(usage: gshape run [options] SCRIPT [-- ARGS...]

Instruments SCRIPT and the project modules it imports (cached), then runs it
with ARGS as if it were run directly with Python: a shape requirement that
fails raises ShapeCheckError at the user's line. Options for gshape come
before "--"; everything after it is passed to the script unchanged.
Not implemented yet: the arguments are checked, then gshape exits with
status 2.

options:
  --color=auto|always|never
                           colour the diagnostics (auto: when stderr is a terminal)
  -h, --help               show this help

example:
  gshape run train.py -- --epochs 1
)",
      {color_option()},
      true,
      run_run};
  return command;
}

}  // namespace gshape::cli
