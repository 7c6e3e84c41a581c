// The rule each Python operator is checked by when a tensor takes part:
// the interpreter applies it, the rewriter names it in the check table, so
// both agree on one name per operator.
#pragma once

#include <string>

#include "frontend/ir.h"

namespace gshape::gradual {

// "operator.add"; `x += y` gives "operator.iadd", or "operator.add" when the
// registry has no in-place rule. Empty when the registry has neither.
std::string binary_operator_rule(ir::BinOpKind op, bool in_place);
// "operator.lt" ... for == != < <= > >=; empty for `is` and `in`.
std::string comparison_rule(ir::CmpOpKind op);
// "operator.neg", "operator.pos", "operator.invert"; `not x` converts x to
// bool: "operator.truth".
std::string unary_operator_rule(ir::UnaryOpKind op);
// The truth test of `if`, `while`, `assert` and `a if test else b`:
// "operator.truth" (a tensor's truth needs exactly one element), empty for a
// test whose value is never a tensor (a constant, `not x`, `is`/`in` comparisons).
std::string truth_test_rule(const ir::Expr* test);
// `a, b, c = value` (no starred name): "operator.unpack3", the count in the
// name; empty beyond kMaxUnpacked names.
constexpr int kMaxUnpacked = 16;
std::string unpack_rule(std::size_t names);
// The same for an assignment's target: empty unless it is a tuple or list of
// names without a starred one.
std::string unpack_rule(const ir::Expr* target);
// `for a, b, c in items` (no starred name): "operator.iter_unpack3", checked
// once on the iterable (each item unpacks into that many values); empty
// beyond kMaxUnpacked names.
std::string iter_unpack_rule(std::size_t names);
// The same for a loop's target (as unpack_rule's).
std::string iter_unpack_rule(const ir::Expr* target);
// A tensor attribute whose read has a rule: "Tensor.mT" for `x.mT`, `x.mH`,
// `x.H` (they fail on some ranks) and "Tensor.T" (no requirement); empty
// for any other attribute. `checked`: only those with a requirement.
std::string tensor_attribute_rule(const std::string& attr, bool checked);

}  // namespace gshape::gradual
