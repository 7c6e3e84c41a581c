// Calls: project functions analysed in the caller's context (memoised on the
// abstract arguments, recursion and depth cut to unknown), classes and their
// instances (nn.Module.__call__ → forward), nn.Sequential chains, and rule
// application at call sites with operand slots in source order.
#include <cmath>
#include <typeinfo>

#include "gradual/interp.h"
#include "gradual/python_errors.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

// Tensor methods that change their receiver's shape in place. (Aliases of
// the receiver keep the shape they had: docs/instrumentation.md.)
bool reshapes_in_place(const std::string& method) {
  static const std::set<std::string> names = {"unsqueeze_", "squeeze_", "t_", "transpose_", "swapaxes_",
                                              "swapdims_",  "resize_",  "resize_as_", "set_", "as_strided_"};
  return names.count(method.substr(method.rfind('.') + 1)) > 0;
}

namespace {

// The display elements of a call argument written as `[a, b]` or `(a, b)`.
const SequenceExpr* display_of(const Expr* e) {
  if (!e || !(isa<List>(e) || isa<Tuple>(e))) return nullptr;
  const auto* seq = static_cast<const SequenceExpr*>(e);
  for (const Expr* x : seq->elts)
    if (isa<Starred>(x)) return nullptr;
  return seq;
}

// Library calls that never call back into what they are given, or whose
// calls the analysis models itself (nn.Sequential runs its children's
// forward on what it is called with; a deep copy is the same object here).
bool harmless_library_call(const std::string& path) {
  static const std::set<std::string> harmless = {
      "builtins.print", "builtins.len", "builtins.isinstance", "builtins.issubclass", "builtins.str",
      "builtins.repr", "builtins.type", "builtins.id", "builtins.hasattr", "builtins.getattr", "builtins.setattr",
      "builtins.callable", "builtins.format", "builtins.hash", "builtins.vars", "builtins.dir", "builtins.list",
      "builtins.tuple", "builtins.set", "builtins.dict", "builtins.enumerate", "builtins.zip", "builtins.range",
      "builtins.reversed", "builtins.map", "builtins.iter", "builtins.next", "builtins.super", "builtins.int", "builtins.float",
      "builtins.bool", "torch.nn.Sequential", "torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.ParameterList", "torch.nn.ParameterDict", "copy.deepcopy",
      "copy.copy",
      // a wrapper hands its module on when it is itself handed on (interp_wrappers.h)
      "torch.nn.DataParallel", "torch.nn.parallel.DistributedDataParallel"};
  return harmless.count(path) > 0;
}

// An operand of unknown rank, or unknown altogether (a module object or a
// number is known enough: its requirements are stated on it).
bool unknown_rank(const Operand& op) {
  if (op.value.is_unknown()) return true;
  if (op.value.is_tensor() && !op.value.shape().rank_known()) return true;
  for (const Operand& e : op.elements)
    if (unknown_rank(e)) return true;
  if (op.elements.empty() && op.value.is_sequence()) {
    if (!op.value.items()) return true;
    for (const Value& item : *op.value.items())
      if (item.is_unknown() || (item.is_tensor() && !item.shape().rank_known())) return true;
  }
  return false;
}

bool has_unknown_rank(const CallSite& call) {
  for (const Operand& op : call.positional)
    if (unknown_rank(op)) return true;
  for (const auto& [name, op] : call.keywords)
    if (unknown_rank(op)) return true;
  return false;
}

}  // namespace

std::vector<ArgValue> Interpreter::eval_args(const std::vector<Argument>& args) {
  std::vector<ArgValue> out;
  out.reserve(args.size());
  for (const Argument& a : args) {
    ArgValue v;
    v.type = a.type;
    v.name = a.name;
    v.expr = a.value;
    const SequenceExpr* display = (a.type == Argument::Type::Positional || a.type == Argument::Type::Keyword)
                                      ? display_of(a.value)
                                      : nullptr;
    if (display) {
      for (const Expr* x : display->elts) v.elements.push_back(eval(x));
      v.value = Value::sequence(isa<List>(a.value) ? SequenceKind::List : SequenceKind::Tuple, v.elements);
      record_shape(a.value, v.value);
    } else {
      v.value = eval(a.value);
    }
    out.push_back(std::move(v));
  }
  return out;
}

namespace {
// What `d.update(...)` sets when `d` holds names (an object's __dict__, the
// module's globals): its keywords and the string keys of complete dicts.
// `known` is false when it may set names the analysis cannot list.
struct NamesSet {
  std::vector<std::pair<std::string, Value>> writes;
  bool known = true;
};
NamesSet names_set_by_update(const std::vector<ArgValue>& args) {
  NamesSet out;
  for (const ArgValue& a : args) {
    if (a.type == Argument::Type::Keyword) {
      out.writes.emplace_back(a.name, a.value);
      continue;
    }
    const auto* dict = a.type == Argument::Type::Positional || a.type == Argument::Type::DoubleStar
                           ? object_as<DictObject>(a.value)
                           : nullptr;
    if (!dict || !dict->complete) {
      out.known = false;
      continue;
    }
    for (const auto& [key, value] : dict->entries) {
      if (key.rfind("s:", 0) == 0) out.writes.emplace_back(key.substr(2), value);
      else out.known = false;  // a key that is no name
    }
  }
  return out;
}
}  // namespace

std::optional<Value> Interpreter::update_instance_dict(const Call* c) {
  const auto* method = dyn_cast<Attribute>(c->func);
  if (!method || method->attr != "update") return std::nullopt;
  const Expr* owner = nullptr;  // `obj` of `obj.__dict__` or `vars(obj)`
  if (const auto* d = dyn_cast<Attribute>(method->value); d && d->attr == "__dict__") owner = d->value;
  if (const auto* v = dyn_cast<Call>(method->value)) {
    const auto* f = dyn_cast<Name>(v->func);
    if (f && names_builtin(f->id, "vars") && v->args.size() == 1 && v->args[0].type == Argument::Type::Positional)
      owner = v->args[0].value;
  }
  if (!owner) return std::nullopt;
  Value target = eval(owner);
  std::shared_ptr<ObjectValue> obj = target.is_object() ? target.as_object() : nullptr;
  if (!obj || !(object_as<InstanceObject>(target) || typeid(*obj) == typeid(ObjectValue))) return std::nullopt;
  NamesSet set = names_set_by_update(eval_args(c->args));
  if (!set.known) forget_object(target);  // it may set any attribute
  for (const auto& [name, value] : set.writes) {
    if (auto inst = shared_as<InstanceObject>(target)) write_object_attribute(inst, name, value);
    else obj->attributes[name] = value;
  }
  return Value::none();
}

bool Interpreter::names_builtin(const std::string& id, const char* builtin) {
  return id == builtin && !frame().vars->count(id) && !frame().module->globals.count(id);
}

bool Interpreter::names_globals(const Expr* e) {
  const auto* call = dyn_cast<Call>(e);
  const auto* f = call ? dyn_cast<Name>(call->func) : nullptr;
  return f && names_builtin(f->id, "globals") && call->args.empty();
}

void Interpreter::forget_globals() {
  for (auto& [name, binding] : frame().module->globals) {
    const Value& v = binding.value;
    // what the exec'd code or the loop may set: values, not the module's
    // functions, classes and imports
    if (object_as<FunctionObject>(v) || object_as<ClassObject>(v) || object_as<ModuleNamespace>(v) ||
        object_as<LibraryName>(v))
      continue;
    binding.value = Value::unknown();
  }
  memo_.clear();
}

std::optional<Value> Interpreter::write_globals(const Call* c) {
  if (const auto* f = dyn_cast<Name>(c->func); f && names_builtin(f->id, "exec")) {
    std::vector<ArgValue> args = eval_args(c->args);
    // exec(code, namespace): the code's globals are that dict, not the module's
    bool own_namespace = c->args.size() >= 2 && c->args[1].type == Argument::Type::Positional &&
                         !names_globals(c->args[1].value);
    if (!own_namespace) {
      forget_globals();
      return Value::none();
    }
    for (std::size_t i = 1; i < args.size() && i < 3; ++i) {
      if (auto dict = shared_as<DictObject>(args[i].value)) {
        dict->entries.clear();
        dict->complete = false;
      }
    }
    return Value::none();
  }
  const auto* method = dyn_cast<Attribute>(c->func);
  if (!method || method->attr != "update" || !names_globals(method->value)) return std::nullopt;
  NamesSet set = names_set_by_update(eval_args(c->args));
  if (!set.known) forget_globals();
  for (const auto& [name, value] : set.writes) frame().module->globals[name] = Binding{value, c->loc, {}};
  if (!set.writes.empty()) memo_.clear();
  return Value::none();
}

