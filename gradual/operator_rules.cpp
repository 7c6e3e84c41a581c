// Rule names of Python operators.
#include "gradual/operator_rules.h"

#include "gradual/rule_registry.h"

namespace gshape::gradual {

namespace {

std::string binary_name(ir::BinOpKind op, bool in_place) {
  std::string base;
  switch (op) {
    case ir::BinOpKind::Add: base = "add"; break;
    case ir::BinOpKind::Sub: base = "sub"; break;
    case ir::BinOpKind::Mult: base = "mul"; break;
    case ir::BinOpKind::MatMult: base = "matmul"; break;
    case ir::BinOpKind::Div: base = "truediv"; break;
    case ir::BinOpKind::FloorDiv: base = "floordiv"; break;
    case ir::BinOpKind::Mod: base = "mod"; break;
    case ir::BinOpKind::Pow: base = "pow"; break;
    case ir::BinOpKind::LShift: base = "lshift"; break;
    case ir::BinOpKind::RShift: base = "rshift"; break;
    case ir::BinOpKind::BitOr: base = in_place ? "or" : "or_"; break;
    case ir::BinOpKind::BitXor: base = "xor"; break;
    case ir::BinOpKind::BitAnd: base = in_place ? "and" : "and_"; break;
  }
  return "operator." + (in_place ? "i" + base : base);
}

std::string if_registered(std::string name) {
  return RuleRegistry::builtin().find(name) ? name : std::string();
}

}  // namespace

std::string binary_operator_rule(ir::BinOpKind op, bool in_place) {
  if (in_place) {
    std::string name = if_registered(binary_name(op, true));
    if (!name.empty()) return name;
  }
  return if_registered(binary_name(op, false));
}

std::string comparison_rule(ir::CmpOpKind op) {
  switch (op) {
    case ir::CmpOpKind::Eq: return if_registered("operator.eq");
    case ir::CmpOpKind::NotEq: return if_registered("operator.ne");
    case ir::CmpOpKind::Lt: return if_registered("operator.lt");
    case ir::CmpOpKind::LtE: return if_registered("operator.le");
    case ir::CmpOpKind::Gt: return if_registered("operator.gt");
    case ir::CmpOpKind::GtE: return if_registered("operator.ge");
    default: return {};
  }
}

std::string unary_operator_rule(ir::UnaryOpKind op) {
  switch (op) {
    case ir::UnaryOpKind::Neg: return if_registered("operator.neg");
    case ir::UnaryOpKind::Pos: return if_registered("operator.pos");
    case ir::UnaryOpKind::Invert: return if_registered("operator.invert");
    case ir::UnaryOpKind::Not: return {};
  }
  return {};
}

std::string unpack_rule(std::size_t names) {
  return names >= 1 && names <= static_cast<std::size_t>(kMaxUnpacked) ? "operator.unpack" + std::to_string(names)
                                                                        : std::string();
}

}  // namespace gshape::gradual
