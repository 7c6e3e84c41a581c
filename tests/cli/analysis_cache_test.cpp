// The analysis cache of `gshape check` (codegen/analysis_cache.h): a run that
// reads results from the cache prints byte for byte what a run without it
// prints — on every sample, on a generated project of several independent
// groups after random edits, and on a flat project whose imports, files and
// syntax change at random — an edit re-analyses (and parses) only its own
// group, and a corrupt entry or file facts entry is ignored; one thread or
// several print the same. Also `gshape cache dir|clean`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

namespace fs = std::filesystem;

// Wall-clock figures differ from run to run whatever the cache does.
std::string without_times(const std::string& json) {
  static const std::regex times("\"(z3_seconds|seconds)\":[-+0-9.eE]+");
  return std::regex_replace(json, times, "\"$1\":0");
}

struct Runs {
  ProcessResult cold, first, warm;
};

// --no-cache, then twice with the cache (filling it, then reading it).
Runs three_runs(const std::vector<std::string>& paths, const std::string& cache, const std::string& cwd = {}) {
  std::vector<std::string> base = {"check", "--format=json"};
  base.insert(base.end(), paths.begin(), paths.end());
  std::vector<std::string> uncached = base, cached = base;
  uncached.push_back("--no-cache");
  cached.insert(cached.end(), {"--cache-dir", cache});
  return {gshape(uncached, cwd), gshape(cached, cwd), gshape(cached, cwd)};
}

// "analysis units: N (A analysed, C from the cache)" of a --verbose text run.
std::string units_line(const std::string& err) {
  std::size_t at = err.find("analysis units: ");
  if (at == std::string::npos) return "";
  return err.substr(at, err.find('\n', at) - at);
}

TEST(AnalysisCache, CachedAndUncachedRunsPrintTheSameJsonOnEverySample) {
  TempDir cache;
  const fs::path samples = fs::path(GSHAPE_SOURCE_DIR) / "samples";
  std::vector<std::string> dirs = {samples.string()};
  for (const auto& e : fs::directory_iterator(samples))
    if (e.is_directory()) dirs.push_back(e.path().string());
  std::sort(dirs.begin(), dirs.end());
  for (const std::string& dir : dirs) {
    Runs r = three_runs({dir}, cache.str());
    ASSERT_FALSE(r.cold.out.empty()) << dir << ": " << r.cold.err;
    EXPECT_EQ(r.first.exit_code, r.cold.exit_code) << dir;
    EXPECT_EQ(r.warm.exit_code, r.cold.exit_code) << dir;
    EXPECT_EQ(without_times(r.first.out), without_times(r.cold.out)) << dir;
    EXPECT_EQ(without_times(r.warm.out), without_times(r.cold.out)) << dir;
    EXPECT_EQ(r.warm.err, r.cold.err) << dir;
  }
  // each sample file alone, too (text output: diagnostics with notes, summary)
  for (const auto& e : fs::directory_iterator(samples)) {
    if (e.path().extension() != ".py") continue;
    std::vector<std::string> text = {"check", "--color=never", "--emit=obligations", e.path().string()};
    std::vector<std::string> cached = text;
    cached.insert(cached.end(), {"--cache-dir", cache.str()});
    text.push_back("--no-cache");
    ProcessResult cold = gshape(text), first = gshape(cached), warm = gshape(cached);
    EXPECT_EQ(first.out, cold.out) << e.path();
    EXPECT_EQ(warm.out, cold.out) << e.path();
    EXPECT_EQ(warm.err, cold.err) << e.path();
    EXPECT_EQ(warm.exit_code, cold.exit_code) << e.path();
  }
}