Value Interpreter::eval_call(const Call* c) {
  // an inner function that declares `nonlocal d` may be what this calls
  struct ForgetShared {
    Interpreter& in;
    ~ForgetShared() {
      Frame& f = in.frame();
      for (const std::string& n : f.nonlocal_shared) {
        auto it = f.vars->find(n);
        if (it != f.vars->end()) it->second.value = Value::unknown();
      }
    }
  } forget{*this};
  SiteVisit visit(*this, c);
  SiteOutcome outcome(*this, c);
  if (std::optional<Value> done = update_instance_dict(c)) return *done;
  if (std::optional<Value> done = write_globals(c)) return *done;
  if (const auto* a = dyn_cast<Attribute>(c->func)) {
    Value receiver = eval(a->value);
    Value callee = inherit_cause(get_attribute(receiver, a->attr, a->value, a), receiver);
    forget_attribute_hints(receiver);  // a method of an unknown object may change its attributes
    if (receiver.is_unknown() && is_tensor_method(a->attr)) {
      // an opaque value used as a tensor is a tensor of unknown shape
      std::vector<ArgValue> args = eval_args(c->args);
      BoundBuiltin method(Value::tensor(Shape::unknown(), false).with_cause(receiver.cause()), "Tensor." + a->attr);
      struct Guess {
        bool& flag;
        bool saved;
        ~Guess() { flag = saved; }
      } guess{receiver_is_guess_, receiver_is_guess_};
      receiver_is_guess_ = true;
      Value out = call_method(method, Receiver{method.receiver, a->value}, args, c, a->value);
      // size queries give symbols (unknown is never an error); a rule's result
      // on a guessed receiver is not trusted
      return out.is_int() ? out : Value::unknown().with_cause(receiver.cause());
    }
    std::vector<ArgValue> args = eval_args(c->args);
    if (const auto* bb = object_as<BoundBuiltin>(callee)) {
      Value out = call_method(*bb, Receiver{bb->receiver, a->value}, args, c, a->value);
      reshaped_in_place(*bb, out, a->value, c->loc);
      return out;
    }
    return call_value(callee, c->func, args, c);
  }
  Value callee = eval(c->func);
  std::vector<ArgValue> args = eval_args(c->args);
  return call_value(callee, c->func, args, c);
}

// `x.unsqueeze_(0)` returns x with its new shape: x (the receiver, when a
// name or attribute) is that now, and another holder of the same tensor
// (`y = x`, or every holder when the method was called as a value: `op =
// x.t_; op()`) no longer knows its shape.
void Interpreter::reshaped_in_place(const BoundBuiltin& method, const Value& out, const Expr* receiver,
                                    const SourceLoc& loc) {
  if (!method.receiver.is_tensor() || !reshapes_in_place(method.name)) return;
  bool named = receiver && (isa<Name>(receiver) || isa<Attribute>(receiver));
  assign_in_place(named ? receiver : nullptr, method.receiver,
                  out.is_tensor() ? out : Value::tensor(Shape::unknown(), false), loc);
}

Value Interpreter::call_value(const Value& callee, const Expr* callee_expr, const std::vector<ArgValue>& args,
                              const Node* site) {
  auto unresolved = [&](const char* why) {
    std::string text = callee_expr ? source_text(callee_expr->loc, 40) : std::string();
    // `stack.enter_context(cm)` on an ExitStack the analysis does not model
    if (const auto* a = callee_expr ? dyn_cast<Attribute>(callee_expr) : nullptr;
        a && a->attr == "enter_context" && args.size() == 1)
      enter_context(args.front().value, site);
    // a callee unknown because its receiver is (data read at run time ...) passes that on
    note_unresolved(site, text.empty() ? std::string(why) : "`" + text + "` " + why,
                    callee.is_unknown() ? callee.cause() : nullptr);
    note_escapes(args);
    forget_lists_passed(args);
    return Value::unknown();
  };
  if (!callee.is_object() || !callee.as_object()) return unresolved("is not known");
  if (callee.as_object()->attribute(kForwardHooksAttr) || (global_module_hooks_ && is_module_value(callee))) {
    if (OpenSite* open = open_site(site)) open->hooked = true;
    if (callee.as_object()->attribute(kForwardHooksAttr)) return unresolved("has forward hooks the analysis does not follow");
    return unresolved("is a module, and a hook registered for every module (register_module_forward_hook) may change its input or output");
  }
  // `m.forward = ...` on a module instance: nn.Module.__call__ calls that
  if (const Value* forward = callee.as_object()->attribute("forward")) {
    const auto* inst = object_as<InstanceObject>(callee);
    bool module = inst ? inst->cls->is_nn_module
                       : object_as<ContainerModule>(callee) || callee.as_object()->class_name.rfind("torch.nn.", 0) == 0;
    if (module) return call_value(*forward, nullptr, args, site);
  }
  if (auto fn = shared_as<FunctionObject>(callee)) return call_function(fn, args, std::nullopt, site);
  if (const auto* partial = object_as<PartialObject>(callee)) {
    // The run-time check sees the partial object, not the library function
    // and the arguments it binds: it cannot check this call (tester6/07)
    if (object_as<LibraryName>(partial->func) || object_as<BoundBuiltin>(partial->func))
      if (OpenSite* open = open_site(site)) open->through_partial = true;
    // partial(f, *a, **k)(*b, **kw) is f(*a, *b, **{**k, **kw})
    std::vector<ArgValue> merged;
    for (const Value& v : partial->args) merged.push_back(ArgValue{Argument::Type::Positional, {}, v, nullptr, {}});
    for (const ArgValue& x : args)
      if (x.type == Argument::Type::Positional || x.type == Argument::Type::Star) merged.push_back(x);
    for (const auto& [name, v] : partial->keywords) {
      bool given = false;
      for (const ArgValue& x : args) given = given || (x.type == Argument::Type::Keyword && x.name == name);
      if (!given) merged.push_back(ArgValue{Argument::Type::Keyword, name, v, nullptr, {}});
    }
    for (const ArgValue& x : args)
      if (x.type == Argument::Type::Keyword || x.type == Argument::Type::DoubleStar) merged.push_back(x);
    return call_value(partial->func, nullptr, merged, site);
  }
  if (const auto* choice = object_as<ChoiceObject>(callee))
    return over_choice(*choice, [&](const Value& alt) { return call_value(alt, callee_expr, args, site); },
                       callee_expr ? source_text(callee_expr->loc, 24) + "(...)" : "call");
  if (const auto* bm = object_as<BoundMethod>(callee)) return call_function(bm->function, args, bm->self, site);
  if (auto cls = shared_as<ClassObject>(callee)) return instantiate(cls, args, site);
  if (const auto* inst = object_as<InstanceObject>(callee)) {
    const Value* call = inst->cls->lookup("__call__");
    if (!call && inst->cls->is_nn_module) call = inst->cls->lookup("forward");
    if (call) {
      if (auto fn = shared_as<FunctionObject>(*call)) return call_function(fn, args, callee, site);
    }
    // a project subclass of a library module that keeps its forward (`class Layer(nn.Linear)`)
    if (inst->cls->is_nn_module && !inst->cls->library_base.empty()) {
      if (auto r = apply_named_rule(inst->cls->library_base + ".forward", Receiver{callee, callee_expr}, args, site))
        return *r;
      // a library forward no rule models (`class Seq2Seq(nn.Transformer)`):
      // the runtime has no check for it either, so it is listed (tester8/01)
      if (inst->cls->library_base != "torch.nn.Module") {
        note_no_rule(site, inst->cls->library_base + ".forward");
        note_escapes(args);
        forget_lists_passed(args);
        return Value::unknown();
      }
    }
    return unresolved("is an instance the analysis cannot call");
  }
  if (const auto* container = object_as<ContainerModule>(callee)) {
    if (!container->is_sequential() || !container->children_known) return unresolved("holds layers the analysis cannot list");
    std::vector<ArgValue> positional;
    for (const ArgValue& a : args)
      if (a.type == Argument::Type::Positional) positional.push_back(a);
    if (positional.size() != 1 || positional.size() != args.size()) return unresolved("is called with several inputs");
    ArgValue input = positional.front();
    std::string name = callee_expr ? source_text(callee_expr->loc, 40) : std::string();
    std::optional<std::size_t> input_from;  // the last layer that changed the shape
    for (std::size_t k = 0; k < container->children.size(); ++k) {
      const Value& child = container->children[k];
      std::size_t first = raw_.size();
      Value out;
      if (object_as<InstanceObject>(child) || object_as<ContainerModule>(child) || object_as<ChoiceObject>(child)) {
        out = call_value(child, nullptr, {input}, site);
      } else if (child.is_object() && child.as_object() &&
                 (child.as_object()->attribute(kForwardHooksAttr) || global_module_hooks_)) {
        // a layer given forward hooks (`for m in net.modules(): m.register_forward_pre_hook(f)`)
        if (OpenSite* open = open_site(site)) open->hooked = true;
        note_unresolved(site, "a layer of the nn.Sequential has forward hooks the analysis does not follow");
        out = Value::tensor(Shape::unknown(), false);
      } else if (child.is_object() && child.as_object() && !object_as<LibraryName>(child)) {
        const std::string& cls = child.as_object()->class_name;
        if (std::optional<Value> r = apply_named_rule(cls + ".forward", Receiver{child, nullptr}, {input}, site)) {
          out = *r;
        } else {
          // a layer without a rule (a torchvision transform, an nn module not modelled yet)
          out = cls.rfind("torch.nn.", 0) == 0 ? Value::tensor(Shape::unknown(), false) : Value::unknown();
          out = out.with_cause(note_no_rule(site, cls + ".forward"));
        }
      } else {
        note_unresolved(site, "a layer of the nn.Sequential is not known");
        out = Value::unknown();
      }
      note_sequential_layer(*container, name, k, input_from, input.value, first);
      if (k < container->child_exprs.size()) record_shape(container->child_exprs[k], out);  // the shape after it
      if (!out.is_tensor() || !input.value.is_tensor() || out.shape().str() != input.value.shape().str()) input_from = k;
      input = ArgValue{Argument::Type::Positional, {}, out, nullptr, {}};
    }
    return input.value;
  }
  if (const auto* lib = object_as<LibraryName>(callee)) {
    if (!harmless_library_call(lib->path)) note_escapes(args);
    forget_lists_passed(args, lib->path);
    Value out = call_library(lib->path, args, site);
    // `torch.matmul(a, b, out=c)` resizes c to the result
    for (const ArgValue& a : args) {
      if (a.type != Argument::Type::Keyword || a.name != "out" || !a.expr || !a.value.is_tensor()) continue;
      bool named = isa<Name>(a.expr) || isa<Attribute>(a.expr);
      assign_in_place(named ? a.expr : nullptr, a.value, out.is_tensor() ? out : Value::tensor(Shape::unknown(), false),
                      a.expr->loc);
    }
    return out;
  }
  if (const auto* bb = object_as<BoundBuiltin>(callee)) {
    Value out = call_method(*bb, Receiver{bb->receiver, nullptr}, args, site, nullptr);
    // `op = x.t_; op()`, `getattr(x, "t_")()` (a list's method called so
    // changes its holders in call_method)
    reshaped_in_place(*bb, out, nullptr, site ? site->loc : SourceLoc{});
    return out;
  }
  if (object_as<ModuleNamespace>(callee) || object_as<SuperObject>(callee) || object_as<DictObject>(callee) ||
      object_as<ArgParserObject>(callee) || object_as<DataLoaderObject>(callee) || object_as<DatasetObject>(callee) ||
      object_as<EnumerateObject>(callee) || object_as<ZipObject>(callee) || object_as<LoaderIterator>(callee))
    return unresolved("is an object the analysis cannot call");
  return call_module_object(callee, callee_expr, args, site);
}

