// Rules that rearrange a tensor's axes without computing on its data:
// view, reshape, flatten, unflatten, permute, transpose, t, squeeze,
// unsqueeze, expand, expand_as, repeat, view_as, reshape_as.
#include <algorithm>

#include "gradual/rules.h"

namespace gshape::gradual {
namespace {

std::vector<IntTerm> int_terms(RuleContext& ctx, const std::vector<Arg>& args) {
  std::vector<IntTerm> out;
  for (const Arg& a : args) out.push_back(ctx.int_term(a));
  return out;
}

// view / reshape: `view_c1`..`view_c5` (reshape_c1..c5), see infer_view_shape.
Value view_like(RuleContext& ctx, const std::string& prefix) {
  Arg input = ctx.tensor("input");
  std::vector<IntTerm> sizes = int_terms(ctx, ctx.int_list("shape"));
  return Value::tensor(infer_view_shape(ctx, prefix, 1, ctx.numel(input), sizes));
}

Value rule_view(RuleContext& ctx) { return view_like(ctx, "view"); }
Value rule_reshape(RuleContext& ctx) { return view_like(ctx, "reshape"); }

// view_as / reshape_as: the numels agree (`view_as_c1`, `reshape_as_c1`).
Value view_as_like(RuleContext& ctx, const std::string& prefix) {
  Arg input = ctx.tensor("input");
  Arg other = ctx.tensor("other");
  Message m;
  m << "shape " << ctx.shape_hole(other) << " is invalid for input of size " << ctx.numel(input);
  ctx.require(prefix + "_c1", eq(ctx.numel(input), ctx.numel(other)), m);  // view_as_c1 / reshape_as_c1
  return Value::tensor(other.shape());
}
Value rule_view_as(RuleContext& ctx) { return view_as_like(ctx, "view_as"); }
Value rule_reshape_as(RuleContext& ctx) { return view_as_like(ctx, "reshape_as"); }

}  // namespace

Value flatten_dims(RuleContext& ctx, const Arg& input, const IntTerm& start, const IntTerm& end) {
  auto s = require_dim(ctx, "flatten_c1", input, start);  // flatten_c1: start_dim in range
  auto e = require_dim(ctx, "flatten_c2", input, end);    // flatten_c2: end_dim in range
  IntTerm bound = max(ctx.rank(input), 1);
  IntTerm ws = ite(lt(start, 0), start + bound, start);
  IntTerm we = ite(lt(end, 0), end + bound, end);
  Message m;
  m << "flatten() has invalid args: start_dim (" << ws << ") cannot come after end_dim (" << we << ")";
  if (ctx.require("flatten_c3", le(ws, we), m) == Status::Refuted) return unknown_tensor();  // flatten_c3
  const Shape& in = input.shape();
  if (!in.rank_known() || !s || !e) return unknown_tensor();
  if (in.rank() == 0) return Value::tensor(Shape{Dim(1)});
  std::vector<Dim> out(in.dims().begin(), in.dims().begin() + static_cast<std::ptrdiff_t>(*s));
  Dim merged = 1;
  for (std::size_t i = *s; i <= *e; ++i) merged = merged * in[i];
  out.push_back(merged);
  out.insert(out.end(), in.dims().begin() + static_cast<std::ptrdiff_t>(*e) + 1, in.dims().end());
  return Value::tensor(Shape(std::move(out)));
}

namespace {

Value rule_flatten(RuleContext& ctx) {
  Arg input = ctx.tensor("input");  // in this order: arguments are read left to right
  IntTerm start = ctx.int_term(ctx.arg("start_dim"));
  IntTerm end = ctx.int_term(ctx.arg("end_dim"));
  return flatten_dims(ctx, input, start, end);
}

Value rule_unflatten(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  std::vector<IntTerm> sizes = int_terms(ctx, ctx.int_or_list(ctx.arg("sizes")));
  Message m0;
  m0 << "unflatten needs a tensor with at least one dimension, got shape " << ctx.shape_hole(input);
  if (ctx.require("unflatten_c0", ge(ctx.rank(input), 1), m0) == Status::Refuted) return unknown_tensor();  // unflatten_c0
  auto d = require_dim(ctx, "unflatten_c1", input, dim);  // unflatten_c1: dim in range
  Message m2;
  m2 << "unflatten: sizes must be non-empty";
  ctx.require("unflatten_c2", BoolTerm(!sizes.empty()), m2);  // unflatten_c2
  if (sizes.empty()) return unknown_tensor();
  const Shape& in = input.shape();
  IntTerm numel = d ? ctx.size(input, static_cast<int64_t>(*d)) : IntTerm::opaque(ctx.fresh("size"), "size");
  // unflatten_c3..c7: at::infer_size of `sizes` against the size at `dim`
  Shape inferred = infer_view_shape(ctx, "unflatten", 3, numel, sizes);
  if (!in.rank_known() || !d) return unknown_tensor();
  std::vector<Dim> out(in.dims().begin(), in.dims().begin() + static_cast<std::ptrdiff_t>(*d));
  out.insert(out.end(), inferred.dims().begin(), inferred.dims().end());
  out.insert(out.end(), in.dims().begin() + static_cast<std::ptrdiff_t>(*d) + 1, in.dims().end());
  return Value::tensor(Shape(std::move(out)));
}

Value rule_permute(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::vector<IntTerm> dims = int_terms(ctx, ctx.int_list("dims"));
  IntTerm n = IntTerm(static_cast<int64_t>(dims.size()));
  Message m1;
  m1 << "number of dims don't match in permute: the input has " << ctx.rank(input) << " dimensions but " << n
     << " were given";
  if (ctx.require("permute_c1", eq(ctx.rank(input), n), m1) == Status::Refuted) return unknown_tensor();  // permute_c1
  std::vector<std::optional<std::size_t>> idx;
  std::vector<IntTerm> wrapped;
  IntTerm bound = max(ctx.rank(input), 1);
  for (const IntTerm& d : dims) {
    idx.push_back(require_dim(ctx, "permute_c2", input, d));  // permute_c2: each dim in range
    wrapped.push_back(ite(lt(d, 0), d + bound, d));
  }
  std::vector<BoolTerm> distinct;
  for (std::size_t i = 0; i < wrapped.size(); ++i)
    for (std::size_t j = i + 1; j < wrapped.size(); ++j) distinct.push_back(ne(wrapped[i], wrapped[j]));
  if (!distinct.empty()) {
    Message m3;
    m3 << "repeated dim in permute ";
    append_list(m3, dims);
    ctx.require("permute_c3", all_of(distinct), m3);  // permute_c3
  }
  const Shape& in = input.shape();
  if (ctx.any_refuted()) return unknown_tensor();
  if (!in.rank_known() || std::any_of(idx.begin(), idx.end(), [](const auto& i) { return !i; })) {
    return Value::tensor(in.rank_known() ? Shape::fresh("permute", in.rank()) : Shape::unknown());
  }
  std::vector<Dim> out;
  for (const auto& i : idx) out.push_back(in[*i]);
  return Value::tensor(Shape(std::move(out)));
}

Value rule_transpose(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  auto a = require_dim(ctx, "transpose_c1", input, ctx.int_term(ctx.arg("dim0")));  // transpose_c1
  auto b = require_dim(ctx, "transpose_c2", input, ctx.int_term(ctx.arg("dim1")));  // transpose_c2
  const Shape& in = input.shape();
  if (!in.rank_known() || !a || !b) return unknown_tensor();
  if (in.rank() == 0) return Value::tensor(in);
  std::vector<Dim> out = in.dims();
  std::swap(out[*a], out[*b]);
  return Value::tensor(Shape(std::move(out)));
}

Value rule_t(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Message m;
  m << "t() expects a tensor with <= 2 dimensions, but input is " << ctx.rank(input) << "D";
  if (ctx.require("t_c1", le(ctx.rank(input), 2), m) == Status::Refuted) return unknown_tensor();  // t_c1
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  std::vector<Dim> out(in.dims().rbegin(), in.dims().rend());
  return Value::tensor(Shape(std::move(out)));
}

// Tensor.T: every axis reversed (no constraint in torch 1.13).
Value rule_T(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  return Value::tensor(Shape(std::vector<Dim>(in.dims().rbegin(), in.dims().rend())));
}

// Whether a size is 1: a constant, or decided by the facts; nullopt if not known.
std::optional<bool> is_one(RuleContext& ctx, const Dim& d) {
  Pred p = eq(d, 1);
  if (auto c = p.constant_value()) return c;
  return ctx.query(p);
}

Value rule_squeeze(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  const Shape& in = input.shape();
  if (ctx.is_none("dim")) {
    // no dim: drops every size-1 axis; the rank is known only if every axis is decided
    if (!in.rank_known()) return unknown_tensor();
    std::vector<Dim> out;
    for (const Dim& d : in.dims()) {
      auto one = is_one(ctx, d);
      if (!one) return unknown_tensor();
      if (!*one) out.push_back(d);
    }
    return Value::tensor(Shape(std::move(out)));
  }
  auto i = require_dim(ctx, "squeeze_c1", input, ctx.int_term(ctx.arg("dim")));  // squeeze_c1
  if (!in.rank_known() || !i) return unknown_tensor();
  if (in.rank() == 0) return Value::tensor(in);
  auto one = is_one(ctx, in[*i]);
  if (!one) return unknown_tensor();
  std::vector<Dim> out = in.dims();
  if (*one) out.erase(out.begin() + static_cast<std::ptrdiff_t>(*i));
  return Value::tensor(Shape(std::move(out)));
}

Value rule_unsqueeze(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  auto i = require_dim(ctx, "unsqueeze_c1", input, ctx.int_term(ctx.arg("dim")), true, 1);  // unsqueeze_c1
  const Shape& in = input.shape();
  if (!in.rank_known() || !i) return unknown_tensor();
  std::vector<Dim> out = in.dims();
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*i), Dim(1));
  return Value::tensor(Shape(std::move(out)));
}

