// The nn oracle: every nn rule (module construction and forward, functional
// forms, losses) against PyTorch 1.13 itself on at least 200 seeded random
// cases per suite, many invalid near the boundaries. PyTorch runs in one
// /usr/bin/python3 process for all suites (the modules' Python code is part
// of their semantics: constructor checks, RNN hidden-state checks,
// F.multi_head_attention_forward, F.interpolate). The rules must refute an
// obligation if and only if PyTorch raises (at construction or at the
// call), and otherwise be modelled, defer nothing (every input is a
// constant) and give the same result shapes.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "gradual/rule_registry.h"
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

using gradual::Dim;
using gradual::Obligation;
using gradual::Operand;
using gradual::Value;

constexpr int kCases = 240;

// ------------------------------------------------------------------ the rule side

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
      // a tuple display written in the call: each element has its own slot
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

// Applies one rule; records refuted and deferred obligations in `o`.
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
  // PyTorch builds modules in training mode; the analysis knows the mode
  // only when the program says it, the oracle does
  made.value.as_object()->attributes["training"] = Value::boolean(gradual::Pred(true));
  gradual::CallSite fwd;
  slot = 0;
  fwd.positional.push_back(Operand(made.value, slot++));
  add_call(fwd, c.call, slot);
  gradual::RuleResult r = apply(suite.rule + ".forward", fwd, solver, o);
  if (o.modelled && !o.refuted) flatten(r.value, o);
  return o;
}

// ------------------------------------------------------------------ all suites, one Python run

std::vector<NSuite> all_suites() {
  std::vector<NSuite> out;
  for (auto family : {conv_suites, pool_suites, norm_suites, layer_suites, resample_suites, recurrent_suites, attention_suites, loss_suites}) {
    for (NSuite& s : family()) out.push_back(std::move(s));
  }
  return out;
}

std::string key_of(const NSuite& s) { return s.target + "|" + s.rule; }
uint64_t seed_of(const NSuite& s) { return std::hash<std::string>()(s.rule + "/" + s.target) % 100003 + 29; }

struct SuiteRun {
  std::vector<NCase> cases;
  std::vector<NOutcome> torch;
};

// Generates every suite's cases and runs them all through PyTorch once.
const std::map<std::string, SuiteRun>& torch_runs(std::string* error) {
  static std::map<std::string, SuiteRun> runs;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::pair<std::string, NCase>> flat;
    std::vector<NSuite> suites = all_suites();
    for (const NSuite& s : suites) {
      Rng rng(seed_of(s));
      SuiteRun& run = runs[key_of(s)];
      for (int i = 0; i < kCases; ++i) {
        run.cases.push_back(s.gen(rng));
        flat.emplace_back(s.target, run.cases.back());
      }
    }
    std::vector<NOutcome> outcomes = run_python(flat, &failure);
    std::size_t k = 0;
    for (const NSuite& s : suites) {
      SuiteRun& run = runs[key_of(s)];
      for (int i = 0; i < kCases && k < outcomes.size(); ++i) run.torch.push_back(outcomes[k++]);
    }
  });
  *error = failure;
  return runs;
}

struct SuiteName {
  std::string operator()(const ::testing::TestParamInfo<NSuite>& info) const {
    std::string name = info.param.rule;
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
  }
};

class NnOracle : public ::testing::TestWithParam<NSuite> {};

TEST_P(NnOracle, RuleAgreesWithPyTorch) {
  const NSuite& suite = GetParam();
  std::string error;
  const auto& runs = torch_runs(&error);
  ASSERT_TRUE(error.empty()) << error;
  const SuiteRun& run = runs.at(key_of(suite));
  ASSERT_EQ(run.torch.size(), run.cases.size());
  int agree = 0, errors = 0;
  std::vector<std::string> disagreements;
  gradual::Solver solver;  // all inputs are constants: nothing reaches Z3, no fact accumulates
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const NCase& c = run.cases[i];
    const NOutcome& torch = run.torch[i];
    RuleOutcome rule = run_rules(suite, c, solver);
    std::string problem;
    if (torch.threw) {
      ++errors;
      if (!rule.refuted)
        problem = "PyTorch raises (" + torch.error + ") but the rule " +
                  (rule.modelled ? "refutes nothing" + (rule.note.empty() ? "" : " [" + rule.note + "]")
                                 : "gave up: " + rule.note);
    } else if (rule.refuted) {
      problem = "PyTorch succeeds (" + shapes_str(torch.shapes) + ") but the rule refutes " + rule.note;
    } else if (!rule.modelled) {
      problem = "the rule gave up: " + rule.note;
    } else if (rule.deferred) {
      problem = "the rule defers on constant inputs: " + rule.note;
    } else if (!rule.constant_result || rule.shapes != torch.shapes) {
      problem = "shapes differ: rule " + shapes_str(rule.shapes) + (rule.constant_result ? "" : " (not all constant)") +
                " vs PyTorch " + shapes_str(torch.shapes);
    }
    if (problem.empty()) {
      ++agree;
    } else if (disagreements.size() < 8) {
      std::string text = suite.target;
      if (suite.module()) text += "(" + c.init.python() + ")";
      disagreements.push_back(text + "(" + c.call.python() + "): " + problem);
    }
  }
  std::printf("[ nn oracle ] %-44s %d cases, %d agree, %d PyTorch errors\n", suite.rule.c_str(),
              static_cast<int>(run.cases.size()), agree, errors);
  for (const std::string& d : disagreements) ADD_FAILURE() << d;
  EXPECT_EQ(agree, static_cast<int>(run.cases.size()));
  if (suite.can_fail) {
    EXPECT_GT(errors, kCases / 50) << "the generator should reach the error boundary";
    EXPECT_LT(errors, kCases - kCases / 5) << "the generator should mostly produce valid calls too";
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, NnOracle, ::testing::ValuesIn(all_suites()), SuiteName());

}  // namespace
}  // namespace gshape::oracle::nn
