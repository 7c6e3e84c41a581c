// gshape_codegen_tool: drives the codegen library with hand-made plans
// (auto_plan.h, every site checked) for the Python tests, or the analysis' plans.
//
//   gshape_codegen_tool instrument FILE OUT [PLAN OPTIONS] [--display PATH]
//       writes FILE instrumented to OUT; prints a JSON summary
//   gshape_codegen_tool tree INPUT OUT [PLAN OPTIONS]
//       instrument_tree on INPUT with auto plans; prints a JSON summary
//   gshape_codegen_tool run SCRIPT [PLAN OPTIONS] [--python P] [--cache-home DIR]
//                       [--cache-log FILE] [-- ARGS...]
//       run_script; exits with the script's exit code; FILE gets the cache update
//
// PLAN OPTIONS: --no-calls, --no-binops, --no-augassign (auto plans check
// every site, auto_plan.h); or --analysis: plans from the real analysis
// (gradual::analyse_project + build_plans) instead of auto plans.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "auto_plan.h"
#include "codegen/atomic_file.h"
#include "codegen/instrument_tree.h"
#include "codegen/rewriter.h"
#include "codegen/run_cache.h"
#include "frontend/ir_builder.h"
#include "frontend/json_writer.h"
#include "gradual/analysis.h"

namespace {

using namespace gshape;

struct ToolArgs {
  std::vector<std::string> positional;
  std::vector<std::string> script_args;
  testing::AutoPlanOptions plan;
  std::string display, python = "/usr/bin/python3", cache_home, cache_log, runtime;
  bool analysis = false;  // plans from the real analysis
};

bool parse(int argc, char** argv, ToolArgs& args) {
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--") {
      for (++i; i < argc; ++i) args.script_args.push_back(argv[i]);
    } else if (a == "--no-calls") {
      args.plan.calls = false;
    } else if (a == "--no-binops") {
      args.plan.binops = false;
    } else if (a == "--no-augassign") {
      args.plan.aug_assigns = false;
    } else if (a == "--analysis") {
      args.analysis = true;
    } else if (a == "--display") {
      args.display = next();
    } else if (a == "--python") {
      args.python = next();
    } else if (a == "--cache-home") {
      args.cache_home = next();
    } else if (a == "--cache-log") {
      args.cache_log = next();
    } else if (a == "--runtime") {
      args.runtime = next();
    } else if (a.rfind("--", 0) == 0) {
      std::cerr << "unknown option " << a << "\n";
      return false;
    } else {
      args.positional.push_back(a);
    }
  }
  return true;
}

void write_outcomes(JsonWriter& json, const std::vector<codegen::CheckOutcome>& outcomes) {
  json.key("outcomes").begin_array();
  for (const codegen::CheckOutcome& o : outcomes) {
    json.begin_object();
    json.field("line", static_cast<uint64_t>(o.line));
    json.field("col", static_cast<uint64_t>(o.col));
    json.field("instrumented", o.instrumented);
    json.field("site", o.runtime_site);
    json.field("reason", o.reason);
    json.end_object();
  }
  json.end_array();
}

void write_site_outcomes(JsonWriter& json, const std::vector<codegen::SiteOutcome>& outcomes) {
  json.key("site_outcomes").begin_array();
  for (const codegen::SiteOutcome& o : outcomes) {
    json.begin_object();
    json.field("line", static_cast<uint64_t>(o.line));
    json.field("col", static_cast<uint64_t>(o.col));
    json.field("rule", o.rule);
    json.field("instrumented", o.instrumented);
    json.field("site", o.runtime_site);
    json.field("problem", o.problem);
    json.end_object();
  }
  json.end_array();
}

codegen::ProjectAnalyzer analyzer_for(const ToolArgs& args);