// expand / expand_as: `<prefix>_c1` enough sizes, `_c2` leading new sizes
// non-negative, `_c3` existing axes match or are 1 (-1 keeps the axis).
// Deliberate difference: torch 1.13 accepts a negative size other than -1
// where the axis is new or 1 and builds a tensor with a negative size (or
// fails later computing its numel, depending on the order of the sizes);
// the rule rejects every negative size there.
Shape expand_to(RuleContext& ctx, const std::string& prefix, const Arg& input, const std::vector<IntTerm>& sizes) {
  const Shape& in = input.shape();
  std::size_t n = sizes.size();
  Message m1;
  m1 << "the number of sizes provided (" << std::to_string(n)
     << ") must be greater or equal to the number of dimensions in the tensor (" << ctx.rank(input) << ")";
  if (ctx.require(prefix + "_c1", le(ctx.rank(input), static_cast<int64_t>(n)), m1) == Status::Refuted)  // _c1
    return Shape::unknown();
  if (!in.rank_known()) {
    std::vector<Dim> out;
    for (const IntTerm& s : sizes) out.push_back(Dim::ite(eq(s.dim(), -1), ctx.fresh("expand"), s.dim()));
    return Shape(std::move(out));
  }
  std::size_t r = in.rank();
  std::vector<Dim> out;
  for (std::size_t i = 0; i < n; ++i) {
    const IntTerm& s = sizes[i];
    if (i < n - r) {
      Message m;
      m << "the expanded size of the tensor (" << s << ") isn't allowed in a leading, non-existing dimension "
        << std::to_string(i);
      ctx.require(prefix + "_c2", ge(s, 0), m);  // _c2
      out.push_back(s.dim());
      continue;
    }
    IntTerm x = ctx.size(input, static_cast<int64_t>(i - (n - r)));
    Message m;
    m << "the expanded size of the tensor (" << s << ") must match the existing size (" << x
      << ") at non-singleton dimension " << std::to_string(i) << ".  target sizes: ";
    append_list(m, sizes);
    m << ".  tensor sizes: " << ctx.shape_hole(input);
    ctx.require(prefix + "_c3", eq(s, -1) || eq(s, x) || (eq(x, 1) && ge(s, 0)), m);  // _c3
    out.push_back(Dim::ite(eq(s.dim(), -1), x.dim(), s.dim()));
  }
  return Shape(std::move(out));
}

