// The operator-rule table: one entry per qualified name an op is called as
// ("torch.matmul", "Tensor.view", "operator.matmul", "torch.nn.Linear",
// "torch.nn.Linear.forward"), each a signature and a free function.
//
// Adding a rule is two lines in a rules_*.cpp registration function:
//   reg.add("torch.cumsum", "input, dim, *, dtype=None", rule_cumsum);
//   reg.add("Tensor.cumsum", "input, dim, *, dtype=None", rule_cumsum);
// Aliases (method and function forms, reshape/torch.reshape) share one function.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gradual/call.h"
#include "gradual/obligation.h"
#include "gradual/rule_context.h"
#include "gradual/signature.h"
#include "gradual/discharger.h"

namespace gshape::gradual {

// A rule: reads its arguments from the context, emits obligations through
// ctx.require, returns the result value (a tuple for several results).
using RuleFn = Value (*)(RuleContext& ctx);

struct Rule {
  std::string name;
  Signature signature;
  RuleFn fn = nullptr;
  // Checks only: the interpreter applies it for its obligations and models
  // the value itself (indexing, size queries, datasets); its result is unknown.
  bool checks_only = false;
};

class RuleRegistry {
 public:
  // Registers `fn` under `name` with a Python-style signature. Re-adding a
  // name replaces the earlier entry (tests may override a rule).
  void add(const std::string& name, std::string_view signature, RuleFn fn);
  // A check-only rule (Rule::checks_only).
  void add_check(const std::string& name, std::string_view signature, RuleFn fn);
  const Rule* find(std::string_view name) const;
  std::vector<const Rule*> all() const;
  std::size_t size() const { return rules_.size(); }

  // Every built-in rule (built once, on first use).
  static const RuleRegistry& builtin();

 private:
  std::map<std::string, Rule, std::less<>> rules_;
};

struct RuleResult {
  Value value;                  // Unknown when the call is not modelled
  bool modelled = true;         // false: the rule gave up (see note)
  std::string note;             // why not modelled (binding error, unsupported form)
  std::vector<int> obligations; // ids in the obligation list, in emission order
  bool refuted = false;         // an obligation was refuted: a static error here
  std::vector<Advice> advice;   // warnings that are no obligation (RuleContext::advise)
};

// In a project that uses the channels-last memory format, a result of rank
// 4 or more (or unknown) computed from a tensor may be laid out channels-last:
// convolutions, norms, pools, cat and element-wise ops propagate it, and a
// module converted by `.to(memory_format=...)` produces it from a contiguous
// input. Such a result is not known to be contiguous (view_c6 is checked).
Value channels_last_layout(const std::string& name, const CallSite& call, const Value& result);

// Binds the call to the rule's signature, runs the rule, and discharges its
// obligations with `solver` (appending them to `obligations`). Never throws:
// a call the rule does not model yields an unknown value and no error.
RuleResult apply_rule(const Rule& rule, const CallSite& call, Discharger& solver, std::vector<Obligation>& obligations);

}  // namespace gshape::gradual
