// `gshape check SCRIPT -- ARGS`: argparse's reading of a command line
// (options, prefixes, flags, nargs, positionals, choices, errors), and shape
// errors reported with the argument that causes them.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string read_file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
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

const char* kCommands =
    "import argparse\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "def fit(args):\n"
    "    nn.Linear(args.features, 4)(torch.randn(2, 10))\n"
    "def show(args):\n"
    "    torch.randn(args.rows, 3).view(-1, args.cols)\n"
    "p = argparse.ArgumentParser()\n"
    "p.add_argument('--verbose', action='count', default=0)\n"
    "sub = p.add_subparsers(dest='command', required=True)\n"
    "f = sub.add_parser('fit', aliases=['train'])\n"
    "f.add_argument('--features', type=int, required=True)\n"
    "f.set_defaults(func=fit)\n"
    "s = sub.add_parser('show')\n"
    "s.add_argument('rows', type=int)\n"
    "s.add_argument('--cols', type=int, default=3)\n"
    "s.set_defaults(func=show)\n"
    "args = p.parse_args()\n"
    "args.func(args)\n";

TEST(LaunchSubcommands, TheSubcommandsParserReadsTheRestAndItsFunctionRuns) {
  TempDir dir;
  std::string script = dir.write("cli.py", kCommands);
  auto check = [&](std::vector<std::string> words) {
    std::vector<std::string> args{"check", "--color=never", script, "--"};
    args.insert(args.end(), words.begin(), words.end());
    return gshape(args);
  };
  EXPECT_EQ(check({"fit", "--features", "10"}).exit_code, 0);
  EXPECT_EQ(check({"--verb", "train", "--features=10"}).exit_code, 0) << "an alias, a parent option before it";
  ProcessResult bad = check({"fit", "--features", "12"});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_TRUE(contains(bad.err, "nn.Linear(12, 4) expects in_features 12")) << bad.err;
  EXPECT_TRUE(contains(bad.err, "note: from the command line: --features 12")) << bad.err;
  EXPECT_EQ(check({"show", "4"}).exit_code, 0);
  ProcessResult view = check({"show", "5", "--cols", "4"});
  EXPECT_EQ(view.exit_code, 1) << view.err;
  EXPECT_TRUE(contains(view.err, "[view_c")) << view.err;
  // argparse's errors: a missing sub-command or required option, an unknown
  // sub-command, words the sub-parser does not know
  EXPECT_TRUE(contains(check({}).err, "argparse rejects this command line: the following arguments are required: command"));
  EXPECT_TRUE(contains(check({"fit"}).err, "the following arguments are required: --features"));
  EXPECT_TRUE(contains(check({"show"}).err, "the following arguments are required: rows"));
  EXPECT_TRUE(contains(check({"plot"}).err,
                       "argument command: invalid choice: 'plot' (choose from 'fit', 'train', 'show')"));
  EXPECT_TRUE(contains(check({"show", "4", "--rows", "3"}).err, "unrecognized arguments: --rows 3"));
}

