// RuleContext: argument access, accessor terms and obligation emission.
#include "gradual/rule_context.h"

#include <set>

namespace gshape::gradual {

RuleContext::RuleContext(std::string rule_name, const CallSite& call, Binding binding, Discharger& solver,
                         std::vector<Obligation>& out)
    : rule_name_(std::move(rule_name)), call_(call), binding_(std::move(binding)), solver_(solver), out_(out) {
  for (const auto& [name, bound] : binding_.params) index_operand(bound.operand, name);
}

void RuleContext::index_operand(const Operand& op, const std::string& role) {
  if (op.slot >= 0) {
    by_slot_[op.slot] = &op;
    roles_[op.slot] = op.text.empty() ? role : op.text;
  }
  for (std::size_t i = 0; i < op.elements.size(); ++i)
    index_operand(op.elements[i], role + "[" + std::to_string(i) + "]");
}

// ------------------------------------------------------------------ arguments

Arg RuleContext::arg(std::string_view param) const {
  auto it = binding_.params.find(param);
  if (it == binding_.params.end()) throw NotModelled("rule asks for unknown parameter '" + std::string(param) + "'");
  const BoundParam& b = it->second;
  Arg a;
  a.value = b.operand.value;
  a.slot = b.operand.slot;
  a.role = std::string(param);
  a.operand = &b.operand;
  a.provided = b.provided;
  return a;
}

std::vector<Arg> RuleContext::extra_keywords() const {
  std::vector<Arg> out;
  for (const auto& [name, operand] : call_.keywords) {
    if (binding_.params.count(name)) continue;
    Arg a;
    a.value = operand.value;
    a.slot = operand.slot;
    a.role = name;
    a.operand = &operand;
    out.push_back(std::move(a));
  }
  return out;
}

bool RuleContext::provided(std::string_view param) const {
  auto it = binding_.params.find(param);
  return it != binding_.params.end() && it->second.provided;
}

Arg RuleContext::tensor(std::string_view param) const { return as_tensor(arg(param)); }

Arg RuleContext::as_tensor(const Arg& a) const {
  if (a.value.is_tensor()) return a;
  if (a.value.is_unknown()) {
    Arg t = a;
    t.value = Value::tensor(Shape::unknown(), false);  // of unknown origin: any layout
    return t;
  }
  throw NotModelled("'" + a.role + "' is not a tensor");
}

std::vector<Arg> RuleContext::elements(const Arg& seq) const {
  std::vector<Arg> out;
  if (seq.operand && !seq.operand->elements.empty()) {
    for (std::size_t i = 0; i < seq.operand->elements.size(); ++i) {
      const Operand& e = seq.operand->elements[i];
      Arg a;
      a.value = e.value;
      a.slot = e.slot;
      if (e.slot < 0 && seq.slot >= 0) {
        a.parent_slot = seq.slot;
        a.index = static_cast<int64_t>(i);
      }
      a.role = seq.role + "[" + std::to_string(i) + "]";
      a.operand = &e;
      out.push_back(std::move(a));
    }
    return out;
  }
  if (!seq.value.is_sequence() || !seq.value.items())
    throw NotModelled("'" + seq.role + "' is not a sequence of known length");
  const auto& items = *seq.value.items();
  for (std::size_t i = 0; i < items.size(); ++i) {
    Arg a;
    a.value = items[i];
    if (seq.slot >= 0) {
      a.parent_slot = seq.slot;
      a.index = static_cast<int64_t>(i);
    }
    a.role = seq.role + "[" + std::to_string(i) + "]";
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<Arg> RuleContext::int_list(std::string_view param) const {
  std::vector<Arg> list = elements(arg(param));
  if (list.size() == 1) {
    if (list[0].value.is_sequence()) return elements(list[0]);
    if (list[0].value.is_unknown()) throw NotModelled("'" + list[0].role + "' may be a sequence of unknown length");
  }
  return list;
}

std::vector<Arg> RuleContext::int_or_list(const Arg& a) const {
  if (a.value.is_int() || a.value.is_bool()) return {a};
  if (a.value.is_sequence()) return elements(a);
  throw NotModelled("'" + a.role + "' is neither an int nor a sequence of ints");
}

bool RuleContext::bool_constant(std::string_view param) const {
  Arg a = arg(param);
  if (a.value.is_bool() && a.value.as_bool().is_constant()) return a.value.as_bool().is_true();
  if (a.value.is_int() && a.value.as_int().is_constant()) return *a.value.as_int().constant_value() != 0;
  if (a.value.is_none()) return false;
  throw NotModelled("'" + a.role + "' is not a constant bool");
}

std::optional<bool> RuleContext::bool_flag(std::string_view param) const {
  try {
    return bool_constant(param);
  } catch (const NotModelled&) {
    return std::nullopt;
  }
}

// ------------------------------------------------------------------ static values

std::string RuleContext::key_of(const Arg& a) const {
  if (a.slot >= 0) return "#" + std::to_string(a.slot);
  if (a.parent_slot >= 0) return "#" + std::to_string(a.parent_slot) + "[" + std::to_string(a.index) + "]";
  return "@" + a.role;
}

std::string RuleContext::shown_as(const Arg& a) const {
  if (a.operand && !a.operand->text.empty()) return a.operand->text;
  return a.role;
}

UnknownShapeMemo* RuleContext::memo_of(const Operand& op) {
  // only for the variable's own value: the memo names its sizes
  const Value& v = op.value;
  if (!op.memo || !(v.is_unknown() || (v.is_tensor() && !v.shape().rank_known()))) return nullptr;
  return op.memo;
}

Dim RuleContext::cached_fresh(const std::string& key, const std::string& display, bool nonneg) {
  auto it = fresh_.find(key);
  if (it != fresh_.end()) return it->second;
  Dim d = Dim::rule_symbol(display, nonneg);
  fresh_.emplace(key, d);
  return d;
}

Dim RuleContext::static_size(const Value& v, const std::string& key, const std::string& role, int64_t d,
                             UnknownShapeMemo* memo) {
  const std::vector<Value>* items = v.is_sequence() ? v.items() : nullptr;
  if (v.is_tensor() && v.shape().rank_known()) {
    int64_t r = static_cast<int64_t>(v.shape().rank());
    int64_t i = d < 0 ? d + r : d;
    if (i >= 0 && i < r) return v.shape()[static_cast<std::size_t>(i)];
  } else if (v.is_tensor()) {
    if (auto known = v.shape().from_end(d)) return *known;  // `[*, 16]`: size(-1) is 16
  } else if (items) {
    int64_t r = static_cast<int64_t>(items->size());
    int64_t i = d < 0 ? d + r : d;
    if (i >= 0 && i < r && (*items)[static_cast<std::size_t>(i)].is_int()) return (*items)[static_cast<std::size_t>(i)].as_int();
  }
  if (memo) {
    auto it = memo->sizes.find(d);
    if (it != memo->sizes.end()) return it->second;
    Dim s = Dim::rule_symbol(role + ".size(" + std::to_string(d) + ")");
    memo->sizes.emplace(d, s);
    return s;
  }
  return cached_fresh(key + ":size:" + std::to_string(d), role + ".size(" + std::to_string(d) + ")", true);
}

Dim RuleContext::static_rank(const Value& v, const std::string& key, const std::string& role, UnknownShapeMemo* memo) {
  if (v.is_tensor() && v.shape().rank_known()) return Dim(static_cast<int64_t>(v.shape().rank()));
  if (v.is_sequence() && v.items()) return Dim(static_cast<int64_t>(v.items()->size()));
  bool first = memo ? !memo->rank && !fresh_.count(key + ":dim") : !fresh_.count(key + ":dim");
  Dim r = memo && memo->rank ? *memo->rank : cached_fresh(key + ":dim", role + ".dim()", true);
  if (memo) memo->rank = r;
  std::size_t known = v.is_tensor() ? v.shape().known_suffix().size() : 0;
  if (first && known > 0) {
    // `[*, 16]` has at least one axis: rank checks such as linear_c2 hold
    solver_.add_fact(ge(r, static_cast<int64_t>(known)), call_.loc,
                     role + " has shape " + v.shape().str() + ", at least " + std::to_string(known) + " dimension" +
                         (known == 1 ? "" : "s"));
  }
  return r;
}

Dim RuleContext::static_numel(const Value& v, const std::string& key, const std::string& role) {
  if (v.is_tensor() && v.shape().rank_known()) return v.shape().numel();
  return cached_fresh(key + ":numel", role + ".numel()", true);
}

Dim RuleContext::static_int(const Value& v, const std::string& key, const std::string& role) {
  if (v.is_int()) return v.as_int();
  if (v.is_bool() && v.as_bool().is_constant()) return Dim(v.as_bool().is_true() ? 1 : 0);
  if (auto hint = v.int_view()) return *hint;  // an unknown that is this if it is an int
  return cached_fresh(key + ":int", role, false);
}

Dim RuleContext::static_len(const Value& v, const std::string& key, const std::string& role) {
  if (v.is_sequence() && v.items()) return Dim(static_cast<int64_t>(v.items()->size()));
  if (v.is_tensor() && v.shape().rank_known() && v.shape().rank() > 0) return v.shape()[0];
  return cached_fresh(key + ":len", "len(" + role + ")", true);
}

namespace {
const Value& unknown_value() {
  static const Value v;
  return v;
}
}  // namespace

Dim RuleContext::size(int slot, int64_t d) {
  auto it = by_slot_.find(slot);
  const Value& v = it == by_slot_.end() ? unknown_value() : it->second->value;
  return static_size(v, "#" + std::to_string(slot), roles_[slot], d, it == by_slot_.end() ? nullptr : memo_of(*it->second));
}
Dim RuleContext::rank(int slot) {
  auto it = by_slot_.find(slot);
  return static_rank(it == by_slot_.end() ? unknown_value() : it->second->value, "#" + std::to_string(slot), roles_[slot],
                     it == by_slot_.end() ? nullptr : memo_of(*it->second));
}
Dim RuleContext::numel(int slot) {
  auto it = by_slot_.find(slot);
  return static_numel(it == by_slot_.end() ? unknown_value() : it->second->value, "#" + std::to_string(slot), roles_[slot]);
}
Dim RuleContext::int_value(int slot) {
  auto it = by_slot_.find(slot);
  return static_int(it == by_slot_.end() ? unknown_value() : it->second->value, "#" + std::to_string(slot), roles_[slot]);
}
Dim RuleContext::len(int slot) {
  auto it = by_slot_.find(slot);
  return static_len(it == by_slot_.end() ? unknown_value() : it->second->value, "#" + std::to_string(slot), roles_[slot]);
}
Dim RuleContext::item(int slot, int64_t index) {
  auto it = by_slot_.find(slot);
  std::string key = "#" + std::to_string(slot) + "[" + std::to_string(index) + "]";
  std::string role = roles_[slot] + "[" + std::to_string(index) + "]";
  if (it != by_slot_.end()) {
    const Operand& op = *it->second;
    if (index >= 0 && static_cast<std::size_t>(index) < op.elements.size())
      return static_int(op.elements[static_cast<std::size_t>(index)].value, key, role);
    const std::vector<Value>* items = op.value.is_sequence() ? op.value.items() : nullptr;
    if (items && index >= 0 && static_cast<std::size_t>(index) < items->size())
      return static_int((*items)[static_cast<std::size_t>(index)], key, role);
  }
  return cached_fresh(key + ":int", role, false);
}
Dim RuleContext::attr(int slot, const std::string& name) {
  auto it = by_slot_.find(slot);
  std::string key = "#" + std::to_string(slot) + "." + name;
  if (it != by_slot_.end() && it->second->value.is_object() && it->second->value.as_object()) {
    if (const Value* v = it->second->value.as_object()->attribute(name)) return static_int(*v, key, roles_[slot] + "." + name);
  }
  return cached_fresh(key + ":int", roles_[slot] + "." + name, false);
}

// ------------------------------------------------------------------ terms

IntTerm RuleContext::int_term(const Arg& a) {
  if (!(a.value.is_int() || a.value.is_unknown() || (a.value.is_bool() && a.value.as_bool().is_constant())))
    throw NotModelled("'" + a.role + "' is not an int");
  Dim d = static_int(a.value, key_of(a), shown_as(a));
  if (auto c = d.constant_value()) return IntTerm(*c);
  if (a.slot >= 0) return IntTerm(cx::int_of(a.slot), d);
  if (a.parent_slot >= 0) return IntTerm(cx::item(a.parent_slot, a.index), d);
  return IntTerm::opaque(d, a.role);
}

IntTerm RuleContext::size(const Arg& t, int64_t d) {
  Dim st = static_size(t.value, key_of(t), shown_as(t), d, t.operand ? memo_of(*t.operand) : nullptr);
  if (t.slot >= 0) return IntTerm(cx::size(t.slot, d), st);
  return IntTerm::opaque(st, t.role + ".size(" + std::to_string(d) + ")");
}

IntTerm RuleContext::rank(const Arg& t) {
  Dim st = static_rank(t.value, key_of(t), shown_as(t), t.operand ? memo_of(*t.operand) : nullptr);
  if (t.slot >= 0) return IntTerm(cx::rank(t.slot), st);
  return IntTerm::opaque(st, t.role + ".dim()");
}

IntTerm RuleContext::numel(const Arg& t) {
  Dim st = static_numel(t.value, key_of(t), shown_as(t));
  if (t.slot >= 0) return IntTerm(cx::numel(t.slot), st);
  return IntTerm::opaque(st, t.role + ".numel()");
}

IntTerm RuleContext::len(const Arg& seq) {
  Dim st = static_len(seq.value, key_of(seq), shown_as(seq));
  if (seq.slot >= 0) return IntTerm(cx::len(seq.slot), st);
  return IntTerm::opaque(st, "len(" + seq.role + ")");
}

std::vector<IntTerm> RuleContext::sizes(const Arg& t) {
  if (!t.value.is_tensor() || !t.shape().rank_known()) throw NotModelled("'" + t.role + "' has an unknown rank");
  std::vector<IntTerm> out;
  for (std::size_t i = 0; i < t.shape().rank(); ++i) out.push_back(size(t, static_cast<int64_t>(i)));
  return out;
}

// ------------------------------------------------------------------ obligations

Status RuleContext::require(const std::string& tag, const BoolTerm& c, const Message& message) {
  Obligation ob;
  ob.id = static_cast<int>(out_.size());
  ob.loc = call_.loc;
  ob.rule = rule_name_;
  ob.tag = tag;
  ob.constraint = c;
  ob.message = message;
  std::set<int> slots;
  for (int s : slots_of(c.expr())) slots.insert(s);
  for (int s : message.slots()) slots.insert(s);
  for (int s : slots) {
    // the operand's source expression, when the caller gave it (Operand::loc)
    auto op = by_slot_.find(s);
    ob.slots.push_back({s, roles_.count(s) ? roles_[s] : std::string(), op != by_slot_.end() ? op->second->loc : SourceLoc{}});
  }
  solver_.discharge(ob);
  if (ob.status == Status::Refuted) refuted_ = true;
  emitted_.push_back(ob.id);
  Status status = ob.status;
  out_.push_back(std::move(ob));
  return status;
}

std::optional<bool> RuleContext::query(const Pred& p) { return solver_.query(p); }
std::optional<bool> RuleContext::settle(const Pred& p) { return solver_.settle(p); }

void RuleContext::advise(const std::string& tag, const Pred& certain, const Message& message) {
  if (certain.is_false()) return;
  if (!certain.is_true() && solver_.query(certain) != std::optional<bool>(true)) return;
  advice_.push_back({tag, message.render_static()});
}

Dim RuleContext::fresh(const std::string& name, bool nonneg) { return Dim::rule_symbol(name, nonneg); }

}  // namespace gshape::gradual
