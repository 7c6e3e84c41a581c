// instrument_tree: the mirror, the refusals, the report.
#include "codegen/instrument_tree.h"

#include <gtest/gtest.h>

#include <map>

#include "auto_plan.h"
#include "codegen/atomic_file.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

namespace fs = std::filesystem;

// Every file below `root` with its bytes (to prove a tree was not touched).
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_regular_file()) files[fs::relative(it->path(), root).string()] = *codegen::read_file(it->path());
  }
  return files;
}

struct Fixture {
  TempDir dir;
  std::string project;
  Fixture() {
    project = dir.mkdir("proj");
    dir.write("proj/train.py", "import torch\nx = torch.zeros(2, 3)\ny = x @ torch.ones(3, 4)\nprint(y.shape)\n");
    dir.write("proj/pkg/__init__.py", "");
    dir.write("proj/pkg/model.py", "def f(a, b):\n    return a @ b\n\n\ndef g(x):\n    return x\n");
    // One function and nothing else: no line can hold the runtime import.
    dir.write("proj/pkg/lonely.py", "def f(a, b):\n    return a @ b\n");
    dir.write("proj/broken.py", "def f(:\n    pass\n");
    dir.write("proj/data/table.csv", "a,b\n1,2\n");
    dir.write("proj/data/blob.bin", std::string("\0\1\2\xff", 4));
    dir.write("proj/.env", "SECRET=1\n");
    dir.write("proj/.git/config", "[core]\n");
    dir.write("proj/__pycache__/train.cpython-311.pyc", "junk");
    dir.write("proj/venv/pyvenv.cfg", "home = /usr\n");
    dir.write("proj/venv/lib/x.py", "y = 1 + 2\n");
  }
};

TEST(InstrumentTree, MirrorsTheProject) {
  Fixture f;
  auto before = snapshot(f.project);
  DiagnosticSink diags;
  Project project = load_project({f.project}, diags);
  std::vector<codegen::FilePlan> plans;
  for (const ProjectModule& m : project.modules) plans.push_back(plan_every_operation(*m.ir));
  std::string out = f.dir / "out";
  codegen::TreeResult result = codegen::instrument_tree(project, plans, {}, {f.project, out});
  EXPECT_TRUE(result.ok()) << result.refused << (result.errors.empty() ? "" : result.errors[0]);
  EXPECT_EQ(snapshot(f.project), before);  // the source tree is untouched

  auto mirrored = snapshot(out);
  std::vector<std::string> names;
  for (const auto& [name, bytes] : mirrored) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{".env", "broken.py", "data/blob.bin", "data/table.csv", "gshape-report.json",
                                             "pkg/__init__.py", "pkg/lonely.py", "pkg/model.py", "train.py"}));
  EXPECT_EQ(mirrored["data/blob.bin"], before["data/blob.bin"]);
  EXPECT_EQ(mirrored["broken.py"], before["broken.py"]);
  EXPECT_EQ(mirrored["pkg/__init__.py"], "");
  EXPECT_NE(mirrored["train.py"], before["train.py"]);
  EXPECT_NE(mirrored["train.py"].find("_gshape_checks.check("), std::string::npos);
  EXPECT_NE(mirrored["pkg/model.py"].find("return  _gshape_checks.stash(0, 0, a) @ _gshape_checks.check(0, 1, b)"),
            std::string::npos);

  ASSERT_EQ(result.python_files.size(), 5u);
  std::map<std::string, codegen::PythonFileSummary::Status> status;
  std::map<std::string, std::string> problem;
  for (const auto& file : result.python_files) {
    status[file.relative] = file.status;
    problem[file.relative] = file.problem;
  }
  EXPECT_EQ(status["pkg/lonely.py"], codegen::PythonFileSummary::Status::Unchanged);
  EXPECT_EQ(mirrored["pkg/lonely.py"], before["pkg/lonely.py"]);
  EXPECT_NE(problem["pkg/lonely.py"].find("runtime import"), std::string::npos);
  EXPECT_EQ(status["broken.py"], codegen::PythonFileSummary::Status::NotParsed);
  EXPECT_EQ(status["pkg/__init__.py"], codegen::PythonFileSummary::Status::Unchanged);
  EXPECT_EQ(status["train.py"], codegen::PythonFileSummary::Status::Instrumented);
  EXPECT_EQ(result.copied_files, 3u);

  // No temporary file is left behind.
  for (const auto& [name, bytes] : mirrored) EXPECT_EQ(name.find(".gshape-tmp-"), std::string::npos) << name;
}

