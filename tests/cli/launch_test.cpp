// `gshape check SCRIPT -- ARGS`: argparse's reading of a command line
// (options, prefixes, flags, nargs, positionals, choices, errors), and shape
// errors reported with the argument that causes them.
#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

const char* kScript =
    "import argparse\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "p = argparse.ArgumentParser()\n"
    "p.add_argument('features', type=int)\n"
    "p.add_argument('--hidden', '-H', type=int, default=32)\n"
    "p.add_argument('--layers', type=int, nargs='+', default=[8])\n"
    "p.add_argument('--act', choices=['relu', 'tanh'], default='relu')\n"
    "p.add_argument('--wide', action='store_true')\n"
    "args = p.parse_args()\n"
    "width = args.hidden * 2 if args.wide else args.hidden\n"
    "net = nn.Linear(args.features, width)\n"
    "x = torch.randn(4, 10)\n"
    "y = net(x)\n"
    "z = nn.Linear(args.layers[0], 3)(torch.randn(2, 8))\n";

class Launch : public ::testing::Test {
 protected:
  ProcessResult check(const std::vector<std::string>& words) {
    std::vector<std::string> args{"check", "--color=never", script_, "--"};
    args.insert(args.end(), words.begin(), words.end());
    return gshape(args);
  }
  TempDir dir_;
  std::string script_ = dir_.write("train.py", kScript);
};

TEST_F(Launch, AGoodCommandLineHasNoError) {
  ProcessResult r = check({"10", "--hid=64", "--layers", "8", "9", "--act", "tanh", "--wide"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(Launch, AShapeErrorNamesTheArgumentAndPrintsValues) {
  ProcessResult r = check({"12", "-H", "5"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "nn.Linear(12, 5) expects in_features 12 but the input's last dimension is 10 [linear_c1]"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "note: from the command line: 12")) << r.err;
}

TEST_F(Launch, CommandLinesArgparseRejectsAreErrors) {
  EXPECT_TRUE(contains(check({}).err, "argparse rejects this command line: the following arguments are required: features"));
  EXPECT_TRUE(contains(check({"10", "--hidden", "x"}).err, "argument --hidden/-H: invalid int value: 'x'"));
  EXPECT_TRUE(contains(check({"10", "--act", "gelu"}).err,
                       "argument --act: invalid choice: 'gelu' (choose from 'relu', 'tanh')"));
  EXPECT_TRUE(contains(check({"10", "--nope"}).err, "unrecognized arguments: --nope"));
  EXPECT_TRUE(contains(check({"10", "--layers"}).err, "argument --layers: expected at least one argument"));
}

TEST_F(Launch, DefaultsThatCauseAnErrorAreNamedAsDefaults) {
  ProcessResult r = check({"10", "--layers", "7"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "nn.Linear(7, 3) expects in_features 7")) << r.err;
}

TEST(LaunchUsage, OnlyOneScript) {
  TempDir dir;
  std::string a = dir.write("a.py", "x = 1\n");
  std::string b = dir.write("b.py", "y = 1\n");
  ProcessResult r = gshape({"check", a, b, "--", "--x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "takes exactly one SCRIPT")) << r.err;
}

}  // namespace
}  // namespace gshape::testing
