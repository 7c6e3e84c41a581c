// `gshape instrument PATH -o OUT` end to end: what it prints, what it writes
// (instrumented files, byte-for-byte copies, gshape-report.json), exit codes,
// and that the source tree is never touched.
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "frontend/json_reader.h"
#include "shape_fixtures.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

Json parse_or_fail(const std::string& text) {
  std::string error;
  std::optional<Json> doc = parse_json_text(text, error);
  EXPECT_TRUE(doc.has_value()) << error << "\n" << text;
  return doc.value_or(Json{});
}

TEST(Instrument, WritesTheInstrumentedCopyAndSaysWhat) {
  TempDir dir;
  dir.write("src/train.py", kDeferredScript);
  dir.write("src/util.py", kPlainModule);
  dir.write("src/data/labels.txt", "cat\ndog\n");
  std::string out = dir / "out";
  ProcessResult r = gshape({"instrument", dir / "src", "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "checked 2 files: 0 errors, 0 warnings\n")) << r.err;
  // fc(batch) and torch.tensor(json.loads(...)), whose data's rank is unknown
  EXPECT_TRUE(contains(r.err, "instrumented 1 file (2 checks), copied 2 files into " + out + "\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "wrote " + out + "/gshape-report.json\n")) << r.err;

  std::string instrumented = read_all(out + "/train.py");
  EXPECT_TRUE(contains(instrumented, "_gshape_checks")) << instrumented;
  EXPECT_EQ(count_of(instrumented, "\n"), count_of(kDeferredScript, "\n")) << "line numbers must not move";
  // util.py's `a + b` would be checked, but a file that is one def has no
  // line for the runtime import: copied byte for byte
  EXPECT_EQ(read_all(out + "/util.py"), kPlainModule);
  EXPECT_EQ(read_all(out + "/data/labels.txt"), "cat\ndog\n");
  // The source tree is untouched.
  EXPECT_EQ(read_all(dir / "src/train.py"), kDeferredScript);
  EXPECT_FALSE(std::filesystem::exists(dir / "src/gshape-report.json"));

  // Instrumenting again into the same OUT is fine (files are replaced).
  ProcessResult again = gshape({"instrument", dir / "src", "-o", out});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(read_all(out + "/train.py"), instrumented);
}

// The copy imports gshape_runtime: `instrument` says how to run it (an
// outside user's copy failed with ModuleNotFoundError and nothing told why),
// and the line it prints works as printed.
TEST(Instrument, TheCopyChecksWhatDependsOnTheCommandLine) {
  // the copy may be run with any arguments: a site proven only for the
  // parser's defaults was left unchecked (`--hidden 7` crashed in PyTorch)
  TempDir dir;
  dir.write("t.py",
            "import argparse\n"
            "import torch\n"
            "import torch.nn as nn\n"
            "p = argparse.ArgumentParser()\n"
            "p.add_argument('--hidden', type=int, default=8)\n"
            "args = p.parse_args()\n"
            "y = nn.Linear(8, 2)(torch.randn(3, args.hidden))\n");
  ProcessResult r = gshape({"instrument", dir / "t.py", "-o", dir / "out"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string text = read_all(dir / "out/t.py");
  EXPECT_TRUE(contains(text, "y = _gshape_checks.stash(")) << text;  // the layer call is checked
}

TEST(Instrument, SaysHowToRunTheCopyWithTheRuntimeOnThePath) {
  TempDir dir;
  dir.write("src/train.py", kDeferredScript);
  std::string out = dir / "out";
  ProcessResult r = gshape({"instrument", dir / "src/train.py", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string prefix = "to run it: PYTHONPATH=";
  std::size_t at = r.err.find(prefix);
  ASSERT_NE(at, std::string::npos) << r.err;
  std::string line = r.err.substr(at + prefix.size(), r.err.find('\n', at) - at - prefix.size());
  std::string pythonpath = line.substr(0, line.find(' '));
  EXPECT_EQ(line.substr(pythonpath.size()), " /usr/bin/python3 " + out + "/train.py") << line;
#ifdef GSHAPE_TEST_HAS_RUNTIME
  // -s: a runtime installed in the user's site-packages must not be what makes it work
  ProcessResult run = run_process("/usr/bin/env", {"PYTHONPATH=" + pythonpath, "/usr/bin/python3", "-s", out + "/train.py"},
                                  dir / "src");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(contains(run.out, "out (1, 2)")) << run.out;
#endif
  // the JSON form holds it too; a directory's copy names no script
  Json doc = parse_or_fail(gshape({"instrument", "--format=json", dir / "src", "-o", dir / "out2"}).out);
  EXPECT_EQ(doc["instrument"]["runtime_path"].string, pythonpath.substr(0, pythonpath.find(':')));
  EXPECT_TRUE(contains(doc["instrument"]["run_text"].string, "/out2/SCRIPT.py")) << doc["instrument"]["run_text"].string;
}

// A latin-1 file is analysed from its UTF-8 decoding and written back in
// latin-1: the original bytes with the insertions, never its UTF-8 form
// (which Python would read as latin-1, changing the strings).
TEST(Instrument, ALatin1FileIsWrittenBackInLatin1) {
  TempDir dir;
  const std::string source =
      "# -*- coding: latin-1 -*-\nimport sys\nimport torch\ns = 'caf\xe9'\n"
      "x = torch.zeros(2, int(sys.argv[1])) @ torch.zeros(3, 4)\n";
  dir.write("src/latin.py", source);
  dir.write("src/plain.py", "# coding: latin-1\ns = '\xe9'\n");
  ProcessResult r = gshape({"instrument", dir / "src", "-o", dir / "out"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "instrumented 1 file (")) << r.err;
  std::string copy = read_all(dir / "out/latin.py");
  EXPECT_TRUE(contains(copy, "s = 'caf\xe9'\n")) << copy;
  EXPECT_FALSE(contains(copy, "\xc3\xa9")) << copy;
  EXPECT_TRUE(contains(copy, "_gshape_checks.check(")) << copy;
  EXPECT_EQ(read_all(dir / "out/plain.py"), "# coding: latin-1\ns = '\xe9'\n") << "no check: byte for byte";
}

// Checks nested past the budget are left out, and `instrument` names the
// line; the copy compiles and runs (it did not: 202 nested calls).
TEST(Instrument, ChecksNestedTooDeepAreLeftOutAndTheLineIsNamed) {
  TempDir dir;
  std::string chain = "a";
  for (int i = 0; i < 201; ++i) chain += " + b";
  dir.write("src/chain.py",
            "import sys, torch\na = torch.randn(*[int(v) for v in sys.argv[1:]] or [2, 3])\nb = torch.randn(3)\n"
            "y = " + chain + "\nprint(tuple(y.shape))\n");
  std::string out = dir / "out";
  ProcessResult r = gshape({"instrument", dir / "src", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, dir / "src/chain.py" + ":4: note: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "operations on this line are not checked at run time: nested too deep for their checks "
                              "(gshape keeps instrumented code within 100 nested brackets; CPython stops at 200)\n"))
      << r.err;
  Json report = parse_or_fail(read_all(out + "/gshape-report.json"));
  int deep = 0;
  for (const Json& site : report["files"].array[0]["sites"].array) {
    deep += site["problem"].string.rfind("nested too deep to check at run time", 0) == 0;
  }
  EXPECT_GT(deep, 90);
  Json doc = parse_or_fail(gshape({"instrument", "--format=json", dir / "src", "-o", out}).out);
  ASSERT_EQ(doc["instrument"]["unchecked_notes"].array.size(), 1u);
  EXPECT_TRUE(contains(doc["instrument"]["unchecked_notes"].array[0].string, "chain.py:4: note: "));
#ifdef GSHAPE_TEST_HAS_RUNTIME
  const std::string prefix = "to run it: PYTHONPATH=";
  std::size_t at = r.err.find(prefix);
  ASSERT_NE(at, std::string::npos) << r.err;
  std::string pythonpath = r.err.substr(at + prefix.size(), r.err.find(' ', at + prefix.size()) - at - prefix.size());
  ProcessResult run = run_process("/usr/bin/env", {"PYTHONPATH=" + pythonpath, "/usr/bin/python3", "-s", out + "/chain.py"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "(2, 3)\n");
#endif
}

TEST(Instrument, StaticErrorsExit1ButTheCopyIsWrittenWithTheirChecks) {
  TempDir dir;
  dir.write("src/model.py", kRefutedModule);
  dir.write("src/train.py", kDeferredScript);
  std::string out = dir / "out";
  ProcessResult r = gshape({"instrument", dir / "src", "-o", out, "--color=never"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "model.py:5:5: error: ")) << r.err;
  EXPECT_TRUE(contains(r.err, "[matmul_c2]")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 2 files: 1 error, 0 warnings")) << r.err;
  EXPECT_TRUE(contains(r.err, "instrumented 2 files")) << r.err;
  // The refuted obligation has its check (the matmul's rule), so a run stops at line 5.
  std::string model = read_all(out + "/model.py");
  EXPECT_TRUE(contains(model, "(5, 5, 'operator.matmul', ['arg', 'arg'])")) << model;
}

TEST(Instrument, TheReportHoldsEveryObligationCheckFinds) {
  TempDir dir;
  dir.write("src/model.py", kRefutedModule);
  dir.write("src/train.py", kDeferredScript);
  ProcessResult r = gshape({"instrument", dir / "src", "-o", dir / "out"});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  Json report = parse_or_fail(read_all(dir / "out/gshape-report.json"));
  ASSERT_TRUE(report.has("obligations"));
  Json check = parse_or_fail(gshape({"check", "--format=json", dir / "src"}).out);
  ASSERT_TRUE(check.has("obligations"));
  ASSERT_EQ(report["obligations"].array.size(), check["obligations"].array.size());
  int inserted = 0, refuted = 0, deferred = 0;
  for (const Json& o : report["obligations"].array) {
    const std::string& status = o["obligation"]["status"].string;
    refuted += status == "refuted";
    deferred += status == "deferred";
    if (status == "proven") {
      EXPECT_EQ(o["runtime_check"].string, "not_needed");
    } else {
      EXPECT_EQ(o["runtime_check"].string, "inserted") << o["obligation"]["tag"].string;
      ++inserted;
    }
  }
  EXPECT_EQ(refuted, 1);
  EXPECT_EQ(deferred, 2);
  EXPECT_EQ(report["summary"]["checks_inserted"].number, inserted);
}

TEST(Instrument, JsonFormatIsOneDocumentWithWhatWasWritten) {
  TempDir dir;
  dir.write("src/train.py", kDeferredScript);
  dir.write("src/util.py", kPlainModule);
  ProcessResult r = gshape({"instrument", "--format=json", dir / "src", "-o", dir / "out"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  Json doc = parse_or_fail(r.out);
  EXPECT_EQ(doc["command"].string, "instrument");
  EXPECT_EQ(doc["exit_code"].number, 0);
  EXPECT_EQ(doc["summary"]["deferred"].number, 2);
  const Json& written = doc["instrument"];
  EXPECT_EQ(written["instrumented_files"].number, 1);
  EXPECT_EQ(written["checks"].number, 2);
  EXPECT_EQ(written["copied_files"].number, 1);
  EXPECT_EQ(written["report"].string, dir / "out/gshape-report.json");
  EXPECT_TRUE(contains(written["text"].string, "instrumented 1 file (2 checks)")) << written["text"].string;
}

TEST(Instrument, CheckProvenAddsChecksButTheReportKeepsTheirStatus) {
  TempDir dir;
  dir.write("src/train.py", kDeferredScript);
  dir.write("src/fixed.py", kProvenModule);
  ProcessResult plain = gshape({"instrument", "--format=json", dir / "src", "-o", dir / "plain"});
  ProcessResult all = gshape({"instrument", "--format=json", "--check-proven", dir / "src", "-o", dir / "all"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(all.exit_code, 0) << all.err;
  double plain_checks = parse_or_fail(plain.out)["instrument"]["checks"].number;
  double all_checks = parse_or_fail(all.out)["instrument"]["checks"].number;
  EXPECT_GE(all_checks, plain_checks + 3) << "fixed.py's three proven calls are checked too";
  EXPECT_EQ(read_all(dir / "plain/fixed.py"), kProvenModule) << "without --check-proven nothing to check there";
  EXPECT_TRUE(contains(read_all(dir / "all/fixed.py"), "y = _gshape_checks.stash(2, 0, fc)(_gshape_checks.check(2, 1, x))"))
      << read_all(dir / "all/fixed.py");
  Json report = parse_or_fail(read_all(dir / "all/gshape-report.json"));
  EXPECT_EQ(report["summary"]["proven"].number, parse_or_fail(read_all(dir / "plain/gshape-report.json"))["summary"]["proven"].number);
}

TEST(Instrument, AnUnwritableOutputLocationExits2BeforeAnalysing) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write anywhere";
  TempDir dir;
  dir.write("src/train.py", kDeferredScript);
  std::string locked = dir.mkdir("locked");
  std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  ProcessResult r = gshape({"instrument", dir / "src", "-o", dir / "locked/out"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "cannot write to output location")) << r.err;
  EXPECT_FALSE(contains(r.err, "checked")) << r.err;
}

TEST(Instrument, AnOutputHoldingTheInputOrOtherFilesIsRefused) {
  // an outside user's `gshape instrument pkg -o .` overwrote ./model.py
  // with the copy of pkg/model.py
  TempDir dir;
  dir.write("model.py", "# mine\n");
  dir.write("pkg/model.py", "import torch\nx = torch.zeros(2, 3)\n");
  ProcessResult r = gshape({"instrument", "pkg", "-o", "."}, dir.str());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("holds the input"), std::string::npos) << r.err;
  EXPECT_EQ(read_all(dir / "model.py"), "# mine\n");
  // a folder of someone else's files
  dir.write("other/notes.txt", "keep\n");
  r = gshape({"instrument", "pkg", "-o", "other"}, dir.str());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is not empty"), std::string::npos) << r.err;
  // an earlier copy is written over
  r = gshape({"instrument", "pkg", "-o", "out"}, dir.str());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = gshape({"instrument", "pkg", "-o", "out"}, dir.str());
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(Instrument, OneFileIsInstrumentedIntoAnotherFolder) {
  TempDir dir;
  dir.write("src/train.py", kDeferredScript);
  dir.write("src/other.py", kRefutedModule);
  ProcessResult r = gshape({"instrument", dir / "src/train.py", "-o", dir / "out"});
  EXPECT_EQ(r.exit_code, 0) << "only train.py is analysed, not its neighbour: " << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "out/train.py"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out/other.py"));
}

}  // namespace
}  // namespace gshape::testing
