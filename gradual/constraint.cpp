// The constraint language: builders, s-expression printer and parser, static
// evaluation, and the paired runtime/static terms rules are written in.
#include "gradual/constraint.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

namespace gshape::gradual {

// ------------------------------------------------------------------ raw builders

namespace cx {
namespace {
CExpr leaf(COp op, int slot, int64_t value = 0, std::string name = {}) {
  auto n = std::make_shared<CNode>();
  n->op = op;
  n->slot = slot;
  n->value = value;
  n->name = std::move(name);
  n->has_operand = true;
  n->has_opaque = op == COp::Opaque;
  return n;
}
}  // namespace

CExpr lit(int64_t v) {
  auto n = std::make_shared<CNode>();
  n->op = COp::Int;
  n->value = v;
  return n;
}
CExpr boolean(bool v) {
  auto n = std::make_shared<CNode>();
  n->op = v ? COp::True : COp::False;
  return n;
}
CExpr size(int slot, int64_t d) { return leaf(COp::Size, slot, d); }
CExpr rank(int slot) { return leaf(COp::Rank, slot); }
CExpr numel(int slot) { return leaf(COp::Numel, slot); }
CExpr int_of(int slot) { return leaf(COp::IntOf, slot); }
CExpr len(int slot) { return leaf(COp::Len, slot); }
CExpr item(int slot, int64_t index) { return leaf(COp::Item, slot, index); }
CExpr attr(int slot, std::string name) { return leaf(COp::Attr, slot, 0, std::move(name)); }
CExpr opaque(std::string what) { return leaf(COp::Opaque, -1, 0, std::move(what)); }
CExpr op(COp o, std::vector<CExpr> args) {
  auto n = std::make_shared<CNode>();
  n->op = o;
  for (const CExpr& a : args) {
    n->has_operand = n->has_operand || a->has_operand;
    n->has_opaque = n->has_opaque || a->has_opaque;
  }
  n->args = std::move(args);
  return n;
}
}  // namespace cx

// ------------------------------------------------------------------ printing

namespace {

const char* op_name(COp op) {
  switch (op) {
    case COp::Int: return "";
    case COp::True: return "true";
    case COp::False: return "false";
    case COp::Size: return "size";
    case COp::Rank: return "dim";
    case COp::Numel: return "numel";
    case COp::IntOf: return "int";
    case COp::Len: return "len";
    case COp::Item: return "item";
    case COp::Attr: return "attr";
    case COp::Opaque: return "opaque";
    case COp::Add: return "+";
    case COp::Sub: return "-";
    case COp::Mul: return "*";
    case COp::FloorDiv: return "//";
    case COp::Mod: return "%";
    case COp::Min: return "min";
    case COp::Max: return "max";
    case COp::Neg: return "neg";
    case COp::Abs: return "abs";
    case COp::Eq: return "==";
    case COp::Ne: return "!=";
    case COp::Lt: return "<";
    case COp::Le: return "<=";
    case COp::Gt: return ">";
    case COp::Ge: return ">=";
    case COp::And: return "and";
    case COp::Or: return "or";
    case COp::Not: return "not";
    case COp::Ite: return "ite";
  }
  return "?";
}

void print(std::string& out, const CNode& n) {
  switch (n.op) {
    case COp::Int: out += std::to_string(n.value); return;
    case COp::Size: out += "(size " + std::to_string(n.slot) + " " + std::to_string(n.value) + ")"; return;
    case COp::Item: out += "(item " + std::to_string(n.slot) + " " + std::to_string(n.value) + ")"; return;
    case COp::Rank:
    case COp::Numel:
    case COp::IntOf:
    case COp::Len: out += std::string("(") + op_name(n.op) + " " + std::to_string(n.slot) + ")"; return;
    case COp::Attr: out += "(attr " + std::to_string(n.slot) + " " + n.name + ")"; return;
    case COp::Opaque: {
      out += "(opaque \"";
      for (char c : n.name) out += (c == '"' || c == '\\') ? '_' : c;
      out += "\")";
      return;
    }
    default: break;
  }
  out += '(';
  out += op_name(n.op);
  for (const CExpr& a : n.args) {
    out += ' ';
    print(out, *a);
  }
  out += ')';
}

}  // namespace

std::string to_sexpr(const CExpr& e) {
  std::string out;
  print(out, *e);
  return out;
}

// ------------------------------------------------------------------ parsing

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  CExpr parse_all(std::string* error) {
    CExpr e = parse();
    skip_space();
    if (e && pos_ != text_.size()) fail("trailing text");
    if (!error_.empty()) {
      if (error) *error = error_ + " at offset " + std::to_string(pos_);
      return nullptr;
    }
    return e;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  CExpr fail(const std::string& message) {
    if (error_.empty()) error_ = message;
    return nullptr;
  }
  std::string atom() {
    skip_space();
    std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '(' && text_[pos_] != ')' &&
           !std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  std::optional<int64_t> integer() {
    std::string a = atom();
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(a.data(), a.data() + a.size(), v);
    if (a.empty() || ec != std::errc() || ptr != a.data() + a.size()) {
      fail("expected an integer, got '" + a + "'");
      return std::nullopt;
    }
    return v;
  }
  bool expect_close() {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ')') {
      ++pos_;
      return true;
    }
    fail("expected ')'");
    return false;
  }

  CExpr parse() {
    if (++depth_ > 200) return fail("nesting too deep");
    CExpr e = parse_inner();
    --depth_;
    return e;
  }

  CExpr parse_inner() {
    skip_space();
    if (pos_ >= text_.size()) return fail("unexpected end");
    if (text_[pos_] != '(') {
      auto v = integer();
      return v ? cx::lit(*v) : nullptr;
    }
    ++pos_;
    std::string head = atom();
    auto slot_arg = [&]() -> std::optional<int> {
      auto v = integer();
      if (!v) return std::nullopt;
      if (*v < 0 || *v > 1000000) {
        fail("bad operand slot");
        return std::nullopt;
      }
      return static_cast<int>(*v);
    };
    CExpr result;
    if (head == "size" || head == "item") {
      auto k = slot_arg();
      auto d = k ? integer() : std::nullopt;
      if (!d) return nullptr;
      result = head == "size" ? cx::size(*k, *d) : cx::item(*k, *d);
    } else if (head == "dim" || head == "numel" || head == "int" || head == "len") {
      auto k = slot_arg();
      if (!k) return nullptr;
      result = head == "dim" ? cx::rank(*k) : head == "numel" ? cx::numel(*k) : head == "int" ? cx::int_of(*k) : cx::len(*k);
    } else if (head == "attr") {
      auto k = slot_arg();
      if (!k) return nullptr;
      std::string name = atom();
      if (name.empty()) return fail("expected an attribute name");
      result = cx::attr(*k, name);
    } else if (head == "opaque") {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') return fail("expected a string");
      std::size_t end = text_.find('"', pos_ + 1);
      if (end == std::string_view::npos) return fail("unterminated string");
      result = cx::opaque(std::string(text_.substr(pos_ + 1, end - pos_ - 1)));
      pos_ = end + 1;
    } else if (head == "true" || head == "false") {
      result = cx::boolean(head == "true");
    } else {
      static const std::pair<const char*, std::pair<COp, int>> kOps[] = {
          {"+", {COp::Add, 2}},   {"-", {COp::Sub, 2}},     {"*", {COp::Mul, 2}},  {"//", {COp::FloorDiv, 2}},
          {"%", {COp::Mod, 2}},   {"min", {COp::Min, 2}},   {"max", {COp::Max, 2}}, {"neg", {COp::Neg, 1}},
          {"abs", {COp::Abs, 1}}, {"==", {COp::Eq, 2}},     {"!=", {COp::Ne, 2}},  {"<", {COp::Lt, 2}},
          {"<=", {COp::Le, 2}},   {">", {COp::Gt, 2}},      {">=", {COp::Ge, 2}},  {"and", {COp::And, -1}},
          {"or", {COp::Or, -1}},  {"not", {COp::Not, 1}},   {"ite", {COp::Ite, 3}},
      };
      const std::pair<COp, int>* found = nullptr;
      for (const auto& [name, spec] : kOps)
        if (head == name) found = &spec;
      if (!found) return fail("unknown operator '" + head + "'");
      std::vector<CExpr> args;
      while (true) {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ')') break;
        CExpr a = parse();
        if (!a) return nullptr;
        args.push_back(std::move(a));
      }
      if (found->second >= 0 && static_cast<int>(args.size()) != found->second)
        return fail("'" + head + "' takes " + std::to_string(found->second) + " operands");
      result = cx::op(found->first, std::move(args));
    }
    if (!expect_close()) return nullptr;
    return result;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::string error_;
};

}  // namespace

