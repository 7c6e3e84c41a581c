// What each call and operator turned out to be over its visits (the
// rewriter's evidence for leaving a run-time check out), coverage counts, and
// the project functions that escape to code the analysis does not follow, and
// why a value is unknown (an earlier error, a call without rule or known callee).
#include <exception>
#include <functional>

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
  if (in_.in_torchscript_ > 0) ++summary.compiled_visits;
  if (done.through_partial) ++summary.partial_visits;
  summary.not_analysed = summary.not_analysed || done.not_analysed;
  if (done.hooked) ++summary.hooked_visits;
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

void Interpreter::note_unresolved(const Node* site, const std::string& what,
                                  std::shared_ptr<const UnknownCause> inherited) {
  if (OpenSite* s = open_site(site)) {
    s->unresolved = true;
    if (s->what.empty()) {
      s->what = what;
      s->unknown_operand = what.find("operand") != std::string::npos;
    }
  }
  // an unknown operand passes on the cause it has; an unknown callee is one,
  // unless it is unknown because its receiver is (that receiver's cause)
  if (what.find("operand") != std::string::npos || what.find("indexed value") != std::string::npos) {
    carry_unknown_cause(site);
  } else if (inherited) {
    if (site && site->loc.valid()) unknown_causes_[{site->loc.file, site->loc.begin, site->loc.end}] = std::move(inherited);
  } else {
    bool layers = what.find("holds layers the analysis cannot list") != std::string::npos;
    note_unknown_cause(site, "where " + what, what, layers ? UnknownCause::Kind::Layers : UnknownCause::Kind::Unresolved);
  }
}

void Interpreter::note_unmodelled(const Node* site, const std::string& rule) {
  if (OpenSite* s = open_site(site)) {
    s->unmodelled = true;
    s->rules.push_back(rule);
  }
}

std::shared_ptr<const UnknownCause> Interpreter::note_no_rule(const Node* site, const std::string& name) {
  if (OpenSite* s = site ? open_site(site) : nullptr) s->no_rule.push_back(name);
  return note_unknown_cause(site, "which has no rule (" + name + ")", name + " has no rule", UnknownCause::Kind::NoRule);
}

// ------------------------------------------------------------------ why a value is unknown

namespace {

// A value whose shape the analysis does not know: nothing, or a tensor of unknown rank.
bool shape_unknown(const Value& v) { return v.is_unknown() || (v.is_tensor() && !v.shape().rank_known()); }

// ... or holds such a value (a tuple of results, a sequence of unknown length).
bool holds_unknown(const Value& v, int depth = 0) {
  if (shape_unknown(v)) return true;
  if (!v.is_sequence() || depth > 3) return false;
  if (v.element()) return holds_unknown(*v.element(), depth + 1);
  if (v.items())
    for (const Value& item : *v.items())
      if (holds_unknown(item, depth + 1)) return true;
  return false;
}

// ... or may carry the cause of an unknown: also a size the analysis made up
// for what only the run knows (`len(data)` of data read from a file).
bool can_carry_cause(const Value& v) { return holds_unknown(v) || (v.is_int() && !v.as_int().is_constant()); }

std::tuple<const SourceFile*, uint32_t, uint32_t> key_of(const SourceLoc& loc) { return {loc.file, loc.begin, loc.end}; }

std::string at_text(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.column); }

// A cause as said at `here`: its text, which names a line and column, with
// the file's path in front when the cause is in another file.
std::string cause_text(const UnknownCause& cause, const SourceLoc& here) {
  if (!cause.at.file || cause.at.file == here.file) return cause.text;
  return cause.text + " (in " + cause.at.file->path() + ")";
}

}  // namespace

std::shared_ptr<const UnknownCause> Interpreter::note_unknown_cause(const Node* site, const std::string& why,
                                                                    const std::string& alone, UnknownCause::Kind kind) {
  if (!site || !site->loc.valid()) return nullptr;
  std::string text = source_text(site->loc, 40);
  auto cause = std::make_shared<UnknownCause>();
  cause->kind = kind;
  cause->at = site->loc;
  cause->text = (text.empty() ? std::string("the call") : "`" + text + "`") + " at " + at_text(site->loc) + ", " + why;
  cause->alone = alone;
  unknown_causes_[key_of(site->loc)] = cause;
  return cause;
}

