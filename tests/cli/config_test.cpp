// Configuration: gshape.toml and [tool.gshape] in pyproject.toml found from
// the first PATH up, include/exclude globs and --exclude, severity overrides
// per tag, run's python, and malformed files reported at file:line:col.
#include <gtest/gtest.h>

#include "cli/path_glob.h"
#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

const char* kBad = "import torch\nx = torch.zeros(2, 3) @ torch.zeros(4, 5)\n";  // refuted matmul_c2, line 2

// A project with one bad module in each of src/, src/legacy/ and tests/.
struct Tree {
  TempDir dir;
  Tree() {
    dir.write("src/model.py", kBad);
    dir.write("src/legacy/old.py", kBad);
    dir.write("tests/test_model.py", kBad);
  }
  bool reports(const ProcessResult& r, const std::string& relative) const { return contains(r.err, dir / relative + ":2:"); }
};

TEST(Config, PyprojectExcludeAndSeverity) {
  Tree t;
  t.dir.write("pyproject.toml",
              "[project]\nname = \"demo\"\n\n[tool.gshape]\nexclude = [\"legacy\", \"tests/**\"]\n\n"
              "[tool.gshape.severity]\nmatmul_c2 = \"warning\"\n");
  ProcessResult r = gshape({"check", "--color=never", t.dir.str()});
  EXPECT_EQ(r.exit_code, 0) << "matmul_c2 is a warning here: " << r.err;
  EXPECT_TRUE(t.reports(r, "src/model.py")) << r.err;
  EXPECT_TRUE(contains(r.err, "model.py:2:5: warning:")) << r.err;
  EXPECT_FALSE(t.reports(r, "src/legacy/old.py")) << r.err;
  EXPECT_FALSE(t.reports(r, "tests/test_model.py")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 1 file:")) << r.err;
  // report: configured below error, the refuted one does not fail the run
  ProcessResult report = gshape({"report", "--color=never", "--verbose", t.dir.str()});
  EXPECT_EQ(report.exit_code, 0) << report.out;
  EXPECT_TRUE(contains(report.out, "configured severity: warning")) << report.out;
}

TEST(Config, GshapeTomlIncludeFoundFromASubfolder) {
  Tree t;
  t.dir.write("gshape.toml", "include = [\"src\"]\nexclude = [\"old.py\"]\n[severity]\nmatmul_c2 = \"ignore\"\n");
  t.dir.write("src/other.py", "import torch\ny = torch.zeros(2) @ torch.zeros(3)\n");  // matmul_c3? some refuted tag
  ProcessResult r = gshape({"check", "--color=never", t.dir.str()});
  EXPECT_FALSE(t.reports(r, "tests/test_model.py")) << "not included: " << r.err;
  EXPECT_FALSE(t.reports(r, "src/legacy/old.py")) << "excluded by name: " << r.err;
  EXPECT_FALSE(t.reports(r, "src/model.py")) << "matmul_c2 ignored: " << r.err;
  EXPECT_TRUE(contains(r.err, "checked 2 files:")) << r.err;
  // found from a PATH below the config file too; a file named on the command line is always checked
  ProcessResult below = gshape({"check", "--color=never", t.dir / "tests/test_model.py"});
  EXPECT_TRUE(contains(below.err, "checked 1 file:")) << below.err;
}

TEST(Config, CommandLineExcludeIsRelativeToTheWorkingDirectory) {
  Tree t;
  ProcessResult r = gshape({"check", "--color=never", "--exclude", "src/legacy", "--exclude=tests/*,nothing", "."}, t.dir.str());
  EXPECT_TRUE(contains(r.err, "src/model.py:2:")) << r.err;
  EXPECT_FALSE(contains(r.err, "old.py")) << r.err;
  EXPECT_FALSE(contains(r.err, "test_model.py")) << r.err;
  EXPECT_EQ(r.exit_code, 1);
}

TEST(Config, MalformedFilesAreErrorsAtTheirLine) {
  struct Case {
    const char* name;
    const char* text;
    const char* expected;  // after "<file>:"
  };
  const Case cases[] = {
      {"pyproject.toml", "[tool.gshape]\nexclude = \"legacy\"\n", "2:11: error: 'exclude' must be an array of strings"},
      {"pyproject.toml", "[tool.gshape]\n\nexclud = [\"x\"]\n", "3:1: error: unknown key 'exclud' in [tool.gshape]"},
      {"gshape.toml", "include = [\n", "1:13: error: malformed TOML: "},
      {"gshape.toml", "[severity]\nlinear_c1 = \"fatal\"\n", "2:13: error: the severity of 'linear_c1' must be"},
      {"gshape.toml", "python = 3\n", "1:10: error: 'python' must be a string"},
      {"pyproject.toml", "[tool]\ngshape = 1\n", "2:10: error: 'tool.gshape' must be a table"},
  };
  for (const Case& c : cases) {
    TempDir dir;
    std::string config = dir.write(c.name, c.text);
    dir.write("m.py", "x = 1\n");
    ProcessResult r = gshape({"check", dir.str()});
    EXPECT_EQ(r.exit_code, 2) << c.text;
    EXPECT_TRUE(contains(r.err, config + ":" + c.expected)) << c.text << "\n" << r.err;
  }
  // a malformed pyproject.toml of another tool, without [tool.gshape], is not ours
  TempDir other;
  other.write("pyproject.toml", "[tool.black\n");
  other.write("m.py", "x = 1\n");
  EXPECT_EQ(gshape({"check", other.str()}).exit_code, 0);
  ProcessResult missing = gshape({"check", "--config", other / "nope.toml", other.str()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, "nope.toml: error: no such configuration file")) << missing.err;
}

TEST(Config, RunUsesTheConfiguredPython) {
  TempDir dir;
  dir.write("gshape.toml", "python = \"/nonexistent/python3\"\n");
  std::string script = dir.write("hello.py", "print('hello')\n");
  TempDir cache;
  ProcessResult r = gshape({"run", "--cache-dir", cache.str(), script});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "/nonexistent/python3")) << r.err;
}

