// Statements: assignment and unpacking, branches (both arms, pruned by Z3,
// joined), asserts as facts, imports, defs and classes, try/with/return.
#include "gradual/operator_rules.h"
#include "gradual/interp.h"

#include <regex>

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {
// The names a statement's source may bind or change: every name on a `case`
// line (capture patterns), left of an assignment's `=`, after `as`, `for`,
// `del`, `global`, `nonlocal`, `import`, before `:=`, and every name whose
// attribute or item the text reaches (`x.grow()`, `xs[0] = 1`). The first
// line (a match's subject) counts only with a walrus.
std::set<std::string> names_a_statement_may_change(const std::string& text) {
  static const std::regex identifier(R"([A-Za-z_][A-Za-z_0-9]*)");
  static const std::set<std::string> binders = {"as", "for", "del", "global", "nonlocal", "import"};
  std::set<std::string> out;
  std::size_t line_start = 0;
  bool first = true;
  while (line_start <= text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string::npos) line_end = text.size();
    const std::string line = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    bool header = first;
    first = false;
    if (header && line.find(":=") == std::string::npos) continue;
    std::size_t indent = line.find_first_not_of(" \t");
    bool case_line = indent != std::string::npos && line.compare(indent, 5, "case ") == 0;
    // the `=` of an assignment (not ==, !=, <=, >=, a keyword argument's
    // `=` inside brackets counts too: harmless, it only forgets more)
    std::size_t assign = std::string::npos;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] != '=') continue;
      char before = i > 0 ? line[i - 1] : ' ';
      char after = i + 1 < line.size() ? line[i + 1] : ' ';
      if (after == '=' || before == '=' || before == '!' || before == '<' || before == '>' || before == ':') continue;
      assign = i;
      break;
    }
    std::string previous_word;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), identifier); it != std::sregex_iterator(); ++it) {
      const std::string name = it->str();
      std::size_t at = static_cast<std::size_t>(it->position());
      std::size_t next = line.find_first_not_of(" \t", at + name.size());
      char follow = next == std::string::npos ? ' ' : line[next];
      bool walrus = follow == ':' && next + 1 < line.size() && line[next + 1] == '=';
      if (case_line || (assign != std::string::npos && at < assign) || binders.count(previous_word) || follow == '.' ||
          follow == '[' || walrus)
        out.insert(name);
      previous_word = name;
    }
  }
  return out;
}
}  // namespace

void Interpreter::exec_body(const Body& body) {
  for (const Stmt* s : body) {
    if (!frame().live) return;
    exec(s);
  }
}

namespace {

// The absolute module an ImportFrom names, resolved against `current`.
std::string resolve_from(const ImportFrom* from, const std::string& current, bool is_package_init) {
  if (from->level == 0) return from->module;
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= current.size()) {
    std::size_t dot = current.find('.', start);
    parts.push_back(current.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!is_package_init && !parts.empty()) parts.pop_back();
  for (int i = 1; i < from->level && !parts.empty(); ++i) parts.pop_back();
  std::string base;
  for (const std::string& p : parts) base += (base.empty() ? "" : ".") + p;
  if (from->module.empty()) return base;
  return base.empty() ? from->module : base + "." + from->module;
}

// The builtin exception classes an except clause's type names (a bare
// except: "BaseException"), those gshape knows PyTorch to raise among them
// (gradual/python_errors.h); other names are left out.
void caught_classes(const Expr* type, std::vector<std::string>& out) {
  if (!type) {
    out.push_back("BaseException");
    return;
  }
  if (const auto* tuple = dyn_cast<Tuple>(type)) {
    for (const Expr* e : tuple->elts) caught_classes(e, out);
    return;
  }
  std::string name;
  if (const auto* n = dyn_cast<Name>(type)) name = n->id;
  else if (const auto* a = dyn_cast<Attribute>(type); a && isa<Name>(a->value) && cast<Name>(a->value)->id == "builtins")
    name = a->attr;
  static const std::set<std::string> known = {"RuntimeError", "Exception", "BaseException", "IndexError",
                                              "LookupError", "ValueError", "TypeError", "AssertionError",
                                              "NotImplementedError", "ZeroDivisionError", "ArithmeticError"};
  if (known.count(name)) out.push_back(name);
}

}  // namespace

// `@functools.lru_cache`, `@lru_cache(maxsize=None)`, `@functools.cache`:
// the cache the decorated function gets (maxsize 128 by default, unbounded
// for None and functools.cache, 0 when not known: every entry evictable).
std::shared_ptr<FunctionObject::ResultCache> Interpreter::result_cache_of(const Expr* d) {
  const auto* call = dyn_cast<Call>(d);
  Value decorator = eval(call ? call->func : d);
  const auto* lib = object_as<LibraryName>(decorator);
  if (!lib || (lib->path != "functools.lru_cache" && lib->path != "functools.cache")) return nullptr;
  auto cache = std::make_shared<FunctionObject::ResultCache>();
  if (lib->path == "functools.cache") return cache;
  cache->maxsize = 128;
  if (!call) return cache;
  for (std::size_t i = 0; i < call->args.size(); ++i) {
    const Argument& a = call->args[i];
    if (!(a.type == Argument::Type::Positional && i == 0) && !(a.type == Argument::Type::Keyword && a.name == "maxsize"))
      continue;
    Value m = eval(a.value);
    if (m.is_none()) {
      cache->maxsize.reset();
    } else {
      cache->maxsize = m.is_int() && m.as_int().is_constant() ? *m.as_int().constant_value() : 0;
    }
  }
  return cache;
}

namespace {

bool is_dataclass_decorator(const Expr* d) {
  if (const auto* c = dyn_cast<Call>(d)) d = c->func;
  if (const auto* n = dyn_cast<Name>(d)) return n->id == "dataclass";
  if (const auto* a = dyn_cast<Attribute>(d)) return a->attr == "dataclass";
  return false;
}

}  // namespace

void Interpreter::bind_name(const std::string& name, const Value& v, const SourceLoc& origin) {
  Frame& f = frame();
  Vars& target = f.global_names.count(name) ? f.module->globals : *f.vars;
  if (&target == f.vars) f.parameter_slots.erase(name);  // rebound: no longer the caller's object
  Binding& b = target[name];
  b.value = v;
  b.origin = origin;
  b.unknown_sizes.clear();
}

