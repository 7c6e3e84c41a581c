#include "cli/constraint_text.h"

#include <initializer_list>
#include <string_view>

namespace gshape::cli {

using gradual::CExpr;
using gradual::COp;

namespace {

// Python's binding strength, loosest first: a child binding looser than its
// parent gets parentheses.
enum Level { kTernary = 0, kOr, kAnd, kNot, kCompare, kSum, kProduct, kUnary, kAtom };

// Joins pieces by appending (GCC 12 warns wrongly, -Wrestrict, about
// `"text" + std::string(...)`, which inserts at the front).
std::string cat(std::initializer_list<std::string_view> pieces) {
  std::string out;
  for (std::string_view p : pieces) out += p;
  return out;
}

struct Rendered {
  std::string text;
  Level level;
};

class Printer {
 public:
  explicit Printer(const std::vector<std::string>& names) : names_(names) {}

  Rendered print(const CExpr& e) {
    if (!e) return {"?", kAtom};
    switch (e->op) {
      case COp::Int: return {std::to_string(e->value), e->value < 0 ? kUnary : kAtom};
      case COp::True: return {"True", kAtom};
      case COp::False: return {"False", kAtom};
      case COp::Size: return {cat({name(e->slot), ".size(", std::to_string(e->value), ")"}), kAtom};
      case COp::Rank: return {cat({name(e->slot), ".dim()"}), kAtom};
      case COp::Numel: return {cat({name(e->slot), ".numel()"}), kAtom};
      case COp::IntOf: return {name(e->slot), kAtom};
      case COp::Len: return {cat({"len(", name(e->slot), ")"}), kAtom};
      case COp::Item: return {cat({name(e->slot), "[", std::to_string(e->value), "]"}), kAtom};
      case COp::Attr: return {cat({name(e->slot), ".", e->name}), kAtom};
      case COp::Opaque: return {e->name.empty() ? std::string("<unknown>") : e->name, kAtom};
      case COp::Add: return infix(e, " + ", kSum);
      case COp::Sub: return infix(e, " - ", kSum);
      case COp::Mul: return infix(e, " * ", kProduct);
      case COp::FloorDiv: return infix(e, " // ", kProduct);
      case COp::Mod: return infix(e, " % ", kProduct);
      case COp::Eq: return infix(e, " == ", kCompare);
      case COp::Ne: return infix(e, " != ", kCompare);
      case COp::Lt: return infix(e, " < ", kCompare);
      case COp::Le: return infix(e, " <= ", kCompare);
      case COp::Gt: return infix(e, " > ", kCompare);
      case COp::Ge: return infix(e, " >= ", kCompare);
      case COp::And:
        if (e->args.empty()) return {"True", kAtom};
        return infix(e, " and ", kAnd);
      case COp::Or:
        if (e->args.empty()) return {"False", kAtom};
        return infix(e, " or ", kOr);
      case COp::Not: return {cat({"not ", operand(e, 0, kNot)}), kNot};
      case COp::Neg: return {cat({"-", operand(e, 0, kUnary)}), kUnary};
      case COp::Min: return call("min", e);
      case COp::Max: return call("max", e);
      case COp::Abs: return call("abs", e);
      case COp::Ite:
        return {cat({operand(e, 1, kOr), " if ", operand(e, 0, kOr), " else ", operand(e, 2, kTernary)}), kTernary};
    }
    return {"?", kAtom};
  }

 private:
  std::string name(int slot) const {
    if (slot >= 0 && static_cast<std::size_t>(slot) < names_.size() && !names_[slot].empty()) return names_[slot];
    return cat({"operand ", std::to_string(slot)});
  }

  // Argument `i` printed for a context that binds at `level`.
  std::string operand(const CExpr& e, std::size_t i, Level level) {
    if (i >= e->args.size()) return "?";
    Rendered r = print(e->args[i]);
    return r.level < level ? cat({"(", r.text, ")"}) : r.text;
  }

  Rendered infix(const CExpr& e, const char* op, Level level) {
    std::string text;
    for (std::size_t i = 0; i < e->args.size(); ++i) {
      // Left-associative: a right operand at the same level needs parentheses (a - (b - c)).
      Level needed = (i == 0 || level == kAnd || level == kOr) ? level : static_cast<Level>(level + 1);
      if (level == kCompare) needed = kSum;  // no chained comparisons
      if (i) text += op;
      text += operand(e, i, needed);
    }
    return {text, level};
  }

  Rendered call(const char* function, const CExpr& e) {
    std::string text = cat({function, "("});
    for (std::size_t i = 0; i < e->args.size(); ++i) {
      if (i) text += ", ";
      text += operand(e, i, kTernary);
    }
    text += ")";
    return {text, kAtom};
  }

  const std::vector<std::string>& names_;
};

}  // namespace

std::string readable_constraint(const CExpr& e, const std::vector<std::string>& slot_names) {
  return Printer(slot_names).print(e).text;
}

std::string readable_constraint(const std::string& sexpr, const std::vector<std::string>& slot_names) {
  std::string error;
  CExpr e = gradual::parse_sexpr(sexpr, &error);
  return e ? readable_constraint(e, slot_names) : sexpr;
}

}  // namespace gshape::cli
