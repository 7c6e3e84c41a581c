// Expressions: names and scopes, attributes, displays, Python arithmetic on
// ints (dims), floats, strings and sequences, comparisons and truth; tensor
// operands of operators go to the registry's `operator.*` rules.
#include <cmath>
#include <limits>
#include <regex>
#include <set>

#include "gradual/interp.h"
#include "gradual/operator_rules.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

// Python's printf-style `fmt % args` for %d, %i, %s and %% of known ints and
// strings ('level_%d' % i names a child module); nullopt for anything else.
std::optional<std::string> percent_format(const std::string& fmt, const Value& args) {
  std::vector<const Value*> values;
  if (args.is_sequence() && args.sequence_kind() == SequenceKind::Tuple) {
    if (!args.items()) return std::nullopt;
    for (const Value& v : *args.items()) values.push_back(&v);
  } else {
    values.push_back(&args);
  }
  std::string out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (++i == fmt.size()) return std::nullopt;
    char conversion = fmt[i];
    if (conversion == '%') {
      out += '%';
      continue;
    }
    if (next == values.size()) return std::nullopt;
    const Value& v = *values[next++];
    std::optional<int64_t> k = v.is_int() ? v.as_int().constant_value() : std::nullopt;
    if ((conversion == 'd' || conversion == 'i' || conversion == 's') && k) {
      out += std::to_string(*k);
    } else if (conversion == 's' && v.is_str() && v.as_str()) {
      out += *v.as_str();
    } else {
      return std::nullopt;
    }
  }
  if (next != values.size()) return std::nullopt;
  return out;
}

const std::set<std::string>& builtin_names() {
  static const std::set<std::string> names = {
      "len", "range", "enumerate", "zip", "min", "max", "int", "float", "str", "bool", "tuple", "list", "dict",
      "set", "frozenset", "print", "isinstance", "issubclass", "super", "abs", "sum", "sorted", "reversed", "round",
      "getattr", "setattr", "hasattr", "type", "iter", "next", "map", "filter", "any", "all", "open", "object",
      "callable", "repr", "id", "hash", "divmod", "pow", "vars", "dir", "format", "input", "exit", "quit",
      "staticmethod", "classmethod", "property", "slice", "bytes", "complex", "Exception", "ValueError",
      "TypeError", "RuntimeError", "KeyError", "IndexError", "NotImplementedError", "AssertionError",
      "StopIteration", "AttributeError", "OSError", "IOError", "ImportError", "NotImplemented", "ord", "chr",
      "hex", "bin", "oct", "locals", "globals", "delattr", "memoryview", "bytearray"};
  return names;
}

// An int-like value as a dim (bools are 0/1), or nullopt.
std::optional<Dim> as_dim(const Value& v) {
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) {
    const Pred& p = v.as_bool();
    if (p.is_constant()) return Dim(p.is_true() ? 1 : 0);
    return Dim::ite(p, Dim(1), Dim(0));
  }
  return std::nullopt;
}

std::optional<double> as_number(const Value& v) {
  if (v.is_float()) return v.as_float();
  if (auto d = as_dim(v)) {
    if (auto c = d->constant_value()) return static_cast<double>(*c);
  }
  return std::nullopt;
}

// What an nn.ModuleDict's attribute names before its children: its own and
// nn.Module's methods and fields.
bool module_dict_method(const std::string& attr) {
  static const std::set<std::string> names = {
      "keys", "items", "values", "update", "pop", "clear", "parameters", "named_parameters", "buffers",
      "named_buffers", "children", "named_children", "modules", "named_modules", "to", "cuda", "cpu", "train",
      "eval", "apply", "state_dict", "load_state_dict", "requires_grad_", "zero_grad", "half", "float", "double",
      "type", "register_buffer", "register_parameter", "add_module", "register_module", "get_submodule", "training",
      "forward"};
  return names.count(attr) > 0 || attr.rfind("__", 0) == 0;
}

bool is_numeric(const Value& v) { return v.is_int() || v.is_bool() || v.is_float(); }