namespace {

// The names a function body binds more than once, or in a loop (its
// parameters count once): an inner function made there reads them when it
// runs, which may be after another value was bound (`d = 4; def f(): ...
// view(-1, d); d = 5; f()`).
void count_bindings(const Body& body, bool in_loop, int depth, std::map<std::string, int>& count) {
  if (depth > 64) return;
  auto bind = [&](const std::string& n) { count[n] += in_loop ? 2 : 1; };
  std::function<void(const Expr*)> target = [&](const Expr* t) {
    if (!t) return;
    if (const auto* n = dyn_cast<Name>(t)) bind(n->id);
    else if (const auto* st = dyn_cast<Starred>(t)) target(st->value);
    else if (isa<Tuple>(t) || isa<List>(t))
      for (const Expr* e : static_cast<const SequenceExpr*>(t)->elts) target(e);
  };
  for (const Stmt* s : body) {
    if (!s) continue;
    switch (s->kind) {
      case Kind::Assign:
        for (const Expr* t : cast<Assign>(s)->targets) target(t);
        break;
      case Kind::AugAssign:
        if (const auto* n = dyn_cast<Name>(cast<AugAssign>(s)->target)) count[n->id] += 2;
        break;
      case Kind::AnnAssign:
        if (cast<AnnAssign>(s)->value) target(cast<AnnAssign>(s)->target);
        break;
      case Kind::FunctionDef: bind(cast<FunctionDef>(s)->name); break;
      case Kind::ClassDef: bind(cast<ClassDef>(s)->name); break;
      case Kind::Import:
        for (const ImportAlias& a : cast<Import>(s)->names) bind(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname);
        break;
      case Kind::ImportFrom:
        for (const ImportAlias& a : cast<ImportFrom>(s)->names) bind(a.asname.empty() ? a.name : a.asname);
        break;
      case Kind::For: {
        const auto* f = cast<For>(s);
        // the loop variable is bound on each pass
        bool outer = in_loop;
        in_loop = true;
        target(f->target);
        in_loop = outer;
        count_bindings(f->body, true, depth + 1, count);
        count_bindings(f->orelse, in_loop, depth + 1, count);
        break;
      }
      case Kind::While:
        count_bindings(cast<While>(s)->body, true, depth + 1, count);
        count_bindings(cast<While>(s)->orelse, in_loop, depth + 1, count);
        break;
      case Kind::If:
        count_bindings(cast<If>(s)->body, in_loop, depth + 1, count);
        count_bindings(cast<If>(s)->orelse, in_loop, depth + 1, count);
        break;
      case Kind::With:
        for (const WithItem& item : cast<With>(s)->items) target(item.target);
        count_bindings(cast<With>(s)->body, in_loop, depth + 1, count);
        break;
      case Kind::Try: {
        const auto* t = cast<Try>(s);
        count_bindings(t->body, in_loop, depth + 1, count);
        for (const ExceptHandler& h : t->handlers) {
          if (!h.name.empty()) bind(h.name);
          count_bindings(h.body, in_loop, depth + 1, count);
        }
        count_bindings(t->orelse, in_loop, depth + 1, count);
        count_bindings(t->finalbody, in_loop, depth + 1, count);
        break;
      }
      default: break;
    }
  }
}

}  // namespace

const std::set<std::string>& Interpreter::rebound_names(const FunctionDef* def) {
  auto it = rebound_names_.find(def);
  if (it != rebound_names_.end()) return it->second;
  std::map<std::string, int> count;
  for (const Parameter& p : def->params) count[p.name] = 1;
  count_bindings(def->body, false, 0, count);
  std::set<std::string> names;
  for (const auto& [name, n] : count)
    if (n >= 2) names.insert(name);
  return rebound_names_.emplace(def, std::move(names)).first->second;
}

std::shared_ptr<const Vars> Interpreter::closure_snapshot(bool runs_later) {
  auto closure = std::make_shared<Vars>(frame().closure ? *frame().closure : Vars{});
  for (const auto& [name, b] : *frame().vars) (*closure)[name] = b;
  // a function or lambda runs later: a name the enclosing function binds
  // again may hold another value by then (a class body runs now)
  const FunctionDef* enclosing = active_defs_.empty() ? nullptr : active_defs_.back();
  if (runs_later && enclosing) {
    for (const std::string& name : rebound_names(enclosing)) {
      auto it = closure->find(name);
      if (it != closure->end()) it->second.value = Value::unknown();
    }
    // a name an inner function declares `nonlocal` changes whenever that
    // function runs (`width //= 2` in a stateful closure, a sibling's setter)
    for (const std::string& name : shared_with_inner_functions(enclosing)) {
      auto it = closure->find(name);
      if (it != closure->end()) it->second.value = Value::unknown();
    }
  }
  return closure;
}

namespace {
// The names `nonlocal` statements in `body` declare (nested defs included).
void collect_nonlocal_names(const Body& body, int depth, std::set<std::string>& out) {
  if (depth > 64) return;
  for (const Stmt* s : body) {
    if (!s) continue;
    switch (s->kind) {
      case Kind::Nonlocal:
        for (const std::string& n : cast<Nonlocal>(s)->names) out.insert(n);
        break;
      case Kind::FunctionDef: collect_nonlocal_names(cast<FunctionDef>(s)->body, depth + 1, out); break;
      case Kind::If:
        collect_nonlocal_names(cast<If>(s)->body, depth + 1, out);
        collect_nonlocal_names(cast<If>(s)->orelse, depth + 1, out);
        break;
      case Kind::For: collect_nonlocal_names(cast<For>(s)->body, depth + 1, out); break;
      case Kind::While: collect_nonlocal_names(cast<While>(s)->body, depth + 1, out); break;
      case Kind::With: collect_nonlocal_names(cast<With>(s)->body, depth + 1, out); break;
      case Kind::Try: {
        const auto* t = cast<Try>(s);
        collect_nonlocal_names(t->body, depth + 1, out);
        for (const ExceptHandler& h : t->handlers) collect_nonlocal_names(h.body, depth + 1, out);
        collect_nonlocal_names(t->orelse, depth + 1, out);
        collect_nonlocal_names(t->finalbody, depth + 1, out);
        break;
      }
      default: break;
    }
  }
}
}  // namespace

// Every `return` of `fn` gives None or False: its __exit__ never suppresses
// what the with body raised.
bool Interpreter::returns_only_falsy(const FunctionObject& fn) {
  if (!fn.def) return false;
  bool falsy = true;
  std::function<void(const Body&, int)> walk = [&](const Body& body, int depth) {
    if (depth > 64) {
      falsy = false;
      return;
    }
    for (const Stmt* s : body) {
      if (!s) continue;
      if (const auto* r = dyn_cast<Return>(s)) {
        const auto* c = r->value ? dyn_cast<Constant>(r->value) : nullptr;
        if (r->value && (!c || (c->type != Constant::Type::None && c->type != Constant::Type::False))) falsy = false;
      } else if (const auto* i = dyn_cast<If>(s)) {
        walk(i->body, depth + 1);
        walk(i->orelse, depth + 1);
      } else if (const auto* f = dyn_cast<For>(s)) {
        walk(f->body, depth + 1);
        walk(f->orelse, depth + 1);
      } else if (const auto* w = dyn_cast<While>(s)) {
        walk(w->body, depth + 1);
        walk(w->orelse, depth + 1);
      } else if (const auto* w2 = dyn_cast<With>(s)) {
        walk(w2->body, depth + 1);
      } else if (const auto* t = dyn_cast<Try>(s)) {
        walk(t->body, depth + 1);
        for (const ExceptHandler& h : t->handlers) walk(h.body, depth + 1);
        walk(t->orelse, depth + 1);
        walk(t->finalbody, depth + 1);
      } else if (s->kind == Kind::OpaqueStmt) {
        falsy = false;  // a match statement may return anything
      }
    }
  };
  walk(fn.def->body, 0);
  return falsy;
}

void Interpreter::note_nonlocal_names(const Body& body, int depth) {
  collect_nonlocal_names(body, depth, frame().nonlocal_shared);
}