bool Interpreter::is_tensor_method(const std::string& name) const {
  static const std::set<std::string> queries = {"size", "dim", "ndimension", "numel", "nelement"};
  return queries.count(name) || registry_.find("Tensor." + name) != nullptr;
}

Value Interpreter::call_module_object(const Value& module, const Expr* callee_expr, const std::vector<ArgValue>& args,
                                      const Node* site) {
  const std::string& cls = module.as_object()->class_name;
  // an nn module without a forward rule still gives a tensor (or a tuple of them)
  Value fallback = cls.rfind("torch.nn.", 0) == 0 ? Value::tensor(Shape::unknown(), false) : Value::unknown();
  if (auto r = apply_named_rule(cls + ".forward", Receiver{module, callee_expr}, args, site)) return *r;
  return fallback.with_cause(note_no_rule(site, cls + ".forward"));
}

Value Interpreter::with_fresh_symbols(const Value& v, std::size_t first, std::size_t end,
                                      std::unordered_map<const TermNode*, Dim>& renamed, int depth) {
  if (first >= end || depth > 8) return v;
  auto rename = [&](const Dim& s) -> std::optional<Dim> {
    auto id = static_cast<std::size_t>(s.node()->value);
    if (id < first || id >= end) return std::nullopt;
    auto it = renamed.find(s.node());
    if (it == renamed.end()) it = renamed.emplace(s.node(), fresh_like(s)).first;
    return it->second;
  };
  auto dim = [&](const Dim& d) { return rename_symbols(d, rename); };
  Value out = v;
  switch (v.kind()) {
    case ValueKind::Int: out = Value::integer(dim(v.as_int())); break;
    case ValueKind::Bool: out = Value::boolean(rename_symbols(v.as_bool(), rename)); break;
    case ValueKind::Unknown:
      if (auto hint = v.int_view()) out = Value::unknown_int(dim(*hint));
      break;
    case ValueKind::Tensor: {
      const Shape& s = v.shape();
      const std::vector<Dim>& before = s.rank_known() ? s.dims() : s.known_suffix();
      std::vector<Dim> dims;
      for (const Dim& d : before) dims.push_back(dim(d));
      if (dims == before) return v;
      out = Value::tensor(s.rank_known() ? Shape(std::move(dims)) : Shape::unknown_with_suffix(std::move(dims)),
                          v.contiguous());
      break;
    }
    case ValueKind::Sequence:
      if (v.items()) {
        std::vector<Value> items;
        for (const Value& item : *v.items()) items.push_back(with_fresh_symbols(item, first, end, renamed, depth + 1));
        out = Value::sequence(v.sequence_kind(), std::move(items));
      } else if (v.element()) {
        out = Value::unknown_length(v.sequence_kind(), with_fresh_symbols(*v.element(), first, end, renamed, depth + 1),
                                    v.uniform_items());
      }
      break;
    default: return v;  // objects are shared: their sizes are the object's
  }
  return out.with_cause(v.cause());
}

std::string Interpreter::memo_key(const FunctionObject& fn, const std::vector<Value>& args) const {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(&fn)) + "|" + std::to_string(context_) + "|";
  for (const Value& v : args) key += value_key(v) + ";";
  // a call inside a try whose handler catches shape errors: its failures are
  // warnings there, errors elsewhere (handler_for), so the entry is the try's
  if (!handlers_.empty()) key += "|try" + std::to_string(handlers_.back().loc.begin) + "." + std::to_string(handlers_.size());
  if (in_torchscript_ > 0) key += "|torchscript";  // its sites' visits count as compiled
  return key;
}

Value Interpreter::call_function(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                                 const std::optional<Value>& self, const Node* site) {
  if (fn && fn->undecorated) return call_inside_contexts(fn, args, self, site);
  if (fn && fn->result_cache) return call_cached(fn, args, self, site);
  return call_function_body(fn, args, self, site);
}

