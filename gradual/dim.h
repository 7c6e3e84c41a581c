// Dimension terms: the integers and conditions shapes are made of.
//
// A Dim is an integer term: a constant, a symbol (an unknown size such as
// `B` or `x.size(0)`), or arithmetic over them (+ - * // % min max, ite).
// A Pred is a boolean term over Dims (== != < <=, and/or/not).
// Terms are hash-consed: building the same term twice gives the same node,
// so `a == b` on handles is structural equality. Terms are simplified on
// construction (constant folding, x+0, x*1, like terms, ...), which decides
// every all-constant obligation without Z3.
//
// `//` and `%` follow Python (floor) semantics. The simplifier assumes a
// divisor that is not a constant is non-zero (rules check that first).
// The Z3 translation lives in solver.cpp: z3++.h stays out of this header.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gshape::gradual {

enum class TermOp : uint8_t {
  // integer-valued
  Const, Symbol, Add, Mul, FloorDiv, Mod, Min, Max, Ite,
  // boolean-valued
  BoolConst, Eq, Lt, Le, And, Or, Not,
};

// One interned node. Canonical forms:
//   Add: value = constant offset, args = monomials sorted by id (no Const, no Add);
//   Mul: value = coefficient, args = factors sorted by id (no Const, no Mul);
//   Symbol: value = symbol id; Const/BoolConst: value.
struct TermNode {
  TermOp op;
  bool nonneg;   // provably >= 0 from the term's form (integer terms only)
  int64_t value;
  uint32_t id;   // creation order: canonical operand order and printing order
  std::size_t hash;
  std::vector<const TermNode*> args;

  bool is_bool() const { return op >= TermOp::BoolConst; }
};

class Pred;

class Dim {
 public:
  Dim() : Dim(int64_t{0}) {}
  Dim(int64_t value);  // NOLINT: constants convert implicitly (`x + 1`)
  Dim(int value) : Dim(static_cast<int64_t>(value)) {}
  explicit Dim(const TermNode* node) : node_(node) {}

  static Dim constant(int64_t value) { return Dim(value); }
  // A fresh symbol, distinct from every other symbol even with the same name.
  // `nonneg`: the symbol stands for a size (every dimension is >= 0).
  static Dim symbol(const std::string& name, bool nonneg = true);
  // A fresh symbol a rule makes for an operand it cannot see (`input.size(-1)`
  // of a `[*]` tensor, `in_features` of an unknown argument).
  static Dim rule_symbol(const std::string& name, bool nonneg = true);
  bool made_by_rule() const;
  static Dim ite(const Pred& cond, const Dim& then_dim, const Dim& else_dim);

  const TermNode* node() const { return node_; }
  TermOp op() const { return node_->op; }
  bool is_constant() const { return node_->op == TermOp::Const; }
  std::optional<int64_t> constant_value() const;
  bool is_symbol() const { return node_->op == TermOp::Symbol; }
  bool nonneg() const { return node_->nonneg; }
  // Symbol name (only for symbols).
  const std::string& symbol_name() const;
  // Python-style text: `B*C`, `(H - 3)//2 + 1`, `(C if B == 1 else B)`.
  std::string str() const;

  friend bool operator==(const Dim& a, const Dim& b) { return a.node_ == b.node_; }
  friend bool operator!=(const Dim& a, const Dim& b) { return a.node_ != b.node_; }

 private:
  const TermNode* node_;
};

class Pred {
 public:
  Pred() : Pred(true) {}
  Pred(bool value);  // NOLINT
  explicit Pred(const TermNode* node) : node_(node) {}

  const TermNode* node() const { return node_; }
  bool is_constant() const { return node_->op == TermOp::BoolConst; }
  std::optional<bool> constant_value() const;
  bool is_true() const { return is_constant() && node_->value != 0; }
  bool is_false() const { return is_constant() && node_->value == 0; }
  std::string str() const;

  friend bool operator==(const Pred& a, const Pred& b) { return a.node_ == b.node_; }
  friend bool operator!=(const Pred& a, const Pred& b) { return a.node_ != b.node_; }

