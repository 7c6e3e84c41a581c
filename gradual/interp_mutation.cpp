// In-place changes of values the interpreter holds by value. A list is a
// value here and a tensor's shape is part of its value, but in Python both
// are objects: `grow(shapes)` appending to its parameter, `y = x;
// y.unsqueeze_(0)`, a mutable default argument, or a list handed to code the
// analysis does not follow change what every other holder of the object
// sees. The holder the analysis can name gets the new value; the others it
// cannot tell apart from copies lose what they knew (a list of unknown
// length, a tensor of unknown shape), so that nothing after them is proven
// from a stale value: it is checked at run time instead.
#include "gradual/interp.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

bool is_list(const Value& v) { return v.is_sequence() && v.sequence_kind() == SequenceKind::List; }

// `v` with every tensor in it (items of tuples and lists too) of unknown shape.
Value without_shapes(const Value& v, int depth = 0) {
  if (v.is_tensor()) return Value::tensor(Shape::unknown(), false);
  if (!v.is_sequence() || depth > 8) return v;
  if (v.items()) {
    std::vector<Value> items;
    for (const Value& item : *v.items()) items.push_back(without_shapes(item, depth + 1));
    return Value::sequence(v.sequence_kind(), std::move(items));
  }
  if (v.element()) return Value::unknown_length(v.sequence_kind(), without_shapes(*v.element(), depth + 1));
  return v;
}

// `a` and `b` may be one Python object: a list sharing its item storage (a
// copy of the name, `b = a`), or a tensor of the same shape (tensors carry no
// identity here: equal shapes may be one tensor).
bool may_alias(const Value& a, const Value& b) {
  if (is_list(a) && is_list(b)) {
    if (a.items() && a.items() == b.items()) return true;
    if (a.element() && a.element() == b.element()) return true;
    // either may be a join of lists (`t = enc if c else dec`)
    auto in = [](const void* s, const Value& v) {
      return s && v.may_be() && std::binary_search(v.may_be()->begin(), v.may_be()->end(), s);
    };
    if (in(a.storage(), b) || in(b.storage(), a)) return true;
    if (a.may_be() && b.may_be())
      for (const void* s : *a.may_be())
        if (in(s, b)) return true;
    return false;
  }
  if (a.is_tensor() && b.is_tensor()) return a.shape().rank_known() && a.shape() == b.shape();
  return false;
}

// Library code whose functions never change a list handed to them.
bool leaves_lists_alone(const std::string& path) {
  // the spellings of an in-place change that go through these libraries
  static const char* const changers[] = {"operator.setitem", "operator.delitem", "operator.iadd",
                                         "operator.iconcat", "operator.imul", "builtins.list.",
                                         "builtins.dict.", "numpy.random.shuffle", "numpy.random.Generator.shuffle"};
  for (const char* c : changers)
    if (path.rfind(c, 0) == 0) return false;
  static const char* const prefixes[] = {"torch.", "builtins.", "math.", "numpy.", "os.", "functools.",
                                         "itertools.", "operator.", "copy.", "einops.", "json.", "time."};
  for (const char* p : prefixes)
    if (path.rfind(p, 0) == 0) return true;
  return false;
}

// The class in `cls`'s bases that defines `attr` itself.
ClassObject* class_defining(ClassObject& cls, const std::string& attr, int depth = 0) {
  if (depth > 32) return nullptr;
  if (cls.attributes.count(attr)) return &cls;
  for (const Value& base : cls.bases)
    if (auto b = shared_as<ClassObject>(base))
      if (ClassObject* found = class_defining(*b, attr, depth + 1)) return found;
  return nullptr;
}

}  // namespace

Value Interpreter::after_unseen_change(const Value& v) {
  // Any item may have been replaced by anything (`d[0] = 16` through an
  // alias), and a holder forgotten now is not recognised as an alias of the
  // next change: only a list of unknown items stays true after both.
  if (is_list(v)) return Value::unknown_length(SequenceKind::List, Value::unknown());
  if (v.is_tensor()) return Value::tensor(Shape::unknown(), false);
  return v;
}