CExpr parse_sexpr(std::string_view text, std::string* error) { return Parser(text).parse_all(error); }

// ------------------------------------------------------------------ static evaluation

namespace {
bool is_bool_op(COp op) {
  switch (op) {
    case COp::True: case COp::False: case COp::Eq: case COp::Ne: case COp::Lt: case COp::Le:
    case COp::Gt: case COp::Ge: case COp::And: case COp::Or: case COp::Not: return true;
    default: return false;
  }
}
}  // namespace

Dim eval_int(const CExpr& e, OperandEnv& env) {
  const CNode& n = *e;
  if (is_bool_op(n.op)) return Dim::ite(eval_bool(e, env), 1, 0);
  auto arg = [&](std::size_t i) { return eval_int(n.args[i], env); };
  switch (n.op) {
    case COp::Int: return Dim(n.value);
    case COp::Size: return env.size(n.slot, n.value);
    case COp::Rank: return env.rank(n.slot);
    case COp::Numel: return env.numel(n.slot);
    case COp::IntOf: return env.int_value(n.slot);
    case COp::Len: return env.len(n.slot);
    case COp::Item: return env.item(n.slot, n.value);
    case COp::Attr: return env.attr(n.slot, n.name);
    case COp::Opaque: return Dim::symbol(n.name, false);
    case COp::Add: return arg(0) + arg(1);
    case COp::Sub: return arg(0) - arg(1);
    case COp::Mul: return arg(0) * arg(1);
    case COp::FloorDiv: return floordiv(arg(0), arg(1));
    case COp::Mod: return mod(arg(0), arg(1));
    case COp::Min: return min(arg(0), arg(1));
    case COp::Max: return max(arg(0), arg(1));
    case COp::Neg: return -arg(0);
    case COp::Abs: return abs(arg(0));
    case COp::Ite: return Dim::ite(eval_bool(n.args[0], env), arg(1), arg(2));
    default: return Dim(0);
  }
}