const std::set<std::string>& Interpreter::shared_with_inner_functions(const FunctionDef* def) {
  auto it = nonlocal_names_.find(def);
  if (it != nonlocal_names_.end()) return it->second;
  std::set<std::string> names;
  // the defs in its body (in any block of it) declare them
  std::function<void(const Body&, int)> walk = [&](const Body& body, int depth) {
    if (depth > 64) return;
    for (const Stmt* s : body) {
      if (!s) continue;
      if (const auto* inner = dyn_cast<FunctionDef>(s)) collect_nonlocal_names(inner->body, 0, names);
      else if (const auto* i = dyn_cast<If>(s)) { walk(i->body, depth + 1); walk(i->orelse, depth + 1); }
      else if (const auto* f = dyn_cast<For>(s)) walk(f->body, depth + 1);
      else if (const auto* w = dyn_cast<While>(s)) walk(w->body, depth + 1);
      else if (const auto* w2 = dyn_cast<With>(s)) walk(w2->body, depth + 1);
      else if (const auto* t = dyn_cast<Try>(s)) {
        walk(t->body, depth + 1);
        for (const ExceptHandler& h : t->handlers) walk(h.body, depth + 1);
        walk(t->orelse, depth + 1);
        walk(t->finalbody, depth + 1);
      }
    }
  };
  walk(def->body, 0);
  return nonlocal_names_.emplace(def, std::move(names)).first->second;
}

