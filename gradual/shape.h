// A tensor's type: its shape. Either a known rank with one dimension term per
// axis, or an unknown rank (Dyn), printed `[*]`; an unknown rank may still
// know its last axes, `[*, 16]` (nn.Linear's output on an input of unknown
// rank), so that later checks on them can be proven.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "gradual/dim.h"

namespace gshape::gradual {

class Shape {
 public:
  // Unknown rank.
  Shape() = default;
  Shape(std::initializer_list<Dim> dims) : dims_(std::vector<Dim>(dims)) {}
  explicit Shape(std::vector<Dim> dims) : dims_(std::move(dims)) {}
  static Shape unknown() { return Shape(); }
  // Unknown rank ending with `suffix` (at least suffix.size() axes).
  static Shape unknown_with_suffix(std::vector<Dim> suffix);
  static Shape of(std::vector<Dim> dims) { return Shape(std::move(dims)); }
  static Shape of_constants(const std::vector<int64_t>& sizes);
  // Known rank, every axis a fresh size symbol named `<prefix>.size(i)`.
  static Shape fresh(const std::string& prefix, std::size_t rank);

  bool rank_known() const { return dims_.has_value(); }
  // The axes known from the right: every axis of a known rank, the known
  // last axes of an unknown one (none for `[*]`).
  const std::vector<Dim>& known_suffix() const { return dims_ ? *dims_ : suffix_; }
  // Size of axis `d` < 0 counted from the right, when known.
  std::optional<Dim> from_end(int64_t d) const;
  // Only when rank_known().
  std::size_t rank() const { return dims_->size(); }
  const std::vector<Dim>& dims() const { return *dims_; }
  const Dim& operator[](std::size_t i) const { return (*dims_)[i]; }
  // Product of the dims (only when rank_known(); 1 for a 0-d tensor).
  Dim numel() const;
  // The sizes when the rank and every dim are constants.
  std::optional<std::vector<int64_t>> constant_sizes() const;

  // `[B, 10]`, `[]` for 0-d, `[*]` for unknown rank, `[*, 16]` with known last axes.
  std::string str() const;

  friend bool operator==(const Shape& a, const Shape& b) { return a.dims_ == b.dims_ && a.suffix_ == b.suffix_; }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }

 private:
  std::optional<std::vector<Dim>> dims_;
  std::vector<Dim> suffix_;  // unknown rank only
};

// Python's dim wrapping: index `d` of a rank-`rank` tensor, negative from the
// end. `wrap_scalar`: a 0-d tensor accepts -1 and 0 like a 1-d one (most ops).
// Returns the in-range condition and the non-negative index.
struct WrappedDim {
  Pred in_range;
  Dim index;
};
WrappedDim wrap_dim(const Dim& d, const Dim& rank, bool wrap_scalar = true);

// Broadcasting one pair of axes (aligned from the right): the condition
// `a == b or a == 1 or b == 1` and the result axis `b if a == 1 else a`, which
// is exact for size 0 (1 with 0 gives 0) and folds to a constant or to the
// shared symbol whenever the sizes allow.
Pred broadcast_compatible(const Dim& a, const Dim& b);
Dim broadcast_dim(const Dim& a, const Dim& b);
// Result shape of broadcasting two known-rank shapes (conditions not checked);
// unknown rank if either rank is unknown (with no known axes).
Shape broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace gshape::gradual