// The text of f"fc{i}" when every field is a known int or string written
// plainly (no conversion, format spec or `=`): `setattr(self, f"fc{i}", ...)`
// names the attribute it sets. nullopt otherwise.
std::optional<std::string> fstring_text(const std::string& written, const std::vector<Value>& fields) {
  std::size_t q = written.find_first_of("'\"");
  if (q == std::string::npos) return std::nullopt;
  std::string prefix = written.substr(0, q);
  for (char c : prefix)
    if (c != 'f' && c != 'F') return std::nullopt;  // rf"..." keeps backslashes: not handled
  std::string quote = written.compare(q, 3, std::string(3, written[q])) == 0 ? std::string(3, written[q])
                                                                              : std::string(1, written[q]);
  if (written.size() < q + 2 * quote.size()) return std::nullopt;
  std::string body = written.substr(q + quote.size(), written.size() - q - 2 * quote.size());
  std::string out;
  std::size_t field = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\\') return std::nullopt;  // escapes: not handled
    if (c == '}') {
      if (i + 1 < body.size() && body[i + 1] == '}') ++i;
      out += '}';
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < body.size() && body[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    int depth = 1;
    std::size_t j = i + 1;
    for (; j < body.size() && depth > 0; ++j) {
      if (body[j] == '{' || body[j] == '[' || body[j] == '(') ++depth;
      if (body[j] == '}' || body[j] == ']' || body[j] == ')') --depth;
      if (depth == 1 && (body[j] == '!' || body[j] == ':' || body[j] == '=')) return std::nullopt;
    }
    if (depth != 0 || field >= fields.size()) return std::nullopt;
    const Value& x = fields[field++];
    if (x.is_int() && x.as_int().constant_value()) out += std::to_string(*x.as_int().constant_value());
    else if (x.is_str() && x.as_str()) out += *x.as_str();
    else return std::nullopt;
    i = j - 1;
  }
  if (field != fields.size()) return std::nullopt;
  return out;
}

Value int_arith(BinOpKind op, const Dim& a, const Dim& b) {
  try {
    switch (op) {
      case BinOpKind::Add: return Value::integer(a + b);
      case BinOpKind::Sub: return Value::integer(a - b);
      case BinOpKind::Mult: return Value::integer(a * b);
      case BinOpKind::FloorDiv:
        if (b.constant_value() == 0) return Value::unknown();
        return Value::integer(floordiv(a, b));
      case BinOpKind::Mod:
        if (b.constant_value() == 0) return Value::unknown();
        return Value::integer(mod(a, b));
      case BinOpKind::Div: {
        auto ca = a.constant_value(), cb = b.constant_value();
        if (ca && cb && *cb != 0) return Value::floating(static_cast<double>(*ca) / static_cast<double>(*cb));
        return Value::floating();
      }
      case BinOpKind::Pow: {
        auto e = b.constant_value();
        if (!e) return Value::unknown();
        if (*e < 0) {
          auto ca = a.constant_value();
          if (ca && *ca != 0) return Value::floating(std::pow(static_cast<double>(*ca), static_cast<double>(*e)));
          return Value::floating();
        }
        if (*e > 64) return Value::unknown();
        Dim r(1);
        for (int64_t i = 0; i < *e; ++i) r = r * a;
        return Value::integer(r);
      }
      default: {
        auto ca = a.constant_value(), cb = b.constant_value();
        if (!ca || !cb) return Value::unknown();
        switch (op) {
          case BinOpKind::BitAnd: return Value::integer(*ca & *cb);
          case BinOpKind::BitOr: return Value::integer(*ca | *cb);
          case BinOpKind::BitXor: return Value::integer(*ca ^ *cb);
          case BinOpKind::LShift:
            if (*cb < 0 || *cb > 62) return Value::unknown();
            return Value::integer(*ca << *cb);
          case BinOpKind::RShift:
            if (*cb < 0 || *cb > 62) return Value::unknown();
            return Value::integer(*ca >> *cb);
          default: return Value::unknown();
        }
      }
    }
  } catch (const std::exception&) {  // overflow in the simplifier
    return Value::unknown();
  }
}

Value float_arith(BinOpKind op, std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return Value::floating();
  switch (op) {
    case BinOpKind::Add: return Value::floating(*a + *b);
    case BinOpKind::Sub: return Value::floating(*a - *b);
    case BinOpKind::Mult: return Value::floating(*a * *b);
    case BinOpKind::Div: return *b == 0 ? Value::unknown() : Value::floating(*a / *b);
    case BinOpKind::Pow: return Value::floating(std::pow(*a, *b));
    case BinOpKind::FloorDiv: return *b == 0 ? Value::unknown() : Value::floating(std::floor(*a / *b));
    case BinOpKind::Mod: return *b == 0 ? Value::unknown() : Value::floating(*a - *b * std::floor(*a / *b));
    default: return Value::unknown();
  }
}

Value concat(const Value& a, const Value& b) {
  SequenceKind kind = a.sequence_kind();
  if (a.items() && b.items()) {
    std::vector<Value> items = *a.items();
    items.insert(items.end(), b.items()->begin(), b.items()->end());
    return Value::sequence(kind, std::move(items));
  }
  auto element = [](const Value& s) -> Value {
    if (s.element()) return *s.element();
    if (s.items() && !s.items()->empty()) return s.items()->front();
    return Value::unknown();
  };
  Value ea = element(a), eb = element(b);
  return Value::unknown_length(kind, same_value(ea, eb) ? ea : Value::unknown());
}

}  // namespace

Binding* Interpreter::find_binding(const std::string& name) {
  Frame& f = frame();
  if (!f.global_names.count(name)) {
    auto it = f.vars->find(name);
    if (it != f.vars->end()) return &it->second;
  }
  auto g = f.module->globals.find(name);
  if (g != f.module->globals.end()) return &g->second;
  return nullptr;
}

Value Interpreter::lookup_name(const std::string& name, const Node*) {
  Frame& f = frame();
  if (!f.global_names.count(name)) {
    auto it = f.vars->find(name);
    if (it != f.vars->end()) return it->second.value;
  }
  if (f.closure) {
    auto it = f.closure->find(name);
    if (it != f.closure->end()) return it->second.value;
  }
  auto g = f.module->globals.find(name);
  if (g != f.module->globals.end()) {
    if (!active_global_reads_.empty()) {
      const auto* inst = object_as<InstanceObject>(g->second.value);
      active_global_reads_.back().emplace(std::make_pair(f.module, name),
                                          GlobalRead{g->second.value, inst ? inst->version : 0});
    }
    return g->second.value;
  }
  if (builtin_names().count(name)) return Value::object(std::make_shared<LibraryName>("builtins." + name));
  return Value::unknown();
}

Value Interpreter::size_of_unknown(const Expr* receiver, int64_t axis) {
  if (const auto* n = receiver ? dyn_cast<Name>(receiver) : nullptr) {
    if (Binding* b = find_binding(n->id)) {
      auto it = b->unknown_sizes.sizes.find(axis);
      if (it != b->unknown_sizes.sizes.end()) return Value::integer(it->second);
      Dim d = Dim::symbol(n->id + ".size(" + std::to_string(axis) + ")");
      b->unknown_sizes.sizes.emplace(axis, d);
      return Value::integer(d);
    }
  }
  return fresh_int("size(" + std::to_string(axis) + ")");
}