void Interpreter::exec(const Stmt* s) {
  tick();
  // Z3 time is counted for the file of the statement executed (--verbose)
  struct Attribution {
    Solver& solver;
    const SourceFile* outer;
    ~Attribution() { solver.attribute_to(outer); }
  } attribution{*solver_, solver_->attribute_to(s->loc.file)};
  switch (s->kind) {
    case Kind::Import: {
      for (const ImportAlias& a : cast<Import>(s)->names) {
        if (a.asname.empty()) {
          std::string top = a.name.substr(0, a.name.find('.'));
          if (ModuleState* m = module_state(a.name)) ensure_module(m);
          if (ModuleState* m = module_state(top)) {
            ensure_module(m);
            bind_name(top, Value::object(m->ns), a.loc);
          } else {
            bind_name(top, library_attribute(top), a.loc);
          }
        } else if (ModuleState* m = module_state(a.name)) {
          ensure_module(m);
          bind_name(a.asname, Value::object(m->ns), a.loc);
        } else {
          bind_name(a.asname, library_attribute(a.name), a.loc);
        }
      }
      return;
    }
    case Kind::ImportFrom: {
      const auto* from = cast<ImportFrom>(s);
      bool package_init = frame().module->project_module->file->is_package_init();
      std::string target = resolve_from(from, frame().module->name, package_init);
      ModuleState* m = module_state(target);
      if (m) ensure_module(m);
      for (const ImportAlias& a : from->names) {
        if (a.name == "*") {
          if (m) {
            for (const auto& [name, b] : m->globals)
              if (!name.empty() && name[0] != '_') bind_name(name, b.value, b.origin);
          }
          continue;
        }
        std::string local = a.asname.empty() ? a.name : a.asname;
        if (m) {
          auto it = m->globals.find(a.name);
          if (it != m->globals.end()) {
            bind_name(local, it->second.value, it->second.origin);
          } else if (ModuleState* sub = module_state(target + "." + a.name)) {
            ensure_module(sub);
            bind_name(local, Value::object(sub->ns), a.loc);
          } else {
            bind_name(local, Value::unknown(), a.loc);  // not defined yet (an import cycle)
          }
        } else if (ModuleState* sub = module_state(target + "." + a.name)) {
          ensure_module(sub);
          bind_name(local, Value::object(sub->ns), a.loc);
        } else {
          bind_name(local, library_attribute(target + "." + a.name), a.loc);
        }
      }
      return;
    }
    case Kind::FunctionDef: {
      const auto* def = cast<FunctionDef>(s);
      if (frame().vars == &frame().locals) note_nonlocal_names(def->body, 0);
      auto fn = std::make_shared<FunctionObject>();
      fn->def = def;
      fn->module = frame().module;
      fn->qualname = def->name;
      if (frame().is_class_body && frame().owner) {
        fn->owner = frame().owner;
        fn->qualname = frame().owner->qualname + "." + def->name;
      }
      if (frame().vars != &frame().module->globals) fn->closure = closure_snapshot(true);
      for (const Parameter& p : def->params) {
        fn->has_default.push_back(p.default_value != nullptr);
        fn->defaults.push_back(p.default_value ? eval(p.default_value) : Value::unknown());
      }
      Value result = Value::object(fn);
      for (auto it = def->decorators.rbegin(); it != def->decorators.rend(); ++it) {
        const Expr* d = *it;
        if (const auto* attr = dyn_cast<Attribute>(d)) {
          if (attr->attr == "setter" || attr->attr == "deleter" || attr->attr == "getter") {  // keep the property
            if (attr->attr == "setter") {  // an assignment to the name runs this function
              auto property = shared_as<FunctionObject>(eval(attr->value));
              if (property && property->flavor == FunctionObject::Flavor::Property) property->setter = fn;
            }
            return;
          }
        }
        if (auto cache = result_cache_of(d)) {
          if (auto f = shared_as<FunctionObject>(result)) f->result_cache = cache;
          continue;
        }
        Value dv = eval(d);
        if (const auto* lib = object_as<LibraryName>(dv)) {
          if (auto f = shared_as<FunctionObject>(result)) {
            if (lib->path == "builtins.staticmethod") f->flavor = FunctionObject::Flavor::Static;
            if (lib->path == "builtins.classmethod") f->flavor = FunctionObject::Flavor::Class;
            if (lib->path == "builtins.property" || lib->path == "functools.cached_property")
              f->flavor = FunctionObject::Flavor::Property;
            if (lib->path == "functools.cached_property") f->stores_on_instance = true;
            if (lib->path == "torch.jit.script" || lib->path == "torch.jit.script_method") f->torchscript = true;
          }
          continue;  // library decorators keep the function's calling convention
        }
        if (object_as<FunctionObject>(dv) || object_as<ClassObject>(dv) || object_as<BoundMethod>(dv)) {
          result = call_value(dv, d, {ArgValue{Argument::Type::Positional, {}, result, nullptr, {}}}, d);
          continue;
        }
        if (const auto* inst = object_as<InstanceObject>(dv)) {
          const Value* call = inst->cls->lookup("__call__");
          if (call && shared_as<FunctionObject>(*call)) {  // the project's own __call__ wraps it
            result = call_value(dv, d, {ArgValue{Argument::Type::Positional, {}, result, nullptr, {}}}, d);
            continue;
          }
          // an instance of a contextlib.ContextDecorator subclass (or any
          // context manager whose __call__ the library gives): each call of
          // the function runs inside `with instance:` (tester7/07)
          auto f = shared_as<FunctionObject>(result);
          if (f && (inst->cls->lookup("__enter__") || inst->cls->lookup("__exit__"))) {
            auto wrapped = std::make_shared<FunctionObject>(*f);
            wrapped->entered_around.push_back(dv);
            if (!f->undecorated) wrapped->undecorated = f;
            result = Value::object(wrapped);
            continue;
          }
          result = Value::unknown();  // a library __call__ the analysis does not follow
          continue;
        }
        // an unknown decorator: assume it keeps the function (the common factory case)
      }
      bind_name(def->name, result, def->name_loc);
      return;
    }
    case Kind::ClassDef: {
      const auto* def = cast<ClassDef>(s);
      auto cls = std::make_shared<ClassObject>();
      cls->def = def;
      cls->module = frame().module;
      cls->qualname = frame().module->name + "." + def->name;
      for (const Argument& b : def->bases) {
        Value bv = eval(b.value);
        if (b.type == Argument::Type::Keyword && b.name == "metaclass") {
          // a project metaclass's __call__ runs instead of type.__call__: it
          // may change the instance after __init__, or return another object
          const auto* meta = object_as<ClassObject>(bv);
          const auto* base = cls->bases.empty() ? nullptr : object_as<ClassObject>(cls->bases.front());
          cls->custom_call = (meta && meta->lookup("__call__")) || (base && base->custom_call);
        }
        if (b.type != Argument::Type::Positional) continue;
        if (const auto* lib = object_as<LibraryName>(bv)) {
          if (cls->library_base.empty()) cls->library_base = lib->path;
          if (lib->path.rfind("torch.nn.", 0) == 0) cls->is_nn_module = true;
        } else if (const auto* base = object_as<ClassObject>(bv)) {
          if (base->is_nn_module) cls->is_nn_module = true;
          if (base->custom_call) cls->custom_call = true;  // the metaclass is inherited
          if (cls->library_base.empty()) cls->library_base = base->library_base;
          if (base->is_dataclass) cls->fields = base->fields;
        }
        cls->bases.push_back(bv);
      }
      auto body_frame = std::make_unique<Frame>();
      body_frame->module = frame().module;
      body_frame->vars = &body_frame->locals;
      body_frame->is_class_body = true;
      body_frame->owner = cls.get();
      body_frame->start_steps = frame().start_steps;
      body_frame->budget = frame().budget;
      if (frame().vars != &frame().module->globals) body_frame->closure = closure_snapshot(false);
      {
        FrameGuard guard(*this, std::move(body_frame));
        exec_body(def->body);
        for (const auto& [name, b] : frame().locals) cls->attributes[name] = b.value;
      }
      for (const Expr* d : def->decorators) {
        if (is_dataclass_decorator(d)) cls->is_dataclass = true;
      }
      if (cls->is_dataclass) {
        for (const Stmt* st : def->body) {
          const auto* ann = dyn_cast<AnnAssign>(st);
          if (!ann) continue;
          const auto* n = dyn_cast<Name>(ann->target);
          if (!n) continue;
          ClassObject::Field field{n->id, std::nullopt};
          if (ann->value) {
            if (const Value* v = cls->attribute(n->id)) field.default_value = *v;
          }
          bool replaced = false;
          for (auto& existing : cls->fields) {
            if (existing.name == field.name) {
              existing = field;
              replaced = true;
            }
          }
          if (!replaced) cls->fields.push_back(std::move(field));
        }
      }
      bind_name(def->name, Value::object(cls), def->name_loc);
      return;
    }
    case Kind::Assign: {
      const auto* a = cast<Assign>(s);
      fix_rank_of_starred_shape(a);
      Value v = eval(a->value);
      check_unpacking(a, v);
      // `x[i] = v` is a site of its own (operator.setitem), like `x += v`
      const ir::Node* site = a->targets.size() == 1 && isa<Subscript>(a->targets.front()) ? s : nullptr;
      for (const Expr* t : a->targets) assign(t, v, a->value->loc, a->value, site);
      return;
    }
    case Kind::AugAssign: {
      const auto* a = cast<AugAssign>(s);
      Value current = eval(a->target);
      Value rhs = eval(a->value);
      // `xs += [xs.pop(0)]`: the right side changed the list, which `+=`
      // then extends (a name or attribute holding it now holds the change)
      if (current.is_sequence() && current.sequence_kind() == SequenceKind::List &&
          (isa<Name>(a->target) || isa<Attribute>(a->target))) {
        Value again = eval(a->target);
        if (again.is_sequence() && (again.items() != current.items() || again.element() != current.element()))
          current = again;
      }
      Value result = binary(a->op, current, rhs, s, a->target, a->value, true);
      // `xs += [...]` extends the list itself, for every name holding it
      if (current.is_sequence() && current.sequence_kind() == SequenceKind::List) {
        assign_in_place(a->target, current, result, s->loc);
      } else {
        assign(a->target, result, s->loc);
      }
      return;
    }
    case Kind::AnnAssign: {
      const auto* a = cast<AnnAssign>(s);
      if (!a->value) return;
      Value v = eval(a->value);
      ShapeAnnotation shape = read_shape_annotation(a->annotation);
      if (shape.is_shape && shape.error.empty()) {
        static const FunctionAnnotations none;
        const FunctionAnnotations& fa = frame().annotations ? *frame().annotations : none;
        v = check_annotated_value(fa.local_rule(annotated_target(a->target), shape.pattern), v, a->value, s);
      }
      assign(a->target, v, a->value->loc, a->value);
      return;
    }
    case Kind::ExprStmt: eval(cast<ExprStmt>(s)->value); return;
    case Kind::If: {
      const auto* i = cast<If>(s);
      branch(i->test, [&] { exec_body(i->body); }, [&] { exec_body(i->orelse); }, i);
      return;
    }
    case Kind::For: exec_for(cast<For>(s)); return;
    case Kind::While: exec_while(cast<While>(s)); return;
    case Kind::With: {
      const auto* w = cast<With>(s);
      // the project context managers entered, whose __exit__ runs after the body
      std::vector<std::pair<Value, std::shared_ptr<FunctionObject>>> exits;
      bool may_suppress = false;
      for (const WithItem& item : w->items) {
        Value ctx = eval(item.context);
        Value entered = object_as<FileObject>(ctx) ? ctx : Value::unknown();
        if (auto inst = shared_as<InstanceObject>(ctx)) {
          // a project class's __enter__ runs now (`cfg.width = 6`), and `as`
          // binds what it returns; one not followed may have changed the object
          const Value* enter = inst->cls->lookup("__enter__");
          if (auto fn = enter ? shared_as<FunctionObject>(*enter) : nullptr) {
            entered = call_function(fn, {}, ctx, item.context);
          } else if (enter || !inst->cls->library_base.empty()) {
            forget_object(ctx);
          } else {
            entered = ctx;
          }
          const Value* exit = inst->cls->lookup("__exit__");
          if (auto fn = exit ? shared_as<FunctionObject>(*exit) : nullptr) {
            exits.emplace_back(ctx, fn);
            may_suppress = may_suppress || !returns_only_falsy(*fn);
          } else if (exit || !inst->cls->library_base.empty()) {
            may_suppress = true;
          }
        }
        if (item.target) assign(item.target, entered, item.context->loc);
      }
      auto run_exits = [&] {
        for (auto it = exits.rbegin(); it != exits.rend(); ++it) {
          std::vector<ArgValue> none(3, ArgValue{Argument::Type::Positional, {}, Value::none(), nullptr, {}});
          call_function(it->second, none, it->first, s);
        }
      };
      const Call* suppress = suppress_call(*w);
      if (!suppress && !may_suppress) {
        exec_body(w->body);
        if (frame().live) run_exits();
        return;
      }
      // `with contextlib.suppress(...)`: the body may stop anywhere, a failed
      // check or assert included, and the program goes on: what the body
      // assumed does not hold after it
      Vars before = *frame().vars;
      {
        // what it suppresses is caught: a certain failure in the body is a warning
        std::vector<std::string> classes;
        if (suppress)
          for (const Argument& arg : suppress->args) caught_classes(arg.value, classes);
        std::size_t pushed = 0;
        if (!classes.empty()) {
          handlers_.push_back({w->loc, "with " + source_text(suppress->loc, 40), frames_.size(),
                               std::move(classes), w->body.empty() ? nullptr : w->body.front()});
          pushed = 1;
        }
        HandlerScope pop{handlers_, pushed};
        SolverScope scope(*solver_);
        WrittenBetween written(*this);
        exec_body(w->body);
        written.join_into_objects();  // the body may have stopped after any statement
        if (frame().live) run_exits();
      }
      // (a project __exit__ that may return true suppresses what the body raised)
      if (frame().live) *frame().vars = join_vars(before, *frame().vars, {});
      else *frame().vars = std::move(before);
      frame().live = true;
      return;
    }
    case Kind::Try: {
      const auto* t = cast<Try>(s);
      Vars before = *frame().vars;
      // the clauses that catch what PyTorch raises for a shape error, in order
      std::size_t pushed = 0;
      for (const ExceptHandler& h : t->handlers) {
        if (h.is_star) continue;
        std::vector<std::string> classes;
        caught_classes(h.type, classes);
        if (classes.empty()) continue;
        std::string what = !h.type ? "a bare except" : "except " + source_text(h.type->loc, 40);
        handlers_.push_back({h.loc, what, frames_.size(), std::move(classes), t->body.empty() ? nullptr : t->body.front()});
        ++pushed;
      }
      std::vector<Vars> ends;
      Vars handler_start = before;
      {
        // A handler runs when the body failed, a failed check or assert
        // included, and the program goes on after the try: what the body
        // assumed holds in its else clause, not in the handlers or after.
        std::optional<SolverScope> body_facts;
        if (!t->handlers.empty()) body_facts.emplace(*solver_);
        {
          HandlerScope pop{handlers_, pushed};
          if (t->handlers.empty()) {
            exec_body(t->body);
          } else {
            // the body may stop after any statement: an attribute it wrote
            // holds any value it had in between, in the handlers and after
            WrittenBetween written(*this);
            // a handler starts from the variables as they were after any
            // statement of the body (the next one may have raised)
            for (Stmt* b : t->body) {
              if (!frame().live) break;
              exec(b);
              if (!frame().live) break;
              handler_start = join_vars(handler_start, *frame().vars, {});
              static const std::set<Kind> atomic = {Kind::Assign,     Kind::AugAssign, Kind::AnnAssign, Kind::ExprStmt,
                                                    Kind::Import,     Kind::ImportFrom, Kind::FunctionDef, Kind::ClassDef,
                                                    Kind::Delete,     Kind::Global,    Kind::Nonlocal,  Kind::Return,
                                                    Kind::Raise,      Kind::Assert,    Kind::Break,     Kind::Continue};
              if (!atomic.count(b->kind)) {
                // inside a compound statement: any value in between
                std::map<std::string, int> inner;
                count_bindings(Body{b}, false, 0, inner);
                for (const auto& [name, n] : inner)
                  if (auto it = handler_start.find(name); it != handler_start.end()) it->second.value = Value::unknown();
              }
            }
            written.join_into_objects();
          }
        }
        if (frame().live) exec_body(t->orelse);
        if (frame().live) ends.push_back(*frame().vars);
      }
      for (const ExceptHandler& h : t->handlers) {
        *frame().vars = handler_start;
        frame().live = true;
        if (h.type) eval(h.type);
        if (!h.name.empty()) bind_name(h.name, Value::unknown(), h.loc);
        handler_bodies_.push_back({h.loc, frames_.size()});
        struct Pop {
          std::vector<std::pair<SourceLoc, std::size_t>>& bodies;
          ~Pop() { bodies.pop_back(); }
        } pop{handler_bodies_};
        exec_body(h.body);
        if (frame().live) ends.push_back(*frame().vars);
      }
      if (ends.empty()) {
        frame().live = true;
        exec_body(t->finalbody);
        frame().live = false;
        return;
      }
      Vars joined = ends.front();
      for (std::size_t i = 1; i < ends.size(); ++i) joined = join_vars(joined, ends[i], {});
      *frame().vars = std::move(joined);
      frame().live = true;
      exec_body(t->finalbody);
      return;
    }
    case Kind::Return: {
      const auto* r = cast<Return>(s);
      Value v = r->value ? eval(r->value) : Value::none();
      if (r->value && frame().annotations && frame().annotations->returns)
        v = check_annotated_value(frame().annotations->return_rule(), v, r->value, s);
      frame().returns.push_back(v);
      frame().live = false;
      return;
    }
    case Kind::Raise: {
      const auto* r = cast<Raise>(s);
      if (r->exc) eval(r->exc);
      frame().live = false;
      return;
    }
    case Kind::Assert: {
      const auto* a = cast<Assert>(s);
      Value c = eval(a->test);
      check_truth(a, a->test, c);
      std::optional<Pred> p = truth(c);
      if (!p || p->is_true()) return;
      // An assert the facts already refute would make every later query
      // vacuous: it is not assumed.
      if (p->is_false() || solver_->query(*p) == false) return;
      add_fact(*p, a->test->loc, "assert " + source_text(a->test->loc));
      return;
    }
    case Kind::Break:
      if (!frame().loops.empty()) frame().loops.back()->breaks.push_back(*frame().vars);
      frame().live = false;
      return;
    case Kind::Continue:
      if (!frame().loops.empty()) frame().loops.back()->continues.push_back(*frame().vars);
      frame().live = false;
      return;
    case Kind::Global:
      for (const std::string& n : cast<Global>(s)->names) frame().global_names.insert(n);
      return;
    case Kind::Delete:
      for (const Expr* t : cast<Delete>(s)->targets) {
        if (const auto* n = dyn_cast<Name>(t)) frame().vars->erase(n->id);
        if (const auto* sub = dyn_cast<Subscript>(t)) {
          // `del xs[i]` shortens the list
          Value obj = eval(sub->value);
          if (auto c = shared_as<ContainerModule>(obj)) {  // `del model.features[3]`
            c->children_known = false;
            memo_.clear();
          }
          if (obj.is_sequence() && obj.sequence_kind() == SequenceKind::List) {
            bool named = isa<Name>(sub->value) || isa<Attribute>(sub->value);
            assign_in_place(named ? sub->value : nullptr, obj, after_unseen_change(obj), s->loc);
          }
        }
      }
      return;
    case Kind::OpaqueStmt: {
      // A statement the IR does not model (a match statement): it may bind
      // or change any name it spells and call anything; it is listed as
      // not checked (its calls get no run-time check)
      if (cast<OpaqueStmt>(s)->what != "match_statement") return;
      SiteOutcome outcome(*this, s);
      if (OpenSite* open = open_site(s)) open->not_analysed = true;
      std::string text;
      if (s->loc.valid() && s->loc.end <= s->loc.file->text().size())
        text = std::string(s->loc.file->text().substr(s->loc.begin, s->loc.end - s->loc.begin));
      const std::set<std::string> names = names_a_statement_may_change(text);
      auto definition = [](const Value& v) {  // kept: a case would have to def or import it again
        return object_as<FunctionObject>(v) || object_as<ClassObject>(v) || object_as<LibraryName>(v) ||
               object_as<ModuleNamespace>(v);
      };
      std::vector<Value> changed;  // lists and tensors the statement may change in place
      for (Vars* vars : {frame().vars, &frame().module->globals})
        for (auto& [name, b] : *vars) {
          if (!names.count(name) || definition(b.value)) continue;
          if (b.value.is_object()) forget_object(b.value);
          if (b.value.is_sequence() || b.value.is_tensor()) changed.push_back(b.value);
          b.value = Value::unknown();
        }
      for (const Value& v : changed) assign_in_place(nullptr, v, after_unseen_change(v), s->loc);  // their other holders
      memo_.clear();
      return;
    }
    default: return;  // pass, nonlocal
  }
}

