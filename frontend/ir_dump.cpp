// The IR as an indented tree. Each line is one node:
//   [label: ]Kind [details] @line:col [(what @line:col)]
// Children sit two spaces deeper; a label names the child's role where the
// kind alone does not make it clear (func:, kw dim:, test:, body:, ...).
// Lists of statements hang under a bare `body:` / `orelse:` / `finally:` line.
#include "frontend/ir_dump.h"

#include <charconv>
#include <cmath>
#include <ostream>
#include <string>
#include <string_view>

namespace gshape {

namespace {

using namespace ir;

// Beyond this many indentation levels the dump stops descending (the builder
// already caps the IR's depth; this guards IR built by other means).
constexpr int kMaxDumpLevel = 2000;

// One line of text: control characters escaped, UTF-8 kept.
std::string one_line(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20 || u == 0x7F) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

// A decoded string value in double quotes; bytes values show every non-ASCII byte as \xHH.
std::string quoted(std::string_view s, bool bytes) {
  std::string out = bytes ? "b\"" : "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (bytes && u >= 0x80) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += one_line(std::string_view(&c, 1));
    }
  }
  out += '"';
  return out;
}

// The shortest text that reads back as `v`, in the notation Python's repr
// picks: positional for 1e-4 <= |v| < 1e16 (and 0), scientific otherwise.
std::string shortest(double v) {
  char buf[400];
  double magnitude = std::fabs(v);
  bool positional = magnitude == 0.0 || (magnitude >= 1e-4 && magnitude < 1e16);
  auto result = std::to_chars(buf, buf + sizeof buf, v,
                              positional ? std::chars_format::fixed : std::chars_format::scientific);
  return std::string(buf, result.ptr);
}

const char* param_prefix(Parameter::Type t) {
  switch (t) {
    case Parameter::Type::VarArgs: return "*";
    case Parameter::Type::VarKeywords: return "**";
    default: return "";
  }
}

class Dumper {
 public:
  explicit Dumper(std::ostream& out) : out_(out) {}

  void module(const Module& m) {
    out_ << "Module\n";
    statements(1, m.body);
  }

 private:
  void indent(int level) {
    for (int i = 0; i < level; ++i) out_ << "  ";
  }
  void at(const SourceLoc& loc) { out_ << " @" << loc.line << ':' << loc.column; }
  // A second location on the node's line: " (name @3:5)".
  void aside(std::string_view what, const SourceLoc& loc) {
    out_ << " (" << what;
    at(loc);
    out_ << ')';
  }
  // Starts a node's line; false when the tree is too deep to show (a marker line is printed instead).
  bool open(int level, std::string_view label) {
    indent(level);
    if (!label.empty()) out_ << label << ": ";
    if (level > kMaxDumpLevel) {
      out_ << "... (deeper levels not shown)\n";
      return false;
    }
    return true;
  }

  void statements(int level, const Body& body) {
    for (const Stmt* s : body) stmt(level, s);
  }
  void labeled_body(int level, std::string_view label, const Body& body) {
    if (body.empty()) return;
    indent(level);
    out_ << label << ":\n";
    statements(level + 1, body);
  }
  void optional_expr(int level, std::string_view label, const Expr* e) {
    if (e != nullptr) expr(level, label, e);
  }

  void parameter(int level, const Parameter& p) {
    indent(level);
    out_ << "param " << param_prefix(p.type) << p.name;
    if (p.type == Parameter::Type::PositionalOnly) out_ << " (positional-only)";
    if (p.type == Parameter::Type::KeywordOnly) out_ << " (keyword-only)";
    at(p.loc);
    out_ << '\n';
    optional_expr(level + 1, "annotation", p.annotation);
    optional_expr(level + 1, "default", p.default_value);
  }

  void argument(int level, const Argument& a, std::string_view positional_label) {
    switch (a.type) {
      case Argument::Type::Positional: expr(level, positional_label, a.value); break;
      case Argument::Type::Keyword: expr(level, "kw " + a.name, a.value); break;
      case Argument::Type::Star: expr(level, "*arg", a.value); break;
      case Argument::Type::DoubleStar: expr(level, "**arg", a.value); break;
    }
  }

  void generators(int level, const std::vector<Comprehension>& gens) {
    for (const Comprehension& g : gens) {
      indent(level);
      out_ << (g.is_async ? "async for" : "for");
      at(g.loc);
      out_ << '\n';
      expr(level + 1, "target", g.target);
      expr(level + 1, "iter", g.iter);
      for (const Expr* cond : g.ifs) expr(level + 1, "if", cond);
    }
  }