// A call of a function decorated with context managers: as `with cm:`
// around the call, for each, outermost first. A manager whose __enter__ or
// __exit__ the analysis does not follow may change what it reaches, and one
// whose __exit__ may return true may end the call with None.
Value Interpreter::call_inside_contexts(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                                        const std::optional<Value>& self, const Node* site) {
  bool may_suppress = false;
  for (auto it = fn->entered_around.rbegin(); it != fn->entered_around.rend(); ++it) {
    auto inst = shared_as<InstanceObject>(*it);
    const Value* enter = inst ? inst->cls->lookup("__enter__") : nullptr;
    if (auto enter_fn = enter ? shared_as<FunctionObject>(*enter) : nullptr) call_function(enter_fn, {}, *it, site);
    else forget_object(*it);
  }
  Value result = call_function(fn->undecorated, args, self, site);
  for (const Value& cm : fn->entered_around) {
    auto inst = shared_as<InstanceObject>(cm);
    const Value* exit = inst ? inst->cls->lookup("__exit__") : nullptr;
    if (auto exit_fn = exit ? shared_as<FunctionObject>(*exit) : nullptr) {
      std::vector<ArgValue> none(3, ArgValue{Argument::Type::Positional, {}, Value::none(), nullptr, {}});
      call_function(exit_fn, none, cm, site);
      may_suppress = may_suppress || !returns_only_falsy(*exit_fn);
    } else {
      forget_object(cm);
      may_suppress = may_suppress || exit;
    }
  }
  return may_suppress ? join_values(result, Value::none(), {}, fn->qualname + "()") : result;
}

namespace {
// The key Python's lru_cache would hash the arguments by, when the analysis
// knows it: constants, strings, None and tuples of them. nullopt for
// anything else (a tensor or an object is keyed by its identity).
std::optional<std::string> argument_key(const Value& v) {
  if (v.is_none()) return std::string("N");
  if (v.is_str() && v.as_str()) return "s" + std::to_string(v.as_str()->size()) + ":" + *v.as_str();
  if (v.is_int() && v.as_int().is_constant()) return "i" + std::to_string(*v.as_int().constant_value());
  // equal values hash equal: True is 1, 2.0 is 2
  if (v.is_bool() && v.as_bool().is_constant()) return std::string(v.as_bool().is_true() ? "i1" : "i0");
  if (v.is_float() && v.as_float()) {
    double f = *v.as_float();
    if (std::fabs(f) < 9e15 && f == std::floor(f)) return "i" + std::to_string(static_cast<int64_t>(f));
    return "f" + std::to_string(f);
  }
  if (v.is_sequence() && v.sequence_kind() == SequenceKind::Tuple && v.items()) {
    std::string key = "(";
    for (const Value& item : *v.items()) {
      std::optional<std::string> k = argument_key(item);
      if (!k) return std::nullopt;
      key += *k + ",";
    }
    return key + ")";
  }
  return std::nullopt;
}
}  // namespace

Value Interpreter::call_cached(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                               const std::optional<Value>& self, const Node* site) {
  FunctionObject::ResultCache& cache = *fn->result_cache;
  std::optional<std::string> key = std::string();
  if (self) key = std::nullopt;  // a method: keyed by the instance's identity
  for (const ArgValue& a : args) {
    if (!key) break;
    std::optional<std::string> k = a.type == Argument::Type::Positional || a.type == Argument::Type::Keyword
                                       ? argument_key(a.value)
                                       : std::nullopt;
    key = k ? std::optional<std::string>(*key + a.name + "=" + *k + ";") : std::nullopt;
  }
  if (key && key->empty()) key = "()";
  // Entries may be evicted (a bounded cache that holds as many as it can,
  // `cache_clear()` anywhere in the unit): a hit may be a fresh call too.
  if (!clears_caches_) clears_caches_ = project_text_matches("cache_clear");
  bool evictable = (cache.maxsize && static_cast<int64_t>(cache.entries.size()) >= cache.maxsize.value()) || *clears_caches_;
  JoinOptions join;
  std::optional<Value> result;
  auto add = [&](const Value& v) {
    result = result ? join_values(*result, v, join, fn->def ? fn->def->name + "()" : "result") : v;
  };
  bool hit = false;
  for (const auto& [k, v] : cache.entries) {
    if (key && k == *key) hit = true;
    // the same object each time: a list or dict the caller changed since is
    // not what was cached (lists are values here)
    if (!key || k.empty() || k == *key)
      add(v.is_sequence() && v.sequence_kind() == SequenceKind::List ? Value::unknown_length(SequenceKind::List, Value::unknown()) : v);
  }
  if (!hit || evictable) add(call_function_body(fn, args, self, site));
  if (!hit) cache.entries.emplace_back(key ? *key : std::string(), *result);
  return *result;
}

