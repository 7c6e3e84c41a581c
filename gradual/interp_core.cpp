// The interpreter's frame of work: module order, the pass over functions
// nobody called, budgets, checkpoints for silent passes, facts and records.
#include <algorithm>
#include <tuple>

#include "gradual/interp.h"

namespace gshape::gradual::interp {

Interpreter::Interpreter(const Project& project, const AnalysisOptions& options)
    : project_(project), options_(options), registry_(RuleRegistry::builtin()), solver_(std::make_unique<Solver>(SolverOptions{options.solver_rlimit, options.witnesses})),
      solver_rlimit_(options.solver_rlimit) {
  contexts_.push_back(Context{});  // 0: normal execution
  // --args=symbolic reads every context's deferred obligations (preconditions)
  if (!options.symbolic_args) solver_->set_proof_filter([this](const Obligation& ob) { return proof_wanted(ob); });
  for (const ProjectModule& pm : project_.modules) {
    auto m = std::make_unique<ModuleState>();
    m->project_module = &pm;
    m->name = pm.file->module_name();
    if (m->name.empty()) {
      // a lone file: its stem names it
      std::string path = pm.file->path();
      std::size_t slash = path.find_last_of('/');
      std::string stem = slash == std::string::npos ? path : path.substr(slash + 1);
      if (stem.size() > 3 && stem.substr(stem.size() - 3) == ".py") stem.resize(stem.size() - 3);
      m->name = stem;
    }
    m->ns = std::make_shared<ModuleNamespace>(m.get());
    modules_by_name_.emplace(m->name, m.get());
    modules_.push_back(std::move(m));
  }
}

ModuleState* Interpreter::module_state(const std::string& dotted) {
  auto it = modules_by_name_.find(dotted);
  return it == modules_by_name_.end() ? nullptr : it->second;
}

void Interpreter::ensure_module(ModuleState* m) {
  if (m && !m->started) run_module(*m);
}

void Interpreter::run() {
  call_graph_.build(project_);
  for (const std::vector<std::size_t>& component : project_.analysis_order) {
    for (std::size_t index : component) {
      if (index < modules_.size()) run_module(*modules_[index]);
    }
  }
  for (auto& m : modules_) run_module(*m);  // modules outside the order (never, but stay total)
  if (options_.analyse_uncalled) {
    in_uncalled_pass_ = true;
    // a pass may find more functions that escape (a callback handed on by
    // one analysed with unknown arguments): a few rounds reach them
    for (int round = 0; round < 4; ++round) {
      std::size_t before = incomplete_defs_.size();
      analyse_uncalled();
      if (incomplete_defs_.size() == before) break;
    }
    in_uncalled_pass_ = false;
  }
}

void Interpreter::run_module(ModuleState& m) {
  if (m.started) return;
  m.started = true;
  if (!m.project_module || !m.project_module->ir) return;
  auto f = std::make_unique<Frame>();
  f->module = &m;
  f->vars = &m.globals;
  f->start_steps = steps_;
  f->budget = options_.module_budget;
  m.globals["__name__"] = {Value::string(), {}, {}};
  m.globals["__file__"] = {Value::string(m.project_module->file->path()), {}, {}};
  std::size_t depth = frames_.size();
  int saved_context = context_;
  bool saved_recording = recording_;
  context_ = 0;
  recording_ = true;
  {
    FrameGuard guard(*this, std::move(f));
    SolverScope scope(*solver_);
    try {
      exec_body(m.project_module->ir->body);
    } catch (const BudgetExceeded&) {
      ++stats_.budget_exhausted;
      internal_.push_back({Severity::Note, {}, m.project_module->file->path(),
                           "shape analysis of this module stopped at its work budget; the rest is unchecked", {}, {}});
    } catch (const std::exception& e) {
      ++stats_.module_failures;
      internal_.push_back({Severity::Note, {}, m.project_module->file->path(),
                           std::string("shape analysis of this module stopped: ") + e.what(), {}, {}});
    }
  }
  while (frames_.size() > depth) frames_.pop_back();
  write_log_.clear();
  log_depth = 0;
  context_ = saved_context;
  recording_ = saved_recording;
}

void Interpreter::collect_defs(const ir::Body& body, ModuleState* m, const ir::ClassDef* cls,
                               std::vector<std::tuple<const ir::FunctionDef*, ModuleState*, const ir::ClassDef*>>& out) {
  for (const ir::Stmt* s : body) {
    if (const auto* f = ir::dyn_cast<ir::FunctionDef>(s)) {
      out.emplace_back(f, m, cls);
      collect_defs(f->body, m, nullptr, out);
    } else if (const auto* c = ir::dyn_cast<ir::ClassDef>(s)) {
      collect_defs(c->body, m, c, out);
    } else if (const auto* i = ir::dyn_cast<ir::If>(s)) {
      collect_defs(i->body, m, cls, out);
      collect_defs(i->orelse, m, cls, out);
    } else if (const auto* t = ir::dyn_cast<ir::Try>(s)) {
      collect_defs(t->body, m, cls, out);
    }
  }
}

namespace {

// The class object a module bound for `def` (searching its globals).
std::shared_ptr<ClassObject> class_of_def(ModuleState* m, const ir::ClassDef* def) {
  for (auto& [name, b] : m->globals) {
    auto cls = shared_as<ClassObject>(b.value);
    if (cls && cls->def == def) return cls;
  }
  return nullptr;
}

// Arguments for a function no analysed caller calls: every parameter (but
// *args and **kwargs, and the first `skip`) unknown, with an int hint named
// after it, so that its uses as a size relate to each other. Defaults are
// not assumed: a caller the analysis does not see may pass anything.
std::vector<ArgValue> generic_arguments(const std::vector<ir::Parameter>& params, std::size_t skip) {
  std::vector<ArgValue> args;
  for (std::size_t i = skip; i < params.size(); ++i) {
    const ir::Parameter& p = params[i];
    Value hinted = Value::unknown_int(Dim::symbol(p.name, false));
    if (p.type == ir::Parameter::Type::Regular || p.type == ir::Parameter::Type::PositionalOnly) {
      args.push_back(ArgValue{ir::Argument::Type::Positional, {}, hinted, nullptr, {}});
    } else if (p.type == ir::Parameter::Type::KeywordOnly) {
      args.push_back(ArgValue{ir::Argument::Type::Keyword, p.name, hinted, nullptr, {}});
    } else if (p.type == ir::Parameter::Type::VarArgs) {
      // any number of them, not none: `*input_tensors` is a tuple of unknown length
      args.push_back(ArgValue{ir::Argument::Type::Star, {}, Value::unknown(), nullptr, {}});
    } else if (p.type == ir::Parameter::Type::VarKeywords) {
      args.push_back(ArgValue{ir::Argument::Type::DoubleStar, {}, Value::unknown(), nullptr, {}});
    }
  }
  return args;
}

}  // namespace

void Interpreter::analyse_uncalled() {
  using Def = std::tuple<const ir::FunctionDef*, ModuleState*, const ir::ClassDef*>;
  // Callers before callees: a class or function is mostly used by what is
  // defined after it (GPT after Block, the driver module after the model's),
  // so the top-level items are taken last first, each item's defs in source
  // order. A def reached from an earlier generic visit is then analysed in
  // the context of its caller (`x` of shape [b, t, n_embd]) and needs no
  // generic visit of its own with unknown arguments.
  std::vector<std::vector<Def>> items;
  for (auto& m : modules_) {
    if (!m->project_module || !m->project_module->ir) continue;
    for (const ir::Stmt* s : m->project_module->ir->body) {
      std::vector<Def> one;
      collect_defs(ir::Body{const_cast<ir::Stmt*>(s)}, m.get(), nullptr, one);
      if (!one.empty()) items.push_back(std::move(one));
    }
  }
  std::vector<Def> defs;
  for (auto it = items.rbegin(); it != items.rend(); ++it) defs.insert(defs.end(), it->begin(), it->end());
  // Module-level functions without parameters first (`test()`, `main()`,
  // `ResNet18()`): every call of them is that call, so what they reach is
  // analysed with the sizes they spell out, and the classes they use need
  // no generic visit with unknown hyperparameters.
  std::stable_partition(defs.begin(), defs.end(), [](const auto& d) {
    const auto& [def, m, cls_def] = d;
    if (cls_def || !def->params.empty()) return false;
    auto it = m->globals.find(def->name);
    auto fn = it == m->globals.end() ? nullptr : shared_as<FunctionObject>(it->second.value);
    return fn && fn->def == def;
  });
  for (const auto& [def, m, cls_def] : defs) {
    // analysed in every context that can reach it: no generic pass needed
    auto complete = [&] { return analysed_defs_.count(def) && !incomplete_defs_.count(def); };
    if (complete() || generic_done_.count(def)) continue;
    std::size_t depth = frames_.size();
    context_ = 0;
    recording_ = true;
    auto f = std::make_unique<Frame>();
    f->module = m;
    f->vars = &m->globals;
    f->start_steps = steps_;
    f->budget = options_.function_budget * 4;
    try {
      FrameGuard guard(*this, std::move(f));
      SolverScope scope(*solver_);
      std::shared_ptr<FunctionObject> fn;
      std::optional<Value> self;
      std::shared_ptr<ClassObject> cls = cls_def ? class_of_def(m, cls_def) : nullptr;
      if (cls) {
        if (const Value* v = cls->attribute(def->name)) fn = shared_as<FunctionObject>(*v);
      } else if (!cls_def) {
        auto it = m->globals.find(def->name);
        if (it != m->globals.end()) {
          fn = shared_as<FunctionObject>(it->second.value);
          if (fn && fn->def != def) fn.reset();
        }
      }
      if (!fn) {
        fn = std::make_shared<FunctionObject>();
        fn->def = def;
        fn->module = m;
        fn->qualname = def->name;
        fn->defaults.assign(def->params.size(), Value::unknown());
        fn->has_default.assign(def->params.size(), false);
      }
      bool method = cls_def != nullptr && fn->flavor != FunctionObject::Flavor::Static;
      if (method) {
        if (cls && fn->flavor == FunctionObject::Flavor::Class) {
          self = Value::object(cls);
        } else if (cls && def->name != "__init__") {
          auto it = dyn_instances_.find(cls.get());
          if (it == dyn_instances_.end()) {
            std::vector<ArgValue> init_args;
            if (const Value* init = cls->lookup("__init__")) {
              if (auto init_fn = shared_as<FunctionObject>(*init)) init_args = generic_arguments(init_fn->params(), 1);
            }
            it = dyn_instances_.emplace(cls.get(), instantiate(cls, init_args, def)).first;
          }
          self = it->second;
        } else if (cls) {
          self = Value::object(std::make_shared<InstanceObject>(cls));
        } else {
          self = Value::unknown();
        }
      }
      if (complete()) continue;  // the instantiation analysed it
      generic_done_.insert(def);
      std::vector<ArgValue> args = generic_arguments(def->params, method ? 1 : 0);
      uncalled_root_ = cls_def ? cls_def->name + "." + def->name : def->name;
      uncalled_root_loc_ = def->name_loc.valid() ? def->name_loc : def->loc;
      // Dyn parameters: no memo entry may answer for them later (unknown args
      // would not collide anyway, but keep the pass independent).
      call_function(fn, args, self, def);
    } catch (const BudgetExceeded&) {
      ++stats_.budget_exhausted;
    } catch (const std::exception& e) {
      ++stats_.module_failures;
      internal_.push_back({Severity::Note, def->loc, {},
                           std::string("shape analysis of '") + def->name + "' stopped: " + e.what(), {}, {}});
    }
    while (frames_.size() > depth) frames_.pop_back();
    write_log_.clear();
    log_depth = 0;
  }
}

SolverStats Interpreter::solver_stats() const { return solver_->stats(); }

std::vector<FactRef> Interpreter::core_of(const PendingCore& pending) { return solver_->core_of(pending); }

void Interpreter::resolve_skipped(std::size_t i) {
  if (i < raw_.size()) solver_->resolve_skipped(raw_[i]);
}

namespace {
uint64_t proof_key_of(const Obligation& ob) {
  uint64_t h = std::hash<const void*>()(ob.loc.file);
  for (uint64_t x : {uint64_t{ob.loc.line}, uint64_t{ob.loc.column}, uint64_t{ob.loc.begin}, uint64_t{ob.loc.end}})
    h = h * 1000003u ^ x;
  return h * 1000003u ^ std::hash<std::string>()(ob.tag);
}
}  // namespace

bool Interpreter::proof_wanted(const Obligation& ob) {
  if (!proofs_optional_) return true;
  uint64_t key = proof_key_of(ob);
  auto it = deferred_by_key_.find(key);
  if (it == deferred_by_key_.end()) return true;
  std::vector<std::size_t>& earlier = it->second;
  // entries past a rolled-back checkpoint are gone
  while (!earlier.empty() && earlier.back() >= raw_.size()) earlier.pop_back();
  std::string text;
  for (std::size_t i : earlier) {
    const Obligation& d = raw_[i];
    const RawInfo& info = raw_info_[i];
    if (info.proof_key != key || d.status != Status::Deferred || d.proof_skipped || !d.zero_only.empty()) continue;
    // a site deferred only in uncalled functions is reported so: a call's
    // analysis must still say whether it is deferred there
    if (info.uncalled && !in_uncalled_pass_) continue;
    if (d.tag != ob.tag || d.loc.file != ob.loc.file || d.loc.begin != ob.loc.begin || d.loc.end != ob.loc.end ||
        d.loc.line != ob.loc.line || d.loc.column != ob.loc.column)
      continue;
    if (text.empty()) text = ob.constraint_sexpr();
    if (d.constraint_sexpr() == text) return false;
  }
  return true;
}

void Interpreter::index_deferred(std::size_t first) {
  for (std::size_t i = first; i < raw_.size(); ++i) {
    uint64_t key = proof_key_of(raw_[i]);
    raw_info_[i].proof_key = key;
    const Obligation& ob = raw_[i];
    if (ob.status == Status::Deferred && !ob.proof_skipped && ob.zero_only.empty()) {
      std::vector<std::size_t>& v = deferred_by_key_[key];
      while (!v.empty() && v.back() >= i) v.pop_back();  // rolled back
      v.push_back(i);
    }
  }
}

void Interpreter::tick() {
  ++steps_;
  if (frames_.empty()) return;
  const Frame& f = *frames_.back();
  if (steps_ - f.start_steps > f.budget) throw BudgetExceeded();
}

void Interpreter::record_shape(const ir::Expr* e, const Value& v) {
  if (!options_.record_shapes || !recording_ || !e || !v.is_tensor()) return;
  std::string text = v.shape().str();
  std::vector<std::string>& list = shapes_[e];
  if (std::find(list.begin(), list.end(), text) == list.end() && list.size() < 8) list.push_back(text);
}

std::string Interpreter::source_text(const SourceLoc& loc, std::size_t max_len) const {
  if (!loc.valid() || loc.end <= loc.begin || loc.end > loc.file->text().size()) return {};
  std::string out;
  bool space = false;
  for (uint32_t i = loc.begin; i < loc.end; ++i) {
    char c = loc.file->text()[i];
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
    if (out.size() > max_len) {
      // cut on a UTF-8 boundary
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
      if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80)) out.pop_back();
      return out + "...";
    }
  }
  return out;
}

