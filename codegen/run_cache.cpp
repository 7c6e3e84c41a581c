#include "codegen/run_cache.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen/analysis_cache.h"
#include "codegen/atomic_file.h"
#include "codegen/child_process.h"
#include "codegen/nesting_budget.h"
#include "codegen/project_tree.h"
#include "codegen/rewriter.h"
#include "gshape_version.h"

#ifndef GSHAPE_RUNTIME_PYTHONPATH
#define GSHAPE_RUNTIME_PYTHONPATH ""
#endif

namespace gshape::codegen {

namespace fs = std::filesystem;

namespace {

constexpr const char* kManifestHeader = "gshape-run-cache 1";

struct ManifestEntry {
  std::string content;  // fingerprint of the source
  std::string plan;     // fingerprint of the plan it was instrumented with
  bool instrumented = false;
};

struct Manifest {
  std::string version;
  std::string root;
  std::string display_root;  // the root as file paths in messages start (see display_root_of)
  std::map<std::string, ManifestEntry> files;  // relative path → entry
  // A launch's analysis (RunOptions::launch): the fingerprint of the working
  // directory and ARGS it was analysed with, and of each config file it read
  // (absolute path → content fingerprint); "" / none for a defaults' analysis.
  std::string launch;
  std::map<std::string, std::string> inputs;
  std::size_t max_file_bytes = 0;  // RunOptions::max_file_bytes of the analysis (0: not recorded)
};

std::optional<Manifest> read_manifest(const fs::path& path) {
  std::optional<std::string> text = read_file(path);
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  if (!std::getline(in, line) || line != kManifestHeader) return std::nullopt;
  Manifest m;
  while (std::getline(in, line)) {
    if (line.rfind("version ", 0) == 0) {
      m.version = line.substr(8);
    } else if (line.rfind("root ", 0) == 0) {
      m.root = line.substr(5);
    } else if (line.rfind("display ", 0) == 0) {
      m.display_root = line.substr(8);
    } else if (line.rfind("launch ", 0) == 0) {
      m.launch = line.substr(7);
    } else if (line.rfind("max-file-size ", 0) == 0) {
      try {
        m.max_file_bytes = std::stoull(line.substr(14));
      } catch (const std::exception&) {
        return std::nullopt;
      }
    } else if (line.rfind("input ", 0) == 0) {
      std::size_t space = line.find(' ', 6);
      if (space == std::string::npos) return std::nullopt;
      m.inputs[line.substr(space + 1)] = line.substr(6, space - 6);
    } else if (line.rfind("file ", 0) == 0) {
      std::istringstream fields(line.substr(5));
      ManifestEntry e;
      int instrumented = 0;
      if (!(fields >> e.content >> e.plan >> instrumented)) return std::nullopt;
      fields.get();  // the space before the path, which may hold spaces itself
      std::string relative;
      std::getline(fields, relative);
      e.instrumented = instrumented != 0;
      m.files[relative] = e;
    }
  }
  return m;
}

std::string render_manifest(const Manifest& m) {
  std::string out = std::string(kManifestHeader) + "\nversion " + m.version + "\nroot " + m.root + "\ndisplay " +
                    m.display_root + "\nmax-file-size " + std::to_string(m.max_file_bytes) + "\n";
  if (!m.launch.empty()) out += "launch " + m.launch + "\n";
  for (const auto& [path, content] : m.inputs) out += "input " + content + " " + path + "\n";
  for (const auto& [relative, e] : m.files) {
    out += "file " + e.content + " " + e.plan + " " + (e.instrumented ? "1" : "0") + " " + relative + "\n";
  }
  return out;
}

// A canonical text of everything in a plan that reaches the instrumented file.
std::string plan_fingerprint(const FilePlan& plan) {
  std::string s = plan.path + '\n';
  for (const SitePlan& site : plan.sites) {
    s += "site " + std::to_string(site.begin) + ' ' + std::to_string(site.end) + ' ' + std::to_string(site.line) +
         ' ' + std::to_string(site.col) + ' ' + site.rule + '\n';
    for (const OperandPlan& o : site.operands) {
      s += "op " + std::to_string(o.slot) + ' ' + std::to_string(o.begin) + ' ' + std::to_string(o.end) + ' ' +
           o.kind + '\n';
    }
  }
  return hex64(fingerprint(s));
}

std::string content_fingerprint(const fs::path& path) {
  std::optional<std::string> text = read_file(path);
  return text ? hex64(fingerprint(*text)) : "unreadable";
}

// What a launch's analysis depends on besides the sources: the working
// directory (relative config paths) and the script's arguments.
std::string launch_fingerprint(const RunOptions& options) {
  if (!options.launch) return "";
  std::error_code ec;
  std::string s = fs::current_path(ec).string();
  for (const std::string& a : options.args) s += std::string(1, '\0') + a;
  return hex64(fingerprint(s));
}

bool has_init(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "__init__.py", ec);
}

// Relative paths of the tree's Python files with their content fingerprints.
std::map<std::string, std::string> fingerprint_sources(const std::vector<TreeFile>& files) {
  std::map<std::string, std::string> out;
  for (const TreeFile& f : files) {
    if (!f.is_python) continue;
    std::optional<std::string> text = read_file(f.source);
    out[f.relative] = text ? hex64(fingerprint(*text)) : "unreadable";
  }
  return out;
}

// Paths in check messages read as gshape displays them elsewhere: relative
// to the working directory when the user named the script by a relative path.
std::string display_root_of(const std::string& script, const std::string& root) {
  if (fs::path(script).is_absolute()) return root;
  std::error_code ec;
  fs::path relative = fs::path(root).lexically_relative(fs::current_path(ec));
  if (ec || relative.empty()) return root;
  return relative.string();
}

}  // namespace

