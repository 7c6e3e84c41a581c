// The rule side of both nn oracles: NArg → operands, the construction and
// forward rules, their outcome, and its comparison with the reference.
#include "nn_rule_side.h"

#include <cctype>
#include <optional>
#include <vector>

#include "gradual/rule_registry.h"
#include "gradual/solver.h"

namespace gshape::oracle::nn {
namespace {

using gradual::Dim;
using gradual::Obligation;
using gradual::Operand;
using gradual::Value;

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
  std::string note;  // why not modelled / which obligation was refuted or deferred
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

// A function's rule, or a module's construction then forward rule.
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
  // PyTorch builds modules in training mode (and the libtorch runner calls
  // the recurrent operators so); the analysis knows the mode only when the
  // program says it, the oracle does
  made.value.as_object()->attributes["training"] = Value::boolean(gradual::Pred(true));
  gradual::CallSite fwd;
  slot = 0;
  fwd.positional.push_back(Operand(made.value, slot++));
  add_call(fwd, c.call, slot);
  gradual::RuleResult r = apply(suite.rule + ".forward", fwd, solver, o);
  if (o.modelled && !o.refuted) flatten(r.value, o);
  return o;
}

}  // namespace

std::string rule_disagreement(const NSuite& suite, const NCase& c, const NOutcome& reference, const Reference& who,
                              gradual::Solver& solver) {
  RuleOutcome rule = run_rules(suite, c, solver);
  if (reference.threw) {
    if (rule.refuted) return "";
    return who.name + " " + who.fails + " (" + reference.error + ") but the rule " +
           (rule.modelled ? "refutes nothing" + (rule.note.empty() ? "" : " [" + rule.note + "]")
                          : "gave up: " + rule.note);
  }
  if (rule.refuted) return who.name + " succeeds (" + shapes_str(reference.shapes) + ") but the rule refutes " + rule.note;
  if (!rule.modelled) return "the rule gave up: " + rule.note;
  if (rule.deferred) return "the rule defers on constant inputs: " + rule.note;
  if (!rule.constant_result || rule.shapes != reference.shapes)
    return "shapes differ: rule " + shapes_str(rule.shapes) + (rule.constant_result ? "" : " (not all constant)") + " vs " +
           who.name + " " + shapes_str(reference.shapes);
  return "";
}

std::string case_text(const NSuite& suite, const NCase& c) {
  std::string text = suite.target;
  if (suite.module()) text += "(" + c.init.python() + ")";
  return text + "(" + c.call.python() + ")";
}

std::string test_name(const NSuite& suite) {
  std::string name = suite.rule;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

}  // namespace gshape::oracle::nn
