// Rules that pick elements by position or by index tensors: narrow, select,
// index_select, gather, scatter, scatter_add, masked_select, nonzero,
// F.one_hot, take_along_dim, bucketize, searchsorted. Index *values* are
// data, which gshape never reads; the one
// value-level condition kept is the one no index can satisfy: a non-empty
// index into an empty axis.
#include <algorithm>

#include "gradual/rules.h"
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// The axis narrow and select work on: `<op>_c1` the input has an axis (no
// 0-d input, `rank_tag`), `<op>_c2` dim in range without scalar wrap
// (`dim_tag`). Sets `d` to the wrapped dim when static and returns the size
// there; nullopt when `rank_tag` is refuted or the size cannot be read.
std::optional<IntTerm> positional_axis(RuleContext& ctx, const std::string& op, const std::string& rank_tag,
                                       const std::string& dim_tag, const Arg& input, const IntTerm& dim,
                                       std::optional<std::size_t>& d) {
  Message m1;
  m1 << op << "() cannot be applied to a 0-dim tensor";
  if (ctx.require(rank_tag, ge(ctx.rank(input), 1), m1) == Status::Refuted) return std::nullopt;
  d = require_dim(ctx, dim_tag, input, dim, false);
  return size_at(ctx, input, d, dim);
}

// torch.narrow(input, dim, start, length) as torch 1.13's at::narrow:
// `narrow_c1` a dimension, `narrow_c2` dim in range, `narrow_c3` start in
// range of the size n (n itself allowed: an empty piece at the end),
// `narrow_c4` length >= 0 and the piece ends within the axis.
Value rule_narrow(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  Arg start_arg = ctx.arg("start");
  if (start_arg.is_tensor()) throw NotModelled("a tensor start is not modelled");
  IntTerm start = ctx.int_term(start_arg);
  IntTerm length = ctx.int_term(ctx.arg("length"));
  std::optional<std::size_t> d;
  auto n = positional_axis(ctx, "narrow", "narrow_c1", "narrow_c2", input, dim, d);  // narrow_c1, narrow_c2
  if (!n) return unknown_tensor();
  IntTerm b = max(*n, 1);
  Message m3;
  m3 << "start out of range (expected to be in range of [" << -b << ", " << *n << "], but got " << start << ")";
  if (ctx.require("narrow_c3", eq(start, *n) || (le(-b, start) && lt(start, b)), m3) == Status::Refuted)  // narrow_c3
    return unknown_tensor();
  IntTerm wstart = ite(lt(start, 0), start + b, start);
  Message m4;
  m4 << "start (" << wstart << ") + length (" << length << ") exceeds dimension size (" << *n << ")";
  ctx.require("narrow_c4", ge(length, 0) && le(wstart + length, *n), m4);  // narrow_c4
  if (ctx.any_refuted() || !d || !input.shape().rank_known()) return unknown_tensor();
  return Value::tensor(with_axis(input.shape(), *d, length.dim()));
}

// Tensor.select(dim, index): `select_c1` a dimension, `select_c2` dim in
// range, `select_c3` `-n <= index < n`. The axis is dropped.
Value rule_select(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  IntTerm index = ctx.int_term(ctx.arg("index"));
  std::optional<std::size_t> d;
  auto n = positional_axis(ctx, "select", "select_c1", "select_c2", input, dim, d);  // select_c1, select_c2
  if (!n) return unknown_tensor();
  Message m3;
  m3 << "select(): index " << index << " out of range for tensor of size " << ctx.shape_hole(input) << " at dimension "
     << dim;
  ctx.require("select_c3", le(-*n, index) && lt(index, *n), m3);  // select_c3
  if (ctx.any_refuted() || !d || !input.shape().rank_known()) return unknown_tensor();
  std::vector<Dim> out = input.shape().dims();
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(*d));
  return Value::tensor(Shape(std::move(out)));
}

