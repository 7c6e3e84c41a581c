// Reading jaxtyping annotations from the IR.
#include "gradual/annotation_syntax.h"

#include <regex>
#include <set>

namespace gshape::gradual {

namespace {

using namespace ir;

// jaxtyping's dtype markers (`Float[Tensor, ...]`).
const std::set<std::string>& dtype_markers() {
  static const std::set<std::string> names = {
      "Float",   "Float16", "Float32", "Float64", "BFloat16", "Int",    "Int8",      "Int16",      "Int32",
      "Int64",   "UInt",    "UInt8",   "UInt16",  "UInt32",   "UInt64", "Bool",      "Num",        "Shaped",
      "Complex", "Complex64", "Complex128", "Inexact", "Integer", "Real", "Float8e4m3fn", "Float8e5m2", "Key"};
  return names;
}

// The last component of a dotted name (`jaxtyping.Float` → Float).
std::optional<std::string> last_name(const Expr* e) {
  if (const auto* n = dyn_cast<Name>(e)) return n->id;
  if (const auto* a = dyn_cast<Attribute>(e)) return a->attr;
  return std::nullopt;
}

std::string last_component(const std::string& dotted) {
  std::size_t dot = dotted.rfind('.');
  return dot == std::string::npos ? dotted : dotted.substr(dot + 1);
}

ShapeAnnotation from_parts(const std::string& marker, const std::string& array_type, const std::string& dims) {
  ShapeAnnotation out;
  if (!dtype_markers().count(marker) || array_type != "Tensor") return out;
  out.is_shape = true;
  PatternParse p = parse_dim_string(dims);
  if (!p.pattern) {
    out.error = "cannot read the shape \"" + dims + "\": " + p.error;
    return out;
  }
  out.pattern = std::move(*p.pattern);
  for (const char* bad : {"|", "="})
    if (out.pattern.text.find(bad) != std::string::npos) out.error = "cannot read the shape \"" + dims + "\"";
  return out;
}

bool is_simple(const Stmt* s) {
  switch (s->kind) {
    case Kind::ExprStmt: case Kind::Assign: case Kind::AugAssign: case Kind::AnnAssign: case Kind::Return:
    case Kind::Raise: case Kind::Assert: case Kind::Pass: case Kind::Break: case Kind::Continue:
    case Kind::Import: case Kind::ImportFrom: case Kind::Delete: case Kind::Global: case Kind::Nonlocal:
      return true;
    default: return false;
  }
}

bool is_docstring(const Stmt* s) {
  const auto* e = dyn_cast<ExprStmt>(s);
  const auto* c = e ? dyn_cast<Constant>(e->value) : nullptr;
  return c && c->type == Constant::Type::Str;
}

EntryPlacement place_entry(const FunctionDef& def) {
  EntryPlacement p;
  std::size_t first = !def.body.empty() && is_docstring(def.body.front()) ? 1 : 0;
  if (first >= def.body.size()) {
    p.problem = "it has no statement besides its docstring";
    return p;
  }
  const Stmt* s = def.body[first];
  if (is_simple(s)) {
    p.form = EntryPlacement::Form::Statement;
    p.offset = s->loc.begin;
    return p;
  }
  p.form = EntryPlacement::Form::Expression;
  if (const auto* i = dyn_cast<If>(s)) p.expr = i->test;
  else if (const auto* f = dyn_cast<For>(s)) p.expr = f->iter;
  else if (const auto* w = dyn_cast<With>(s); w && !w->items.empty()) p.expr = w->items.front().context;
  if (!p.expr) {
    p.form = EntryPlacement::Form::None;
    const char* what = s->kind == Kind::While         ? "a `while` statement"
                       : s->kind == Kind::Try         ? "a `try` statement"
                       : s->kind == Kind::FunctionDef ? "a `def`"
                       : s->kind == Kind::ClassDef    ? "a `class`"
                                                      : "a compound statement gshape does not read (`match`)";
    p.problem = std::string("its first statement is ") + what +
                ", before which no check can go on the same line; put a simple statement first";
  }
  return p;
}

void collect_annotated(const Body& body, const FunctionDef* def, const FunctionAnnotations* fa, AnnotatedStatements& out);

std::string role_of_param(const std::string& param, const std::string& function) {
  return "argument " + param + " of " + function;
}

}  // namespace

ShapeAnnotation read_shape_annotation(const ir::Expr* annotation) {
  if (!annotation) return {};
  if (const auto* c = dyn_cast<Constant>(annotation); c && c->type == Constant::Type::Str) {
    // "Float[Tensor, 'b c']" under a string annotation
    static const std::regex form(R"(^\s*([A-Za-z_][\w.]*)\s*\[\s*([A-Za-z_][\w.]*)\s*,\s*(['"])(.*)\3\s*\]\s*$)");
    std::smatch m;
    if (!std::regex_match(c->str_value, m, form)) return {};
    return from_parts(last_component(m[1].str()), last_component(m[2].str()), m[4].str());
  }
  // Optional[T], Union[T, None], T | None: T (the check lets None through)
  auto is_none = [](const Expr* e) {
    const auto* c = dyn_cast<Constant>(e);
    return c && c->type == Constant::Type::None;
  };
  if (const auto* b = dyn_cast<BinOp>(annotation); b && b->op == BinOpKind::BitOr) {
    if (is_none(b->right)) return read_shape_annotation(b->left);
    if (is_none(b->left)) return read_shape_annotation(b->right);
    return {};
  }
  const auto* sub = dyn_cast<Subscript>(annotation);
  if (!sub) return {};
  std::optional<std::string> marker = last_name(sub->value);
  if (marker == "Optional") return read_shape_annotation(sub->index);
  if (marker == "Union") {
    const auto* parts = dyn_cast<Tuple>(sub->index);
    if (parts && parts->elts.size() == 2 && is_none(parts->elts[1])) return read_shape_annotation(parts->elts[0]);
    if (parts && parts->elts.size() == 2 && is_none(parts->elts[0])) return read_shape_annotation(parts->elts[1]);
    return {};
  }
  const auto* index = dyn_cast<Tuple>(sub->index);
  if (!marker || !index || index->elts.size() != 2) return {};
  std::optional<std::string> array = last_name(index->elts[0]);
  if (const auto* quoted = dyn_cast<Constant>(index->elts[0]); quoted && quoted->type == Constant::Type::Str)
    array = last_component(quoted->str_value);
  const auto* dims = dyn_cast<Constant>(index->elts[1]);
  if (!array || !dims || dims->type != Constant::Type::Str) return {};
  return from_parts(*marker, *array, dims->str_value);
}

