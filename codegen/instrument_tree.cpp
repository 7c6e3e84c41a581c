#include "codegen/instrument_tree.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "codegen/atomic_file.h"
#include "codegen/instrument_report.h"
#include "codegen/project_tree.h"

namespace gshape::codegen {

namespace fs = std::filesystem;

const char* python_file_status_name(PythonFileSummary::Status s) {
  switch (s) {
    case PythonFileSummary::Status::Instrumented: return "instrumented";
    case PythonFileSummary::Status::Unchanged: return "unchanged";
    case PythonFileSummary::Status::NotParsed: return "not_parsed";
  }
  return "?";
}

namespace {

fs::path normal_absolute(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec).lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();  // "out/" → "out"
  return p;
}

bool is_same_or_inside(const fs::path& inner, const fs::path& outer) {
  auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return o == outer.end();
}

std::string canonical_key(const std::string& path) { return normal_absolute(path).string(); }

}  // namespace

std::string check_output_location(const std::string& input, const std::string& output) {
  std::error_code ec;
  if (!fs::exists(input, ec)) return "input '" + input + "' does not exist";
  fs::path in = normal_absolute(input);
  fs::path out = normal_absolute(output);
  bool input_is_dir = fs::is_directory(in, ec);
  if (out == in) return "output '" + output + "' is the input itself; gshape never modifies the source tree";
  if (input_is_dir && is_same_or_inside(out, in)) {
    return "output directory '" + output + "' is inside the input '" + input +
           "'; gshape never writes into the source tree (choose a directory outside it)";
  }
  if (!input_is_dir && out == in.parent_path()) {
    return "output directory '" + output + "' holds the input '" + input +
           "'; the instrumented copy would overwrite it (choose another directory)";
  }
  if (fs::exists(out, ec) && !fs::is_directory(out, ec)) return "output '" + output + "' exists and is not a directory";
  if (is_same_or_inside(input_is_dir ? in : in.parent_path(), out)) {
    return "output directory '" + output + "' holds the input '" + input +
           "'; the instrumented copy would be written over the source tree (choose a directory outside it)";
  }
  // a folder with files gshape did not write: the copy would overwrite them
  if (fs::is_directory(out, ec) && !fs::is_empty(out, ec) && !fs::exists(out / "gshape-report.json", ec)) {
    return "output directory '" + output +
           "' is not empty and holds no earlier instrumented copy (no gshape-report.json); gshape never overwrites "
           "files it did not write (choose an empty or new directory)";
  }
  return {};
}

TreeResult instrument_tree(const Project& project, const std::vector<FilePlan>& plans,
                           const std::vector<gradual::Obligation>& obligations, const TreeOptions& options) {
  TreeResult result;
  result.refused = check_output_location(options.input, options.output);
  if (!result.refused.empty()) return result;
  const fs::path out = options.output;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    result.refused = "cannot create output directory '" + options.output + "': " + ec.message();
    return result;
  }

  std::map<std::string, const ProjectModule*> modules;  // canonical path → module
  for (const ProjectModule& m : project.modules) modules.emplace(canonical_key(m.file->path()), &m);
  std::map<std::string, const FilePlan*> plan_of;  // display path → plan
  for (const FilePlan& p : plans) plan_of.emplace(p.path, &p);
  const FilePlan no_plan;

  std::vector<std::string> problems;
  std::vector<TreeFile> files = list_tree(options.input, &problems);
  for (std::string& p : problems) result.errors.push_back(std::move(p));
  for (const TreeFile& file : files) {
    fs::path target = out / file.relative;
    if (!file.is_python) {
      std::string error = copy_file_atomically(file.source, target);
      if (error.empty()) {
        ++result.copied_files;
      } else {
        result.errors.push_back(error);
      }
      continue;
    }
    PythonFileSummary summary;
    summary.relative = file.relative;
    auto module = modules.find(canonical_key(file.source.string()));
    if (module == modules.end() || !module->second->ir) {
      summary.path = file.source.string();
      summary.status = PythonFileSummary::Status::NotParsed;
      std::string error = copy_file_atomically(file.source, target);
      if (!error.empty()) result.errors.push_back(error);
      result.python_files.push_back(std::move(summary));
      continue;
    }
    const SourceFile& source = *module->second->file;
    summary.path = source.path();
    auto plan = plan_of.find(source.path());
    InstrumentedSource instrumented =
        instrument_source(source.text(), *module->second->ir, plan == plan_of.end() ? no_plan : *plan->second);
    summary.status = instrumented.changed ? PythonFileSummary::Status::Instrumented : PythonFileSummary::Status::Unchanged;
    summary.sites = instrumented.sites;
    summary.site_outcomes = std::move(instrumented.site_outcomes);
    summary.outcomes = std::move(instrumented.outcomes);
    summary.problem = instrumented.problem;
    fs::perms perms = fs::status(file.source, ec).permissions();
    std::string error = write_file_atomically(target, instrumented.text, ec ? std::nullopt : std::optional(perms));
    if (!error.empty()) result.errors.push_back(error);
    result.python_files.push_back(std::move(summary));
  }

  result.report_path = (out / kReportFileName).string();
  std::string report = render_instrument_report(result, obligations, options);
  std::string error = write_file_atomically(result.report_path, report);
  if (!error.empty()) result.errors.push_back(error);
  return result;
}

}  // namespace gshape::codegen