Value Interpreter::call_function_body(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                                      const std::optional<Value>& self, const Node* site) {
  if (!fn || (!fn->def && !fn->lambda)) return Value::unknown();
  const auto* instance = self ? object_as<InstanceObject>(*self) : nullptr;
  struct Compiled {
    int& depth;
    bool on;
    Compiled(int& d, bool o) : depth(d), on(o) { depth += on; }
    ~Compiled() { depth -= on; }
  } compiled(in_torchscript_, fn->torchscript || (instance && instance->torchscript));
  // A call the analysis does not follow leaves the callee unanalysed in that
  // context: it is analysed again with unknown arguments (analyse_uncalled).
  if (call_depth_ >= options_.max_call_depth) {
    mark_incomplete(fn->def);
    forget_lists_passed(args);
    return Value::unknown();
  }
  int component = fn->def ? call_graph_.component(fn->def) : -1;

  // ---- bind the arguments to the parameters
  const std::vector<Parameter>& params = fn->params();
  std::vector<Value> values(params.size(), Value::unknown());
  std::vector<SourceLoc> origins(params.size());
  std::vector<bool> filled(params.size(), false);
  std::vector<std::pair<Value, SourceLoc>> positional;
  std::vector<const Expr*> positional_exprs;  // the caller's expression of each, if any
  std::vector<std::pair<std::string, std::pair<Value, SourceLoc>>> keywords;
  std::vector<const Expr*> keyword_exprs;
  bool unknown_rest = false;  // a *args or **kwargs the analysis cannot list
  if (self) {
    positional.push_back({*self, {}});
    positional_exprs.push_back(nullptr);
  }
  for (const ArgValue& a : args) {
    // where the argument's value came from: a variable's assignment, or the expression
    SourceLoc loc = a.expr ? a.expr->loc : SourceLoc{};
    if (const auto* n = a.expr ? dyn_cast<Name>(a.expr) : nullptr) {
      if (Binding* b = find_binding(n->id); b && b->origin.valid()) loc = b->origin;
    }
    switch (a.type) {
      case Argument::Type::Positional:
        positional.push_back({a.value, loc});
        positional_exprs.push_back(a.expr);
        break;
      case Argument::Type::Keyword:
        keywords.push_back({a.name, {a.value, loc}});
        keyword_exprs.push_back(a.expr);
        break;
      case Argument::Type::Star: {
        auto items = known_items(a.value, 4096);
        if (!items) {
          unknown_rest = true;
          break;
        }
        for (const Value& item : *items) {
          positional.push_back({item, {}});
          positional_exprs.push_back(nullptr);
        }
        break;
      }
      case Argument::Type::DoubleStar: {
        const auto* d = object_as<DictObject>(a.value);
        if (!d || !d->complete) {
          unknown_rest = true;
          break;
        }
        for (const auto& [k, v] : d->entries) {
          if (k.rfind("s:", 0) != 0) continue;
          keywords.push_back({k.substr(2), {v, {}}});
          keyword_exprs.push_back(nullptr);
        }
        break;
      }
    }
  }
  std::vector<const Expr*> arg_exprs(params.size(), nullptr);
  std::size_t next = 0;
  int varargs = -1, varkw = -1;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Parameter& p = params[i];
    if (p.type == Parameter::Type::VarArgs) {
      varargs = static_cast<int>(i);
      std::vector<Value> rest;
      for (; next < positional.size(); ++next) rest.push_back(positional[next].first);
      values[i] = unknown_rest ? Value::unknown_length(SequenceKind::Tuple, Value::unknown()) : Value::tuple(std::move(rest));
      filled[i] = true;
    } else if (p.type == Parameter::Type::VarKeywords) {
      varkw = static_cast<int>(i);
    } else if ((p.type == Parameter::Type::PositionalOnly || p.type == Parameter::Type::Regular) &&
               next < positional.size()) {
      values[i] = positional[next].first;
      origins[i] = positional[next].second;
      arg_exprs[i] = positional_exprs[next];
      filled[i] = true;
      ++next;
    }
  }
  auto kwdict = std::make_shared<DictObject>();
  for (std::size_t k = 0; k < keywords.size(); ++k) {
    const auto& [name, val] = keywords[k];
    bool matched = false;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Parameter& p = params[i];
      if (p.name == name && (p.type == Parameter::Type::Regular || p.type == Parameter::Type::KeywordOnly)) {
        values[i] = val.first;
        origins[i] = val.second;
        arg_exprs[i] = keyword_exprs[k];
        filled[i] = true;
        matched = true;
      }
    }
    if (!matched) kwdict->set("s:" + name, val.first);
  }
  if (unknown_rest) kwdict->complete = false;
  if (varkw >= 0) {
    values[static_cast<std::size_t>(varkw)] = Value::object(kwdict);
    filled[static_cast<std::size_t>(varkw)] = true;
  }
  (void)varargs;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (filled[i]) continue;
    // a parameter the call may fill through an unlisted *args/**kwargs stays unknown
    if (!unknown_rest && i < fn->has_default.size() && fn->has_default[i]) values[i] = fn->defaults[i];
  }

  // ---- shape annotations: obligations at this call, facts inside
  const FunctionAnnotations* annotations = fn->def ? annotations_of(fn->def) : nullptr;
  if (annotations && annotations->has_entry()) check_entry(*annotations, values, origins, site, fn->def->name_loc);

  // ---- memo
  std::string key = memo_key(*fn, values);

  // ---- recursion: followed while each call's arguments are new and the
  // recursion shallow (a module tree built by level, `Tree(level - 1)`);
  // otherwise a Dyn result
  if (fn->def) {
    bool recursive_component = component >= 0 && call_graph_.recursive(fn->def);
    int depth = 0;
    bool repeated = false;
    for (std::size_t i = 0; i < active_sccs_.size(); ++i) {
      if (active_defs_[i] != fn->def && !(recursive_component && active_sccs_[i] == component)) continue;
      ++depth;
      repeated = repeated || active_keys_[i] == key;
    }
    if (repeated || depth >= kMaxRecursionDepth) {
      mark_incomplete(fn->def);
      forget_lists_passed(args);
      return Value::unknown();
    }
  }
  std::vector<const TermNode*> facts_at_call = solver_->scoped_facts();
  auto hit = memo_.find(key);
  bool sampled = options_.record_signatures && recording_ && fn->def && site && !isa<FunctionDef>(site);
  // An analysis under facts no longer assumed (a branch condition of another
  // path) proved its obligations for that path only: analyse the call again.
  // An analysis in a loop's silent pass recorded nothing: a recording visit
  // analyses the call again.
  auto globals_changed = [](const MemoEntry& e) {
    for (const auto& [where, read] : e.global_reads) {
      auto g = where.first->globals.find(where.second);
      if (g == where.first->globals.end() || !same_value(g->second.value, read.value)) return true;
      const auto* inst = object_as<InstanceObject>(g->second.value);
      if (inst && inst->version != read.version) return true;  // an attribute of it was set
    }
    return false;
  };
  if (hit != memo_.end() && ((recording_ && !hit->second.recorded) || !solver_->assumes(hit->second.facts) ||
                             globals_changed(hit->second))) {
    memo_.erase(hit);
    hit = memo_.end();
  }
  if (hit != memo_.end()) {
    ++stats_.memo_hits;
    std::unordered_map<const TermNode*, Dim> renamed;
    Value again = with_fresh_symbols(hit->second.result, hit->second.first_symbol, hit->second.end_symbol, renamed);
    if (sampled) call_samples_[fn->def].push_back({values, again});
    std::set<std::size_t> changed = hit->second.changed_parameters;
    // the caller's analysis read what the callee read
    if (!active_global_reads_.empty())
      for (const auto& read : hit->second.global_reads) active_global_reads_.back().insert(read);
    apply_parameter_changes(*fn, changed, arg_exprs, values, filled);
    return again;
  }
  const std::size_t first_symbol = symbol_count();

  auto f = std::make_unique<Frame>();
  f->module = fn->module;
  f->vars = &f->locals;
  f->closure = fn->closure;
  f->owner = fn->owner;
  if (!values.empty()) f->self = values.front();
  f->start_steps = steps_;
  f->budget = options_.function_budget;
  SourceLoc def_loc = fn->def ? fn->def->name_loc : fn->lambda->loc;
  for (std::size_t i = 0; i < params.size(); ++i) {
    f->locals[params[i].name] = Binding{values[i], origins[i].valid() ? origins[i] : params[i].loc, {}};
    f->parameter_slots[params[i].name] = i;
  }
  if (annotations) {
    f->annotations = annotations;
    for (const AnnotatedParam& p : annotations->params) f->entry_values.push_back(values[p.index]);
  }

  if (fn->def) analysed_defs_.insert(fn->def);
  ++stats_.functions_analysed;
  // the call stack's bookkeeping, restored however the call ends
  struct ActiveCall {
    Interpreter& in;
    GlobalReads& reads;  // filled when the call ends
    ActiveCall(Interpreter& i, const ir::FunctionDef* def, int component, const std::string& key, GlobalReads& r)
        : in(i), reads(r) {
      in.active_defs_.push_back(def);
      in.active_sccs_.push_back(component);
      in.active_keys_.push_back(key);
      in.active_global_reads_.emplace_back();
      ++in.call_depth_;
    }
    ~ActiveCall() {
      --in.call_depth_;
      // what the call read, its caller read too
      GlobalReads done = std::move(in.active_global_reads_.back());
      in.active_global_reads_.pop_back();
      if (!in.active_global_reads_.empty())
        for (auto& read : done) in.active_global_reads_.back().insert(read);
      reads = std::move(done);
      in.active_keys_.pop_back();
      in.active_sccs_.pop_back();
      in.active_defs_.pop_back();
    }
  };
  Value result;
  GlobalReads global_reads;       // module globals the call read
  std::set<std::size_t> changed;  // parameters the call changed in place
  bool followed = true;           // false: the call's changes are not all known
  {
    ActiveCall active(*this, fn->def, component, key, global_reads);
    bool saved_guess = receiver_is_guess_;
    receiver_is_guess_ = false;  // the callee's receivers are its own
    FrameGuard guard(*this, std::move(f));
    try {
      if (fn->lambda) {
        result = eval(fn->lambda->body);
      } else if (fn->def->is_generator) {
        exec_generator_body(*fn->def);
      } else {
        exec_body(fn->def->body);
      }
      if (!fn->lambda) {
        Frame& done = frame();
        changed = done.changed_parameters;
        std::vector<Value> outs = done.returns;
        if (done.live) outs.push_back(Value::none());
        if (done.is_generator || outs.empty()) {
          result = Value::unknown();
        } else {
          result = outs.front();
          for (std::size_t i = 1; i < outs.size(); ++i) result = join_values(result, outs[i], {}, fn->qualname);
        }
      }
    } catch (const BudgetExceeded&) {
      ++stats_.budget_exhausted;
      mark_incomplete(fn->def);
      followed = false;
      result = Value::unknown();
      if (warned_once_.insert(fn->qualname).second) {
        internal_.push_back({Severity::Note, fn->def ? fn->def->name_loc : def_loc, {},
                             "shape analysis of '" + fn->qualname + "' stopped at its work budget; its result is unknown",
                             {}, {}});
      }
    } catch (const std::exception& e) {
      // an internal failure stays inside this call: its result is unknown
      ++stats_.module_failures;
      mark_incomplete(fn->def);
      followed = false;
      result = Value::unknown();
      internal_.push_back({Severity::Note, def_loc, {},
                           "shape analysis of '" + fn->qualname + "' stopped: " + e.what(), {}, {}});
    }
    receiver_is_guess_ = saved_guess;
  }
  if (sampled) call_samples_[fn->def].push_back({values, result});
  // the entry keeps the callee and its arguments alive (MemoEntry)
  if (!followed) forget_lists_passed(args);
  apply_parameter_changes(*fn, changed, arg_exprs, values, filled);
  memo_[key] = MemoEntry{result, fn, std::move(values), std::move(facts_at_call), recording_, first_symbol, symbol_count(), changed,
                         std::move(global_reads)};
  memo_log_.push_back(key);
  (void)site;
  return result;
}

// A generator's body runs when it is iterated, which may be at any time
// after the call: interleaved with its consumer (a `for` body, a `with`
// body of a @contextmanager), or never. It is analysed now for its sites,
// but what it writes to objects and globals that existed before the call
// is unknown afterwards: neither the state before nor the one its analysis
// ended with is known to hold at any later point (tester6/12).
void Interpreter::exec_generator_body(const ir::FunctionDef& def) {
  run_at_unknown_time([&] { exec_body(def.body); });
}

