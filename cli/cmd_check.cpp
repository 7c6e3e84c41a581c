// `gshape check PATH…`: load the project, analyse its shapes, report.
#include <iostream>

#include "cli/cache_options.h"
#include "cli/check_report.h"
#include "cli/commands.h"
#include "cli/config.h"
#include "cli/diagnostic_formats.h"
#include "cli/project_analysis.h"
#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::cli {

namespace {

int run_check(const ParsedArgs& args) {
  std::optional<OutputOptions> output = read_output_options("check", args);
  if (!output) return kExitUsage;
  if (args.positional.empty()) return usage_error("check", "'check' needs at least one PATH");
  std::string emit = args.get("emit");
  if (args.has("emit") && emit != "obligations") {
    return usage_error("check", "unknown --emit '" + emit + "' (expected obligations)");
  }
  bool show_shapes = args.has("show-shapes");
  std::optional<Settings> settings = load_settings(args, args.positional);
  if (!settings) return kExitUsage;

  gradual::AnalysisOptions options;
  options.record_shapes = show_shapes;
  if (args.has("args")) {
    if (args.get("args") != "symbolic") return usage_error("check", "unknown --args '" + args.get("args") + "' (expected symbolic)");
    if (args.double_dash) return usage_error("check", "--args=symbolic takes no command line after '--'");
    if (args.positional.size() != 1) return usage_error("check", "--args=symbolic takes exactly one SCRIPT");
    options.symbolic_args = true;
  }
  if (args.double_dash) {
    // a launch: `gshape check train.py -- --heads 6`
    if (args.positional.size() != 1) return usage_error("check", "'check SCRIPT -- ARGS' takes exactly one SCRIPT");
    options.launch_args = args.after_double_dash;
    options.launch_script = args.positional.front();
  }
  options.witnesses = !args.has("no-witnesses");
  if (args.has("cache-dir") && args.get("cache-dir").empty()) return usage_error("check", "'--cache-dir' needs a path");
  // --full-terms: the analysis renders its texts as it goes, so every term is
  // printed in full from the start; the cache holds texts printed with the
  // cap, so it is neither read nor written
  const bool full_terms = args.has("full-terms");
  gradual::set_full_terms(full_terms);
  std::unique_ptr<codegen::DiskUnitCache> cache = full_terms ? nullptr : open_analysis_cache(args, options);
  // with the cache, a file whose import names it holds is parsed only if its unit is analysed
  std::unique_ptr<codegen::DiskFileFacts> facts = cache ? open_file_facts(args) : nullptr;
  DiagnosticSink diags;
  // The project and the analysis live until the process exits: freeing
  // their hundreds of thousands of nodes one by one cost about 5% of a check
  // of a large project, for memory the exit gives back at once.
  Project& project = *new Project(
      load_project(args.positional, diags, 0, settings->file_filter(), settings->max_file_bytes, facts.get()));
  if (project.all_files.empty() && project.missing_paths.empty()) {
    diags.report({Severity::Warning, {}, {}, "no Python files found", {}, {}});
  }
  gradual::AnalysisResult& result = *new gradual::AnalysisResult(gradual::analyse_project(project, options, cache.get()));
  std::size_t suppressed = add_checked_diagnostics(project, result, diags, args.has("verbose"), *settings);

  CheckSummary summary = count_diagnostics(diags, project.all_files.size(), project.modules.size());
  summary.suppressed = suppressed;
  int exit_code = summary.unreadable > 0 ? kExitUsage : summary.errors > 0 ? kExitErrorsFound : kExitOk;
  if (output->format == OutputFormat::Json) {
    print_check_json(std::cout, diags, summary, result, exit_code, show_shapes);
    return exit_code;
  }
  if (output->format == OutputFormat::Sarif) {
    print_sarif(std::cout, "check", diags, exit_code);
    return exit_code;
  }
  if (output->format == OutputFormat::Github) {
    // annotations on stdout (the workflow log reads them), the summary on stderr
    print_github_annotations(std::cout, diags);
    std::cerr << summary_line(summary) << "\n";
    return exit_code;
  }
  if (options.symbolic_args) print_preconditions_text(std::cout, precondition_report(result));
  if (emit == "obligations") print_obligations_text(std::cout, result);
  if (show_shapes) print_shapes_text(std::cout, result);
  print_diagnostics_text(std::cerr, diags, output->color);
  std::cerr << summary_line(summary) << "\n";
  // files without tensor code keep the one-line summary of the front end
  if (!result.obligations.empty()) std::cerr << obligation_summary_line(result) << "\n";
  for (const std::string& line : coverage_lines(result)) std::cerr << line << "\n";
  if (std::size_t cut = count_cut_texts(diags, result, emit == "obligations", show_shapes))
    std::cerr << cut_terms_line(cut) << "\n";
  if (args.has("verbose")) {
    std::cerr << unit_stats_line(result) << "\n";
    std::cerr << parse_stats_line(project) << "\n";
    for (const std::string& line : solver_time_lines(result)) std::cerr << line << "\n";
    for (const std::string& line : solver_profile_lines(result)) std::cerr << line << "\n";
  }
  return exit_code;
}

}  // namespace

