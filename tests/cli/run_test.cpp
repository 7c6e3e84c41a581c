// `gshape run SCRIPT [-- ARGS…]` end to end: the script runs as if started
// directly (stdout, argv, __name__, exit status), a failing check stops it
// with ShapeCheckError at the user's line, static errors are shown first but
// do not block the run, and the cache is reused while nothing changed.
// Needs the runtime (GSHAPE_WITH_TORCH=ON); skipped without it.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "gshape_runner.h"
#include "shape_fixtures.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

const char* kPython = "/usr/bin/python3";
const char* kGoodBatch = "[[1.0, 2.0, 3.0, 4.0]]";
const char* kBadBatch = "[[1.0, 2.0, 3.0]]";  // 3 features for nn.Linear(4, 2)

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  std::size_t at = t.rfind('\n');
  return at == std::string::npos ? t : t.substr(at + 1);
}

class RunScript : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef GSHAPE_TEST_HAS_RUNTIME
    GTEST_SKIP() << "gshape was built without its runtime (GSHAPE_WITH_TORCH=OFF)";
#endif
  }
  // gshape run with a private cache; the script's own arguments after "--".
  ProcessResult run(const std::string& script, const std::vector<std::string>& script_args,
                    const std::string& working_dir = {}) {
    std::vector<std::string> args = {"run", "--color=never", "--cache-dir", cache_.str(), script, "--"};
    args.insert(args.end(), script_args.begin(), script_args.end());
    return run_process(GSHAPE_BINARY, args, working_dir, 180);
  }
  TempDir dir_;
  TempDir cache_;
};

TEST_F(RunScript, PassingChecksRunExactlyLikeTheOriginal) {
  std::string script = dir_.write("src/train.py", kDeferredScript);
  ProcessResult plain = run_process(kPython, {script, kGoodBatch, "0"}, {}, 180);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ProcessResult r = run(script, {kGoodBatch, "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.out, std::string("out (1, 2) args ['") + kGoodBatch + "', '0'] name __main__\n");
  EXPECT_EQ(r.err, "") << "no static diagnostics, nothing else on stderr";
  EXPECT_TRUE(std::filesystem::exists(cache_.path())) << "the instrumented copy lives in the cache";
}

TEST_F(RunScript, TheScriptsExitStatusIsReturned) {
  std::string script = dir_.write("src/train.py", kDeferredScript);
  ProcessResult r = run(script, {kGoodBatch, "7"});
  EXPECT_EQ(r.exit_code, 7) << r.err;
}

TEST_F(RunScript, AFailingCheckStopsAtTheUsersLineWithShapeCheckError) {
  std::string script = dir_.write("src/train.py", kDeferredScript);
  ProcessResult plain = run_process(kPython, {script, kBadBatch}, {}, 180);
  EXPECT_NE(plain.exit_code, 0);
  EXPECT_FALSE(contains(plain.err, "ShapeCheckError")) << "PyTorch's own error when run directly";

  ProcessResult r = run(script, {kBadBatch});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "") << "it stopped before the print";
  std::string last = last_line(r.err);
  EXPECT_TRUE(contains(last, "ShapeCheckError: " + script + ":" + std::to_string(kDeferredLine) + ":" +
                                 std::to_string(kDeferredColumn) + ": [linear_c1] "))
      << r.err;
  EXPECT_TRUE(contains(last, "expects in_features 4 but the input's last dimension is 3")) << last;
  // The innermost frame is the user's file and line, as Python names it.
  EXPECT_TRUE(contains(r.err, "File \"" + script + "\", line " + std::to_string(kDeferredLine) + ", in main\n"))
      << r.err;
}

// A mask whose shape the analysis cannot know (its length comes from the
// command line): the run-time check reads its dtype and sizes and stops a
// wrong one at the user's line, before PyTorch's IndexError; a right one
// runs unchanged.
const char* kMaskScript =
    "import sys\n"
    "import torch\n"
    "n = int(sys.argv[1])\n"
    "x = torch.zeros(4, 3)\n"
    "keep = torch.ones(n) > 0\n"
    "y = x[keep]\n"
    "print('rows', tuple(y.shape))\n";

TEST_F(RunScript, AWrongMaskStopsAtItsLineWithShapeCheckError) {
  std::string script = dir_.write("src/mask.py", kMaskScript);
  ProcessResult plain = run_process(kPython, {script, "4"}, {}, 180);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ProcessResult good = run(script, {"4"});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(good.out, plain.out);
  EXPECT_EQ(good.out, "rows (4, 3)\n");

  ProcessResult plain_bad = run_process(kPython, {script, "3"}, {}, 180);
  EXPECT_NE(plain_bad.exit_code, 0);
  EXPECT_FALSE(contains(plain_bad.err, "ShapeCheckError")) << "PyTorch's own IndexError when run directly";
  ProcessResult bad = run(script, {"3"});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_EQ(bad.out, "");
  EXPECT_TRUE(contains(last_line(bad.err), "ShapeCheckError: " + script + ":6:")) << bad.err;
  EXPECT_TRUE(contains(last_line(bad.err), "[getitem_c5]")) << bad.err;
}

TEST_F(RunScript, RelativeScriptPathsNameFilesAsTyped) {
  dir_.write("src/train.py", kDeferredScript);
  ProcessResult r = run("src/train.py", {kBadBatch}, dir_.str());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(last_line(r.err), "ShapeCheckError: src/train.py:15:11: [linear_c1]")) << r.err;
}