TEST(LaunchSubcommands, WithoutALaunchTheSubcommandIsUnknownNotAnError) {
  TempDir dir;
  std::string script = dir.write("cli.py", kCommands);
  ProcessResult r = gshape({"check", "--color=never", script});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(LaunchFromFile, AnArgumentsFileMakesTheParsersValuesUnknown) {
  // tester9/22: `@big.args` with parse_known_args was left over, the
  // defaults were taken, and the matmul proven for --hidden 3
  TempDir dir;
  dir.write("big.args", "--hidden=5\n");
  std::string script = dir.write("main.py",
                                 "import argparse\n"
                                 "import torch\n"
                                 "p = argparse.ArgumentParser(fromfile_prefix_chars='@')\n"
                                 "p.add_argument('--hidden', type=int, default=3)\n"
                                 "args, rest = p.parse_known_args()\n"
                                 "y = torch.ones(4, args.hidden) @ torch.ones(3, 2)\n");
  std::string file_word = "@";
  file_word += (dir.path() / "big.args").string();
  ProcessResult r = gshape({"check", "--color=never", "--emit=obligations", script, "--", file_word});
  EXPECT_TRUE(contains(r.out, "deferred matmul_c2")) << r.out << r.err;
  ProcessResult plain = gshape({"check", "--color=never", "--emit=obligations", script, "--", "--hidden", "3"});
  EXPECT_TRUE(contains(plain.out, "proven matmul_c2")) << plain.out << plain.err;
}

TEST(LaunchRequired, AMissingRequiredOptionIsArgparsesError) {
  TempDir dir;
  std::string script = dir.write("req.py",
                                 "import argparse\n"
                                 "p = argparse.ArgumentParser()\n"
                                 "p.add_argument('--a', type=int, required=True)\n"
                                 "p.add_argument('--b', required=True)\n"
                                 "p.add_argument('--c', type=int, default=1)\n"
                                 "args = p.parse_args()\n");
  ProcessResult r = gshape({"check", "--color=never", script, "--", "--c", "2"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "argparse rejects this command line: the following arguments are required: --a, --b"))
      << r.err;
  EXPECT_EQ(gshape({"check", "--color=never", script, "--", "--a", "1", "--b", "x"}).exit_code, 0);
}

TEST(LaunchYaml, AYamlConfigTheCommandLineNamesIsRead) {
  TempDir dir;
  std::string script = dir.write("train.py",
                                 "import argparse\n"
                                 "import torch\n"
                                 "import torch.nn as nn\n"
                                 "import yaml\n"
                                 "p = argparse.ArgumentParser()\n"
                                 "p.add_argument('--config', default='a.yaml')\n"
                                 "args = p.parse_args()\n"
                                 "cfg = yaml.safe_load(open(args.config))\n"
                                 "m = cfg['model']\n"
                                 "nn.Linear(m['inputs'], 4)(torch.randn(2, 10))\n");
  dir.write("good.yaml", "model:\n  inputs: 10  # features\n  act: relu\n");
  dir.write("bad.yaml", "model: {inputs: 12, act: relu}\n");
  dir.write("string.yaml", "model:\n  inputs: '12'\n");
  auto check = [&](const std::string& config) {
    return gshape({"check", "--color=never", "train.py", "--", "--config", config}, dir.str());
  };
  EXPECT_EQ(check("good.yaml").exit_code, 0) << check("good.yaml").err;
  ProcessResult bad = check("bad.yaml");
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_TRUE(contains(bad.err, "nn.Linear(12, 4) expects in_features 12")) << bad.err;
  EXPECT_TRUE(contains(bad.err, "note: from bad.yaml: \"model.inputs\": 12")) << bad.err;
  EXPECT_FALSE(contains(check("string.yaml").err, "expects in_features")) << "a quoted '12' is a string, no int";
  EXPECT_EQ(check("missing.yaml").exit_code, 0) << "a file that cannot be read leaves the value unknown";
}

TEST(LaunchJson, AConfigTheProgramMayRewriteIsNotRead) {
  // an outside tester's false proof: the script writes the config from its
  // arguments before reading it back; the file's old value was taken
  TempDir dir;
  dir.write("train.py",
            "import argparse, json\n"
            "import torch\n"
            "import torch.nn as nn\n"
            "p = argparse.ArgumentParser()\n"
            "p.add_argument('--config', default='cfg.json')\n"
            "p.add_argument('--width', type=int, default=6)\n"
            "args = p.parse_args()\n"
            "with open(args.config, 'w') as f:\n"
            "    json.dump({'width': args.width}, f)\n"
            "cfg = json.load(open(args.config))\n"
            "nn.Linear(12, 2)(torch.randn(3, cfg['width']))\n");
  dir.write("cfg.json", "{\"width\": 12}\n");
  ProcessResult r = gshape({"check", "--no-cache", "--format=json", "train.py", "--", "--width", "6"}, dir.str());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // linear_c1 (in_features 12 against the width read) is left to run time
  EXPECT_TRUE(contains(r.out, "\"deferred\"")) << r.out;
  EXPECT_FALSE(contains(r.out, "cfg.json")) << r.out;
}

// `gshape report --args=symbolic SCRIPT`: the preconditions at the top of
// the review, in text, JSON and the HTML page.
const char* kHeadsScript =
    "import argparse\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "p = argparse.ArgumentParser()\n"
    "p.add_argument('--hidden', type=int, default=64)\n"
    "p.add_argument('--heads', type=int, default=4)\n"
    "args = p.parse_args()\n"
    "attn = nn.MultiheadAttention(args.hidden, args.heads, batch_first=True)\n"
    "x = torch.randn(2, 5, args.hidden)\n"
    "out, _ = attn(x, x, x)\n";

TEST(SymbolicReport, TheReviewStartsWithThePreconditions) {
  TempDir dir;
  std::string script = dir.write("heads.py", kHeadsScript);
  ProcessResult text = gshape({"report", "--args=symbolic", "--color=never", script});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("arguments as symbols: --hidden, --heads\n", 0), 0u) << text.out;
  std::size_t pre = text.out.find("requires hidden % heads == 0");
  std::size_t deferred = text.out.find("deferred (");
  ASSERT_NE(pre, std::string::npos) << text.out;
  ASSERT_NE(deferred, std::string::npos) << text.out;
  EXPECT_LT(pre, deferred) << "the preconditions come first";
  // the same lines as check prints
  ProcessResult check = gshape({"check", "--args=symbolic", script});
  EXPECT_EQ(text.out.rfind(check.out, 0), 0u) << text.out << "\n---\n" << check.out;

  Json doc = gshape_json({"report", "--args=symbolic", "--format=json", script});
  ASSERT_EQ(doc["symbolic_arguments"].type, Json::Type::Array);
  EXPECT_EQ(doc["symbolic_arguments"].array.size(), 2u);
  ASSERT_EQ(doc["preconditions"].type, Json::Type::Array);
  bool found = false;
  for (const Json& p : doc["preconditions"].array) {
    if (p["condition"].string != "hidden % heads == 0") continue;
    found = true;
    EXPECT_EQ(p["tag"].string, "nn_mha_c1");
    EXPECT_EQ(p["line"].number, 8);
    EXPECT_FALSE(p["counterexample"].string.empty());
  }
  EXPECT_TRUE(found) << "no hidden % heads == 0 in the JSON";
  Json plain = gshape_json({"report", "--format=json", script});
  EXPECT_EQ(plain["preconditions"].type, Json::Type::Null) << "without --args=symbolic";

  std::string page = dir / "review.html";
  ProcessResult html = gshape({"report", "--args=symbolic", "--html", page, script});
  EXPECT_EQ(html.exit_code, 0) << html.err;
  std::string body = read_file_text(page);
  std::size_t section = body.find("<section id=\"preconditions\">");
  ASSERT_NE(section, std::string::npos) << body;
  EXPECT_NE(body.find("<code>--hidden</code>", section), std::string::npos);
  std::size_t condition = body.find("<code class=\"condition\">hidden % heads == 0</code>", section);
  EXPECT_NE(condition, std::string::npos) << body.substr(section, 2000);
  EXPECT_NE(body.find("fails for <code class=\"counterexample\">--hidden", section), std::string::npos);
  std::size_t header_end = body.find("</header>");
  EXPECT_LT(condition, header_end) << "in the page's header, above the files";
  std::string plain_page = dir / "plain.html";
  EXPECT_EQ(gshape({"report", "--html", plain_page, script}).exit_code, 0);
  EXPECT_EQ(read_file_text(plain_page).find("id=\"preconditions\""), std::string::npos);
}

