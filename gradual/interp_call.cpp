// Calls: project functions analysed in the caller's context (memoised on the
// abstract arguments, recursion and depth cut to unknown), classes and their
// instances (nn.Module.__call__ → forward), nn.Sequential chains, and rule
// application at call sites with operand slots in source order.
#include "gradual/interp.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

// The display elements of a call argument written as `[a, b]` or `(a, b)`.
const SequenceExpr* display_of(const Expr* e) {
  if (!e || !(isa<List>(e) || isa<Tuple>(e))) return nullptr;
  const auto* seq = static_cast<const SequenceExpr*>(e);
  for (const Expr* x : seq->elts)
    if (isa<Starred>(x)) return nullptr;
  return seq;
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

Value Interpreter::eval_call(const Call* c) {
  SiteVisit visit(*this, c);
  if (const auto* a = dyn_cast<Attribute>(c->func)) {
    Value receiver = eval(a->value);
    Value callee = get_attribute(receiver, a->attr, a->value, a);
    if (receiver.is_unknown() && is_tensor_method(a->attr)) {
      // an opaque value used as a tensor is a tensor of unknown shape
      std::vector<ArgValue> args = eval_args(c->args);
      BoundBuiltin method(Value::tensor(Shape::unknown()), "Tensor." + a->attr);
      struct Guess {
        bool& flag;
        bool saved;
        ~Guess() { flag = saved; }
      } guess{receiver_is_guess_, receiver_is_guess_};
      receiver_is_guess_ = true;
      Value out = call_method(method, Receiver{method.receiver, a->value}, args, c, a->value);
      // size queries give symbols (unknown is never an error); a rule's result
      // on a guessed receiver is not trusted
      return out.is_int() ? out : Value::unknown();
    }
    std::vector<ArgValue> args = eval_args(c->args);
    if (const auto* bb = object_as<BoundBuiltin>(callee)) {
      return call_method(*bb, Receiver{bb->receiver, a->value}, args, c, a->value);
    }
    return call_value(callee, c->func, args, c);
  }
  Value callee = eval(c->func);
  std::vector<ArgValue> args = eval_args(c->args);
  return call_value(callee, c->func, args, c);
}

Value Interpreter::call_value(const Value& callee, const Expr* callee_expr, const std::vector<ArgValue>& args,
                              const Node* site) {
  if (!callee.is_object() || !callee.as_object()) return Value::unknown();
  if (auto fn = shared_as<FunctionObject>(callee)) return call_function(fn, args, std::nullopt, site);
  if (const auto* bm = object_as<BoundMethod>(callee)) return call_function(bm->function, args, bm->self, site);
  if (auto cls = shared_as<ClassObject>(callee)) return instantiate(cls, args, site);
  if (const auto* inst = object_as<InstanceObject>(callee)) {
    const Value* call = inst->cls->lookup("__call__");
    if (!call && inst->cls->is_nn_module) call = inst->cls->lookup("forward");
    if (call) {
      if (auto fn = shared_as<FunctionObject>(*call)) return call_function(fn, args, callee, site);
    }
    return Value::unknown();
  }
  if (const auto* container = object_as<ContainerModule>(callee)) {
    if (!container->is_sequential() || !container->children_known) return Value::unknown();
    std::vector<ArgValue> positional;
    for (const ArgValue& a : args)
      if (a.type == Argument::Type::Positional) positional.push_back(a);
    if (positional.size() != 1 || positional.size() != args.size()) return Value::unknown();
    ArgValue input = positional.front();
    for (const Value& child : container->children) {
      Value out;
      if (object_as<InstanceObject>(child) || object_as<ContainerModule>(child)) {
        out = call_value(child, nullptr, {input}, site);
      } else if (child.is_object() && child.as_object() && !object_as<LibraryName>(child)) {
        const std::string& cls = child.as_object()->class_name;
        Value fallback = cls.rfind("torch.nn.", 0) == 0 ? Value::tensor(Shape::unknown()) : Value::unknown();
        out = apply_named_rule(cls + ".forward", Receiver{child, nullptr}, {input}, site).value_or(fallback);
      } else {
        out = Value::unknown();
      }
      input = ArgValue{Argument::Type::Positional, {}, out, nullptr, {}};
    }
    return input.value;
  }
  if (const auto* lib = object_as<LibraryName>(callee)) return call_library(lib->path, args, site);
  if (const auto* bb = object_as<BoundBuiltin>(callee)) return call_method(*bb, Receiver{bb->receiver, nullptr}, args, site, nullptr);
  if (object_as<ModuleNamespace>(callee) || object_as<SuperObject>(callee) || object_as<DictObject>(callee) ||
      object_as<ArgParserObject>(callee) || object_as<DataLoaderObject>(callee) || object_as<DatasetObject>(callee) ||
      object_as<EnumerateObject>(callee) || object_as<ZipObject>(callee) || object_as<LoaderIterator>(callee))
    return Value::unknown();
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
  Value fallback = cls.rfind("torch.nn.", 0) == 0 ? Value::tensor(Shape::unknown()) : Value::unknown();
  return apply_named_rule(cls + ".forward", Receiver{module, callee_expr}, args, site).value_or(fallback);
}

std::string Interpreter::memo_key(const FunctionObject& fn, const std::vector<Value>& args) const {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(&fn)) + "|" + std::to_string(context_) + "|";
  for (const Value& v : args) key += value_key(v) + ";";
  return key;
}