// index_select(input, dim, index): `index_select_c1` the index is 0-d or
// 1-d, `index_select_c2` dim in range, `index_select_c3` a non-empty index
// needs a non-empty axis. The axis becomes numel(index); a 0-d input stays 0-d.
Value rule_index_select(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  Arg index = ctx.tensor("index");
  Message m1;
  m1 << "index_select(): index is supposed to be a vector, got shape " << ctx.shape_hole(index);
  ctx.require("index_select_c1", le(ctx.rank(index), 1), m1);  // index_select_c1
  auto d = require_dim(ctx, "index_select_c2", input, dim);  // index_select_c2
  const Shape& in = input.shape();
  if (in.rank_known() && in.rank() == 0) return ctx.any_refuted() ? unknown_tensor() : Value::tensor(in);
  auto n = size_at(ctx, input, d, dim);
  IntTerm k = ctx.numel(index);
  if (n) {
    Message m3;
    m3 << "index_select(): the index has " << k << " entries but dimension " << dim << " of the input is empty";
    ctx.require("index_select_c3", eq(k, 0) || gt(*n, 0), m3);  // index_select_c3
  }
  if (ctx.any_refuted() || !d || !in.rank_known()) return unknown_tensor();
  return Value::tensor(with_axis(in, *d, k.dim()));
}

// Size of `t` at axis k as torch's ensure_nonempty_size reads it (1 for a 0-d tensor).
IntTerm nonempty_size(RuleContext& ctx, const Arg& t, std::size_t k) {
  if (t.shape().rank() == 0) return IntTerm(1);
  return ctx.size(t, static_cast<int64_t>(k));
}

// The checks gather and scatter share (torch's gather_shape_check /
// scatter_shape_check, skipped for an empty index): ranks as
// ensure_nonempty_dim reads them, the index's against the input's and
// src's (`<op>_c2`), the index no larger than the
// input on every axis but dim and no larger than src on every axis
// (`<op>_c3`), and a non-empty axis at dim (`<op>_c4`).
void index_shape_checks(RuleContext& ctx, const std::string& op, const Arg& input, const Arg& index, const Arg* src,
                        const IntTerm& dim, std::optional<std::size_t> d) {
  BoolTerm empty = eq(ctx.numel(index), 0);
  Message m2;
  m2 << "index tensor must have the same number of dimensions as " << input.role << " tensor (got "
     << ctx.shape_hole(index) << " and " << ctx.shape_hole(input) << ")";
  bool bad = ctx.require(op + "_c2", empty || eq(max(ctx.rank(index), 1), max(ctx.rank(input), 1)), m2) ==  // <op>_c2
             Status::Refuted;
  if (src) {
    Message m;
    m << "index tensor must have the same number of dimensions as src tensor (got " << ctx.shape_hole(index)
      << " and " << ctx.shape_hole(*src) << ")";
    bad = ctx.require(op + "_c2", empty || eq(max(ctx.rank(index), 1), max(ctx.rank(*src), 1)), m) ==  // <op>_c2
              Status::Refuted ||
          bad;
  }
  if (bad) return;
  const Shape& in = input.shape();
  const Shape& ix = index.shape();
  if (!in.rank_known() || !ix.rank_known() || !d) return;
  std::size_t r = std::max<std::size_t>(in.rank(), 1);
  for (std::size_t k = 0; k < r; ++k) {
    IntTerm isize = nonempty_size(ctx, index, k);
    if (k != *d) {
      Message m;
      m << "size does not match at dimension " << std::to_string(k) << ": expected index " << ctx.shape_hole(index)
        << " to be smaller than " << input.role << " " << ctx.shape_hole(input) << " apart from dimension " << dim;
      ctx.require(op + "_c3", empty || le(isize, nonempty_size(ctx, input, k)), m);  // <op>_c3
    }
    // (src's rank is index's by <op>_c2; a src of another rank is refuted there or checked at run time)
    if (src && src->shape().rank_known() && std::max<std::size_t>(src->shape().rank(), 1) == std::max<std::size_t>(ix.rank(), 1)) {
      Message m;
      m << "expected index " << ctx.shape_hole(index) << " to be smaller size than src " << ctx.shape_hole(*src)
        << " at dimension " << std::to_string(k);
      ctx.require(op + "_c3", empty || le(isize, nonempty_size(ctx, *src, k)), m);  // <op>_c3
    }
  }
  Message m4;
  m4 << "index " << ctx.shape_hole(index) << " is not empty but dimension " << dim << " of " << input.role
     << " is: no index is in range";
  ctx.require(op + "_c4", empty || gt(nonempty_size(ctx, input, *d), 0), m4);  // <op>_c4
}