void Interpreter::branch(const Expr* test, const std::function<void()>& then_arm, const std::function<void()>& else_arm,
                         const Node* test_site) {
  Value c = eval(test);
  if (test_site) check_truth(test_site, test, c);
  std::optional<Pred> p = truth(c);
  if (p) {
    std::optional<bool> decided = p->constant_value();
    if (!decided) decided = solver_->query(*p);
    if (decided) {
      if (*decided) {
        then_arm();
      } else {
        else_arm();
      }
      return;
    }
  }
  Frame& f = frame();
  Vars before = *f.vars;
  WriteMark mark = write_mark();
  ++log_depth;
  struct LogDepth {
    int& d;
    ~LogDepth() { --d; }
  } restore_depth{log_depth};

  {
    SolverScope scope(*solver_);
    if (p) add_fact(*p, test->loc, "branch condition " + source_text(test->loc));
    then_arm();
  }
  Vars then_vars = std::move(*f.vars);
  bool then_live = f.live;
  std::map<std::pair<ObjectValue*, std::string>, std::pair<std::shared_ptr<ObjectValue>, std::optional<Value>>> then_writes;
  for (std::size_t i = mark.log; i < write_log_.size(); ++i) {
    const AttrWrite& w = write_log_[i];
    const Value* now = w.object->attribute(w.name);
    then_writes[{w.object.get(), w.name}] = {w.object, now ? std::optional<Value>(*now) : std::nullopt};
  }
  undo_writes(mark);

  *f.vars = std::move(before);
  f.live = true;
  {
    SolverScope scope(*solver_);
    if (p) add_fact(!*p, test->loc, "branch condition not (" + source_text(test->loc) + ")");
    else_arm();
  }
  bool else_live = f.live;
  std::map<std::pair<ObjectValue*, std::string>, std::pair<std::shared_ptr<ObjectValue>, std::optional<Value>>> else_writes;
  for (std::size_t i = mark.log; i < write_log_.size(); ++i) {
    const AttrWrite& w = write_log_[i];
    const Value* now = w.object->attribute(w.name);
    else_writes[{w.object.get(), w.name}] = {w.object, now ? std::optional<Value>(*now) : std::nullopt};
  }
  undo_writes(mark);

  JoinOptions join;
  if (p) join.condition = *p;
  join.proves = [this](const Pred& q) { return solver_->settle(q) == true; };
  if (then_live && else_live) {
    *f.vars = join_vars(then_vars, *f.vars, join);
  } else if (then_live) {
    *f.vars = std::move(then_vars);
  }
  f.live = then_live || else_live;
  // only one arm goes on (the other returned or raised): its condition holds
  // from here on (`if x.size(1) != 80: raise ...` acts as an assert)
  if (p && then_live != else_live) {
    if (then_live) add_fact(*p, test->loc, "branch condition " + source_text(test->loc));
    else add_fact(!*p, test->loc, "branch condition not (" + source_text(test->loc) + ")");
  }

  // attributes written in either arm: the joined value (or the live arm's)
  auto keys = then_writes;
  for (const auto& [k, v] : else_writes) keys.emplace(k, v);
  for (const auto& [key, entry] : keys) {
    const std::shared_ptr<ObjectValue>& obj = entry.first;
    const Value* pre = obj->attribute(key.second);
    auto pick = [&](const auto& writes) -> std::optional<Value> {
      auto it = writes.find(key);
      if (it != writes.end()) return it->second.second;
      return pre ? std::optional<Value>(*pre) : std::nullopt;
    };
    std::optional<Value> a = pick(then_writes), b = pick(else_writes);
    std::optional<Value> result;
    if (then_live && else_live) {
      if (a && b) result = join_values(*a, *b, join, key.second);
      else result = a ? a : b;
    } else if (then_live) {
      result = a;
    } else if (else_live) {
      result = b;
    }
    if (result) write_object_attribute(obj, key.second, *result);
  }
}