std::string annotated_target(const ir::Expr* target) {
  if (const auto* n = dyn_cast<Name>(target)) return n->id;
  if (const auto* a = dyn_cast<Attribute>(target)) {
    std::string base = annotated_target(a->value);
    if (base != "the annotated value") return base + "." + a->attr;
  }
  return "the annotated value";
}

std::optional<FunctionAnnotations> function_annotations(const ir::FunctionDef& def) {
  FunctionAnnotations fa;
  fa.function = def.name;
  for (std::size_t i = 0; i < def.params.size(); ++i) {
    const Parameter& p = def.params[i];
    ShapeAnnotation a = read_shape_annotation(p.annotation);
    if (!a.is_shape) continue;
    if (!a.error.empty()) {
      fa.problems.push_back({p.annotation->loc, a.error});
      continue;
    }
    if (p.type == Parameter::Type::VarArgs || p.type == Parameter::Type::VarKeywords) {
      fa.problems.push_back({p.annotation->loc, "the shape of *" + p.name + " is not checked: annotations of "
                                                "variadic parameters are not supported"});
      continue;
    }
    fa.params.push_back({i, p.name, std::move(a.pattern)});
  }
  ShapeAnnotation r = read_shape_annotation(def.returns);
  if (r.is_shape && r.error.empty()) fa.returns = std::move(r.pattern);
  else if (r.is_shape) fa.problems.push_back({def.returns->loc, r.error});
  if (!fa.params.empty()) {
    fa.entry = place_entry(def);
    if (fa.entry.form == EntryPlacement::Form::None) {
      fa.problems.push_back({def.name_loc, "the parameter annotations of " + def.name + " are not used: " +
                                               fa.entry.problem});
      fa.params.clear();
    }
  }
  if (fa.params.empty() && !fa.returns && fa.problems.empty()) return std::nullopt;
  return fa;
}