Pred eval_bool(const CExpr& e, OperandEnv& env) {
  const CNode& n = *e;
  if (!is_bool_op(n.op)) {
    if (n.op == COp::Ite) return Pred(ne(eval_int(e, env), 0));
    return ne(eval_int(e, env), 0);
  }
  auto i = [&](std::size_t k) { return eval_int(n.args[k], env); };
  switch (n.op) {
    case COp::True: return Pred(true);
    case COp::False: return Pred(false);
    case COp::Eq: return eq(i(0), i(1));
    case COp::Ne: return ne(i(0), i(1));
    case COp::Lt: return lt(i(0), i(1));
    case COp::Le: return le(i(0), i(1));
    case COp::Gt: return gt(i(0), i(1));
    case COp::Ge: return ge(i(0), i(1));
    case COp::Not: return !eval_bool(n.args[0], env);
    case COp::And:
    case COp::Or: {
      std::vector<Pred> parts;
      for (const CExpr& a : n.args) parts.push_back(eval_bool(a, env));
      return n.op == COp::And ? all_of(parts) : any_of(parts);
    }
    default: return Pred(false);
  }
}

// ------------------------------------------------------------------ paired terms

IntTerm::IntTerm(int64_t literal) : expr_(cx::lit(literal)), dim_(literal) {}