// A module train.py imports, with a static error in a function nobody calls
// (line 7, column 12): reported, and the run never reaches it.
const char* kImportedHelper =
    "import torch\n"
    "\n"
    "\n"
    "def unused():\n"
    "    a = torch.zeros(3, 5)\n"
    "    b = torch.zeros(4, 2)\n"
    "    return a @ b\n";

TEST_F(RunScript, StaticErrorsOfTheImportClosureArePrintedFirstButDoNotStopTheRun) {
  std::string script = dir_.write("src/train.py", std::string("import helper\n") + kDeferredScript);
  dir_.write("src/helper.py", kImportedHelper);
  dir_.write("src/model.py", kRefutedModule);  // in the project, never imported by train.py
  ProcessResult r = run(script, {kGoodBatch});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "out (1, 2)")) << r.out;
  EXPECT_TRUE(contains(r.err, "helper.py:7:12: error: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "[matmul_c2]")) << r.err;
  EXPECT_FALSE(contains(r.err, "model.py")) << "not in train.py's import closure: " << r.err;
  EXPECT_TRUE(contains(r.err, "gshape: 1 error found statically; running with run-time checks anyway\n")) << r.err;
}

TEST_F(RunScript, TheCacheIsReusedUntilAFileChangesAndTheDiagnosticsAreShownEveryTime) {
  std::string script = dir_.write("src/train.py", std::string("import helper\n") + kDeferredScript);
  dir_.write("src/helper.py", kImportedHelper);
  dir_.write("src/model.py", kRefutedModule);
  ProcessResult first = run(script, {kGoodBatch});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_TRUE(contains(first.err, "helper.py:7:12: error: ")) << "the first run analyses and reports: " << first.err;
  ProcessResult second = run(script, {kGoodBatch});
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(second.err, first.err) << "nothing changed: the same diagnostics, from the cache";
  EXPECT_EQ(second.out, first.out);
  // Another script of the project: its own closure (model.py's error).
  std::string other = dir_.write("src/other.py", "import model\nprint('other')\n");
  ProcessResult other_run = run(other, {});
  EXPECT_TRUE(contains(other_run.err, "model.py:5:5: error: ")) << other_run.err;
  EXPECT_FALSE(contains(other_run.err, "helper.py")) << other_run.err;
  // A changed file makes it analyse (and report) again; the check still works.
  dir_.write("src/helper.py", std::string(kImportedHelper) + "# edited\n");
  ProcessResult third = run(script, {kBadBatch});
  EXPECT_EQ(third.exit_code, 1);
  EXPECT_TRUE(contains(third.err, "helper.py:7:12: error: ")) << third.err;
  EXPECT_TRUE(contains(last_line(third.err), "[linear_c1]")) << third.err;
}

TEST_F(RunScript, ACacheInsideTheProjectIsNotAnalysedAsItsCode) {
  // `XDG_CACHE_HOME=./cache`: the instrumented copies in the cache are no
  // modules of the project (they were walked, copied again and grew each run)
  std::string script = dir_.write("src/train.py", kDeferredScript);
  std::string cache = dir_ / "src/cache";
  for (int i = 0; i < 3; ++i) {
    ProcessResult r = run_process(GSHAPE_BINARY, {"run", "--cache-dir", cache, script, "--", kGoodBatch}, {}, 180);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "") << "run " << i;
  }
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(cache) / "CACHEDIR.TAG"));
  ProcessResult check = run_process(GSHAPE_BINARY, {"check", "--no-cache", dir_ / "src"}, {}, 180);
  EXPECT_TRUE(contains(check.err, "checked 1 file:")) << check.err;
}