void Interpreter::add_fact(const Pred& p, const SourceLoc& loc, const std::string& description) {
  if (p.is_true()) return;
  solver_->add_fact(p, loc, description);
}

int Interpreter::push_context(Context c) {
  for (std::size_t i = 0; i < contexts_.size(); ++i) {
    if (contexts_[i].kind == c.kind && contexts_[i].note == c.note && contexts_[i].loader_loc.begin == c.loader_loc.begin &&
        contexts_[i].loader_loc.file == c.loader_loc.file)
      return static_cast<int>(i);
  }
  contexts_.push_back(std::move(c));
  return static_cast<int>(contexts_.size() - 1);
}

Interpreter::Checkpoint Interpreter::checkpoint() const {
  return {raw_.size(), memo_log_.size(), write_log_.size(), recording_};
}

void Interpreter::rollback(const Checkpoint& cp) {
  if (raw_.size() > cp.raw) {
    raw_.resize(cp.raw);
    raw_info_.resize(cp.raw);
  }
  // a silent pass's analyses stay for the next pass (they recorded nothing)
  while (memo_log_.size() > cp.memo_log) {
    auto it = memo_.find(memo_log_.back());
    if (it != memo_.end() && it->second.recorded) memo_.erase(it);
    memo_log_.pop_back();
  }
  recording_ = cp.recording;
}

void Interpreter::write_object_attribute(const std::shared_ptr<ObjectValue>& obj, const std::string& name, const Value& v) {
  if (!obj) return;
  if (log_depth > 0) {
    std::optional<Value> old;
    if (const Value* o = obj->attribute(name)) old = *o;
    write_log_.push_back({obj, name, std::move(old)});
  }
  obj->attributes[name] = v;
  if (auto* inst = dynamic_cast<InstanceObject*>(obj.get())) {
    ++inst->version;
    inst->first_set.emplace(name, ++attribute_clock_);
  }
}

void Interpreter::undo_writes(const WriteMark& mark) {
  while (write_log_.size() > mark.log) {
    AttrWrite& w = write_log_.back();
    const auto* made = dynamic_cast<const InstanceObject*>(w.object.get());
    if (made && made->born > mark.clock) {
      write_log_.pop_back();
      continue;
    }
    if (w.old_value) {
      w.object->attributes[w.name] = *w.old_value;
    } else {
      w.object->attributes.erase(w.name);
    }
    if (auto* inst = dynamic_cast<InstanceObject*>(w.object.get())) ++inst->version;
    write_log_.pop_back();
  }
}

}  // namespace gshape::gradual::interp