std::string FunctionAnnotations::entry_rule() const {
  AnnotationCheck check;
  for (const AnnotatedParam& p : params) check.operands.push_back({role_of_param(p.name, function), p.pattern, false});
  return annotation_rule_name(check);
}

namespace {

std::string checked_value_rule(const FunctionAnnotations& fa, const std::string& function, const std::string& role,
                               const TensorPattern& pattern) {
  AnnotationCheck check;
  check.operands.push_back({role, pattern, false});
  for (const AnnotatedParam& p : fa.params) check.operands.push_back({role_of_param(p.name, function), p.pattern, true});
  return annotation_rule_name(check);
}

}  // namespace

std::string FunctionAnnotations::return_rule() const {
  return checked_value_rule(*this, function, "the value returned by " + function, *returns);
}

std::string FunctionAnnotations::local_rule(const std::string& target, const TensorPattern& pattern) const {
  return checked_value_rule(*this, function, target, pattern);
}

namespace {

void collect_annotated(const Body& body, const FunctionDef* def, const FunctionAnnotations* fa,
                       AnnotatedStatements& out) {
  static const FunctionAnnotations none;
  for (const Stmt* s : body) {
    switch (s->kind) {
      case Kind::FunctionDef: {
        const auto* f = cast<FunctionDef>(s);
        std::optional<FunctionAnnotations> inner = function_annotations(*f);
        if (inner) out.problems.insert(out.problems.end(), inner->problems.begin(), inner->problems.end());
        if (inner && inner->has_entry()) out.entries.push_back({f, *inner});
        collect_annotated(f->body, f, inner ? &*inner : nullptr, out);
        break;
      }
      case Kind::ClassDef: collect_annotated(cast<ClassDef>(s)->body, nullptr, nullptr, out); break;
      case Kind::Return: {
        const auto* r = cast<Return>(s);
        if (r->value && fa && fa->returns)
          out.checked.push_back({s, r->value, fa->return_rule(), fa->has_entry() ? static_cast<int64_t>(def->loc.begin) : -1});
        break;
      }
      case Kind::AnnAssign: {
        const auto* a = cast<AnnAssign>(s);
        ShapeAnnotation shape = read_shape_annotation(a->annotation);
        if (shape.is_shape && !shape.error.empty()) out.problems.push_back({a->annotation->loc, shape.error});
        if (!a->value || !shape.is_shape || !shape.error.empty()) break;
        const FunctionAnnotations& f = fa ? *fa : none;
        out.checked.push_back({s, a->value, f.local_rule(annotated_target(a->target), shape.pattern),
                               f.has_entry() ? static_cast<int64_t>(def->loc.begin) : -1});
        break;
      }
      case Kind::If: {
        const auto* i = cast<If>(s);
        collect_annotated(i->body, def, fa, out);
        collect_annotated(i->orelse, def, fa, out);
        break;
      }
      case Kind::For: {
        const auto* f = cast<For>(s);
        collect_annotated(f->body, def, fa, out);
        collect_annotated(f->orelse, def, fa, out);
        break;
      }
      case Kind::While: {
        const auto* w = cast<While>(s);
        collect_annotated(w->body, def, fa, out);
        collect_annotated(w->orelse, def, fa, out);
        break;
      }
      case Kind::With: collect_annotated(cast<With>(s)->body, def, fa, out); break;
      case Kind::Try: {
        const auto* t = cast<Try>(s);
        collect_annotated(t->body, def, fa, out);
        for (const ExceptHandler& h : t->handlers) collect_annotated(h.body, def, fa, out);
        collect_annotated(t->orelse, def, fa, out);
        collect_annotated(t->finalbody, def, fa, out);
        break;
      }
      default: break;
    }
  }
}

}  // namespace

AnnotatedStatements annotated_statements(const ir::Module& module) {
  AnnotatedStatements out;
  collect_annotated(module.body, nullptr, nullptr, out);
  return out;
}

}  // namespace gshape::gradual
