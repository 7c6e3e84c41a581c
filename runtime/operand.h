// What a check may know about one operand: a summary of its shape (or int
// value) taken when the operand passes through stash()/check(). The runtime
// never keeps the Python object itself, so it keeps no tensor alive and
// never reads tensor data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gshape::runtime {

enum class OperandKind : uint8_t {
  Unset,   // nothing recorded for this slot in the current evaluation
  Tensor,  // a torch.Tensor (or subclass): `dims` holds its sizes
  Size,    // a torch.Size: `dims` holds its items
  Tuple,   // a tuple: `dims` holds its int items (see `item_is_int`)
  List,    // a list: likewise
  Int,     // a Python int that fits in 64 bits: `value`
  Bool,    // a Python bool: `value` is 0 or 1
  Other,   // anything else (None, a float, a 0-d shape we could not read ...)
};

// Sequences longer than this keep their length but not their items: no
// shape has that many dimensions, and copying long lists would cost time.
inline constexpr std::size_t kMaxRecordedItems = 64;

struct Operand {
  OperandKind kind = OperandKind::Unset;
  // Identity of the Python frame that recorded the operand: a check only
  // trusts operands recorded by its own activation (see check_table.h).
  const void* frame = nullptr;
  int64_t value = 0;
  int64_t length = 0;                 // sequences: len(); tensors: rank
  std::vector<int64_t> dims;          // tensor sizes or recorded sequence items
  std::vector<uint8_t> item_is_int;   // sequences: 1 where dims[i] is an int item
  bool all_items_int = false;         // sequences: every item recorded and an int
  // Integer attributes the checks read with (attr K NAME), named once at
  // table construction and read from the object at every recording.
  std::vector<std::string> attr_names;
  std::vector<int64_t> attr_values;
  std::vector<uint8_t> attr_known;

  Operand() {
    dims.reserve(8);
    item_is_int.reserve(8);
  }

  bool is_sequence() const {
    return kind == OperandKind::Size || kind == OperandKind::Tuple || kind == OperandKind::List;
  }
  bool is_int() const { return kind == OperandKind::Int || kind == OperandKind::Bool; }
  // A tensor, or a sequence of ints read as a shape (torch.Size, (64, 784)).
  bool is_shape() const { return kind == OperandKind::Tensor || (is_sequence() && all_items_int); }
  // Has a len(): a tensor (len of a 0-d tensor is not evaluable) or a sequence.
  bool is_sized() const { return kind == OperandKind::Tensor || is_sequence(); }

  void set_unset() { kind = OperandKind::Unset; frame = nullptr; }
  // Where NAME's value is kept, adding NAME when it is new.
  uint32_t attr_index(const std::string& name) {
    for (std::size_t i = 0; i < attr_names.size(); ++i)
      if (attr_names[i] == name) return static_cast<uint32_t>(i);
    attr_names.push_back(name);
    attr_values.push_back(0);
    attr_known.push_back(0);
    return static_cast<uint32_t>(attr_names.size() - 1);
  }
};

}  // namespace gshape::runtime
