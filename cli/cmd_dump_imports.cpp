// `gshape dump-imports PATH…`: print the analysis order and each module's
// project imports, marking import cycles.
#include <iostream>

#include "cli/commands.h"
#include "frontend/project.h"

namespace gshape::cli {

namespace {

void print_module_line(std::ostream& out, const Project& project, std::size_t index, const char* indent) {
  const ProjectModule& m = project.modules[index];
  out << indent << m.file->module_name();
  const char* separator = " -> ";
  for (std::size_t imported : m.imports) {
    out << separator << project.modules[imported].file->module_name();
    separator = ", ";
  }
  out << "\n";
}

int run_dump_imports(const ParsedArgs& args) {
  std::optional<OutputOptions> output = read_output_options("dump-imports", args);
  if (!output) return kExitUsage;
  if (args.positional.empty()) return usage_error("dump-imports", "'dump-imports' needs a PATH");

  DiagnosticSink diags;
  Project project = load_project(args.positional, diags);
  diags.sort();
  print_diagnostics_text(std::cerr, diags, output->color);
  if (!project.missing_paths.empty()) return kExitUsage;

  for (const std::vector<std::size_t>& component : project.analysis_order) {
    if (component.size() == 1) {
      print_module_line(std::cout, project, component.front(), "");
      continue;
    }
    std::cout << "cycle: ";
    for (std::size_t k = 0; k < component.size(); ++k) {
      std::cout << (k ? ", " : "") << project.modules[component[k]].file->module_name();
    }
    std::cout << "\n";
    for (std::size_t index : component) print_module_line(std::cout, project, index, "  ");
  }
  return diags.has_errors() ? kExitErrorsFound : kExitOk;
}

}  // namespace

const Command& dump_imports_command() {
  static const Command command{
      "dump-imports",
      "print the import graph in analysis order",
      R"(usage: gshape dump-imports [options] PATH...

Loads the project under PATH and prints its modules in analysis order
(a module's imports come before it), one line per module followed by the
project modules it imports:

  pkg.util
  pkg.model -> pkg.util

Modules that import each other form a cycle and are printed together, after
a line naming them ("cycle: a, b"). Imports of modules outside the project
(torch, numpy, ...) are not shown. Files that do not parse are reported on
stderr and left out.

options:
  --color=auto|always|never
                           colour the diagnostics (auto: when stderr is a terminal)
  -h, --help               show this help

example:
  gshape dump-imports src/
)",
      {color_option()},
      false,
      run_dump_imports};
  return command;
}

}  // namespace gshape::cli
