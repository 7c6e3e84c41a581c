// Shape annotations in the analysis (docs/annotations.md): a parameter's
// annotation is an obligation at each call site and a fact inside the
// function (the rewriter checks it at the function's entry, whoever calls);
// a return annotation is an obligation at each `return`; an annotated
// assignment is an obligation at the assignment and a fact after it. One
// rule (rules_annotation.cpp) states them all, here and at run time.
#include <set>

#include "gradual/interp.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

const FunctionAnnotations* Interpreter::annotations_of(const FunctionDef* def) {
  if (!def) return nullptr;
  auto it = annotations_.find(def);
  if (it == annotations_.end()) {
    it = annotations_.emplace(def, function_annotations(*def)).first;  // its problems: analysis.cpp
  }
  return it->second ? &*it->second : nullptr;
}

void Interpreter::check_entry(const FunctionAnnotations& fa, std::vector<Value>& values,
                              const std::vector<SourceLoc>& origins, const Node* site, const SourceLoc& def_loc) {
  const Rule* rule = registry_.find(fa.entry_rule());
  if (!rule) return;
  // A visit without a caller (a function nobody calls) states nothing: the
  // parameters are what the annotations say.
  bool has_caller = site && !isa<FunctionDef>(site);
  CallSite call;
  call.name = rule->name;
  call.loc = has_caller ? site->loc : def_loc;
  // slot k is the k-th annotated parameter, as in the entry check that
  // checks these obligations at run time
  for (const AnnotatedParam& p : fa.params)
    call.positional.emplace_back(values[p.index], static_cast<int>(call.positional.size()));
  adapt_solver_limit();
  std::vector<Obligation> scratch;
  std::vector<Obligation>& out = has_caller ? raw_ : scratch;
  std::size_t first = out.size();
  RuleResult result = apply_rule(*rule, call, *solver_, out);
  if (has_caller) {
    // The call site itself needs no check for them: the entry check covers
    // every caller (codegen/plan.cpp).
    int evaluation = visit_of(site);
    raw_info_.resize(raw_.size());
    for (std::size_t i = first; i < raw_.size(); ++i) {
      raw_info_[i].context = context_;
      raw_info_[i].evaluation = evaluation;
    raw_info_[i].uncalled = in_uncalled_pass_;
      if (in_uncalled_pass_) {
        raw_info_[i].uncalled_root = uncalled_root_;
        raw_info_[i].uncalled_root_loc = uncalled_root_loc_;
      }
      if (raw_[i].status != Status::Refuted) continue;
      // where the offending arguments came from
      std::set<int> read;
      for (const SlotInfo& s : raw_[i].slots) read.insert(s.slot);
      for (int k : read) {
        if (k < 0 || static_cast<std::size_t>(k) >= fa.params.size()) continue;
        const AnnotatedParam& p = fa.params[static_cast<std::size_t>(k)];
        const Value& v = values[p.index];
        if (p.index < origins.size() && origins[p.index].valid() && v.is_tensor())
          raw_info_[i].notes.push_back({origins[p.index], p.name + " has shape " + v.shape().str() + " from here"});
      }
    }
  }
  bool refuted = result.refuted;
  if (refuted) {
    // the call stops at the entry check: inside, the parameters are what the
    // annotations say (no error downstream of this one)
    for (Operand& op : call.positional) op.value = Value::unknown();
    result = apply_rule(*rule, call, *solver_, scratch);
  }
  if (!result.modelled || !result.value.is_sequence()) return;
  std::optional<std::vector<Value>> refined = known_items(result.value, fa.params.size());
  if (!refined || refined->size() != fa.params.size()) return;
  // an argument of known rank stays itself (apply_rule's result would not
  // keep its layout); one of unknown rank becomes what the annotation says
  for (std::size_t i = 0; i < fa.params.size(); ++i) {
    Value& v = values[fa.params[i].index];
    if (refuted || !v.is_tensor() || !v.shape().rank_known()) v = (*refined)[i];
  }
}

Value Interpreter::check_annotated_value(const std::string& rule_name, const Value& v, const Expr* value_expr,
                                         const Node* site) {
  const Rule* rule = registry_.find(rule_name);
  if (!rule) return v;
  SiteVisit visit(*this, site);
  SiteOutcome outcome(*this, site);
  CallSite call;
  call.name = rule->name;
  call.loc = site->loc;
  Operand checked(v, 0);
  if (value_expr) checked.loc = value_expr->loc;
  call.positional.push_back(std::move(checked));
  const Frame& f = frame();
  if (f.annotations && f.annotations->has_entry()) {
    for (std::size_t i = 0; i < f.entry_values.size(); ++i)
      call.positional.emplace_back(f.entry_values[i], static_cast<int>(i) + 1);
  }
  // notes name the checked value; the parameters at entry have no expression here
  slot_exprs_.assign(call.positional.size(), nullptr);
  slot_exprs_[0] = value_expr;
  Value result = apply_rule_at(*rule, call, site);
  std::optional<std::vector<Value>> items = result.is_sequence() ? known_items(result, call.positional.size()) : std::nullopt;
  if (!items || items->empty()) return v;
  if (v.is_tensor() && v.shape().rank_known()) return v;  // itself, layout included
  return items->front();
}

}  // namespace gshape::gradual::interp
