// `gshape check` on fixture projects: survivable input, exit codes, the
// messages users see, skipped folders, and the JSON form.
#include <unistd.h>

#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "shape_fixtures.h"
#include "frontend/json_reader.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

const char* kGoodModule =
    "import torch\n"
    "\n"
    "class Net(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = torch.nn.Linear(4, 2)\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.fc(x)\n";

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(Check, GoodProjectExits0WithSummary) {
  TempDir dir;
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/model.py", kGoodModule);
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // the shape analysis adds its line: Linear's construction is proven, the
  // forward of a never-called model is checked at run time
  EXPECT_EQ(r.err, "checked 2 files: 0 errors, 0 warnings\n3 obligations: 1 proven, 0 refuted, 2 deferred\n");
  EXPECT_EQ(r.out, "");
}

TEST(Check, AdvancedIndexingHasARule) {
  // x[mask] is checked (it was listed as an op without a rule): a mask of
  // the indexed axes' shape is proven, a wrong one is an error
  TempDir dir;
  dir.write("m.py",
            "import torch\n"
            "x = torch.randn(4, 5)\n"
            "m = torch.randn(4) > 0\n"
            "y = x[m]\n");
  ProcessResult r = gshape({"check", "--no-cache", dir / "m.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(contains(r.err, "advanced indexing")) << r.err;
  dir.write("bad.py",
            "import torch\n"
            "x = torch.randn(4, 5)\n"
            "m = torch.randn(5) > 0\n"
            "y = x[m]\n");
  r = gshape({"check", "--no-cache", dir / "bad.py"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "[getitem_c5]")) << r.err;
}

TEST(Check, LoadingAStateDictIsSaidToBeNotChecked) {
  // no rule compares a checkpoint's sizes with the model's (an outside tester's report)
  TempDir dir;
  dir.write("m.py",
            "import torch\n"
            "import torch.nn as nn\n"
            "student = nn.Sequential(nn.Linear(8, 12), nn.ReLU(), nn.Linear(12, 2))\n"
            "teacher = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))\n"
            "student.load_state_dict(teacher.state_dict())\n");
  ProcessResult r = gshape({"check", "--no-cache", dir / "m.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "not checked: 1 call of ops without a rule: torch.nn.Module.load_state_dict")) << r.err;
}

TEST(Check, ACallOfAPartialOfALibraryFunctionIsSaidToBeNotChecked) {
  // the run-time check saw the partial object and passed: PyTorch's cat
  // error got past `gshape run` although the site was "deferred" (tester6/07)
  TempDir dir;
  dir.write("p.py",
            "import functools, sys, torch\n"
            "cat_rows = functools.partial(torch.cat, dim=0)\n"
            "n = int(sys.argv[1])\n"
            "y = cat_rows([torch.randn(2, 3), torch.randn(2, n)])\n");
  ProcessResult r = gshape({"check", "--no-cache", dir / "p.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "not checked: 1 call of a functools.partial of a library function")) << r.err;
  ProcessResult report = gshape({"report", "--all", "--verbose", dir / "p.py"});
  EXPECT_TRUE(contains(report.out, "not instrumentable: the callee is a functools.partial")) << report.out;
}

TEST(Check, AMatchStatementIsSaidToBeNotCheckedAndWhatItBindsIsUnknown) {
  // the interpreter skipped match statements silently: names bound in a case
  // kept their old values (a false proof after it) and the calls in its cases
  // were neither checked nor listed (tester6/01)
  TempDir dir;
  dir.write("m.py",
            "import sys, torch\n"
            "heads = 4\n"
            "match sys.argv[1]:\n"
            "    case 'wide':\n"
            "        heads = 12\n"
            "    case _:\n"
            "        pass\n"
            "y = torch.randn(4, 16).view(4, heads, -1)\n");
  ProcessResult r = gshape({"check", "--no-cache", dir / "m.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "not checked: 1 match statement")) << r.err;
  ProcessResult report = gshape({"report", "--all", "--verbose", dir / "m.py"});
  EXPECT_TRUE(contains(report.out, "8:5  deferred  view_c4")) << report.out;
}

TEST(Check, ACallOfAModuleWithForwardHooksIsSaidToBeNotChecked) {
  // a pre-hook changes the input after a check could read it: the call was
  // claimed "checked at run time" (or proven, for a Sequential's layer
  // hooked through a modules() loop) and PyTorch's error escaped (tester7/08)
  TempDir dir;
  dir.write("h.py",
            "import torch\n"
            "import torch.nn as nn\n"
            "net = nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 4))\n"
            "def trim(module, inputs):\n"
            "    return (inputs[0][..., :6],)\n"
            "for m in net.modules():\n"
            "    if isinstance(m, nn.Linear) and m.out_features == 4:\n"
            "        m.register_forward_pre_hook(trim)\n"
            "y = net(torch.randn(2, 8))\n");
  ProcessResult r = gshape({"check", "--no-cache", dir / "h.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "not checked: 1 call of modules with forward hooks")) << r.err;
}

TEST(Check, CodeCompiledByTorchScriptIsSaidToBeNotChecked) {
  // an outside tester's report: TorchScript compiles the original source and
  // runs it without Python, so the sites in a scripted function or module
  // were claimed deferred but never checked; a Python call of the same
  // module is still checked
  TempDir dir;
  dir.write("s.py",
            "import sys\n"
            "import torch\n"
            "import torch.nn as nn\n"
            "@torch.jit.script\n"
            "def f(x: torch.Tensor) -> torch.Tensor:\n"
            "    return x.view(-1, 4) + 1\n"
            "class M(nn.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.fc = nn.Linear(8, 4)\n"
            "    def forward(self, x):\n"
            "        return self.fc(x)\n"
            "class P(nn.Module):\n"
            "    def forward(self, x):\n"
            "        return x.view(-1, 4)\n"
            "n = int(sys.argv[1])\n"
            "f(torch.randn(3, n))\n"
            "torch.jit.script(M())(torch.randn(3, n))\n"
            "P()(torch.randn(3, n))\n"
            "torch.jit.trace(P(), torch.randn(2, 4))\n");
  ProcessResult r = gshape({"check", "--no-cache", dir / "s.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "not checked: 2 calls or operators not proven in code compiled by TorchScript")) << r.err;
  ProcessResult report = gshape({"report", "--all", "--verbose", dir / "s.py"});
  EXPECT_TRUE(contains(report.out, "6:12  deferred  view_c4")) << report.out;
  EXPECT_TRUE(contains(report.out, "in code compiled by TorchScript")) << report.out;
  // P.forward is traced and also called from Python: the reason says its
  // Python calls go unchecked too (tester5/13)
  EXPECT_TRUE(contains(report.out, "and also called from Python")) << report.out;
  ProcessResult out = gshape({"instrument", dir / "s.py", "-o", dir / "out"});
  EXPECT_EQ(out.exit_code, 0) << out.err;
  std::string text = dir.read("out/s.py");
  EXPECT_TRUE(contains(text, "    return x.view(-1, 4) + 1\n")) << text;  // compiled: left as written
  EXPECT_TRUE(contains(text, "    return self.fc(x)\n")) << text;
  EXPECT_TRUE(contains(text, "check(")) << text;  // P's view, called from Python, is checked
  EXPECT_FALSE(contains(text, "        return x.view(-1, 4)\n")) << text;
}

TEST(Check, AScriptNamedAloneBringsTheModulesItImports) {
  // `gshape check train.py` follows `from model import Net` to the file
  // beside it, as Python finds it when it runs the script: the call's
  // error is reported at the model's line; a package's script imports
  // from above its outermost package
  TempDir dir;
  dir.write("model.py", kGoodModule);
  dir.write("unrelated.py", "import torch\ntorch.zeros(2, 3) @ torch.zeros(4, 5)\n");
  dir.write("train.py", "import torch\nfrom model import Net\nNet()(torch.zeros(3, 5))\n");
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/layers.py", "import torch\ndef head():\n    return torch.nn.Linear(6, 1)\n");
  dir.write("pkg/run.py", "import torch\nfrom pkg.layers import head\nhead()(torch.zeros(2, 7))\n");
  // the files it brings are named beside the script, as the user wrote its path
  ProcessResult r = gshape({"check", "--no-cache", "--color=never", "train.py"}, dir.str());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string all = r.out + r.err;
  EXPECT_TRUE(contains(all, "\nmodel.py:9:16: error: nn.Linear(4, 2) expects in_features 4") || all.rfind("model.py:9:16", 0) == 0)
      << all;
  EXPECT_FALSE(contains(all, "unrelated.py")) << "only what the script imports: " << all;
  EXPECT_TRUE(contains(all, "checked 2 files")) << all;
  r = gshape({"check", "--no-cache", "--color=never", "pkg/run.py"}, dir.str());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  all = r.out + r.err;
  EXPECT_TRUE(contains(all, "[linear_c1]")) << all;
  EXPECT_TRUE(contains(all, "pkg/layers.py:3:12: note:")) << all;
  // a module the script does not import, or one excluded, stays out
  r = gshape({"check", "--no-cache", "--exclude", "model.py", dir / "train.py"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// A chain of broadcasts of unrelated sizes: its shape's term passes the cap
// of 300 characters after a few steps.
std::string long_chain() {
  // m is rebound before each step: each rearrange names a size of its own
  std::string src = "from einops import rearrange\ndef f(m, n):\n    out = rearrange(m, 'b -> b')\n";
  for (int i = 0; i < 24; ++i) src += "    m = n\n    out = out + rearrange(m, 'b -> b')\n";
  return src + "    return out\n";
}

TEST(Check, ACutTermIsSaidOnceAndFullTermsPrintsIt) {
  TempDir dir;
  dir.write("chain.py", long_chain());
  ProcessResult r = gshape({"check", "--show-shapes", "--no-cache", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\u2026")) << r.out;
  EXPECT_EQ(count_of(r.err, "note: "), 1u) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("\nnote: [0-9]+ printed texts hold terms cut at 300 characters "
                                                  "\\(\u2026\\); --full-terms prints them in full\n")))
      << r.err;

  ProcessResult full = gshape({"check", "--show-shapes", "--full-terms", dir.str()});
  EXPECT_EQ(full.exit_code, 0) << full.err;
  EXPECT_FALSE(contains(full.out, "\u2026")) << full.out;
  EXPECT_TRUE(contains(full.out, " where _1 = ")) << full.out;
  EXPECT_FALSE(contains(full.err, "cut at")) << full.err;
  // JSON: the count and the advice in the summary, only when a text was cut
  Json doc = gshape_json({"check", "--format=json", "--show-shapes", "--no-cache", dir.str()});
  EXPECT_GT(doc["summary"].integer_of("terms_cut"), 0);
  EXPECT_TRUE(contains(doc["summary"].str("terms_cut_text"), "--full-terms")) << doc["summary"].str("terms_cut_text");
  TempDir good;
  good.write("model.py", kGoodModule);
  ProcessResult plain = gshape({"check", "--format=json", "--no-cache", good.str()});
  EXPECT_FALSE(contains(plain.out, "terms_cut")) << plain.out;
  EXPECT_FALSE(contains(gshape({"check", "--no-cache", good.str()}).err, "note:"));
}

TEST(Check, BrokenFileAmongGoodOnesExits1AndTheOthersAreStillLoaded) {
  TempDir dir;
  dir.write("a_good.py", kGoodModule);
  dir.write("b_broken.py", "x = 1\ndef f(:\n    return 2\n");
  dir.write("c_good.py", "y = [i * 2 for i in range(3)]\n");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex("b_broken\\.py:([0-9]+):([0-9]+): error: syntax error")))
      << r.err;
  EXPECT_EQ(m[1], "2") << "the error is on line 2: " << r.err;
  EXPECT_NE(r.err.find("  def f(:\n"), std::string::npos) << "the source line is quoted: " << r.err;
  EXPECT_NE(r.err.find("checked 3 files: 1 error, 0 warnings"), std::string::npos) << r.err;

  // The JSON summary tells how many modules were parsed: the two good ones.
  ProcessResult j = gshape({"check", "--format=json", dir.str()});
  std::string error;
  std::optional<Json> doc = parse_json_text(j.out, error);
  ASSERT_TRUE(doc) << error << "\n" << j.out;
  EXPECT_EQ((*doc)["summary"]["modules"].number, 2);
  EXPECT_EQ((*doc)["summary"]["files"].number, 3);
}

TEST(Check, DiagnosticsAreSortedByFileThenLine) {
  TempDir dir;
  dir.write("zeta.py", "def f(:\n    pass\n");
  dir.write("alpha.py", "x = 1\n\n\nclass C(:\n    pass\n");
  dir.write("mid.py", std::string("x = 1\0", 6));
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  std::size_t alpha = r.err.find("alpha.py:4:"), mid = r.err.find("mid.py: error"), zeta = r.err.find("zeta.py:1:");
  ASSERT_NE(alpha, std::string::npos) << r.err;
  ASSERT_NE(mid, std::string::npos) << r.err;
  ASSERT_NE(zeta, std::string::npos) << r.err;
  EXPECT_LT(alpha, mid);
  EXPECT_LT(mid, zeta);
}

TEST(Check, NonUtf8FileIsReportedAtTheBadByte) {
  TempDir dir;
  dir.write("ok.py", "x = 1\n");
  dir.write("bad.py", "x = 1\ny = \"caf\xe9\"\n");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, dir / "bad.py" + ":2:9: error: file is not valid UTF-8 (byte 0xe9)")) << r.err;
  EXPECT_FALSE(contains(r.err, "declares encoding")) << r.err;
  // The quoted line stays printable: the bad byte is shown as '?'.
  EXPECT_TRUE(contains(r.err, "  y = \"caf?\"\n")) << r.err;
}

TEST(Check, BadByteAfterAByteOrderMarkHasTheEditorsColumn) {
  TempDir dir;
  dir.write("bom.py", "\xef\xbb\xbfs = '\xff'\n");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "bom.py:1:6: error: file is not valid UTF-8 (byte 0xff)")) << r.err;
}

// PEP 263: a file that declares latin-1 (or cp1252) is decoded and analysed
// like any other (an outside user's latin-1 file was an "error: not valid
// UTF-8", exit 1, and its shape bug went unseen); columns count its
// characters, as editors do.
TEST(Check, ADeclaredLatin1FileIsDecodedAndAnalysed) {
  TempDir dir;
  dir.write("latin.py",
            "# -*- coding: latin-1 -*-\nimport torch\n# caf\xe9\nname = \"Jos\xe9\"; y = torch.zeros(2, 3) @ torch.zeros(4, 5)\n");
  ProcessResult r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the matmul, not the encoding
  EXPECT_FALSE(contains(r.err, "UTF-8")) << r.err;
  EXPECT_TRUE(contains(r.err, "latin.py:4:20: error: matmul")) << r.err;
  // the quoted line is the decoded text, UTF-8 for the terminal
  EXPECT_TRUE(contains(r.err, "  name = \"Jos\xc3\xa9\"; y = torch.zeros")) << r.err;
  dir.write("latin.py", "# coding=cp1252\nimport torch\ns = '\x80 \xe9'\nprint(torch.zeros(2, 3) @ torch.zeros(3, 5))\n");
  r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.rfind("checked 1 file: 0 errors, 0 warnings\n", 0) == 0) << r.err;
}

TEST(Check, ABadByteForTheDeclaredEncodingIsAnErrorAsInPython) {
  TempDir dir;
  // cp1252 has no character for 0x81: Python stops with a SyntaxError too
  dir.write("bad.py", "# -*- coding: cp1252 -*-\ns = 'a\x81'\n");
  ProcessResult r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "bad.py:2:7: error: file is not valid cp1252 (byte 0x81)")) << r.err;
  EXPECT_TRUE(contains(r.err, "bad.py:1:1: note: the file declares encoding 'cp1252'")) << r.err;
  // a byte-order mark says UTF-8, a declaration something else: CPython's error
  dir.write("bad.py", "\xef\xbb\xbf# coding: latin-1\nx = 1\n");
  r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "error: syntax error: encoding problem: latin-1 with BOM")) << r.err;
}

// An encoding gshape does not decode is a limit of gshape: the file is
// skipped with a warning saying so (not analysed, no run-time checks), not
// counted as an error. On ASCII bytes every such encoding reads the same.
TEST(Check, AnEncodingGshapeCannotDecodeIsAWarningNotAnError) {
  TempDir dir;
  dir.write("jp.py", "# -*- coding: euc-jp -*-\ns = '\xa4\xa2'\n");
  dir.write("ok.py", "# -*- coding: koi8-r -*-\nimport torch\ny = torch.zeros(2, 3) @ torch.zeros(4, 5)\n");
  ProcessResult r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_TRUE(contains(r.err, dir / "jp.py" + ": warning: skipped: the file declares the encoding 'euc-jp', which "
                                              "gshape cannot decode"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "not analysed, no run-time checks in it")) << r.err;
  EXPECT_TRUE(contains(r.err, "ok.py:3:5: error: matmul")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 2 files: 1 error, 1 warning")) << r.err;
  std::filesystem::remove(dir / "ok.py");
  r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(Check, BinaryFileIsRejected) {
  TempDir dir;
  dir.write("blob.py", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10));
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, dir / "blob.py" + ": error: binary file, not Python source")) << r.err;
}

TEST(Check, EmptyFileIsAnEmptyModule) {
  TempDir dir;
  dir.write("empty.py", "");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "checked 1 file: 0 errors, 0 warnings\n");
}

TEST(Check, Utf8WithBomAndNonAsciiIsFine) {
  TempDir dir;
  dir.write("bom.py", "\xef\xbb\xbfname = \"Jos\xc3\xa9\"  # caf\xc3\xa9\n");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Deep nesting must end in a result or a clear diagnostic, never a crash.
void expect_survives(const ProcessResult& r, const std::string& file) {
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.signal, 0) << "killed by signal " << r.signal;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << "exit " << r.exit_code << "\n" << r.err;
  if (r.exit_code == 1) {
    EXPECT_TRUE(contains(r.err, file + ":")) << r.err;
  }
  EXPECT_FALSE(contains(r.err, "internal error")) << r.err;
}

TEST(Check, FiveHundredNestedParenthesesDoNotCrash) {
  TempDir dir;
  std::string text = "x = " + std::string(500, '(') + "1" + std::string(500, ')') + "\n";
  dir.write("parens.py", text);
  expect_survives(gshape({"check", dir.str()}), "parens.py");
}

TEST(Check, FiveHundredNestedIfBlocksDoNotCrash) {
  TempDir dir;
  std::string text = "x = 1\n";
  for (int depth = 0; depth < 500; ++depth) text += std::string(static_cast<std::size_t>(depth), ' ') + "if x:\n";
  text += std::string(500, ' ') + "x = 2\n";
  dir.write("ifs.py", text);
  expect_survives(gshape({"check", dir.str()}), "ifs.py");
}

// Past the builder's 400 levels the code is not analysed: a limit of gshape,
// not an error in the program (Python runs `x + x + ... + x` with 399 `+`),
// so a warning that says it, and exit 0.
TEST(Check, CodeNestedPastTheAnalysisLimitIsAWarningNotAnError) {
  TempDir dir;
  std::string chain = "x";
  for (int i = 0; i < 399; ++i) chain += " + x";
  dir.write("chain.py", "import torch\nx = torch.zeros(2, 3)\ny = " + chain + "\nprint(y.shape)\n");
  ProcessResult r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "chain.py:3:5: warning: nesting too deep (more than 400 levels): the identifier here "
                              "and all code nested in it are not analysed, and neither it nor any operation holding "
                              "it is checked at run time"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "checked 1 file: 0 errors, 1 warning")) << r.err;
}

