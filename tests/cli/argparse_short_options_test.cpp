// A launch's command line with short options as argparse reads them, and
// one argparse would reject (docs/hyperparameters.md).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* kScript =
    "import argparse, torch, torch.nn as nn\n"
    "p = argparse.ArgumentParser()\n"
    "p.add_argument('-d', '--dim', type=int, default=8)\n"
    "p.add_argument('-q', action='store_true')\n"
    "a = p.parse_args()\n"
    "lin = nn.Linear(8, 2)\n"
    "print(lin(torch.randn(3, a.dim)).shape)\n";

TEST(ArgparseShortOptions, AnAttachedValueAndAClusterAreRead) {
  // `-d6` was "unrecognized arguments" and the launch analysed with dim 8 (an outside tester's)
  TempDir dir;
  dir.write("m.py", kScript);
  for (const char* words : {"-d6", "-qd6"}) {
    ProcessResult r = gshape({"check", "--no-cache", dir / "m.py", "--", words});
    EXPECT_EQ(r.exit_code, 1) << words << r.err;
    EXPECT_TRUE(contains(r.err, "expects in_features 8 but the input's last dimension is 6")) << words << r.err;
    EXPECT_FALSE(contains(r.err, "unrecognized")) << words << r.err;
  }
  ProcessResult ok = gshape({"check", "--no-cache", dir / "m.py", "--", "-qd8"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST(ArgparseShortOptions, ARejectedCommandLineLeavesTheValuesUnknown) {
  // the defaults would prove what the real run may break: checked at run time instead
  TempDir dir;
  dir.write("m.py", kScript);
  ProcessResult r = gshape({"check", "--no-cache", dir / "m.py", "--", "--bogus", "6"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "unrecognized arguments: --bogus 6")) << r.err;
  EXPECT_TRUE(contains(r.err, "0 refuted, 2 deferred")) << r.err;  // randn_c1 and linear_c1
}

TEST(ArgparseShortOptions, AScriptThatEditsSysArgvIsParsedToUnknownValues) {
  // `sys.argv += ['-d', '6']` before parse_args: neither the launch nor the
  // defaults are what argparse reads (an outside tester's false proof)
  TempDir dir;
  std::string script = kScript;
  script.insert(script.find("a = p.parse_args()"), "import sys\nsys.argv += ['-d', '6']\n");
  dir.write("m.py", script);
  for (bool launch : {false, true}) {
    std::vector<std::string> args = {"check", "--no-cache", dir / "m.py"};
    if (launch) args.insert(args.end(), {"--", "-d", "8"});
    ProcessResult r = gshape(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err, "0 refuted, 2 deferred")) << r.err;  // randn_c1 and linear_c1
  }
}

}  // namespace
}  // namespace gshape::testing