// Analyses `body` (for its sites), then forgets what it wrote to objects,
// module globals, lists and the module's dicts that existed before: it runs
// at a time the analysis does not know.
void Interpreter::run_at_unknown_time(const std::function<void()>& body) {
  const WriteMark mark = write_mark();
  // the module's globals and the entries of its dicts, to see what changed
  // (`dims[0] = 6` rebinds the global list, `state["w"] = 6` sets an entry)
  Vars& globals = frame().module->globals;
  const Vars globals_before = globals;
  std::vector<std::pair<std::shared_ptr<DictObject>, std::vector<std::pair<std::string, Value>>>> dicts_before;
  for (const auto& [name, b] : globals_before)
    if (auto d = shared_as<DictObject>(b.value)) dicts_before.emplace_back(d, d->entries);
  struct Logging {
    int& depth;
    explicit Logging(int& d) : depth(d) { ++depth; }
    ~Logging() { --depth; }
  };
  {
    Logging logging(log_depth);
    body();
  }
  std::vector<std::pair<std::shared_ptr<ObjectValue>, std::string>> written;
  for (std::size_t i = mark.log; i < write_log_.size(); ++i) {
    const AttrWrite& w = write_log_[i];
    const auto* made = dynamic_cast<const InstanceObject*>(w.object.get());
    if (made && made->born > mark.clock) continue;  // made by the generator itself
    written.emplace_back(w.object, w.name);
  }
  if (log_depth == 0) write_log_.resize(mark.log);  // nobody undoes these
  for (const auto& [object, name] : written) write_object_attribute(object, name, Value::unknown());
  bool changed = !written.empty();
  for (auto& [name, b] : globals) {
    auto before = globals_before.find(name);
    if (before == globals_before.end() || same_value(before->second.value, b.value)) continue;
    Value forgotten = after_unseen_change(b.value);
    b.value = forgotten.is_sequence() ? std::move(forgotten) : Value::unknown();
    changed = true;
  }
  for (auto& [dict, entries] : dicts_before) {
    for (auto& [key, value] : dict->entries) {
      auto old = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == key; });
      if (old != entries.end() && same_value(old->second, value)) continue;
      value = Value::unknown();
      changed = true;
    }
    if (dict->entries.size() != entries.size()) dict->complete = false;
  }
  if (changed) memo_.clear();
}

Value Interpreter::instantiate(const std::shared_ptr<ClassObject>& cls, const std::vector<ArgValue>& args, const Node* site) {
  auto inst = std::make_shared<InstanceObject>(cls);
  inst->born = ++object_clock_;
  Value self = Value::object(inst);
  if (site) note_created(inst.get(), site->loc);
  if (const Value* init = cls->lookup("__init__")) {
    if (auto fn = shared_as<FunctionObject>(*init)) {
      call_function(fn, args, self, site);
      return cls->custom_call ? Value::unknown() : self;
    }
  }
  if (cls->custom_call) return Value::unknown();
  // no __init__ of its own in a subclass of a library module (`class
  // Plain(nn.Conv2d): pass`): the library constructor builds it
  if (cls->is_nn_module && !cls->library_base.empty() && site && registry_.find(cls->library_base)) {
    std::optional<Value> built = apply_named_rule(cls->library_base, std::nullopt, args, site);
    if (built && built->is_object() && built->as_object())
      for (const auto& [attr, v] : built->as_object()->attributes) set_attribute(self, attr, v, site->loc);
    return self;
  }
  if (site && unbuilt_library_module(*inst)) note_no_rule(site, cls->library_base);  // its constructor's requirements
  if (cls->is_dataclass) {
    std::size_t next = 0;
    std::map<std::string, Value> given;
    for (const ArgValue& a : args) {
      if (a.type == Argument::Type::Positional && next < cls->fields.size()) given[cls->fields[next++].name] = a.value;
      if (a.type == Argument::Type::Keyword) given[a.name] = a.value;
    }
    for (const auto& field : cls->fields) {
      auto it = given.find(field.name);
      Value v = it != given.end() ? it->second : field.default_value ? *field.default_value : Value::unknown();
      inst->attributes[field.name] = v;
      if (site) inst->origins[field.name] = site->loc;
    }
    if (const Value* post = cls->lookup("__post_init__")) {
      if (auto fn = shared_as<FunctionObject>(*post)) call_function(fn, {}, self, site);
    }
  }
  return self;
}

std::string Interpreter::operand_text(const Expr* e) const {
  const Expr* x = e;
  while (const auto* a = dyn_cast<Attribute>(x)) x = a->value;
  if (!x || !isa<Name>(x)) return {};
  std::string text = source_text(e->loc, 40);
  return text.size() < 40 ? text : std::string();
}

UnknownShapeMemo* Interpreter::unknown_shape_memo(const Expr* e) {
  const auto* n = e ? dyn_cast<Name>(e) : nullptr;
  Binding* b = n ? find_binding(n->id) : nullptr;
  return b ? &b->unknown_sizes : nullptr;
}

std::optional<CallSite> Interpreter::make_call_site(const std::string& name, const std::optional<Receiver>& receiver,
                                                    const std::vector<ArgValue>& args, const Node* site) {
  CallSite call;
  call.name = name;
  call.loc = ir::reported_loc(site);
  slot_exprs_.clear();
  int next = 0;
  auto take_slot = [&](const Expr* e) -> int {
    if (!e) return -1;
    int s = next++;
    if (slot_exprs_.size() <= static_cast<std::size_t>(s)) slot_exprs_.resize(static_cast<std::size_t>(s) + 1, nullptr);
    slot_exprs_[static_cast<std::size_t>(s)] = e;
    return s;
  };
  if (receiver) {
    Operand op(receiver->value, receiver->expr ? take_slot(receiver->expr) : -1);
    if (!receiver->expr) next = 1;  // the receiver's number stays taken: arguments start at 1
    if (receiver->expr) {
      op.loc = receiver->expr->loc;
      op.text = operand_text(receiver->expr);
      op.memo = unknown_shape_memo(receiver->expr);
    }
    call.positional.push_back(std::move(op));
  }
  for (const ArgValue& a : args) {
    switch (a.type) {
      case Argument::Type::Positional:
      case Argument::Type::Keyword: {
        Operand op(a.value, take_slot(a.expr));
        if (a.expr) {
          op.loc = a.expr->loc;
          op.text = operand_text(a.expr);
          op.memo = unknown_shape_memo(a.expr);
        }
        if (!a.elements.empty() || (a.expr && display_of(a.expr))) {
          const SequenceExpr* display = display_of(a.expr);
          for (std::size_t i = 0; i < a.elements.size(); ++i) {
            const Expr* ex = display && i < display->elts.size() ? display->elts[i] : nullptr;
            Operand el(a.elements[i], take_slot(ex));
            if (ex) el.loc = ex->loc;
            op.elements.push_back(std::move(el));
          }
        }
        if (a.type == Argument::Type::Positional) call.positional.push_back(std::move(op));
        else call.keywords.emplace_back(a.name, std::move(op));
        break;
      }
      case Argument::Type::Star: {
        auto items = known_items(a.value, 4096);
        if (!items) return std::nullopt;
        for (const Value& item : *items) call.positional.emplace_back(item, -1);
        break;
      }
      case Argument::Type::DoubleStar: {
        const auto* d = object_as<DictObject>(a.value);
        if (!d || !d->complete) return std::nullopt;
        for (const auto& [k, v] : d->entries) {
          if (k.rfind("s:", 0) != 0) return std::nullopt;
          call.keywords.emplace_back(k.substr(2), Operand(v, -1));
        }
        break;
      }
    }
  }
  return call;
}

std::optional<Value> Interpreter::apply_named_rule(const std::string& name, const std::optional<Receiver>& receiver,
                                                   const std::vector<ArgValue>& args, const Node* site) {
  const Rule* rule = registry_.find(name);
  if (!rule) return std::nullopt;
  if (!library_overrides_.empty() &&
      (library_overrides_.count(name) || (name.rfind("Tensor.", 0) == 0 && library_overrides_.count("torch." + name)))) {
    // `nn.Linear.forward = lora_forward`, `torch.Tensor.view = safe_view`:
    // the program replaced what the rule describes
    note_unresolved(site, "`" + name + "` was replaced by the program");
    return rule->checks_only ? std::nullopt : std::optional<Value>(Value::unknown());
  }
  std::optional<CallSite> call = make_call_site(name, receiver, args, site);
  if (!call) {
    note_unmodelled(site, name);
    if (rule->checks_only) return std::nullopt;
    return Value::unknown();
  }
  std::size_t first = raw_.size();
  Value result = apply_rule_at(*rule, *call, site);
  std::vector<const Expr*> operands;
  if (receiver && receiver->expr) operands.push_back(receiver->expr);
  for (const ArgValue& a : args)
    if (a.expr && (a.type == Argument::Type::Positional || a.type == Argument::Type::Keyword)) operands.push_back(a.expr);
  refine_pinned_ranks(name, operands, first, site);
  refine_module_input(name, args, first);
  // the caller models the value, unless the rule computed it (an advanced index)
  if (rule->checks_only) return result.is_tensor() ? std::optional<Value>(result) : std::nullopt;
  return result;
}

