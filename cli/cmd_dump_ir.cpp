// `gshape dump-ir FILE`: print the IR of one file (for golden tests and debugging).
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "frontend/ir_dump.h"
#include "frontend/project.h"

namespace gshape::cli {

namespace {

int run_dump_ir(const ParsedArgs& args) {
  std::optional<OutputOptions> output = read_output_options("dump-ir", args);
  if (!output) return kExitUsage;
  if (args.positional.size() != 1) return usage_error("dump-ir", "'dump-ir' needs exactly one FILE");
  const std::string& path = args.positional.front();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return usage_error("dump-ir", "'" + path + "' is a directory; 'dump-ir' takes one file");
  }

  DiagnosticSink diags;
  Project project = load_project({path}, diags);
  diags.sort();
  print_diagnostics_text(std::cerr, diags, output->color);
  if (!project.missing_paths.empty()) return kExitUsage;
  if (project.modules.empty()) return kExitErrorsFound;
  dump_ir(std::cout, *project.modules.front().ir);
  return diags.has_errors() ? kExitErrorsFound : kExitOk;
}

}  // namespace

const Command& dump_ir_command() {
  static const Command command{
      "dump-ir",
      "print the intermediate representation of one file",
      R"(usage: gshape dump-ir [options] FILE

Parses FILE and prints its IR on stdout as an indented tree, one node per
line with its line:col. A file with a syntax error prints the diagnostic on
stderr instead and exits 1.

options:
  --color=auto|always|never
                           colour the diagnostics (auto: when stderr is a terminal)
  -h, --help               show this help

example:
  gshape dump-ir model.py
)",
      {color_option()},
      false,
      run_dump_ir};
  return command;
}

}  // namespace gshape::cli
