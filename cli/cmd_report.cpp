// `gshape report PATH…`: the review of every shape obligation — proven,
// refuted, deferred — per file and line, with a summary table per file, and
// with --stats how often each run-time check ran and failed in a run.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "cli/project_analysis.h"
#include "cli/review.h"
#include "cli/review_render.h"
#include "codegen/atomic_file.h"

namespace gshape::cli {

namespace {

// Reads and parses a JSON file; nullopt after printing why not (an I/O error).
std::optional<Json> read_json_file(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    std::cerr << path << ": error: " << (std::filesystem::exists(path, ec) ? "not a file" : "no such file or directory")
              << " (" << what << ")\n";
    return std::nullopt;
  }
  std::optional<std::string> text = codegen::read_file(path);
  if (!text) {
    std::cerr << path << ": error: cannot read the " << what << "\n";
    return std::nullopt;
  }
  std::string error;
  std::optional<Json> json = parse_json_text(*text, error);
  if (!json) std::cerr << path << ": error: the " << what << " is not valid JSON: " << error << "\n";
  return json;
}

int run_report(const ParsedArgs& args) {
  std::optional<OutputOptions> output = read_output_options("report", args);
  if (!output) return kExitUsage;
  const bool from_file = args.has("from");
  if (from_file && !args.positional.empty()) {
    return usage_error("report", "give either PATHs to analyse or --from REPORT, not both");
  }
  if (!from_file && args.positional.empty()) {
    return usage_error("report", "'report' needs a PATH to analyse (or --from OUT/gshape-report.json)");
  }
  if (from_file && args.get("from").empty()) return usage_error("report", "'--from' needs a file");
  if (args.has("stats") && args.get("stats").empty()) return usage_error("report", "'--stats' needs a file");

  // Read the stats first: a wrong file is reported before a long analysis.
  std::optional<Json> stats;
  if (args.has("stats")) {
    stats = read_json_file(args.get("stats"), "GSHAPE_STATS file");
    if (!stats) return kExitUsage;
  }

  Review review;
  std::size_t front_end_errors = 0;
  if (from_file) {
    std::optional<Json> report = read_json_file(args.get("from"), "instrumentation report");
    if (!report) return kExitUsage;
    std::string problem = review_from_report_json(*report, review);
    if (!problem.empty()) {
      std::cerr << args.get("from") << ": error: " << problem << "\n";
      return kExitUsage;
    }
    review.source = args.get("from");
  } else {
    DiagnosticSink diags;
    Project project = load_project(args.positional, diags);
    gradual::AnalysisResult result = gradual::analyse_project(project);
    // The obligations are the report; only what kept files out of it (syntax
    // errors, unreadable files ...) is shown as diagnostics.
    diags.sort();
    front_end_errors = diags.count(Severity::Error);
    if (output->format == OutputFormat::Text) print_diagnostics_text(std::cerr, diags, output->color);
    if (!project.missing_paths.empty()) return kExitUsage;
    review = review_from_analysis(project, result);
  }
  if (stats) {
    std::string problem = attach_stats(*stats, args.get("stats"), review);
    if (!problem.empty()) {
      std::cerr << args.get("stats") << ": error: " << problem << "\n";
      return kExitUsage;
    }
  }

  FileCounts totals = review.totals();
  int exit_code = (totals.refuted > 0 || totals.failed > 0 || front_end_errors > 0) ? kExitErrorsFound : kExitOk;
  if (output->format == OutputFormat::Json) {
    print_review_json(std::cout, review, exit_code);
  } else {
    print_review_text(std::cout, review, {args.has("summary"), output->color});
  }
  return exit_code;
}

}  // namespace

const Command& report_command() {
  static const Command command{
      "report",
      "review every shape obligation: proven, refuted or deferred",
      R"(usage: gshape report [options] PATH...
       gshape report [options] --from OUT/gshape-report.json

Lists, per file and line, every shape obligation of the project with its
status and tag and its constraint:
  proven    Z3 showed it holds for every input: no run-time check
  refuted   no input can satisfy it: a static error (its check is still
            inserted, so a run stops cleanly at the line)
  deferred  it depends on values known only at run time: a run-time check;
            the report says why it could not be proven and gives example
            values that would fail
and for each refuted or deferred one whether its run-time check could be
inserted (or why it is not instrumentable). A summary table follows, one row
per file with obligations: proven, refuted, deferred, not instrumentable.

PATHs are analysed as 'gshape check' analyses them; with --from the review
stored by 'gshape instrument' in OUT/gshape-report.json is printed instead.
With --stats FILE (the JSON a run writes when GSHAPE_STATS=FILE is set, see
docs/runtime.md) each check also shows how many times it ran and whether it
failed in that run, matched by path, line, column and tag; the table gains
'ran' and 'failed' columns.

options:
  --stats FILE             counters of a run (GSHAPE_STATS) to show per check
  --from REPORT            read OUT/gshape-report.json instead of analysing PATHs
  --summary                print the summary table only
  --format=text|json       json: one JSON document on stdout with every
                           obligation, the per-file counts and the totals
  --color=auto|always|never
                           colour the statuses (auto: when stderr is a terminal)
  -h, --help               show this help

exit status: 0 nothing refuted and no check failed; 1 a refuted obligation,
a check that failed in the run given by --stats, or a file that could not be
parsed; 2 usage or I/O error (a missing PATH, an unreadable or malformed
--stats or --from file)

example:
  gshape report src/
  gshape report --summary samples/
  GSHAPE_STATS=stats.json gshape run train.py; gshape report --stats stats.json .
  gshape report --from build/instrumented/gshape-report.json
)",
      {format_option(), color_option(), {"stats", '\0', true}, {"from", '\0', true}, {"summary", '\0', false}},
      false,
      run_report};
  return command;
}

}  // namespace gshape::cli
