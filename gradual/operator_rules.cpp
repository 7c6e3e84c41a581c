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
    case ir::UnaryOpKind::Not: return if_registered("operator.truth");
  }
  return {};
}

std::string truth_test_rule(const ir::Expr* test) {
  if (!test) return {};
  switch (test->kind) {
    case ir::Kind::Constant: case ir::Kind::Lambda: case ir::Kind::FString:
    case ir::Kind::ListComp: case ir::Kind::DictComp: case ir::Kind::SetComp: case ir::Kind::GeneratorExp:
    case ir::Kind::Dict: case ir::Kind::Set:
    case ir::Kind::List: case ir::Kind::Tuple:
      return {};
    case ir::Kind::UnaryOp:
      if (ir::cast<ir::UnaryOp>(test)->op == ir::UnaryOpKind::Not) return {};  // the `not` is its own site
      break;
    case ir::Kind::Compare: {
      bool tensor_result = false;
      for (ir::CmpOpKind op : ir::cast<ir::Compare>(test)->ops) tensor_result = tensor_result || !comparison_rule(op).empty();
      if (!tensor_result) return {};  // `is`, `in`: a bool
      break;
    }
    default: break;
  }
  return if_registered("operator.truth");
}

std::string unpack_rule(std::size_t names) {
  return names >= 1 && names <= static_cast<std::size_t>(kMaxUnpacked) ? "operator.unpack" + std::to_string(names)
                                                                        : std::string();
}

namespace {
// The names a tuple or list target unpacks into; 0 for another target or one
// with a starred name (its split is not known).
std::size_t names_unpacked(const ir::Expr* target) {
  if (!(ir::isa<ir::Tuple>(target) || ir::isa<ir::List>(target))) return 0;
  const auto& elts = static_cast<const ir::SequenceExpr*>(target)->elts;
  for (const ir::Expr* e : elts)
    if (ir::isa<ir::Starred>(e)) return 0;
  return elts.size();
}
}  // namespace

std::string unpack_rule(const ir::Expr* target) {
  std::size_t names = names_unpacked(target);
  return names ? unpack_rule(names) : std::string();
}

std::string iter_unpack_rule(const ir::Expr* target) {
  std::size_t names = names_unpacked(target);
  return names ? iter_unpack_rule(names) : std::string();
}

std::string iter_unpack_rule(std::size_t names) {
  return names >= 1 && names <= static_cast<std::size_t>(kMaxUnpacked) ? "operator.iter_unpack" + std::to_string(names)
                                                                        : std::string();
}

std::string tensor_attribute_rule(const std::string& attr, bool checked) {
  if (attr == "mT" || attr == "mH" || attr == "H" || (attr == "T" && !checked)) return "Tensor." + attr;
  return {};
}

}  // namespace gshape::gradual