// A project of independent groups: each a model module (`extra` helpers
// with symbolic sizes after its class, and a comment naming the edit, so
// every edit changes the file) and a train script that imports it. fc2 takes
// 32 features: any other `width` is a static error.
void write_group(const TempDir& dir, int g, int width, int extra, int edit = 0) {
  std::string model = "import torch\nimport torch.nn as nn\n\n\nclass Net" + std::to_string(g) +
                      "(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                      "        self.fc1 = nn.Linear(16, " + std::to_string(width) + ")\n"
                      "        self.fc2 = nn.Linear(32, 4)\n\n"
                      "    def forward(self, x):\n        return self.fc2(torch.relu(self.fc1(x)))\n";
  for (int i = 0; i < extra; ++i)
    model += "\n\ndef helper" + std::to_string(i) + "(x, n):\n    assert n > 2\n    return x.view(x.size(0), -1, n).sum(" +
             std::to_string(i % 2) + ")\n";
  model += "# edit " + std::to_string(edit) + "\n";
  dir.write("proj/g" + std::to_string(g) + "/model" + std::to_string(g) + ".py", model);
  dir.write("proj/g" + std::to_string(g) + "/train" + std::to_string(g) + ".py",
            "import torch\nfrom model" + std::to_string(g) + " import Net" + std::to_string(g) +
                "\n\nnet = Net" + std::to_string(g) + "()\ny = net(torch.randn(8, 16))\nprint(y.sum())\n");
}

TEST(AnalysisCache, AfterRandomEditsACachedRunMatchesAnUncachedOne) {
  TempDir dir, cache;
  const int groups = 4;
  std::vector<int> widths(groups, 32);
  for (int g = 0; g < groups; ++g) write_group(dir, g, 32, 0);
  const std::string proj = dir / "proj";
  // one folder per group (the train scripts import their model by bare name)
  std::vector<std::string> paths;
  for (int g = 0; g < groups; ++g) paths.push_back(proj + "/g" + std::to_string(g));
  Runs r = three_runs(paths, cache.str());
  ASSERT_EQ(without_times(r.warm.out), without_times(r.cold.out));
  std::mt19937 rng(12345);  // fixed: the test is the same on every run
  for (int step = 1; step <= 8; ++step) {
    int g = static_cast<int>(rng() % groups);
    widths[static_cast<std::size_t>(g)] = (rng() % 2) ? 32 : 24 + static_cast<int>(rng() % 16);
    write_group(dir, g, widths[static_cast<std::size_t>(g)], static_cast<int>(rng() % 4), step);
    std::vector<std::string> verbose = {"check", "--color=never", "--verbose", "--cache-dir", cache.str()};
    verbose.insert(verbose.end(), paths.begin(), paths.end());
    ProcessResult text = gshape(verbose);
    EXPECT_EQ(units_line(text.err), "analysis units: 4 (1 analysed, 3 from the cache)")
        << "step " << step << ": only the edited group is analysed again\n" << text.err;
    Runs after = three_runs(paths, cache.str());
    EXPECT_EQ(without_times(after.first.out), without_times(after.cold.out)) << "step " << step;
    EXPECT_EQ(without_times(after.warm.out), without_times(after.cold.out)) << "step " << step;
    EXPECT_EQ(after.warm.exit_code, after.cold.exit_code) << "step " << step;
    bool any_error = std::any_of(widths.begin(), widths.end(), [](int w) { return w != 32; });
    EXPECT_EQ(after.cold.exit_code, any_error ? 1 : 0) << "step " << step << "\n" << after.cold.out;
  }
}

// The units analysed on one thread or on several (GSHAPE_THREADS): the same
// output byte for byte, on samples/ and on a project of independent groups.
TEST(AnalysisCache, OneThreadOrSeveralPrintTheSame) {
  TempDir dir;
  const int groups = 6;
  std::vector<std::string> paths = {(fs::path(GSHAPE_SOURCE_DIR) / "samples").string()};
  for (int g = 0; g < groups; ++g) {
    write_group(dir, g, g % 3 ? 32 : 24, g, 0);
    paths.push_back(dir / ("proj/g" + std::to_string(g)));
  }
  auto run = [&](const std::string& threads) {
    std::vector<std::string> args = {"GSHAPE_THREADS=" + threads, GSHAPE_BINARY, "check", "--format=json", "--no-cache"};
    args.insert(args.end(), paths.begin(), paths.end());
    return run_process("/usr/bin/env", args);
  };
  ProcessResult one = run("1");
  ASSERT_FALSE(one.out.empty()) << one.err;
  for (const std::string threads : {"2", "3"}) {
    ProcessResult several = run(threads);
    EXPECT_EQ(without_times(several.out), without_times(one.out)) << threads << " threads";
    EXPECT_EQ(several.err, one.err) << threads << " threads";
    EXPECT_EQ(several.exit_code, one.exit_code) << threads << " threads";
  }
}