const char* kLaunchScript =
    "import argparse\n"
    "import json\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "p = argparse.ArgumentParser()\n"
    "p.add_argument('--features', type=int, default=4)\n"
    "p.add_argument('--config', default='')\n"
    "args = p.parse_args()\n"
    "outputs = json.load(open(args.config))['outputs'] if args.config else 3\n"
    "net = nn.Linear(args.features, outputs)\n"
    "y = net(torch.randn(1, 4))\n"
    "nn.Linear(3, 1)(y)\n"
    "print('ok')\n";

TEST_F(RunScript, ALaunchIsAnalysedWithItsArgumentsAndTheCacheKnowsThem) {
  std::string script = dir_.write("src/train.py", kLaunchScript);
  // another script of the project with its own arguments: not this launch's
  dir_.write("src/other.py", "import argparse\np = argparse.ArgumentParser()\np.add_argument('--x')\np.parse_args()\n");
  ProcessResult bad = run(script, {"--features", "5"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(contains(bad.err, "train.py:11:5: error: nn.Linear(5, 3) expects in_features 5")) << bad.err;
  EXPECT_TRUE(contains(bad.err, "note: from the command line: --features 5")) << bad.err;
  EXPECT_FALSE(contains(bad.err, "argparse rejects")) << "other.py is not launched: " << bad.err;
  EXPECT_TRUE(contains(last_line(bad.err), "ShapeCheckError")) << bad.err;
  // the same launch again: nothing to analyse, the same diagnostics
  ProcessResult again = run(script, {"--features", "5"});
  EXPECT_TRUE(contains(again.err, "train.py:11:5: error: nn.Linear(5, 3) expects in_features 5")) << again.err;
  EXPECT_TRUE(contains(last_line(again.err), "ShapeCheckError")) << again.err;
  // other arguments: analysed again, for them
  ProcessResult good = run(script, {"--features", "4"});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(good.err, "") << "no static error for this launch";
  // a config file the launch reads is part of the key
  dir_.write("src/cfg.json", "{\"outputs\": 3}");
  ProcessResult with_config = run(script, {"--config", "cfg.json"}, dir_.str() + "/src");
  EXPECT_EQ(with_config.exit_code, 0) << with_config.err;
  EXPECT_EQ(with_config.err, "");
  dir_.write("src/cfg.json", "{\"outputs\": 2}");
  ProcessResult edited = run(script, {"--config", "cfg.json"}, dir_.str() + "/src");
  EXPECT_EQ(edited.exit_code, 1);
  EXPECT_TRUE(contains(edited.err, "error: nn.Linear(3, 1) expects in_features 3")) << edited.err;
  EXPECT_TRUE(contains(edited.err, "note: from cfg.json: \"outputs\": 2")) << edited.err;
}

// The version line of the run cache's manifest (who analysed last).
std::string manifest_version(const std::filesystem::path& cache) {
  for (const auto& e : std::filesystem::directory_iterator(cache)) {
    std::ifstream in(e.path() / "manifest.txt");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("version ", 0) == 0) return line;
  }
  return "";
}

TEST_F(RunScript, ARebuiltGshapeAnalysesAgain) {
  // a copy of gshape stands for a rebuilt binary: same version, new file
  TempDir bin;
  std::filesystem::path gshape = bin.path() / "gshape";
  std::filesystem::copy_file(GSHAPE_BINARY, gshape);
  std::string script = dir_.write("src/train.py", std::string("import model\n") + kDeferredScript);
  dir_.write("src/model.py", kImportedHelper);
  auto run_with = [&]() {
    return run_process(gshape.string(), {"run", "--color=never", "--cache-dir", cache_.str(), script, "--", kGoodBatch},
                       {}, 180);
  };
  ProcessResult first = run_with();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_TRUE(contains(first.err, "error: ")) << first.err;
  std::string analysed_by = manifest_version(cache_.path());
  ASSERT_FALSE(analysed_by.empty());
  ASSERT_EQ(run_with().err, first.err) << "same binary, same files: the cache is reused";
  std::filesystem::last_write_time(gshape, std::filesystem::last_write_time(gshape) + std::chrono::hours(1));
  ProcessResult rebuilt = run_with();
  EXPECT_EQ(rebuilt.exit_code, 0) << rebuilt.err;
  EXPECT_TRUE(contains(rebuilt.err, "model.py:7:12: error: ")) << rebuilt.err;
  EXPECT_NE(manifest_version(cache_.path()), analysed_by) << "a new binary analyses again";
}

const char* kSequentialScript =
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "\n"
    "class MLP(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.net = nn.Sequential(\n"
    "            nn.Linear(4, 8),\n"
    "            nn.ReLU(),\n"
    "            nn.Linear(6, 2),\n"
    "        )\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.net(x)\n"
    "\n"
    "\n"
    "print(MLP()(torch.randn(3, 4)).shape)\n";

// A layer of an nn.Sequential is checked by the module hook, called from
// inside torch: the error names the layer as written, and the traceback
// ends at the layer's line in the user's file, not in torch.
TEST_F(RunScript, AFailingLayerOfASequentialEndsTheTracebackAtTheLayer) {
  std::string script = dir_.write("src/train.py", kSequentialScript);
  ProcessResult r = run(script, {});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(last_line(r.err),
                       "nn.Linear(6, 2) expects in_features 6 but the input's last dimension is 8 (input shape [3, 8]); "
                       "raised in self.net[2] = nn.Linear(6, 2) (line 11), a layer of the nn.Sequential called at this "
                       "line")) << r.err;
  EXPECT_TRUE(contains(last_line(r.err), "train.py:15:")) << "the line that calls the Sequential: " << r.err;
  std::size_t last_frame = r.err.rfind("  File \"");
  ASSERT_NE(last_frame, std::string::npos) << r.err;
  EXPECT_EQ(r.err.substr(last_frame), "  File \"" + script + "\", line 11, in self.net[2]\n"
                                      "    nn.Linear(6, 2),\n" + last_line(r.err) + "\n") << r.err;
}