// 33 levels of tabs (the 33rd line at 256 columns): Python runs it, tree-sitter-python's
// scanner cannot follow past 255 columns. A limit of gshape: a warning, the
// file not analysed, exit 0.
TEST(Check, IndentationDeeperThanTheParserFollowsIsAWarningNotAnError) {
  TempDir dir;
  std::string text = "x = 1\n";
  for (int depth = 0; depth < 33; ++depth) text += std::string(static_cast<std::size_t>(depth), '\t') + "if x:\n";
  text += std::string(33, '\t') + "x = 2\n";
  dir.write("tabs.py", text);
  ProcessResult r = gshape({"check", "--no-cache", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "tabs.py:34:1: warning: nesting too deep: this line is indented by 256 columns; the "
                              "parser follows at most 255, so the file is not analysed nor checked at run time"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "checked 1 file: 0 errors, 1 warning")) << r.err;
}

// A generated file over the size limit (2 MB by default) is skipped with a
// warning naming it and the limit; the rest of the project is still checked.
TEST(Check, OversizedFileIsSkippedWithAWarningAndTheRestIsChecked) {
  TempDir dir;
  dir.write("model.py", kRefutedModule);
  std::string line = "values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]\n";
  std::string text;
  while (text.size() <= 2.5 * 1024 * 1024) text += line;
  dir.write("weights.py", text);
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // model.py's error; the skipped file is only a warning
  EXPECT_TRUE(contains(r.err, dir / "weights.py" +
                                  ": warning: skipped: the file is 2.5 MB, over the size limit of 2.0 MB "
                                  "(--max-file-size, or max-file-size in the configuration, raises it)"))
      << r.err;
  EXPECT_TRUE(contains(r.err, dir / "model.py" + ":5:")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 2 files: 1 error, 1 warning\n")) << r.err;

  // The review lists it among the files not analysed.
  ProcessResult review = gshape({"report", "--format=json", dir.str()});
  std::string error;
  std::optional<Json> doc = parse_json_text(review.out, error);
  ASSERT_TRUE(doc) << error << review.out;
  ASSERT_EQ((*doc)["unanalysed_files"].array.size(), 1u);
  EXPECT_EQ((*doc)["unanalysed_files"].array[0].string, dir / "weights.py");

  // A higher limit, on the command line or in the configuration, checks it.
  ProcessResult raised = gshape({"check", "--max-file-size", "3MB", dir.str()});
  EXPECT_EQ(raised.exit_code, 1) << raised.err;
  EXPECT_FALSE(contains(raised.err, "skipped")) << raised.err;
  EXPECT_TRUE(contains(raised.err, "checked 2 files: 1 error, 0 warnings\n")) << raised.err;
  dir.write("pyproject.toml", "[tool.gshape]\nmax-file-size = \"3MB\"\n");
  ProcessResult configured = gshape({"check", dir.str()});
  EXPECT_TRUE(contains(configured.err, "checked 2 files: 1 error, 0 warnings\n")) << configured.err;
  // ... and a lower one skips smaller files.
  ProcessResult lowered = gshape({"check", "--max-file-size", "10", dir.str()});
  EXPECT_TRUE(contains(lowered.err, "checked 2 files: 0 errors, 2 warnings\n")) << lowered.err;
  EXPECT_EQ(lowered.exit_code, 0);
}

TEST(Check, MaxFileSizeThatIsNotASizeIsAUsageError) {
  TempDir dir;
  dir.write("a.py", "x = 1\n");
  for (const char* bad : {"", "0", "MB", "5 MB", "5XB", "-1", "1.5MB"}) {
    ProcessResult r = gshape({"check", std::string("--max-file-size=") + bad, dir.str()});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_TRUE(contains(r.err, "is not a size")) << bad << r.err;
  }
  dir.write("gshape.toml", "max-file-size = \"big\"\n");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "gshape.toml:1:17: error: 'max-file-size' must be a size")) << r.err;
}