int instrument_file(const ToolArgs& args) {
  if (args.positional.size() != 2) return 2;
  DiagnosticSink diags;
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ir::Module> module;
  codegen::FilePlan plan;
  Project project;
  if (args.analysis) {
    project = load_project({args.positional[0]}, diags);
    if (project.modules.size() != 1) {
      std::cerr << "does not parse: " << args.positional[0] << "\n";
      return 3;
    }
    codegen::ProjectAnalysis analysis = analyzer_for(args)(project, diags);
    for (const codegen::FilePlan& p : codegen::build_plans(project, analysis.obligations, analysis.sites)) {
      if (p.path == project.modules[0].file->path()) plan = p;
    }
  } else {
    std::optional<std::string> text = codegen::read_file(args.positional[0]);
    if (!text) {
      std::cerr << "cannot read " << args.positional[0] << "\n";
      return 2;
    }
    file = std::make_unique<SourceFile>(args.display.empty() ? args.positional[0] : args.display, *text);
    module = build_module(*file, diags);
    if (!module) {
      std::cerr << "does not parse: " << args.positional[0] << "\n";
      return 3;
    }
    plan = testing::plan_every_operation(*module, args.plan);
  }
  const SourceFile& source = args.analysis ? *project.modules[0].file : *file;
  const ir::Module& ir = args.analysis ? *project.modules[0].ir : *module;
  codegen::InstrumentedSource out = codegen::instrument_source(source.text(), ir, plan);
  std::string error = codegen::write_file_atomically(args.positional[1], out.text);
  if (!error.empty()) {
    std::cerr << error << "\n";
    return 2;
  }
  JsonWriter json(std::cout);
  json.begin_object();
  json.field("changed", out.changed);
  json.field("sites", out.sites);
  json.field("planned_sites", static_cast<uint64_t>(plan.sites.size()));
  json.field("problem", out.problem);
  write_outcomes(json, out.outcomes);
  write_site_outcomes(json, out.site_outcomes);
  json.end_object();
  std::cout << "\n";
  return 0;
}

codegen::ProjectAnalyzer real_analyzer() {
  return [](const Project& project, DiagnosticSink&) {
    codegen::ProjectAnalysis analysis;
    gradual::AnalysisResult result = gradual::analyse_project(project);
    analysis.obligations = result.plain_obligations();
    analysis.sites = std::move(result.sites);
    return analysis;
  };
}

codegen::ProjectAnalyzer auto_analyzer(const testing::AutoPlanOptions& options) {
  return [options](const Project& project, DiagnosticSink&) {
    codegen::ProjectAnalysis analysis;
    analysis.plans.emplace();
    for (const ProjectModule& m : project.modules) {
      if (m.ir) analysis.plans->push_back(testing::plan_every_operation(*m.ir, options));
    }
    return analysis;
  };
}

codegen::ProjectAnalyzer analyzer_for(const ToolArgs& args) {
  return args.analysis ? real_analyzer() : auto_analyzer(args.plan);
}

int instrument_tree(const ToolArgs& args) {
  if (args.positional.size() != 2) return 2;
  DiagnosticSink diags;
  Project project = load_project({args.positional[0]}, diags);
  codegen::ProjectAnalysis analysis = analyzer_for(args)(project, diags);
  std::vector<codegen::FilePlan> plans =
      analysis.plans ? std::move(*analysis.plans) : codegen::build_plans(project, analysis.obligations, analysis.sites);
  codegen::TreeResult result =
      codegen::instrument_tree(project, plans, analysis.obligations, {args.positional[0], args.positional[1]});
  JsonWriter json(std::cout);
  json.begin_object();
  json.field("refused", result.refused);
  json.key("errors").begin_array();
  for (const std::string& e : result.errors) json.value(e);
  json.end_array();
  json.field("copied_files", static_cast<uint64_t>(result.copied_files));
  json.key("python_files").begin_array();
  for (const codegen::PythonFileSummary& f : result.python_files) {
    json.begin_object();
    json.field("relative", f.relative);
    json.field("status", codegen::python_file_status_name(f.status));
    json.field("sites", f.sites);
    json.end_object();
  }
  json.end_array();
  json.end_object();
  std::cout << "\n";
  return result.ok() ? 0 : 2;
}

int run(const ToolArgs& args) {
  if (args.positional.size() != 1) return 2;
  codegen::RunOptions options;
  options.script = args.positional[0];
  options.args = args.script_args;
  options.python = args.python;
  options.cache_home = args.cache_home;
  options.runtime_path = args.runtime;
  DiagnosticSink diags;
  codegen::RunResult result = codegen::run_script(options, analyzer_for(args), diags);
  if (!args.cache_log.empty()) {
    std::ofstream log(args.cache_log);
    JsonWriter json(log);
    json.begin_object();
    json.field("analysed", result.cache.analysed);
    json.field("project_root", result.cache.project_root);
    json.field("tree_dir", result.cache.tree_dir);
    json.key("rewritten").begin_array();
    for (const std::string& r : result.cache.rewritten) json.value(r);
    json.end_array();
    json.key("removed").begin_array();
    for (const std::string& r : result.cache.removed) json.value(r);
    json.end_array();
    json.field("error", result.error);
    json.end_object();
  }
  if (!result.error.empty()) std::cerr << "gshape_codegen_tool: " << result.error << "\n";
  return result.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: gshape_codegen_tool instrument|tree|run ...\n";
    return 2;
  }
  ToolArgs args;
  if (!parse(argc, argv, args)) return 2;
  std::string command = argv[1];
  if (command == "instrument") return instrument_file(args);
  if (command == "tree") return instrument_tree(args);
  if (command == "run") return run(args);
  std::cerr << "unknown command " << command << "\n";
  return 2;
}