// `run` loads the project as `check` does: the configured max-file-size
// applies (a larger file is skipped with a warning, so its static error is
// not shown), a file that cannot be read is shown but counted apart from
// the errors, and a --max-file-size given later analyses again.
TEST_F(RunScript, SizeLimitAndUnreadableFilesAreTreatedAsCheckTreatsThem) {
  dir_.write("src/pyproject.toml", "[tool.gshape]\nmax-file-size = \"1KB\"\n");
  std::string script = dir_.write("src/train.py", std::string("import helper\n") + kDeferredScript);
  dir_.write("src/helper.py", std::string(kImportedHelper) + "# " + std::string(2000, 'x') + "\n");
  std::filesystem::create_symlink("nowhere.py", dir_.path() / "src/gone.py");

  ProcessResult check = run_process(GSHAPE_BINARY, {"check", "--color=never", "--no-cache", dir_ / "src"}, {}, 180);
  EXPECT_EQ(check.exit_code, 2) << check.err;
  EXPECT_TRUE(contains(check.err, "helper.py: warning: skipped: the file is")) << check.err;
  EXPECT_TRUE(contains(check.err, "gone.py: error: cannot read file")) << check.err;
  EXPECT_TRUE(contains(check.err, "checked 3 files: 0 errors, 1 warning; 1 file could not be read")) << check.err;

  ProcessResult r = run(script, {kGoodBatch});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "out (1, 2)")) << r.out;
  EXPECT_TRUE(contains(r.err, "helper.py: warning: skipped: the file is")) << r.err;
  EXPECT_FALSE(contains(r.err, "[matmul_c2]")) << "helper.py is over the configured limit: " << r.err;
  EXPECT_TRUE(contains(r.err, "gone.py: error: cannot read file")) << r.err;
  EXPECT_TRUE(contains(r.err, "gshape: 1 file could not be read (not analysed, no run-time checks in it)\n")) << r.err;
  EXPECT_FALSE(contains(r.err, "found statically")) << "an unreadable file is not a shape error: " << r.err;

  // the limit from the command line wins, and the cache knows it
  std::vector<std::string> args = {"run", "--color=never", "--cache-dir", cache_.str(), "--max-file-size", "1MB",
                                   script, "--", kGoodBatch};
  ProcessResult raised = run_process(GSHAPE_BINARY, args, {}, 180);
  EXPECT_EQ(raised.exit_code, 0) << raised.err;
  EXPECT_TRUE(contains(raised.err, "helper.py:7:12: error: ")) << raised.err;
  EXPECT_TRUE(contains(raised.err, "gshape: 1 error found statically; running with run-time checks anyway\n")) << raised.err;
}