TEST(Check, UnreadableFileIsAnErrorAndTheRestIsChecked) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root: chmod 000 does not stop root from reading";
  TempDir dir;
  dir.write("good.py", "x = 1\n");
  std::string locked = dir.write("locked.py", "x = 1\n");
  std::filesystem::permissions(locked, std::filesystem::perms::none);
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 2);  // an I/O error
  EXPECT_TRUE(contains(r.err, locked + ": error: cannot read file: Permission denied")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 2 files: 0 errors, 0 warnings; 1 file could not be read")) << r.err;
}

// A file that cannot be read is an I/O error, counted apart from the errors
// in the code: the error count is the refuted count, and the exit status 2.
TEST(Check, UnreadableFileIsCountedApartFromShapeErrors) {
  TempDir dir;
  dir.write("model.py", kRefutedModule);
  std::filesystem::create_symlink("nowhere.py", dir.path() / "dangling.py");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, dir / "dangling.py" + ": error: cannot read file: No such file or directory")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 2 files: 1 error, 0 warnings; 1 file could not be read\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "1 refuted")) << r.err;

  ProcessResult j = gshape({"check", "--format=json", dir.str()});
  EXPECT_EQ(j.exit_code, 2);
  std::string error;
  std::optional<Json> doc = parse_json_text(j.out, error);
  ASSERT_TRUE(doc) << error << "\n" << j.out;
  const Json& summary = (*doc)["summary"];
  EXPECT_EQ(summary["errors"].number, 1);
  EXPECT_EQ(summary["refuted"].number, summary["errors"].number);
  EXPECT_EQ(summary["unreadable"].number, 1);
  EXPECT_EQ((*doc)["exit_code"].number, 2);
  EXPECT_EQ((*doc)["diagnostics"].array.size(), 2u);  // the I/O error is still a diagnostic

  // The review lists it among the files not analysed; refuted stays 1.
  ProcessResult rep = gshape({"report", "--format=json", dir.str()});
  EXPECT_EQ(rep.exit_code, 2);
  std::optional<Json> review = parse_json_text(rep.out, error);
  ASSERT_TRUE(review) << error << "\n" << rep.out;
  EXPECT_EQ((*review)["summary"]["refuted"].number, 1);
  ASSERT_EQ((*review)["unanalysed_files"].array.size(), 1u);
  EXPECT_EQ((*review)["unanalysed_files"].array[0].string, dir / "dangling.py");
}