TEST(PathGlob, GitignoreLikeMatching) {
  using cli::path_glob_matches;
  EXPECT_TRUE(path_glob_matches("legacy", "src/legacy/old.py"));
  EXPECT_TRUE(path_glob_matches("legacy/", "legacy/old.py"));
  EXPECT_TRUE(path_glob_matches("tests/**", "tests/unit/a.py"));
  EXPECT_FALSE(path_glob_matches("tests/**", "src/tests.py"));
  EXPECT_TRUE(path_glob_matches("test_*.py", "pkg/sub/test_model.py"));
  EXPECT_FALSE(path_glob_matches("test_*.py", "pkg/sub/model_test.py"));
  EXPECT_TRUE(path_glob_matches("src/*.py", "src/a.py"));
  EXPECT_FALSE(path_glob_matches("src/*.py", "src/sub/a.py"));
  EXPECT_TRUE(path_glob_matches("src/**/*.py", "src/a.py"));
  EXPECT_TRUE(path_glob_matches("src/**/*.py", "src/x/y/a.py"));
  EXPECT_TRUE(path_glob_matches("/src", "src/a.py"));
  EXPECT_TRUE(path_glob_matches("./src", "src/a.py"));
  EXPECT_TRUE(path_glob_matches("mod[0-9].py", "mod3.py"));
  EXPECT_FALSE(path_glob_matches("mod[!0-9].py", "mod3.py"));
  EXPECT_TRUE(path_glob_matches("m?d.py", "mod.py"));
  EXPECT_FALSE(path_glob_matches("", "a.py"));
  EXPECT_TRUE(path_glob_matches("[", "[/a.py"));
}

}  // namespace
}  // namespace gshape::testing
