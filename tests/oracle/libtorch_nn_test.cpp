// The libtorch nn oracle: the nn rules' functional forms (and the recurrent
// modules) against the real ATen/libtorch C++ operators, on 240 seeded random
// cases per suite, many invalid near the boundaries. The rule must refute an
// obligation if and only if the C++ operator throws, and otherwise be
// modelled, defer nothing (every input is a constant) and give the same
// result shapes. A case that reaches a check only PyTorch's Python layer
// makes (AtenOutcome::python_only) is not compared here (the Python nn
// oracle, nn_oracle_test.cpp, covers it): another case is drawn in its place
// and the suite prints how many there were.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "gradual/rule_registry.h"
#include "libtorch_nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

using gradual::Dim;
using gradual::Obligation;
using gradual::Operand;
using gradual::Value;

constexpr int kCases = 240;
constexpr int kMaxDraws = 4 * kCases;  // python-only cases are redrawn, up to this many draws in all

// ------------------------------------------------------------------ the rule side (as nn_oracle_test.cpp)

Operand operand_of(const NArg& a, int& next_slot) {
  using K = NArg::Kind;
  switch (a.kind) {
    case K::Tensor:
    case K::LongTensor:
    case K::BoolTensor: return Operand(Value::tensor(gradual::Shape::of_constants(a.shape)), next_slot++);
    case K::Int: return Operand(Value::integer(Dim(a.i)), next_slot++);
    case K::Float: return Operand(Value::floating(a.f), next_slot++);
    case K::Bool: return Operand(Value::boolean(gradual::Pred(a.b)), next_slot++);
    case K::None: return Operand(Value::none(), next_slot++);
    case K::Str: return Operand(Value::string(a.s), next_slot++);
    case K::Tuple: {
      Operand tuple;
      tuple.slot = next_slot++;
      std::vector<Value> items;
      for (const NArg& item : a.items) {
        Operand e = operand_of(item, next_slot);
        items.push_back(e.value);
        tuple.elements.push_back(std::move(e));
      }
      tuple.value = Value::tuple(std::move(items));
      return tuple;
    }
  }
  return Operand();
}

struct RuleOutcome {
  bool modelled = true;
  bool refuted = false;
  bool deferred = false;
  std::string note;
  std::vector<std::optional<std::vector<int64_t>>> shapes;
  bool constant_result = true;
};

void flatten(const Value& v, RuleOutcome& o) {
  if (v.is_tensor()) {
    auto sizes = v.shape().constant_sizes();
    if (!sizes) o.constant_result = false;
    o.shapes.emplace_back(sizes.value_or(std::vector<int64_t>{}));
  } else if (v.is_none()) {
    o.shapes.emplace_back(std::nullopt);
  } else if (v.is_sequence() && v.items()) {
    for (const Value& item : *v.items()) flatten(item, o);
  } else {
    o.constant_result = false;
  }
}

gradual::RuleResult apply(const std::string& key, gradual::CallSite site, gradual::Solver& solver, RuleOutcome& o) {
  std::vector<Obligation> obs;
  const gradual::Rule* rule = gradual::RuleRegistry::builtin().find(key);
  if (!rule) {
    o.modelled = false;
    o.note = "no rule " + key;
    return {};
  }
  site.name = key;
  gradual::RuleResult r = gradual::apply_rule(*rule, site, solver, obs);
  if (!r.modelled) {
    o.modelled = false;
    o.note = key + " gave up: " + r.note;
  }
  for (int id : r.obligations) {
    const Obligation& ob = obs[static_cast<std::size_t>(id)];
    if (ob.status == gradual::Status::Refuted) {
      if (!o.refuted) o.note = ob.tag + ": " + ob.render_message();
      o.refuted = true;
    }
    if (ob.status == gradual::Status::Deferred) {
      o.deferred = true;
      if (o.note.empty()) o.note = "deferred " + ob.tag + ": " + ob.constraint.pred().str();
    }
  }
  return r;
}

void add_call(gradual::CallSite& site, const NCall& call, int& slot) {
  for (const NArg& a : call.args) site.positional.push_back(operand_of(a, slot));
  for (const auto& [k, v] : call.kwargs) site.keywords.emplace_back(k, operand_of(v, slot));
}

