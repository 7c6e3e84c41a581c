// `gshape run SCRIPT [-- ARGS…]`: instrument the script's project into the
// run cache (codegen::run_script re-instruments only what changed) and run it
// through the launcher as if it were the original.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

#include "cli/cache_options.h"
#include "cli/commands.h"
#include "cli/config.h"
#include "cli/project_analysis.h"
#include "codegen/run_cache.h"

namespace gshape::cli {

namespace {

std::string canonical(const std::string& path) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  return ec ? std::filesystem::absolute(path, ec).lexically_normal().string() : p.string();
}

// The files `script` imports, directly or not, and itself (canonical paths).
std::set<std::string> import_closure(const Project& project, const std::string& script) {
  std::set<std::string> out = {canonical(script)};
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < project.modules.size(); ++i)
    if (canonical(project.modules[i].file->path()) == *out.begin()) todo.push_back(i);
  std::set<std::size_t> seen(todo.begin(), todo.end());
  while (!todo.empty()) {
    std::size_t i = todo.back();
    todo.pop_back();
    out.insert(canonical(project.modules[i].file->path()));
    for (std::size_t j : project.modules[i].imports)
      if (seen.insert(j).second) todo.push_back(j);
  }
  return out;
}

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
  if (args.has("python") && args.get("python").empty()) return usage_error("run", "'--python' needs a path");
  if (args.has("cache-dir") && args.get("cache-dir").empty()) return usage_error("run", "'--cache-dir' needs a path");

  codegen::RunOptions options;
  options.script = script;
  options.args = args.after_double_dash;
  // `run SCRIPT -- ARGS`: analysed for that launch, as `check SCRIPT -- ARGS`
  options.launch = args.double_dash;
  // the configuration (found from the script's folder): its python, severities and ignore comments
  std::optional<Settings> settings = load_settings(args, {script});
  if (!settings) return kExitUsage;
  if (args.has("python")) options.python = args.get("python");
  else if (!settings->python.empty()) options.python = settings->python;
  if (args.has("cache-dir")) options.cache_home = args.get("cache-dir");
  // the size limit `check` applies (--max-file-size, else the configuration's)
  options.max_file_bytes = settings->max_file_bytes;

  const bool color = output->color;
  const bool verbose = args.has("verbose");
  // Called only when the project changed since the last run (or the
  // diagnostics for this key were not kept). Its static errors and warnings
  // — of the script's import closure — are shown before the script starts,
  // the same on every run (kept in the run cache), but do not stop it: their
  // checks are in the instrumented code, so the run stops with
  // ShapeCheckError at the line if it gets there.
  gradual::AnalysisOptions analysis_options;
  if (options.launch) {
    analysis_options.launch_args = options.args;
    analysis_options.launch_script = script;
  }
  std::unique_ptr<codegen::DiskUnitCache> unit_cache = open_analysis_cache(args, analysis_options);
  codegen::ProjectAnalyzer analyze = [&](const Project& project, DiagnosticSink& diags) {
    gradual::AnalysisResult result = gradual::analyse_project(project, analysis_options, unit_cache.get());
    add_checked_diagnostics(project, result, diags, verbose, *settings);
    DiagnosticSink shown_diags;
    std::set<std::string> closure = import_closure(project, script);
    for (const Diagnostic& d : diags.all()) {
      // a diagnostic about a whole file (it could not be read, it is over
      // the size limit) is shown whatever imports it, as `check` shows it:
      // that file runs without checks
      std::string path = d.loc.valid() ? d.loc.file->path() : d.path;
      if (path.empty() || !d.loc.valid() || closure.count(canonical(path))) shown_diags.report(d);
    }
    std::ostringstream shown;
    print_diagnostics_text(shown, shown_diags, color);
    // as `check` counts them: a file that cannot be read is an I/O error,
    // not an error in the code
    std::size_t unreadable = shown_diags.count_io_errors();
    std::size_t errors = shown_diags.count(Severity::Error) - unreadable;
    if (unreadable > 0) {
      shown << "gshape: " << unreadable << (unreadable == 1 ? " file" : " files")
            << " could not be read (not analysed, no run-time checks in " << (unreadable == 1 ? "it" : "them") << ")\n";
    }
    if (errors > 0) {
      shown << "gshape: " << errors << (errors == 1 ? " error" : " errors")
            << " found statically; running with run-time checks anyway\n";
    }
    // the rewriter's notes too are the import closure's
    return codegen::ProjectAnalysis{result.plain_obligations(), std::move(result.sites),
                                    std::move(result.launch_inputs), std::nullopt, shown.str(), closure};
  };
  // what the shown text depends on besides the project's files
  {
    std::string key = canonical(script) + '\0' + (color ? "color" : "plain") + '\0' + (verbose ? "verbose" : "") +
                      '\0' + settings->config_path + '\0';
    if (!settings->config_path.empty()) {
      std::ifstream config(settings->config_path, std::ios::binary);
      key += std::string(std::istreambuf_iterator<char>(config), {});
    }
    options.shown_key = key;
  }
  DiagnosticSink diags;
  std::cout.flush();
  codegen::RunResult result = codegen::run_script(options, analyze, diags);
  if (!result.error.empty()) return fatal_error(result.error);
  return result.exit_code;
}

}  // namespace

