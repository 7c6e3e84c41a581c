// Every obligation a rule emits on symbolic inputs is well-formed for the
// runtime: the constraint parses back to itself, follows the runtime's sort
// discipline (integers vs conditions, checked at parse time there), and the
// message template's holes are valid expressions or `{shape K}`.
#include <gtest/gtest.h>

#include "gradual/rule_registry.h"
#include "gradual/solver.h"
#include "operand_builders.h"

namespace gshape::gradual {
namespace {

enum class Sort { Int, Cond, Bad };

// The runtime's typing: arithmetic and < <= > >= take integers; and/or/not
// and ite's condition take conditions; == and != compare one sort; ite's
// branches share a sort.
Sort sort_of(const CExpr& e) {
  auto all = [&](Sort want) {
    for (const CExpr& a : e->args)
      if (sort_of(a) != want) return false;
    return true;
  };
  switch (e->op) {
    case COp::Int: case COp::Size: case COp::Rank: case COp::Numel: case COp::IntOf: case COp::Len:
    case COp::Item: case COp::Attr: case COp::Opaque:
      return Sort::Int;
    case COp::True: case COp::False: return Sort::Cond;
    case COp::Add: case COp::Sub: case COp::Mul: case COp::FloorDiv: case COp::Mod: case COp::Min: case COp::Max:
    case COp::Neg: case COp::Abs:
      return all(Sort::Int) ? Sort::Int : Sort::Bad;
    case COp::Lt: case COp::Le: case COp::Gt: case COp::Ge: return all(Sort::Int) ? Sort::Cond : Sort::Bad;
    case COp::Eq: case COp::Ne: {
      Sort a = sort_of(e->args[0]), b = sort_of(e->args[1]);
      return a == b && a != Sort::Bad ? Sort::Cond : Sort::Bad;
    }
    case COp::And: case COp::Or: case COp::Not: return all(Sort::Cond) ? Sort::Cond : Sort::Bad;
    case COp::Ite: {
      Sort c = sort_of(e->args[0]), a = sort_of(e->args[1]), b = sort_of(e->args[2]);
      return c == Sort::Cond && a == b ? a : Sort::Bad;
    }
  }
  return Sort::Bad;
}

// Checks each `{...}` hole of a runtime template.
void check_template(const std::string& t, const std::string& where) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '}') {
      ASSERT_TRUE(i + 1 < t.size() && t[i + 1] == '}') << where << ": lone '}' in " << t;
      ++i;
      continue;
    }
    if (t[i] != '{') continue;
    if (i + 1 < t.size() && t[i + 1] == '{') {
      ++i;
      continue;
    }
    std::size_t end = t.find('}', i);
    ASSERT_NE(end, std::string::npos) << where << ": unclosed hole in " << t;
    std::string hole = t.substr(i + 1, end - i - 1);
    if (hole.rfind("shape ", 0) != 0) {
      std::string error;
      CExpr e = parse_sexpr(hole, &error);
      ASSERT_TRUE(e) << where << ": hole {" << hole << "}: " << error;
      EXPECT_NE(sort_of(e), Sort::Bad) << where << ": hole {" << hole << "}";
    }
    i = end;
  }
}

using test_operands::I;
using test_operands::T;
Operand List(std::vector<Operand> items, int slot) {
  Operand op;
  std::vector<Value> values;
  for (const Operand& o : items) values.push_back(o.value);
  op.value = Value::list(values);
  op.elements = std::move(items);
  op.slot = slot;
  return op;
}