TEST(AnalysisCache, AnEditReanalysesItsGroupOnly) {
  TempDir dir, cache;
  for (int g = 0; g < 3; ++g) write_group(dir, g, 32, 1);
  std::vector<std::string> args = {"check", "--color=never", "--verbose", "--cache-dir", cache.str(),
                                   dir / "proj/g0", dir / "proj/g1", dir / "proj/g2"};
  EXPECT_EQ(units_line(gshape(args).err), "analysis units: 3 (3 analysed, 0 from the cache)");
  EXPECT_EQ(units_line(gshape(args).err), "analysis units: 3 (0 analysed, 3 from the cache)");
  write_group(dir, 1, 32, 2, 1);
  EXPECT_EQ(units_line(gshape(args).err), "analysis units: 3 (1 analysed, 2 from the cache)");
  // --no-cache analyses everything and leaves the cache alone
  std::vector<std::string> uncached = args;
  uncached.push_back("--no-cache");
  EXPECT_EQ(units_line(gshape(uncached).err), "analysis units: 3 (3 analysed, 0 from the cache)");
  EXPECT_EQ(units_line(gshape(args).err), "analysis units: 3 (0 analysed, 3 from the cache)");
}

TEST(AnalysisCache, CorruptOrForeignEntriesAreIgnored) {
  TempDir dir, cache;
  for (int g = 0; g < 2; ++g) write_group(dir, g, g == 0 ? 32 : 20, 0);
  std::vector<std::string> args = {"check", "--format=json", "--cache-dir", cache.str(), dir / "proj/g0",
                                   dir / "proj/g1"};
  std::vector<std::string> uncached = args;
  uncached.push_back("--no-cache");
  const std::string expected = without_times(gshape(uncached).out);
  ASSERT_EQ(without_times(gshape(args).out), expected);
  std::vector<fs::path> entries;
  for (const auto& e : fs::recursive_directory_iterator(cache.path()))
    if (e.path().extension() == ".entry") entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 2u);
  auto check_again = [&](const std::string& what) {
    ProcessResult r = gshape(args);
    EXPECT_EQ(r.exit_code, 1) << what;
    EXPECT_EQ(without_times(r.out), expected) << what;
  };
  // truncated
  for (const fs::path& p : entries) fs::resize_file(p, fs::file_size(p) / 2);
  check_again("truncated entries");
  // a well-formed entry whose body was changed (its check no longer matches)
  ASSERT_EQ(without_times(gshape(args).out), expected);  // rewritten whole
  for (const fs::path& p : entries) {
    std::ifstream in(p, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    in.close();
    std::size_t at = text.find("nn.Linear(");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 9, "nn.Forged");
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }
  check_again("forged entries");
  EXPECT_EQ(without_times(gshape(args).out).find("Forged"), std::string::npos);
  // garbage, and an empty file
  for (const fs::path& p : entries) std::ofstream(p, std::ios::trunc) << "gshape-analysis-cache 1 x y\n{]";
  check_again("garbage");
  for (const fs::path& p : entries) std::ofstream(p, std::ios::trunc);
  check_again("empty");
}

// "modules parsed: P of M ..." of a --verbose text run: P.
int modules_parsed(const std::string& err) {
  static const std::regex line("modules parsed: ([0-9]+) of ([0-9]+)");
  std::smatch m;
  if (!std::regex_search(err, m, line)) return -1;
  return std::stoi(m[1]);
}