// A function's rule, or a module's construction then forward rule (the
// module in training mode, as PyTorch builds it and as the runner calls
// the recurrent operators).
RuleOutcome run_rules(const NSuite& suite, const NCase& c, gradual::Solver& solver) {
  RuleOutcome o;
  gradual::CallSite site;
  int slot = 0;
  if (!suite.module()) {
    add_call(site, c.call, slot);
    gradual::RuleResult r = apply(suite.rule, site, solver, o);
    if (o.modelled && !o.refuted) flatten(r.value, o);
    return o;
  }
  add_call(site, c.init, slot);
  gradual::RuleResult made = apply(suite.rule, site, solver, o);
  if (!o.modelled || o.refuted) return o;
  if (!made.value.is_object() || !made.value.as_object()) {
    o.modelled = false;
    o.note = "construction gave no module";
    return o;
  }
  made.value.as_object()->attributes["training"] = Value::boolean(gradual::Pred(true));
  gradual::CallSite fwd;
  slot = 0;
  fwd.positional.push_back(Operand(made.value, slot++));
  add_call(fwd, c.call, slot);
  gradual::RuleResult r = apply(suite.rule + ".forward", fwd, solver, o);
  if (o.modelled && !o.refuted) flatten(r.value, o);
  return o;
}

// ------------------------------------------------------------------ the suites

uint64_t seed_of(const NSuite& s) { return std::hash<std::string>()(s.rule + "/libtorch/" + s.target) % 100003 + 31; }

std::string text_of(const NSuite& suite, const NCase& c) {
  std::string text = suite.target;
  if (suite.module()) text += "(" + c.init.python() + ")";
  return text + "(" + c.call.python() + ")";
}

struct SuiteName {
  std::string operator()(const ::testing::TestParamInfo<NSuite>& info) const {
    std::string name = info.param.rule;
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
  }
};

class NnLibtorchOracle : public ::testing::TestWithParam<NSuite> {};

TEST_P(NnLibtorchOracle, RuleAgreesWithLibtorch) {
  const NSuite& suite = GetParam();
  auto start = std::chrono::steady_clock::now();
  Rng rng(seed_of(suite));
  gradual::Solver solver;  // all inputs are constants: nothing reaches Z3, no fact accumulates
  int compared = 0, agree = 0, errors = 0, python_only = 0, draws = 0;
  std::string python_only_example;
  std::vector<std::string> disagreements;
  while (compared < kCases && draws < kMaxDraws) {
    ++draws;
    NCase c = suite.gen(rng);
    AtenOutcome aten = run_aten(suite.target, c);
    if (aten.python_only) {
      ++python_only;
      if (python_only_example.empty()) python_only_example = text_of(suite, c) + ": " + aten.why;
      continue;
    }
    ++compared;
    const NOutcome& torch = aten.outcome;
    RuleOutcome rule = run_rules(suite, c, solver);
    std::string problem;
    if (torch.threw) {
      ++errors;
      if (!rule.refuted)
        problem = "libtorch throws (" + torch.error + ") but the rule " +
                  (rule.modelled ? "refutes nothing" + (rule.note.empty() ? "" : " [" + rule.note + "]")
                                 : "gave up: " + rule.note);
    } else if (rule.refuted) {
      problem = "libtorch succeeds (" + shapes_str(torch.shapes) + ") but the rule refutes " + rule.note;
    } else if (!rule.modelled) {
      problem = "the rule gave up: " + rule.note;
    } else if (rule.deferred) {
      problem = "the rule defers on constant inputs: " + rule.note;
    } else if (!rule.constant_result || rule.shapes != torch.shapes) {
      problem = "shapes differ: rule " + shapes_str(rule.shapes) + (rule.constant_result ? "" : " (not all constant)") +
                " vs libtorch " + shapes_str(torch.shapes);
    }
    if (problem.empty()) {
      ++agree;
    } else if (disagreements.size() < 8) {
      disagreements.push_back(text_of(suite, c) + ": " + problem);
    }
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ nn libtorch ] %-44s %d cases, %d agree, %d libtorch errors, %d python-only redrawn (%.0f ms)\n",
              suite.rule.c_str(), compared, agree, errors, python_only, ms);
  for (const std::string& d : disagreements) ADD_FAILURE() << d;
  EXPECT_EQ(compared, kCases) << "too many python-only cases, e.g. " << python_only_example;
  EXPECT_EQ(agree, compared);
  if (suite.can_fail) {
    EXPECT_GT(errors, kCases / 50) << "the generator should reach the error boundary";
    EXPECT_LT(errors, kCases - kCases / 5) << "the generator should mostly produce valid calls too";
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, NnLibtorchOracle, ::testing::ValuesIn(aten_suites()), SuiteName());

}  // namespace
}  // namespace gshape::oracle::nn