Value rule_expand(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return Value::tensor(expand_to(ctx, "expand", input, int_terms(ctx, ctx.int_list("size"))));
}

Value rule_expand_as(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg other = ctx.tensor("other");
  if (!other.shape().rank_known()) return unknown_tensor();
  return Value::tensor(expand_to(ctx, "expand_as", input, ctx.sizes(other)));
}

Value rule_repeat(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::vector<IntTerm> reps = int_terms(ctx, ctx.int_list("repeats"));
  std::size_t n = reps.size();
  Message m1;
  m1 << "number of dimensions of repeat dims (" << std::to_string(n)
     << ") can not be smaller than number of dimensions of tensor (" << ctx.rank(input) << ")";
  if (ctx.require("repeat_c1", le(ctx.rank(input), static_cast<int64_t>(n)), m1) == Status::Refuted)  // repeat_c1
    return unknown_tensor();
  std::vector<BoolTerm> nonneg;
  for (const IntTerm& s : reps) nonneg.push_back(ge(s, 0));
  Message m2;
  m2 << "trying to create tensor with negative dimension: repeats ";
  append_list(m2, reps);
  ctx.require("repeat_c2", all_of(nonneg), m2);  // repeat_c2
  const Shape& in = input.shape();
  std::vector<Dim> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!in.rank_known()) {
      out.push_back(ctx.fresh("repeat"));
      continue;
    }
    std::size_t lead = n - in.rank();
    Dim base = i < lead ? Dim(1) : in[i - lead];
    out.push_back(base * reps[i].dim());
  }
  return Value::tensor(Shape(std::move(out)));
}

}  // namespace