Value Interpreter::call_function(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                                 const std::optional<Value>& self, const Node* site) {
  if (!fn || (!fn->def && !fn->lambda)) return Value::unknown();
  if (call_depth_ >= options_.max_call_depth) return Value::unknown();
  int component = fn->def ? call_graph_.component(fn->def) : -1;
  if (fn->def) {
    for (const ir::FunctionDef* active : active_defs_)
      if (active == fn->def) return Value::unknown();  // recursion: a Dyn result
    if (component >= 0 && call_graph_.recursive(fn->def)) {
      for (int c : active_sccs_)
        if (c == component) return Value::unknown();
    }
  }

  // ---- bind the arguments to the parameters
  const std::vector<Parameter>& params = fn->params();
  std::vector<Value> values(params.size(), Value::unknown());
  std::vector<SourceLoc> origins(params.size());
  std::vector<bool> filled(params.size(), false);
  std::vector<std::pair<Value, SourceLoc>> positional;
  std::vector<std::pair<std::string, std::pair<Value, SourceLoc>>> keywords;
  bool unknown_rest = false;  // a *args or **kwargs the analysis cannot list
  if (self) positional.push_back({*self, {}});
  for (const ArgValue& a : args) {
    // where the argument's value came from: a variable's assignment, or the expression
    SourceLoc loc = a.expr ? a.expr->loc : SourceLoc{};
    if (const auto* n = a.expr ? dyn_cast<Name>(a.expr) : nullptr) {
      if (Binding* b = find_binding(n->id); b && b->origin.valid()) loc = b->origin;
    }
    switch (a.type) {
      case Argument::Type::Positional: positional.push_back({a.value, loc}); break;
      case Argument::Type::Keyword: keywords.push_back({a.name, {a.value, loc}}); break;
      case Argument::Type::Star: {
        auto items = known_items(a.value, 4096);
        if (!items) {
          unknown_rest = true;
          break;
        }
        for (const Value& item : *items) positional.push_back({item, {}});
        break;
      }
      case Argument::Type::DoubleStar: {
        const auto* d = object_as<DictObject>(a.value);
        if (!d || !d->complete) {
          unknown_rest = true;
          break;
        }
        for (const auto& [k, v] : d->entries)
          if (k.rfind("s:", 0) == 0) keywords.push_back({k.substr(2), {v, {}}});
        break;
      }
    }
  }
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
      filled[i] = true;
      ++next;
    }
  }
  auto kwdict = std::make_shared<DictObject>();
  for (const auto& [name, val] : keywords) {
    bool matched = false;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Parameter& p = params[i];
      if (p.name == name && (p.type == Parameter::Type::Regular || p.type == Parameter::Type::KeywordOnly)) {
        values[i] = val.first;
        origins[i] = val.second;
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

  // ---- memo
  std::string key = memo_key(*fn, values);
  auto hit = memo_.find(key);
  if (hit != memo_.end()) {
    ++stats_.memo_hits;
    return hit->second.result;
  }

  auto f = std::make_unique<Frame>();
  f->module = fn->module;
  f->vars = &f->locals;
  f->closure = fn->closure;
  f->owner = fn->owner;
  if (!values.empty()) f->self = values.front();
  f->start_steps = steps_;
  f->budget = options_.function_budget;
  SourceLoc def_loc = fn->def ? fn->def->name_loc : fn->lambda->loc;
  for (std::size_t i = 0; i < params.size(); ++i)
    f->locals[params[i].name] = Binding{values[i], origins[i].valid() ? origins[i] : params[i].loc, {}};

  if (fn->def) analysed_defs_.insert(fn->def);
  ++stats_.functions_analysed;
  // the call stack's bookkeeping, restored however the call ends
  struct ActiveCall {
    Interpreter& in;
    bool has_def;
    ActiveCall(Interpreter& i, const ir::FunctionDef* def, int component) : in(i), has_def(def != nullptr) {
      if (def) in.active_defs_.push_back(def);
      in.active_sccs_.push_back(component);
      ++in.call_depth_;
    }
    ~ActiveCall() {
      --in.call_depth_;
      in.active_sccs_.pop_back();
      if (has_def) in.active_defs_.pop_back();
    }
  };
  Value result;
  {
    ActiveCall active(*this, fn->def, component);
    bool saved_guess = receiver_is_guess_;
    receiver_is_guess_ = false;  // the callee's receivers are its own
    FrameGuard guard(*this, std::move(f));
    try {
      if (fn->lambda) {
        result = eval(fn->lambda->body);
      } else {
        exec_body(fn->def->body);
        Frame& done = frame();
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
      result = Value::unknown();
      if (warned_once_.insert(fn->qualname).second) {
        internal_.push_back({Severity::Note, fn->def ? fn->def->name_loc : def_loc, {},
                             "shape analysis of '" + fn->qualname + "' stopped at its work budget; its result is unknown",
                             {}, {}});
      }
    } catch (const std::exception& e) {
      // an internal failure stays inside this call: its result is unknown
      ++stats_.module_failures;
      result = Value::unknown();
      internal_.push_back({Severity::Note, def_loc, {},
                           "shape analysis of '" + fn->qualname + "' stopped: " + e.what(), {}, {}});
    }
    receiver_is_guess_ = saved_guess;
  }
  // the entry keeps its arguments alive: a key names objects by address, so
  // no other object may reuse one of those addresses while the entry exists
  memo_[key] = MemoEntry{result, std::move(values)};
  memo_log_.push_back(key);
  (void)site;
  return result;
}

Value Interpreter::instantiate(const std::shared_ptr<ClassObject>& cls, const std::vector<ArgValue>& args, const Node* site) {
  auto inst = std::make_shared<InstanceObject>(cls);
  Value self = Value::object(inst);
  if (site) note_created(inst.get(), site->loc);
  if (const Value* init = cls->lookup("__init__")) {
    if (auto fn = shared_as<FunctionObject>(*init)) {
      call_function(fn, args, self, site);
      return self;
    }
  }
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

std::optional<CallSite> Interpreter::make_call_site(const std::string& name, const std::optional<Receiver>& receiver,
                                                    const std::vector<ArgValue>& args, const Node* site) {
  CallSite call;
  call.name = name;
  call.loc = site->loc;
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
    if (receiver->expr) op.loc = receiver->expr->loc;
    call.positional.push_back(std::move(op));
  }
  for (const ArgValue& a : args) {
    switch (a.type) {
      case Argument::Type::Positional:
      case Argument::Type::Keyword: {
        Operand op(a.value, take_slot(a.expr));
        if (a.expr) op.loc = a.expr->loc;
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
  std::optional<CallSite> call = make_call_site(name, receiver, args, site);
  if (!call) return Value::unknown();
  return apply_rule_at(*rule, *call, site);
}

Value Interpreter::apply_rule_at(const Rule& rule, const CallSite& call, const Node* site) {
  adapt_solver_timeout();
  std::size_t first = raw_.size();
  RuleResult result = apply_rule(rule, call, *solver_, raw_);
  int evaluation = visit_of(site);
  if (recording_) {
    int ordinal = ordinals_[{evaluation, rule.name}]++;
    Application& app = applications_[{site, rule.name, ordinal}];
    app.rule = &rule;
    if (app.calls.size() < 16) app.calls.push_back(call);
  }
  raw_info_.resize(raw_.size());
  for (std::size_t i = first; i < raw_.size(); ++i) {
    raw_info_[i].context = context_;
    raw_info_[i].evaluation = evaluation;
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
  attach_notes(call, first, site);
  // An unmodelled call, or one that certainly fails here: the value after it is
  // unknown (no cascade of errors downstream of the first).
  if (!result.modelled || result.refuted) return Value::unknown();
  if (result.value.is_object() && result.value.as_object()) note_created(result.value.as_object().get(), site->loc);
  return result.value;
}

void Interpreter::adapt_solver_timeout() {
  // Hard (nonlinear) queries end in a timeout and a deferred check anyway:
  // once Z3 has used its share of the run, later queries get less time, so a
  // large project stays fast. Easy queries take well under a millisecond.
  double spent = solver_->stats().z3_seconds;
  unsigned timeout = spent < 0.5 ? options_.solver_timeout_ms : spent < 1.5 ? 10u : 1u;
  timeout = std::min(timeout, options_.solver_timeout_ms);
  if (in_uncalled_pass_) timeout = std::min(timeout, options_.uncalled_timeout_ms);
  if (timeout != solver_timeout_) {
    solver_->set_timeout_ms(timeout);
    solver_timeout_ = timeout;
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

namespace gshape::gradual::interp {

namespace {

// Joins two operands of the same shape of call (same slot, same element
// count); nullopt when the calls differ in form.
std::optional<Operand> join_operand(const Operand& a, const Operand& b, JoinOptions& join, const std::string& path) {
  if (a.slot != b.slot || a.elements.size() != b.elements.size()) return std::nullopt;
  Operand out = a;
  out.value = join_values(a.value, b.value, join, path);
  for (std::size_t i = 0; i < a.elements.size(); ++i) {
    auto e = join_operand(a.elements[i], b.elements[i], join, path + "[" + std::to_string(i) + "]");
    if (!e) return std::nullopt;
    out.elements[i] = std::move(*e);
  }
  return out;
}

std::optional<CallSite> join_calls(const std::vector<CallSite>& calls) {
  CallSite out = calls.front();
  std::map<std::string, Dim> cache;
  JoinOptions join;
  join.widen = true;
  join.widen_cache = &cache;
  for (std::size_t c = 1; c < calls.size(); ++c) {
    const CallSite& other = calls[c];
    if (other.positional.size() != out.positional.size() || other.keywords.size() != out.keywords.size())
      return std::nullopt;
    for (std::size_t i = 0; i < out.positional.size(); ++i) {
      auto j = join_operand(out.positional[i], other.positional[i], join, "operand" + std::to_string(i));
      if (!j) return std::nullopt;
      out.positional[i] = std::move(*j);
    }
    for (std::size_t i = 0; i < out.keywords.size(); ++i) {
      if (out.keywords[i].first != other.keywords[i].first) return std::nullopt;
      auto j = join_operand(out.keywords[i].second, other.keywords[i].second, join, out.keywords[i].first);
      if (!j) return std::nullopt;
      out.keywords[i].second = std::move(*j);
    }
  }
  return out;
}

}  // namespace

std::map<SiteTagKey, GeneralCheck> Interpreter::general_checks() {
  // the (site, tag) groups whose analyses disagree on their checks
  std::map<SiteTagKey, std::map<int, std::set<std::string>>> texts;
  for (std::size_t i = 0; i < raw_.size() && i < raw_info_.size(); ++i) {
    const Obligation& ob = raw_[i];
    texts[{ob.loc.file, ob.loc.begin, ob.loc.end, ob.tag}][raw_info_[i].evaluation].insert(ob.constraint_sexpr());
  }
  std::set<std::tuple<const SourceFile*, uint32_t, uint32_t>> disagreeing;
  std::set<SiteTagKey> disagreeing_tags;
  for (const auto& [key, by_eval] : texts) {
    for (const auto& [e, t] : by_eval) {
      if (t != by_eval.begin()->second) {
        disagreeing.insert({std::get<0>(key), std::get<1>(key), std::get<2>(key)});
        disagreeing_tags.insert(key);
        break;
      }
    }
  }
  std::map<SiteTagKey, GeneralCheck> out;
  if (disagreeing.empty()) return out;
  std::map<SiteTagKey, std::vector<BoolTerm>> parts;
  for (const auto& [key, app] : applications_) {
    const ir::Node* site = std::get<0>(key);
    if (!disagreeing.count({site->loc.file, site->loc.begin, site->loc.end}) || app.calls.size() < 2) continue;
    std::optional<CallSite> joined = join_calls(app.calls);
    if (!joined) continue;
    std::vector<Obligation> scratch;
    try {
      SolverScope scope(*solver_);
      apply_rule(*app.rule, *joined, *solver_, scratch);
    } catch (const std::exception&) {
      continue;
    }
    for (Obligation& ob : scratch) {
      SiteTagKey k{site->loc.file, site->loc.begin, site->loc.end, ob.tag};
      if (!disagreeing_tags.count(k)) continue;
      GeneralCheck& g = out[k];
      if (parts[k].empty()) g.message = ob.message;
      parts[k].push_back(ob.constraint);
      for (const SlotInfo& s : ob.slots) {
        bool known = false;
        for (const SlotInfo& t : g.slots) known = known || t.slot == s.slot;
        if (!known) g.slots.push_back(s);
      }
    }
  }
  for (auto& [k, g] : out) g.constraint = all_of(parts[k]);
  return out;
}

}  // namespace gshape::gradual::interp