Value Interpreter::run_time_data(const Node* site, const std::string& what, Value v) {
  auto cause = note_unknown_cause(site, "which " + what + " when the program runs",
                                  "it " + what + " when the program runs", UnknownCause::Kind::RunTimeData);
  return v.with_cause(std::move(cause));
}

Value Interpreter::inherit_cause(Value result, const Value& from, const Value* also) {
  if (result.cause() || !can_carry_cause(result)) return result;
  if (from.cause()) return attach_cause(std::move(result), from.cause());
  if (also && also->cause()) return attach_cause(std::move(result), also->cause());
  return result;
}

Value Interpreter::attach_cause(Value v, const std::shared_ptr<const UnknownCause>& cause, int depth) {
  if (!cause || v.cause() || !can_carry_cause(v)) return v;
  // the items of a tuple (LSTMCell's (h, c)) are unpacked one by one: each carries it
  if (v.is_sequence() && v.items() && depth < 3) {
    std::vector<Value> items;
    items.reserve(v.items()->size());
    for (const Value& item : *v.items()) items.push_back(attach_cause(item, cause, depth + 1));
    return Value::sequence(v.sequence_kind(), std::move(items)).with_cause(cause);
  }
  return v.with_cause(cause);  // an item drawn from a sequence of unknown length inherits the sequence's
}

std::shared_ptr<const UnknownCause> Interpreter::unknown_cause_at(const SourceLoc& origin) const {
  if (!origin.valid()) return nullptr;
  auto it = unknown_causes_.find(key_of(origin));
  return it == unknown_causes_.end() ? nullptr : it->second;
}

void Interpreter::carry_unknown_cause(const Node* site) {
  const Node* e = site;
  if (!e || !e->loc.valid()) return;
  std::vector<const Expr*> operands;
  if (const auto* b = dyn_cast<BinOp>(e)) operands = {b->left, b->right};
  else if (const auto* u = dyn_cast<UnaryOp>(e)) operands = {u->operand};
  else if (const auto* s = dyn_cast<Subscript>(e)) operands = {s->value};
  else if (const auto* c = dyn_cast<Compare>(e)) {
    operands = {c->left};
    operands.insert(operands.end(), c->comparators.begin(), c->comparators.end());
  }
  for (const Expr* op : operands) {
    if (!op) continue;
    SourceLoc origin = op->loc;
    std::shared_ptr<const UnknownCause> carried;  // a name's value may carry one from elsewhere (a parameter)
    if (const auto* n = dyn_cast<Name>(op))
      if (Binding* b = find_binding(n->id)) {
        if (b->origin.valid()) origin = b->origin;
        if (shape_unknown(b->value)) carried = b->value.cause();
      }
    if (auto cause = unknown_cause_at(origin); cause || carried) {
      unknown_causes_[key_of(e->loc)] = cause ? std::move(cause) : std::move(carried);
      return;
    }
  }
}

