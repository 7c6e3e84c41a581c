// `gshape annotate PATH [-o OUT]`: the signatures the analysis inferred,
// written as jaxtyping annotations: a unified diff on stdout, or a copy of
// the project in OUT. The source is never written to.
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.h"
#include "codegen/annotate.h"
#include "codegen/atomic_file.h"
#include "codegen/instrument_tree.h"
#include "codegen/project_tree.h"
#include "frontend/project.h"
#include "frontend/source_encoding.h"
#include "gradual/analysis.h"

namespace gshape::cli {

namespace fs = std::filesystem;

namespace {

std::string canonical(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  return ec ? path : p.string();
}

int run_annotate(const ParsedArgs& args) {
  if (args.positional.size() != 1) return usage_error("annotate", "'annotate' needs exactly one PATH");
  const std::string& input = args.positional.front();
  std::string out_dir = args.get("output");
  if (args.has("output")) {
    std::string refused = codegen::check_output_location(input, out_dir);
    if (!refused.empty()) return fatal_error(refused);
  }
  DiagnosticSink diags;
  Project project = load_project({input}, diags);
  if (!project.missing_paths.empty()) return fatal_error("no such file or directory: '" + input + "'");
  gradual::AnalysisOptions options;
  options.record_signatures = true;
  gradual::AnalysisResult result = gradual::analyse_project(project, options);

  std::map<std::string, std::string> annotated;  // canonical path → new text
  int functions = 0, annotations = 0;
  std::string diff;
  for (const ProjectModule& m : project.modules) {
    if (!m.ir) continue;
    codegen::AnnotatedSource a = codegen::annotate_source(m.file->text(), *m.ir, result.signatures);
    if (a.annotations == 0) continue;
    // a file read from latin-1 or cp1252 is written (and diffed) in it
    std::optional<std::string> before = encode_source_text(*m.file, m.file->text());
    std::optional<std::string> after = encode_source_text(*m.file, a.text);
    if (!before || !after) {
      std::cerr << "gshape: warning: " << m.file->path() << ": the annotations cannot be written in the file's encoding ("
                << source_encoding_name(m.file->encoding()) << "); left as it is\n";
      continue;
    }
    for (const gradual::InferredSignature& s : result.signatures) functions += s.def->loc.file == m.file.get();
    annotations += a.annotations;
    diff += codegen::unified_diff(m.file->path(), *before, *after);
    annotated[canonical(m.file->path())] = std::move(*after);
  }
  if (!args.has("output")) {
    std::cout << diff;
  } else {
    std::vector<std::string> problems;
    std::vector<codegen::TreeFile> files = codegen::list_tree(input, &problems);
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) return fatal_error("cannot create '" + out_dir + "': " + ec.message());
    for (const codegen::TreeFile& f : files) {
      fs::path target = fs::path(out_dir) / f.relative;
      fs::create_directories(target.parent_path(), ec);
      auto it = annotated.find(canonical(f.source.string()));
      std::string error = it != annotated.end() ? codegen::write_file_atomically(target, it->second)
                                                 : codegen::copy_file_atomically(f.source, target);
      if (!error.empty()) problems.push_back(error);
    }
    for (const std::string& p : problems) std::cerr << "gshape: error: " << p << "\n";
    if (!problems.empty()) return kExitUsage;
  }
  std::size_t errors = 0;
  for (const Diagnostic& d : gradual::diagnostics_of(result)) errors += d.severity == Severity::Error;
  std::cerr << "annotated " << functions << " function" << (functions == 1 ? "" : "s") << " (" << annotations
            << " annotation" << (annotations == 1 ? "" : "s") << ") in " << annotated.size() << " file"
            << (annotated.size() == 1 ? "" : "s");
  if (args.has("output")) std::cerr << "; wrote the project into " << out_dir;
  std::cerr << "\n";
  if (errors) std::cerr << "note: 'gshape check' reports " << errors << " error" << (errors == 1 ? "" : "s")
                        << " in this project; annotations next to them describe the code as it is\n";
  return kExitOk;
}

}  // namespace

const Command& annotate_command() {
  static const Command command{
      "annotate",
      "write inferred shapes into the code as jaxtyping annotations",
      R"(usage: gshape annotate [options] PATH

Analyses PATH (a file or a directory) as 'gshape check' does and writes the
signature it inferred for each function as jaxtyping annotations:
  def forward(self, x: Shaped[Tensor, "B 784"]) -> Shaped[Tensor, "B 10"]:
A parameter or result is annotated when it is a tensor of the same rank in
every call the analysis followed into the function (a function some call of
which it could not follow is left alone, and so is an annotation already
there). An axis with the same size in every call is written as that integer;
axes whose sizes agree in every call share a name, taken from the code when
the function names it (B, T, C = x.size(); n = x.shape[0]), else d0, d1, ...
Shaped is used since gshape infers shapes, not dtypes. Each changed file
gets `from __future__ import annotations` and its jaxtyping import under
`if TYPE_CHECKING:`, so it runs without jaxtyping installed.

By default the change is printed as a unified diff on stdout (apply it with
`patch -p1`); with -o OUT the whole project is copied into OUT with the
annotations in. The source files are never modified. 'gshape check' on the
annotated copy proves what it proved before and checks the annotations at
run time where it cannot prove them (docs/annotations.md).

options:
  -o, --output OUT         write the annotated copy of the project into OUT
                           (not inside PATH) instead of printing a diff
  -h, --help               show this help

exit status: 0 done, 2 usage or I/O error

example:
  gshape annotate model.py
  gshape annotate src/ -o annotated/ && gshape check annotated/
)",
      {{"output", 'o', true}},
      false,
      run_annotate};
  return command;
}

}  // namespace gshape::cli
