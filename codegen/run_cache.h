// `gshape run SCRIPT [-- ARGS…]`: instrument the script's project into a
// cache (only what changed), then run the launcher
// (runtime/python/gshape_runtime/launch.py) with the chosen Python, which
// executes the instrumented code as if it were the original: same argv,
// working directory, __file__, __name__ == "__main__", standard streams,
// tracebacks naming the user's files and lines, and exit code.
//
// Cache layout: CACHE_HOME/<fingerprint of the absolute project root>/
//   manifest.txt   gshape version and binary (size, mtime), root, the file size limit, for a launch's analysis the
//                  fingerprint of its working directory and ARGS and of each config file it read,
//                  and per Python file: content and plan fingerprints, whether an instrumented copy exists
//   tree/REL.py    the instrumented copies (files without checks have none:
//                  the launcher then runs the original)
//   shown/KEY.txt  the static diagnostics shown before a run (RunOptions::shown_key), for the
//                  current manifest; removed when the project is analysed again
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "codegen/plan.h"
#include "frontend/diagnostics.h"
#include "frontend/project.h"

namespace gshape::codegen {

// What the analysis hands the rewriter for a project.
struct ProjectAnalysis {
  std::vector<gradual::Obligation> obligations;
  std::vector<gradual::SiteSummary> sites;
  // Files besides the sources the analysis read (a launch's config files):
  // the cache is analysed again when one changes.
  std::vector<std::string> inputs;
  // Plans to use instead of build_plans (tests, hand-made plans).
  std::optional<std::vector<FilePlan>> plans;
  // The static diagnostics to show before the script runs, rendered (gshape
  // run: those of the script's import closure); kept under
  // RunOptions::shown_key and shown again, unchanged, while nothing changes.
  std::string shown;
  // The files whose rewriter notes (sites left unchecked because they nest
  // too deep, codegen/nesting_budget.h) are shown after `shown`, by
  // canonical path; empty: every file's.
  std::set<std::string> shown_files;
};
using ProjectAnalyzer = std::function<ProjectAnalysis(const Project& project, DiagnosticSink& diags)>;

struct RunOptions {
  std::string script;             // as the user typed it
  std::vector<std::string> args;  // the script's own arguments
  // The analysis is the launch's (`gshape run SCRIPT -- ARGS`): it depends on
  // ARGS and the working directory, so they are part of the cache's key.
  bool launch = false;
  std::string python = "/usr/bin/python3";
  // Directory holding the gshape_runtime package; default: the build's.
  std::string runtime_path;
  // Where caches live; default: $XDG_CACHE_HOME/gshape, else ~/.cache/gshape.
  std::string cache_home;
  // What the shown diagnostics depend on besides the project (the script,
  // the colour, the configuration...): with a key, a run that finds nothing
  // changed shows ProjectAnalysis::shown of the last analysis made under it
  // (CacheUpdate::shown), and analyses again when there is none. Empty: no
  // diagnostics are kept.
  std::string shown_key;
  // Larger Python files are not analysed (a warning; they run without
  // checks), as `check --max-file-size` skips them; part of the cache's key.
  std::size_t max_file_bytes = kDefaultMaxSourceFileBytes;
};

// The build's runtime package location ("" when built without the runtime).
std::string default_runtime_path();
// $XDG_CACHE_HOME/gshape, else $HOME/.cache/gshape, else /tmp/gshape-cache-UID.
std::string default_cache_home();

// The project a script belongs to: its directory, or for a script inside a
// package (a folder with __init__.py), the nearest ancestor that is not one.
std::string project_root_of(const std::string& script);

struct CacheUpdate {
  std::string project_root;           // absolute
  std::string cache_dir;              // CACHE_HOME/<fingerprint>
  std::string tree_dir;               // cache_dir/tree
  bool analysed = false;              // false: nothing changed since the last run
  std::vector<std::string> rewritten; // relative paths whose instrumented copy was (re)written
  std::vector<std::string> removed;   // instrumented copies deleted (file gone, or no check left)
  std::string error;                  // the cache could not be prepared
  std::string shown;                  // the diagnostics to show (ProjectAnalysis::shown), analysed or kept
};

// Brings the cache of `script`'s project up to date. Diagnostics of loading
// (unparsable files ...) and of the analysis go to `diags`.
CacheUpdate update_run_cache(const RunOptions& options, const ProjectAnalyzer& analyze, DiagnosticSink& diags);

struct RunResult {
  int exit_code = 2;   // the script's exit status (128 + N when killed by signal N)
  std::string error;   // gshape could not run the script (then exit_code is 2)
  CacheUpdate cache;
};

// update_run_cache, then the launcher; returns when the script has ended.
RunResult run_script(const RunOptions& options, const ProjectAnalyzer& analyze, DiagnosticSink& diags);

}  // namespace gshape::codegen
