// The rule table and rule application.
#include "gradual/rule_registry.h"

#include <stdexcept>

#include "gradual/rules.h"

namespace gshape::gradual {

void RuleRegistry::add(const std::string& name, std::string_view signature, RuleFn fn) {
  rules_[name] = Rule{name, Signature::parse(signature), fn};
}

const Rule* RuleRegistry::find(std::string_view name) const {
  auto it = rules_.find(name);
  return it == rules_.end() ? nullptr : &it->second;
}

std::vector<const Rule*> RuleRegistry::all() const {
  std::vector<const Rule*> out;
  for (const auto& [name, rule] : rules_) out.push_back(&rule);
  return out;
}

const RuleRegistry& RuleRegistry::builtin() {
  // Explicit registration calls (not static registrars): a static library
  // drops object files nothing references, and with them their registrars.
  static const RuleRegistry registry = [] {
    RuleRegistry r;
    register_creation_rules(r);
    register_shape_rules(r);
    register_join_rules(r);
    register_index_rules(r);
    register_reduction_rules(r);
    register_pointwise_rules(r);
    register_linalg_rules(r);
    register_module_rules(r);
    register_nn_conv_rules(r);
    register_nn_pool_rules(r);
    register_nn_norm_rules(r);
    register_nn_layer_rules(r);
    register_nn_resample_rules(r);
    register_nn_recurrent_rules(r);
    register_nn_attention_rules(r);
    register_nn_loss_rules(r);
    return r;
  }();
  return registry;
}

RuleResult apply_rule(const Rule& rule, const CallSite& call, Discharger& solver, std::vector<Obligation>& obligations) {
  RuleResult result;
  Binding binding = bind(rule.signature, call);
  if (!binding.error.empty()) {
    result.modelled = false;
    result.note = binding.error;
    return result;
  }
  RuleContext ctx(rule.name, call, std::move(binding), solver, obligations);
  try {
    result.value = rule.fn(ctx);
  } catch (const NotModelled& e) {
    result.modelled = false;
    result.note = e.what();
    result.value = Value::unknown();
  } catch (const std::overflow_error& e) {
    result.modelled = false;
    result.note = e.what();
    result.value = Value::unknown();
  }
  result.obligations = ctx.obligation_ids();
  result.refuted = ctx.any_refuted();
  return result;
}

}  // namespace gshape::gradual