TEST(RuntimeForm, EveryObligationOnSymbolicInputsIsWellFormed) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), h = Dim::symbol("H"), k = Dim::symbol("K");
  Dim n = Dim::symbol("n", false), d = Dim::symbol("d", false);
  Shape x{b, c, h}, y{k, c}, u = Shape::unknown();
  const std::vector<std::pair<std::string, std::vector<Operand>>> calls = {
      {"Tensor.view", {T(x, 0), I(n, 1), I(-1, 2)}},
      {"Tensor.view", {T(u, 0), I(n, 1), I(d, 2)}},
      {"torch.reshape", {T(x, 0), List({I(n, 2), I(c, 3)}, 1)}},
      {"Tensor.view_as", {T(x, 0), T(y, 1)}},
      {"torch.flatten", {T(x, 0), I(d, 1), I(n, 2)}},
      {"Tensor.unflatten", {T(x, 0), I(1, 1), List({I(n, 3), I(-1, 4)}, 2)}},
      {"Tensor.permute", {T(x, 0), I(d, 1), I(0, 2), I(n, 3)}},
      {"torch.transpose", {T(u, 0), I(d, 1), I(2, 2)}},
      {"torch.t", {T(u, 0)}},
      {"Tensor.squeeze", {T(u, 0), I(d, 1)}},
      {"torch.unsqueeze", {T(x, 0), I(d, 1)}},
      {"Tensor.expand", {T(x, 0), I(n, 1), I(-1, 2), I(k, 3), I(d, 4)}},
      {"Tensor.expand_as", {T(x, 0), T(Shape{k, b, c, h}, 1)}},
      {"Tensor.repeat", {T(x, 0), I(n, 1), I(2, 2), I(d, 3)}},
      {"torch.cat", {List({T(x, 1), T(Shape{b, k, h}, 2), T(u, 3)}, 0), I(d, 4)}},
      {"torch.cat", {List({T(Shape{n}, 1), T(y, 2)}, 0), I(1, 3)}},
      {"torch.stack", {List({T(x, 1), T(Shape{b, k, h}, 2)}, 0), I(d, 3)}},
      {"torch.split", {T(x, 0), I(n, 1), I(1, 2)}},
      {"torch.split", {T(x, 0), List({I(n, 2), I(d, 3)}, 1), I(-1, 4)}},
      {"torch.chunk", {T(x, 0), I(n, 1), I(d, 2)}},
      {"torch.unbind", {T(u, 0), I(d, 1)}},
      {"torch.sum", {T(x, 0), List({I(d, 2), I(n, 3)}, 1)}},
      {"torch.max", {T(x, 0), I(d, 1)}},
      {"torch.max", {T(u, 0)}},
      {"torch.max", {T(x, 0), T(y, 1)}},
      {"torch.argmin", {T(u, 0), I(1, 1)}},
      {"torch.softmax", {T(x, 0), I(d, 1)}},
      {"operator.add", {T(x, 0), T(y, 1)}},
      {"operator.iadd", {T(x, 0), T(y, 1)}},
      {"torch.where", {T(x, 0), T(y, 1), T(Shape{h}, 2)}},
      {"Tensor.masked_fill", {T(x, 0), T(y, 1), T(u, 2)}},
      {"Tensor.masked_fill_", {T(x, 0), T(y, 1), T(u, 2)}},
      {"torch.clamp", {T(x, 0), T(y, 1)}},
      {"torch.matmul", {T(x, 0), T(y, 1)}},
      {"torch.matmul", {T(u, 0), T(u, 1)}},
      {"torch.mm", {T(u, 0), T(y, 1)}},
      {"torch.bmm", {T(x, 0), T(Shape{k, h, c}, 1)}},
      {"torch.addmm", {T(Shape{n}, 0), T(y, 1), T(Shape{c, h}, 2)}},
      {"torch.nn.functional.linear", {T(x, 0), T(Shape{k, h}, 1), T(Shape{n}, 2)}},
      {"torch.zeros", {I(n, 0), I(d, 1)}},
      {"torch.full", {List({I(n, 1)}, 0), Operand(Value::floating(1.0), 2)}},
      {"torch.arange", {I(n, 0), I(d, 1), I(k, 2)}},
      {"torch.range", {I(n, 0), I(d, 1)}},
      {"builtins.range", {I(n, 0), I(d, 1), I(k, 2)}},
      {"torch.eye", {I(n, 0), I(d, 1)}},
      {"torch.randint", {I(n, 0), I(d, 1), List({I(k, 3)}, 2)}},
      {"Tensor.new_full", {T(x, 0), List({I(n, 2)}, 1), Operand(Value::floating(1.0), 3)}},
  };
  std::vector<Obligation> obligations;
  std::size_t checked = 0, deferred = 0;
  for (const auto& [name, args] : calls) {
    Solver solver;  // one program point per call: the calls share symbols but not facts
    const Rule* rule = RuleRegistry::builtin().find(name);
    ASSERT_NE(rule, nullptr) << name;
    CallSite site;
    site.name = name;
    site.positional = args;
    RuleResult r = apply_rule(*rule, site, solver, obligations);
    EXPECT_TRUE(r.modelled) << name << ": " << r.note;
    EXPECT_FALSE(r.refuted) << name;  // symbols never make a static error here
    for (int id : r.obligations) {
      const Obligation& ob = obligations[static_cast<std::size_t>(id)];
      std::string where = name + " " + ob.tag;
      std::string text = ob.constraint_sexpr();
      std::string error;
      CExpr parsed = parse_sexpr(text, &error);
      ASSERT_TRUE(parsed) << where << ": " << text << ": " << error;
      EXPECT_EQ(to_sexpr(parsed), text) << where;
      EXPECT_EQ(sort_of(parsed), Sort::Cond) << where << ": " << text;
      check_template(ob.message_template(), where);
      for (const SlotInfo& s : ob.slots) EXPECT_FALSE(s.description.empty()) << where << " slot " << s.slot;
      ++checked;
      if (ob.status == Status::Deferred) ++deferred;
    }
  }
  EXPECT_GT(checked, 100u);
  EXPECT_GT(deferred, 40u);
}

}  // namespace
}  // namespace gshape::gradual
