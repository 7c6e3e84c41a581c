#include "runtime/constraint.h"

#include <charconv>
#include <initializer_list>
#include <limits>
#include <utility>

namespace gshape::runtime {

namespace {

// Deeper nesting than this is certainly not a shape constraint; refusing it
// keeps the recursive parser and evaluator far from the C stack's limit.
constexpr int kMaxDepth = 200;

// Concatenation for error texts (GCC 12 misreports `"lit" + std::string`
// under -Werror=restrict).
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out.append(p.data(), p.size());
  return out;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool ends_atom(char c) { return is_blank(c) || c == '(' || c == ')'; }

bool parse_int64(std::string_view token, int64_t& out) {
  if (token.empty()) return false;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
  return ec == std::errc() && end == token.data() + token.size();
}

// Python's floor division and modulo on 64-bit integers; false when the
// result is not defined (division by zero) or does not fit.
bool floor_div(int64_t a, int64_t b, int64_t& out) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)) return false;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  out = q;
  return true;
}
bool floor_mod(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return false;
  if (b == -1) {  // a % -1 is 0, and INT64_MIN % -1 would trap
    out = 0;
    return true;
  }
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  out = r;
  return true;
}

Value known(int64_t v) { return Value{v, true}; }
constexpr Value kUnknown{};

// Normalises a Python-style index (negative counts from the end).
bool wrap_index(int64_t index, int64_t length, std::size_t& out) {
  if (index < 0) index += length;
  if (index < 0 || index >= length) return false;
  out = static_cast<std::size_t>(index);
  return true;
}

}  // namespace

class Expr::Parser {
 public:
  Parser(std::string_view text, Expr& out) : text_(text), out_(out) {}

  uint32_t parse_all() {
    uint32_t root = parse_expr(0);
    skip_blanks();
    if (pos_ != text_.size()) fail("unexpected text after the expression", pos_);
    return root;
  }

 private:
  enum class Form {
    Size, Dim, Numel, Int, Len, Item, Attr, Arith2, Arith1, Compare, Equality, AndOr, Not, Ite, True, False
  };
  struct Head {
    std::string_view name;
    Form form;
    Op op;
  };
  static constexpr Head kHeads[] = {
      {"size", Form::Size, Op::Size},       {"dim", Form::Dim, Op::Dim},
      {"numel", Form::Numel, Op::Numel},    {"int", Form::Int, Op::Int},
      {"len", Form::Len, Op::Len},          {"item", Form::Item, Op::Item},
      {"attr", Form::Attr, Op::Attr},
      {"+", Form::Arith2, Op::Add},         {"-", Form::Arith2, Op::Sub},
      {"*", Form::Arith2, Op::Mul},         {"//", Form::Arith2, Op::FloorDiv},
      {"%", Form::Arith2, Op::Mod},         {"min", Form::Arith2, Op::Min},
      {"max", Form::Arith2, Op::Max},       {"neg", Form::Arith1, Op::Neg},
      {"abs", Form::Arith1, Op::Abs},       {"==", Form::Equality, Op::Eq},
      {"!=", Form::Equality, Op::Ne},       {"<", Form::Compare, Op::Lt},
      {"<=", Form::Compare, Op::Le},        {">", Form::Compare, Op::Gt},
      {">=", Form::Compare, Op::Ge},        {"and", Form::AndOr, Op::And},
      {"or", Form::AndOr, Op::Or},          {"not", Form::Not, Op::Not},
      {"ite", Form::Ite, Op::Ite},          {"true", Form::True, Op::Const},
      {"false", Form::False, Op::Const},
  };

  [[noreturn]] void fail(const std::string& what, std::size_t at) {
    throw ConstraintSyntaxError(cat({what, " at offset ", std::to_string(at)}), at);
  }

  void skip_blanks() {
    while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
  }

