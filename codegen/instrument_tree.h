// `gshape instrument PATH -o OUT`: mirror a project into OUT with every
// Python file instrumented (or copied byte for byte when it has no check),
// every other file copied, and OUT/gshape-report.json describing every
// obligation. The source tree is never written to.
#pragma once

#include <string>
#include <vector>

#include "codegen/plan.h"
#include "codegen/rewriter.h"
#include "frontend/project.h"

namespace gshape::codegen {

inline constexpr const char* kReportFileName = "gshape-report.json";

struct TreeOptions {
  std::string input;   // the project directory, or one file
  std::string output;  // OUT: created if missing
};

// One Python file of the mirror.
struct PythonFileSummary {
  enum class Status : uint8_t {
    Instrumented,  // checks inserted
    Unchanged,     // no check to insert (or none could be): copied byte for byte
    NotParsed,     // not a module gshape could read or parse: copied byte for byte
  };
  std::string path;      // as gshape displays it
  std::string relative;  // inside OUT
  Status status = Status::Unchanged;
  int sites = 0;  // sites in the file's check table
  std::vector<SiteOutcome> site_outcomes;
  std::vector<CheckOutcome> outcomes;
  std::string problem;   // why checks this file needed were not inserted, if so
};
const char* python_file_status_name(PythonFileSummary::Status s);  // "instrumented", "unchanged", "not_parsed"

struct TreeResult {
  std::string refused;              // OUT unusable (inside the input, ...): nothing was written
  std::vector<std::string> errors;  // files that could not be written (the rest were)
  std::vector<PythonFileSummary> python_files;
  std::size_t copied_files = 0;     // other files
  std::string report_path;
  bool ok() const { return refused.empty() && errors.empty(); }
};

// "" when OUT may receive the copy of `input`, else why not (OUT is the
// input, lies inside the input directory, would overwrite the input file,
// or exists and is not a directory).
std::string check_output_location(const std::string& input, const std::string& output);

// Mirrors `options.input` into `options.output`. `project` must be the result
// of load_project on `options.input`; `plans` say what to insert per file
// (FilePlan::path = SourceFile::path); `obligations` (may be empty) are
// written to the report in full.
TreeResult instrument_tree(const Project& project, const std::vector<FilePlan>& plans,
                           const std::vector<gradual::Obligation>& obligations, const TreeOptions& options);

}  // namespace gshape::codegen
