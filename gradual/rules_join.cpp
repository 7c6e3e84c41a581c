// Rules that join tensors or split one into several: cat, stack, split
// (by size and by list), chunk, unbind.
#include <algorithm>

#include "gradual/rules.h"

namespace gshape::gradual {
namespace {

std::vector<Arg> tensor_list(RuleContext& ctx, const std::string& param) {
  std::vector<Arg> out;
  for (const Arg& a : ctx.elements(ctx.arg(param))) out.push_back(ctx.as_tensor(a));
  return out;
}

// A result list whose length depends on sizes not known statically: a tuple
// of unknown length whose items are like `element`.
Value unknown_length_tuple(const Shape& element) {
  return Value::unknown_length(SequenceKind::Tuple, Value::tensor(element), true);
}

Value rule_cat(RuleContext& ctx) {
  std::vector<Arg> ts = tensor_list(ctx, "tensors");
  Message m1;
  m1 << "expected a non-empty list of tensors";
  if (ctx.require("cat_c1", BoolTerm(!ts.empty()), m1) == Status::Refuted) return unknown_tensor();  // cat_c1
  // torch 1.13 skips 1-d empty tensors (legacy behaviour)
  std::vector<BoolTerm> skipped;
  for (const Arg& t : ts) skipped.push_back(eq(ctx.rank(t), 1) && eq(ctx.size(t, 0), 0));
  for (std::size_t i = 0; i < ts.size(); ++i) {
    Message m;
    m << "zero-dimensional tensor (at position " << std::to_string(i) << ") cannot be concatenated";
    ctx.require("cat_c2", ge(ctx.rank(ts[i]), 1), m);  // cat_c2
  }
  std::size_t ref = ts.size();
  for (std::size_t i = 0; i < ts.size(); ++i) {
    if (skipped[i].pred().is_false()) {
      ref = i;
      break;
    }
  }
  if (ref == ts.size()) {
    bool all_skipped = std::all_of(skipped.begin(), skipped.end(), [](const BoolTerm& b) { return b.pred().is_true(); });
    return all_skipped ? Value::tensor(Shape{Dim(0)}) : unknown_tensor();
  }
  const Arg& base = ts[ref];
  auto d = require_dim(ctx, "cat_c3", base, ctx.int_term(ctx.arg("dim")));  // cat_c3
  for (std::size_t j = 0; j < ts.size(); ++j) {
    if (j == ref) continue;
    Message m;
    m << "tensors must have same number of dimensions: got " << ctx.rank(base) << " and " << ctx.rank(ts[j]);
    ctx.require("cat_c4", skipped[j] || eq(ctx.rank(ts[j]), ctx.rank(base)), m);  // cat_c4
  }
  if (!base.shape().rank_known() || !d || ctx.any_refuted()) return unknown_tensor();
  std::size_t r = base.shape().rank();
  std::vector<Dim> along;
  for (std::size_t j = 0; j < ts.size(); ++j) {
    if (j != ref) {
      for (std::size_t k = 0; k < r; ++k) {
        if (k == *d) continue;
        IntTerm x = ctx.size(base, static_cast<int64_t>(k));
        IntTerm y = ctx.size(ts[j], static_cast<int64_t>(k));
        Message m;
        m << "sizes of tensors must match except in dimension " << std::to_string(*d) << ". expected size " << x
          << " but got size " << y << " for tensor number " << std::to_string(j) << " in the list";
        ctx.require("cat_c5", skipped[j] || eq(x, y), m);  // cat_c5
      }
    }
    along.push_back(Dim::ite(skipped[j].pred(), 0, ctx.size(ts[j], static_cast<int64_t>(*d)).dim()));
  }
  return Value::tensor(with_axis(base.shape(), *d, sum(along)));
}

Value rule_stack(RuleContext& ctx) {
  std::vector<Arg> ts = tensor_list(ctx, "tensors");
  Message m1;
  m1 << "stack expects a non-empty TensorList";
  if (ctx.require("stack_c1", BoolTerm(!ts.empty()), m1) == Status::Refuted) return unknown_tensor();  // stack_c1
  const Arg& first = ts[0];
  auto d = require_dim(ctx, "stack_c2", first, ctx.int_term(ctx.arg("dim")), true, 1);  // stack_c2
  for (std::size_t j = 1; j < ts.size(); ++j) {
    BoolTerm same = eq(ctx.rank(ts[j]), ctx.rank(first));
    if (first.shape().rank_known()) {
      for (std::size_t k = 0; k < first.shape().rank(); ++k)
        same = same && eq(ctx.size(ts[j], static_cast<int64_t>(k)), ctx.size(first, static_cast<int64_t>(k)));
    }
    Message m;
    m << "stack expects each tensor to be equal size, but got " << ctx.shape_hole(first) << " at entry 0 and "
      << ctx.shape_hole(ts[j]) << " at entry " << std::to_string(j);
    ctx.require("stack_c3", same, m);  // stack_c3
  }
  if (!first.shape().rank_known() || !d || ctx.any_refuted()) return unknown_tensor();
  std::vector<Dim> out = first.shape().dims();
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*d), Dim(static_cast<int64_t>(ts.size())));
  return Value::tensor(Shape(std::move(out)));
}

