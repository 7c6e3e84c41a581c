// What each call and operator turned out to be over its visits (the
// rewriter's evidence for leaving a run-time check out), coverage counts, and
// the project functions that escape to code the analysis does not follow.
#include <exception>

#include "gradual/interp.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

Interpreter::SiteOutcome::SiteOutcome(Interpreter& in, const Node* site)
    : in_(in), exceptions_(std::uncaught_exceptions()) {
  OpenSite s;
  s.site = site;
  in_.open_sites_.push_back(std::move(s));
}

Interpreter::SiteOutcome::~SiteOutcome() {
  OpenSite done = std::move(in_.open_sites_.back());
  in_.open_sites_.pop_back();
  if (!in_.recording_ || !done.site) return;
  // a visit cut short (a work budget, an internal failure) proves nothing
  if (std::uncaught_exceptions() > exceptions_) done.unresolved = true;
  SiteSummary& summary = in_.site_summaries_[done.site];
  summary.loc = done.site->loc;
  ++summary.visits;
  summary.unresolved = summary.unresolved || done.unresolved;
  summary.unmodelled = summary.unmodelled || done.unmodelled;
  summary.not_proven = summary.not_proven || done.not_proven;
  summary.unknown_rank = summary.unknown_rank || done.unknown_rank;
  if (summary.what.empty()) {
    summary.what = done.what;
    summary.unknown_operand = done.unknown_operand;
  }
  for (std::string& n : done.no_rule) {
    auto at = std::lower_bound(summary.no_rule.begin(), summary.no_rule.end(), n);
    if (at == summary.no_rule.end() || *at != n) summary.no_rule.insert(at, std::move(n));
  }
  for (std::string& r : done.rules) {
    auto at = std::lower_bound(summary.rules.begin(), summary.rules.end(), r);
    if (at == summary.rules.end() || *at != r) summary.rules.insert(at, std::move(r));
  }
}

Interpreter::OpenSite* Interpreter::open_site(const Node* site) {
  for (auto it = open_sites_.rbegin(); it != open_sites_.rend(); ++it)
    if (it->site == site) return &*it;
  return nullptr;
}

void Interpreter::note_unresolved(const Node* site, const std::string& what) {
  if (OpenSite* s = open_site(site)) {
    s->unresolved = true;
    if (s->what.empty()) {
      s->what = what;
      s->unknown_operand = what.find("operand") != std::string::npos;
    }
  }
}

void Interpreter::note_unmodelled(const Node* site, const std::string& rule) {
  if (OpenSite* s = open_site(site)) {
    s->unmodelled = true;
    s->rules.push_back(rule);
  }
}

void Interpreter::note_no_rule(const Node* site, const std::string& name) {
  if (OpenSite* s = site ? open_site(site) : nullptr) s->no_rule.push_back(name);
}

void Interpreter::note_escape(const Value& v, int depth) {
  if (depth > 3 || !v.is_object() || !v.as_object()) {
    if (depth <= 3 && v.is_sequence() && v.items())
      for (const Value& item : *v.items()) note_escape(item, depth + 1);
    return;
  }
  if (const auto* fn = object_as<FunctionObject>(v)) {
    mark_incomplete(fn->def);
  } else if (const auto* bm = object_as<BoundMethod>(v)) {
    if (bm->function) mark_incomplete(bm->function->def);
  } else if (const auto* inst = object_as<InstanceObject>(v)) {
    // whoever holds the instance may call any of its methods (forward through __call__)
    std::vector<const ClassObject*> todo{inst->cls.get()};
    for (std::size_t guard = 0; !todo.empty() && guard < 64; ++guard) {
      const ClassObject* c = todo.back();
      todo.pop_back();
      if (!c) continue;
      for (const auto& [name, member] : c->attributes)
        if (const auto* f = object_as<FunctionObject>(member)) mark_incomplete(f->def);
      for (const Value& b : c->bases)
        if (const auto* bc = object_as<ClassObject>(b)) todo.push_back(bc);
    }
    for (const auto& [name, attr] : inst->attributes) note_escape(attr, depth + 1);
  } else if (const auto* c = object_as<ContainerModule>(v)) {
    for (const Value& child : c->children) note_escape(child, depth + 1);
  } else if (const auto* choice = object_as<ChoiceObject>(v)) {
    for (const Value& alt : choice->alternatives) note_escape(alt, depth + 1);
  } else if (const auto* d = object_as<DictObject>(v)) {
    for (const auto& [k, item] : d->entries) note_escape(item, depth + 1);
  }
}

void Interpreter::note_escapes(const std::vector<ArgValue>& args) {
  for (const ArgValue& a : args) {
    note_escape(a.value);
    forget_attribute_hints(a.value);  // code the analysis does not follow may change it
  }
}

void Interpreter::forget_attribute_hints(const Value& obj) {
  auto hint = obj.int_view();
  if (!obj.is_unknown() || !hint) return;
  auto it = attribute_hints_.lower_bound({hint->node(), std::string()});
  bool forgot = false;
  for (; it != attribute_hints_.end() && it->first.first == hint->node(); forgot = true) it = attribute_hints_.erase(it);
  // a memoised call keyed by this object may have read the old attributes:
  // its result no longer answers for a call with the same (changed) object
  if (forgot) memo_.clear();
}

}  // namespace gshape::gradual::interp