// A latin-1 file (PEP 263) is analysed and its instrumented copy is written
// in latin-1 too: its strings keep their value, its checks stop the run. An
// outside user's latin-1 file was "not valid UTF-8" (an error) and then run
// unchecked under "running with run-time checks anyway".
TEST_F(RunScript, ADeclaredLatin1ScriptIsCheckedAndKeepsItsText) {
  std::string script = dir_.write("src/latin.py",
                                  "# -*- coding: latin-1 -*-\n"
                                  "import sys\n"
                                  "import torch\n"
                                  "s = 'caf\xe9'\n"
                                  "print(len(s), ascii(s))\n"
                                  "n = int(sys.argv[1])\n"
                                  "x = torch.zeros(2, n) @ torch.zeros(3, 4)\n"
                                  "print(tuple(x.shape))\n");
  ProcessResult r = run(script, {"3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "4 'caf\\xe9'\n(2, 4)\n");
  EXPECT_EQ(r.err, "");
  r = run(script, {"5"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(last_line(r.err), "ShapeCheckError: " + script + ":7:5: [matmul_c2]")) << r.err;
}

// An encoding gshape cannot decode: the file runs, but nothing promises it
// checks (a warning says it is not analysed, and no "running with run-time
// checks anyway"); PyTorch's own error ends the run.
TEST_F(RunScript, AFileInAnEncodingGshapeCannotDecodeRunsWithoutAPromise) {
  std::string script = dir_.write("src/jp.py",
                                  "# -*- coding: euc-jp -*-\n"
                                  "import torch\n"
                                  "s = '\xa4\xa2'\n"
                                  "x = torch.zeros(2, 3) @ torch.zeros(4, 5)\n");
  ProcessResult r = run(script, {});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "jp.py: warning: skipped: the file declares the encoding 'euc-jp', which gshape cannot "
                              "decode"))
      << r.err;
  EXPECT_FALSE(contains(r.err, "found statically")) << r.err;
  EXPECT_FALSE(contains(r.err, "ShapeCheckError")) << r.err;
  EXPECT_TRUE(contains(r.err, "RuntimeError: mat1 and mat2 shapes cannot be multiplied")) << r.err;
}

// `a + b + ... + b` with 201 `+` on values of unknown shape: every `+` gets
// a check, and checking them all would nest the copy past CPython's 200
// brackets (an outside user's run ended in `SyntaxError: too many nested
// parentheses`). The outer ones are checked, the rest run unchecked, and a
// note before the run names the line.
TEST_F(RunScript, ALongChainRunsWithItsOuterChecksAndANoteForTheRest) {
  std::string chain = "a";
  for (int i = 0; i < 201; ++i) chain += " + b";
  std::string script = dir_.write("src/chain.py",
                                  "import sys, torch\n"
                                  "shape = [int(v) for v in sys.argv[1:]] or [2, 3]\n"
                                  "a = torch.randn(*shape)\n"
                                  "b = torch.randn(shape[-1])\n"
                                  "y = " + chain + "\n"
                                  "print(tuple(y.shape))\n");
  // without `--`: analysed for any command line, so `a`'s shape is unknown
  auto run_any = [&](const std::vector<std::string>& script_args) {
    std::vector<std::string> args = {"run", "--color=never", "--cache-dir", cache_.str(), script};
    if (!script_args.empty()) args.push_back("--");
    args.insert(args.end(), script_args.begin(), script_args.end());
    return run_process(GSHAPE_BINARY, args, {}, 180);
  };
  ProcessResult r = run_any({});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "(2, 3)\n");
  EXPECT_FALSE(contains(r.err, "SyntaxError")) << r.err;
  EXPECT_TRUE(contains(r.err, script + ":5: note: ")) << r.err;
  EXPECT_TRUE(contains(r.err, " operations on this line are not checked at run time: nested too deep for their checks"))
      << r.err;
  // the note is shown on every run, the cache kept
  ProcessResult again = run_any({});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, "(2, 3)\n");
  EXPECT_TRUE(contains(again.err, script + ":5: note: ")) << again.err;
}

