// Helpers shared by the rules: dim wrapping, sizes at a dim, broadcasting,
// reductions and view's size inference, each emitting the caller's tags.
#include <algorithm>

#include "gradual/rules.h"

namespace gshape::gradual {

std::string op_short_name(const std::string& rule_name) {
  std::string name = rule_name;
  std::size_t dot = name.rfind('.');
  if (dot != std::string::npos && name.substr(dot + 1) == "forward") name = name.substr(0, dot);
  dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

std::optional<std::size_t> require_dim(RuleContext& ctx, const std::string& tag, const Arg& t, const IntTerm& dim,
                                       bool wrap_scalar, int64_t extra) {
  IntTerm r = ctx.rank(t) + extra;
  IntTerm bound = wrap_scalar ? max(r, 1) : r;
  BoolTerm in_range = le(-bound, dim) && lt(dim, bound);
  Message m;
  m << "dimension out of range (expected to be in range of [" << -bound << ", " << bound - 1 << "], but got " << dim
    << ")";
  if (ctx.require(tag, in_range, m) == Status::Refuted) return std::nullopt;
  auto b = bound.dim().constant_value();
  auto d = dim.dim().constant_value();
  if (!b || !d) return std::nullopt;
  return static_cast<std::size_t>(*d < 0 ? *d + *b : *d);
}

std::vector<IntTerm> int_terms(RuleContext& ctx, const std::vector<Arg>& args) {
  std::vector<IntTerm> out;
  for (const Arg& a : args) out.push_back(ctx.int_term(a));
  return out;
}

std::optional<IntTerm> size_at(RuleContext& ctx, const Arg& t, std::optional<std::size_t> idx, const IntTerm& dim) {
  if (idx) return ctx.size(t, static_cast<int64_t>(*idx));
  if (!t.shape().rank_known() && dim.is_literal()) return ctx.size(t, dim.expr()->value);
  return std::nullopt;
}

std::optional<IntTerm> nonempty_size_at(RuleContext& ctx, const Arg& t, std::optional<std::size_t> idx,
                                        const IntTerm& dim) {
  if (t.shape().rank_known() && t.shape().rank() == 0) return IntTerm(1);
  return size_at(ctx, t, idx, dim);
}

Shape with_axis(const Shape& in, std::size_t axis, const Dim& d) {
  std::vector<Dim> out = in.dims();
  out[axis] = d;
  return Shape(std::move(out));
}

std::vector<IntTerm> sizes_from_end(RuleContext& ctx, const Arg& t) {
  std::vector<IntTerm> out;
  int64_t r = static_cast<int64_t>(t.shape().rank());
  for (int64_t i = 0; i < r; ++i) out.push_back(ctx.size(t, i - r));
  return out;
}

std::vector<IntTerm> broadcast_terms(RuleContext& ctx, const std::string& tag, const std::vector<IntTerm>& a,
                                     const std::vector<IntTerm>& b) {
  std::size_t n = std::max(a.size(), b.size());
  std::vector<IntTerm> out(n, IntTerm(1));
  for (std::size_t k = 0; k < n; ++k) {  // k counts axes from the right
    std::size_t axis = n - 1 - k;
    if (k >= a.size()) {
      out[axis] = b[b.size() - 1 - k];
      continue;
    }
    if (k >= b.size()) {
      out[axis] = a[a.size() - 1 - k];
      continue;
    }
    const IntTerm& x = a[a.size() - 1 - k];
    const IntTerm& y = b[b.size() - 1 - k];
    BoolTerm ok = eq(x, y) || eq(x, 1) || eq(y, 1);  // broadcast_c1-style check
    Message m;
    m << "the size of tensor a (" << x << ") must match the size of tensor b (" << y
      << ") at non-singleton dimension " << std::to_string(axis);
    ctx.require(tag, ok, m);
    out[axis] = ite(eq(x, 1), y, x);
  }
  return out;
}

Shape shape_of_terms(const std::vector<IntTerm>& terms) {
  std::vector<Dim> dims;
  dims.reserve(terms.size());
  for (const IntTerm& t : terms) dims.push_back(t.dim());
  return Shape(std::move(dims));
}

void append_list(Message& m, const std::vector<IntTerm>& terms) {
  m << "[";
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i) m << ", ";
    m << terms[i];
  }
  m << "]";
}

