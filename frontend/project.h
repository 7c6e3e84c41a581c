// Loading a project: walking paths, reading and parsing each .py file, naming
// modules, and ordering them for analysis with the import graph.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/ir.h"
#include "frontend/source.h"

namespace gshape {

// A file of the project that parsed: its text and its IR.
struct ProjectModule {
  std::unique_ptr<SourceFile> file;
  // The IR; nullptr while `deferred` (then built on first need by
  // parse_deferred, which is why it may change behind a const Project).
  mutable std::unique_ptr<ir::Module> ir;
  std::string root;  // the directory (or file) given on the command line that holds it
  // Project modules this one imports (indices into Project::modules, sorted,
  // no duplicates, never itself). Imports of outside libraries are not here.
  std::vector<std::size_t> imports;
  // Every absolute dotted name its import statements load
  // (imported_module_names of import_graph.h): what the import graph is built from.
  std::vector<std::string> import_names;
  // Not parsed yet: load_project found its import names in the file facts
  // cache (the file parsed before, with no diagnostic, to the same names), so
  // its IR is built only if an analysis needs it (parse_deferred).
  mutable bool deferred = false;
};

// What the front end keeps of a file between runs (codegen/analysis_cache.h
// keeps it on disk): the import names of a file that parsed with no
// diagnostic, keyed by everything they depend on (its text, module name,
// whether it is a package's __init__, and gshape's identity). Called from
// several threads at once.
class FileFactsCache {
 public:
  virtual ~FileFactsCache() = default;
  virtual std::optional<std::vector<std::string>> load_import_names(const SourceFile& file) = 0;
  virtual void store_import_names(const SourceFile& file, const std::vector<std::string>& names) = 0;
};

class Project {
 public:
  // Modules that parsed, sorted by path. Files that could not be read or
  // parsed are not here: they have a diagnostic instead.
  std::vector<ProjectModule> modules;
  // Every .py file found, parsed or not (for copying and reporting), sorted.
  std::vector<std::string> all_files;
  // Strongly connected components of the import graph, dependencies first;
  // modules of one import cycle stay together (sorted by name). Indices into `modules`.
  std::vector<std::vector<std::size_t>> analysis_order;
  // Files that were read but did not become modules (not UTF-8, syntax
  // errors): kept alive because their diagnostics point into them.
  std::vector<std::unique_ptr<SourceFile>> rejected_files;
  // Paths given to load_project that do not exist (a usage error for the CLI).
  std::vector<std::string> missing_paths;
  // Files found (and in all_files) that could not be read: an I/O error
  // each (Diagnostic::io_error), neither a module nor a rejected file.
  std::vector<std::string> unreadable_files;
  // Files found (and in all_files) that are larger than the size limit:
  // skipped with a warning, neither read nor parsed.
  std::vector<std::string> oversized_files;

  // The module named `dotted` ("pkg.mod"), or nullptr. With several roots
  // holding the same name, the first by path.
  const ProjectModule* find(const std::string& dotted) const;
};

// Files larger than this are skipped with a warning unless the caller sets
// another limit: hand-written Python is far smaller, and a generated file
// (tables of weights, a vendored bundle) costs memory and time in proportion
// to its size and holds no shape code worth the wait.
inline constexpr std::size_t kDefaultMaxSourceFileBytes = 2u * 1024u * 1024u;
// The limit no setting can raise: tree-sitter addresses text with 32 bits.
inline constexpr std::size_t kHardMaxSourceFileBytes = UINT32_MAX - 1;

// Folders that hold tools, caches or build outputs, never the project's own
// code: hidden ones, __pycache__, node_modules, site-packages, build/ and
// dist/ (unless a package), virtual environments, and caches (a CACHEDIR.TAG
// file: gshape's own cache of instrumented copies is one). The loader and the
// instrumented tree skip them.
bool is_skipped_folder(const std::string& name, const std::filesystem::path& dir);

// "2.0 MB" (MiB, one decimal), as size limits are shown.
std::string megabytes(std::size_t bytes);

// Loads each path: a file, or a directory walked recursively in sorted order
// (skipping hidden entries, virtual environments, __pycache__, build/, dist/,
// node_modules/, site-packages/; following symlinks but never looping).
// A file named alone (a script) brings the project modules it imports,
// transitively, as Python finds them when it runs the script: under its
// folder and, when that folder is a package, under the folder above its
// outermost package (shown beside the path as given; `keep` asked too).
// Reports unreadable, non-UTF-8, binary, oversized and unparsable files to
// `diags` and goes on with the rest. A missing path is an error too (and is
// listed in `missing_paths`). Fills the import graph and `analysis_order`.
// Files are read and parsed on `threads` threads (0: default_thread_count()
// of parallel_for.h); the result is the same whatever the number.
// `keep`, when set, is asked about every file found by walking a directory
// (not about files named in `paths`): false leaves the file out as if it were
// not there (gshape's --exclude and configured include/exclude globs).
// A file larger than `max_file_bytes` (capped at kHardMaxSourceFileBytes) is
// not read: a warning names it and the limit, and it is listed in
// `oversized_files`; so memory stays in proportion to the limit.
// With `facts`, a file whose import names it holds is not parsed: its
// module is `deferred` (its IR nullptr until parse_deferred builds it); every
// other file that parses with no diagnostic has its names stored there.
using FileFilter = std::function<bool(const std::string& path)>;
Project load_project(const std::vector<std::string>& paths, DiagnosticSink& diags, unsigned threads = 0,
                     const FileFilter& keep = {}, std::size_t max_file_bytes = kDefaultMaxSourceFileBytes,
                     FileFactsCache* facts = nullptr);

// Builds the IR of the deferred modules among `modules` (indices into
// project.modules) on `threads` threads (0: the default). The diagnostics of a
// parse that no longer matches what the facts promised (none are expected:
// the facts are keyed by the file's text and gshape's identity) go to `diags`,
// and such a module keeps a null IR. Returns how many modules it parsed.
std::size_t parse_deferred(const Project& project, const std::vector<std::size_t>& modules, DiagnosticSink& diags,
                           unsigned threads = 0);

}  // namespace gshape