namespace {
// The constants `k` of the conjuncts `rank == k` in `p` (as far as it is a
// conjunction), candidates for the rank a check pinned.
void pinned_values(const TermNode* p, const TermNode* rank, std::set<int64_t>& out) {
  if (p->op == TermOp::And) {
    for (const TermNode* a : p->args) pinned_values(a, rank, out);
    return;
  }
  if (p->op != TermOp::Eq || p->args.size() != 2) return;
  const TermNode* a = p->args[0];
  const TermNode* b = p->args[1];
  if (a == rank && b->op == TermOp::Const) out.insert(b->value);
  if (b == rank && a->op == TermOp::Const) out.insert(a->value);
}
}  // namespace

void Interpreter::refine_module_input(const std::string& rule_name, const std::vector<ArgValue>& args, std::size_t first) {
  // nn.Identity and nn.Flatten-like layers aside, an nn module's forward
  // takes a tensor (torch raises before anything else otherwise); the
  // recurrent ones take a PackedSequence too
  static const std::set<std::string> any_input = {"torch.nn.Identity.forward", "torch.nn.LSTM.forward", "torch.nn.GRU.forward",
                                                  "torch.nn.RNN.forward"};
  if (receiver_is_guess_ || rule_name.rfind("torch.nn.", 0) != 0 || any_input.count(rule_name)) return;
  if (rule_name.size() < 8 || rule_name.compare(rule_name.size() - 8, 8, ".forward") != 0) return;
  for (std::size_t i = first; i < raw_.size(); ++i)
    if (raw_[i].status == Status::Refuted) return;  // the program stops here
  if (args.empty() || args.front().type != Argument::Type::Positional) return;
  const auto* n = dyn_cast<Name>(args.front().expr);
  Binding* b = n ? find_binding(n->id) : nullptr;
  // The module accepted it: from here on the name is a tensor of unknown
  // rank, with the sizes the rule named for it (x.size(-1) == in_features).
  if (b && b->value.is_unknown()) b->value = Value::tensor(Shape::unknown(), false);
}

void Interpreter::refine_pinned_ranks(const std::string& rule_name, const std::vector<const Expr*>& operands,
                                      std::size_t first, const Node* site) {
  for (std::size_t i = first; i < raw_.size(); ++i)
    if (raw_[i].status == Status::Refuted) return;  // the program stops here
  for (const Expr* e : operands) {
    const auto* n = dyn_cast<Name>(e);
    Binding* b = n ? find_binding(n->id) : nullptr;
    if (!b || !b->unknown_sizes.rank) continue;
    // a value not known to be a tensor only when the op takes nothing else
    // (einops' functions take numpy arrays too; a guessed receiver may be any object)
    bool torch_only = (rule_name.rfind("torch.", 0) == 0 || rule_name.rfind("einops.layers.torch.", 0) == 0) && !receiver_is_guess_;
    if (!(b->value.is_tensor() && !b->value.shape().rank_known()) && !(b->value.is_unknown() && torch_only)) continue;
    const Dim rank = *b->unknown_sizes.rank;
    std::set<int64_t> candidates;
    for (std::size_t i = first; i < raw_.size(); ++i) pinned_values(raw_[i].constraint.pred().node(), rank.node(), candidates);
    for (int64_t k : candidates) {
      if (k < 0 || k > 64 || solver_->settle(eq(rank, Dim(k))) != true) continue;
      // The checks at this line (proven, or run before anything after it)
      // fix the rank: the variable has k axes from here on.
      fix_rank(*n, *b, std::vector<std::string>(static_cast<std::size_t>(k)), site->loc, true);
      break;
    }
  }
}

// GSHAPE_DEBUG_SITE=FILE:LINE (a path suffix and a line): for each
// obligation a rule emits there that is not proven, the functions on the
// stack and how the visit runs, on stderr (to find which caller makes an
// operand unknown; not for users, no format promise).
void Interpreter::debug_trace(const Node* site, std::size_t first) {
  static const char* wanted = std::getenv("GSHAPE_DEBUG_SITE");
  if (!wanted || !site || !site->loc.file) return;
  std::string w(wanted);
  std::size_t colon = w.rfind(':');
  if (colon == std::string::npos || std::to_string(site->loc.line) != w.substr(colon + 1)) return;
  const std::string& path = site->loc.file->path();
  std::string suffix = w.substr(0, colon);
  if (path.size() < suffix.size() || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) return;
  for (std::size_t i = first; i < raw_.size(); ++i) {
    if (raw_[i].status == Status::Proven) continue;
    std::fprintf(stderr, "[debug] %s:%u %s %s (%s)%s%s\n", path.c_str(), site->loc.line, raw_[i].tag.c_str(),
                 status_name(raw_[i].status), raw_[i].reason.c_str(), in_uncalled_pass_ ? " uncalled pass: " : "",
                 in_uncalled_pass_ ? uncalled_root_.c_str() : "");
    for (std::size_t k = active_defs_.size(); k-- > 0;) {
      const ir::FunctionDef* def = active_defs_[k];
      std::fprintf(stderr, "[debug]   in %s (%s:%u)  key %s\n", def ? def->name.c_str() : "<lambda>",
                   def && def->loc.file ? def->loc.file->path().c_str() : "?", def ? def->loc.line : 0u,
                   active_keys_[k].substr(0, 160).c_str());
    }
  }
}

const Interpreter::Handler* Interpreter::handler_for(const std::string& tag) const {
  std::string_view raised = python_error_of(tag);
  // the failure propagates out of callees: a handler of a caller catches it too
  for (auto it = handlers_.rbegin(); it != handlers_.rend(); ++it)
    for (const std::string& caught : it->classes)
      if (catches(caught, raised)) return &*it;
  return nullptr;
}

Value Interpreter::apply_rule_at(const Rule& rule, const CallSite& call, const Node* site) {
  adapt_solver_limit();
  std::size_t first = raw_.size();
  struct Optional {
    bool& flag;
    explicit Optional(bool& f) : flag(f) { flag = true; }
    ~Optional() { flag = false; }
  };
  RuleResult result = [&] {
    Optional optional(proofs_optional_);
    return apply_rule(rule, call, *solver_, raw_);
  }();
  if (!uses_channels_last_) uses_channels_last_ = project_text_matches("channels_last");
  if (*uses_channels_last_) result.value = channels_last_layout(rule.name, call, result.value);
  if (OpenSite* open = open_site(site)) {
    open->rules.push_back(rule.name);
    if (!result.modelled) open->unmodelled = true;
    for (std::size_t i = first; i < raw_.size(); ++i)
      if (raw_[i].status != Status::Proven) open->not_proven = true;
    if (has_unknown_rank(call)) open->unknown_rank = true;
  }
  int evaluation = visit_of(site);
  raw_info_.resize(raw_.size());
  for (std::size_t i = first; i < raw_.size(); ++i) {
    const Handler* handler = handlers_.empty() ? nullptr : handler_for(raw_[i].tag);
    raw_info_[i].context = context_;
    raw_info_[i].evaluation = evaluation;
    raw_info_[i].uncalled = in_uncalled_pass_;
    if (in_uncalled_pass_) {
      raw_info_[i].uncalled_root = uncalled_root_;
      raw_info_[i].uncalled_root_loc = uncalled_root_loc_;
    }
    if (handler) {
      raw_info_[i].handled_by = handler->loc;
      raw_info_[i].handled_what = handler->what;
    }
    if (!handler_bodies_.empty() && handler_bodies_.back().second == frames_.size())
      raw_info_[i].in_handler = handler_bodies_.back().first;
  }
  if (receiver_is_guess_) {
    // the receiver was only guessed to be a tensor: nothing about it is certain
    for (std::size_t i = first; i < raw_.size(); ++i) {
      if (raw_[i].status != Status::Refuted) continue;
      raw_[i].status = Status::Deferred;
      raw_[i].reason = "the receiver's value is unknown (it may not be a tensor)";
      raw_[i].core.clear();
    }
    result.refuted = false;
  }
  index_deferred(first);
  attach_notes(call, first, site);
  if (result.refuted && !receiver_is_guess_) attach_help(rule, call, first);
  if (!receiver_is_guess_ && recording_) {
    for (const Advice& a : result.advice) {
      bool seen = false;
      for (const Diagnostic& d : advice_)
        seen = seen || (d.loc.file == call.loc.file && d.loc.begin == call.loc.begin && d.tag == a.tag);
      if (!seen) advice_.push_back({Severity::Warning, call.loc, {}, a.message, a.tag, {}});
    }
  }
  if (result.modelled && !result.refuted) note_reduction(rule, call, result.value, site);
  std::shared_ptr<const UnknownCause> cause =
      trace_unknown_causes(call, first, site, result.refuted && !receiver_is_guess_,
                           result.modelled && !result.refuted ? result.value : Value());
  debug_trace(site, first);
  if (!receiver_is_guess_) note_outer_broadcast(rule, call, result.modelled && !result.refuted ? result.value : Value(), site);
  // An unmodelled call, or one that certainly fails here: the value after it is
  // unknown (no cascade of errors downstream of the first).
  if (!result.modelled || result.refuted) return Value::unknown().with_cause(std::move(cause));
  if (result.value.is_object() && result.value.as_object()) note_created(result.value.as_object().get(), site->loc);
  // the layers after this one in an nn.Sequential get it with no expression between
  return cause ? attach_cause(result.value, cause) : result.value;
}