  // "Int 0x1F = 31", "Str \"abc\"", "None": the text as written, and the value where it reads differently.
  void constant_details(const Constant& c) {
    switch (c.type) {
      case Constant::Type::Int:
        out_ << "Int " << c.text;
        if (!c.int_value) out_ << " (beyond int64)";
        else if (std::to_string(*c.int_value) != c.text) out_ << " = " << *c.int_value;
        break;
      case Constant::Type::Float: {
        std::string value = shortest(c.float_value);
        out_ << "Float " << c.text;
        if (value != c.text) out_ << " = " << value;
        break;
      }
      case Constant::Type::Complex: {
        std::string value = shortest(c.float_value) + "j";
        out_ << "Complex " << c.text;
        if (value != c.text) out_ << " = " << value;
        break;
      }
      case Constant::Type::Str: out_ << "Str " << quoted(c.str_value, false); break;
      case Constant::Type::Bytes: out_ << "Bytes " << quoted(c.str_value, true); break;
      case Constant::Type::True: out_ << "True"; break;
      case Constant::Type::False: out_ << "False"; break;
      case Constant::Type::None: out_ << "None"; break;
      case Constant::Type::Ellipsis: out_ << "Ellipsis"; break;
    }
  }

  void expr(int level, std::string_view label, const Expr* e) {
    if (!open(level, label)) return;
    if (e == nullptr) {
      out_ << "<missing>\n";
      return;
    }
    out_ << kind_name(e->kind);
    int inner = level + 1;
    switch (e->kind) {
      case Kind::Name: {
        out_ << ' ' << cast<Name>(e)->id;
        at(e->loc);
        out_ << '\n';
        break;
      }
      case Kind::Constant: {
        out_ << ' ';
        constant_details(*cast<Constant>(e));
        at(e->loc);
        out_ << '\n';
        break;
      }
      case Kind::FString: {
        const auto* f = cast<FString>(e);
        out_ << ' ' << one_line(f->text);
        at(e->loc);
        out_ << '\n';
        for (const Expr* v : f->values) expr(inner, "", v);
        break;
      }
      case Kind::Attribute: {
        const auto* a = cast<Attribute>(e);
        out_ << " ." << a->attr;
        at(e->loc);
        aside("attr", a->attr_loc);
        out_ << '\n';
        expr(inner, "", a->value);
        break;
      }
      case Kind::Subscript: {
        const auto* s = cast<Subscript>(e);
        at(e->loc);
        out_ << '\n';
        expr(inner, "value", s->value);
        expr(inner, "index", s->index);
        break;
      }
      case Kind::Slice: {
        const auto* s = cast<Slice>(e);
        at(e->loc);
        out_ << '\n';
        optional_expr(inner, "lower", s->lower);
        optional_expr(inner, "upper", s->upper);
        optional_expr(inner, "step", s->step);
        break;
      }
      case Kind::Call: {
        const auto* c = cast<Call>(e);
        at(e->loc);
        out_ << '\n';
        expr(inner, "func", c->func);
        for (const Argument& a : c->args) argument(inner, a, "arg");
        break;
      }
      case Kind::BinOp: {
        const auto* b = cast<BinOp>(e);
        out_ << ' ' << binop_symbol(b->op);
        at(e->loc);
        aside("op", b->op_loc);
        out_ << '\n';
        expr(inner, "", b->left);
        expr(inner, "", b->right);
        break;
      }
      case Kind::UnaryOp: {
        const auto* u = cast<UnaryOp>(e);
        out_ << ' ' << unaryop_symbol(u->op);
        at(e->loc);
        out_ << '\n';
        expr(inner, "", u->operand);
        break;
      }
      case Kind::Compare: {
        const auto* c = cast<Compare>(e);
        at(e->loc);
        out_ << '\n';
        expr(inner, "", c->left);
        for (std::size_t i = 0; i < c->ops.size() && i < c->comparators.size(); ++i) {
          expr(inner, cmpop_symbol(c->ops[i]), c->comparators[i]);
        }
        break;
      }
      case Kind::BoolOp: {
        const auto* b = cast<BoolOp>(e);
        out_ << (b->op == BoolOp::Op::And ? " and" : " or");
        at(e->loc);
        out_ << '\n';
        for (const Expr* v : b->values) expr(inner, "", v);
        break;
      }
      case Kind::IfExp: {
        const auto* i = cast<IfExp>(e);
        at(e->loc);
        out_ << '\n';
        expr(inner, "test", i->test);
        expr(inner, "body", i->body);
        expr(inner, "orelse", i->orelse);
        break;
      }
      case Kind::Lambda: {
        const auto* l = cast<Lambda>(e);
        at(e->loc);
        out_ << '\n';
        for (const Parameter& p : l->params) parameter(inner, p);
        expr(inner, "body", l->body);
        break;
      }
      case Kind::ListComp:
      case Kind::SetComp:
      case Kind::GeneratorExp: {
        const auto* c = static_cast<const ComprehensionExpr*>(e);
        at(e->loc);
        out_ << '\n';
        expr(inner, "elt", c->elt);
        generators(inner, c->generators);
        break;
      }
      case Kind::DictComp: {
        const auto* c = cast<DictComp>(e);
        at(e->loc);
        out_ << '\n';
        expr(inner, "key", c->key);
        expr(inner, "value", c->value);
        generators(inner, c->generators);
        break;
      }
      case Kind::List:
      case Kind::Tuple:
      case Kind::Set: {
        if (const auto* t = dyn_cast<Tuple>(e); t != nullptr && t->parenthesized) out_ << " parenthesized";
        at(e->loc);
        out_ << '\n';
        for (const Expr* elt : static_cast<const SequenceExpr*>(e)->elts) expr(inner, "", elt);
        break;
      }
      case Kind::Dict: {
        const auto* d = cast<Dict>(e);
        at(e->loc);
        out_ << '\n';
        for (std::size_t i = 0; i < d->keys.size() && i < d->values.size(); ++i) {
          if (d->keys[i] == nullptr) {
            expr(inner, "**value", d->values[i]);
          } else {
            expr(inner, "key", d->keys[i]);
            expr(inner, "value", d->values[i]);
          }
        }
        break;
      }
      case Kind::Starred: {
        at(e->loc);
        out_ << '\n';
        expr(inner, "", cast<Starred>(e)->value);
        break;
      }
      case Kind::NamedExpr: {
        const auto* n = cast<NamedExpr>(e);
        at(e->loc);
        out_ << '\n';
        expr(inner, "target", n->target);
        expr(inner, "value", n->value);
        break;
      }
      case Kind::Await: {
        at(e->loc);
        out_ << '\n';
        expr(inner, "", cast<Await>(e)->value);
        break;
      }
      case Kind::Yield: {
        const auto* y = cast<Yield>(e);
        if (y->is_from) out_ << " from";
        at(e->loc);
        out_ << '\n';
        optional_expr(inner, "", y->value);
        break;
      }
      case Kind::OpaqueExpr: {
        out_ << ' ' << cast<OpaqueExpr>(e)->what;
        at(e->loc);
        out_ << '\n';
        break;
      }
      default: {  // a statement where an expression belongs: never built, shown rather than hidden
        at(e->loc);
        out_ << " (not an expression)\n";
        break;
      }
    }
  }

