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
// "operator.neg", "operator.pos", "operator.invert"; empty for `not`.
std::string unary_operator_rule(ir::UnaryOpKind op);
// `a, b, c = value` (no starred name): "operator.unpack3", the count in the
// name; empty beyond kMaxUnpacked names.
constexpr int kMaxUnpacked = 16;
std::string unpack_rule(std::size_t names);

}  // namespace gshape::gradual