TEST(SymbolicReport, UsageErrors) {
  TempDir dir;
  std::string a = dir.write("a.py", "x = 1\n");
  std::string b = dir.write("b.py", "y = 1\n");
  EXPECT_EQ(gshape({"report", "--args=symbolic", a, b}).exit_code, 2);
  EXPECT_EQ(gshape({"report", "--args=concrete", a}).exit_code, 2);
  ProcessResult none = gshape({"report", "--args=symbolic", a});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out.rfind("no int argument of an argparse parser", 0), 0u) << none.out;
}

TEST(SymbolicSubcommands, EachSubcommandsIntArgumentsAreSymbolsAndItsPreconditionsNameIt) {
  TempDir dir;
  std::string script = dir.write("cli.py", kCommands);
  Json doc = gshape_json({"check", "--format=json", "--args=symbolic", script});
  bool features = false, view = false;
  for (const Json& p : doc["preconditions"].array) {
    if (p["condition"].string == "features == 10") {
      features = true;
      EXPECT_EQ(p["command"].string, "fit");
      EXPECT_EQ(p["counterexample"].string.rfind("fit --features ", 0), 0u) << p["counterexample"].string;
    }
    if (p["tag"].string.rfind("view_c", 0) == 0) {
      view = true;
      EXPECT_EQ(p["command"].string, "show");
      EXPECT_EQ(p["counterexample"].string.rfind("show ", 0), 0u) << "the positional rows is required";
    }
  }
  EXPECT_TRUE(features) << "fit's Linear requires features == 10";
  EXPECT_TRUE(view) << "show's view states a precondition on rows and cols";
  ProcessResult text = gshape({"check", "--args=symbolic", script});
  EXPECT_TRUE(contains(text.out, "arguments as symbols: fit --features, show rows, show --cols"))
      << text.out;
  EXPECT_TRUE(contains(text.out, "  with fit: requires features == 10\n")) << text.out;
  EXPECT_TRUE(contains(text.out, "      fails for: fit --features ")) << text.out;
}