const Command& check_command() {
  static const Command command{
      "check",
      "report shape errors in a project",
      R"(usage: gshape check [options] PATH...
       gshape check [options] SCRIPT -- ARGS...

Loads every .py file under each PATH (a file or a directory, walked
recursively; hidden folders, virtual environments, __pycache__, build/,
dist/, node_modules/, site-packages/ and caches holding a CACHEDIR.TAG are
skipped), parses it, infers the
shape of every tensor by abstract interpretation (modules in import order,
project calls in their callers' context, both arms of undecided branches,
loops unrolled or iterated to a fixed point, a DataLoader's full and last
partial batch), and decides each shape obligation of each operator with Z3:
proven, refuted (an error: no input avoids it), or deferred to a run-time
check. A check that fails only on the last partial batch of a DataLoader is
a warning.

With "-- ARGS", SCRIPT is checked for one launch: every argparse parser
that calls parse_args() parses ARGS as argparse would (options, flags,
nargs, positionals, type=int/float, choices) instead of giving its
defaults, a command line argparse would reject is an error, and a shape
error that the launch's values cause is reported with the argument it comes
from ("from the command line: --heads 6"). docs/hyperparameters.md.

Diagnostics go to stderr in compiler form (path:line:col: severity: message
[tag], the source line, a caret, and notes saying where the shapes came
from), sorted by file and line, then the summary lines
  checked N files: E errors, W warnings
  N obligations: P proven, R refuted, D deferred
A file that cannot be read (missing, not a regular file, a read error) is
an I/O error, not counted in E: the first line then ends with
"; 1 file could not be read", and the exit status is 2.

A '# gshape: ignore' comment on a line suppresses the diagnostics of that
line, '# gshape: ignore[tag, ...]' those of the tags named (the summary
counts them as suppressed); a suppressed error's run-time check is still
inserted by 'instrument' and 'run'. The configuration (gshape.toml, or
[tool.gshape] in pyproject.toml, found in the first PATH's folder or above)
sets include/exclude globs and a severity per tag (docs/configuration.md).

options:
  --format=text|json|sarif|github
                           json: print one JSON document on stdout holding the
                           diagnostics (with where each range ends:
                           end_line, end_column), every obligation (id, file,
                           line, column, tag, status, constraint, message,
                           example values of deferred ones), the counts and,
                           with --show-shapes, the shapes;
                           sarif: a SARIF 2.1.0 log on stdout (code scanning);
                           github: one GitHub Actions annotation per
                           diagnostic on stdout (::error file=...,line=...::)
  --exclude GLOB           leave out files matching GLOB (relative to the
                           working directory; repeatable, comma-separated);
                           added to the configuration's exclude
  --config FILE            read this gshape.toml or pyproject.toml instead of
                           looking for one in the first PATH's folder and
                           above (docs/configuration.md)
  --warn-unused-ignores    report '# gshape: ignore' comments that suppress
                           nothing (warnings tagged unused-ignore)
  --max-file-size SIZE     skip files larger than SIZE with a warning (bytes,
                           or 512KB, 5MB ...; default 2MB; max-file-size in
                           the configuration)
  --emit=obligations       list every obligation on stdout (status, tag,
                           constraint, message, reason, example)
  --show-shapes            print each tensor-valued expression's inferred shape
                           on stdout (symbolic, e.g. [B, 10]); each layer of an
                           nn.Sequential shows its output's shape
  --no-witnesses           ask Z3 about every obligation that is not a
                           constant, instead of first looking for concrete
                           sizes that satisfy it and sizes that violate it
                           (same verdicts, slower; for measuring)
  --args=symbolic          (one SCRIPT) every int argument of its argparse
                           parsers is a symbol (held to its choices); print on
                           stdout the preconditions the script puts on them:
                           each requirement over the arguments alone that is
                           not proven, with where it comes from and a command
                           line that breaks it (docs/hyperparameters.md)
  --cache-dir DIR          keep the analysis cache under DIR instead of
                           $XDG_CACHE_HOME/gshape (else ~/.cache/gshape)
  --no-cache               analyse every file, neither reading nor writing
                           the analysis cache (the output is the same)
  --full-terms             print every term in full: a term longer than 300
                           characters otherwise prints its parts past that as
                           '…' (the summary says when any was cut); in full,
                           a part it shares is named once ('_1') and defined
                           after it ('where _1 = ...'). Reads no cache
  --verbose                also report where the analysis gave up (work
                           budgets, internal errors) as notes, how many
                           analysis units came from the cache, how many files
                           were parsed, and Z3's time per file (the ten
                           slowest files)
  --color=auto|always|never
                           colour the text diagnostics (auto: when stderr is a
                           terminal)
  -h, --help               show this help

exit status: 0 no errors (warnings and deferred checks are not errors),
1 errors found, 2 usage or I/O error (a missing PATH, a file that could not
be read)

example:
  gshape check src/
  gshape check --format=json model.py train.py
  gshape check --format=github --exclude 'tests/**' src/
  gshape check --emit=obligations train.py
  gshape check --show-shapes model.py
  gshape check train.py -- --hidden 96 --heads 8
  gshape check --args=symbolic train.py
)",
      {format_option(), color_option(), {"emit", '\0', true}, {"show-shapes", '\0', false}, {"full-terms", '\0', false}, {"no-witnesses", '\0', false},
       {"verbose", '\0', false}, {"args", '\0', true}, {"config", '\0', true}, {"exclude", '\0', true},
       {"max-file-size", '\0', true},
       {"warn-unused-ignores", '\0', false}, cache_dir_option(), no_cache_option()},
      true,  // the words after "--" are the launch's command line
      run_check};
  return command;
}

}  // namespace gshape::cli