TEST(Check, ToolFoldersAreSkipped) {
  TempDir dir;
  const char* broken = "def f(:\n";
  dir.write("main.py", "x = 1\n");
  dir.write(".hidden/a.py", broken);
  dir.write(".venv/lib/b.py", broken);
  dir.write("__pycache__/c.py", broken);
  dir.write("myvenv/pyvenv.cfg", "home = /usr/bin\n");
  dir.write("myvenv/lib/d.py", broken);
  dir.write("env/bin/activate", "# activate\n");
  dir.write("env/lib/e.py", broken);
  dir.write("node_modules/f.py", broken);
  dir.write("lib/site-packages/g.py", broken);
  dir.write("build/lib/h.py", broken);
  dir.write("dist/i.py", broken);
  dir.write("notes.pyi", broken);
  dir.write("README.txt", broken);
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "checked 1 file: 0 errors, 0 warnings\n");
}

TEST(Check, FoldersThatOnlyLookLikeToolFoldersAreChecked) {
  TempDir dir;
  dir.write("env/config.py", "x = 1\n");         // no activate script: an ordinary package
  dir.write("build/__init__.py", "x = 1\n");     // a real package named build
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "checked 2 files: 0 errors, 0 warnings\n");
}

TEST(Check, SymlinkLoopsEndAndLinkedFilesCountOnce) {
  TempDir dir;
  dir.write("pkg/mod.py", "x = 1\n");
  std::filesystem::create_directory_symlink("..", dir.path() / "pkg/up");
  std::filesystem::create_directory_symlink(".", dir.path() / "pkg/self");
  std::filesystem::create_symlink("mod.py", dir.path() / "pkg/alias.py");
  std::filesystem::create_symlink("ping.py", dir.path() / "pong.py");
  std::filesystem::create_symlink("pong.py", dir.path() / "ping.py");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_FALSE(r.timed_out);
  // mod.py once (alias.py is the same file); the two links that point at
  // each other cannot be read and say so.
  EXPECT_TRUE(contains(r.err, "checked 3 files: 0 errors, 0 warnings; 2 files could not be read")) << r.err;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_of(r.err, "cannot read file"), 2u) << r.err;
}