// Shared prologue of split/chunk/unbind: a 1-d or higher input (`<op>_c1`)
// and dim in range (`<op>_c<dim_tag>`). Returns the axis when static.
std::optional<std::size_t> split_prologue(RuleContext& ctx, const std::string& op, const Arg& input, const Arg& dim,
                                          const std::string& rank_tag, const std::string& dim_tag) {
  Message m;
  m << op << " expects at least a 1-dimensional tensor";
  if (ctx.require(rank_tag, ge(ctx.rank(input), 1), m) == Status::Refuted) return std::nullopt;
  return require_dim(ctx, dim_tag, input, ctx.int_term(dim), false);
}

// Pieces of `in` along `axis` with the given sizes.
Value pieces(const Shape& in, std::size_t axis, const std::vector<Dim>& sizes) {
  std::vector<Value> out;
  for (const Dim& s : sizes) out.push_back(Value::tensor(with_axis(in, axis, s)));
  return Value::tuple(std::move(out));
}

// A tensor of unknown rank whose last axes are known (`[*, 384]`) split
// along one of them (`dim=-1`): the index of that axis in the known suffix.
std::optional<std::size_t> known_axis_from_end(const Shape& in, const IntTerm& dim) {
  auto d = dim.dim().constant_value();
  const std::vector<Dim>& suffix = in.known_suffix();
  if (in.rank_known() || !d || *d >= 0 || static_cast<std::size_t>(-*d) > suffix.size()) return std::nullopt;
  return suffix.size() - static_cast<std::size_t>(-*d);
}

Shape with_suffix_axis(const Shape& in, std::size_t i, const Dim& d) {
  std::vector<Dim> suffix = in.known_suffix();
  suffix[i] = d;
  return Shape::unknown_with_suffix(std::move(suffix));
}

// The pieces of `[*, ..., n, ...]` along that known axis: what the
// known-rank case gives, with the unknown leading axes left unknown.
Value suffix_pieces(const Shape& in, std::size_t i, const std::vector<Dim>& sizes) {
  std::vector<Value> out;
  for (const Dim& s : sizes) out.push_back(Value::tensor(with_suffix_axis(in, i, s)));
  return Value::tuple(std::move(out));
}

// chunk's piece sizes for an axis of constant size n in c chunks.
std::vector<Dim> chunk_sizes(int64_t n, int64_t c) {
  int64_t split_size = (n + c - 1) / c;
  std::vector<Dim> sizes;
  if (split_size == 0 && n == 0) {
    for (int64_t i = 0; i < c; ++i) sizes.push_back(0);
  } else {
    int64_t count = std::max<int64_t>((n + split_size - 1) / split_size, 1);
    for (int64_t i = 0; i < count; ++i) sizes.push_back(i < count - 1 ? split_size : split_size - (split_size * count - n));
  }
  return sizes;
}