void Interpreter::assign_in_place(const Expr* target, const Value& before, const Value& after, const SourceLoc& loc) {
  Frame& f = frame();
  const auto* name = target ? dyn_cast<Name>(target) : nullptr;
  // the vars that hold the target's own binding skip it: it gets `after`
  bool target_global = name && (f.global_names.count(name->id) || !f.vars->count(name->id));
  // Holders that are not names: an attribute of a project object (`h =
  // self.h; h.unsqueeze_(0)`), an item of a list (`for t in ts:
  // t.unsqueeze_(0)`), followed a few levels deep. Returns the value with
  // them forgotten (objects are changed in place, through the write log).
  std::set<const ObjectValue*> visited;
  std::function<std::optional<Value>(const Value&, int)> forget_held = [&](const Value& v, int depth) -> std::optional<Value> {
    if (depth > 8) return std::nullopt;  // (each object once: `visited`)
    if (v.is_sequence() && v.items()) {
      std::vector<Value> items = *v.items();
      bool changed = false;
      for (Value& item : items) {
        if (may_alias(item, before)) {
          item = after_unseen_change(item);
          changed = true;
        } else if (std::optional<Value> inner = forget_held(item, depth + 1)) {
          item = std::move(*inner);
          changed = true;
        }
      }
      if (changed) return Value::sequence(v.sequence_kind(), std::move(items));
      return std::nullopt;
    }
    if (auto dict = shared_as<DictObject>(v)) {  // `s = cfg['shape']; s[1] = 6`
      if (!visited.insert(dict.get()).second) return std::nullopt;
      for (auto& [key, held] : dict->entries) {
        std::optional<Value> now = may_alias(held, before) ? std::optional<Value>(after_unseen_change(held))
                                                           : forget_held(held, depth + 1);
        if (!now) continue;
        held = std::move(*now);
        memo_.clear();  // a call memoised with the dict read the old entry (dicts carry no version)
      }
      return std::nullopt;
    }
    if (auto fn = shared_as<FunctionObject>(v)) {  // a closure that captured the list's variable
      if (!visited.insert(fn.get()).second) return std::nullopt;
      // a mutable default the function returned (`make(dims=[8, 8])`)
      for (Value& d : fn->defaults)
        if (may_alias(d, before)) d = after_unseen_change(d);
      if (!fn->closure) return std::nullopt;
      std::optional<Vars> changed;
      for (const auto& [captured, binding] : *fn->closure) {
        std::optional<Value> now = may_alias(binding.value, before) ? std::optional<Value>(after_unseen_change(binding.value))
                                                                    : forget_held(binding.value, depth + 1);
        if (!now) continue;
        if (!changed) changed = *fn->closure;
        (*changed)[captured].value = std::move(*now);
      }
      if (changed) fn->closure = std::make_shared<const Vars>(std::move(*changed));
      return std::nullopt;
    }
    if (auto cls = shared_as<ClassObject>(v)) {  // a class attribute every instance reads
      if (!visited.insert(cls.get()).second) return std::nullopt;
      for (auto& [attr, held] : cls->attributes) {
        if (may_alias(held, before)) held = after_unseen_change(held);
        else if (std::optional<Value> inner = forget_held(held, depth + 1)) held = std::move(*inner);
      }
      memo_.clear();
      return std::nullopt;
    }
    auto inst = shared_as<InstanceObject>(v);
    if (!inst || !visited.insert(inst.get()).second) return std::nullopt;
    std::vector<std::pair<std::string, Value>> updates;
    for (const auto& [attr, held] : inst->attributes) {
      if (may_alias(held, before)) updates.emplace_back(attr, after_unseen_change(held));
      else if (std::optional<Value> inner = forget_held(held, depth + 1)) updates.emplace_back(attr, std::move(*inner));
    }
    for (auto& [attr, value] : updates) write_object_attribute(inst, attr, value);
    return std::nullopt;  // the object itself is the same
  };
  // `owner`: the frame whose parameters the vars may hold (none for
  // another module's globals)
  auto forget_aliases = [&](Frame* owner, Vars& vars, bool holds_target) {
    for (auto& [other, binding] : vars) {
      if (holds_target && name && other == name->id) continue;
      if (!may_alias(binding.value, before)) {
        if (std::optional<Value> changed = forget_held(binding.value, 0)) {
          binding.value = std::move(*changed);
          if (owner) note_parameter_changed(*owner, other);
        }
        continue;
      }
      binding.value = after_unseen_change(binding.value);
      if (owner) note_parameter_changed(*owner, other);
    }
  };
  bool at_top = f.vars == &f.module->globals;
  forget_aliases(&f, *f.vars, at_top || !target_global);
  if (!at_top) forget_aliases(&f, f.module->globals, target_global);
  // the callers' variables may hold the object too (`self.dims = dims;
  // m.grow()` changes the caller's `dims`), and other modules' globals
  std::set<const Vars*> done{f.vars, &f.module->globals};
  for (std::size_t i = frames_.size() - 1; i-- > 0;) {
    Frame& caller = *frames_[i];
    if (done.insert(caller.vars).second) forget_aliases(&caller, *caller.vars, false);
    if (done.insert(&caller.module->globals).second) forget_aliases(&caller, caller.module->globals, false);
  }
  for (const auto& m : modules_)  // `from cfg import dims` holds the list of cfg's
    if (done.insert(&m->globals).second) forget_aliases(nullptr, m->globals, false);
  if (!target) return;
  if (const auto* at = dyn_cast<Attribute>(target)) {
    // `self.widths[0] *= 2` with `widths` a class attribute changes the
    // class's list, which every instance reads: the class gets the new list
    if (auto inst = shared_as<InstanceObject>(eval(at->value)); inst && !inst->attributes.count(at->attr)) {
      if (ClassObject* owner = class_defining(*inst->cls, at->attr)) {
        owner->attributes[at->attr] = after;
        memo_.clear();
        return;
      }
    }
  }
  if (name) {
    note_parameter_changed(name->id);
    // a function changing a list of the module's (`shapes.append(5)` with
    // no local `shapes`) changes the module's list
    if (target_global && !at_top) {
      auto g = f.module->globals.find(name->id);
      if (g != f.module->globals.end()) {
        g->second.value = after;
        return;
      }
    }
  }
  assign(target, after, loc);
}