 private:
  const TermNode* node_;
};

// ---- symbols made between two points of an analysis
// The number of symbols made so far: a symbol's id (its node's value) is its
// index, so the symbols made between two readings have ids in that range.
std::size_t symbol_count();
// A fresh symbol like `s` (its name, sign and whether a rule made it).
Dim fresh_like(const Dim& s);
// `d` (or `p`) with each symbol for which `rename` gives a term replaced by it.
Dim rename_symbols(const Dim& d, const std::function<std::optional<Dim>(const Dim&)>& rename);
Pred rename_symbols(const Pred& p, const std::function<std::optional<Dim>(const Dim&)>& rename);

// ---- integer arithmetic (simplifying)
Dim operator+(const Dim& a, const Dim& b);
Dim operator-(const Dim& a, const Dim& b);
Dim operator-(const Dim& a);
Dim operator*(const Dim& a, const Dim& b);
Dim floordiv(const Dim& a, const Dim& b);  // Python a // b
Dim mod(const Dim& a, const Dim& b);       // Python a % b
Dim min(const Dim& a, const Dim& b);
Dim max(const Dim& a, const Dim& b);
Dim abs(const Dim& a);
// a / b when b is known to divide a and to be non-zero (a preceding
// obligation established it): cancels common factors, `B*C*H*W / B` → `C*H*W`.
Dim exact_div(const Dim& a, const Dim& b);
Dim product(const std::vector<Dim>& dims);
Dim sum(const std::vector<Dim>& dims);

// ---- conditions (simplifying; comparisons fold when the difference is constant)
Pred eq(const Dim& a, const Dim& b);
Pred ne(const Dim& a, const Dim& b);
Pred lt(const Dim& a, const Dim& b);
Pred le(const Dim& a, const Dim& b);
Pred gt(const Dim& a, const Dim& b);
Pred ge(const Dim& a, const Dim& b);
Pred operator&&(const Pred& a, const Pred& b);
Pred operator||(const Pred& a, const Pred& b);
Pred operator!(const Pred& a);
Pred all_of(const std::vector<Pred>& preds);
Pred any_of(const std::vector<Pred>& preds);
Pred implies(const Pred& a, const Pred& b);

// Printing. A term longer than kMaxPrintedTerm characters prints the parts
// that do not fit as `…` (kCutMark). Distinct symbols of the same name print
// apart (`x.size(0)`, `x.size(0)#2`) within one term, or within every term
// printed while a SymbolNamingScope is open (a shape, a message).
constexpr std::size_t kMaxPrintedTerm = 300;
inline constexpr std::string_view kCutMark = "\u2026";

// Full terms (`--full-terms`): a term that the cap would cut prints in full
// instead, each compound part it shares in several places written once as a
// name defined after it (`(_1 if _1 != 1 else t) where _1 = ...`), so that
// its text stays proportional to the term's size (a chain of broadcasts
// shares its parts: printed as a tree it doubles per step). Terms the cap
// leaves whole print as without it. Process-wide: set it before analysing
// (the analysis renders its texts as it goes).
void set_full_terms(bool on);
bool full_terms();
// Whether a printed text holds a cut term (a `…`).
inline bool has_cut_term(std::string_view text) { return text.find(kCutMark) != std::string_view::npos; }

struct SymbolNames;
class SymbolNamingScope {
 public:
  SymbolNamingScope();
  ~SymbolNamingScope();
  SymbolNamingScope(const SymbolNamingScope&) = delete;
  SymbolNamingScope& operator=(const SymbolNamingScope&) = delete;

 private:
  std::unique_ptr<SymbolNames> names_;  // set in the outermost scope only
};

// Symbols occurring in a term, in id order (for models and "B is unknown").
std::vector<Dim> symbols_of(const TermNode* node);
// Number of interned nodes (for tests and statistics).
std::size_t interned_term_count();

}  // namespace gshape::gradual

template <>
struct std::hash<gshape::gradual::Dim> {
  std::size_t operator()(const gshape::gradual::Dim& d) const noexcept {
    return std::hash<const void*>()(d.node());
  }
};
