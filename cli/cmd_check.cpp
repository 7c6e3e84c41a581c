// `gshape check PATH…`: load the project, analyse it, report.
#include <iostream>

#include "cli/commands.h"
#include "frontend/project.h"

namespace gshape::cli {

namespace {

// The shape analysis (gradual/) slots in here, between loading and
// reporting: it reads the loaded project and adds its diagnostics to the
// same sink. Until it lands, `check` reports front-end diagnostics only.
void analyse(const Project& /*project*/, DiagnosticSink& /*diags*/) {}

int run_check(const ParsedArgs& args) {
  std::optional<OutputOptions> output = read_output_options("check", args);
  if (!output) return kExitUsage;
  if (args.positional.empty()) return usage_error("check", "'check' needs at least one PATH");

  DiagnosticSink diags;
  Project project = load_project(args.positional, diags);
  if (project.all_files.empty() && project.missing_paths.empty()) {
    diags.report({Severity::Warning, {}, {}, "no Python files found", {}, {}});
  }
  analyse(project, diags);
  diags.sort();

  CheckSummary summary = count_diagnostics(diags, project.all_files.size(), project.modules.size());
  int exit_code = !project.missing_paths.empty() ? kExitUsage : summary.errors > 0 ? kExitErrorsFound : kExitOk;
  if (output->format == OutputFormat::Json) {
    print_json_report(std::cout, "check", diags, summary, exit_code);
  } else {
    print_diagnostics_text(std::cerr, diags, output->color);
    std::cerr << summary_line(summary) << "\n";
  }
  return exit_code;
}

}  // namespace

const Command& check_command() {
  static const Command command{
      "check",
      "report shape errors in a project (today: front-end diagnostics)",
      R"(usage: gshape check [options] PATH...

Loads every .py file under each PATH (a file or a directory, walked
recursively; hidden folders, virtual environments, __pycache__, build/,
dist/, node_modules/ and site-packages/ are skipped), parses it, and reports
diagnostics on stderr in compiler form (path:line:col: severity: message, the
source line and a caret), sorted by file and line, then a summary line.
Until the shape analysis lands, only front-end diagnostics are reported
(syntax errors, unreadable, binary or non-UTF-8 files).

options:
  --format=text|json       json: print one JSON document on stdout holding the
                           diagnostics and the summary counts (default: text)
  --color=auto|always|never
                           colour the text diagnostics (auto: when stderr is a
                           terminal)
  -h, --help               show this help

exit status: 0 no errors, 1 errors found, 2 usage or I/O error (such as a
missing PATH)

example:
  gshape check src/
  gshape check --format=json model.py train.py
)",
      {format_option(), color_option()},
      false,
      run_check};
  return command;
}

}  // namespace gshape::cli