// "analysis units: N (A analysed, C from the cache)": A.
int units_analysed(const std::string& err) {
  static const std::regex line("analysis units: [0-9]+ \\(([0-9]+) analysed");
  std::smatch m;
  if (!std::regex_search(err, m, line)) return -1;
  return std::stoi(m[1]);
}

// A flat project (one folder: modules import each other by bare name) of
// models m0..m5 and scripts that import some of them, rewritten at random:
// a model's width (a static error unless 32), which models a script imports
// (units join and split), scripts and models deleted and created, a syntax
// error made and fixed. After every step a cached run prints byte for byte
// what an uncached one prints (JSON with the shapes), twice (the run that
// fills the cache and the one that reads it); with nothing changed no unit
// is analysed and no file is parsed. The file facts (import names) the cache
// keeps decide the units: a stale one would put a file in the wrong unit.
TEST(AnalysisCache, RandomEditsOfImportsFilesAndSyntaxMatchAnUncachedRun) {
  TempDir dir, cache;
  const int models = 6, scripts = 5;
  auto model_text = [](int k, int width, int edit) {
    return "import torch\nimport torch.nn as nn\n\n\nclass Net" + std::to_string(k) +
           "(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc1 = nn.Linear(16, " + std::to_string(width) + ")\n"
           "        self.fc2 = nn.Linear(32, 4)\n\n"
           "    def forward(self, x):\n        return self.fc2(torch.relu(self.fc1(x)))\n# edit " +
           std::to_string(edit) + "\n";
  };
  auto script_text = [](const std::vector<int>& uses, int edit) {
    std::string text = "import torch\n";
    for (int k : uses) text += "from m" + std::to_string(k) + " import Net" + std::to_string(k) + "\n";
    text += "\nx = torch.randn(8, 16)\n";
    for (int k : uses) text += "y" + std::to_string(k) + " = Net" + std::to_string(k) + "()(x)\n";
    return text + "# edit " + std::to_string(edit) + "\n";
  };
  const std::string proj = dir.mkdir("proj");
  auto model_path = [&](int k) { return "proj/m" + std::to_string(k) + ".py"; };
  auto script_path = [&](int s) { return "proj/s" + std::to_string(s) + ".py"; };
  for (int k = 0; k < models; ++k) dir.write(model_path(k), model_text(k, 32, 0));
  for (int s = 0; s < scripts; ++s) dir.write(script_path(s), script_text({s % models}, 0));

  std::vector<std::string> json = {"check", "--format=json", "--show-shapes", proj};
  std::vector<std::string> cached = json, uncached = json;
  cached.insert(cached.end(), {"--cache-dir", cache.str()});
  uncached.push_back("--no-cache");
  // (--show-shapes: the options are part of a unit's key)
  std::vector<std::string> verbose = {"check", "--color=never", "--verbose", "--show-shapes", "--cache-dir",
                                      cache.str(), proj};

  std::mt19937 rng(4242);  // fixed: the test is the same on every run
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  for (int step = 0; step <= 24; ++step) {
    std::string what = "start";
    if (step > 0) {
      switch (pick(6)) {
        case 0: {  // a model's width: an error or not
          int k = pick(models);
          dir.write(model_path(k), model_text(k, pick(2) ? 32 : 20 + pick(20), step));
          what = "width of m" + std::to_string(k);
          break;
        }
        case 1: {  // a script imports other models (units join or split)
          int s = pick(scripts);
          std::vector<int> uses;
          for (int n = pick(3); n > 0; --n) uses.push_back(pick(models));
          std::sort(uses.begin(), uses.end());
          uses.erase(std::unique(uses.begin(), uses.end()), uses.end());
          dir.write(script_path(s), script_text(uses, step));
          what = "imports of s" + std::to_string(s);
          break;
        }
        case 2: {  // a file deleted
          std::string victim = pick(2) ? model_path(pick(models)) : script_path(pick(scripts));
          fs::remove(dir / victim);
          what = "deleted " + victim;
          break;
        }
        case 3: {  // a file created (or made again): a model, or a script of two models
          if (pick(2)) {
            int k = pick(models);
            dir.write(model_path(k), model_text(k, 32, step));
            what = "created m" + std::to_string(k);
          } else {
            int s = pick(scripts);
            dir.write(script_path(s), script_text({pick(models), pick(models)}, step));
            what = "created s" + std::to_string(s);
          }
          break;
        }
        case 4: {  // a syntax error
          std::string victim = pick(2) ? model_path(pick(models)) : script_path(pick(scripts));
          dir.write(victim, "import torch\ndef broken(:\n    pass\n# edit " + std::to_string(step) + "\n");
          what = "syntax error in " + victim;
          break;
        }
        default: {  // the same import list, other code: the file's facts change only by its text
          int s = pick(scripts);
          dir.write(script_path(s), script_text({pick(models)}, step) + "z = torch.zeros(3, 4).sum(0)\n");
          what = "code of s" + std::to_string(s);
          break;
        }
      }
    }
    const std::string label = "step " + std::to_string(step) + " (" + what + ")";
    ProcessResult cold = gshape(uncached);
    ProcessResult first = gshape(cached);
    ProcessResult text = gshape(verbose);  // reads every unit from the cache
    ProcessResult warm = gshape(cached);
    EXPECT_EQ(without_times(first.out), without_times(cold.out)) << label;
    EXPECT_EQ(without_times(warm.out), without_times(cold.out)) << label;
    EXPECT_EQ(first.exit_code, cold.exit_code) << label;
    EXPECT_EQ(warm.exit_code, cold.exit_code) << label;
    EXPECT_EQ(units_analysed(text.err), 0) << label << "\n" << text.err;
    EXPECT_EQ(modules_parsed(text.err), 0) << label << ": nothing changed, nothing parsed\n" << text.err;
  }
}