std::string default_runtime_path() { return GSHAPE_RUNTIME_PYTHONPATH; }

std::string default_cache_home() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return (fs::path(xdg) / "gshape").string();
  const char* home = std::getenv("HOME");
  if (home && *home) return (fs::path(home) / ".cache" / "gshape").string();
  return "/tmp/gshape-cache-" + std::to_string(::getuid());
}

std::string project_root_of(const std::string& script) {
  std::error_code ec;
  fs::path dir = fs::absolute(script, ec).lexically_normal().parent_path();
  while (has_init(dir) && dir.has_parent_path() && dir.parent_path() != dir) dir = dir.parent_path();
  return dir.string();
}

CacheUpdate update_run_cache(const RunOptions& options, const ProjectAnalyzer& analyze, DiagnosticSink& diags) {
  CacheUpdate update;
  update.project_root = project_root_of(options.script);
  std::string cache_home = options.cache_home.empty() ? default_cache_home() : options.cache_home;
  update.cache_dir = (fs::path(cache_home) / hex64(fingerprint(update.project_root))).string();
  tag_cache_directory(cache_home);  // a cache inside the project is not walked as its code
  update.tree_dir = (fs::path(update.cache_dir) / "tree").string();
  const fs::path manifest_path = fs::path(update.cache_dir) / "manifest.txt";

  const std::string display_root = display_root_of(options.script, update.project_root);
  std::vector<TreeFile> files = list_tree(update.project_root);
  std::map<std::string, std::string> sources = fingerprint_sources(files);
  std::optional<Manifest> old = read_manifest(manifest_path);
  const std::string identity = analyser_identity();
  bool same = old && old->version == identity && old->root == update.project_root &&
              old->display_root == display_root && old->max_file_bytes == options.max_file_bytes &&
              old->files.size() == sources.size() && old->launch == launch_fingerprint(options);
  if (same) {
    for (const auto& [path, content] : old->inputs) {
      if (content_fingerprint(path) != content) {
        same = false;
        break;
      }
    }
  }
  if (same) {
    for (const auto& [relative, content] : sources) {
      auto it = old->files.find(relative);
      std::error_code ec;
      if (it == old->files.end() || it->second.content != content ||
          (it->second.instrumented && !fs::exists(fs::path(update.tree_dir) / relative, ec))) {
        same = false;
        break;
      }
    }
  }
  const fs::path shown_dir = fs::path(update.cache_dir) / "shown";
  const fs::path shown_path = shown_dir / (hex64(fingerprint(options.shown_key)) + ".txt");
  if (same && !options.shown_key.empty()) {
    // the diagnostics of the last analysis under this key; none: analyse
    // again (the analysis cache makes that cheap) to have them
    std::optional<std::string> shown = read_file(shown_path);
    if (shown) update.shown = std::move(*shown);
    else same = false;
  }
  if (same) return update;  // nothing changed: no parsing, no analysis

  // Something changed: analyse the whole project (one file's obligations
  // depend on the files it imports), re-instrument the files whose source
  // or plan changed.
  update.analysed = true;
  Project project = load_project({display_root}, diags, 0, {}, options.max_file_bytes);
  ProjectAnalysis analysis = analyze(project, diags);
  update.shown = analysis.shown;
  {
    // what earlier analyses kept is stale now (another script's, too)
    std::error_code ec;
    fs::remove_all(shown_dir, ec);
  }
  std::vector<FilePlan> plans =
      analysis.plans ? std::move(*analysis.plans) : build_plans(project, analysis.obligations, analysis.sites);
  std::map<std::string, const FilePlan*> plan_of;
  for (const FilePlan& p : plans) plan_of.emplace(p.path, &p);
  std::map<std::string, const ProjectModule*> module_of;  // canonical path → module
  for (const ProjectModule& m : project.modules) {
    std::error_code ec;
    module_of.emplace(fs::weakly_canonical(m.file->path(), ec).string(), &m);
  }

  Manifest manifest;
  manifest.version = identity;
  manifest.root = update.project_root;
  manifest.display_root = display_root;
  manifest.max_file_bytes = options.max_file_bytes;
  manifest.launch = launch_fingerprint(options);
  for (const std::string& input : analysis.inputs) {
    std::error_code ec;
    fs::path absolute = fs::absolute(input, ec);
    manifest.inputs[absolute.lexically_normal().string()] = content_fingerprint(absolute);
  }
  const FilePlan no_plan;
  std::string notes;  // sites left unchecked for their nesting, shown after the diagnostics
  for (const TreeFile& file : files) {
    if (!file.is_python) continue;
    ManifestEntry entry;
    entry.content = sources[file.relative];
    fs::path target = fs::path(update.tree_dir) / file.relative;
    std::error_code ec;
    auto module = module_of.find(fs::weakly_canonical(file.source, ec).string());
    const FilePlan* plan = &no_plan;
    if (module != module_of.end()) {
      auto p = plan_of.find(module->second->file->path());
      if (p != plan_of.end()) plan = p->second;
    }
    entry.plan = plan_fingerprint(*plan);
    const ManifestEntry* previous = nullptr;
    if (old && old->version == identity && old->root == update.project_root) {
      auto it = old->files.find(file.relative);
      if (it != old->files.end()) previous = &it->second;
    }
    bool reusable = previous && previous->content == entry.content && previous->plan == entry.plan &&
                    (!previous->instrumented || fs::exists(target, ec));
    if (module != module_of.end() && module->second->ir && !plan->sites.empty()) {
      // rewritten in memory even when the copy is kept: its notes are shown again
      InstrumentedSource instrumented =
          instrument_source(module->second->file->text(), *module->second->ir, *plan);
      if (analysis.shown_files.empty() || analysis.shown_files.count(fs::weakly_canonical(file.source, ec).string())) {
        notes += nesting_notes(module->second->file->path(), instrumented.site_outcomes);
      }
      if (reusable) {
        entry.instrumented = previous->instrumented;
      } else if (instrumented.changed) {
        std::string error = write_file_atomically(target, instrumented.text);
        if (!error.empty()) {
          update.error = error;
          return update;
        }
        entry.instrumented = true;
        update.rewritten.push_back(file.relative);
      }
    } else if (reusable) {
      entry.instrumented = previous->instrumented;
    }
    if (!entry.instrumented && fs::exists(target, ec)) {
      fs::remove(target, ec);
      update.removed.push_back(file.relative);
    }
    manifest.files[file.relative] = entry;
  }
  // Copies of files that are gone.
  if (old) {
    for (const auto& [relative, entry] : old->files) {
      std::error_code ec;
      if (manifest.files.count(relative) == 0 && entry.instrumented && fs::remove(fs::path(update.tree_dir) / relative, ec)) {
        update.removed.push_back(relative);
      }
    }
  }
  update.shown += notes;
  if (!options.shown_key.empty()) {
    std::string error = write_file_atomically(shown_path, update.shown);
    if (!error.empty()) {
      update.error = error;
      return update;
    }
  }
  std::string error = write_file_atomically(manifest_path, render_manifest(manifest));
  if (!error.empty()) update.error = error;
  return update;
}

