// The operand-level constraint language, shared with the runtime:
//
//   e := INT | (size K D) | (dim K) | (numel K) | (int K) | (len K) | (item K I)
//      | (attr K NAME)
//      | (+ e e) | (- e e) | (* e e) | (// e e) | (% e e) | (min e e) | (max e e)
//      | (neg e) | (abs e)
//      | (== e e) | (!= e e) | (< e e) | (<= e e) | (> e e) | (>= e e)
//      | (and e…) | (or e…) | (not e) | (ite e e e) | (true) | (false)
//
// K is an operand slot of the call site, D a dimension (negative from the
// end), I an element index; `//` and `%` floor. A rule states each constraint
// once as an IntTerm/BoolTerm: the s-expression for the runtime paired with
// its static value (a Dim/Pred over the abstract operands), built together.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gradual/dim.h"

namespace gshape::gradual {

enum class COp : uint8_t {
  Int, True, False,
  // operand accessors
  Size, Rank, Numel, IntOf, Len, Item, Attr,
  // a value the runtime cannot reach (no operand slot): static only
  Opaque,
  Add, Sub, Mul, FloorDiv, Mod, Min, Max, Neg, Abs,
  Eq, Ne, Lt, Le, Gt, Ge, And, Or, Not, Ite,
};

struct CNode;
using CExpr = std::shared_ptr<const CNode>;

struct CNode {
  COp op = COp::Int;
  int64_t value = 0;   // Int: the literal; Size: D; Item: I
  int slot = -1;       // accessors: K
  std::string name;    // Attr: attribute name; Opaque: what it stands for
  std::vector<CExpr> args;
  bool has_operand = false;  // an accessor or Opaque occurs below
  bool has_opaque = false;   // an Opaque occurs below: not checkable at run time
};

// Raw builders (no static value); IntTerm/BoolTerm below are what rules use.
namespace cx {
CExpr lit(int64_t v);
CExpr boolean(bool v);
CExpr size(int slot, int64_t d);
CExpr rank(int slot);
CExpr numel(int slot);
CExpr int_of(int slot);
CExpr len(int slot);
CExpr item(int slot, int64_t index);
CExpr attr(int slot, std::string name);
CExpr opaque(std::string what);
CExpr op(COp op, std::vector<CExpr> args);
}  // namespace cx

// The runtime's syntax, e.g. `(== (size 1 -1) 80)`. An Opaque leaf prints as
// `(opaque "what")`, which the runtime rejects: such constraints are never
// sent to it (Obligation::runtime_checkable is false).
std::string to_sexpr(const CExpr& e);
// Parses the runtime's syntax (and `(opaque "…")`); nullptr with `error` set
// when malformed.
CExpr parse_sexpr(std::string_view text, std::string* error = nullptr);

// How accessors resolve statically. An accessor that cannot be resolved
// (unknown rank, opaque operand) must return a fresh symbol: unknown never
// yields a static error.
class OperandEnv {
 public:
  virtual ~OperandEnv() = default;
  virtual Dim size(int slot, int64_t d) = 0;
  virtual Dim rank(int slot) = 0;
  virtual Dim numel(int slot) = 0;
  virtual Dim int_value(int slot) = 0;
  virtual Dim len(int slot) = 0;
  virtual Dim item(int slot, int64_t index) = 0;
  virtual Dim attr(int slot, const std::string& name) = 0;
};

// Static evaluation of a constraint against abstract operands. Booleans used
// as integers are 0/1; integers used as booleans are `!= 0`.
Dim eval_int(const CExpr& e, OperandEnv& env);
Pred eval_bool(const CExpr& e, OperandEnv& env);

// An integer constraint term: the runtime expression and its static value.
class IntTerm {
 public:
  IntTerm(int64_t literal);  // NOLINT: literals convert implicitly
  IntTerm(int literal) : IntTerm(static_cast<int64_t>(literal)) {}
  IntTerm(CExpr expr, Dim dim) : expr_(std::move(expr)), dim_(dim) {}
  // A value known only statically (no operand reaches it at run time).
  static IntTerm opaque(const Dim& dim, std::string what);

  const CExpr& expr() const { return expr_; }
  const Dim& dim() const { return dim_; }
  std::string sexpr() const { return to_sexpr(expr_); }
  bool is_literal() const { return expr_->op == COp::Int; }

 private:
  CExpr expr_;
  Dim dim_;
};

class BoolTerm {
 public:
  BoolTerm(bool literal);  // NOLINT
  BoolTerm(CExpr expr, Pred pred) : expr_(std::move(expr)), pred_(pred) {}

  const CExpr& expr() const { return expr_; }
  const Pred& pred() const { return pred_; }
  std::string sexpr() const { return to_sexpr(expr_); }

 private:
  CExpr expr_;
  Pred pred_;
};

IntTerm operator+(const IntTerm& a, const IntTerm& b);
IntTerm operator-(const IntTerm& a, const IntTerm& b);
IntTerm operator*(const IntTerm& a, const IntTerm& b);
IntTerm operator-(const IntTerm& a);
IntTerm floordiv(const IntTerm& a, const IntTerm& b);
IntTerm mod(const IntTerm& a, const IntTerm& b);
IntTerm min(const IntTerm& a, const IntTerm& b);
IntTerm max(const IntTerm& a, const IntTerm& b);
IntTerm abs(const IntTerm& a);
IntTerm ite(const BoolTerm& c, const IntTerm& a, const IntTerm& b);
IntTerm product(const std::vector<IntTerm>& terms);
IntTerm sum(const std::vector<IntTerm>& terms);

BoolTerm eq(const IntTerm& a, const IntTerm& b);
BoolTerm ne(const IntTerm& a, const IntTerm& b);
BoolTerm lt(const IntTerm& a, const IntTerm& b);
BoolTerm le(const IntTerm& a, const IntTerm& b);
BoolTerm gt(const IntTerm& a, const IntTerm& b);
BoolTerm ge(const IntTerm& a, const IntTerm& b);
BoolTerm operator&&(const BoolTerm& a, const BoolTerm& b);
BoolTerm operator||(const BoolTerm& a, const BoolTerm& b);
BoolTerm operator!(const BoolTerm& a);
BoolTerm all_of(const std::vector<BoolTerm>& terms);
BoolTerm any_of(const std::vector<BoolTerm>& terms);
BoolTerm implies(const BoolTerm& a, const BoolTerm& b);

// Slots an expression reads, sorted and unique.
std::vector<int> slots_of(const CExpr& e);

}  // namespace gshape::gradual
