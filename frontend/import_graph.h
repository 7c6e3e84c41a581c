// The import graph of a project: which project module imports which, and the
// order in which to analyse them (dependencies first, import cycles together).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ir.h"

namespace gshape {

struct ProjectModule;

// Absolute dotted names of every module that `module`'s import statements
// load, anywhere in the file (inside functions, under if/try/with too), as
// Python would: `import a.b.c` loads a, a.b and a.b.c; `from a.b import c`
// loads a, a.b and a.b.c (the last only matters if c is a submodule);
// relative imports are resolved against the importer's package (for a
// package's __init__ the package itself). Sorted, without duplicates.
// Relative imports that climb above the top package are dropped.
//
// Also, for each `sys.path.insert(i, PATH)` / `sys.path.append(PATH)` whose
// PATH the file computes from its own location (`os.path.join(os.path.
// dirname(__file__), "..", "src")`, `Path(__file__).resolve().parent /
// "src"`), an entry kSysPathMarker + "insert:" or "append:" + the folder
// relative to the file's own ("./../src"), or an absolute folder written as
// a string ("/opt/lib"): where a script finds the
// project's other modules (load_project). No module has such a name.
inline constexpr std::string_view kSysPathMarker = "\x01sys.path ";
std::vector<std::string> imported_module_names(const ir::Module& module, const std::string& module_name,
                                               bool is_package_init);

struct ImportGraph {
  // imports[i]: modules that module i imports (sorted indices, no self edge).
  std::vector<std::vector<std::size_t>> imports;
  // Strongly connected components in dependency order: every module comes
  // after the modules it imports, except inside an import cycle, whose
  // modules form one component sorted by name. Ties go to the smaller name.
  std::vector<std::vector<std::size_t>> analysis_order;
};

// Builds the graph over `modules` from their import_names (or, for a module
// without them, from its IR), resolving names among them only: imports of
// outside libraries are ignored. When two roots hold the same module
// name, an import resolves to the importer's own root first.
ImportGraph build_import_graph(const std::vector<ProjectModule>& modules);

}  // namespace gshape
