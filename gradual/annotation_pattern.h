// Shape annotations in jaxtyping's syntax: the dimension string of
// `Float[Tensor, "b c h w"]` parsed into one pattern per axis, and the
// annotation check of one boundary (a function's entry, a `return`, an
// annotated assignment) spelled as a rule name, so that the analysis and the
// runtime look up and run the very same rule (rules_annotation.cpp).
//
// Dimensions, as jaxtyping reads them: a name (`b`: bound on first use, equal
// on every later one), an integer (`784`), `_` or a name starting with `_`
// (any size, not bound), `...` (any number of axes), `*name` (any number of
// axes, bound as a whole), `#name` (1 or the name's size), and arithmetic
// over names and integers without spaces (`n+1`, `2*d`, `h*w`, `n//2`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gshape::gradual {

struct Rule;

// An arithmetic dimension (`2*d+1`): integers, names, + - * // and parentheses.
struct DimExpr {
  enum class Op : uint8_t { Literal, Name, Add, Sub, Mul, FloorDiv };
  Op op = Op::Literal;
  int64_t value = 0;
  std::string name;
  std::shared_ptr<DimExpr> lhs, rhs;
  void names(std::vector<std::string>& out) const;
};

struct DimPattern {
  enum class Kind : uint8_t {
    Literal,    // 784
    Name,       // b  (#b: broadcast)
    Anonymous,  // _, _b
    Variadic,   // *batch (bound) or ... (name empty)
    Expr,       // n+1
  };
  Kind kind = Kind::Anonymous;
  std::string name;     // Name / Variadic / Expr: the text
  int64_t value = 0;    // Literal
  bool broadcast = false;  // #name: 1 or the name's size
  std::shared_ptr<DimExpr> expr;  // Expr
};

struct TensorPattern {
  std::vector<DimPattern> dims;
  std::string text;  // as written (normalised spacing)
  bool has_variadic() const;
  std::size_t fixed_count() const;  // axes that are not variadic
  std::string display() const;      // "[b, 784]", "[*batch, c]"
};

// The pattern, or why jaxtyping would reject it (`error`).
struct PatternParse {
  std::optional<TensorPattern> pattern;
  std::string error;
};
PatternParse parse_dim_string(std::string_view text);

// One boundary's check: the operands it reads, in slot order. A `given`
// operand (a parameter's value at entry, read by a `return` or a local
// annotation) already passed its own check: it only binds names.
struct AnnotationOperand {
  std::string role;  // "argument x of forward", "the value returned by forward", "h"
  TensorPattern pattern;
  bool given = false;
};

struct AnnotationCheck {
  std::vector<AnnotationOperand> operands;
};

// "gshape.annotation:ROLE=DIMS|~ROLE=DIMS|..." (`~` marks a given operand).
constexpr std::string_view kAnnotationRulePrefix = "gshape.annotation:";
std::string annotation_rule_name(const AnnotationCheck& check);
std::optional<AnnotationCheck> parse_annotation_rule_name(std::string_view name);
bool is_annotation_rule(std::string_view name);

// The rule for an annotation rule name (built once per name and kept for the
// process' life); nullptr for a malformed name.
const Rule* annotation_rule(std::string_view name);

}  // namespace gshape::gradual