TEST(Check, DirectoryWithoutPythonFilesWarns) {
  TempDir dir;
  dir.write("notes.txt", "nothing here\n");
  ProcessResult r = gshape({"check", dir.str()});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "gshape: warning: no Python files found\nchecked 0 files: 0 errors, 1 warning\n");
}

TEST(Check, ExplicitFilesAreCheckedWithoutAWalk) {
  TempDir dir;
  std::string good = dir.write("a.py", "x = 1\n");
  dir.write("b.py", "def f(:\n");
  ProcessResult r = gshape({"check", good});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "checked 1 file: 0 errors, 0 warnings\n");
}

TEST(Check, ColorOnlyWhenAsked) {
  TempDir dir;
  dir.write("b.py", "def f(:\n");
  EXPECT_TRUE(contains(gshape({"check", "--color=always", dir.str()}).err, "\033["));
  EXPECT_FALSE(contains(gshape({"check", "--color=never", dir.str()}).err, "\033["));
  EXPECT_FALSE(contains(gshape({"check", dir.str()}).err, "\033[")) << "auto: stderr is a pipe here";
}

// ---------------------------------------------------------------- containers

// An error inside an nn.Sequential is reported at its call, with a note at
// the layer that fails naming the layer its input comes from; --show-shapes
// gives each layer's output shape at the layer.
TEST(Check, ErrorInsideASequentialPointsAtTheLayer) {
  TempDir dir;
  std::string path = dir.write("mlp.py",
                               "import torch\n"
                               "import torch.nn as nn\n"
                               "\n"
                               "class MLP(nn.Module):\n"
                               "    def __init__(self):\n"
                               "        super().__init__()\n"
                               "        self.net = nn.Sequential(\n"
                               "            nn.Linear(784, 120),\n"
                               "            nn.ReLU(),\n"
                               "            nn.Linear(80, 10),\n"
                               "        )\n"
                               "\n"
                               "    def forward(self, x):\n"
                               "        return self.net(x)\n"
                               "\n"
                               "y = MLP()(torch.zeros(64, 784))\n");
  ProcessResult r = gshape({"check", "--show-shapes", path});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, path + ":14:16: error: nn.Linear(80, 10) expects in_features 80 but the input's last "
                                     "dimension is 120 [linear_c1]"))
      << r.err;
  EXPECT_TRUE(contains(r.err, path + ":10:13: note: in self.net[2] = nn.Linear(80, 10) (line 10): its input comes "
                                     "from self.net[0] = nn.Linear(784, 120), of shape [64, 120]\n"))
      << r.err;
  // the shapes between the layers, at each layer
  EXPECT_TRUE(contains(r.out, path + ":8:13: nn.Linear(784, 120) : [64, 120]\n")) << r.out;
  EXPECT_TRUE(contains(r.out, path + ":9:13: nn.ReLU() : [64, 120]\n")) << r.out;

  // The first layer failing: its input is the Sequential's own.
  dir.write("mlp.py", "import torch\nimport torch.nn as nn\nnet = nn.Sequential(nn.Linear(100, 10))\nnet(torch.zeros(2, 50))\n");
  ProcessResult first = gshape({"check", path});
  EXPECT_TRUE(contains(first.err, path + ":3:21: note: in net[0] = nn.Linear(100, 10) (line 3): its input is the "
                                          "input of net, of shape [2, 50]\n"))
      << first.err;

  // JSON carries the note.
  ProcessResult j = gshape({"check", "--format=json", path});
  std::string error;
  std::optional<Json> doc = parse_json_text(j.out, error);
  ASSERT_TRUE(doc) << error << j.out;
  const Json& notes = (*doc)["diagnostics"].array.at(0)["notes"];
  ASSERT_FALSE(notes.array.empty());
  EXPECT_EQ(notes.array[0]["line"].number, 3);
  EXPECT_EQ(notes.array[0]["message"].string.rfind("in net[0] = nn.Linear(100, 10) (line 3)", 0), 0u);
}