Value Interpreter::eval(const Expr* e) {
  if (!e) return Value::none();
  tick();
  struct Depth {
    int& d;
    explicit Depth(int& x) : d(x) { ++d; }
    ~Depth() { --d; }
  } depth(expr_depth());
  if (expr_depth() > 400) return Value::unknown();
  Value v;
  switch (e->kind) {
    case Kind::Name: v = lookup_name(cast<Name>(e)->id, e); break;
    case Kind::Constant: {
      const auto* c = cast<Constant>(e);
      switch (c->type) {
        case Constant::Type::Int: v = c->int_value ? Value::integer(*c->int_value) : Value::unknown(); break;
        case Constant::Type::Float: v = Value::floating(c->float_value); break;
        case Constant::Type::Str: v = Value::string(c->str_value); break;
        case Constant::Type::True: v = Value::boolean(Pred(true)); break;
        case Constant::Type::False: v = Value::boolean(Pred(false)); break;
        case Constant::Type::None: v = Value::none(); break;
        default: v = Value::unknown(); break;
      }
      break;
    }
    case Kind::FString: {
      const auto* f = cast<FString>(e);
      std::vector<Value> fields;
      for (const Expr* x : f->values) fields.push_back(eval(x));
      v = Value::string(fstring_text(f->text, fields));
      break;
    }
    case Kind::Attribute: {
      const auto* a = cast<Attribute>(e);
      Value obj = eval(a->value);
      v = inherit_cause(get_attribute(obj, a->attr, a->value, a), obj);
      break;
    }
    case Kind::Subscript: {
      const auto* s = cast<Subscript>(e);
      SiteOutcome outcome(*this, e);  // indexing a tensor is checked (operator.getitem)
      // `x.shape[1]` of a tensor of unknown rank: the same symbol each time
      if (const auto* a = dyn_cast<Attribute>(s->value); a && a->attr == "shape" && isa<Name>(a->value)) {
        const auto* c = dyn_cast<Constant>(s->index);
        Binding* b = find_binding(cast<Name>(a->value)->id);
        if (c && c->int_value && *c->int_value >= 0 && b &&
            (b->value.is_unknown() || (b->value.is_tensor() && !b->value.shape().rank_known()))) {
          v = size_of_unknown(a->value, *c->int_value);
          open_sites_.back().unknown_rank = true;  // the index may be past the last axis: checked at run time
          break;
        }
        // `x.shape[-1]` of `[*, 16]`: the known last axis
        const auto* neg = dyn_cast<UnaryOp>(s->index);
        const auto* k = neg && neg->op == UnaryOpKind::Neg ? dyn_cast<Constant>(neg->operand) : nullptr;
        if (k && k->int_value && b && b->value.is_tensor() && !b->value.shape().rank_known()) {
          if (auto known = b->value.shape().from_end(-*k->int_value)) {
            v = Value::integer(*known);
            open_sites_.back().unknown_rank = true;
            break;
          }
        }
      }
      Value obj = eval(s->value);
      v = inherit_cause(subscript(obj, s->index, s), obj);
      break;
    }
    case Kind::Call: v = eval_call(cast<Call>(e)); break;
    case Kind::BinOp: {
      const auto* b = cast<BinOp>(e);
      Value l = eval(b->left);
      Value r = eval(b->right);
      v = inherit_cause(binary(b->op, l, r, e, b->left, b->right, false), l, &r);
      break;
    }
    case Kind::UnaryOp: {
      const auto* u = cast<UnaryOp>(e);
      Value x = eval(u->operand);
      switch (u->op) {
        case UnaryOpKind::Not: {
          check_truth(e, u->operand, x);
          auto p = truth(x);
          v = p ? Value::boolean(!*p) : Value::unknown();
          break;
        }
        case UnaryOpKind::Neg:
        case UnaryOpKind::Pos:
        case UnaryOpKind::Invert: {
          std::string name = unary_operator_rule(u->op);
          SiteOutcome outcome(*this, e);
          if (x.is_unknown()) note_unresolved(e, "the operand is not known (it may be a tensor)");
          if (x.is_tensor() && !name.empty()) {
            std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, x, u->operand, {}}};
            v = apply_named_rule(name, std::nullopt, args, e).value_or(Value::unknown());
          } else if (auto d = as_dim(x)) {
            if (u->op == UnaryOpKind::Neg) v = int_arith(BinOpKind::Sub, Dim(0), *d);
            else if (u->op == UnaryOpKind::Pos) v = Value::integer(*d);
            else v = int_arith(BinOpKind::Sub, Dim(-1), *d);
          } else if (x.is_float()) {
            v = u->op == UnaryOpKind::Neg && x.as_float() ? Value::floating(-*x.as_float())
                : u->op == UnaryOpKind::Pos             ? x
                                                        : Value::unknown();
          } else {
            v = Value::unknown();
          }
          v = inherit_cause(std::move(v), x);
          break;
        }
      }
      break;
    }
    case Kind::Compare: {
      const auto* c = cast<Compare>(e);
      Value left = eval(c->left);
      const Expr* left_expr = c->left;
      std::optional<Pred> all = Pred(true);
      bool unknown = false;
      bool non_tensors = !may_be_tensor(left);
      Value last;
      for (std::size_t i = 0; i < c->ops.size(); ++i) {
        Value right = eval(c->comparators[i]);
        non_tensors = non_tensors && !may_be_tensor(right);
        // a single comparison is a site of the rewriter (chains are not)
        std::optional<SiteOutcome> outcome;
        if (c->ops.size() == 1 && is_comparison(c->ops[i])) outcome.emplace(*this, e);
        Value r = compare(c->ops[i], left, right, e, left_expr, c->comparators[i]);
        if (outcome && (left.is_unknown() || right.is_unknown()) && !left.is_tensor() && !right.is_tensor() &&
            !left.is_none() && !right.is_none())
          note_unresolved(e, "an operand is not known (it may be a tensor)");
        last = r;
        if (r.is_bool()) {
          all = *all && r.as_bool();
        } else {
          unknown = true;
        }
        left = right;
        left_expr = c->comparators[i];
      }
      if (c->ops.size() == 1) v = last;
      else v = unknown ? (all && all->is_false() ? Value::boolean(false) : Value::unknown()) : Value::boolean(*all);
      // an undecided comparison of values that are no tensors is a bool (check_truth)
      compared_non_tensors_ = non_tensors ? e : nullptr;
      break;
    }
    case Kind::BoolOp: {
      // Python: `a or b` is a when a is truthy, else b (`and`: a when a is
      // falsy). An operand whose truth is known short-circuits; one whose
      // truth is not known makes the result a choice between it and the
      // rest, which is evaluated under the fact that it did not short-circuit.
      const auto* b = cast<BoolOp>(e);
      bool is_and = b->op == BoolOp::Op::And;
      struct Undecided {
        std::optional<Pred> truth;
        Value value;
      };
      std::vector<Undecided> undecided;
      std::vector<std::unique_ptr<SolverScope>> scopes;
      Value last;
      for (std::size_t i = 0; i < b->values.size(); ++i) {
        Value x = eval(b->values[i]);
        last = x;
        auto p = truth(x);
        bool final = i + 1 == b->values.size();
        if (p && p->is_constant()) {
          if (p->is_true() != is_and) break;  // short circuit: x is the result
          continue;
        }
        if (final) break;
        undecided.push_back({p, x});
        scopes.push_back(std::make_unique<SolverScope>(*solver_));
        if (p) add_fact(is_and ? *p : !*p, b->values[i]->loc, std::string("operand ") + source_text(b->values[i]->loc) +
                                                                  (is_and ? " is truthy" : " is falsy"));
      }
      scopes.clear();
      Value result = last;
      for (auto it = undecided.rbegin(); it != undecided.rend(); ++it) {
        const Value& x = it->value;
        std::optional<Pred> chosen;  // when x is the result
        if (it->truth) chosen = is_and ? !*it->truth : *it->truth;
        auto dx = as_dim(x), dr = as_dim(result);
        if (chosen && x.is_bool() && result.is_bool()) {
          result = Value::boolean(is_and ? (x.as_bool() && result.as_bool()) : (x.as_bool() || result.as_bool()));
        } else if (chosen && x.is_int() && dx && dr && (result.is_int() || result.is_bool())) {
          result = Value::integer(Dim::ite(*chosen, *dx, *dr));
        } else {
          result = join_values(x, result, {}, "bool_op");
        }
      }
      v = result;
      break;
    }
    case Kind::IfExp: {
      const auto* i = cast<IfExp>(e);
      Value then_v, else_v;
      bool then_ran = false, else_ran = false;
      Value cond = eval(i->test);
      check_truth(e, i->test, cond);
      std::optional<Pred> p = truth(cond);
      std::optional<bool> decided;
      if (p) decided = p->is_constant() ? p->constant_value() : solver_->query(*p);
      if (decided) {
        v = eval(*decided ? i->body : i->orelse);
        break;
      }
      {
        SolverScope scope(*solver_);
        if (p) add_fact(*p, i->test->loc, "condition " + source_text(i->test->loc));
        then_v = eval(i->body);
        then_ran = true;
      }
      {
        SolverScope scope(*solver_);
        if (p) add_fact(!*p, i->test->loc, "condition not (" + source_text(i->test->loc) + ")");
        else_v = eval(i->orelse);
        else_ran = true;
      }
      JoinOptions join;
      if (p) join.condition = *p;
      join.proves = [this](const Pred& q) { return solver_->settle(q) == true; };
      v = then_ran && else_ran ? join_values(then_v, else_v, join, source_text(e->loc, 24)) : Value::unknown();
      break;
    }
    case Kind::Lambda: {
      auto fn = std::make_shared<FunctionObject>();
      const auto* l = cast<Lambda>(e);
      fn->lambda = l;
      fn->module = frame().module;
      fn->qualname = "<lambda>";
      if (frame().vars != &frame().module->globals) fn->closure = closure_snapshot(true);
      for (const Parameter& p : l->params) {
        fn->has_default.push_back(p.default_value != nullptr);
        fn->defaults.push_back(p.default_value ? eval(p.default_value) : Value::unknown());
      }
      v = Value::object(fn);
      break;
    }
    case Kind::ListComp: v = comprehension(cast<ListComp>(e), false); break;
    case Kind::GeneratorExp: v = comprehension(cast<GeneratorExp>(e), false); break;
    case Kind::SetComp: comprehension(cast<SetComp>(e), true); v = Value::unknown(); break;
    case Kind::DictComp: v = dict_comprehension(cast<DictComp>(e)); break;
    case Kind::List:
    case Kind::Tuple: {
      const auto* seq = static_cast<const SequenceExpr*>(e);
      std::vector<Value> items;
      bool known = true;
      Value element;
      for (const Expr* x : seq->elts) {
        if (const auto* st = dyn_cast<Starred>(x)) {
          Value inner = eval(st->value);
          auto expanded = known_items(inner, 4096);
          if (expanded) {
            items.insert(items.end(), expanded->begin(), expanded->end());
          } else {
            known = false;
            element = any_element(inner, "item");
          }
        } else {
          items.push_back(eval(x));
        }
      }
      SequenceKind kind = e->kind == Kind::List ? SequenceKind::List : SequenceKind::Tuple;
      v = known ? Value::sequence(kind, std::move(items)) : Value::unknown_length(kind, Value::unknown());
      break;
    }
    case Kind::Set:
      for (const Expr* x : cast<Set>(e)->elts) eval(x);
      v = Value::unknown();
      break;
    case Kind::Dict: {
      const auto* d = cast<Dict>(e);
      auto dict = std::make_shared<DictObject>();
      for (std::size_t i = 0; i < d->keys.size(); ++i) {
        if (!d->keys[i]) {
          Value inner = eval(d->values[i]);
          if (const auto* other = object_as<DictObject>(inner)) {
            for (const auto& [k, val] : other->entries) dict->set(k, val);
            if (!other->complete) dict->complete = false;
          } else {
            dict->complete = false;
          }
          continue;
        }
        Value key = eval(d->keys[i]);
        Value val = eval(d->values[i]);
        if (auto k = dict_key(key)) dict->set(*k, val);
        else dict->complete = false;
      }
      v = Value::object(dict);
      break;
    }
    case Kind::Starred: v = eval(cast<Starred>(e)->value); break;
    case Kind::NamedExpr: {
      const auto* n = cast<NamedExpr>(e);
      v = eval(n->value);
      assign(n->target, v, n->value->loc, n->value);
      break;
    }
    case Kind::Await: eval(cast<Await>(e)->value); v = Value::unknown(); break;
    case Kind::Yield:
      eval(cast<Yield>(e)->value);
      frame().is_generator = true;
      v = Value::unknown();
      break;
    default: v = Value::unknown(); break;
  }
  // an unknown made here (a call without a rule, data read at run time)
  // carries its cause wherever it flows
  if (!v.cause() && (v.is_unknown() || (v.is_tensor() && !v.shape().rank_known())) && e->kind != Kind::Name)
    if (auto cause = unknown_cause_at(e->loc)) v = v.with_cause(std::move(cause));
  record_shape(e, v);
  return v;
}