TEST(SymbolicSubcommands, ARequirementOfOneSubcommandsBranchIsNotStatedForAll) {
  // the layer runs only for `a`: `b --dim 3 --k 5` runs it not, so what it
  // requires is stated for `a` alone (never for every command line)
  TempDir dir;
  std::string script = dir.write("branch.py",
                                 "import argparse\n"
                                 "import torch\n"
                                 "import torch.nn as nn\n"
                                 "p = argparse.ArgumentParser()\n"
                                 "p.add_argument('--dim', type=int, default=8)\n"
                                 "sub = p.add_subparsers(dest='cmd')\n"
                                 "a = sub.add_parser('a')\n"
                                 "a.add_argument('--k', type=int, default=8)\n"
                                 "b = sub.add_parser('b')\n"
                                 "args = p.parse_args()\n"
                                 "if args.cmd == 'a':\n"
                                 "    nn.Linear(args.dim, 4)(torch.randn(2, args.k))\n"
                                 "torch.zeros(args.dim)\n");
  Json doc = gshape_json({"check", "--format=json", "--args=symbolic", script});
  bool linear = false, zeros = false;
  for (const Json& p : doc["preconditions"].array) {
    if (p["line"].number == 12) {
      EXPECT_EQ(p["command"].string, "a") << p["condition"].string << " is a's alone";
      linear = linear || p["condition"].string == "dim == k";
    }
    if (p["line"].number == 13 && p["command"].string == "b") {
      zeros = true;  // for `a`, what line 12 requires implies it
      EXPECT_EQ(p["condition"].string, "0 <= dim");
    }
  }
  EXPECT_TRUE(linear);
  EXPECT_TRUE(zeros);
}

