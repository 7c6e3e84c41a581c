// `gshape instrument PATH -o OUT`: analyse a project like `check`, then write
// its instrumented copy (codegen::instrument_tree) with OUT/gshape-report.json.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <string_view>

#include "cli/check_report.h"
#include "cli/commands.h"
#include "cli/diagnostic_formats.h"
#include "cli/config.h"
#include "cli/diagnostic_policy.h"
#include "cli/project_analysis.h"
#include "cli/review.h"
#include "cli/review_html.h"
#include "codegen/instrument_tree.h"
#include "codegen/nesting_budget.h"
#include "codegen/plan.h"
#include "codegen/run_cache.h"
#include "frontend/json_writer.h"
#include "gshape_version.h"

namespace gshape::cli {

namespace fs = std::filesystem;

namespace {

// Why OUT cannot receive the copy of `input` (codegen's refusals: the input
// itself, inside it, the folder of an input file, a file), or that it cannot
// be written; "" when it can. Checked before the analysis, so a bad OUT costs nothing.
std::string check_output(const std::string& input, const std::string& out) {
  std::string refused = codegen::check_output_location(input, out);
  if (!refused.empty()) return refused;
  std::error_code ec;
  fs::path existing = fs::absolute(out, ec).lexically_normal();
  while (!existing.empty() && !fs::exists(existing, ec) && existing.has_parent_path() && existing != existing.parent_path()) {
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

struct WrittenCounts {
  std::size_t instrumented_files = 0;
  std::size_t checks = 0;  // sites checked at run time
  std::size_t copied_files = 0;  // Python files without checks, unparsed ones, and every other file
  std::size_t not_instrumentable = 0;
};

// `obligations` as the report has them: with --check-proven, proven ones
// that cannot be checked are not counted as missing checks.
WrittenCounts count_written(const codegen::TreeResult& tree, const std::vector<gradual::Obligation>& obligations) {
  std::set<int> proven;
  for (const gradual::Obligation& ob : obligations) {
    if (ob.status == gradual::Status::Proven) proven.insert(ob.id);
  }
  WrittenCounts c;
  c.copied_files = tree.copied_files;
  for (const codegen::PythonFileSummary& f : tree.python_files) {
    if (f.status == codegen::PythonFileSummary::Status::Instrumented) {
      ++c.instrumented_files;
      c.checks += static_cast<std::size_t>(f.sites);
    } else {
      ++c.copied_files;
    }
    for (const codegen::CheckOutcome& o : f.outcomes) {
      if (!o.instrumented && proven.count(o.obligation_id) == 0) ++c.not_instrumentable;
    }
  }
  return c;
}

std::string plural(std::size_t n, const char* noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

// `s` as one word for a POSIX shell.
std::string shell_word(const std::string& s) {
  bool plain = !s.empty();
  for (char c : s) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                std::string_view("_./:@%+=,-").find(c) != std::string_view::npos;
    plain = plain && safe;
  }
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The one line telling how to run the instrumented copy with plain Python:
// it imports gshape_runtime, found in the folder this gshape uses itself
// (`gshape run` puts it on the path; docs/instrumentation.md, "Running an
// instrumented tree directly"). Empty when nothing was instrumented.
std::string run_hint(const WrittenCounts& c, const std::string& input, const std::string& out, const std::string& python) {
  if (c.instrumented_files == 0) return {};
  std::string runtime = codegen::default_runtime_path();
  if (runtime.empty()) {
    return "the copy imports gshape_runtime, which this gshape was built without (GSHAPE_WITH_TORCH=OFF)";
  }
  std::error_code ec;
  std::string script = fs::is_regular_file(input, ec) ? fs::path(input).filename().string() : "SCRIPT.py";
  const char* user_path = std::getenv("PYTHONPATH");
  std::string pythonpath = runtime;
  if (user_path && *user_path) pythonpath.append(":").append(user_path);
  std::string line = "to run it: PYTHONPATH=" + shell_word(pythonpath) + " " + shell_word(python) + " " +
                     shell_word((fs::path(out) / script).string());
  if (!fs::is_directory(fs::path(runtime) / "gshape_runtime", ec)) {
    line += " (but " + runtime + "/gshape_runtime is missing: build the gshape_runtime target)";
  }
  return line;
}

std::string written_line(const WrittenCounts& c, const std::string& out) {
  return "instrumented " + plural(c.instrumented_files, "file") + " (" + plural(c.checks, "check") + "), copied " +
         plural(c.copied_files, "file") + " into " + out;
}

void print_json(const AnalysedProject& a, const codegen::TreeResult& tree, const WrittenCounts& c,
                const std::string& out_dir, const std::string& html_path, const std::string& hint, int exit_code) {
  std::ostream& out = std::cout;
  out << "{\"tool\":\"gshape\",\"version\":" << json_quote(GSHAPE_VERSION) << ",\"command\":\"instrument\",\"diagnostics\":[";
  bool first = true;
  for (const Diagnostic& d : a.diags.all()) {
    if (!first) out << ",";
    first = false;
    render_json(out, d);
  }
  out << "],";
  // The envelope is framed by hand (as check's is); each member's value is
  // written by a JsonWriter of its own.
  JsonWriter w(out);
  out << "\"summary\":";
  w.begin_object();
  w.field("files", static_cast<uint64_t>(a.summary.files)).field("modules", static_cast<uint64_t>(a.summary.modules));
  w.field("errors", static_cast<uint64_t>(a.summary.errors)).field("warnings", static_cast<uint64_t>(a.summary.warnings));
  w.field("notes", static_cast<uint64_t>(a.summary.notes));
  w.field("obligations", static_cast<uint64_t>(a.result.obligations.size()));
  w.field("proven", static_cast<uint64_t>(a.result.count(gradual::Outcome::Proven)));
  w.field("refuted", static_cast<uint64_t>(a.result.count(gradual::Outcome::Error)));
  w.field("deferred", static_cast<uint64_t>(a.result.count(gradual::Outcome::Deferred) + a.result.count(gradual::Outcome::Warning)));
  w.field("text", summary_line(a.summary)).field("obligations_text", obligation_summary_line(a.result));
  w.end_object();
  out << ",\"instrument\":";
  JsonWriter iw(out);
  iw.begin_object();
  iw.field("output", out_dir);
  iw.key("report");
  if (tree.report_path.empty()) {
    iw.null();
  } else {
    iw.value(tree.report_path);
  }
  iw.key("html");
  if (html_path.empty()) {
    iw.null();
  } else {
    iw.value(html_path);
  }
  iw.field("python_files", static_cast<uint64_t>(tree.python_files.size()));
  iw.field("instrumented_files", static_cast<uint64_t>(c.instrumented_files));
  iw.field("checks", static_cast<uint64_t>(c.checks));
  iw.field("copied_files", static_cast<uint64_t>(c.copied_files));
  iw.field("not_instrumentable", static_cast<uint64_t>(c.not_instrumentable));
  iw.field("refused", tree.refused);
  iw.key("errors").begin_array();
  for (const std::string& e : tree.errors) iw.value(e);
  iw.end_array();
  iw.field("text", tree.refused.empty() ? written_line(c, out_dir) : std::string());
  iw.key("runtime_path");
  if (codegen::default_runtime_path().empty()) {
    iw.null();
  } else {
    iw.value(codegen::default_runtime_path());
  }
  iw.field("run_text", tree.refused.empty() ? hint : std::string());
  iw.key("unchecked_notes").begin_array();  // operations nested too deep to check, per line
  for (const codegen::PythonFileSummary& f : tree.python_files) {
    std::string notes = codegen::nesting_notes(f.path, f.site_outcomes);
    std::size_t at = 0;
    while (at < notes.size()) {
      std::size_t eol = std::min(notes.find('\n', at), notes.size());
      iw.value(notes.substr(at, eol - at));
      at = eol + 1;
    }
  }
  iw.end_array();
  iw.end_object();
  out << ",\"exit_code\":" << exit_code << "}\n";
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
  const std::string out_dir = args.get("output");
  std::error_code ec;
  if (!fs::exists(input, ec)) {
    std::cerr << input << ": error: no such file or directory\n";
    return kExitUsage;
  }
  if (output->format != OutputFormat::Text && output->format != OutputFormat::Json) {
    return usage_error("instrument", "unknown --format '" + args.get("format") + "' (expected text or json)");
  }
  std::string problem = check_output(input, out_dir);
  if (!problem.empty()) return fatal_error(problem);
  // suppressions and severities apply; include/exclude do not (a run needs every file)
  std::optional<Settings> settings = load_settings(args, {input});
  if (!settings) return kExitUsage;

  gradual::AnalysisOptions analysis_options;
  analysis_options.record_shapes = true;  // for the HTML review's shapes
  analysis_options.any_command_line = true;  // the copy may be run with any arguments
  AnalysedProject analysed = analyse_paths({input}, args.has("verbose"), *settings, analysis_options);
  std::vector<gradual::Obligation> obligations = analysed.result.plain_obligations();
  // The plans decide what is checked; the report keeps every obligation's true status.
  // --check-proven: every site is checked, proven ones too (to measure the
  // worst-case cost, or to test the analysis' proofs on real runs).
  codegen::PlanOptions plan_options;
  plan_options.check_proven = args.has("check-proven");
  std::vector<codegen::FilePlan> plans =
      codegen::build_plans(analysed.project, obligations, analysed.result.sites, plan_options);
  codegen::TreeResult tree = codegen::instrument_tree(analysed.project, plans, obligations, {input, out_dir});
  WrittenCounts counts = count_written(tree, obligations);
  // The review as a page next to gshape-report.json (what `report --html` writes).
  std::string html_path, html_error;
  if (!tree.report_path.empty()) {
    html_path = (fs::path(tree.report_path).parent_path() / "gshape-report.html").string();
    Review review = review_from_tree(analysed.project, analysed.result, tree);
    attach_functions(analysed.project, review);
    Suppressions suppressions = scan_suppressions(analysed.project);
    apply_review_settings(review, suppressions, *settings);
    ReviewPageOptions page_options;
    page_options.title = "gshape review of " + input;
    html_error = write_review_html_file(html_path, review, page_extras_from_analysis(analysed.project, analysed.result),
                                        page_options);
    if (!html_error.empty()) {
      tree.errors.push_back(html_path + ": " + html_error);
      html_path.clear();
    }
  }
  // Shape errors do not stop the copy: their checks are in it, so a run
  // stops cleanly at the line. Exit 1 says they exist; 2 that OUT is incomplete.
  const int exit_code = !tree.ok() || analysed.summary.unreadable > 0 ? kExitUsage
                        : analysed.summary.errors > 0           ? kExitErrorsFound
                                                                : kExitOk;

  const std::string hint = run_hint(counts, input, out_dir, settings->python.empty() ? "/usr/bin/python3" : settings->python);
  if (output->format == OutputFormat::Json) {
    print_json(analysed, tree, counts, out_dir, html_path, hint, exit_code);
    return exit_code;
  }
  print_check_text(analysed, output->color);
  if (!tree.refused.empty()) return fatal_error(tree.refused);
  for (const std::string& e : tree.errors) std::cerr << "gshape: error: " << e << "\n";
  // sites the nesting budget left unchecked, per line (codegen/nesting_budget.h)
  for (const codegen::PythonFileSummary& f : tree.python_files) std::cerr << codegen::nesting_notes(f.path, f.site_outcomes);
  std::cerr << written_line(counts, out_dir) << "\n";
  if (counts.not_instrumentable > 0) {
    std::cerr << plural(counts.not_instrumentable, "check") << " could not be inserted (see 'gshape report --from "
              << tree.report_path << "')\n";
  }
  if (!tree.report_path.empty()) std::cerr << "wrote " << tree.report_path << "\n";
  if (!html_path.empty()) std::cerr << "wrote " << html_path << "\n";
  if (!hint.empty()) std::cerr << hint << "\n";
  return exit_code;
}

}  // namespace

const Command& instrument_command() {
  static const Command command{
      "instrument",
      "write an instrumented copy of a project",
      R"(usage: gshape instrument [options] PATH -o OUT

Analyses the project under PATH (a directory or one file) exactly as
'gshape check' does, printing the same diagnostics and summary, then writes
to OUT a copy of it in which every shape requirement that could not be
proven statically is checked at run time, at its line, before PyTorch runs
the operation: a failing check raises ShapeCheckError naming the file, line,
rule and actual sizes. Files without checks and every other file are copied
unchanged; OUT/gshape-report.json records every obligation and what became
of it ('gshape report --from OUT/gshape-report.json' prints it), and
OUT/gshape-report.html the same review as a page to open in a browser
(what 'gshape report --html' writes: the summary per file, each file's
source with its obligations marked and colour-coded, shapes on hover).

The source tree is never modified: OUT may not be PATH, lie inside it,
hold it, or be the folder holding an input file; an OUT that holds files
but no earlier copy (no gshape-report.json) is refused too. Static errors do not stop the copy:
their checks are in it too, so the run stops cleanly at the line (exit 1
says errors were found). The copy imports the gshape_runtime package:
run it with PYTHONPATH set to the runtime folder this gshape uses (the last
line says which), or make it importable once with
scripts/install-runtime.sh BUILD.

After the diagnostics it prints
  instrumented N files (K checks), copied M files into OUT
  wrote OUT/gshape-report.json
  wrote OUT/gshape-report.html
  to run it: PYTHONPATH=RUNTIME /usr/bin/python3 OUT/SCRIPT.py

options:
  -o, --output OUT         the directory to write (required; created if missing)
  --format=text|json       json: one JSON document on stdout with the
                           diagnostics, the counts and what was written
  --check-proven           check the proven obligations at run time too (the
                           worst-case cost; a failure would mean a wrong proof);
                           the report still lists them as proven
  --verbose                also report where the analysis gave up, as notes
  --config FILE            read this gshape.toml or pyproject.toml instead of
                           looking for one; its severities apply, as do
                           '# gshape: ignore' comments (a suppressed error's
                           check is still inserted); include/exclude do not:
                           every file of PATH is instrumented
  --max-file-size SIZE     a larger file is not analysed (a warning) and is
                           copied unchanged (default 2MB)
  --warn-unused-ignores    report '# gshape: ignore' comments that suppress nothing
  --color=auto|always|never
                           colour the diagnostics (auto: when stderr is a terminal)
  -h, --help               show this help

exit status: 0 written, no errors; 1 written, shape or syntax errors found
(their checks are in OUT); 2 usage or I/O error (OUT refused or not
writable: nothing written; a file that could not be written or a source
file that could not be read)

example:
  gshape instrument src/ -o build/instrumented
  PYTHONPATH=RUNTIME /usr/bin/python3 build/instrumented/train.py
)",
      {{"output", 'o', true}, format_option(), color_option(), {"check-proven", '\0', false}, {"verbose", '\0', false},
       {"config", '\0', true}, {"warn-unused-ignores", '\0', false}, {"max-file-size", '\0', true}},
      false,
      run_instrument};
  return command;
}

}  // namespace gshape::cli
