// Loading a project: walking paths, reading and parsing each .py file, naming
// modules, and ordering them for analysis with the import graph.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/ir.h"
#include "frontend/source.h"

namespace gshape {

// A file of the project that parsed: its text and its IR.
struct ProjectModule {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ir::Module> ir;
  std::string root;  // the directory (or file) given on the command line that holds it
};

class Project {
 public:
  // Modules that parsed, sorted by path. Files that could not be read or
  // parsed are not here: they have a diagnostic instead.
  std::vector<ProjectModule> modules;
  // Every .py file found, parsed or not (for copying and reporting).
  std::vector<std::string> all_files;
  // Strongly connected components of the import graph, dependencies first;
  // modules of one import cycle stay together (sorted by name). Indices into `modules`.
  std::vector<std::vector<std::size_t>> analysis_order;

  // The module named `dotted` ("pkg.mod"), or nullptr.
  const ProjectModule* find(const std::string& dotted) const;
};

// Loads each path: a file, or a directory walked recursively (skipping hidden
// folders, virtual environments, __pycache__, build/ and dist/, following
// no symlink loops). Reports unreadable, non-UTF-8, binary and unparsable
// files to `diags` and goes on with the rest. A missing path is an error too.
Project load_project(const std::vector<std::string>& paths, DiagnosticSink& diags);

}  // namespace gshape