TEST(SymbolicConfig, TheConfigOfADefaultPathIsReadAndAnUnreadableOneStatesNothingOnIt) {
  TempDir dir;
  const char* script =
      "import argparse, json\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "p = argparse.ArgumentParser()\n"
      "p.add_argument('--config', default='model.json')\n"
      "p.add_argument('--heads', type=int, default=4)\n"
      "args = p.parse_args()\n"
      "cfg = json.load(open(args.config))\n"
      "attn = nn.MultiheadAttention(cfg['width'], args.heads)\n";
  dir.write("train.py", script);
  dir.write("model.json", "{\"width\": 48}\n");
  ProcessResult read = gshape({"check", "--args=symbolic", "train.py"}, dir.str());
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_TRUE(contains(read.out, "config values from: model.json")) << read.out;
  EXPECT_TRUE(contains(read.out, "requires 48 % heads == 0")) << read.out;
  // no file at the default path: the width is unknown, so nothing is said of it
  dir.write("other.py", std::string(script).replace(std::string(script).find("model.json"), 10, "gone.json"));
  ProcessResult unread = gshape({"check", "--args=symbolic", "other.py"}, dir.str());
  EXPECT_EQ(unread.exit_code, 0) << unread.err;
  EXPECT_FALSE(contains(unread.out, "config values from")) << unread.out;
  EXPECT_FALSE(contains(unread.out, "%")) << "a width nobody knows states no divisibility: " << unread.out;
}

// ArgumentParser(parents=[...]) and mutually exclusive groups, read as argparse reads them.
const char* kShared =
    "import argparse\n"
    "import torch.nn as nn\n"
    "common = argparse.ArgumentParser(add_help=False)\n"
    "common.add_argument('--width', type=int, default=64)\n"
    "p = argparse.ArgumentParser(parents=[common])\n"
    "g = p.add_mutually_exclusive_group()\n"
    "g.add_argument('--heads', type=int, default=4)\n"
    "g.add_argument('--single', action='store_true')\n"
    "need = p.add_mutually_exclusive_group(required=True)\n"
    "need.add_argument('--train', action='store_true')\n"
    "need.add_argument('--eval', action='store_true')\n"
    "args = p.parse_args()\n"
    "nn.MultiheadAttention(args.width, 1 if args.single else args.heads)\n";

TEST(LaunchGroups, ParentsArgumentsAndExclusiveGroupsAreArgparses) {
  TempDir dir;
  std::string script = dir.write("shared.py", kShared);
  auto check = [&](std::vector<std::string> words) {
    std::vector<std::string> args{"check", "--color=never", script, "--"};
    args.insert(args.end(), words.begin(), words.end());
    return gshape(args);
  };
  ProcessResult ok = check({"--train", "--width", "96", "--heads", "8"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  ProcessResult bad = check({"--eval", "--width", "96", "--heads", "7"});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_TRUE(contains(bad.err, "note: from the command line: --width 96")) << "the parent's option: " << bad.err;
  EXPECT_TRUE(contains(bad.err, "note: from the command line: --heads 7")) << "the group's option: " << bad.err;
  EXPECT_EQ(check({"--train", "--width", "90", "--single"}).exit_code, 0);
  EXPECT_TRUE(contains(check({"--train", "--heads", "8", "--single"}).err,
                       "argparse rejects this command line: argument --single: not allowed with argument --heads"));
  EXPECT_TRUE(contains(check({"--eval", "--train"}).err, "argument --train: not allowed with argument --eval"));
  EXPECT_TRUE(contains(check({"--width", "64"}).err, "one of the arguments --train --eval is required"));
  // a value equal to the default may pass argparse's identity test: no conflict claimed
  EXPECT_FALSE(contains(check({"--train", "--heads", "4", "--single"}).err, "not allowed"));
  // without a launch: the parent's and the group's ints are symbols
  ProcessResult symbolic = gshape({"check", "--args=symbolic", script});
  EXPECT_TRUE(contains(symbolic.out, "arguments as symbols: --width, --heads")) << symbolic.out;
  EXPECT_TRUE(contains(symbolic.out, "requires width % heads == 0")) << symbolic.out;
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