IntTerm IntTerm::opaque(const Dim& dim, std::string what) {
  if (auto c = dim.constant_value()) return IntTerm(*c);
  return IntTerm(cx::opaque(std::move(what)), dim);
}

BoolTerm::BoolTerm(bool literal) : expr_(cx::boolean(literal)), pred_(literal) {}

namespace {

bool is_lit(const IntTerm& t, int64_t v) { return t.expr()->op == COp::Int && t.expr()->value == v; }

// The runtime expression of an operation whose static value is `d`: a literal
// when no operand is involved and the value is a constant.
IntTerm int_node(COp op, std::initializer_list<const IntTerm*> args, const Dim& d) {
  bool operand = false;
  std::vector<CExpr> exprs;
  for (const IntTerm* a : args) {
    operand = operand || a->expr()->has_operand;
    exprs.push_back(a->expr());
  }
  if (!operand && d.is_constant()) return IntTerm(*d.constant_value());
  return IntTerm(cx::op(op, std::move(exprs)), d);
}

BoolTerm bool_node(COp op, std::vector<CExpr> exprs, const Pred& p) {
  bool operand = std::any_of(exprs.begin(), exprs.end(), [](const CExpr& e) { return e->has_operand; });
  if (!operand && p.is_constant()) return BoolTerm(p.is_true());
  return BoolTerm(cx::op(op, std::move(exprs)), p);
}

BoolTerm compare(COp op, const IntTerm& a, const IntTerm& b, const Pred& p) {
  return bool_node(op, {a.expr(), b.expr()}, p);
}

BoolTerm junction(const std::vector<BoolTerm>& terms, bool is_and) {
  std::vector<CExpr> kept;
  std::vector<Pred> preds;
  for (const BoolTerm& t : terms) {
    // a part whose static value is a constant is decided: neutral parts drop
    // out, an absorbing one decides the whole junction
    if (auto c = t.pred().constant_value()) {
      if (*c == is_and) continue;
      return BoolTerm(!is_and);
    }
    kept.push_back(t.expr());
    preds.push_back(t.pred());
  }
  Pred p = is_and ? all_of(preds) : any_of(preds);
  if (kept.empty()) return BoolTerm(is_and);
  if (kept.size() == 1) return BoolTerm(kept[0], p);
  return bool_node(is_and ? COp::And : COp::Or, std::move(kept), p);
}

}  // namespace

IntTerm operator+(const IntTerm& a, const IntTerm& b) {
  if (is_lit(b, 0)) return a;
  if (is_lit(a, 0)) return b;
  return int_node(COp::Add, {&a, &b}, a.dim() + b.dim());
}
IntTerm operator-(const IntTerm& a, const IntTerm& b) {
  if (is_lit(b, 0)) return a;
  return int_node(COp::Sub, {&a, &b}, a.dim() - b.dim());
}
IntTerm operator*(const IntTerm& a, const IntTerm& b) {
  if (is_lit(b, 1)) return a;
  if (is_lit(a, 1)) return b;
  return int_node(COp::Mul, {&a, &b}, a.dim() * b.dim());
}
IntTerm operator-(const IntTerm& a) { return int_node(COp::Neg, {&a}, -a.dim()); }
IntTerm floordiv(const IntTerm& a, const IntTerm& b) {
  if (is_lit(b, 1)) return a;
  return int_node(COp::FloorDiv, {&a, &b}, floordiv(a.dim(), b.dim()));
}
IntTerm mod(const IntTerm& a, const IntTerm& b) { return int_node(COp::Mod, {&a, &b}, mod(a.dim(), b.dim())); }
IntTerm min(const IntTerm& a, const IntTerm& b) { return int_node(COp::Min, {&a, &b}, min(a.dim(), b.dim())); }
IntTerm max(const IntTerm& a, const IntTerm& b) { return int_node(COp::Max, {&a, &b}, max(a.dim(), b.dim())); }
IntTerm abs(const IntTerm& a) { return int_node(COp::Abs, {&a}, abs(a.dim())); }

