// The command line itself: version, help, usage errors and their exit codes.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "gshape_version.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

const std::vector<std::string> kSubcommands = {"check", "instrument", "run", "report", "dump-ir", "dump-imports"};

TEST(Usage, VersionPrintsTheProjectVersion) {
  ProcessResult r = gshape({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string("gshape ") + GSHAPE_VERSION + "\n");
  EXPECT_EQ(r.err, "");
}

TEST(Usage, GeneralHelpListsEverySubcommand) {
  for (const char* form : {"--help", "-h", "help"}) {
    ProcessResult r = gshape({form});
    EXPECT_EQ(r.exit_code, 0) << form;
    EXPECT_NE(r.out.find("usage: gshape"), std::string::npos) << form;
    for (const std::string& sub : kSubcommands) {
      EXPECT_NE(r.out.find("\n  " + sub + " "), std::string::npos) << form << " does not list " << sub;
    }
  }
}

TEST(Usage, EverySubcommandHasHelpWithUsageOptionsAndExample) {
  for (const std::string& sub : kSubcommands) {
    ProcessResult r = gshape({sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_EQ(r.out.rfind("usage: gshape " + sub, 0), 0u) << sub << ":\n" << r.out;
    EXPECT_NE(r.out.find("options:"), std::string::npos) << sub;
    EXPECT_NE(r.out.find("example:\n  gshape " + sub + " "), std::string::npos) << sub;
    // `gshape help SUB` and `gshape SUB -h` print the same text.
    EXPECT_EQ(gshape({"help", sub}).out, r.out) << sub;
    EXPECT_EQ(gshape({sub, "-h"}).out, r.out) << sub;
  }
}

// The options of the review, configuration and output formats are in their commands' help.
TEST(Usage, HelpDocumentsTheReviewConfigAndFormatOptions) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> expected = {
      {"check", {"--format=text|json|sarif|github", "--exclude GLOB", "--config FILE", "--warn-unused-ignores",
                 "# gshape: ignore"}},
      {"report", {"--all", "--verbose", "--status=", "--tag=", "--file=", "--config FILE", "--exclude GLOB",
                  "--warn-unused-ignores", "--html FILE"}},
      {"instrument", {"--config FILE", "--warn-unused-ignores", "gshape-report.html"}},
      {"run", {"--config FILE", "configuration's python"}},
  };
  for (const auto& [sub, options] : expected) {
    std::string help = gshape({sub, "--help"}).out;
    for (const std::string& o : options) EXPECT_NE(help.find(o), std::string::npos) << sub << " --help lacks " << o;
  }
}

// .pre-commit-hooks.yaml: the gshape-check hook runs `gshape check` with options that exist.
TEST(Usage, PreCommitHookRunsCheck) {
  std::ifstream in(std::string(GSHAPE_SOURCE_DIR) + "/.pre-commit-hooks.yaml");
  std::stringstream text;
  text << in.rdbuf();
  const std::string hooks = text.str();
  for (const char* line : {"- id: gshape-check\n", "  entry: gshape check --color=never\n", "  language: system\n",
                           "  types: [python]\n", "  pass_filenames: false\n", "  args: [.]\n"}) {
    EXPECT_NE(hooks.find(line), std::string::npos) << "missing: " << line << "\n" << hooks;
  }
  TempDir dir;
  dir.write("ok.py", "x = 1\n");
  EXPECT_EQ(gshape({"check", "--color=never", "."}, dir.str()).exit_code, 0);
}

TEST(Usage, NoArgumentsIsAUsageError) {
  ProcessResult r = gshape({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("usage: gshape"), std::string::npos);
}

TEST(Usage, UnknownSubcommandExits2AndPointsToHelp) {
  ProcessResult r = gshape({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown subcommand 'frobnicate'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gshape --help"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(Usage, MisspelledSubcommandGetsASuggestion) {
  ProcessResult r = gshape({"chek", "x.py"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean 'check'?"), std::string::npos) << r.err;
}

TEST(Usage, UnknownOptionIsNamedAndPointsToTheSubcommandsHelp) {
  TempDir dir;
  dir.write("a.py", "x = 1\n");
  ProcessResult r = gshape({"check", "--frobnicate", dir.str()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option '--frobnicate'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gshape check --help"), std::string::npos) << r.err;
  // A global unknown option too.
  ProcessResult g = gshape({"--frobnicate"});
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_NE(g.err.find("unknown option '--frobnicate'"), std::string::npos) << g.err;
}

TEST(Usage, BadOptionValuesAreUsageErrors) {
  TempDir dir;
  dir.write("a.py", "x = 1\n");
  ProcessResult f = gshape({"check", "--format=xml", dir.str()});
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_NE(f.err.find("--format 'xml'"), std::string::npos) << f.err;
  ProcessResult c = gshape({"check", "--color", "sometimes", dir.str()});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_NE(c.err.find("--color 'sometimes'"), std::string::npos) << c.err;
  ProcessResult v = gshape({"check", dir.str(), "--format"});
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_NE(v.err.find("'--format' needs a value"), std::string::npos) << v.err;
}

TEST(Usage, CheckWithoutPathIsAUsageError) {
  ProcessResult r = gshape({"check"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("needs at least one PATH"), std::string::npos) << r.err;
}

TEST(Usage, MissingPathExits2AndNamesThePath) {
  TempDir dir;
  std::string missing = dir / "no_such_dir";
  ProcessResult r = gshape({"check", missing});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(missing + ": error: no such file or directory"), std::string::npos) << r.err;
  // not an error in the code: counted apart
  EXPECT_NE(r.err.find("checked 0 files: 0 errors, 0 warnings; 1 file could not be read\n"), std::string::npos) << r.err;
}

TEST(Usage, MissingPathBesideAGoodOneStillExits2) {
  TempDir dir;
  dir.write("good.py", "x = 1\n");
  ProcessResult r = gshape({"check", dir / "good.py", dir / "gone.py"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("gone.py: error: no such file or directory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("checked 1 file:"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------- instrument / run: argument checks
// (what they do is in instrument_test.cpp and run_test.cpp)

TEST(Instrument, RefusesAnOutputInsideOrEqualToTheInput) {
  TempDir dir;
  dir.write("src/model.py", "x = 1\n");
  for (const std::string& out : {dir / "src", dir / "src/instrumented", dir / "src/./sub/../deep/er"}) {
    ProcessResult r = gshape({"instrument", dir / "src", "-o", out});
    EXPECT_EQ(r.exit_code, 2) << out;
    EXPECT_NE(r.err.find("never"), std::string::npos) << out << ": " << r.err;
    EXPECT_EQ(r.err.find("checked"), std::string::npos) << "the refusal must come before the analysis: " << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "src/instrumented"));
  EXPECT_FALSE(std::filesystem::exists(dir / "src/deep"));
}

TEST(Instrument, RefusesTheDirectoryHoldingAnInputFile) {
  TempDir dir;
  dir.write("train.py", "x = 1\n");
  ProcessResult r = gshape({"instrument", dir / "train.py", "-o", dir.str()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("would overwrite"), std::string::npos) << r.err;
}

TEST(Instrument, NeedsAnOutputDirectory) {
  TempDir dir;
  dir.write("src/model.py", "x = 1\n");
  ProcessResult r = gshape({"instrument", dir / "src"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-o OUT"), std::string::npos) << r.err;
}

TEST(Instrument, RefusesAnOutputThatIsAFile) {
  TempDir dir;
  dir.write("src/model.py", "x = 1\n");
  dir.write("out.txt", "not a directory\n");
  ProcessResult r = gshape({"instrument", dir / "src", "--output", dir / "out.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not a directory"), std::string::npos) << r.err;
}

TEST(Instrument, RefusesAnOutputUnderAFile) {
  TempDir dir;
  dir.write("src/model.py", "x = 1\n");
  dir.write("file.txt", "a file\n");
  ProcessResult r = gshape({"instrument", dir / "src", "-o", dir / "file.txt/out"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not a directory"), std::string::npos) << r.err;
}

TEST(Instrument, TakesOnePath) {
  TempDir dir;
  dir.write("a.py", "x = 1\n");
  dir.write("b.py", "x = 1\n");
  ProcessResult r = gshape({"instrument", dir / "a.py", dir / "b.py", "-o", dir / "out"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("takes one PATH, got 2"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(Run, NeedsAScriptAndRejectsADirectory) {
  TempDir dir;
  ProcessResult none = gshape({"run"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("needs a SCRIPT"), std::string::npos) << none.err;
  ProcessResult folder = gshape({"run", dir.str()});
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_NE(folder.err.find("not a file"), std::string::npos) << folder.err;
}

TEST(Run, ScriptArgumentsBeforeDoubleDashAreRejectedWithAHint) {
  TempDir dir;
  std::string script = dir.write("train.py", "print('hi')\n");
  ProcessResult opt = gshape({"run", script, "--epochs", "1"});
  EXPECT_EQ(opt.exit_code, 2);
  EXPECT_NE(opt.err.find("unknown option '--epochs'"), std::string::npos) << opt.err;
  ProcessResult pos = gshape({"run", script, "extra"});
  EXPECT_EQ(pos.exit_code, 2);
  EXPECT_NE(pos.err.find("after '--'"), std::string::npos) << pos.err;
}

TEST(Run, MissingScriptExits2) {
  TempDir dir;
  ProcessResult r = gshape({"run", dir / "nope.py"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nope.py: error: no such file or directory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gshape::testing