std::optional<Pred> Interpreter::truth(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Bool: return v.as_bool();
    case ValueKind::Int: return ne(v.as_int(), Dim(0));
    case ValueKind::None: return Pred(false);
    case ValueKind::Float:
      if (v.as_float()) return Pred(*v.as_float() != 0.0);
      return std::nullopt;
    case ValueKind::Str:
      if (v.as_str()) return Pred(!v.as_str()->empty());
      return std::nullopt;
    case ValueKind::Sequence:
      if (v.items()) return Pred(!v.items()->empty());
      return std::nullopt;
    case ValueKind::Object: {
      if (const auto* choice = object_as<ChoiceObject>(v)) return choice_truth(*choice);
      if (const auto* c = object_as<ContainerModule>(v)) {
        if (c->children_known) return Pred(!c->children.empty());
        return std::nullopt;
      }
      if (const auto* d = object_as<DictObject>(v)) {
        if (d->complete) return Pred(!d->entries.empty());
        return std::nullopt;
      }
      if (object_as<FunctionObject>(v) || object_as<ClassObject>(v) || object_as<BoundMethod>(v) ||
          object_as<ModuleNamespace>(v) || object_as<LibraryName>(v))
        return Pred(true);
      if (const auto* inst = object_as<InstanceObject>(v)) {
        if (!inst->cls->lookup("__len__") && !inst->cls->lookup("__bool__")) return Pred(true);
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

Value Interpreter::binary(BinOpKind op, const Value& a, const Value& b, const Node* site, const Expr* left,
                          const Expr* right, bool in_place) {
  SiteOutcome outcome(*this, site);
  if (a.is_tensor() || b.is_tensor()) {
    std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, a, left, {}},
                               ArgValue{Argument::Type::Positional, {}, b, right, {}}};
    std::string name = binary_operator_rule(op, in_place);
    if (name.empty()) return Value::unknown();
    return apply_named_rule(name, std::nullopt, args, site).value_or(Value::unknown());
  }
  // a string on the left formats, concatenates or repeats into a string,
  // whatever the other operand is (`'%0{n}d' % a` with `a` unknown)
  if (a.is_str() && b.is_unknown() && (op == BinOpKind::Mod || op == BinOpKind::Add || op == BinOpKind::Mult))
    return Value::string();
  if (a.is_unknown() || b.is_unknown()) {
    note_unresolved(site, "an operand is not known (it may be a tensor)");
    auto ha = a.int_view(), hb = b.int_view();
    bool integral = op == BinOpKind::Add || op == BinOpKind::Sub || op == BinOpKind::Mult ||
                    op == BinOpKind::FloorDiv || op == BinOpKind::Mod;
    if (ha && hb && integral && !a.is_bool() && !b.is_bool()) {
      // still unknown (an operand may be a tensor), but if both are ints the
      // result is this int
      Value r = int_arith(op, *ha, *hb);
      if (r.is_int()) return Value::unknown_int(r.as_int());
    }
    return Value::unknown();
  }
  auto da = as_dim(a), db = as_dim(b);
  if (da && db) {
    if (a.is_bool() && b.is_bool() && (op == BinOpKind::BitAnd || op == BinOpKind::BitOr)) {
      return Value::boolean(op == BinOpKind::BitAnd ? a.as_bool() && b.as_bool() : a.as_bool() || b.as_bool());
    }
    return int_arith(op, *da, *db);
  }
  if (is_numeric(a) && is_numeric(b)) return float_arith(op, as_number(a), as_number(b));
  if (a.is_str() && b.is_str() && op == BinOpKind::Add) {
    if (a.as_str() && b.as_str()) return Value::string(*a.as_str() + *b.as_str());
    return Value::string();
  }
  if (a.is_str() && op == BinOpKind::Mod && a.as_str()) {
    if (auto text = percent_format(*a.as_str(), b)) return Value::string(*text);
  }
  if (a.is_str() && (op == BinOpKind::Mod || op == BinOpKind::Mult)) return Value::string();
  if (a.is_sequence() && b.is_sequence() && op == BinOpKind::Add) return concat(a, b);
  if ((a.is_sequence() && db) || (b.is_sequence() && da)) {
    if (op != BinOpKind::Mult) return Value::unknown();
    const Value& seq = a.is_sequence() ? a : b;
    auto count = (a.is_sequence() ? *db : *da).constant_value();
    if (count && seq.items() && *count >= 0 && static_cast<std::size_t>(*count) * seq.items()->size() <= 4096) {
      std::vector<Value> items;
      for (int64_t i = 0; i < *count; ++i) items.insert(items.end(), seq.items()->begin(), seq.items()->end());
      return Value::sequence(seq.sequence_kind(), std::move(items));
    }
    // a count not known (or too large): a sequence of unknown length whose
    // items are the sequence's own (`[3] * n` is not `[3, 3]`)
    Value element = seq.element() ? *seq.element() : Value::unknown();
    if (seq.items() && !seq.items()->empty()) {
      element = seq.items()->front();
      for (const Value& item : *seq.items())
        if (!same_value(item, element)) element = Value::unknown();
    }
    return Value::unknown_length(seq.sequence_kind(), element);
  }
  return Value::unknown();
}

Value Interpreter::compare(CmpOpKind op, const Value& a, const Value& b, const Node* site, const Expr* left,
                           const Expr* right) {
  const auto* choice = object_as<ChoiceObject>(a.is_none() ? b : a);
  if (choice && (a.is_none() || b.is_none()) &&
      (op == CmpOpKind::Is || op == CmpOpKind::IsNot || op == CmpOpKind::Eq || op == CmpOpKind::NotEq)) {
    std::optional<Pred> none = choice_is_none(*choice);
    if (!none) return Value::unknown();
    return Value::boolean(op == CmpOpKind::Is || op == CmpOpKind::Eq ? *none : !*none);
  }
  if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
    std::optional<bool> same;
    if (a.is_none() && b.is_none()) same = true;
    else if ((a.is_none() && !b.is_unknown()) || (b.is_none() && !a.is_unknown())) same = false;
    else if (a.is_object() && b.is_object() && a.as_object() == b.as_object()) same = true;
    else if (a.is_bool() && b.is_bool() && a.as_bool().is_constant() && b.as_bool().is_constant())
      same = a.as_bool() == b.as_bool();
    if (!same) return Value::unknown();
    return Value::boolean(Pred(op == CmpOpKind::Is ? *same : !*same));
  }
  if (op == CmpOpKind::In || op == CmpOpKind::NotIn) return Value::unknown();
  if (a.is_tensor() || b.is_tensor()) {
    std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, a, left, {}},
                               ArgValue{Argument::Type::Positional, {}, b, right, {}}};
    return apply_named_rule(comparison_rule(op), std::nullopt, args, site).value_or(Value::unknown());
  }
  if (a.is_none() || b.is_none()) {
    if (a.is_unknown() || b.is_unknown()) return Value::unknown();
    bool equal = a.is_none() && b.is_none();
    if (op == CmpOpKind::Eq) return Value::boolean(equal);
    if (op == CmpOpKind::NotEq) return Value::boolean(!equal);
    return Value::unknown();
  }
  // a parameter nobody passed compares as the int its hint names (if it is
  // not an int, its int uses elsewhere are what fails)
  auto da = a.is_unknown() ? a.int_view() : as_dim(a);
  auto db = b.is_unknown() ? b.int_view() : as_dim(b);
  if (da && db) {
    try {
      switch (op) {
        case CmpOpKind::Eq: return Value::boolean(eq(*da, *db));
        case CmpOpKind::NotEq: return Value::boolean(ne(*da, *db));
        case CmpOpKind::Lt: return Value::boolean(lt(*da, *db));
        case CmpOpKind::LtE: return Value::boolean(le(*da, *db));
        case CmpOpKind::Gt: return Value::boolean(gt(*da, *db));
        case CmpOpKind::GtE: return Value::boolean(ge(*da, *db));
        default: return Value::unknown();
      }
    } catch (const std::exception&) {
      return Value::unknown();
    }
  }
  if (is_numeric(a) && is_numeric(b)) {
    auto x = as_number(a), y = as_number(b);
    if (!x || !y) return Value::unknown();
    switch (op) {
      case CmpOpKind::Eq: return Value::boolean(*x == *y);
      case CmpOpKind::NotEq: return Value::boolean(*x != *y);
      case CmpOpKind::Lt: return Value::boolean(*x < *y);
      case CmpOpKind::LtE: return Value::boolean(*x <= *y);
      case CmpOpKind::Gt: return Value::boolean(*x > *y);
      case CmpOpKind::GtE: return Value::boolean(*x >= *y);
      default: return Value::unknown();
    }
  }
  if (a.is_str() && b.is_str() && a.as_str() && b.as_str()) {
    if (op == CmpOpKind::Eq) return Value::boolean(*a.as_str() == *b.as_str());
    if (op == CmpOpKind::NotEq) return Value::boolean(*a.as_str() != *b.as_str());
  }
  if ((op == CmpOpKind::Eq || op == CmpOpKind::NotEq) && a.kind() != b.kind() && !a.is_unknown() && !b.is_unknown() &&
      !a.is_object() && !b.is_object() && !(is_numeric(a) && is_numeric(b))) {
    return Value::boolean(op == CmpOpKind::NotEq);  // a string is never equal to an int
  }
  return Value::unknown();
}