// The first cached run parses every file (and keeps its import names); with
// nothing changed none is parsed; after an edit, only the files of the
// edited file's unit are.
TEST(AnalysisCache, OnlyTheFilesOfAnalysedUnitsAreParsed) {
  TempDir dir, cache;
  for (int g = 0; g < 3; ++g) write_group(dir, g, 32, 1);
  std::vector<std::string> args = {"check", "--color=never", "--verbose", "--cache-dir", cache.str(),
                                   dir / "proj/g0", dir / "proj/g1", dir / "proj/g2"};
  ProcessResult first = gshape(args);
  EXPECT_EQ(units_line(first.err), "analysis units: 3 (3 analysed, 0 from the cache)");
  EXPECT_NE(first.err.find("modules parsed: 6 of 6\n"), std::string::npos) << first.err;
  ProcessResult same = gshape(args);
  EXPECT_EQ(units_line(same.err), "analysis units: 3 (0 analysed, 3 from the cache)");
  EXPECT_NE(same.err.find("modules parsed: 0 of 6 (the others' units came from the cache)\n"), std::string::npos)
      << same.err;
  write_group(dir, 1, 24, 2, 1);  // g1's model: now a static error
  ProcessResult edited = gshape(args);
  EXPECT_EQ(units_line(edited.err), "analysis units: 3 (1 analysed, 2 from the cache)");
  EXPECT_NE(edited.err.find("modules parsed: 2 of 6 (the others' units came from the cache)\n"), std::string::npos)
      << edited.err;
  EXPECT_NE(edited.err.find("model1.py"), std::string::npos) << edited.err;  // its error is reported
  // --no-cache parses everything
  std::vector<std::string> uncached = args;
  uncached.push_back("--no-cache");
  EXPECT_NE(gshape(uncached).err.find("modules parsed: 6 of 6\n"), std::string::npos);
}

