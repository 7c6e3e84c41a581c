// Diagnostic text of a runtime check: literal text with `{expr}` holes (an
// expression of the constraint language) and `{shape K}` holes (slot K's
// shape as `[64, 120]`); `{{` and `}}` are literal braces. Parsed once,
// rendered only when a check fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/constraint.h"
#include "runtime/operand.h"

namespace gshape::runtime {

class MessageTemplate {
 public:
  // Throws ConstraintSyntaxError whose offset is in the message text.
  static MessageTemplate parse(std::string_view text);

  // Appends the message with every hole filled; a hole that is not
  // evaluable on these operands renders as `?`.
  void render(std::string& out, const Operand* operands, std::size_t count) const;
  // One past the largest slot any hole reads.
  std::size_t slot_count() const { return slot_count_; }
  // See Expr::resolve_attrs.
  void resolve_attrs(const std::function<uint32_t(uint16_t slot, const std::string& name)>& index_of) {
    for (Expr& hole : holes_) hole.resolve_attrs(index_of);
  }

 private:
  enum class PartKind : uint8_t { Literal, Expression, Shape };
  struct Part {
    PartKind kind;
    std::string literal;    // Literal
    std::size_t index = 0;  // Expression: index into holes_; Shape: the slot
  };
  std::vector<Part> parts_;
  std::vector<Expr> holes_;
  std::size_t slot_count_ = 0;
};

// `[64, 120]` for a tensor or a sequence of ints; the value for an int;
// `?` for anything else.
void append_shape(std::string& out, const Operand& operand);
// One entry of the operand list after a failed check's message:
// `input shape [64, 120]`, `kernel_size = (3, 3)`, `groups = 4` ...
void append_description(std::string& out, std::string_view name, const Operand& operand);

}  // namespace gshape::runtime
