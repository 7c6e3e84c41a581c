// What the rewriter must know about each expression of a module before it
// wraps one: where it is, whether it is stored to rather than read, whether
// Python needs parentheses around it inside a call, and when it is evaluated.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "frontend/ir.h"

namespace gshape::codegen {

// How the expression is used at its place in the program.
enum class ExprRole : uint8_t {
  Load,       // read: can be routed through a pass-through call
  Store,      // an assignment, for, with, comprehension or walrus target
  AugTarget,  // the target of `x += y`: read and then stored
  Delete,     // a `del` target
};

struct ExprInfo {
  const ir::Expr* node = nullptr;
  uint32_t begin = 0;
  uint32_t end = 0;
  // Position in Python's evaluation order: a node's rank is greater than the
  // ranks of everything evaluated before it completes (its operands included).
  uint32_t eval_rank = 0;
  ExprRole role = ExprRole::Load;
  // Inside `{expr=}` of an f-string: the text of the expression is printed,
  // so it cannot change.
  bool in_self_documenting_fstring = false;
  // Inside an annotation: depending on where it is and on `from __future__
  // import annotations`, Python never evaluates it or keeps its text.
  bool in_annotation = false;
  // `f(x for x in y)`: the generator's parentheses are the call's own.
  bool is_call_generator_argument = false;
  // A slice (`a:b`), or an index tuple holding one (`x[:, t]`'s `:, t`):
  // slices exist only inside a subscript, so there is no value to wrap.
  bool is_slice = false;
  // Python needs parentheses around it as a call argument (a tuple, a yield;
  // also a walrus, a lambda, a conditional expression, for clarity).
  bool needs_parentheses = false;
  // For ExprRole::AugTarget: the statement's value expression.
  const ir::Expr* aug_value = nullptr;
};

class ExpressionIndex {
 public:
  explicit ExpressionIndex(const ir::Module& module);

  // The outermost expression spanning exactly [begin, end), or nullptr. A
  // keyword argument (`dim=1`), a `*args`/`**kw` argument or a starred
  // element (`*a`) resolves to the value it passes.
  const ExprInfo* find(uint32_t begin, uint32_t end) const;
  std::size_t size() const { return by_range_.size(); }
  // Start offsets of every call, sorted (code that may run user functions).
  const std::vector<uint32_t>& call_begins() const { return call_begins_; }
  // Every call, binary and unary operator (`not` included: it converts its
  // operand to bool), single comparison of values, subscript read without a
  // slice in its index, augmented assignment statement, unpacking
  // assignment or `for` target, and truth test (if, while, assert, `a if t
  // else b`) that may test a tensor, in evaluation order: the places a
  // run-time check may go (codegen/plan.h).
  const std::vector<const ir::Node*>& sites() const { return sites_; }
  // The byte ranges of the expressions the builder cut at its depth limit
  // (ir::OpaqueExpr::too_deep), in no particular order.
  const std::vector<std::pair<uint32_t, uint32_t>>& too_deep() const { return too_deep_; }

 private:
  friend class IndexBuilder;
  static uint64_t key(uint32_t begin, uint32_t end) { return (uint64_t{begin} << 32) | end; }
  std::unordered_map<uint64_t, ExprInfo> by_range_;
  std::unordered_map<uint64_t, uint64_t> aliases_;  // argument range → value range
  std::vector<uint32_t> call_begins_;
  std::vector<const ir::Node*> sites_;
  std::vector<std::pair<uint32_t, uint32_t>> too_deep_;
};

}  // namespace gshape::codegen