std::shared_ptr<const UnknownCause> Interpreter::trace_unknown_causes(const CallSite& call, std::size_t first,
                                                                      const Node* site, bool refuted,
                                                                      const Value& result) {
  if (!site || !site->loc.valid()) return nullptr;
  const auto key = key_of(site->loc);
  if (refuted && recording_) {
    // what follows from this call is unknown: the analysis goes on without its value
    // (not in a silent pass: its refutations are dropped, no error names them)
    for (std::size_t i = first; i < raw_.size(); ++i) {
      if (raw_[i].status != Status::Refuted) continue;
      auto cause = std::make_shared<UnknownCause>();
      cause->kind = UnknownCause::Kind::Error;
      cause->at = raw_[i].loc;
      cause->text = "the error at " + at_text(raw_[i].loc) + " [" + raw_[i].tag + "]";
      unknown_causes_[key] = cause;
      return cause;
    }
  }
  unknown_causes_.erase(key);
  // operands unknown because of an earlier cause: slot → (its text, whether it is the cause's own call, the cause)
  struct Traced {
    std::string text;
    bool itself = false;
    std::shared_ptr<const UnknownCause> cause;
  };
  std::map<int, Traced> traced;
  // an operand the runtime cannot reach (a layer of an nn.Sequential gets the
  // layer before's result): the cause its value carries explains what the
  // obligations that name no slot of the call cannot
  std::optional<Traced> unslotted;
  const Value* unslotted_value = nullptr;
  std::function<void(const Operand&)> visit = [&](const Operand& op) {
    for (const Operand& e : op.elements) visit(e);
    // a size made up for run-time data explains itself by what it carries
    bool sized = !holds_unknown(op.value) && op.value.cause() && can_carry_cause(op.value);
    if (!holds_unknown(op.value) && !sized) return;
    if (op.slot < 0) {
      if (!unslotted && op.value.cause()) {
        std::string text = op.loc.valid() ? source_text(op.loc, 30) : std::string();
        unslotted = Traced{text.empty() ? std::string("the input") : "`" + text + "`", false, op.value.cause()};
        unslotted_value = &op.value;
      }
      return;
    }
    const Expr* e = static_cast<std::size_t>(op.slot) < slot_exprs_.size() ? slot_exprs_[static_cast<std::size_t>(op.slot)]
                                                                          : nullptr;
    SourceLoc origin = e ? e->loc : op.loc;
    bool named = false;
    if (const auto* n = e ? dyn_cast<Name>(e) : nullptr)
      if (Binding* b = find_binding(n->id); b && b->origin.valid()) {
        origin = b->origin;
        named = true;
      }
    std::shared_ptr<const UnknownCause> cause = unknown_cause_at(origin);
    if (!cause) cause = op.value.cause();  // carried from where the value was made (another function)
    if (!cause) return;
    std::string text = source_text(op.loc.valid() ? op.loc : origin, 30);
    // the operand is the unknown call itself, written here
    bool itself = !named && !cause->alone.empty() && cause->at.file == origin.file && cause->at.begin == origin.begin &&
                  cause->at.end == origin.end;
    traced.emplace(op.slot, Traced{text.empty() ? std::string("an operand") : "`" + text + "`", itself, cause});
  };
  for (const Operand& op : call.positional) visit(op);
  for (const auto& kw : call.keywords) visit(kw.second);
  if (traced.empty() && !unslotted) return nullptr;
  bool carried = holds_unknown(result);
  auto explain = [&](Obligation& ob, const Traced& t, const Value* v) {
    std::string what = v && v->is_tensor() ? "the shape of " + t.text : t.text;
    // the solver's words ("input.size(-1) is unknown") stay, after the cause
    std::string detail = ob.reason.rfind("the receiver's value is unknown", 0) == 0 ? std::string() : ob.reason;
    const UnknownCause& cause = *t.cause;
    ob.reason = what + (t.itself ? " at " + at_text(cause.at) + " is unknown: " + cause.alone
                                 : " is unknown because of " + cause_text(cause, site->loc)) +
                (detail.empty() ? std::string() : " (" + detail + ")");
    ob.origin = cause_kind_name(cause.kind);
    carried = true;
  };
  for (std::size_t i = first; i < raw_.size(); ++i) {
    if (raw_[i].status != Status::Deferred) continue;
    bool explained = false;
    for (const SlotInfo& s : raw_[i].slots) {
      auto t = traced.find(s.slot);
      if (t == traced.end()) continue;
      const Value* v = nullptr;
      for (const Operand& op : call.positional) v = op.slot == s.slot ? &op.value : v;
      for (const auto& kw : call.keywords) v = kw.second.slot == s.slot ? &kw.second.value : v;
      explain(raw_[i], t->second, v);
      explained = true;
      break;
    }
    if (!explained && unslotted) explain(raw_[i], *unslotted, unslotted_value);
  }
  if (!carried) return nullptr;
  std::shared_ptr<const UnknownCause> cause = traced.empty() ? unslotted->cause : traced.begin()->second.cause;
  unknown_causes_[key] = cause;
  return cause;
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
  } else if (const auto* w = object_as<ModuleWrapper>(v)) {
    note_escape(w->module(), depth + 1);  // whoever holds the wrapper calls the module
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
