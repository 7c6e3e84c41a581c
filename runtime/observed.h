// What the runtime keeps of one operand: a summary of the Python value taken
// when it passes through stash()/check() — a tensor's sizes, an int's value,
// a sequence's items, a module's hyperparameters — never the object itself,
// so no tensor is kept alive and no tensor data is read. Plain C++: the
// Python side (python_observe.h) fills it, rule_check.h turns it into the
// analysis' Value and runs the operator's rule on it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gshape::runtime {

enum class ObservedKind : uint8_t {
  Unset,   // nothing recorded for this slot in the current evaluation
  Tensor,  // `dims` holds the sizes, `strides` the strides
  Int,     // `value`
  Bool,    // `value` is 0 or 1
  Float,   // `real`
  Str,     // `text`
  None,
  Tuple,   // `items`
  List,    // `items`
  Size,    // a torch.Size: `items` are Ints
  Dict,    // str keys in `names`, values in `items`
  Module,  // an nn.Module with a rule: `module` holds its snapshot, `value`
           // the snapshot's id (python_observe.cpp)
  Other,   // anything else: unknown to the rules (`text` "slice" or
           // "ellipsis" for those items of an index; a slice's `items` are
           // its start, stop and step)
};

// Sequences longer than this keep only their length: no rule reads that many
// items, and copying long lists would cost time on every call.
inline constexpr std::size_t kMaxObservedItems = 64;
// Nested sequences deeper than this are Other.
inline constexpr int kMaxObservedDepth = 4;

struct Observed {
  ObservedKind kind = ObservedKind::Unset;
  int64_t value = 0;
  double real = 0;
  int64_t length = 0;               // sequences: len(), even when items were not kept
  bool items_kept = true;           // false: longer than kMaxObservedItems
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;     // tensors
  bool contiguous = true;           // tensors: is_contiguous()
  // tensors: what the elements are, as gradual::Dtype (an index tensor is a
  // mask or positions); read from the dtype, never from the data
  uint8_t dtype = 0;
  std::string text;
  std::vector<std::string> names;
  std::vector<Observed> items;
  // Module: the snapshot, shared with the cache of module snapshots: `text`
  // its class ("torch.nn.Linear"), `names`/`items` its hyperparameters,
  // parameters and buffers. The same id means the same snapshot.
  std::shared_ptr<const Observed> module;

  bool is_tensor() const { return kind == ObservedKind::Tensor; }
  bool is_sequence() const {
    return kind == ObservedKind::Tuple || kind == ObservedKind::List || kind == ObservedKind::Size;
  }
  void reset(ObservedKind k) {
    kind = k;
    dims.clear();
    strides.clear();
    contiguous = true;
    dtype = 0;
    text.clear();
    names.clear();
    items.clear();
    module.reset();
    length = 0;
    items_kept = true;
  }

  // Appends an exact encoding of the summary to `key`: two summaries with the
  // same encoding give every rule the same operands (the verdict cache's key).
  void append_key(std::string& key) const;
  // How a failure message shows the operand: `shape [64, 120]`, `= 3`,
  // `= (3, 3)`, `is nn.Linear(...)`.
  std::string describe() const;
};

// `[64, 120]` (`[]` for 0-d).
std::string shape_text(const std::vector<int64_t>& dims);

}  // namespace gshape::runtime