RunResult run_script(const RunOptions& options, const ProjectAnalyzer& analyze, DiagnosticSink& diags) {
  RunResult result;
  std::string runtime = options.runtime_path.empty() ? default_runtime_path() : options.runtime_path;
  fs::path launcher = fs::path(runtime) / "gshape_runtime" / "launch.py";
  std::error_code ec;
  if (runtime.empty() || !fs::exists(launcher, ec)) {
    result.error = runtime.empty() ? "gshape was built without its runtime (GSHAPE_WITH_TORCH=OFF); cannot run scripts"
                                   : "the gshape runtime launcher is missing: " + launcher.string() +
                                         " (build the gshape_runtime target)";
    return result;
  }
  result.cache = update_run_cache(options, analyze, diags);
  std::cerr << result.cache.shown;
  std::cerr.flush();
  if (!result.cache.error.empty()) {
    result.error = "cannot prepare the instrumented copy in " + result.cache.cache_dir + ": " + result.cache.error;
    return result;
  }

  // -X no_debug_ranges: tracebacks quote the original line, but column
  // ranges would come from the instrumented one and put the carets in the
  // wrong place; without ranges Python prints the line alone.
  std::vector<std::string> argv = {options.python, "-X", "no_debug_ranges", launcher.string(),
                                   result.cache.project_root, result.cache.tree_dir, options.script};
  argv.insert(argv.end(), options.args.begin(), options.args.end());
  // The launcher finds gshape_runtime on PYTHONPATH, then puts the user's
  // PYTHONPATH back in os.environ so the script's own children see it unchanged.
  const char* user_path = std::getenv("PYTHONPATH");
  std::string pythonpath = runtime + (user_path && *user_path ? ":" + std::string(user_path) : std::string());
  std::map<std::string, std::optional<std::string>> environment = {
      {"PYTHONPATH", pythonpath},
      {"GSHAPE_LAUNCH_PYTHONPATH", user_path ? std::optional<std::string>("=" + std::string(user_path))
                                             : std::optional<std::string>("unset")},
  };
  ChildResult child = run_child(argv, environment);
  if (!child.error.empty()) {
    result.error = child.error;
    return result;
  }
  result.exit_code = child.exit_code;
  return result;
}

}  // namespace gshape::codegen