TEST_F(RunScript, AMissingPythonIsAnErrorOfGshape) {
  std::string script = dir_.write("src/train.py", kDeferredScript);
  ProcessResult r = run_process(GSHAPE_BINARY,
                                {"run", "--python", dir_ / "no-such-python", "--cache-dir", cache_.str(), script}, {}, 180);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "gshape: error: cannot run")) << r.err;
  EXPECT_TRUE(contains(r.err, "no-such-python")) << r.err;
}

}  // namespace
TEST_F(RunScript, ALibraryForwardThePatchedProgramReplacedIsNotCheckedByItsRule) {
  // `nn.Linear.forward = lora_forward` trims the input: the run-time check
  // applied nn.Linear's rule to the call and stopped a correct program
  // (tester7/09); the static analysis reported a false error too
  std::string script = dir_.write("src/lora.py",
                                  "import torch\n"
                                  "import torch.nn as nn\n"
                                  "_orig = nn.Linear.forward\n"
                                  "def lora_forward(self, x):\n"
                                  "    return _orig(self, x[..., : self.in_features])\n"
                                  "nn.Linear.forward = lora_forward\n"
                                  "lin = nn.Linear(6, 4)\n"
                                  "y = lin(torch.randn(2, 8))\n"
                                  "print(tuple(y.shape))\n");
  ProcessResult r = run(script, {});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "(2, 4)\n") << r.err;
}

}  // namespace gshape::testing