// gather(input, dim, index): `gather_c1` dim in range, `gather_c2`–`c4` as
// index_shape_checks. The result has the index's shape.
Value rule_gather(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  Arg index = ctx.tensor("index");
  auto d = require_dim(ctx, "gather_c1", input, dim);  // gather_c1
  index_shape_checks(ctx, "gather", input, index, nullptr, dim, d);  // gather_c2, gather_c3, gather_c4
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(index.shape());
}

// scatter(input, dim, index, src or value), scatter_add(input, dim, index,
// src) and their in-place forms: `<op>_c1` dim in range, `<op>_c2`–`c4` as
// index_shape_checks (src too when it is a tensor). The input's shape.
Value scatter_like(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  Arg index = ctx.tensor("index");
  Arg src = ctx.arg("src");
  if (src.value.is_unknown()) src = ctx.as_tensor(src);
  auto d = require_dim(ctx, op + "_c1", input, dim);  // scatter_c1, scatter_add_c1
  index_shape_checks(ctx, op, input, index, src.is_tensor() ? &src : nullptr, dim, d);  // <op>_c2-c4
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(input.shape());
}
Value rule_scatter(RuleContext& ctx) { return scatter_like(ctx, "scatter"); }
Value rule_scatter_add(RuleContext& ctx) {
  if (!ctx.arg("src").is_tensor() && !ctx.arg("src").value.is_unknown()) throw NotModelled("scatter_add needs a src tensor");
  return scatter_like(ctx, "scatter_add");
}

// masked_select(input, mask): the two broadcast (`broadcast_c1`); the
// result is 1-d with as many elements as the mask selects (data: a fresh size).
Value rule_masked_select(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg mask = ctx.tensor("mask");
  broadcast_args(ctx, "broadcast_c1", input, mask);  // broadcast_c1
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(Shape{ctx.fresh("masked_select")});
}

// nonzero(input, as_tuple=False): [n, rank] with n the data's count (fresh);
// as a tuple, one [n] per axis (one for a 0-d input). No constraint.
Value rule_nonzero(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  bool as_tuple = ctx.bool_constant("as_tuple");
  const Shape& in = input.shape();
  Dim n = ctx.fresh("nonzero");
  if (as_tuple) {
    if (!in.rank_known()) return Value::unknown_length(SequenceKind::Tuple, Value::tensor(Shape{n}), true);
    return Value::tuple(std::vector<Value>(std::max<std::size_t>(in.rank(), 1), Value::tensor(Shape{n})));
  }
  return Value::tensor(Shape{n, ctx.rank(input).dim()});
}
Value rule_argwhere(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return Value::tensor(Shape{ctx.fresh("nonzero"), ctx.rank(input).dim()});
}

// F.one_hot(tensor, num_classes=-1): `one_hot_c1` an empty input needs a
// positive num_classes (nothing to infer it from), a non-empty one -1
// (inferred: max + 1, a fresh size) or at least 1 (class values are >= 0).
Value rule_one_hot(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm nc = ctx.int_term(ctx.arg("num_classes"));
  IntTerm numel = ctx.numel(input);
  Message m;
  m << "one_hot: num_classes " << nc << " cannot hold the classes of an input of " << numel
    << " elements (an empty input needs num_classes > 0, any other -1 or a positive count)";
  BoolTerm ok = (eq(numel, 0) && gt(nc, 0)) || (gt(numel, 0) && (eq(nc, -1) || ge(nc, 1)));
  if (ctx.require("one_hot_c1", ok, m) == Status::Refuted) return unknown_tensor();  // one_hot_c1
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  std::vector<Dim> out = in.dims();
  out.push_back(Dim::ite(eq(nc.dim(), -1), ctx.fresh("num_classes"), nc.dim()));
  return Value::tensor(Shape(std::move(out)));
}

