// Shapes: printing, numel, dim wrapping and broadcasting arithmetic.
#include "gradual/shape.h"

namespace gshape::gradual {

Shape Shape::of_constants(const std::vector<int64_t>& sizes) {
  std::vector<Dim> dims;
  dims.reserve(sizes.size());
  for (int64_t s : sizes) dims.emplace_back(s);
  return Shape(std::move(dims));
}

Shape Shape::fresh(const std::string& prefix, std::size_t rank) {
  std::vector<Dim> dims;
  for (std::size_t i = 0; i < rank; ++i) dims.push_back(Dim::symbol(prefix + ".size(" + std::to_string(i) + ")"));
  return Shape(std::move(dims));
}

Shape Shape::unknown_with_suffix(std::vector<Dim> suffix) {
  Shape s;
  s.suffix_ = std::move(suffix);
  return s;
}

std::optional<Dim> Shape::from_end(int64_t d) const {
  const std::vector<Dim>& known = known_suffix();
  int64_t n = static_cast<int64_t>(known.size());
  if (d >= 0 || -d > n) return std::nullopt;
  return known[static_cast<std::size_t>(n + d)];
}

Dim Shape::numel() const { return product(*dims_); }

std::optional<std::vector<int64_t>> Shape::constant_sizes() const {
  if (!dims_) return std::nullopt;
  std::vector<int64_t> out;
  for (const Dim& d : *dims_) {
    auto c = d.constant_value();
    if (!c) return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

std::string Shape::str() const {
  SymbolNamingScope names;  // `[x.size(0), x.size(0)#2]`: two sizes of one name
  if (!dims_) {
    std::string out = "[*";
    for (const Dim& d : suffix_) out += ", " + d.str();
    return out + "]";
  }
  std::string out = "[";
  for (std::size_t i = 0; i < dims_->size(); ++i) {
    if (i) out += ", ";
    out += (*dims_)[i].str();
  }
  return out + "]";
}

WrappedDim wrap_dim(const Dim& d, const Dim& rank, bool wrap_scalar) {
  Dim bound = wrap_scalar ? max(rank, 1) : rank;
  Pred in_range = le(-bound, d) && lt(d, bound);
  Dim index = Dim::ite(lt(d, 0), d + bound, d);
  return {in_range, index};
}

Pred broadcast_compatible(const Dim& a, const Dim& b) { return eq(a, b) || eq(a, 1) || eq(b, 1); }

Dim broadcast_dim(const Dim& a, const Dim& b) { return Dim::ite(eq(a, 1), b, a); }

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  if (!a.rank_known() || !b.rank_known()) return Shape::unknown();
  std::size_t n = std::max(a.rank(), b.rank());
  std::vector<Dim> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    // i counts from the right
    bool has_a = i < a.rank(), has_b = i < b.rank();
    Dim da = has_a ? a[a.rank() - 1 - i] : Dim(1);
    Dim db = has_b ? b[b.rank() - 1 - i] : Dim(1);
    out[n - 1 - i] = broadcast_dim(da, db);
  }
  return Shape(std::move(out));
}

}  // namespace gshape::gradual