// ---------------------------------------------------------------- JSON

TEST(CheckJson, HoldsEverythingTheTextHolds) {
  TempDir dir;
  dir.write("good.py", "x = 1\n");
  dir.write("broken.py", "x = 1\ndef f(:\n");
  dir.write("bad.py", "s = '\xff'\n");
  dir.write("blob.py", std::string("a\0b", 3));
  for (const std::vector<std::string>& form : {std::vector<std::string>{"--format=json"}, {"--format", "json"}}) {
    std::vector<std::string> args = {"check"};
    args.insert(args.end(), form.begin(), form.end());
    args.push_back(dir.str());
    ProcessResult r = gshape(args);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "") << "JSON mode keeps stderr for usage errors only";
    std::string error;
    std::optional<Json> doc = parse_json_text(r.out, error);
    ASSERT_TRUE(doc) << error << "\n" << r.out;
    EXPECT_EQ((*doc)["tool"].string, "gshape");
    EXPECT_EQ((*doc)["command"].string, "check");
    EXPECT_EQ((*doc)["exit_code"].number, 1);
    const Json& diags = (*doc)["diagnostics"];
    ASSERT_EQ(diags.type, Json::Type::Array);
    ASSERT_EQ(diags.array.size(), 3u);
    for (const Json& d : diags.array) {
      for (const char* key : {"file", "line", "column", "severity", "message", "notes"}) {
        EXPECT_TRUE(d.has(key)) << "diagnostic lacks " << key;
      }
      EXPECT_EQ(d["severity"].string, "error");
    }
    // Sorted by file: bad.py, blob.py, broken.py.
    EXPECT_EQ(diags.array[0]["file"].string, dir / "bad.py");
    EXPECT_EQ(diags.array[0]["line"].number, 1);
    EXPECT_EQ(diags.array[0]["column"].number, 6);
    EXPECT_EQ(diags.array[0]["message"].string, "file is not valid UTF-8 (byte 0xff)");
    EXPECT_EQ(diags.array[0]["source_line"].string, "s = '?'");
    EXPECT_EQ(diags.array[1]["file"].string, dir / "blob.py");
    EXPECT_EQ(diags.array[1]["line"].type, Json::Type::Null);
    EXPECT_EQ(diags.array[2]["file"].string, dir / "broken.py");
    EXPECT_EQ(diags.array[2]["line"].number, 2);
    EXPECT_EQ(diags.array[2]["source_line"].string, "def f(:");
    const Json& summary = (*doc)["summary"];
    EXPECT_EQ(summary["files"].number, 4);
    EXPECT_EQ(summary["modules"].number, 1);
    EXPECT_EQ(summary["errors"].number, 3);
    EXPECT_EQ(summary["warnings"].number, 0);
    EXPECT_EQ(summary["text"].string, "checked 4 files: 3 errors, 0 warnings");
  }
}

TEST(CheckJson, CleanProjectIsValidJsonWithNoDiagnostics) {
  TempDir dir;
  dir.write("a.py", "x = 1\n");
  ProcessResult r = gshape({"check", "--format=json", dir.str()});
  EXPECT_EQ(r.exit_code, 0);
  std::string error;
  std::optional<Json> doc = parse_json_text(r.out, error);
  ASSERT_TRUE(doc) << error;
  EXPECT_TRUE((*doc)["diagnostics"].array.empty());
  EXPECT_EQ((*doc)["exit_code"].number, 0);
}

}  // namespace
}  // namespace gshape::testing

namespace gshape::testing {
namespace {

// The end of the summary says what the analysis could not check itself:
// "0 deferred" must never read as "everything proven" when calls went unchecked.
TEST(Check, CoverageSaysWhatWasNotCheckedStatically) {
  TempDir dir;
  dir.write("m.py",
            "import json\n"
            "import torch\n"
            "def main(text, name, layers):\n"
            "    x = torch.zeros(4, 8)\n"
            "    y = torch.stft(x, 4)\n"              // an op without a rule
            "    z = torch.stft(y, 4)\n"
            "    w = torch.istft(z, 4)\n"
            "    f = getattr(layers, name)\n"
            "    h = f(x)\n"                          // a callee the analysis cannot resolve
            "    v = json.loads(text)\n"
            "    u = json.loads(name)\n"
            "    return v + u\n");                    // operands that may be tensors
  ProcessResult r = gshape({"check", dir / "m.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "\nnot checked: 3 calls of ops without a rule: torch.stft (2), torch.istft (1)\n"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "\nchecked at run time only: 1 call of callees the analysis could not resolve; "
                              "1 operator on values not known to be tensors\n"))
      << r.err;
  ProcessResult j = gshape({"check", "--format=json", dir / "m.py"});
  std::string error;
  std::optional<Json> doc = parse_json_text(j.out, error);
  ASSERT_TRUE(doc) << error << j.out;
  const Json& coverage = (*doc)["coverage"];
  EXPECT_EQ(coverage["no_rule"]["torch.stft"].number, 2);
  EXPECT_EQ(coverage["unresolved_calls"].number, 1);
  EXPECT_EQ(coverage["unknown_operands"].number, 1);
  EXPECT_EQ(coverage["lines"].array.size(), 2u);
}

}  // namespace
}  // namespace gshape::testing