// take_along_dim(input, indices, dim=None) as torch 1.13 computes it: with
// a dim, `take_along_dim_c1` the same rank, `take_along_dim_c2` dim in
// range, both broadcast on every axis but dim (`broadcast_c1`), and a
// gather on the broadcast operands (`take_along_dim_c3`: a non-empty index
// needs a non-empty axis). The result: the broadcast shape with the
// indices' size at dim. Without dim: both flattened, [numel(indices)].
Value rule_take_along_dim(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg indices = ctx.tensor("indices");
  IntTerm k = ctx.numel(indices);
  if (ctx.is_none("dim")) {
    Message m;
    m << "take_along_dim: " << k << " indices into an empty input: no index is in range";
    ctx.require("take_along_dim_c3", eq(k, 0) || gt(ctx.numel(input), 0), m);  // take_along_dim_c3
    if (ctx.any_refuted()) return unknown_tensor();
    return Value::tensor(Shape{k.dim()});
  }
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  Message m1;
  m1 << "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
     << ctx.rank(input) << " dimensions for input, and " << ctx.rank(indices) << " dimensions for indices";
  if (ctx.require("take_along_dim_c1", eq(ctx.rank(input), ctx.rank(indices)), m1) == Status::Refuted)  // take_along_dim_c1
    return unknown_tensor();
  auto d = require_dim(ctx, "take_along_dim_c2", input, dim);  // take_along_dim_c2
  const Shape& in = input.shape();
  const Shape& ix = indices.shape();
  if (ctx.any_refuted() || !d || !in.rank_known() || !ix.rank_known() || in.rank() != ix.rank()) return unknown_tensor();
  if (in.rank() == 0) return unknown_tensor();  // torch indexes an empty size list: not modelled
  std::vector<IntTerm> a = ctx.sizes(input), b = ctx.sizes(indices);
  std::vector<IntTerm> a_at = a;
  a_at[*d] = b[*d];  // the input's sizes with the indices' at dim: the axes that broadcast
  std::vector<IntTerm> out = broadcast_terms(ctx, "broadcast_c1", a_at, b);  // broadcast_c1
  Message m3;
  m3 << "take_along_dim: the indices " << ctx.shape_hole(indices) << " are not empty but dimension " << dim
     << " of the input is: no index is in range";
  ctx.require("take_along_dim_c3", eq(product(out), 0) || gt(a[*d], 0), m3);  // take_along_dim_c3
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(shape_of_terms(out));
}


// torch.bucketize(input, boundaries, *, out_int32=False, right=False):
// `bucketize_c1` the boundaries are 1-D. The result has the input's shape
// (a number input: 0-d); which bucket is data.
Value rule_bucketize(RuleContext& ctx) {
  Arg boundaries = ctx.tensor("boundaries");
  Message m;
  m << "boundaries tensor must be 1 dimension, but got boundaries of shape " << ctx.shape_hole(boundaries);
  if (ctx.require("bucketize_c1", eq(ctx.rank(boundaries), 1), m) == Status::Refuted) return unknown_tensor();  // bucketize_c1
  Arg input = ctx.arg("input");
  if (input.value.is_int() || input.value.is_float() || input.value.is_bool()) return Value::tensor(Shape::of({}));
  return Value::tensor(ctx.tensor("input").shape());
}