  std::string_view read_atom() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && !ends_atom(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  void expect_close(std::string_view head) {
    skip_blanks();
    if (pos_ >= text_.size()) fail(cat({"missing ')' closing (", head}), pos_);
    if (text_[pos_] != ')') fail(cat({"too many arguments to (", head}), pos_);
    ++pos_;
  }

  int64_t literal(std::string_view head, const char* role) {
    skip_blanks();
    std::size_t at = pos_;
    if (pos_ < text_.size() && text_[pos_] == '(')
      fail(cat({"the ", role, " of (", head, " ...) must be an integer literal"}), at);
    std::string_view token = read_atom();
    if (token.empty()) fail(cat({"(", head, " ...) is missing its ", role}), at);
    int64_t v = 0;
    if (!parse_int64(token, v))
      fail(cat({"the ", role, " of (", head, " ...) must be an integer literal, not '", token, "'"}), at);
    return v;
  }

  uint16_t slot_literal(std::string_view head) {
    std::size_t at = pos_;
    int64_t k = literal(head, "slot");
    if (k < 0 || k > kMaxSlot)
      fail(cat({"slot ", std::to_string(k), " is out of range 0..", std::to_string(kMaxSlot)}), at);
    return static_cast<uint16_t>(k);
  }

  uint32_t add_node(Op op, bool is_bool, const std::vector<uint32_t>& kids, uint16_t slot = 0, int64_t imm = 0) {
    Node n{op, is_bool, slot, static_cast<uint32_t>(out_.children_.size()), static_cast<uint32_t>(kids.size()), imm};
    out_.children_.insert(out_.children_.end(), kids.begin(), kids.end());
    out_.nodes_.push_back(n);
    return static_cast<uint32_t>(out_.nodes_.size() - 1);
  }

  uint32_t add_reader(Op op, uint16_t slot, Need need, int64_t imm = 0) {
    bool seen = false;
    for (const SlotNeed& sn : out_.needs_) seen = seen || (sn.slot == slot && sn.need == need);
    if (!seen) out_.needs_.push_back({slot, need});
    if (slot + 1u > out_.slot_count_) out_.slot_count_ = slot + 1u;
    return add_node(op, false, {}, slot, imm);
  }

  // Parses a sub-expression that must be a condition (want_bool) or an integer.
  uint32_t parse_sort(int depth, bool want_bool, std::string_view head) {
    skip_blanks();
    std::size_t at = pos_;
    uint32_t n = parse_expr(depth);
    if (out_.nodes_[n].is_bool != want_bool)
      fail(cat({"(", head, " ...) expects ", want_bool ? "a condition" : "an integer", " here"}), at);
    return n;
  }

  uint32_t parse_expr(int depth) {
    if (depth > kMaxDepth) fail(cat({"expression nested deeper than ", std::to_string(kMaxDepth)}), pos_);
    skip_blanks();
    if (pos_ >= text_.size()) fail("expected an expression", pos_);
    std::size_t start = pos_;
    char c = text_[pos_];
    if (c == ')') fail("unexpected ')'", pos_);
    if (c != '(') {
      std::string_view token = read_atom();
      int64_t v = 0;
      if (parse_int64(token, v)) return add_node(Op::Const, false, {}, 0, v);
      for (const Head& h : kHeads)
        if (h.name == token) fail(cat({"'", token, "' must be written in parentheses: (", token, " ...)"}), start);
      fail(cat({"expected an integer or '(', not '", token, "'"}), start);
    }
    ++pos_;
    skip_blanks();
    std::size_t head_at = pos_;
    std::string_view name = read_atom();
    if (name.empty()) fail("expected an operator after '('", head_at);
    const Head* head = nullptr;
    for (const Head& h : kHeads)
      if (h.name == name) head = &h;
    if (head == nullptr) fail(cat({"unknown operator '", name, "'"}), head_at);

    uint32_t node = 0;
    switch (head->form) {
      case Form::Size: {
        uint16_t k = slot_literal(name);
        int64_t d = literal(name, "dimension");
        node = add_reader(Op::Size, k, Need::Shape, d);
        break;
      }
      case Form::Dim: node = add_reader(Op::Dim, slot_literal(name), Need::Shape); break;
      case Form::Numel: node = add_reader(Op::Numel, slot_literal(name), Need::Shape); break;
      case Form::Int: node = add_reader(Op::Int, slot_literal(name), Need::Int); break;
      case Form::Len: node = add_reader(Op::Len, slot_literal(name), Need::Sized); break;
      case Form::Item: {
        uint16_t k = slot_literal(name);
        int64_t i = literal(name, "index");
        node = add_reader(Op::Item, k, Need::Sequence, i);
        break;
      }
      case Form::Attr: {
        uint16_t k = slot_literal(name);
        skip_blanks();
        std::size_t at = pos_;
        std::string_view attribute = read_atom();
        if (!is_identifier(attribute)) fail(cat({"(attr ...) needs an attribute name, not '", attribute, "'"}), at);
        node = add_reader(Op::Attr, k, Need::Object);
        out_.attr_reads_.push_back({k, std::string(attribute)});
        out_.attr_nodes_.push_back(node);
        break;
      }
      case Form::True: node = add_node(Op::Const, true, {}, 0, 1); break;
      case Form::False: node = add_node(Op::Const, true, {}, 0, 0); break;
      case Form::Arith2:
      case Form::Compare: {
        uint32_t a = parse_sort(depth + 1, false, name);
        uint32_t b = parse_sort(depth + 1, false, name);
        node = add_node(head->op, head->form == Form::Compare, {a, b});
        break;
      }
      case Form::Arith1: node = add_node(head->op, false, {parse_sort(depth + 1, false, name)}); break;
      case Form::Equality: {
        uint32_t a = parse_expr(depth + 1);
        skip_blanks();
        std::size_t at = pos_;
        uint32_t b = parse_expr(depth + 1);
        if (out_.nodes_[a].is_bool != out_.nodes_[b].is_bool)
          fail(cat({"(", name, " ...) compares a condition with an integer"}), at);
        node = add_node(head->op, true, {a, b});
        break;
      }
      case Form::AndOr: {
        std::vector<uint32_t> kids;
        for (;;) {
          skip_blanks();
          if (pos_ >= text_.size()) fail(cat({"missing ')' closing (", name}), pos_);
          if (text_[pos_] == ')') break;
          kids.push_back(parse_sort(depth + 1, true, name));
        }
        node = add_node(head->op, true, kids);
        break;
      }
      case Form::Not: node = add_node(Op::Not, true, {parse_sort(depth + 1, true, name)}); break;
      case Form::Ite: {
        uint32_t cond = parse_sort(depth + 1, true, name);
        uint32_t then_branch = parse_expr(depth + 1);
        skip_blanks();
        std::size_t at = pos_;
        uint32_t else_branch = parse_expr(depth + 1);
        bool is_bool = out_.nodes_[then_branch].is_bool;
        if (out_.nodes_[else_branch].is_bool != is_bool)
          fail("(ite ...) has one condition branch and one integer branch", at);
        node = add_node(Op::Ite, is_bool, {cond, then_branch, else_branch});
        break;
      }
    }
    expect_close(name);
    return node;
  }

  std::string_view text_;
  Expr& out_;
  std::size_t pos_ = 0;
};

Expr Expr::parse(std::string_view text) {
  Expr e;
  Parser p(text, e);
  e.root_ = p.parse_all();
  return e;
}

void Expr::resolve_attrs(const std::function<uint32_t(uint16_t, const std::string&)>& index_of) {
  for (std::size_t i = 0; i < attr_reads_.size(); ++i)
    nodes_[attr_nodes_[i]].imm = index_of(attr_reads_[i].slot, attr_reads_[i].name);
}

Value Expr::evaluate(const Operand* operands, std::size_t count) const {
  return eval(root_, operands, count);
}

Value Expr::eval(uint32_t index, const Operand* operands, std::size_t count) const {
  const Node& n = nodes_[index];
  const uint32_t* kid = children_.data() + n.first_child;
  const Operand* operand = n.slot < count ? &operands[n.slot] : nullptr;
  switch (n.op) {
    case Op::Const: return known(n.imm);
    case Op::Size: {
      if (operand == nullptr || !operand->is_shape()) return kUnknown;
      std::size_t d = 0;
      if (!wrap_index(n.imm, static_cast<int64_t>(operand->dims.size()), d)) return kUnknown;
      return known(operand->dims[d]);
    }
    case Op::Dim:
      if (operand == nullptr || !operand->is_shape()) return kUnknown;
      return known(static_cast<int64_t>(operand->dims.size()));
    case Op::Numel: {
      if (operand == nullptr || !operand->is_shape()) return kUnknown;
      int64_t product = 1;
      for (int64_t s : operand->dims)
        if (__builtin_mul_overflow(product, s, &product)) return kUnknown;
      return known(product);
    }
    case Op::Int:
      if (operand == nullptr || !operand->is_int()) return kUnknown;
      return known(operand->value);
    case Op::Len:
      if (operand == nullptr || !operand->is_sized()) return kUnknown;
      if (operand->kind == OperandKind::Tensor) {  // len(t) is t.size(0); a 0-d tensor has none
        if (operand->dims.empty()) return kUnknown;
        return known(operand->dims[0]);
      }
      return known(operand->length);
    case Op::Item: {
      if (operand == nullptr || !operand->is_sequence()) return kUnknown;
      std::size_t i = 0;
      if (!wrap_index(n.imm, operand->length, i)) return kUnknown;
      if (i >= operand->dims.size() || !operand->item_is_int[i]) return kUnknown;
      return known(operand->dims[i]);
    }
    case Op::Attr: {
      if (operand == nullptr || operand->kind == OperandKind::Unset) return kUnknown;
      auto i = static_cast<std::size_t>(n.imm);
      if (i >= operand->attr_known.size() || !operand->attr_known[i]) return kUnknown;
      return known(operand->attr_values[i]);
    }
    case Op::Neg:
    case Op::Abs: {
      Value a = eval(kid[0], operands, count);
      if (!a.known) return kUnknown;
      if (n.op == Op::Abs && a.v >= 0) return a;
      if (a.v == std::numeric_limits<int64_t>::min()) return kUnknown;
      return known(-a.v);
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::FloorDiv: case Op::Mod: case Op::Min: case Op::Max:
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
      Value a = eval(kid[0], operands, count);
      Value b = eval(kid[1], operands, count);
      if (!a.known || !b.known) return kUnknown;
      int64_t r = 0;
      switch (n.op) {
        case Op::Add: if (__builtin_add_overflow(a.v, b.v, &r)) return kUnknown; return known(r);
        case Op::Sub: if (__builtin_sub_overflow(a.v, b.v, &r)) return kUnknown; return known(r);
        case Op::Mul: if (__builtin_mul_overflow(a.v, b.v, &r)) return kUnknown; return known(r);
        case Op::FloorDiv: if (!floor_div(a.v, b.v, r)) return kUnknown; return known(r);
        case Op::Mod: if (!floor_mod(a.v, b.v, r)) return kUnknown; return known(r);
        case Op::Min: return known(a.v < b.v ? a.v : b.v);
        case Op::Max: return known(a.v < b.v ? b.v : a.v);
        case Op::Eq: return known(a.v == b.v);
        case Op::Ne: return known(a.v != b.v);
        case Op::Lt: return known(a.v < b.v);
        case Op::Le: return known(a.v <= b.v);
        case Op::Gt: return known(a.v > b.v);
        case Op::Ge: return known(a.v >= b.v);
        default: return kUnknown;
      }
    }
    case Op::And:
    case Op::Or: {
      // Kleene logic: one false conjunct (true disjunct) decides, whatever
      // the not-evaluable ones would have been.
      const bool deciding = n.op == Op::Or;
      bool all_known = true;
      for (uint32_t i = 0; i < n.child_count; ++i) {
        Value v = eval(kid[i], operands, count);
        if (!v.known) {
          all_known = false;
        } else if ((v.v != 0) == deciding) {
          return known(deciding);
        }
      }
      return all_known ? known(!deciding) : kUnknown;
    }
    case Op::Not: {
      Value a = eval(kid[0], operands, count);
      if (!a.known) return kUnknown;
      return known(a.v == 0);
    }
    case Op::Ite: {
      Value c = eval(kid[0], operands, count);
      if (c.known) return eval(c.v != 0 ? kid[1] : kid[2], operands, count);
      // Unknown condition: the result is still known if both branches agree.
      Value a = eval(kid[1], operands, count);
      Value b = eval(kid[2], operands, count);
      if (a.known && b.known && a.v == b.v) return a;
      return kUnknown;
    }
  }
  return kUnknown;
}

}  // namespace gshape::runtime