Value Interpreter::list_with_item_set(const Value& list, const Value& key, const Value& v) {
  if (list.items() && key.is_int()) {
    if (auto i = key.as_int().constant_value()) {
      auto n = static_cast<int64_t>(list.items()->size());
      int64_t at = *i < 0 ? *i + n : *i;
      if (at >= 0 && at < n) {
        std::vector<Value> items = *list.items();
        items[static_cast<std::size_t>(at)] = v;
        return Value::list(std::move(items));
      }
    }
  }
  // a slice or an index the analysis cannot place: any length, any of the items
  bool slice = !key.is_int() && !key.is_bool();
  Value element = any_element(list, "item");
  Value added = slice ? any_element(v, "item") : v;
  bool empty_before = list.items() && list.items()->empty();
  return Value::unknown_length(SequenceKind::List,
                               empty_before ? added : join_values(element, added, {}, "item"));
}

const Name* Interpreter::shape_of_name(const Expr* e) {
  const Expr* base = nullptr;
  if (const auto* a = dyn_cast<Attribute>(e)) {
    if (a->attr == "shape") base = a->value;
  } else if (const auto* c = dyn_cast<Call>(e)) {
    const auto* f = dyn_cast<Attribute>(c->func);
    if (f && f->attr == "size" && c->args.empty()) base = f->value;
  }
  return base ? dyn_cast<Name>(base) : nullptr;
}

void Interpreter::fix_rank(const Name& x, Binding& b, const std::vector<std::string>& names, const SourceLoc& origin,
                           bool named_by_rule) {
  // x has exactly names.size() axes from here on, each named after its
  // target. A size already named for x (`b = x.shape[0]` before, a rule's
  // `x.size(-1)`, a known last axis) is the same axis.
  const int64_t k = static_cast<int64_t>(names.size());
  const std::vector<Dim> suffix = b.value.is_tensor() ? b.value.shape().known_suffix() : std::vector<Dim>{};
  std::vector<Dim> dims;
  for (int64_t i = 0; i < k; ++i) {
    const std::string& target = names[static_cast<std::size_t>(i)];
    std::vector<Dim> same;
    if (static_cast<std::size_t>(k - i) <= suffix.size()) same.push_back(suffix[suffix.size() - static_cast<std::size_t>(k - i)]);
    for (int64_t key : {i, i - k}) {
      auto it = b.unknown_sizes.sizes.find(key);
      if (it != b.unknown_sizes.sizes.end()) same.push_back(it->second);
    }
    const std::string name = !target.empty() ? target : x.id + ".size(" + std::to_string(i) + ")";
    Dim d = !same.empty() ? same.front() : named_by_rule ? Dim::rule_symbol(name) : Dim::symbol(name);
    for (const Dim& o : same)
      if (o != d) add_fact(eq(d, o), origin, x.id + ".size(" + std::to_string(i) + ") and .size(" + std::to_string(i - k) + ")");
    dims.push_back(d);
  }
  if (b.unknown_sizes.rank) add_fact(eq(*b.unknown_sizes.rank, Dim(k)), origin, x.id + ".dim()");
  b.value = Value::tensor(Shape(std::move(dims)), b.value.is_tensor() && b.value.contiguous());
  b.unknown_sizes.clear();
}