IntTerm ite(const BoolTerm& c, const IntTerm& a, const IntTerm& b) {
  if (auto k = c.pred().constant_value()) return *k ? a : b;  // decided statically
  Dim d = Dim::ite(c.pred(), a.dim(), b.dim());
  bool operand = c.expr()->has_operand || a.expr()->has_operand || b.expr()->has_operand;
  if (!operand && d.is_constant()) return IntTerm(*d.constant_value());
  return IntTerm(cx::op(COp::Ite, {c.expr(), a.expr(), b.expr()}), d);
}

IntTerm product(const std::vector<IntTerm>& terms) {
  IntTerm p = 1;
  for (const IntTerm& t : terms) p = p * t;
  return p;
}
IntTerm sum(const std::vector<IntTerm>& terms) {
  IntTerm s = 0;
  for (const IntTerm& t : terms) s = s + t;
  return s;
}

BoolTerm eq(const IntTerm& a, const IntTerm& b) { return compare(COp::Eq, a, b, eq(a.dim(), b.dim())); }
BoolTerm ne(const IntTerm& a, const IntTerm& b) { return compare(COp::Ne, a, b, ne(a.dim(), b.dim())); }
BoolTerm lt(const IntTerm& a, const IntTerm& b) { return compare(COp::Lt, a, b, lt(a.dim(), b.dim())); }
BoolTerm le(const IntTerm& a, const IntTerm& b) { return compare(COp::Le, a, b, le(a.dim(), b.dim())); }
BoolTerm gt(const IntTerm& a, const IntTerm& b) { return compare(COp::Gt, a, b, gt(a.dim(), b.dim())); }
BoolTerm ge(const IntTerm& a, const IntTerm& b) { return compare(COp::Ge, a, b, ge(a.dim(), b.dim())); }

BoolTerm operator&&(const BoolTerm& a, const BoolTerm& b) { return junction({a, b}, true); }
BoolTerm operator||(const BoolTerm& a, const BoolTerm& b) { return junction({a, b}, false); }
BoolTerm all_of(const std::vector<BoolTerm>& terms) { return junction(terms, true); }
BoolTerm any_of(const std::vector<BoolTerm>& terms) { return junction(terms, false); }
BoolTerm operator!(const BoolTerm& a) {
  if (a.expr()->op == COp::True) return BoolTerm(false);
  if (a.expr()->op == COp::False) return BoolTerm(true);
  if (a.expr()->op == COp::Not) return BoolTerm(a.expr()->args[0], !a.pred());
  // negate a comparison by flipping its operator: (not (== a b)) is (!= a b)
  static const std::pair<COp, COp> kFlip[] = {{COp::Eq, COp::Ne}, {COp::Ne, COp::Eq}, {COp::Lt, COp::Ge},
                                              {COp::Ge, COp::Lt}, {COp::Le, COp::Gt}, {COp::Gt, COp::Le}};
  for (const auto& [from, to] : kFlip)
    if (a.expr()->op == from) return BoolTerm(cx::op(to, a.expr()->args), !a.pred());
  return bool_node(COp::Not, {a.expr()}, !a.pred());
}
BoolTerm implies(const BoolTerm& a, const BoolTerm& b) { return !a || b; }

std::vector<int> slots_of(const CExpr& e) {
  std::set<int> slots;
  std::vector<const CNode*> stack{e.get()};
  while (!stack.empty()) {
    const CNode* n = stack.back();
    stack.pop_back();
    if (n->slot >= 0) slots.insert(n->slot);
    for (const CExpr& a : n->args) stack.push_back(a.get());
  }
  return {slots.begin(), slots.end()};
}

}  // namespace gshape::gradual