Value Interpreter::get_attribute(const Value& obj, const std::string& attr, const Expr* obj_expr, const Node* site) {
  if (obj.is_tensor()) {
    const Shape& s = obj.shape();
    if (attr == "shape") {
      if (!s.rank_known()) return Value::unknown_length(SequenceKind::Size, Value::unknown());
      return Value::size_of(s);
    }
    if (attr == "ndim") return s.rank_known() ? Value::integer(static_cast<int64_t>(s.rank())) : Value::unknown();
    if (attr == "data" || attr == "grad") return obj;
    if (std::string rule = tensor_attribute_rule(attr, false); !rule.empty()) {
      if (site) {
        std::optional<Receiver> recv = Receiver{obj, obj_expr};
        if (auto r = apply_named_rule(rule, recv, {}, site)) return *r;
      }
      return Value::tensor(Shape::unknown(), false);
    }
    if (attr == "dtype" || attr == "device" || attr == "is_cuda" || attr == "requires_grad" || attr == "layout")
      return Value::unknown();
    return Value::object(std::make_shared<BoundBuiltin>(obj, "Tensor." + attr));
  }
  if (obj.is_sequence()) {
    const char* prefix = obj.sequence_kind() == SequenceKind::List    ? "list."
                         : obj.sequence_kind() == SequenceKind::Size ? "torch.Size."
                                                                      : "tuple.";
    return Value::object(std::make_shared<BoundBuiltin>(obj, prefix + attr));
  }
  if (obj.is_str()) return Value::object(std::make_shared<BoundBuiltin>(obj, "str." + attr));
  if (obj.is_int() || obj.is_float() || obj.is_bool()) return Value::object(std::make_shared<BoundBuiltin>(obj, "int." + attr));
  if (obj.is_unknown() && obj.int_view() && !attr.empty() && attr[0] == '_') {
    forget_attribute_hints(obj);  // `config.__dict__.update(...)` may change any attribute
    return Value::unknown();
  }
  if (obj.is_unknown() && obj.int_view() && !attr.empty() && attr[0] != '_') {
    // an attribute of a parameter nobody passed (`config.block_size`): unknown,
    // but the same int symbol on each read, named as the user wrote it
    auto key = std::make_pair(obj.int_view()->node(), attr);
    auto it = attribute_hints_.find(key);
    if (it == attribute_hints_.end()) {
      std::string name = site ? source_text(site->loc, 40) : std::string();
      it = attribute_hints_.emplace(key, Dim::symbol(name.empty() ? attr : name, false)).first;
    }
    return Value::unknown_int(it->second);
  }
  if (!obj.is_object() || !obj.as_object()) return Value::unknown();
  if (const auto* choice = object_as<ChoiceObject>(obj))
    return over_choice(*choice, [&](const Value& alt) { return get_attribute(alt, attr, obj_expr, site); }, attr);

  if (auto inst = shared_as<InstanceObject>(obj)) {
    if (attr == "__class__") return Value::object(inst->cls);
    // a descriptor of the class (`hidden = Doubled()` with __get__): its
    // __get__ decides what the read gives, not followed; one with __set__
    // also takes precedence over the instance's own attribute
    const Value* in_class = inst->cls->lookup(attr);
    if (Descriptor kind = in_class ? descriptor_kind(*in_class) : Descriptor::None; kind != Descriptor::None)
      if (kind == Descriptor::Data || !inst->attribute(attr)) return Value::unknown();
    if (const Value* v = inst->attribute(attr)) return *v;
    if (const Value* v = in_class) {
      if (auto fn = shared_as<FunctionObject>(*v)) {
        switch (fn->flavor) {
          case FunctionObject::Flavor::Static: return *v;
          case FunctionObject::Flavor::Class: {
            auto bm = std::make_shared<BoundMethod>();
            bm->self = Value::object(inst->cls);
            bm->function = fn;
            return Value::object(bm);
          }
          case FunctionObject::Flavor::Property: {
            Value value = call_function(fn, {}, obj, site ? site : obj_expr);
            if (fn->stores_on_instance) write_object_attribute(inst, attr, value);
            return value;
          }
          case FunctionObject::Flavor::Plain: {
            auto bm = std::make_shared<BoundMethod>();
            bm->self = obj;
            bm->function = fn;
            return Value::object(bm);
          }
        }
      }
      return *v;
    }
    if (!inst->cls->library_base.empty())
      return Value::object(std::make_shared<BoundBuiltin>(obj, inst->cls->library_base + "." + attr));
    return Value::unknown();
  }
  if (auto cls = shared_as<ClassObject>(obj)) {
    if (const Value* v = cls->lookup(attr)) {
      if (auto fn = shared_as<FunctionObject>(*v); fn && fn->flavor == FunctionObject::Flavor::Class) {
        auto bm = std::make_shared<BoundMethod>();
        bm->self = obj;
        bm->function = fn;
        return Value::object(bm);
      }
      return *v;
    }
    if (attr == "__name__") return Value::string(cls->def ? cls->def->name : std::string());
    return Value::unknown();
  }
  if (const auto* sup = object_as<SuperObject>(obj)) {
    if (!sup->cls) return Value::unknown();
    // the classes after sup->cls in the MRO of self's class: in a diamond
    // (`class Both(Left, Right)`), Left's super() is Right, not Base
    const auto* self_instance = object_as<InstanceObject>(sup->self);
    std::optional<std::vector<Value>> order;
    if (self_instance && self_instance->cls) order = method_resolution_order(Value::object(self_instance->cls));
    if (order) {
      std::size_t at = 0;
      while (at < order->size() && object_as<ClassObject>((*order)[at]) != sup->cls) ++at;
      if (at == order->size()) order.reset();  // self is not an instance of sup->cls: Python raises
      else order->erase(order->begin(), order->begin() + static_cast<std::ptrdiff_t>(at) + 1);
    }
    if (order) {
      for (const Value& next : *order) {
        if (const auto* c = object_as<ClassObject>(next)) {
          const Value* v = c->attribute(attr);
          if (!v) continue;
          if (auto fn = shared_as<FunctionObject>(*v)) {
            if (fn->flavor == FunctionObject::Flavor::Static) return *v;
            auto bm = std::make_shared<BoundMethod>();
            bm->self = fn->flavor == FunctionObject::Flavor::Class ? Value::object(self_instance->cls) : sup->self;
            bm->function = fn;
            return Value::object(bm);
          }
          return *v;
        }
        if (const auto* lib = object_as<LibraryName>(next))
          return Value::object(std::make_shared<BoundBuiltin>(sup->self, lib->path + "." + attr));
      }
      return Value::object(std::make_shared<BoundBuiltin>(sup->self, "builtins.object." + attr));
    }
    for (const Value& base : sup->cls->bases) {
      if (const auto* b = object_as<ClassObject>(base)) {
        if (const Value* v = b->lookup(attr)) {
          if (auto fn = shared_as<FunctionObject>(*v)) {
            if (fn->flavor == FunctionObject::Flavor::Static) return *v;
            auto bm = std::make_shared<BoundMethod>();
            bm->self = fn->flavor == FunctionObject::Flavor::Class ? base : sup->self;
            bm->function = fn;
            return Value::object(bm);
          }
          return *v;
        }
        if (!b->library_base.empty())
          return Value::object(std::make_shared<BoundBuiltin>(sup->self, b->library_base + "." + attr));
      } else if (const auto* lib = object_as<LibraryName>(base)) {
        return Value::object(std::make_shared<BoundBuiltin>(sup->self, lib->path + "." + attr));
      }
    }
    return Value::object(std::make_shared<BoundBuiltin>(sup->self, "builtins.object." + attr));
  }
  if (const auto* ns = object_as<ModuleNamespace>(obj)) {
    ensure_module(ns->module);
    auto it = ns->module->globals.find(attr);
    if (it != ns->module->globals.end()) return it->second.value;
    if (ModuleState* sub = module_state(ns->module->name + "." + attr)) {
      ensure_module(sub);
      return Value::object(sub->ns);
    }
    return Value::unknown();
  }
  if (const auto* lib = object_as<LibraryName>(obj)) return library_attribute(lib->path + "." + attr);
  if (const auto* loader = object_as<DataLoaderObject>(obj)) {
    if (attr == "dataset") return loader->dataset;
    if (attr == "batch_size") return loader->batch_size;
    return Value::object(std::make_shared<BoundBuiltin>(obj, "torch.utils.data.DataLoader." + attr));
  }
  if (const auto* ds = object_as<DatasetObject>(obj)) {
    if (attr == "tensors" && ds->is_tensor_dataset()) return Value::tuple(ds->tensors);
    if (!ds->is_tensor_dataset()) return Value::unknown();  // .data, .targets, .classes: not modelled
    return Value::object(std::make_shared<BoundBuiltin>(obj, "torch.utils.data.TensorDataset." + attr));
  }
  if (const auto* d = object_as<DictObject>(obj); d && d->is_module_dict() && !module_dict_method(attr)) {
    // nn.Module.__getattr__: a registered child (methods come first)
    if (const Value* child = d->find("s:" + attr)) return *child;
    return Value::unknown();
  }
  if (object_as<ContainerModule>(obj) || object_as<DictObject>(obj) || object_as<ArgParserObject>(obj)) {
    std::string cls = object_as<DictObject>(obj) ? "dict" : obj.as_object()->class_name;
    return Value::object(std::make_shared<BoundBuiltin>(obj, cls + "." + attr));
  }
  if (object_as<FunctionObject>(obj) || object_as<BoundMethod>(obj) || object_as<BoundBuiltin>(obj) ||
      object_as<EnumerateObject>(obj) || object_as<ZipObject>(obj) || object_as<LoaderIterator>(obj))
    return Value::unknown();
  // a rule-made object (an nn.Linear, a range, an argparse namespace)
  if (const Value* v = obj.as_object()->attribute(attr)) return *v;
  return Value::object(std::make_shared<BoundBuiltin>(obj, obj.as_object()->class_name + "." + attr));
}

