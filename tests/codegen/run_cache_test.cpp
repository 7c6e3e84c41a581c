// The `gshape run` cache: what is (re)instrumented when (the launcher itself
// is tested from Python, tests/codegen/test_launcher.py).
#include "codegen/run_cache.h"

#include <gtest/gtest.h>

#include "auto_plan.h"
#include "codegen/atomic_file.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

namespace fs = std::filesystem;

codegen::ProjectAnalysis analyse(const Project& project, DiagnosticSink&) {
  codegen::ProjectAnalysis analysis;
  analysis.plans.emplace();
  for (const ProjectModule& m : project.modules) analysis.plans->push_back(plan_every_operation(*m.ir));
  return analysis;
}

struct CacheFixture {
  TempDir dir;
  codegen::RunOptions options;
  int analyses = 0;
  codegen::ProjectAnalyzer analyzer = [this](const Project& p, DiagnosticSink& d) {
    ++analyses;
    return analyse(p, d);
  };
  CacheFixture() {
    dir.write("proj/main.py", "from pkg import util\nprint(util.twice(2) + 1)\n");
    dir.write("proj/pkg/__init__.py", "");
    dir.write("proj/pkg/util.py", "import math\n\ndef twice(v):\n    return v * 2\n");
    dir.write("proj/notes.txt", "not python\n");
    options.script = dir / "proj/main.py";
    options.cache_home = dir / "cache";
  }
  codegen::CacheUpdate update() {
    DiagnosticSink diags;
    return codegen::update_run_cache(options, analyzer, diags);
  }
};

TEST(RunCache, InstrumentsOnlyWhatChanged) {
  CacheFixture f;
  codegen::CacheUpdate first = f.update();
  ASSERT_EQ(first.error, "");
  EXPECT_TRUE(first.analysed);
  EXPECT_EQ(first.rewritten, (std::vector<std::string>{"main.py", "pkg/util.py"}));  // __init__.py has no check
  EXPECT_EQ(first.project_root, f.dir / "proj");
  EXPECT_TRUE(fs::exists(first.tree_dir + "/pkg/util.py"));
  EXPECT_FALSE(fs::exists(first.tree_dir + "/pkg/__init__.py"));
  EXPECT_EQ(fs::path(first.cache_dir).parent_path(), fs::path(f.dir / "cache"));

  codegen::CacheUpdate second = f.update();
  EXPECT_FALSE(second.analysed);  // nothing changed: not even parsed
  EXPECT_TRUE(second.rewritten.empty());
  EXPECT_EQ(f.analyses, 1);

  auto main_time = fs::last_write_time(first.tree_dir + "/main.py");
  f.dir.write("proj/pkg/util.py", "import math\n\ndef twice(v):\n    return v + v\n");
  codegen::CacheUpdate third = f.update();
  EXPECT_TRUE(third.analysed);
  EXPECT_EQ(third.rewritten, (std::vector<std::string>{"pkg/util.py"}));
  EXPECT_EQ(fs::last_write_time(first.tree_dir + "/main.py"), main_time);
  EXPECT_NE(codegen::read_file(third.tree_dir + "/pkg/util.py")->find("+ _gshape_checks.check(0, 1, v)"), std::string::npos);

  // A file that loses its last check loses its copy; a deleted file too.
  f.dir.write("proj/pkg/util.py", "import math\n\ndef twice(v):\n    return v\n");
  codegen::CacheUpdate fourth = f.update();
  EXPECT_TRUE(fourth.rewritten.empty());
  EXPECT_EQ(fourth.removed, (std::vector<std::string>{"pkg/util.py"}));
  EXPECT_FALSE(fs::exists(fourth.tree_dir + "/pkg/util.py"));
  fs::remove(f.dir / "proj/pkg/util.py");
  f.dir.write("proj/extra.py", "print(len('x') + 1)\n");
  codegen::CacheUpdate fifth = f.update();
  EXPECT_EQ(fifth.rewritten, (std::vector<std::string>{"extra.py"}));
  EXPECT_TRUE(fifth.removed.empty());
  // A copy deleted behind the cache's back is made again.
  fs::remove(fifth.tree_dir + "/main.py");
  codegen::CacheUpdate sixth = f.update();
  EXPECT_EQ(sixth.rewritten, (std::vector<std::string>{"main.py"}));
}

TEST(RunCache, APlanChangeReinstrumentsAnUnchangedFile) {
  CacheFixture f;
  ASSERT_TRUE(f.update().analysed);
  // Another analysis (as after a change in an imported module) changes main.py's plan.
  f.analyzer = [](const Project& p, DiagnosticSink& d) {
    codegen::ProjectAnalysis a = analyse(p, d);
    for (codegen::FilePlan& plan : *a.plans) {
      for (codegen::SitePlan& s : plan.sites) s.rule = "operator.sub";
    }
    return a;
  };
  f.dir.write("proj/notes.py", "x = 1\n");  // any change makes the cache look again
  codegen::CacheUpdate update = f.update();
  EXPECT_EQ(update.rewritten, (std::vector<std::string>{"main.py", "pkg/util.py"}));
}

TEST(RunCache, ProjectOfAScriptInsideAPackage) {
  TempDir dir;
  dir.write("top/pkg/__init__.py", "");
  dir.write("top/pkg/sub/__init__.py", "");
  dir.write("top/pkg/sub/tool.py", "");
  dir.write("top/script.py", "");
  EXPECT_EQ(codegen::project_root_of(dir / "top/pkg/sub/tool.py"), dir / "top");
  EXPECT_EQ(codegen::project_root_of(dir / "top/script.py"), dir / "top");
}

TEST(RunCache, MissingLauncherIsAnErrorNotACrash) {
  CacheFixture f;
  f.options.runtime_path = f.dir / "no-runtime-here";
  DiagnosticSink diags;
  codegen::RunResult result = codegen::run_script(f.options, f.analyzer, diags);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.error.find("launcher is missing"), std::string::npos) << result.error;
}

}  // namespace
}  // namespace gshape::testing