void Interpreter::adapt_solver_limit() {
  // Hard (nonlinear) queries end unknown, and a deferred check, anyway: once
  // Z3 has spent its share of the run, later queries get a smaller limit, so
  // a large project stays fast. Counted in Z3's resource units, not seconds,
  // so the same project always gets the same verdicts. Easy queries take a
  // few hundred units.
  uint64_t spent = solver_->stats().rlimit_units;
  uint64_t limit = spent < 15'000'000 ? options_.solver_rlimit : spent < 50'000'000 ? 50'000 : 5'000;
  limit = std::min(limit, options_.solver_rlimit);
  if (in_uncalled_pass_) limit = std::min(limit, options_.uncalled_rlimit);
  if (limit != solver_rlimit_) {
    solver_->set_rlimit(limit);
    solver_rlimit_ = limit;
  }
}

int Interpreter::visit_of(const Node* site) {
  auto it = active_visit_.find(site);
  if (it != active_visit_.end()) return it->second;
  return ++visit_counter_;
}

Interpreter::SiteVisit::SiteVisit(Interpreter& in, const Node* site) : in_(in), site_(site) {
  auto it = in_.active_visit_.find(site);
  if (it != in_.active_visit_.end()) previous_ = it->second;
  in_.active_visit_[site] = ++in_.visit_counter_;
}

Interpreter::SiteVisit::~SiteVisit() {
  if (previous_) {
    in_.active_visit_[site_] = *previous_;
  } else {
    in_.active_visit_.erase(site_);
  }
}

namespace {

void index_values(const Operand& op, std::map<int, const Value*>& out) {
  if (op.slot >= 0) out[op.slot] = &op.value;
  for (const Operand& e : op.elements) index_values(e, out);
}

std::string short_class(const std::string& cls) {
  std::size_t dot = cls.rfind('.');
  std::string name = dot == std::string::npos ? cls : cls.substr(dot + 1);
  if (cls.rfind("torch.nn.", 0) == 0) return "nn." + name;
  return name;
}

}  // namespace

// "self.net[2] = nn.Linear(80, 10)": a layer of a Sequential as written.
std::string Interpreter::sequential_layer_text(const ContainerModule& seq, const std::string& name, std::size_t k) const {
  const Expr* e = k < seq.child_exprs.size() ? seq.child_exprs[k] : nullptr;
  std::string text = e ? source_text(e->loc, 40) : std::string();
  if (text.empty() && seq.children[k].is_object()) text = short_class(seq.children[k].as_object()->class_name);
  return (name.empty() ? std::string("nn.Sequential") : name) + "[" + std::to_string(k) + "] = " + text;
}

// An error refuted while layer k of a Sequential ran (raw_[first...]) gets a
// note at that layer: which one it is and where its input comes from.
void Interpreter::note_sequential_layer(const ContainerModule& seq, const std::string& name, std::size_t k,
                                        std::optional<std::size_t> input_from, const Value& input, std::size_t first) {
  const Expr* e = k < seq.child_exprs.size() ? seq.child_exprs[k] : nullptr;
  SourceLoc at = e ? e->loc : SourceLoc{};
  if (!at.valid() && seq.children[k].is_object() && seq.children[k].as_object()) {
    if (const SourceLoc* made = created_at(seq.children[k].as_object().get())) at = *made;
  }
  std::string text;
  for (std::size_t i = first; i < raw_.size() && i < raw_info_.size(); ++i) {
    if (raw_[i].status != Status::Refuted) continue;
    if (text.empty()) {
      text = "in " + sequential_layer_text(seq, name, k) + (at.valid() ? " (line " + std::to_string(at.line) + ")" : "") +
             ": its input";
      std::string shape = input.is_tensor() ? ", of shape " + input.shape().str() : "";
      if (input_from) text += " comes from " + sequential_layer_text(seq, name, *input_from) + shape;
      else text += " is the input of " + (name.empty() ? std::string("the nn.Sequential") : name) + shape;
    }
    std::vector<DiagnosticNote>& notes = raw_info_[i].notes;
    notes.insert(notes.begin(), DiagnosticNote{at, text});
    if (notes.size() > 8) notes.resize(8);
  }
}

void Interpreter::attach_notes(const CallSite& call, std::size_t first, const Node* site) {
  bool any = false;
  for (std::size_t i = first; i < raw_.size(); ++i) any = any || raw_[i].status == Status::Refuted;
  if (!any) return;
  std::map<int, const Value*> values;
  for (const Operand& op : call.positional) index_values(op, values);
  for (const auto& kw : call.keywords) index_values(kw.second, values);
  for (std::size_t i = first; i < raw_.size(); ++i) {
    if (raw_[i].status != Status::Refuted) continue;
    std::vector<DiagnosticNote>& notes = raw_info_[i].notes;
    std::set<int> slots;
    for (const SlotInfo& s : raw_[i].slots) slots.insert(s.slot);
    // the receiver module of the call, even when the constraint reads only literals
    if (!call.positional.empty() && call.positional.front().value.is_object()) slots.insert(call.positional.front().slot);
    for (int slot : slots) {
      if (slot < 0) continue;
      const Expr* e = static_cast<std::size_t>(slot) < slot_exprs_.size() ? slot_exprs_[static_cast<std::size_t>(slot)] : nullptr;
      auto vit = values.find(slot);
      if (!e || vit == values.end()) continue;
      const Value& v = *vit->second;
      std::string text = source_text(e->loc, 40);
      if (v.is_tensor()) {
        SourceLoc where = e->loc;
        if (const auto* n = dyn_cast<Name>(e)) {
          if (Binding* b = find_binding(n->id); b && b->origin.valid()) where = b->origin;
        } else if (const auto* a = dyn_cast<Attribute>(e)) {
          if (const auto* base = dyn_cast<Name>(a->value)) {
            Binding* b = find_binding(base->id);
            if (const auto* inst = b ? object_as<InstanceObject>(b->value) : nullptr) {
              auto o = inst->origins.find(a->attr);
              if (o != inst->origins.end() && o->second.valid()) where = o->second;
            }
          }
        }
        notes.push_back({where, text + " has shape " + v.shape().str() + (where.begin == e->loc.begin ? "" : " from here")});
      } else if (v.is_object() && v.as_object()) {
        if (const SourceLoc* made = created_at(v.as_object().get())) {
          notes.push_back({*made, text + " (" + short_class(v.as_object()->class_name) + ") and its sizes are set here"});
        }
      }
    }
    for (const FactRef& f : raw_[i].core) notes.push_back({f.loc, f.description});
    if (notes.size() > 8) notes.resize(8);
  }
  (void)site;
}

}  // namespace gshape::gradual::interp