namespace gshape::testing {
namespace {

// The verdicts are the same on every run, under any load and with any
// number of threads: Z3 is budgeted by resource units, not seconds (issue 8,
// item 6). Everything but the timings of the JSON document must match.
std::string verdicts_of(const std::string& json) {
  std::size_t from = json.find("\"obligations\":");
  std::size_t to = json.find(",\"analysis\":");
  return from == std::string::npos || to == std::string::npos ? std::string() : json.substr(from, to - from);
}

TEST(Check, VerdictsAreDeterministicWhateverTheThreadCount) {
  std::string samples = std::string(GSHAPE_SOURCE_DIR) + "/samples";
  ProcessResult one = run_process("/usr/bin/env", {"GSHAPE_THREADS=1", GSHAPE_BINARY, "check", "--format=json", samples});
  ProcessResult again = run_process("/usr/bin/env", {"GSHAPE_THREADS=1", GSHAPE_BINARY, "check", "--format=json", samples});
  ProcessResult two = run_process("/usr/bin/env", {"GSHAPE_THREADS=2", GSHAPE_BINARY, "check", "--format=json", samples});
  std::string a = verdicts_of(one.out);
  ASSERT_GT(a.size(), 1000u) << one.out.substr(0, 500);
  EXPECT_EQ(a, verdicts_of(again.out));
  EXPECT_EQ(a, verdicts_of(two.out));
}

// A deferred obligation is one the analysis could not decide: its condition
// is never a constant (a constant-true one would be a check that cannot fail,
// issue 8 item 1), and it comes with values that would fail it.
TEST(Check, NoDeferredObligationOfTheSamplesIsConstant) {
  std::string samples = std::string(GSHAPE_SOURCE_DIR) + "/samples";
  ProcessResult r = gshape({"report", "--format=json", samples});
  std::string error;
  std::optional<Json> doc = parse_json_text(r.out, error);
  ASSERT_TRUE(doc) << error;
  int deferred = 0;
  for (const Json& o : (*doc)["obligations"].array) {
    if (o["status"].string != "deferred") continue;
    ++deferred;
    EXPECT_NE(o["static_constraint"].string, "True") << o["path"].string << ":" << o["line"].number << " " << o["tag"].string;
    // a warning fails in the context the analysis warns about (the last batch)
    if (o["outcome"].string != "warning") {
      EXPECT_NE(o["static_constraint"].string, "False") << o["path"].string << ":" << o["line"].number;
    }
  }
  EXPECT_GT(deferred, 20);
}

}  // namespace
}  // namespace gshape::testing

namespace gshape::testing {
namespace {

// help: lines in every form: text after the notes, JSON notes of kind
// "help" with their id, SARIF and GitHub messages (docs/diagnostics.md).
TEST(CheckHelp, HelpLinesInTextJsonSarifAndGithub) {
  TempDir dir;
  dir.write("keep.py",
            "import torch\n"
            "x = torch.randn(4, 8, 16)\n"
            "m = x.mean(dim=1)\n"
            "y = x - m\n");
  ProcessResult t = gshape({"check", dir.str()});
  EXPECT_EQ(t.exit_code, 1) << t.err;
  std::size_t error = t.err.find("keep.py:4:5: error:");
  std::size_t note = t.err.find("note: m has shape [4, 16] from here");
  std::size_t help = t.err.find(
      "\nhelp: `m` ([4, 16]) lost axis 1 in the reduction at line 3: with keepdim=True there it is [4, 1, 16] and "
      "broadcasts against [4, 8, 16]\n");
  ASSERT_NE(error, std::string::npos) << t.err;
  ASSERT_NE(help, std::string::npos) << t.err;
  EXPECT_LT(error, note);
  EXPECT_LT(note, help) << "help lines follow the notes";

  ProcessResult j = gshape({"check", "--format=json", dir.str()});
  std::string problem;
  std::optional<Json> doc = parse_json_text(j.out, problem);
  ASSERT_TRUE(doc) << problem;
  const Json& diags = (*doc)["diagnostics"];
  ASSERT_EQ(diags.array.size(), 1u);
  int helps = 0;
  for (const Json& n : diags.array[0]["notes"].array) {
    ASSERT_TRUE(n.has("kind"));
    if (n["kind"].string != "help") {
      EXPECT_EQ(n["kind"].string, "note");
      continue;
    }
    ++helps;
    EXPECT_EQ(n["id"].string, "keepdim");
    EXPECT_EQ(n["line"].type, Json::Type::Null);
    EXPECT_NE(n["message"].string.find("keepdim=True"), std::string::npos);
  }
  EXPECT_EQ(helps, 1);

  ProcessResult s = gshape({"check", "--format=sarif", dir.str()});
  EXPECT_NE(s.out.find("\\nhelp: `m` ([4, 16]) lost axis 1"), std::string::npos) << s.out;
  ProcessResult g = gshape({"check", "--format=github", dir.str()});
  EXPECT_NE(g.out.find("%0Ahelp: `m` ([4, 16]) lost axis 1"), std::string::npos) << g.out;
}

// The same error without the cause: no help line in any form.
TEST(CheckHelp, NoHelpWhenTheFixWouldNotFit) {
  TempDir dir;
  dir.write("near.py",
            "import torch\n"
            "x = torch.randn(4, 8, 16)\n"
            "m = x.mean(dim=1)\n"
            "y = torch.randn(3, 8, 16) - m\n");
  ProcessResult t = gshape({"check", dir.str()});
  EXPECT_EQ(t.exit_code, 1) << t.err;
  EXPECT_NE(t.err.find("[broadcast_c1]"), std::string::npos) << t.err;
  EXPECT_EQ(t.err.find("help:"), std::string::npos) << t.err;
  ProcessResult j = gshape({"check", "--format=json", dir.str()});
  EXPECT_EQ(j.out.find("\"kind\":\"help\""), std::string::npos) << j.out;
}

// try/except: a handler that catches PyTorch's RuntimeError makes the error a
// warning with a note at the handler; one that does not (ValueError), or an
// op inside a function the try body calls, stays an error.
TEST(CheckTry, OnlyAHandlerOfTheRuntimeErrorAroundTheCallMakesAWarning) {
  TempDir dir;
  dir.write("handled.py",
            "import torch\n"
            "try:\n"
            "    torch.randn(2, 3).view(7)\n"
            "except RuntimeError:\n"
            "    pass\n");
  ProcessResult h = gshape({"check", dir / "handled.py"});
  EXPECT_EQ(h.exit_code, 0) << h.err;
  EXPECT_NE(h.err.find("handled.py:3:5: warning: shape [7] is invalid for input of size 6 [view_c5]"), std::string::npos)
      << h.err;
  EXPECT_NE(h.err.find("handled.py:4:1: note: this fails whenever it runs, but the RuntimeError is caught here "
                       "(except RuntimeError)"),
            std::string::npos)
      << h.err;

  dir.write("value_error.py",
            "import torch\n"
            "try:\n"
            "    torch.randn(2, 3).view(7)\n"
            "except ValueError:\n"
            "    pass\n");
  ProcessResult v = gshape({"check", dir / "value_error.py"});
  EXPECT_EQ(v.exit_code, 1) << v.err;
  EXPECT_NE(v.err.find("value_error.py:3:5: error:"), std::string::npos) << v.err;
  EXPECT_EQ(v.err.find("is caught here"), std::string::npos) << v.err;

  dir.write("callee.py",
            "import torch\n"
            "def f(x):\n"
            "    return x.view(7)\n"
            "try:\n"
            "    f(torch.randn(2, 3))\n"
            "except RuntimeError:\n"
            "    pass\n");
  // the failure propagates out of f to the handler: a warning for this call
  // (a call of f outside any try would be an error: Calls tests)
  ProcessResult c = gshape({"check", dir / "callee.py"});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.err.find("callee.py:3:12: warning:"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("is caught here"), std::string::npos) << c.err;

  dir.write("after.py",
            "import torch\n"
            "try:\n"
            "    pass\n"
            "except RuntimeError:\n"
            "    torch.randn(2, 3).view(7)\n");
  // the handler's own body is not guarded by its try, but it runs only when
  // the try body raised (here never): a warning that says so, not an error
  ProcessResult a = gshape({"check", dir / "after.py"});
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.err.find("after.py:5:5: warning:"), std::string::npos) << a.err;
  EXPECT_NE(a.err.find("it runs only when the try body above raised"), std::string::npos) << a.err;
  EXPECT_EQ(a.err.find("is caught here"), std::string::npos) << a.err;
}

}  // namespace
}  // namespace gshape::testing