namespace {

// How many last axes `t` certainly has, as far as broadcasting it with
// `other` needs: all of a known rank; for an unknown rank, its known last
// axes, or up to as many as other's known axes where the facts settle
// t.dim() >= k (an earlier check such as nn.Linear's made it so).
std::size_t axes_known_to_exist(RuleContext& ctx, const Arg& t, const Arg& other) {
  if (t.shape().rank_known()) return t.shape().rank();
  std::size_t known = t.shape().known_suffix().size();
  std::size_t limit = other.shape().rank_known() ? other.shape().rank() : other.shape().known_suffix().size();
  std::size_t k = known;
  while (k < limit && ctx.settle(ge(ctx.rank(t), static_cast<int64_t>(k + 1)).pred()) == true) ++k;
  return k;
}

}  // namespace

Shape broadcast_args(RuleContext& ctx, const std::string& tag, const Arg& a, const Arg& b) {
  bool ta = a.is_tensor(), tb = b.is_tensor();
  if (ta && tb) {
    if (!a.shape().rank_known() || !b.shape().rank_known()) {
      // a rank is unknown: the last axes both operands have are broadcast
      // (and checked); the result's other axes are unknown
      std::size_t n = std::min(axes_known_to_exist(ctx, a, b), axes_known_to_exist(ctx, b, a));
      std::vector<Dim> out;
      for (std::size_t k = n; k >= 1; --k) {
        int64_t axis = -static_cast<int64_t>(k);
        IntTerm x = ctx.size(a, axis), y = ctx.size(b, axis);
        Message m;
        m << "the size of tensor a (" << x << ") must match the size of tensor b (" << y
          << ") at non-singleton dimension " << std::to_string(axis);
        ctx.require(tag, eq(x, y) || eq(x, 1) || eq(y, 1), m);
        Dim size = ite(eq(x, 1), y, x).dim();
        // `ff(x) + x` after nn.Linear(dim, dim) checked x.size(-1) == dim:
        // the sizes are equal; the axis is named as the operand that knows it
        if (!size.is_constant() && x.dim() != y.dim() && ctx.settle(eq(x, y).pred()) == true)
          size = k <= a.shape().known_suffix().size() ? x.dim() : y.dim();
        out.push_back(size);
      }
      return Shape::unknown_with_suffix(std::move(out));
    }
    return shape_of_terms(broadcast_terms(ctx, tag, sizes_from_end(ctx, a), sizes_from_end(ctx, b)));
  }
  // an unknown operand may be a tensor of any shape
  if ((ta && b.value.is_unknown()) || (tb && a.value.is_unknown())) return Shape::unknown();
  if (ta) return a.shape();
  if (tb) return b.shape();
  return Shape::unknown();
}

void require_broadcastable_to(RuleContext& ctx, const std::string& tag, const Arg& self, const Arg& other) {
  if (!other.is_tensor() || !self.is_tensor()) return;
  if (!self.shape().rank_known() || !other.shape().rank_known()) return;
  std::size_t rs = self.shape().rank(), ro = other.shape().rank();
  if (ro > rs) {
    Message m;
    m << other.role << " with shape " << ctx.shape_hole(other) << " cannot be broadcast to the shape "
      << ctx.shape_hole(self) << " of " << self.role;
    ctx.require(tag, le(ctx.rank(other), ctx.rank(self)), m);
    return;
  }
  std::vector<IntTerm> xs = sizes_from_end(ctx, self), ys = sizes_from_end(ctx, other);
  for (std::size_t k = 0; k < ro; ++k) {
    const IntTerm& x = xs[rs - 1 - k];
    const IntTerm& y = ys[ro - 1 - k];
    Message m;
    m << other.role << " with shape " << ctx.shape_hole(other) << " cannot be broadcast to the shape "
      << ctx.shape_hole(self) << " of " << self.role << ": size " << y << " against " << x << " at dimension "
      << std::to_string(rs - 1 - k);
    ctx.require(tag, eq(y, x) || eq(y, 1), m);
  }
}

