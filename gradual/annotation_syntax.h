// Shape annotations as written in Python source: which annotations are
// jaxtyping shapes (`Float[Tensor, "b c"]`, `Int[torch.Tensor, "n"]`, and the
// same inside a string), the checks an annotated function gets (its entry,
// its returns, its annotated assignments), and where its entry check goes.
// Read by the analysis (facts and obligations) and by the rewriter (the
// run-time checks), so both see the same boundaries.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/ir.h"
#include "gradual/annotation_pattern.h"

namespace gshape::gradual {

// An annotation: not a shape (a plain type, `Tensor`, `int`), a shape, or
// one that looks like a shape but cannot be read (`error`).
struct ShapeAnnotation {
  bool is_shape = false;
  TensorPattern pattern;
  std::string error;
};
ShapeAnnotation read_shape_annotation(const ir::Expr* annotation);

// Where the entry check of an annotated function goes, without adding a line:
// before its first statement when that is a simple statement, else around
// the first expression the statement evaluates (an `if` test, a `for`
// iterable, a `with` item).
struct EntryPlacement {
  enum class Form : uint8_t { None, Statement, Expression };
  Form form = Form::None;
  uint32_t offset = 0;              // Statement: where the check goes
  const ir::Expr* expr = nullptr;   // Expression: what it wraps
  std::string problem;              // None: why no check can go there
};

struct AnnotatedParam {
  std::size_t index = 0;  // in def->params
  std::string name;
  TensorPattern pattern;
};

// The checks of one function.
struct FunctionAnnotations {
  std::string function;  // the def's name, as messages say it
  std::vector<AnnotatedParam> params;  // annotated parameters, in order
  std::optional<TensorPattern> returns;
  EntryPlacement entry;
  // Diagnostics: annotations that look like shapes but cannot be read, and
  // parameter annotations left unused because no entry check can go in.
  std::vector<std::pair<SourceLoc, std::string>> problems;

  bool has_entry() const { return !params.empty(); }
  // The entry check: every annotated parameter, checked (slots in order).
  std::string entry_rule() const;
  // A `return`'s check: slot 0 the returned value, then the parameters at
  // entry (given) when the entry is checked.
  std::string return_rule() const;
  // An annotated assignment's check, same layout as a return's.
  std::string local_rule(const std::string& target, const TensorPattern& pattern) const;

};

// How an annotated assignment's target is named in messages: `h`,
// `self.h`, or "the annotated value".
std::string annotated_target(const ir::Expr* target);

// The annotations of `def`, or nullopt when it has no shape annotation at
// all. Parameter annotations are dropped (with a problem) when the function
// has no place for an entry check: a fact inside would go unchecked.
std::optional<FunctionAnnotations> function_annotations(const ir::FunctionDef& def);

// The boundaries shape annotations put in a module: each annotated
// function's entry, the returns and annotated assignments checked against an
// annotation (with the rule each is checked by), and the annotations that
// look like shapes but cannot be used (warnings).
struct AnnotatedStatements {
  struct Entry {
    const ir::FunctionDef* def;
    FunctionAnnotations annotations;
  };
  struct Checked {
    const ir::Stmt* stmt;
    const ir::Expr* value;
    std::string rule;
    int64_t reads_entry_of = -1;  // the enclosing def's offset when its entry is checked
  };
  std::vector<Entry> entries;
  std::vector<Checked> checked;
  std::vector<std::pair<SourceLoc, std::string>> problems;
};
AnnotatedStatements annotated_statements(const ir::Module& module);

}  // namespace gshape::gradual