void register_shape_rules(RuleRegistry& r) {
  r.add("Tensor.view", "input, *shape", rule_view);
  r.add("Tensor.reshape", "input, *shape", rule_reshape);
  r.add("torch.reshape", "input, shape", rule_reshape);
  r.add("Tensor.view_as", "input, other", rule_view_as);
  r.add("Tensor.reshape_as", "input, other", rule_reshape_as);
  r.add("torch.flatten", "input, start_dim=0, end_dim=-1", rule_flatten);
  r.add("Tensor.flatten", "input, start_dim=0, end_dim=-1", rule_flatten);
  r.add("Tensor.unflatten", "input, dim, sizes", rule_unflatten);
  r.add("torch.unflatten", "input, dim, sizes", rule_unflatten);
  r.add("Tensor.permute", "input, *dims", rule_permute);
  r.add("torch.permute", "input, dims", rule_permute);
  r.add("torch.transpose", "input, dim0, dim1", rule_transpose);
  r.add("Tensor.transpose", "input, dim0, dim1", rule_transpose);
  r.add("torch.swapaxes", "input, dim0, dim1", rule_transpose);
  r.add("Tensor.swapaxes", "input, dim0, dim1", rule_transpose);
  r.add("torch.t", "input", rule_t);
  r.add("Tensor.t", "input", rule_t);
  r.add("Tensor.T", "input", rule_T);
  r.add("torch.squeeze", "input, dim=None", rule_squeeze);
  r.add("Tensor.squeeze", "input, dim=None", rule_squeeze);
  r.add("torch.unsqueeze", "input, dim", rule_unsqueeze);
  r.add("Tensor.unsqueeze", "input, dim", rule_unsqueeze);
  r.add("Tensor.expand", "input, *size, implicit=False", rule_expand);
  r.add("Tensor.expand_as", "input, other", rule_expand_as);
  r.add("Tensor.repeat", "input, *repeats", rule_repeat);
}

}  // namespace gshape::gradual