namespace gshape::testing {
namespace {

// loss_broadcast_c1 is advice: a warning (exit 0), no obligation, silenced
// by its tag like any diagnostic; PyTorch runs the call.
TEST(CheckAdvice, LossBroadcastIsAWarningOnlyAndCanBeSilenced) {
  TempDir dir;
  dir.write("loss.py",
            "import torch\n"
            "import torch.nn.functional as F\n"
            "p = torch.randn(8, 1)\n"
            "t = torch.randn(8)\n"
            "l = F.mse_loss(p, t)\n");
  ProcessResult r = gshape({"check", dir / "loss.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("loss.py:5:5: warning: mse_loss: the input of shape [8, 1] and the target of shape [8] broadcast "
                       "to [8, 8], larger than the input"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("checked 1 file: 0 errors, 1 warning"), std::string::npos) << r.err;
  ProcessResult j = gshape({"check", "--format=json", dir / "loss.py"});
  EXPECT_EQ(j.out.find("\"tag\":\"loss_broadcast_c1\",\"constraint\""), std::string::npos)
      << "advice is no obligation: " << j.out;

  dir.write("quiet.py",
            "import torch\n"
            "import torch.nn.functional as F\n"
            "l = F.mse_loss(torch.randn(8, 1), torch.randn(8))  # gshape: ignore[loss_broadcast_c1]\n");
  ProcessResult q = gshape({"check", dir / "quiet.py"});
  EXPECT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.err.find("warning:"), std::string::npos) << q.err;
}

// loss_broadcast_c2: the same mistake written by hand, an element-wise op
// of [N, 1] and [N] whose [N, N] result feeds a mean: a warning at the op,
// a note at the mean and a help line; no warning without the mean.
TEST(CheckAdvice, AnElementWiseOpWhoseLargerResultFeedsAMeanWarnsAtTheOp) {
  TempDir dir;
  dir.write("loss.py",
            "import torch\n"
            "p = torch.randn(8, 1)\n"
            "t = torch.randn(8)\n"
            "d = p - t\n"
            "loss = (d ** 2).mean()\n");
  ProcessResult r = gshape({"check", "--color=never", dir / "loss.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("loss.py:4:5: warning: `p - t`: `p` of shape [8, 1] and `t` of shape [8] broadcast to [8, 8], "
                       "larger than both, and the result feeds the mean at line 5: every element of one is paired "
                       "with every element of the other [loss_broadcast_c2]"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("loss.py:5:8: note: the [8, 8] result is reduced here"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("help: `p.squeeze(1)` has shape [8], as `t` (or `t.unsqueeze(1)` has shape [8, 1], as `p`)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("checked 1 file: 0 errors, 1 warning"), std::string::npos) << r.err;
  ProcessResult j = gshape({"check", "--format=json", dir / "loss.py"});
  EXPECT_NE(j.out.find("\"tag\":\"loss_broadcast_c2\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"kind\":\"help\",\"id\":\"squeeze\""), std::string::npos) << j.out;

  dir.write("table.py",
            "import torch\n"
            "p = torch.randn(8, 1)\n"
            "t = torch.randn(8)\n"
            "d = p - t\n"
            "print(d.shape)\n");
  ProcessResult quiet = gshape({"check", dir / "table.py"});
  EXPECT_EQ(quiet.err.find("warning:"), std::string::npos) << "no loss, no warning: " << quiet.err;
}

}  // namespace
}  // namespace gshape::testing