void Interpreter::note_parameter_changed(const std::string& name) { note_parameter_changed(frame(), name); }

void Interpreter::note_parameter_changed(Frame& f, const std::string& name) {
  auto it = f.parameter_slots.find(name);
  if (it != f.parameter_slots.end()) f.changed_parameters.insert(it->second);
}

void Interpreter::forget_lists_passed(const std::vector<ArgValue>& args, const std::string& library_path) {
  // a list's or a tensor's own changing method handed over
  // (`itertools.starmap(dims.append, ...)`): any library may call it
  for (const ArgValue& a : args) {
    const auto* bb = object_as<BoundBuiltin>(a.value);
    if (!bb) continue;
    std::string method = bb->name.substr(bb->name.rfind('.') + 1);
    if (is_list(bb->receiver) && !list_method_reads_only(method))
      assign_in_place(nullptr, bb->receiver, after_unseen_change(bb->receiver), a.expr ? a.expr->loc : SourceLoc{});
    else if (bb->receiver.is_tensor() && reshapes_in_place(method))
      assign_in_place(nullptr, bb->receiver, Value::tensor(Shape::unknown(), false), a.expr ? a.expr->loc : SourceLoc{});
  }
  if (!library_path.empty() && leaves_lists_alone(library_path)) return;
  // `dict.update(cfg, d=5)`, a dict's method called unbound: what it holds is not known after
  static const std::set<std::string> dict_readers = {"builtins.dict.get", "builtins.dict.keys", "builtins.dict.values",
                                                     "builtins.dict.items", "builtins.dict.copy", "builtins.dict.fromkeys"};
  if (library_path.rfind("builtins.dict.", 0) == 0 && !dict_readers.count(library_path) && !args.empty())
    if (auto d = shared_as<DictObject>(args.front().value)) {
      d->entries.clear();
      d->complete = false;
      memo_.clear();  // calls memoised with the dict read its old items
    }
  for (const ArgValue& a : args) {
    if (!is_list(a.value)) continue;
    bool assignable = a.expr && (isa<Name>(a.expr) || isa<Attribute>(a.expr));
    assign_in_place(assignable ? a.expr : nullptr, a.value, after_unseen_change(a.value), a.expr ? a.expr->loc : SourceLoc{});
  }
}

void Interpreter::apply_parameter_changes(FunctionObject& fn, const std::set<std::size_t>& changed,
                                          const std::vector<const Expr*>& arg_exprs, const std::vector<Value>& values,
                                          const std::vector<bool>& filled) {
  for (std::size_t i : changed) {
    if (i >= values.size()) continue;
    const Value& passed = values[i];
    if (!is_list(passed) && !passed.is_tensor()) continue;
    if (!filled[i]) {
      // a mutable default changed by one call is what the next call gets
      if (i < fn.defaults.size() && is_list(fn.defaults[i])) fn.defaults[i] = after_unseen_change(fn.defaults[i]);
      continue;
    }
    const Expr* e = arg_exprs[i];
    bool assignable = e && (isa<Name>(e) || isa<Attribute>(e));
    // the callee may have changed the tensors in the list too (`for t in ts:
    // t.unsqueeze_(0)`): their shapes are not known either
    Value after = after_unseen_change(passed);
    if (is_list(after) && after.element()) after = Value::unknown_length(SequenceKind::List, without_shapes(*after.element()));
    assign_in_place(assignable ? e : nullptr, passed, after, e ? e->loc : SourceLoc{});
  }
}

}  // namespace gshape::gradual::interp