// What a class attribute is to attribute access: an instance of a project
// class defining __get__ (NonData) or __set__/__delete__ too (Data).
Interpreter::Descriptor Interpreter::descriptor_kind(const Value& class_attr) {
  const auto* inst = object_as<InstanceObject>(class_attr);
  if (!inst) return Descriptor::None;
  if (inst->cls->lookup("__set__") || inst->cls->lookup("__delete__")) return Descriptor::Data;
  return inst->cls->lookup("__get__") ? Descriptor::NonData : Descriptor::None;
}

// C3 linearisation of a project class's bases (Python's __mro__), library
// classes as they are named; nullopt when the bases admit no order.
std::optional<std::vector<Value>> Interpreter::method_resolution_order(const Value& cls, int depth) {
  if (depth > 32) return std::nullopt;
  const auto* c = object_as<ClassObject>(cls);
  if (!c) return std::vector<Value>{cls};
  auto same = [](const Value& a, const Value& b) {
    if (a.as_object() == b.as_object()) return true;
    const auto* la = object_as<LibraryName>(a);
    const auto* lb = object_as<LibraryName>(b);
    return la && lb && la->path == lb->path;
  };
  std::vector<std::vector<Value>> lists;
  for (const Value& base : c->bases) {
    if (!object_as<ClassObject>(base) && !object_as<LibraryName>(base)) return std::nullopt;
    std::optional<std::vector<Value>> m = method_resolution_order(base, depth + 1);
    if (!m) return std::nullopt;
    lists.push_back(std::move(*m));
  }
  lists.push_back(c->bases);
  std::vector<Value> out{cls};
  for (;;) {
    bool empty = true;
    for (const auto& l : lists) empty = empty && l.empty();
    if (empty) return out;
    std::optional<Value> head;
    for (const auto& l : lists) {
      if (l.empty()) continue;
      bool in_tail = false;
      for (const auto& other : lists)
        for (std::size_t i = 1; i < other.size() && !in_tail; ++i) in_tail = same(other[i], l.front());
      if (!in_tail) {
        head = l.front();
        break;
      }
    }
    if (!head) return std::nullopt;
    out.push_back(*head);
    for (auto& l : lists)
      if (!l.empty() && same(l.front(), *head)) l.erase(l.begin());
  }
}

