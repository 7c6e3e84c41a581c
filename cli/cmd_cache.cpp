// `gshape cache dir|clean`: where gshape keeps its caches (the analysis
// cache of `check` and `run`, the instrumented copies of `run`), and
// removing them.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli/cache_options.h"
#include "cli/commands.h"
#include "codegen/run_cache.h"

namespace gshape::cli {

namespace fs = std::filesystem;

OptionSpec cache_dir_option() { return {"cache-dir", '\0', true}; }
OptionSpec no_cache_option() { return {"no-cache", '\0', false}; }

std::string cache_home_of(const ParsedArgs& args) {
  return args.has("cache-dir") ? args.get("cache-dir") : codegen::default_cache_home();
}

std::unique_ptr<codegen::DiskUnitCache> open_analysis_cache(const ParsedArgs& args,
                                                            const gradual::AnalysisOptions& options) {
  if (args.has("no-cache") || !gradual::splits_into_units(options)) return nullptr;
  return std::make_unique<codegen::DiskUnitCache>(cache_home_of(args));
}

std::unique_ptr<codegen::DiskFileFacts> open_file_facts(const ParsedArgs& args) {
  return std::make_unique<codegen::DiskFileFacts>(cache_home_of(args));
}

std::string parse_stats_line(const Project& project) {
  std::size_t parsed = 0;
  for (const ProjectModule& m : project.modules) parsed += m.deferred ? 0 : 1;
  return "modules parsed: " + std::to_string(parsed) + " of " + std::to_string(project.modules.size()) +
         (parsed < project.modules.size() ? " (the others' units came from the cache)" : "");
}

std::string unit_stats_line(const gradual::AnalysisResult& result) {
  const gradual::AnalysisStats& st = result.stats;
  return "analysis units: " + std::to_string(st.units) + " (" + std::to_string(st.units_analysed) + " analysed, " +
         std::to_string(st.units_cached) + " from the cache)";
}

std::vector<std::string> solver_time_lines(const gradual::AnalysisResult& result, std::size_t files) {
  const gradual::AnalysisStats& st = result.stats;
  auto seconds = [](double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", s);
    return std::string(buf);
  };
  std::vector<std::pair<std::string, gradual::AnalysisStats::FileSolverTime>> by_file;
  for (const auto& [path, time] : st.z3_by_file)
    if (time.checks > 0) by_file.emplace_back(path, time);
  std::stable_sort(by_file.begin(), by_file.end(),
                   [](const auto& a, const auto& b) { return a.second.seconds > b.second.seconds; });
  std::vector<std::string> out;
  out.push_back("Z3 time: " + seconds(st.z3_seconds) + " in " + std::to_string(st.z3_checks) + " checks" +
                (by_file.empty() ? std::string() : "; by file (units analysed in this run):"));
  std::size_t shown = std::min(files, by_file.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& [path, time] = by_file[i];
    out.push_back("  " + (path.empty() ? std::string("(outside any statement)") : path) + ": " +
                  seconds(time.seconds) + " (" + std::to_string(time.checks) + " checks)");
  }
  if (shown < by_file.size()) {
    double rest = 0;
    for (std::size_t i = shown; i < by_file.size(); ++i) rest += by_file[i].second.seconds;
    out.push_back("  and " + std::to_string(by_file.size() - shown) + " more files: " + seconds(rest));
  }
  return out;
}

std::vector<std::string> solver_profile_lines(const gradual::AnalysisResult& result) {
  const gradual::Z3Profile& p = result.stats.z3_profile;
  auto line = [](const char* label, const gradual::CheckProfile& c) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %s: %llu checks, %.3f s, %llu units (at most %llu in one);", label,
                  static_cast<unsigned long long>(c.checks), c.seconds, static_cast<unsigned long long>(c.units),
                  static_cast<unsigned long long>(c.max_units));
    std::string out = buf;
    static const char* const bounds[] = {"< 100", "< 1k", "< 10k", "< 100k", "more"};
    for (std::size_t i = 0; i < c.by_units.size(); ++i)
      out += std::string(i ? "," : "") + " " + bounds[i] + ": " + std::to_string(c.by_units[i]);
    return out;
  };
  if (p.sat.checks + p.unsat.checks + p.unknown.checks == 0) return {};
  return {"Z3 checks by outcome and resource units spent (an unknown one spent its whole limit):",
          line("unsat", p.unsat), line("sat", p.sat), line("unknown", p.unknown),
          line("unsat cores (a second solver)", p.cores)};
}

namespace {

bool is_hex16(const std::string& name) {
  if (name.size() != 16) return false;
  for (char c : name)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// What gshape put in the cache home: the analysis cache and the run cache's
// per-project folders (a 16-digit fingerprint holding manifest.txt or
// tree/). Anything else there is left alone (--cache-dir may name a folder
// that holds other things).
std::vector<fs::path> gshape_entries(const fs::path& home) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(home, ec)) return out;
  for (const fs::directory_entry& e : fs::directory_iterator(home, ec)) {
    std::string name = e.path().filename().string();
    if (!e.is_directory(ec) || e.is_symlink(ec)) continue;
    if (name == "analysis" ||
        (is_hex16(name) && (fs::exists(e.path() / "manifest.txt", ec) || fs::is_directory(e.path() / "tree", ec))))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

int run_cache(const ParsedArgs& args) {
  if (args.positional.empty()) return usage_error("cache", "'cache' needs an action: dir or clean");
  if (args.positional.size() > 1) return usage_error("cache", "unexpected argument '" + args.positional[1] + "'");
  if (args.has("cache-dir") && args.get("cache-dir").empty()) return usage_error("cache", "'--cache-dir' needs a path");
  const std::string& action = args.positional.front();
  fs::path home = cache_home_of(args);
  if (action == "dir") {
    std::cout << home.string() << "\n";
    return kExitOk;
  }
  if (action != "clean") return usage_error("cache", "unknown action '" + action + "' (expected dir or clean)");
  std::size_t removed = 0;
  for (const fs::path& entry : gshape_entries(home)) {
    std::error_code ec;
    fs::remove_all(entry, ec);
    if (ec) return fatal_error("cannot remove " + entry.string() + ": " + ec.message());
    ++removed;
  }
  std::cerr << "gshape: removed " << removed << (removed == 1 ? " cache folder" : " cache folders") << " from "
            << home.string() << "\n";
  return kExitOk;
}

}  // namespace

const Command& cache_command() {
  static const Command command{
      "cache",
      "show where the caches are, or remove them",
      R"(usage: gshape cache dir [--cache-dir DIR]
       gshape cache clean [--cache-dir DIR]

gshape keeps two caches in one folder ($XDG_CACHE_HOME/gshape, else
~/.cache/gshape; --cache-dir DIR for another):
  analysis/      the analysis cache of 'check' and 'run': each analysis unit's
                 result (a group of files that import each other), keyed by
                 its files' paths and contents, the options and gshape's own
                 build, so a re-check analyses only the groups that changed
  <16 digits>/   the instrumented copies 'run' keeps per project

actions:
  dir      print the cache folder
  clean    remove both caches (only what gshape wrote there: the analysis/
           folder and the run cache's project folders); they are rebuilt on
           the next run

options:
  --cache-dir DIR          the cache folder to use instead of the default
  -h, --help               show this help

exit status: 0 done, 2 usage or I/O error

example:
  gshape cache dir
  gshape cache clean
)",
      {cache_dir_option()},
      false,
      run_cache};
  return command;
}

}  // namespace gshape::cli