Value split_by_size(RuleContext& ctx, const Arg& input, const IntTerm& split_size) {
  auto d = split_prologue(ctx, "split", input, ctx.arg("dim"), "split_c1", "split_c2");  // split_c1, split_c2
  Message m3;
  m3 << "split expects split_size be non-negative, but got split_size=" << split_size;
  ctx.require("split_c3", ge(split_size, 0), m3);  // split_c3
  const Shape& in = input.shape();
  if (!in.rank_known() || !d) {
    if (ctx.any_refuted()) return unknown_tensor();
    return Value::unknown_length(SequenceKind::Tuple, unknown_tensor());
  }
  IntTerm dim_size = ctx.size(input, static_cast<int64_t>(*d));
  Message m4;
  m4 << "split_size can only be 0 if dimension size is 0, but got dimension size of " << dim_size;
  ctx.require("split_c4", gt(split_size, 0) || eq(dim_size, 0), m4);  // split_c4
  if (ctx.any_refuted()) return unknown_tensor();
  auto n = dim_size.dim().constant_value();
  auto s = split_size.dim().constant_value();
  if (!n || !s) {
    // When split_size divides the size (checked above, or settled by the
    // facts: `x.split(C, 2)` of `[B, T, 3*C]`), every piece is min(s, n)
    // long: s when the axis is not empty, and the one piece of an empty
    // axis is empty (torch.empty(0).split(3) is one tensor of size 0). The
    // count is the quotient once split_size is known to be positive.
    const Dim s_dim = split_size.dim();
    const Dim n_dim = dim_size.dim();
    // otherwise the last piece is shorter: one element standing for every
    // piece would make `a, b = x.split(s)` equal in size, so nothing is
    // said of the pieces
    if (ctx.settle(eq(mod(n_dim, s_dim), Dim(0))) != std::optional<bool>(true))
      return Value::unknown_length(SequenceKind::Tuple, unknown_tensor());
    // s itself when the axis is not empty, or both are 0 (split_c4)
    const bool whole_pieces = ctx.settle(gt(n_dim, Dim(0)) || eq(s_dim, Dim(0))) == std::optional<bool>(true);
    const Dim piece = whole_pieces ? s_dim : min(s_dim, n_dim);
    auto count = exact_div(n_dim, s_dim).constant_value();
    if (count && *count >= 1 && *count <= 64 && ctx.settle(gt(s_dim, Dim(0))) == std::optional<bool>(true))
      return pieces(in, *d, std::vector<Dim>(static_cast<std::size_t>(*count), s_dim));
    return unknown_length_tuple(with_axis(in, *d, piece));
  }
  int64_t count = *s == 0 ? 1 : std::max<int64_t>((*n + *s - 1) / *s, 1);
  std::vector<Dim> sizes;
  for (int64_t i = 0; i < count; ++i) sizes.push_back(i < count - 1 ? *s : *s - (*s * count - *n));
  return pieces(in, *d, sizes);
}

Value split_by_list(RuleContext& ctx, const Arg& input, const std::vector<Arg>& list) {
  auto d = split_prologue(ctx, "split", input, ctx.arg("dim"), "split_c1", "split_c2");  // split_c1, split_c2
  std::vector<IntTerm> sizes;
  for (const Arg& a : list) sizes.push_back(ctx.int_term(a));
  std::vector<BoolTerm> nonneg;
  for (const IntTerm& s : sizes) nonneg.push_back(ge(s, 0));
  Message m5;
  m5 << "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=";
  append_list(m5, sizes);
  ctx.require("split_c5", all_of(nonneg), m5);  // split_c5
  const Shape& in = input.shape();
  if (!in.rank_known() || !d) return Value::unknown_length(SequenceKind::Tuple, unknown_tensor());
  IntTerm dim_size = ctx.size(input, static_cast<int64_t>(*d));
  Message m6;
  m6 << "split_with_sizes expects split_sizes to sum exactly to " << dim_size
     << " (input tensor's size at dimension " << std::to_string(*d) << "), but got split_sizes=";
  append_list(m6, sizes);
  ctx.require("split_c6", eq(sum(sizes), dim_size), m6);  // split_c6
  std::vector<Dim> dims;
  for (const IntTerm& s : sizes) dims.push_back(s.dim());
  return pieces(in, *d, dims);
}

// torch.split / Tensor.split: an int splits by size, a list by sizes.
Value split_either(RuleContext& ctx, const Arg& how) {
  Arg input = ctx.tensor("input");
  if (how.value.is_sequence()) return split_by_list(ctx, input, ctx.elements(how));
  return split_by_size(ctx, input, ctx.int_term(how));
}
Value rule_split(RuleContext& ctx) { return split_either(ctx, ctx.arg("split_size_or_sections")); }
Value rule_tensor_split(RuleContext& ctx) { return split_either(ctx, ctx.arg("split_size")); }

