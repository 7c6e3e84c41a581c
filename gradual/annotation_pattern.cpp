// jaxtyping dimension strings and the encoding of an annotation check as a
// rule name.
#include "gradual/annotation_pattern.h"

#include <cctype>

namespace gshape::gradual {

namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_plain_name(std::string_view s) {
  if (s.empty() || !is_name_start(s[0])) return false;
  for (char c : s)
    if (!is_name_char(c)) return false;
  return true;
}

// Recursive descent over one token: sum := product (('+'|'-') product)*,
// product := atom (('*'|'//') atom)*, atom := int | name | '(' sum ')'.
class ExprParser {
 public:
  explicit ExprParser(std::string_view s) : s_(s) {}
  std::shared_ptr<DimExpr> parse(std::string& error) {
    auto e = sum();
    if (e && pos_ != s_.size()) e = nullptr;
    if (!e) error = "cannot read the dimension '" + std::string(s_) + "'";
    return e;
  }

 private:
  static std::shared_ptr<DimExpr> node(DimExpr::Op op, std::shared_ptr<DimExpr> l, std::shared_ptr<DimExpr> r) {
    auto e = std::make_shared<DimExpr>();
    e->op = op;
    e->lhs = std::move(l);
    e->rhs = std::move(r);
    return e;
  }
  std::shared_ptr<DimExpr> sum() {
    auto l = product();
    while (l && pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) {
      DimExpr::Op op = s_[pos_] == '+' ? DimExpr::Op::Add : DimExpr::Op::Sub;
      ++pos_;
      auto r = product();
      if (!r) return nullptr;
      l = node(op, l, r);
    }
    return l;
  }
  std::shared_ptr<DimExpr> product() {
    auto l = atom();
    while (l && pos_ < s_.size()) {
      DimExpr::Op op;
      if (s_.substr(pos_, 2) == "//") {
        op = DimExpr::Op::FloorDiv;
        pos_ += 2;
      } else if (s_[pos_] == '*') {
        op = DimExpr::Op::Mul;
        ++pos_;
      } else {
        break;
      }
      auto r = atom();
      if (!r) return nullptr;
      l = node(op, l, r);
    }
    return l;
  }
  std::shared_ptr<DimExpr> atom() {
    if (pos_ >= s_.size()) return nullptr;
    if (s_[pos_] == '(') {
      ++pos_;
      auto e = sum();
      if (!e || pos_ >= s_.size() || s_[pos_] != ')') return nullptr;
      ++pos_;
      return e;
    }
    auto e = std::make_shared<DimExpr>();
    std::size_t start = pos_;
    if (std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ - start > 15) return nullptr;
      e->op = DimExpr::Op::Literal;
      e->value = std::stoll(std::string(s_.substr(start, pos_ - start)));
      return e;
    }
    if (!is_name_start(s_[pos_])) return nullptr;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    e->op = DimExpr::Op::Name;
    e->name = std::string(s_.substr(start, pos_ - start));
    return e;
  }
  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

void DimExpr::names(std::vector<std::string>& out) const {
  if (op == Op::Name) out.push_back(name);
  if (lhs) lhs->names(out);
  if (rhs) rhs->names(out);
}

bool TensorPattern::has_variadic() const {
  for (const DimPattern& d : dims)
    if (d.kind == DimPattern::Kind::Variadic) return true;
  return false;
}

std::size_t TensorPattern::fixed_count() const {
  std::size_t n = 0;
  for (const DimPattern& d : dims) n += d.kind != DimPattern::Kind::Variadic;
  return n;
}

std::string TensorPattern::display() const {
  std::string out = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const DimPattern& d = dims[i];
    if (i) out += ", ";
    switch (d.kind) {
      case DimPattern::Kind::Literal: out += std::to_string(d.value); break;
      case DimPattern::Kind::Variadic: out += d.name.empty() ? "..." : "*" + d.name; break;
      default: out += (d.broadcast ? "#" : "") + d.name; break;
    }
  }
  return out + "]";
}

PatternParse parse_dim_string(std::string_view text) {
  PatternParse out;
  TensorPattern p;
  std::size_t i = 0;
  bool variadic_seen = false;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::string_view tok = text.substr(start, i - start);
    DimPattern d;
    if (tok == "...") {
      d.kind = DimPattern::Kind::Variadic;
    } else if ((tok[0] == '*' && is_plain_name(tok.substr(1)))) {
      d.kind = DimPattern::Kind::Variadic;
      d.name = std::string(tok.substr(1));
      if (d.name[0] == '_') d.name.clear();  // *_ : any axes, not bound
    } else {
      if (tok[0] == '#') {
        d.broadcast = true;
        tok.remove_prefix(1);
      }
      if (tok.empty()) {
        out.error = "'#' must be followed by a dimension name";
        return out;
      }
      bool digits = true;
      for (char c : tok) digits = digits && std::isdigit(static_cast<unsigned char>(c));
      if (digits) {
        if (tok.size() > 15) {
          out.error = "the dimension '" + std::string(tok) + "' is too large";
          return out;
        }
        d.kind = DimPattern::Kind::Literal;
        d.value = std::stoll(std::string(tok));
      } else if (is_plain_name(tok)) {
        d.kind = tok[0] == '_' ? DimPattern::Kind::Anonymous : DimPattern::Kind::Name;
        d.name = std::string(tok);
      } else {
        ExprParser parser(tok);
        std::string error;
        d.expr = parser.parse(error);
        if (!d.expr) {
          out.error = error;
          return out;
        }
        d.kind = DimPattern::Kind::Expr;
        d.name = std::string(tok);
      }
    }
    if (d.kind == DimPattern::Kind::Variadic) {
      if (variadic_seen) {
        out.error = "a shape may have only one variadic dimension ('...' or '*name')";
        return out;
      }
      variadic_seen = true;
    }
    if (!p.text.empty()) p.text += ' ';
    p.text += std::string(text.substr(start, i - start));
    p.dims.push_back(std::move(d));
  }
  out.pattern = std::move(p);
  return out;
}

std::string annotation_rule_name(const AnnotationCheck& check) {
  std::string out(kAnnotationRulePrefix);
  for (std::size_t i = 0; i < check.operands.size(); ++i) {
    const AnnotationOperand& o = check.operands[i];
    if (i) out += '|';
    if (o.given) out += '~';
    out += o.role + "=" + o.pattern.text;
  }
  return out;
}

bool is_annotation_rule(std::string_view name) { return name.substr(0, kAnnotationRulePrefix.size()) == kAnnotationRulePrefix; }

std::optional<AnnotationCheck> parse_annotation_rule_name(std::string_view name) {
  if (!is_annotation_rule(name)) return std::nullopt;
  name.remove_prefix(kAnnotationRulePrefix.size());
  AnnotationCheck check;
  while (!name.empty()) {
    std::size_t bar = name.find('|');
    std::string_view entry = name.substr(0, bar);
    name = bar == std::string_view::npos ? std::string_view() : name.substr(bar + 1);
    AnnotationOperand o;
    if (!entry.empty() && entry[0] == '~') {
      o.given = true;
      entry.remove_prefix(1);
    }
    std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    o.role = std::string(entry.substr(0, eq));
    PatternParse p = parse_dim_string(entry.substr(eq + 1));
    if (!p.pattern) return std::nullopt;
    o.pattern = std::move(*p.pattern);
    check.operands.push_back(std::move(o));
  }
  if (check.operands.empty()) return std::nullopt;
  return check;
}

}  // namespace gshape::gradual
