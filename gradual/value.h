// Abstract values: what the analysis knows about a Python value. Rules receive
// them as arguments and return them as results; the interpreter uses the same
// type for its variables (ints, tuples, None, strings, tensors, objects).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/source.h"
#include "gradual/dim.h"
#include "gradual/shape.h"

namespace gshape::gradual {

enum class ValueKind : uint8_t {
  Unknown,   // nothing known (Dyn): never a source of static errors
  None,
  Bool,      // a Pred (constant or symbolic)
  Int,       // a Dim (constant or symbolic)
  Float,     // value when constant
  Str,       // value when constant
  Sequence,  // tuple, list or torch.Size; items or an unknown length
  Tensor,    // a Shape
  Object,    // anything else with a class and attributes (modules, ranges, ...)
};

enum class SequenceKind : uint8_t { Tuple, List, Size };

// What a tensor's elements are, as far as indexing needs it: a tensor used
// as an index is a mask (bool, or uint8 as PyTorch 1.13 still accepts) or
// positions (int64); anything else PyTorch refuses as an index. Known only
// where an op fixes it (comparisons give Bool, argmax Int64 ...); Unknown
// everywhere else, and always exact at run time.
enum class Dtype : uint8_t { Unknown, Bool, Uint8, Int64, Other };

struct ObjectValue;

// Why a value is unknown, for the review's "not proven" (docs/analysis.md,
// "Why a value is unknown"): data the program reads when it runs, or a limit
// of the analysis (a call without a rule, a callee it cannot resolve, an
// earlier error). A value carries it wherever it flows (parameters,
// attributes, returns); it explains, it is never part of what the value is.
struct UnknownCause {
  enum class Kind : uint8_t {
    RunTimeData,  // read when the program runs: a file, a dataset, input()
    Error,        // an earlier static error: the analysis goes on without the value
    NoRule,       // a call of an op or library function without a rule
    Unresolved,   // a callee the analysis cannot resolve
    Layers,       // a module container whose layers the analysis cannot list
    Library,      // a library call (numpy, PIL, gym ...) the analysis does not model
  };
  Kind kind = Kind::Unresolved;
  SourceLoc at;       // the call (or error) it comes from
  std::string text;   // "`torch.load(path)` at 9:14, which reads data when the program runs"
  std::string alone;  // said of that call itself: "torch.fft.rfft has no rule" ("" for an error)
};

// The word the review and JSON use for a cause's kind ("run-time data", "no rule" ...).
const char* cause_kind_name(UnknownCause::Kind kind);

class Value {
 public:
  Value() = default;  // Unknown
  static Value unknown() { return Value(); }
  // Nothing known, but if it is an int it is `d`: a parameter of a function
  // analysed without callers, so that its uses as a size stay related
  // (`nn.Linear(dim, 4 * dim)` then `nn.Linear(4 * dim, dim)`).
  static Value unknown_int(const Dim& d);
  static Value none();
  static Value boolean(const Pred& p);
  static Value integer(const Dim& d);
  static Value floating(std::optional<double> v = std::nullopt);
  static Value string(std::optional<std::string> v = std::nullopt);
  static Value tensor(Shape shape);
  // A tensor whose memory layout is known only so far: `contiguous` false
  // when it may not be (after a transpose, an expand, a slice, or of unknown
  // origin); `strides` when they are known (a run-time observation).
  static Value tensor(Shape shape, bool contiguous, std::vector<int64_t> strides = {});
  static Value sequence(SequenceKind kind, std::vector<Value> items);
  static Value tuple(std::vector<Value> items) { return sequence(SequenceKind::Tuple, std::move(items)); }
  static Value list(std::vector<Value> items) { return sequence(SequenceKind::List, std::move(items)); }
  // torch.Size of a shape (each axis an Int); unknown length for an unknown rank.
  static Value size_of(const Shape& shape);
  // A sequence whose length is unknown; every item is like `element`.
  // `uniform`: every item has exactly the element's sizes (the pieces of
  // an even split, unbind's slices); otherwise items may differ, and each
  // drawn one gets its own sizes (Interpreter::some_item).
  static Value unknown_length(SequenceKind kind, Value element, bool uniform = false);
  static Value object(std::shared_ptr<ObjectValue> obj);