  void stmt(int level, const Stmt* s) {
    if (!open(level, "")) return;
    if (s == nullptr) {
      out_ << "<missing>\n";
      return;
    }
    out_ << kind_name(s->kind);
    int inner = level + 1;
    switch (s->kind) {
      case Kind::Import:
      case Kind::ImportFrom: {
        const std::vector<ImportAlias>* names = nullptr;
        if (const auto* i = dyn_cast<ImportFrom>(s)) {
          out_ << ' ' << std::string(static_cast<std::size_t>(i->level), '.') << i->module;
          names = &i->names;
        } else {
          names = &cast<Import>(s)->names;
        }
        at(s->loc);
        out_ << '\n';
        for (const ImportAlias& a : *names) {
          indent(inner);
          out_ << "alias " << a.name;
          if (!a.asname.empty()) out_ << " as " << a.asname;
          at(a.loc);
          out_ << '\n';
        }
        break;
      }
      case Kind::FunctionDef: {
        const auto* f = cast<FunctionDef>(s);
        out_ << (f->is_async ? " async " : " ") << f->name;
        at(s->loc);
        aside("name", f->name_loc);
        out_ << '\n';
        for (const Expr* d : f->decorators) expr(inner, "decorator", d);
        for (const Parameter& p : f->params) parameter(inner, p);
        optional_expr(inner, "returns", f->returns);
        labeled_body(inner, "body", f->body);
        break;
      }
      case Kind::ClassDef: {
        const auto* c = cast<ClassDef>(s);
        out_ << ' ' << c->name;
        at(s->loc);
        aside("name", c->name_loc);
        out_ << '\n';
        for (const Expr* d : c->decorators) expr(inner, "decorator", d);
        for (const Argument& a : c->bases) argument(inner, a, "base");
        labeled_body(inner, "body", c->body);
        break;
      }
      case Kind::Assign: {
        const auto* a = cast<Assign>(s);
        at(s->loc);
        out_ << '\n';
        for (const Expr* t : a->targets) expr(inner, "target", t);
        expr(inner, "value", a->value);
        break;
      }
      case Kind::AugAssign: {
        const auto* a = cast<AugAssign>(s);
        out_ << ' ' << binop_symbol(a->op) << '=';
        at(s->loc);
        out_ << '\n';
        expr(inner, "target", a->target);
        expr(inner, "value", a->value);
        break;
      }
      case Kind::AnnAssign: {
        const auto* a = cast<AnnAssign>(s);
        at(s->loc);
        out_ << '\n';
        expr(inner, "target", a->target);
        expr(inner, "annotation", a->annotation);
        optional_expr(inner, "value", a->value);
        break;
      }
      case Kind::ExprStmt: {
        at(s->loc);
        out_ << '\n';
        expr(inner, "", cast<ExprStmt>(s)->value);
        break;
      }
      case Kind::If: {
        const auto* i = cast<If>(s);
        at(s->loc);
        out_ << '\n';
        expr(inner, "test", i->test);
        labeled_body(inner, "body", i->body);
        labeled_body(inner, "orelse", i->orelse);
        break;
      }
      case Kind::For: {
        const auto* f = cast<For>(s);
        if (f->is_async) out_ << " async";
        at(s->loc);
        out_ << '\n';
        expr(inner, "target", f->target);
        expr(inner, "iter", f->iter);
        labeled_body(inner, "body", f->body);
        labeled_body(inner, "orelse", f->orelse);
        break;
      }
      case Kind::While: {
        const auto* w = cast<While>(s);
        at(s->loc);
        out_ << '\n';
        expr(inner, "test", w->test);
        labeled_body(inner, "body", w->body);
        labeled_body(inner, "orelse", w->orelse);
        break;
      }
      case Kind::With: {
        const auto* w = cast<With>(s);
        if (w->is_async) out_ << " async";
        at(s->loc);
        out_ << '\n';
        for (const WithItem& item : w->items) {
          expr(inner, "item", item.context);
          optional_expr(inner, "as", item.target);
        }
        labeled_body(inner, "body", w->body);
        break;
      }
      case Kind::Try: {
        const auto* t = cast<Try>(s);
        at(s->loc);
        out_ << '\n';
        labeled_body(inner, "body", t->body);
        for (const ExceptHandler& h : t->handlers) {
          indent(inner);
          out_ << (h.is_star ? "except*" : "except");
          if (!h.name.empty()) out_ << " as " << h.name;
          at(h.loc);
          out_ << '\n';
          optional_expr(inner + 1, "type", h.type);
          labeled_body(inner + 1, "body", h.body);
        }
        labeled_body(inner, "orelse", t->orelse);
        labeled_body(inner, "finally", t->finalbody);
        break;
      }
      case Kind::Return: {
        at(s->loc);
        out_ << '\n';
        optional_expr(inner, "", cast<Return>(s)->value);
        break;
      }
      case Kind::Raise: {
        const auto* r = cast<Raise>(s);
        at(s->loc);
        out_ << '\n';
        optional_expr(inner, "exc", r->exc);
        optional_expr(inner, "cause", r->cause);
        break;
      }
      case Kind::Assert: {
        const auto* a = cast<Assert>(s);
        at(s->loc);
        out_ << '\n';
        expr(inner, "test", a->test);
        optional_expr(inner, "msg", a->msg);
        break;
      }
      case Kind::Global:
      case Kind::Nonlocal: {
        const std::vector<std::string>& names =
            s->kind == Kind::Global ? cast<Global>(s)->names : cast<Nonlocal>(s)->names;
        for (std::size_t i = 0; i < names.size(); ++i) out_ << (i == 0 ? " " : ", ") << names[i];
        at(s->loc);
        out_ << '\n';
        break;
      }
      case Kind::Delete: {
        at(s->loc);
        out_ << '\n';
        for (const Expr* t : cast<Delete>(s)->targets) expr(inner, "", t);
        break;
      }
      case Kind::OpaqueStmt: {
        out_ << ' ' << cast<OpaqueStmt>(s)->what;
        at(s->loc);
        out_ << '\n';
        break;
      }
      default: {  // Pass, Break, Continue (and an expression where a statement belongs)
        at(s->loc);
        out_ << '\n';
        break;
      }
    }
  }

  std::ostream& out_;
};

}  // namespace

void dump_ir(std::ostream& out, const ir::Module& module) { Dumper(out).module(module); }

}  // namespace gshape