const Command& run_command() {
  static const Command command{
      "run",
      "instrument a script and run it",
      R"(usage: gshape run [options] SCRIPT [-- ARGS...]

Instruments SCRIPT's project (the script's folder, or the nearest folder
above it that is not a package) into a cache, then runs SCRIPT with ARGS as
if it were run directly with Python: same argv, working directory,
__file__, __name__ == "__main__", standard streams and exit status;
tracebacks name the original files and lines. A shape requirement that fails
at run time raises ShapeCheckError at the user's line, before PyTorch runs
the operation, and the run ends with that traceback and status 1.

The cache ($XDG_CACHE_HOME/gshape, else ~/.cache/gshape) is reused while no
Python file of the project changed and gshape itself was not rebuilt or
upgraded; otherwise the project is analysed again (through the analysis
cache of 'gshape check': only the groups of files that changed) and only
files whose source or checks changed are re-instrumented. Before the script
starts, gshape prints the static errors and warnings of the files SCRIPT
imports, directly or not (and of SCRIPT itself), on stderr as 'gshape check'
would — the same on every run, kept in the cache while nothing changed — and
then runs the script anyway: a static error is a check that fails when its
line is reached. 'gshape cache clean' removes the caches.

Options for gshape come before "--"; everything after it is passed to the
script unchanged, and the analysis is that launch's (as 'gshape check
SCRIPT -- ARGS': argparse reads ARGS, config files they name are read), so
the static errors shown are the ones this command line meets. The cache is
then also keyed by ARGS, the working directory and those config files.

options:
  --python PY              the Python to run the script with (default: the
                           configuration's python, else /usr/bin/python3,
                           the one that has torch)
  --config FILE            read this gshape.toml or pyproject.toml instead of
                           looking for one from the script's folder up
                           (python, severities, max-file-size;
                           docs/configuration.md)
  --max-file-size SIZE     a larger file is not analysed (a warning) and
                           runs without checks (bytes, or 512KB, 5MB ...;
                           default 2MB; max-file-size in the configuration)
  --cache-dir DIR          keep the instrumented copies and the analysis
                           cache under DIR instead of the default cache folder
  --no-cache               analyse without the analysis cache (the
                           instrumented copies are still kept)
  --verbose                also report where the analysis gave up, as notes
  --color=auto|always|never
                           colour the diagnostics (auto: when stderr is a terminal)
  -h, --help               show this help

exit status: the script's own (1 after an uncaught exception such as
ShapeCheckError, 128+N when killed by signal N); 2 when gshape could not
run it (usage error, missing script or runtime, unwritable cache)

example:
  gshape run train.py -- --epochs 1
  gshape run --python /opt/venv/bin/python samples/cnn_mnist.py -- --steps 3
)",
      {color_option(), {"python", '\0', true}, {"cache-dir", '\0', true}, {"verbose", '\0', false}, {"config", '\0', true},
       {"max-file-size", '\0', true}, no_cache_option()},
      true,
      run_run};
  return command;
}

}  // namespace gshape::cli