TEST(InstrumentTree, ReportListsEveryObligationAndWhatBecameOfIt) {
  Fixture f;
  DiagnosticSink diags;
  Project project = load_project({f.project}, diags);
  const ProjectModule* model = project.find("pkg.model");
  ASSERT_NE(model, nullptr);
  codegen::FilePlan plan = plan_every_operation(*model->ir);
  ASSERT_EQ(plan.sites.size(), 1u);
  plan.sites[0].obligations = {7};
  plan.rejected.push_back({8, "the requirement is not at a call or an operator, where checks go"});
  std::vector<gradual::Obligation> obligations(3);
  for (int i = 0; i < 3; ++i) {
    obligations[i].id = 7 + i;
    obligations[i].loc.file = model->file.get();
    obligations[i].loc.line = 2;
    obligations[i].loc.column = 12;
    obligations[i].tag = "matmul_c" + std::to_string(i + 1);
  }
  obligations[2].status = gradual::Status::Proven;
  std::string out = f.dir / "out";
  codegen::TreeResult result = codegen::instrument_tree(project, {plan}, obligations, {f.project, out});
  ASSERT_TRUE(result.ok());
  std::string report = *codegen::read_file(result.report_path);
  EXPECT_NE(report.find("\"format\": \"gshape-instrument-report\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"checks_inserted\": 1"), std::string::npos) << report;
  EXPECT_NE(report.find("\"not_instrumentable\": 1"), std::string::npos) << report;
  EXPECT_NE(report.find("\"tag\": \"matmul_c1\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"runtime_check\": \"inserted\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"runtime_check\": \"not_instrumentable\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"reason\": \"the requirement is not at a call or an operator, where checks go\""),
            std::string::npos);
  EXPECT_NE(report.find("\"sites_checked\": 1"), std::string::npos) << report;
  EXPECT_NE(report.find("\"rule\": \"operator.matmul\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"runtime_check\": \"not_needed\""), std::string::npos) << report;
  EXPECT_NE(report.find("broken.py"), std::string::npos);
  EXPECT_NE(report.find("\"status\": \"not_parsed\""), std::string::npos);
}

TEST(InstrumentTree, RefusesAnOutputInsideTheInput) {
  Fixture f;
  auto before = snapshot(f.project);
  DiagnosticSink diags;
  Project project = load_project({f.project}, diags);
  for (const std::string& out : {f.project, f.project + "/", f.project + "/out", f.project + "/pkg/../out2"}) {
    codegen::TreeResult result = codegen::instrument_tree(project, {}, {}, {f.project, out});
    EXPECT_FALSE(result.refused.empty()) << out;
    EXPECT_TRUE(result.python_files.empty());
  }
  EXPECT_EQ(snapshot(f.project), before);
  // A single file: its own folder would be overwritten; a sibling folder is fine.
  std::string file = f.project + "/train.py";
  EXPECT_NE(codegen::check_output_location(file, f.project).find("overwrite"), std::string::npos);
  EXPECT_EQ(codegen::check_output_location(file, f.dir / "elsewhere"), "");
  f.dir.write("a_file", "x");
  EXPECT_NE(codegen::check_output_location(f.project, f.dir / "a_file").find("not a directory"), std::string::npos);
}

TEST(InstrumentTree, SingleFileInput) {
  Fixture f;
  std::string file = f.project + "/train.py";
  DiagnosticSink diags;
  Project project = load_project({file}, diags);
  std::vector<codegen::FilePlan> plans = {plan_every_operation(*project.modules.at(0).ir)};
  std::string out = f.dir / "single";
  codegen::TreeResult result = codegen::instrument_tree(project, plans, {}, {file, out});
  ASSERT_TRUE(result.ok());
  auto mirrored = snapshot(out);
  EXPECT_EQ(mirrored.size(), 2u);  // train.py and the report
  EXPECT_NE(mirrored["train.py"].find("import gshape_runtime as _gshape_rt"), std::string::npos);
}

}  // namespace
}  // namespace gshape::testing