  ValueKind kind() const { return kind_; }
  bool is_unknown() const { return kind_ == ValueKind::Unknown; }
  bool is_none() const { return kind_ == ValueKind::None; }
  bool is_bool() const { return kind_ == ValueKind::Bool; }
  bool is_int() const { return kind_ == ValueKind::Int; }
  bool is_float() const { return kind_ == ValueKind::Float; }
  bool is_str() const { return kind_ == ValueKind::Str; }
  bool is_sequence() const { return kind_ == ValueKind::Sequence; }
  bool is_tensor() const { return kind_ == ValueKind::Tensor; }
  bool is_object() const { return kind_ == ValueKind::Object; }

  // The int this value is (an Int), or is if it is an int at all (an
  // unknown's hint); nullopt otherwise.
  std::optional<Dim> int_view() const;
  const Pred& as_bool() const { return pred_; }
  const Dim& as_int() const { return dim_; }
  const std::optional<double>& as_float() const { return float_; }
  const std::optional<std::string>& as_str() const { return str_; }
  const Shape& shape() const { return shape_; }
  // Tensors: known to be laid out contiguously (the default for a tensor a
  // rule computes from contiguous operands); the actual strides, when known.
  bool contiguous() const { return contiguous_; }
  const std::vector<int64_t>* strides() const { return strides_.get(); }
  // The same tensor value with another layout.
  Value with_contiguous(bool contiguous) const;
  // Tensors: what the elements are (Dtype::Unknown unless an op fixed it).
  Dtype dtype() const { return dtype_; }
  Value with_dtype(Dtype dtype) const;
  SequenceKind sequence_kind() const { return seq_kind_; }
  // Items of a sequence of known length; nullptr when the length is unknown.
  const std::vector<Value>* items() const { return items_.get(); }
  // The item template of a sequence of unknown length.
  const Value* element() const { return element_.get(); }
  bool uniform_items() const { return uniform_; }
  // Sequences: the storage that identifies this list (lists are values, so
  // two holders of one Python list share it), and the storages of the lists
  // it may be besides (a join of two lists is either one: `t = a if c else b`).
  const void* storage() const { return items_ ? static_cast<const void*>(items_.get()) : element_.get(); }
  const std::vector<const void*>* may_be() const { return may_be_.get(); }
  Value with_may_be(std::vector<const void*> storages) const;
  const std::shared_ptr<ObjectValue>& as_object() const { return object_; }

  // Debug text: `Tensor[B, 10]`, `3`, `B`, `(2, 3)`, `None`, `?`.
  std::string str() const;

  // Why the value (or its shape) is unknown, when the analysis knows; null otherwise.
  const std::shared_ptr<const UnknownCause>& cause() const { return cause_; }
  Value with_cause(std::shared_ptr<const UnknownCause> cause) const {
    Value v = *this;
    v.cause_ = std::move(cause);
    return v;
  }

 private:
  ValueKind kind_ = ValueKind::Unknown;
  SequenceKind seq_kind_ = SequenceKind::Tuple;
  Dim dim_;
  Pred pred_;
  std::optional<double> float_;
  std::optional<std::string> str_;
  Shape shape_;
  bool contiguous_ = true;
  Dtype dtype_ = Dtype::Unknown;
  bool int_hint_ = false;  // Unknown: dim_ is its value if it is an int
  bool uniform_ = false;   // Sequence of unknown length: see unknown_length
  std::shared_ptr<const std::vector<int64_t>> strides_;
  std::shared_ptr<const std::vector<Value>> items_;
  std::shared_ptr<const Value> element_;
  std::shared_ptr<ObjectValue> object_;
  std::shared_ptr<const UnknownCause> cause_;
  std::shared_ptr<const std::vector<const void*>> may_be_;
};

// An instance of a class the rules know (an nn.Module, a range, ...). The
// interpreter may subclass it for its own objects; attributes are what rules
// read (`in_features`) and what `(attr K name)` reads at run time.
struct ObjectValue {
  std::string class_name;  // qualified: "torch.nn.Linear", "builtins.range"
  std::map<std::string, Value> attributes;

  ObjectValue() = default;
  explicit ObjectValue(std::string cls) : class_name(std::move(cls)) {}
  virtual ~ObjectValue() = default;
  const Value* attribute(const std::string& name) const;
};

}  // namespace gshape::gradual