Value rule_split_with_sizes(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return split_by_list(ctx, input, ctx.elements(ctx.arg("split_sizes")));
}

Value rule_chunk(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm chunks = ctx.int_term(ctx.arg("chunks"));
  Message m1;
  m1 << "chunk expects at least a 1-dimensional tensor";
  if (ctx.require("chunk_c1", ge(ctx.rank(input), 1), m1) == Status::Refuted) return unknown_tensor();  // chunk_c1
  Message m2;
  m2 << "chunk expects `chunks` to be greater than 0, got: " << chunks;
  ctx.require("chunk_c2", gt(chunks, 0), m2);  // chunk_c2
  auto d = require_dim(ctx, "chunk_c3", input, ctx.int_term(ctx.arg("dim")), false);  // chunk_c3
  const Shape& in = input.shape();
  if (ctx.any_refuted()) return unknown_tensor();
  auto c = chunks.dim().constant_value();
  // A symbolic axis the chunk count divides gives that many equal pieces
  // (`x.chunk(3, -1)` of `[B, T, 3*C]`; an empty axis gives empty ones).
  // Otherwise the last piece may be shorter and there may be fewer than
  // `chunks` (4 split in 3 is 2 pieces): nothing is said of them, as one
  // element standing for every piece would make them equal.
  auto equal_pieces = [&](const Dim& n) -> std::optional<std::vector<Dim>> {
    if (!c || *c <= 0 || *c > 64 || ctx.settle(eq(mod(n, Dim(*c)), Dim(0))) != std::optional<bool>(true))
      return std::nullopt;
    return std::vector<Dim>(static_cast<std::size_t>(*c), exact_div(n, Dim(*c)));
  };
  auto unknown_pieces = [] { return Value::unknown_length(SequenceKind::Tuple, unknown_tensor()); };
  if (auto i = known_axis_from_end(in, ctx.int_term(ctx.arg("dim")))) {
    const Dim& axis = in.known_suffix()[*i];
    auto n = axis.constant_value();
    if (n && c && *c > 0) return suffix_pieces(in, *i, chunk_sizes(*n, *c));
    if (auto equal = equal_pieces(axis)) return suffix_pieces(in, *i, *equal);
    return unknown_pieces();
  }
  if (!in.rank_known() || !d) return unknown_pieces();
  auto n = in[*d].constant_value();
  if (n && c && *c > 0) return pieces(in, *d, chunk_sizes(*n, *c));
  if (auto equal = equal_pieces(in[*d])) return pieces(in, *d, *equal);
  return unknown_pieces();
}

Value rule_unbind(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  auto d = require_dim(ctx, "unbind_c1", input, ctx.int_term(ctx.arg("dim")), false);  // unbind_c1
  const Shape& in = input.shape();
  if (!in.rank_known() || !d) return Value::unknown_length(SequenceKind::Tuple, unknown_tensor());
  std::vector<Dim> rest = in.dims();
  rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(*d));
  Value item = Value::tensor(Shape(rest));
  auto n = in[*d].constant_value();
  if (!n) return Value::unknown_length(SequenceKind::Tuple, item, true);
  return Value::tuple(std::vector<Value>(static_cast<std::size_t>(*n), item));
}

}  // namespace

void register_join_rules(RuleRegistry& r) {
  r.add("torch.cat", "tensors, dim=0, *, out=None", rule_cat);
  r.add("torch.concat", "tensors, dim=0, *, out=None", rule_cat);
  r.add("torch.stack", "tensors, dim=0, *, out=None", rule_stack);
  r.add("torch.split", "input, split_size_or_sections, dim=0", rule_split);
  r.add("Tensor.split", "input, split_size, dim=0", rule_tensor_split);
  r.add("torch.split_with_sizes", "input, split_sizes, dim=0", rule_split_with_sizes);
  r.add("Tensor.split_with_sizes", "input, split_sizes, dim=0", rule_split_with_sizes);
  r.add("torch.chunk", "input, chunks, dim=0", rule_chunk);
  r.add("Tensor.chunk", "input, chunks, dim=0", rule_chunk);
  r.add("torch.unbind", "input, dim=0", rule_unbind);
  r.add("Tensor.unbind", "input, dim=0", rule_unbind);
}

}  // namespace gshape::gradual
