// `gshape report PATH…`: the review of every shape obligation — proven,
// refuted, deferred — per file and line, with a summary table per file, and
// with --stats how often each run-time check ran and failed in a run.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/check_report.h"
#include "cli/commands.h"
#include "cli/config.h"
#include "cli/diagnostic_policy.h"
#include "cli/project_analysis.h"
#include "cli/review.h"
#include "cli/review_html.h"
#include "cli/review_render.h"
#include "cli/review_triage.h"
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
  if (args.has("html") && args.get("html").empty()) return usage_error("report", "'--html' needs a file to write");
  const bool html = args.has("html");
  if (output->format != OutputFormat::Text && output->format != OutputFormat::Json) {
    return usage_error("report", "unknown --format '" + args.get("format") + "' (expected text or json)");
  }
  ReviewFilter filter;
  if (std::optional<std::string> error = ReviewFilter::read(args, filter)) return usage_error("report", *error);
  const bool symbolic = args.has("args");
  if (symbolic) {
    if (args.get("args") != "symbolic") return usage_error("report", "unknown --args '" + args.get("args") + "' (expected symbolic)");
    if (from_file) return usage_error("report", "--args=symbolic analyses a SCRIPT: it takes no --from");
    if (args.positional.size() != 1) return usage_error("report", "--args=symbolic takes exactly one SCRIPT");
  }
  std::optional<Settings> settings = load_settings(args, args.positional);
  if (!settings) return kExitUsage;

  // Read the stats first: a wrong file is reported before a long analysis.
  std::optional<Json> stats;
  if (args.has("stats")) {
    stats = read_json_file(args.get("stats"), "GSHAPE_STATS file");
    if (!stats) return kExitUsage;
  }

  Review review;
  ReviewPageExtras page;
  std::size_t front_end_errors = 0;
  Suppressions suppressions;
  DiagnosticSink diags;
  Project project;
  if (from_file) {
    std::optional<Json> report = read_json_file(args.get("from"), "instrumentation report");
    if (!report) return kExitUsage;
    std::string problem = review_from_report_json(*report, review);
    if (!problem.empty()) {
      std::cerr << args.get("from") << ": error: " << problem << "\n";
      return kExitUsage;
    }
    review.source = args.get("from");
    // the files are read again for their functions and ignore comments
    std::vector<std::string> sources;
    std::error_code ec;
    for (const std::string& f : review.files) {
      if (std::filesystem::is_regular_file(f, ec)) sources.push_back(f);
    }
    DiagnosticSink unused;
    project = load_project(sources, unused);
    suppressions = scan_suppressions(project);
    attach_functions(project, review);
    if (html) add_sources(project, page);
  } else {
    project = load_project(args.positional, diags, 0, settings->file_filter(), settings->max_file_bytes);
    gradual::AnalysisOptions options;
    options.record_shapes = html;  // the page shows each expression's shape
    options.symbolic_args = symbolic;
    gradual::set_full_terms(args.has("full-terms"));  // before: the analysis renders its texts as it goes
    gradual::AnalysisResult result = gradual::analyse_project(project, options);
    // The obligations are the report; only what kept files out of it (syntax
    // errors, unreadable files ...) is shown as diagnostics.
    diags.sort();
    front_end_errors = diags.count(Severity::Error);
    if (!project.missing_paths.empty()) {  // nothing to review: the paths named are not there
      if (output->format == OutputFormat::Text) print_diagnostics_text(std::cerr, diags, output->color);
      return kExitUsage;
    }
    review = review_from_analysis(project, result);
    if (symbolic) review.preconditions = precondition_report(result);
    attach_functions(project, review);
    suppressions = scan_suppressions(project);
    if (html) page = page_extras_from_analysis(project, result);
  }
  // ignore comments and configured severities, as check applies them
  apply_review_settings(review, suppressions, *settings);
  if (settings->warn_unused_ignores) {
    for (Diagnostic& d : suppressions.unused_warnings()) {
      if (std::optional<Severity> s = settings->severity_of(d.tag, d.severity)) {
        d.severity = *s;
        diags.report(std::move(d));
      }
    }
    diags.sort();
  }
  if (output->format == OutputFormat::Text) print_diagnostics_text(std::cerr, diags, output->color);
  std::size_t unreadable = diags.count_io_errors();
  front_end_errors = diags.count(Severity::Error) - unreadable;
  if (stats) {
    std::string problem = attach_stats(*stats, args.get("stats"), review);
    if (!problem.empty()) {
      std::cerr << args.get("stats") << ": error: " << problem << "\n";
      return kExitUsage;
    }
  }

  FileCounts totals = review.totals();
  bool refuted = std::any_of(review.entries.begin(), review.entries.end(), [](const ReviewEntry& e) { return e.counts_as_error(); });
  int exit_code = unreadable > 0 ? kExitUsage
                  : (refuted || totals.failed > 0 || front_end_errors > 0) ? kExitErrorsFound
                                                                          : kExitOk;
  if (html) {
    ReviewPageOptions page_options;
    page_options.filter = filter;
    std::string what = from_file ? args.get("from") : std::string();
    for (const std::string& p : args.positional) what += (what.empty() ? "" : " ") + p;
    page_options.title = "gshape review of " + what;
    std::string problem = write_review_html_file(args.get("html"), review, page, page_options);
    if (!problem.empty()) {
      std::cerr << args.get("html") << ": error: cannot write the HTML review: " << problem << "\n";
      return kExitUsage;
    }
  }
  if (output->format == OutputFormat::Json) {
    print_review_json(std::cout, review, filter, exit_code, html ? args.get("html") : std::string());
  } else {
    print_review_text(std::cout, review, {args.has("summary"), output->color, filter});
    if (html) std::cerr << "wrote " << args.get("html") << "\n";
    if (!args.has("summary")) {
      // only what the listing printed: a cut term of a hidden (trivial,
      // proven, filtered) obligation is not on the screen
      std::size_t cut = 0;
      Triage listed = triage_review(review, filter);
      for (const auto* section : {&listed.refuted, &listed.deferred, &listed.proven})
        for (const ReviewEntry* e : *section)
          for (const std::string* text : {&e->constraint, &e->message, &e->reason})
            if (gradual::has_cut_term(*text)) ++cut;
      if (cut > 0) std::cerr << cut_terms_line(cut) << "\n";
    }
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

The review of the project's shape obligations, triaged: first every refuted
one (a static error), then every deferred one (checked at run time), each
grouped per file and function, with
  refuted   no input can satisfy it: the message (its check is still
            inserted, so a run stops cleanly at the line)
  deferred  it depends on values known only at run time: the message, why
            it could not be proven and example values that would fail;
            "run-time check: ..." only when no check could be inserted
  proven    (--all) Z3 showed it holds for every input: what holds
Not listed unless --verbose: trivia no one acts on (deferred requirements
that a size or hyperparameter argument is not negative, as nn.Linear(n, m)
with n unknown; or that an operand is not 0-dimensional) and obligations
suppressed by a '# gshape: ignore' comment; their checks are in the
instrumented code all the same. A summary table follows (one row per file:
proven, refuted, deferred, not instrumentable), then a line counting what
the listing left out.

PATHs are analysed as 'gshape check' analyses them (with the same
configuration: gshape.toml or [tool.gshape] in pyproject.toml, --exclude);
with --from the review stored by 'gshape instrument' in
OUT/gshape-report.json is printed instead. With --stats FILE (the JSON a run
writes when GSHAPE_STATS=FILE is set, see docs/runtime.md) each check also
shows how many times it ran and whether it failed in that run, matched by
path, line, column and tag; the table gains 'ran' and 'failed' columns.

With --args=symbolic (one SCRIPT) every int argument of the script's
argparse parsers is a symbol, as for 'gshape check --args=symbolic', and the
review starts with the preconditions the script puts on them (text, JSON
"preconditions", and the top of the HTML page): docs/hyperparameters.md.

With --html FILE the review is also written as one self-contained HTML page
(no network, no script): the summary per file (proven, refuted, deferred,
not checked, no run-time check; ran and failed with --stats), then each
file's source with every obligation under its line, the line coloured by
its worst status (refuted red, deferred amber, proven green, not checked
grey), and the inferred shape of each tensor expression on hover (PATHs
only: a report read with --from has no shapes). --status/--tag/--file
select what the page holds; proven, trivial and suppressed obligations are
on it behind two toggles (--all and --verbose turn them on).

options:
  --all                    list proven obligations too
  --verbose                list trivia and suppressed obligations too
  --status=S[,S...]        only obligations of these statuses: refuted,
                           deferred, proven (repeatable)
  --tag=GLOB[,GLOB...]     only obligations whose tag matches (linear_c1,
                           'einops_*'; repeatable)
  --file=GLOB[,GLOB...]    only obligations in matching files (vit.py,
                           'models/*.py', 'src/**'; repeatable)
  --stats FILE             counters of a run (GSHAPE_STATS) to show per check
  --from REPORT            read OUT/gshape-report.json instead of analysing PATHs
  --html FILE              also write the review as an HTML page to FILE
  --args=symbolic          (one SCRIPT) int arguments as symbols; the
                           preconditions on them first
  --summary                print the summary table only
  --full-terms             print every term in full (PATHs): a term longer
                           than 300 characters otherwise prints its parts
                           past that as '…' (a last line says when any was);
                           in full, a part it shares is named once ('_1') and
                           defined after it ('where _1 = ...')
  --format=text|json       json: one JSON document on stdout with every
                           obligation the filters select (hidden ones too,
                           marked "trivia" and "suppressed", with their
                           "function"), the per-file counts and the totals
  --config FILE            read this gshape.toml or pyproject.toml instead of
                           looking for one
  --exclude GLOB           leave out matching files (repeatable, comma-separated)
  --max-file-size SIZE     skip larger files with a warning (default 2MB)
  --warn-unused-ignores    report '# gshape: ignore' comments that suppress nothing
  --color=auto|always|never
                           colour the statuses (auto: when stderr is a terminal)
  -h, --help               show this help

exit status: 0 nothing refuted and no check failed; 1 a refuted obligation
(not suppressed, not configured below error), a check that failed in the run
given by --stats, or a file that could not be parsed; 2 usage or I/O error (a
missing PATH, a source file that could not be read, an unreadable or
malformed --stats, --from or config file, an --html FILE that cannot be
written).
The filters change what is listed, never the exit status.

example:
  gshape report src/
  gshape report --status=refuted --file=model.py src/
  gshape report --all --tag='linear_*' src/
  gshape report --summary samples/
  gshape report --html review.html src/
  gshape report --args=symbolic --html review.html train.py
  GSHAPE_STATS=stats.json gshape run train.py; gshape report --stats stats.json .
  gshape report --from build/instrumented/gshape-report.json
)",
      [] {
        std::vector<OptionSpec> o = {format_option(), color_option(), {"stats", '\0', true}, {"from", '\0', true},
                                     {"html", '\0', true}, {"args", '\0', true},
                                     {"summary", '\0', false}, {"full-terms", '\0', false}, {"all", '\0', false}, {"verbose", '\0', false},
                                     {"status", '\0', true}, {"tag", '\0', true}, {"file", '\0', true},
                                     {"warn-unused-ignores", '\0', false}};
        for (const OptionSpec& c : config_options()) o.push_back(c);
        return o;
      }(),
      false,
      run_report};
  return command;
}

}  // namespace gshape::cli