bool Interpreter::set_attribute(const Value& obj, const std::string& attr, const Value& v, const SourceLoc& origin) {
  if (auto inst = shared_as<InstanceObject>(obj)) {
    // the class's own __setattr__ (`value = (value + 7) // 8 * 8`) or a data
    // descriptor's __set__ decides what is stored: not followed, the
    // attribute is unknown (nn.Module's own __setattr__ is the library's)
    const Value* custom = inst->cls->lookup("__setattr__");
    const Value* descriptor = inst->cls->lookup(attr);
    if ((custom && object_as<FunctionObject>(*custom)) || (descriptor && descriptor_kind(*descriptor) == Descriptor::Data)) {
      write_object_attribute(inst, attr, Value::unknown());
      inst->origins[attr] = origin;
      return true;
    }
    // a property of the class: the assignment runs its setter (which may
    // store something else: `self._heads = v * 2`); without one, Python raises
    const Value* cls_attr = inst->cls->lookup(attr);
    auto property = cls_attr ? shared_as<FunctionObject>(*cls_attr) : nullptr;
    // (a cached_property has no setter: the value is stored on the instance)
    if (property && property->flavor == FunctionObject::Flavor::Property && !property->stores_on_instance) {
      if (property->setter)
        call_function(property->setter, {ArgValue{Argument::Type::Positional, {}, v, nullptr, {}}}, obj, nullptr);
      return true;
    }
    write_object_attribute(inst, attr, v);
    inst->origins[attr] = origin;
    return true;
  }
  // a class attribute or another module's global: calls memoised with the
  // old value no longer answer (instances carry a version in the memo key)
  if (auto cls = shared_as<ClassObject>(obj)) {
    write_object_attribute(cls, attr, v);
    memo_.clear();
    return true;
  }
  if (auto c = shared_as<ContainerModule>(obj)) {
    // `setattr(seq, "0", layer)`, `seq.add_module("0", layer)`: the child of
    // that index is replaced; another name adds a child after the others
    // (Sequential and ModuleList iterate their _modules): not listed then
    const std::size_t n = c->children.size();
    std::size_t k = n;
    if (!attr.empty() && attr.size() < 9 && attr.find_first_not_of("0123456789") == std::string::npos)
      k = static_cast<std::size_t>(std::stoll(attr));
    if (c->children_known && k < n) {
      c->children[k] = v;
      if (k < c->child_exprs.size()) c->child_exprs[k] = nullptr;
    } else {
      c->children_known = false;
    }
    memo_.clear();
    return true;
  }
  if (const auto* lib = object_as<LibraryName>(obj); lib && !object_as<ModuleWrapper>(obj)) {
    // `F.pad = my_pad`, `setattr(torch.nn.functional, "pad", my_pad)`: later
    // reads of the name get the project's value, not the library's rule
    library_overrides_[lib->path + "." + attr] = v;
    memo_.clear();
    return true;
  }
  if (const auto* ns = object_as<ModuleNamespace>(obj)) {
    ns->module->globals[attr] = Binding{v, origin, {}};
    memo_.clear();
    return true;
  }
  if (obj.is_object() && obj.as_object() &&
      (obj.as_object()->class_name == "argparse.Namespace" || obj.as_object()->class_name == "types.SimpleNamespace")) {
    write_object_attribute(obj.as_object(), attr, v);
    return true;
  }
  // a library module's parameter replaced (`decoder.weight = encoder.weight`,
  // resized weights loaded): its forward reads the new one, so the sizes the
  // constructor gave are the new weight's (unknown when it is)
  if (obj.is_object() && obj.as_object() && obj.as_object()->class_name.rfind("torch.nn.", 0) == 0 &&
      !object_as<ContainerModule>(obj) && !object_as<ModuleWrapper>(obj)) {
    const std::shared_ptr<ObjectValue>& module = obj.as_object();
    write_object_attribute(module, attr, v);
    const std::string& cls = module->class_name;
    const char* rows = cls == "torch.nn.Linear" ? "out_features" : cls == "torch.nn.Embedding" ? "num_embeddings" : nullptr;
    const char* cols = cls == "torch.nn.Linear" ? "in_features" : cls == "torch.nn.Embedding" ? "embedding_dim" : nullptr;
    if (attr == "weight" && rows) {
      bool known = v.is_tensor() && v.shape().rank_known() && v.shape().rank() == 2;
      write_object_attribute(module, rows, Value::integer(known ? v.shape()[0] : Dim::symbol(rows)));
      write_object_attribute(module, cols, Value::integer(known ? v.shape()[1] : Dim::symbol(cols)));
    }
    if (attr == "weight") replace_conv_sizes(module, v);
    return true;
  }
  return false;
}