void Interpreter::fix_rank_of_starred_shape(const Assign* a) {
  // `b, n, _, h = *x.shape, self.heads`: x has as many axes as the targets
  // left for the starred shape (the unpacking fails otherwise)
  if (a->targets.size() != 1 || !(isa<Tuple>(a->targets[0]) || isa<List>(a->targets[0]))) return;
  if (!(isa<Tuple>(a->value) || isa<List>(a->value))) return;
  const auto& targets = static_cast<const SequenceExpr*>(a->targets[0])->elts;
  const auto& elts = static_cast<const SequenceExpr*>(a->value)->elts;
  std::size_t star = elts.size();
  for (std::size_t i = 0; i < elts.size(); ++i) {
    if (!isa<Starred>(elts[i])) continue;
    if (star != elts.size()) return;  // two starred parts: the split is not known
    star = i;
  }
  for (const Expr* t : targets)
    if (isa<Starred>(t)) return;
  if (star == elts.size() || targets.size() + 1 < elts.size()) return;
  const Name* name = shape_of_name(cast<Starred>(elts[star])->value);
  Binding* b = name ? find_binding(name->id) : nullptr;
  if (!b || !(b->value.is_unknown() || (b->value.is_tensor() && !b->value.shape().rank_known()))) return;
  std::vector<std::string> names;
  std::size_t rank = targets.size() - (elts.size() - 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const auto* tn = dyn_cast<Name>(targets[star + i]);
    names.push_back(tn && tn->id != "_" ? tn->id : std::string());
  }
  fix_rank(*name, *b, names, a->loc, false);
}

void Interpreter::check_unpacking(const Assign* a, const Value& v) {
  if (a->targets.size() != 1) return;
  check_unpacked(a, unpack_rule(a->targets.front()), v, a->value);
}

void Interpreter::check_unpacked(const Node* site, const std::string& rule, const Value& v, const Expr* value_expr) {
  if (rule.empty()) return;
  SiteOutcome outcome(*this, site);
  bool tensors = v.is_tensor() || (v.is_sequence() && v.element() && v.element()->is_tensor());
  if (v.is_sequence() && v.items())
    for (const Value& item : *v.items()) tensors = tensors || item.is_tensor();
  if (!tensors) {
    // a value of unknown kind may hold tensors: checked at run time; the
    // unpacking of other values is Python's own business (no shape error)
    bool unknown = v.is_unknown() || (v.is_sequence() && !v.items() && (!v.element() || v.element()->is_unknown()));
    if (unknown) note_unresolved(site, "the unpacked operand is not known (it may hold tensors)");
    return;
  }
  std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, v, value_expr, {}}};
  apply_named_rule(rule, std::nullopt, args, site);
}

const Call* Interpreter::suppress_call(const With& w) {
  for (const WithItem& item : w.items) {
    const auto* call = dyn_cast<Call>(item.context);
    if (!call) continue;
    const Expr* f = call->func;
    if (const auto* n = dyn_cast<Name>(f); n && n->id == "suppress") return call;
    if (const auto* a = dyn_cast<Attribute>(f); a && a->attr == "suppress") return call;
  }
  return nullptr;
}

bool Interpreter::may_be_tensor(const Value& v) {
  if (v.is_tensor() || v.is_unknown()) return true;
  if (const auto* choice = object_as<ChoiceObject>(v))
    for (const Value& alt : choice->alternatives)
      if (may_be_tensor(alt)) return true;
  return false;
}

void Interpreter::check_truth(const Node* site, const Expr* test, const Value& v) {
  // `not x` is a site whatever x is (as the rewriter's expression index has it)
  const auto* negation = dyn_cast<UnaryOp>(site);
  std::string rule = negation ? unary_operator_rule(negation->op) : truth_test_rule(test);
  if (rule.empty()) return;
  SiteOutcome outcome(*this, site);
  if (v.is_tensor()) {
    std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, v, test, {}}};
    apply_named_rule(rule, std::nullopt, args, site);
  } else if (may_be_tensor(v) && test != compared_non_tensors_) {
    note_unresolved(site, "the tested operand is not known (it may be a tensor)");
  }
}

Interpreter::WrittenBetween::WrittenBetween(Interpreter& in) : in_(in), mark_(in.write_mark()) { ++in_.log_depth; }

Interpreter::WrittenBetween::~WrittenBetween() {
  if (!done_) --in_.log_depth;
}

void Interpreter::WrittenBetween::join_into_objects() {
  --in_.log_depth;
  done_ = true;
  // per attribute of an object that existed before: its value then, and
  // every value a write gave it since (each write's old value is the one
  // before; the current one is the last)
  std::map<std::pair<ObjectValue*, std::string>, std::pair<std::shared_ptr<ObjectValue>, Value>> seen;
  for (std::size_t i = mark_.log; i < in_.write_log_.size(); ++i) {
    const AttrWrite& w = in_.write_log_[i];
    const auto* made = dynamic_cast<const InstanceObject*>(w.object.get());
    if (made && made->born > mark_.clock) continue;
    Value old = w.old_value ? *w.old_value : Value::unknown();
    auto key = std::make_pair(w.object.get(), w.name);
    auto it = seen.find(key);
    if (it == seen.end()) seen.emplace(key, std::make_pair(w.object, old));
    else it->second.second = join_values(it->second.second, old, {}, w.name);
  }
  if (in_.log_depth == 0) in_.write_log_.resize(mark_.log);
  for (auto& [key, held] : seen) {
    const Value* now = held.first->attribute(key.second);
    Value any = now ? join_values(held.second, *now, {}, key.second) : Value::unknown();
    in_.write_object_attribute(held.first, key.second, any);
  }
  if (!seen.empty()) in_.memo_.clear();
}