// The file facts are checked like unit entries: one that is garbage, or
// that belongs to another file (its key check does not match), is not used.
TEST(AnalysisCache, CorruptOrForeignFileFactsAreIgnored) {
  TempDir dir, cache;
  for (int g = 0; g < 2; ++g) write_group(dir, g, g == 0 ? 32 : 20, 0);
  std::vector<std::string> args = {"check", "--format=json", "--show-shapes", "--cache-dir", cache.str(),
                                   dir / "proj/g0", dir / "proj/g1"};
  std::vector<std::string> uncached = args;
  uncached.push_back("--no-cache");
  const std::string expected = without_times(gshape(uncached).out);
  ASSERT_EQ(without_times(gshape(args).out), expected);
  std::vector<fs::path> facts;
  for (const auto& e : fs::recursive_directory_iterator(cache.path()))
    if (e.path().extension() == ".facts") facts.push_back(e.path());
  std::sort(facts.begin(), facts.end());
  ASSERT_EQ(facts.size(), 4u);
  auto read = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  // every file's facts swapped for another file's (a train script's for a
  // model's: other import names), and the unit entries removed so that the
  // units are formed from the facts and analysed again
  auto drop_entries = [&] {
    for (const auto& e : fs::recursive_directory_iterator(cache.path()))
      if (e.path().extension() == ".entry") fs::remove(e.path());
  };
  std::vector<std::string> texts;
  for (const fs::path& p : facts) texts.push_back(read(p));
  for (std::size_t i = 0; i < facts.size(); ++i) std::ofstream(facts[i], std::ios::trunc) << texts[(i + 1) % facts.size()];
  drop_entries();
  EXPECT_EQ(without_times(gshape(args).out), expected) << "foreign facts";
  // a body cut off under its own header (a train script's facts would lose
  // its model: its unit would not hold the model), then garbage, then empty files
  ASSERT_EQ(without_times(gshape(args).out), expected);  // the facts written again
  for (const fs::path& p : facts) {
    std::string text = read(p);
    std::ofstream(p, std::ios::trunc) << text.substr(0, text.find('\n') + 1);
  }
  drop_entries();
  EXPECT_EQ(without_times(gshape(args).out), expected) << "cut facts";
  for (const fs::path& p : facts) std::ofstream(p, std::ios::trunc) << "gshape-file-facts 1 x y\nmodel0\n";
  drop_entries();
  EXPECT_EQ(without_times(gshape(args).out), expected) << "garbage facts";
  for (const fs::path& p : facts) std::ofstream(p, std::ios::trunc);
  drop_entries();
  EXPECT_EQ(without_times(gshape(args).out), expected) << "empty facts";
}

TEST(AnalysisCache, CacheDirAndClean) {
  TempDir home, dir;
  write_group(dir, 0, 32, 0);
  ProcessResult where = gshape({"cache", "dir", "--cache-dir", home.str()});
  EXPECT_EQ(where.exit_code, 0);
  EXPECT_EQ(where.out, home.str() + "\n");
  ASSERT_EQ(gshape({"check", "--cache-dir", home.str(), dir / "proj/g0"}).exit_code, 0);
  EXPECT_TRUE(fs::is_directory(home.path() / "analysis"));
  home.write("mine.txt", "not gshape's");  // --cache-dir may hold other things: left alone
  ProcessResult clean = gshape({"cache", "clean", "--cache-dir", home.str()});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_FALSE(fs::exists(home.path() / "analysis"));
  EXPECT_TRUE(fs::exists(home.path() / "mine.txt"));
  std::vector<std::string> args = {"check", "--color=never", "--verbose", "--cache-dir", home.str(), dir / "proj/g0"};
  EXPECT_NE(gshape(args).err.find("analysis units: 1 (1 analysed, 0 from the cache)"), std::string::npos);
  // XDG_CACHE_HOME decides the default
  ProcessResult xdg = run_process("/usr/bin/env", {"XDG_CACHE_HOME=" + home.str(), GSHAPE_BINARY, "cache", "dir"});
  EXPECT_EQ(xdg.out, home.str() + "/gshape\n");
  EXPECT_EQ(gshape({"cache"}).exit_code, 2);
  EXPECT_EQ(gshape({"cache", "prune"}).exit_code, 2);
  EXPECT_NE(gshape({"cache", "--help"}).out.find("gshape cache clean"), std::string::npos);
}

}  // namespace
}  // namespace gshape::testing