// A convolution's forward reads its sizes from its weight (the rule takes a
// weight of constant sizes as it is): for any other new weight the
// constructor's sizes are replaced by the new weight's, unknown where it is.
void Interpreter::replace_conv_sizes(const std::shared_ptr<ObjectValue>& module, const Value& weight) {
  static const std::regex conv(R"(torch\.nn\.Conv(Transpose)?([123])d)");
  std::smatch m;
  if (!std::regex_match(module->class_name, m, conv)) return;
  const bool transposed = m[1].matched;
  const std::size_t n = static_cast<std::size_t>(std::stoi(m[2].str()));
  const Value* groups = module->attribute("groups");
  std::optional<int64_t> g =
      groups && groups->is_int() ? groups->as_int().constant_value() : std::optional<int64_t>();
  bool known = weight.is_tensor() && weight.shape().rank_known() && weight.shape().rank() == n + 2;
  auto dim = [&](std::size_t i, const char* name) { return known ? weight.shape()[i] : Dim::symbol(name); };
  Dim w0 = dim(0, transposed ? "in_channels" : "out_channels");
  Dim w1 = known && g ? weight.shape()[1] * Dim::constant(*g) : Dim::symbol(transposed ? "out_channels" : "in_channels");
  write_object_attribute(module, transposed ? "in_channels" : "out_channels", Value::integer(w0));
  write_object_attribute(module, transposed ? "out_channels" : "in_channels", Value::integer(w1));
  std::vector<Value> kernel;
  for (std::size_t a = 0; a < n; ++a) kernel.push_back(Value::integer(dim(a + 2, "kernel_size")));
  write_object_attribute(module, "kernel_size", Value::tuple(std::move(kernel)));
}

}  // namespace gshape::gradual::interp