void Interpreter::assign(const Expr* target, const Value& v, const SourceLoc& origin, const Expr* value_expr,
                         const ir::Node* setitem_site) {
  switch (target->kind) {
    case Kind::Name:
      bind_name(cast<Name>(target)->id, v, origin);
      record_shape(target, v);
      return;
    case Kind::Attribute: {
      const auto* a = cast<Attribute>(target);
      Value obj = eval(a->value);
      forget_attribute_hints(obj);
      if (obj.is_tensor() && (a->attr == "data" || a->attr == "shape")) {
        // `x.data = y` replaces x's storage, shape included
        bool named = isa<Name>(a->value) || isa<Attribute>(a->value);
        assign_in_place(named ? a->value : nullptr, obj, v.is_tensor() ? v : Value::tensor(Shape::unknown(), false), origin);
        return;
      }
      set_attribute(obj, a->attr, v, origin);
      return;
    }
    case Kind::Subscript: {
      const auto* sub = cast<Subscript>(target);
      if (const auto* dict = dyn_cast<Attribute>(sub->value); dict && dict->attr == "__dict__") {
        // `cfg.__dict__["n_embd"] = 12`: that attribute, or any
        Value owner = eval(dict->value);
        Value key = index_value(sub->index);
        if (key.is_str() && key.as_str()) set_attribute(owner, *key.as_str(), v, origin);
        else forget_object(owner);
        return;
      }
      if (const auto* modules = dyn_cast<Attribute>(sub->value); modules && modules->attr == "_modules") {
        // `model._modules[name] = layer`: the layer set as the model's child
        Value owner = eval(modules->value);
        Value key = index_value(sub->index);
        std::optional<std::string> name = key.is_str() ? key.as_str() : std::nullopt;
        if (auto c = shared_as<ContainerModule>(owner)) {
          std::optional<int64_t> k;
          if (name && !name->empty() && name->find_first_not_of("0123456789") == std::string::npos && name->size() < 9)
            k = std::stoll(*name);
          if (c->children_known && k && *k < static_cast<int64_t>(c->children.size())) {
            c->children[static_cast<std::size_t>(*k)] = v;
            if (static_cast<std::size_t>(*k) < c->child_exprs.size()) c->child_exprs[static_cast<std::size_t>(*k)] = value_expr;
          } else {
            c->children_known = false;
          }
          memo_.clear();
        } else if (name) {
          set_attribute(owner, *name, v, origin);
        } else if (auto inst = shared_as<InstanceObject>(owner)) {
          std::vector<std::string> layers;  // any of its layers may be the one replaced
          for (const auto& [attr, value] : inst->attributes)
            if (value.is_object()) layers.push_back(attr);
          for (const std::string& attr : layers) write_object_attribute(inst, attr, Value::unknown());
        }
        return;
      }
      if (names_globals(sub->value)) {  // `globals()[name] = v`
        Value key = index_value(sub->index);
        if (key.is_str() && key.as_str()) {
          frame().module->globals[*key.as_str()] = Binding{v, origin, {}};
          memo_.clear();
        } else {
          forget_globals();
        }
        return;
      }
      std::optional<SiteOutcome> outcome;
      if (setitem_site) outcome.emplace(*this, setitem_site);
      Value obj = eval(sub->value);
      Value key = index_value(sub->index);
      if (setitem_site && obj.is_unknown()) note_unresolved(setitem_site, "the value assigned into is not known (it may be a tensor)");
      if (setitem_site && obj.is_tensor()) {
        std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, obj, sub->value, {}},
                                   ArgValue{Argument::Type::Positional, {}, key, sub->index, {}},
                                   ArgValue{Argument::Type::Positional, {}, v, value_expr, {}}};
        apply_named_rule("operator.setitem", std::nullopt, args, setitem_site);
        return;
      }
      if (auto c = shared_as<ContainerModule>(obj)) {
        // `model.classifier[1] = nn.Linear(12, 3)`: the layer is swapped
        std::optional<int64_t> k = key.is_int() ? key.as_int().constant_value() : std::nullopt;
        auto n = static_cast<int64_t>(c->children.size());
        if (k && *k < 0) *k += n;
        if (c->children_known && k && *k >= 0 && *k < n) {
          c->children[static_cast<std::size_t>(*k)] = v;
          if (static_cast<std::size_t>(*k) < c->child_exprs.size()) c->child_exprs[static_cast<std::size_t>(*k)] = value_expr;
        } else {
          c->children_known = false;
        }
        memo_.clear();  // a call analysed with the old layer no longer answers
        return;
      }
      if (auto dict = shared_as<DictObject>(obj)) {
        // a call memoised with the dict read its old items (`cfg["d"] = 5`)
        if (!memo_.empty()) memo_.clear();
        if (auto k = dict_key(key)) {
          dict->set(*k, v);
        } else {
          dict->complete = false;
        }
      } else if (obj.is_sequence() && obj.sequence_kind() == SequenceKind::List) {
        // a list is a value here: the name (or attribute) holding it is
        // rebound; reached otherwise (`cfg["d"][0] = 16`), its holders forget it
        if (isa<Name>(sub->value) || isa<Attribute>(sub->value))
          assign_in_place(sub->value, obj, list_with_item_set(obj, key, v), origin);
        else
          assign_in_place(nullptr, obj, after_unseen_change(obj), origin);
      }
      return;
    }
    case Kind::Starred: assign(cast<Starred>(target)->value, v, origin); return;
    case Kind::List:
    case Kind::Tuple: break;
    default: return;
  }
  const auto& elts = static_cast<const SequenceExpr*>(target)->elts;
  std::size_t n = elts.size();
  std::size_t star = n;
  for (std::size_t i = 0; i < n; ++i)
    if (isa<Starred>(elts[i])) star = i;

  // `B, C, H, W = x.shape` with x of unknown rank: x gets four symbols named after the targets
  if (star == n && value_expr && (v.is_unknown() || (v.is_sequence() && !v.items()))) {
    const auto* name = shape_of_name(value_expr);
    Binding* b = name ? find_binding(name->id) : nullptr;
    if (b && (b->value.is_unknown() || (b->value.is_tensor() && !b->value.shape().rank_known()))) {
      std::vector<std::string> names;
      for (std::size_t i = 0; i < n; ++i) {
        const auto* tn = dyn_cast<Name>(elts[i]);
        names.push_back(tn && tn->id != "_" ? tn->id : std::string());
      }
      fix_rank(*name, *b, names, origin, false);  // unpacking fails here unless x has n axes
      const std::vector<Dim>& dims = b->value.shape().dims();
      for (std::size_t i = 0; i < n; ++i) assign(elts[i], Value::integer(dims[i]), origin);
      return;
    }
  }

  std::optional<std::vector<Value>> items;
  if (v.is_sequence() && v.items()) {
    items = *v.items();
  } else if (v.is_sequence() && v.element()) {
    if (star == n) {
      items.emplace();
      for (std::size_t i = 0; i < n; ++i) items->push_back(v.uniform_items() ? *v.element() : some_item(*v.element()));
    }
  } else if (v.is_tensor() && v.shape().rank_known() && v.shape().rank() >= 1) {
    const Shape& s = v.shape();
    std::vector<Dim> rest(s.dims().begin() + 1, s.dims().end());
    auto first = s[0].constant_value();
    if (star == n && (!first || *first == static_cast<int64_t>(n))) items = std::vector<Value>(n, Value::tensor(Shape(rest)));
  } else if (!v.is_unknown()) {
    items = known_items(v, 4096);
  }
  if (items && v.cause())
    for (Value& item : *items) item = inherit_cause(std::move(item), v);
  // an unknown item bound to a name gets an int hint of its own, as a whole
  // unknown does below: its uses as a size stay one size
  // (`for (d_in, d), heads in zip(pairs, *hyper)`)
  if (items && star == n && items->size() == n) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto* tn = dyn_cast<Name>(elts[i]);
      Value& item = (*items)[i];
      if (tn && tn->id != "_" && item.is_unknown() && !item.int_view())
        item = Value::unknown_int(Dim::symbol(tn->id, false)).with_cause(item.cause());
    }
  }
  if (!items) {
    // `h, w = pair(size)` of an unknown: each name is unknown, with an int
    // hint of its own (a fresh symbol, so nothing is assumed) that its uses
    // share: `h` in a Rearrange and in `c * h * w` stays the same size
    for (std::size_t i = 0; i < n; ++i) {
      const auto* tn = dyn_cast<Name>(elts[i]);
      bool hint = v.is_unknown() && star == n && tn && tn->id != "_";
      Value item = hint ? Value::unknown_int(Dim::symbol(tn->id, false)) : Value::unknown();
      assign(elts[i], item.with_cause(v.cause()), origin);
    }
    return;
  }
  if (star == n) {
    if (items->size() != n) {
      for (std::size_t i = 0; i < n; ++i) assign(elts[i], Value::unknown(), origin);
      return;
    }
    for (std::size_t i = 0; i < n; ++i) assign(elts[i], (*items)[i], origin);
    return;
  }
  if (items->size() + 1 < n) {
    for (std::size_t i = 0; i < n; ++i) assign(elts[i], Value::unknown(), origin);
    return;
  }
  std::size_t after = n - star - 1;
  for (std::size_t i = 0; i < star; ++i) assign(elts[i], (*items)[i], origin);
  std::vector<Value> middle(items->begin() + static_cast<std::ptrdiff_t>(star),
                            items->end() - static_cast<std::ptrdiff_t>(after));
  assign(elts[star], Value::list(std::move(middle)), origin);
  for (std::size_t i = 0; i < after; ++i) assign(elts[star + 1 + i], (*items)[items->size() - after + i], origin);
}

}  // namespace gshape::gradual::interp