// torch.searchsorted(sorted_sequence, input, *, out_int32=False, right=False,
// side=None, sorter=None), as searchsorted_pre_check: `searchsorted_c1` side
// is 'left' or 'right' and does not contradict right=True, `searchsorted_c2`
// the sorter has the sequence's shape, `searchsorted_c3` a 0-d (or number)
// input needs a 1-D sequence, `searchsorted_c4` the sequence has an axis,
// `searchsorted_c5` a sequence of more than one axis has the input's rank
// and its leading axes (all but the last). The result has the input's shape.
Value rule_searchsorted(RuleContext& ctx) {
  Arg sequence = ctx.tensor("sorted_sequence");
  if (!ctx.is_none("side")) {
    std::optional<std::string> side = str_constant(ctx.arg("side"));
    std::optional<bool> right = ctx.bool_flag("right");
    if (!side || !right) throw NotModelled("side or right is not a constant");
    Message m1;
    m1 << "torch.searchsorted(): side can only be 'left' or 'right' and agree with right=" << (*right ? "True" : "False")
       << ", got side " << *side;
    ctx.require("searchsorted_c1", BoolTerm(*side == "right" || (*side == "left" && !*right)), m1);  // searchsorted_c1
  }
  if (!ctx.is_none("sorter")) {
    Arg sorter = ctx.tensor("sorter");
    const Shape& a = sorter.shape();
    const Shape& b = sequence.shape();
    if (!a.rank_known() || !b.rank_known()) throw NotModelled("the sorter's or the sequence's rank is not known");
    std::vector<BoolTerm> same{BoolTerm(a.rank() == b.rank())};
    for (std::size_t i = 0; a.rank() == b.rank() && i < a.rank(); ++i)
      same.push_back(eq(ctx.size(sorter, static_cast<int64_t>(i)), ctx.size(sequence, static_cast<int64_t>(i))));
    Message m2;
    m2 << "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor "
       << ctx.shape_hole(sequence) << " and sorter tensor " << ctx.shape_hole(sorter);
    ctx.require("searchsorted_c2", all_of(same), m2);  // searchsorted_c2
  }
  Arg given = ctx.arg("input");
  bool number = given.value.is_int() || given.value.is_float() || given.value.is_bool();
  Arg input = number ? Arg::of(Value::tensor(Shape::of({})), "input") : ctx.tensor("input");
  IntTerm seq_rank = ctx.rank(sequence);
  IntTerm in_rank = number ? IntTerm(0) : ctx.rank(input);
  Message m3;
  m3 << "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but got "
     << "boundaries of shape " << ctx.shape_hole(sequence);
  ctx.require("searchsorted_c3", gt(in_rank, 0) || eq(seq_rank, 1), m3);  // searchsorted_c3
  Message m4;
  m4 << "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension";
  ctx.require("searchsorted_c4", ne(seq_rank, 0), m4);  // searchsorted_c4
  const Shape& a = sequence.shape();
  const Shape& b = input.shape();
  if (!(a.rank_known() && a.rank() == 1)) {
    if (!a.rank_known() || !b.rank_known()) throw NotModelled("the ranks of sequence and input are not known");
    std::vector<BoolTerm> leading{BoolTerm(a.rank() == b.rank())};
    for (std::size_t i = 0; a.rank() == b.rank() && i + 1 < a.rank(); ++i)
      leading.push_back(eq(ctx.size(sequence, static_cast<int64_t>(i)), ctx.size(input, static_cast<int64_t>(i))));
    Message m5;
    m5 << "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
       << "tensor and input value tensor must match, but got boundaries " << ctx.shape_hole(sequence);
    if (!number) m5 << " and input " << ctx.shape_hole(input);
    ctx.require("searchsorted_c5", eq(seq_rank, 1) || all_of(leading), m5);  // searchsorted_c5
  }
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(b);
}
}  // namespace

void register_index_rules(RuleRegistry& r) {
  for (const char* name : {"torch.narrow", "Tensor.narrow", "torch.narrow_copy", "Tensor.narrow_copy"})
    r.add(name, "input, dim, start, length", rule_narrow);
  for (const char* name : {"torch.select", "Tensor.select"}) r.add(name, "input, dim, index", rule_select);
  r.add("torch.index_select", "input, dim, index, *, out=None", rule_index_select);
  r.add("Tensor.index_select", "input, dim, index", rule_index_select);
  r.add("torch.gather", "input, dim, index, *, sparse_grad=False, out=None", rule_gather);
  r.add("Tensor.gather", "input, dim, index, *, sparse_grad=False", rule_gather);
  for (const char* name : {"torch.scatter", "Tensor.scatter", "Tensor.scatter_"})
    r.add(name, "input, dim, index, src=None, *, value=None, reduce=None, out=None", rule_scatter);
  for (const char* name : {"torch.scatter_add", "Tensor.scatter_add", "Tensor.scatter_add_"})
    r.add(name, "input, dim, index, src, *, out=None", rule_scatter_add);
  r.add("torch.masked_select", "input, mask, *, out=None", rule_masked_select);
  r.add("Tensor.masked_select", "input, mask", rule_masked_select);
  for (const char* name : {"torch.nonzero", "Tensor.nonzero"}) r.add(name, "input, *, out=None, as_tuple=False", rule_nonzero);
  for (const char* name : {"torch.argwhere", "Tensor.argwhere"}) r.add(name, "input", rule_argwhere);
  r.add("torch.nn.functional.one_hot", "input, num_classes=-1", rule_one_hot);
  for (const char* name : {"torch.take_along_dim", "Tensor.take_along_dim"})
    r.add(name, "input, indices, dim=None, *, out=None", rule_take_along_dim);
  r.add("torch.bucketize", "input, boundaries, *, out_int32=False, right=False, out=None", rule_bucketize);
  r.add("torch.searchsorted",
        "sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None", rule_searchsorted);
}

}  // namespace gshape::gradual
