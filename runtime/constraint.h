// The constraint language of runtime checks: s-expressions over operand
// sizes, parsed once (at check-table construction) into a flat tree and
// evaluated on every call with three-valued results (true / false / not
// evaluable). The grammar and its semantics are in docs/runtime.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/operand.h"

namespace gshape::runtime {

// A malformed constraint; `offset` is the byte offset in the text where the
// problem was found.
class ConstraintSyntaxError : public std::runtime_error {
 public:
  ConstraintSyntaxError(const std::string& what, std::size_t offset)
      : std::runtime_error(what), offset_(offset) {}
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

// The result of an expression: an integer (booleans are 0 / 1), or "not
// evaluable" (`known == false`) when an operand does not have what the
// expression reads, a dimension or index is out of range, a division is by
// zero or a 64-bit operation overflows.
struct Value {
  int64_t v = 0;
  bool known = false;
};

// What a constraint needs an operand slot to hold. If a slot does not hold
// that kind of value, the whole check is not evaluable (see check_table.h).
enum class Need : uint8_t {
  Shape,     // (size K D) (dim K) (numel K): a tensor or a sequence of ints
  Int,       // (int K): a Python int or bool
  Sized,     // (len K): a tensor or a sequence
  Sequence,  // (item K I): a tuple, list or torch.Size
  Object,    // (attr K NAME): any recorded value (its attribute is read at record time)
};
struct SlotNeed {
  uint16_t slot;
  Need need;
};

// Largest operand slot index a constraint may name.
inline constexpr int64_t kMaxSlot = 255;

class Expr {
 public:
  // Parses one expression spanning all of `text` (surrounding blanks
  // allowed). Throws ConstraintSyntaxError.
  static Expr parse(std::string_view text);

  Value evaluate(const Operand* operands, std::size_t count) const;
  // True when the expression is a condition (comparison, and/or/not ...),
  // false when it is an integer.
  bool is_condition() const { return nodes_[root_].is_bool; }
  // Every slot the expression reads, with what it needs there (no duplicates).
  const std::vector<SlotNeed>& needs() const { return needs_; }
  // One past the largest slot read (0 when it reads none).
  std::size_t slot_count() const { return slot_count_; }

  // The (attr K NAME) reads, in order of appearance.
  struct AttrRead {
    uint16_t slot;
    std::string name;
  };
  const std::vector<AttrRead>& attr_reads() const { return attr_reads_; }
  // Tells each (attr K NAME) where operand K keeps NAME's value (an index
  // into Operand::attr_values); the check table calls it once at construction.
  void resolve_attrs(const std::function<uint32_t(uint16_t slot, const std::string& name)>& index_of);

 private:
  enum class Op : uint8_t {
    Const, Size, Dim, Numel, Int, Len, Item, Attr,
    Add, Sub, Mul, FloorDiv, Mod, Min, Max, Neg, Abs,
    Eq, Ne, Lt, Le, Gt, Ge,
    And, Or, Not, Ite,
  };
  struct Node {
    Op op;
    bool is_bool;
    uint16_t slot;         // operand readers
    uint32_t first_child;  // index into children_
    uint32_t child_count;
    int64_t imm;           // Const value, Size dim, Item index, Attr value index
  };
  class Parser;

  Value eval(uint32_t node, const Operand* operands, std::size_t count) const;

  std::vector<Node> nodes_;
  std::vector<uint32_t> children_;
  uint32_t root_ = 0;
  std::vector<SlotNeed> needs_;
  std::size_t slot_count_ = 0;
  std::vector<AttrRead> attr_reads_;
  std::vector<uint32_t> attr_nodes_;  // node index of each attr read
};

}  // namespace gshape::runtime