Shape reduce_shape(RuleContext& ctx, const std::string& range_tag, const std::string& distinct_tag, const Arg& t,
                   const std::vector<Arg>& dims, bool keepdim) {
  const Shape& in = t.shape();
  if (dims.empty()) {
    if (!in.rank_known()) return Shape::unknown();
    return keepdim ? Shape(std::vector<Dim>(in.rank(), Dim(1))) : Shape(std::vector<Dim>{});
  }
  std::vector<std::optional<std::size_t>> idx;
  std::vector<IntTerm> wrapped;
  IntTerm bound = max(ctx.rank(t), 1);
  for (const Arg& d : dims) {
    IntTerm dt = ctx.int_term(d);
    idx.push_back(require_dim(ctx, range_tag, t, dt));
    wrapped.push_back(ite(lt(dt, 0), dt + bound, dt));
  }
  if (dims.size() > 1) {
    std::vector<BoolTerm> distinct;
    for (std::size_t i = 0; i < wrapped.size(); ++i)
      for (std::size_t j = i + 1; j < wrapped.size(); ++j) distinct.push_back(ne(wrapped[i], wrapped[j]));
    Message m;
    m << "a dim appears multiple times in the list of dims ";
    append_list(m, wrapped);
    ctx.require(distinct_tag, all_of(distinct), m);
  }
  if (!in.rank_known() || std::any_of(idx.begin(), idx.end(), [](const auto& i) { return !i; })) return Shape::unknown();
  std::vector<Dim> out;
  for (std::size_t i = 0; i < in.rank(); ++i) {
    bool reduced = std::any_of(idx.begin(), idx.end(), [i](const auto& j) { return *j == i; });
    if (!reduced) {
      out.push_back(in[i]);
    } else if (keepdim) {
      out.push_back(Dim(1));
    }
  }
  return Shape(std::move(out));
}

Shape infer_view_shape(RuleContext& ctx, const std::string& prefix, int first, const IntTerm& numel,
                       const std::vector<IntTerm>& sizes) {
  auto tag = [&](int k) { return prefix + "_c" + std::to_string(first + k); };
  std::vector<BoolTerm> inferred;
  std::vector<IntTerm> known_factors;
  std::size_t maybe_inferred = 0;
  for (const IntTerm& s : sizes) {
    BoolTerm is_infer = eq(s, -1);
    if (!is_infer.pred().is_false()) ++maybe_inferred;
    inferred.push_back(is_infer);
    known_factors.push_back(ite(is_infer, 1, s));
  }
  auto shape_text = [&](Message& m) { append_list(m, sizes); };

  if (maybe_inferred >= 2) {
    std::vector<IntTerm> counts;
    for (const BoolTerm& b : inferred) counts.push_back(ite(b, 1, 0));
    Message m;
    m << "only one dimension can be inferred in shape ";
    shape_text(m);
    ctx.require(tag(0), le(sum(counts), 1), m);  // <prefix>_c<first+0>
  }
  std::vector<BoolTerm> valid;
  for (const IntTerm& s : sizes) valid.push_back(ge(s, -1));
  BoolTerm all_valid = all_of(valid);
  if (!all_valid.pred().is_true()) {
    Message m;
    m << "invalid shape dimension in ";
    shape_text(m);
    m << ": sizes must be non-negative or -1";
    ctx.require(tag(1), all_valid, m);  // <prefix>_c<first+1>
  }
  IntTerm newsize = product(known_factors);
  BoolTerm has_infer = any_of(inferred);
  if (!has_infer.pred().is_false()) {
    Message m3;
    // torch words it this way for an empty input, and reports the generic
    // "shape ... is invalid" otherwise; one message covers both
    m3 << "cannot reshape tensor of " << numel << " elements into shape ";
    shape_text(m3);
    m3 << ": the unspecified dimension size -1 cannot be inferred when the other sizes multiply to 0";
    ctx.require(tag(2), implies(has_infer, gt(newsize, 0)), m3);  // <prefix>_c<first+2>
    Message m4;
    m4 << "shape ";
    shape_text(m4);
    m4 << " is invalid for input of size " << numel;
    ctx.require(tag(3), implies(has_infer && gt(newsize, 0), eq(mod(numel, newsize), 0)), m4);  // <prefix>_c<first+3>
  }
  if (!has_infer.pred().is_true()) {
    Message m5;
    m5 << "shape ";
    shape_text(m5);
    m5 << " is invalid for input of size " << numel;
    ctx.require(tag(4), implies(!has_infer, eq(numel, newsize)), m5);  // <prefix>_c<first+4>
  }
  // The checks above hold from here on; they often settle which size is -1
  // (a size that is also a tensor's, n and C//n together), and the result
  // then reads `[B, T, n, C//n]` rather than a case split per axis.
  std::vector<Pred> settled;
  std::vector<Dim> factors;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    Pred p = inferred[i].pred();
    if (!p.is_constant())
      if (auto k = ctx.settle(p)) p = Pred(*k);
    settled.push_back(p);
    factors.push_back(Dim::ite(p, 1, sizes[i].dim()));
  }
  std::vector<Dim> out;
  Dim inferred_size = exact_div(numel.dim(), product(factors));
  for (std::size_t i = 0; i < sizes.size(); ++i) out.push_back(Dim::ite(settled[i], inferred_size, sizes[i].dim()));
  return Shape(std::move(out));
}

}  // namespace gshape::gradual
