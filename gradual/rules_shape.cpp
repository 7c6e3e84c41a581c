// Rules that rearrange a tensor's axes without computing on its data:
// view, reshape, flatten, unflatten, permute, transpose, t, squeeze,
// unsqueeze, expand, expand_as, repeat, view_as, reshape_as; triu, tril,
// flip, fliplr, flipud, roll, movedim, tile, repeat_interleave, diagonal, diag,
// broadcast_to, broadcast_tensors, atleast_1d/2d/3d, ravel, unfold.
#include <algorithm>
#include <optional>

#include "gradual/rules.h"

namespace gshape::gradual {
namespace {

// PyTorch's computeStride: the strides of `newshape` viewing memory laid out
// as (`oldshape`, `oldstride`), or nullopt when no view can (a dimension
// would span two non-contiguous chunks).
std::optional<std::vector<int64_t>> view_strides(const std::vector<int64_t>& oldshape,
                                                 const std::vector<int64_t>& oldstride,
                                                 const std::vector<int64_t>& newshape) {
  std::vector<int64_t> newstride(newshape.size(), 1);
  if (oldshape.empty()) return newstride;
  int64_t numel = 1;
  for (int64_t s : oldshape) numel *= s;
  if (numel == 0 && oldshape == newshape) return oldstride;
  if (numel == 0) {
    for (std::size_t i = newshape.size(); i-- > 0;)
      newstride[i] = i + 1 == newshape.size() ? 1 : std::max<int64_t>(newshape[i + 1], 1) * newstride[i + 1];
    return newstride;
  }
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[static_cast<std::size_t>(tensor_d)];
    if (tensor_d == 0 || (oldshape[static_cast<std::size_t>(tensor_d - 1)] != 1 &&
                          oldstride[static_cast<std::size_t>(tensor_d - 1)] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[static_cast<std::size_t>(view_d)] == 1)) {
        newstride[static_cast<std::size_t>(view_d)] = view_numel * chunk_base_stride;
        view_numel *= newshape[static_cast<std::size_t>(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[static_cast<std::size_t>(tensor_d - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

// Whether `out` only splits axes of `in` into several (and adds or drops
// axes of size 1): such a view exists for any strides, since each new axis
// takes a stride within its old one. `[B, T, C]` → `[B, T, h, C // h]` (heads
// of a projection split off its last axis) is one; merging axes is not.
bool splits_only(RuleContext& ctx, const Shape& in, const Shape& out) {
  if (!in.rank_known() || !out.rank_known()) return false;
  auto holds = [&](const Pred& p) { return p.is_true() || ctx.query(p) == std::optional<bool>(true); };
  std::size_t j = 0;
  for (std::size_t i = 0; i < in.rank(); ++i) {
    if (holds(eq(in[i], Dim(1)))) continue;  // a size-1 axis can go anywhere
    Dim group = 1;
    while (!holds(eq(group, in[i]))) {
      if (j >= out.rank()) return false;
      group = group * out[j++];
    }
  }
  for (; j < out.rank(); ++j)
    if (!holds(eq(out[j], Dim(1)))) return false;
  return true;
}

// `view_c6`: a view must be expressible with the input's strides. A tensor
// known to be contiguous always is, and so is a view that only splits axes;
// one laid out otherwise (transposed, expanded, sliced, or of unknown
// origin) is decided when its strides are known (at run time), else deferred.
void require_viewable(RuleContext& ctx, const Arg& input, const Shape& out) {
  const Value& v = input.value;
  if (!v.is_tensor() || v.contiguous()) return;
  if (!v.strides() && splits_only(ctx, v.shape(), out)) return;
  Message m;
  m << "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
       "two contiguous subspaces); the input of shape "
    << ctx.shape_hole(input) << " is not contiguous: use .reshape(...) instead";
  std::optional<std::vector<int64_t>> in = v.shape().constant_sizes(), wanted = out.constant_sizes();
  if (v.strides() && in && wanted) {
    ctx.require("view_c6", BoolTerm(view_strides(*in, *v.strides(), *wanted).has_value()), m);  // view_c6
    return;
  }
  Dim layout = ctx.fresh(input.role + "'s layout");
  ctx.require("view_c6", eq(IntTerm::opaque(layout, input.role + "'s layout"), 0), m);  // view_c6
}

// view / reshape: `view_c1`..`view_c5` (reshape_c1..c5), see infer_view_shape;
// view_c6 for view alone (reshape copies when no view can).
Value view_like(RuleContext& ctx, const std::string& prefix) {
  Arg input = ctx.tensor("input");
  std::vector<IntTerm> sizes = int_terms(ctx, ctx.int_list("shape"));
  Shape out = infer_view_shape(ctx, prefix, 1, ctx.numel(input), sizes);
  if (prefix == "view" && !ctx.any_refuted()) require_viewable(ctx, input, out);
  return Value::tensor(std::move(out));
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

// Wraps each of `dims` (in range: `range_tag`) and requires them distinct
// (`distinct_tag`, message prefix `what`). Returns the wrapped terms.
std::vector<IntTerm> distinct_dims(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& dims,
                                   const std::string& range_tag, const std::string& distinct_tag,
                                   const std::string& what, std::vector<std::optional<std::size_t>>* idx = nullptr) {
  IntTerm bound = max(ctx.rank(input), 1);
  std::vector<IntTerm> wrapped;
  for (const IntTerm& d : dims) {
    auto i = require_dim(ctx, range_tag, input, d);
    if (idx) idx->push_back(i);
    wrapped.push_back(ite(lt(d, 0), d + bound, d));
  }
  std::vector<BoolTerm> distinct;
  for (std::size_t i = 0; i < wrapped.size(); ++i)
    for (std::size_t j = i + 1; j < wrapped.size(); ++j) distinct.push_back(ne(wrapped[i], wrapped[j]));
  if (!distinct.empty()) {
    Message m;
    m << what;
    append_list(m, dims);
    ctx.require(distinct_tag, all_of(distinct), m);
  }
  return wrapped;
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
  distinct_dims(ctx, input, dims, "permute_c2", "permute_c3", "repeated dim in permute ", &idx);  // permute_c2, permute_c3
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

// Tensor.mT / Tensor.mH: the last two axes swapped; a 0-d tensor is itself,
// a 1-d one is an error. Tensor.H: the same for 0-d and 2-d tensors only.
template <bool Batched>
Value rule_matrix_transpose(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm rank = ctx.rank(input);
  Message m;
  const char* attr = Batched ? (ctx.rule_name() == "Tensor.mH" ? "mH" : "mT") : "H";
  m << "tensor." << attr << " is only supported on "
    << (Batched ? "matrices or batches of matrices" : "matrices (2-D tensors)") << ". Got " << rank << "-D tensor.";
  BoolTerm ok = Batched ? ne(rank, 1) : eq(rank, 0) || eq(rank, 2);
  if (ctx.require(Batched ? "mt_c1" : "adjoint_c1", ok, m) == Status::Refuted) return unknown_tensor();  // mt_c1 adjoint_c1
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  std::vector<Dim> out = in.dims();
  if (out.size() >= 2) std::swap(out[out.size() - 2], out[out.size() - 1]);
  return Value::tensor(Shape(std::move(out)));
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

// repeat's sizes (shared with tile): the input padded with leading 1s to
// len(reps), times reps; `tag`: no result size is negative (a negative
// repetition passes only on an axis of size 0, since 0 * r is 0). With an
// unknown rank the axes are not known: the check is that every repetition
// is non-negative or the input is empty (necessary, never a false alarm).
// Returns the result shape (fresh sizes when the rank is unknown).
Shape repeat_sizes(RuleContext& ctx, const std::string& tag, const std::string& what, const Arg& input,
                   const std::vector<IntTerm>& reps) {
  const Shape& in = input.shape();
  std::size_t n = reps.size();
  Message m;
  m << "trying to create tensor with negative dimension: " << what << " ";
  append_list(m, reps);
  m << " on shape " << ctx.shape_hole(input);
  if (!in.rank_known()) {
    std::vector<BoolTerm> nonneg;
    for (const IntTerm& s : reps) nonneg.push_back(ge(s, 0));
    ctx.require(tag, all_of(nonneg) || eq(ctx.numel(input), 0), m);
    std::vector<Dim> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(ctx.fresh("repeat"));
    return Shape(std::move(out));
  }
  std::size_t lead = n - in.rank();
  std::vector<IntTerm> out;
  std::vector<BoolTerm> nonneg;
  for (std::size_t i = 0; i < n; ++i) {
    IntTerm base = i < lead ? IntTerm(1) : ctx.size(input, static_cast<int64_t>(i - lead));
    out.push_back(base * reps[i]);
    nonneg.push_back(ge(reps[i], 0) || eq(base, 0));
  }
  ctx.require(tag, all_of(nonneg), m);
  return shape_of_terms(out);
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
  Shape out = repeat_sizes(ctx, "repeat_c2", "repeats", input, reps);  // repeat_c2
  return Value::tensor(out);
}


// triu / tril (and the in-place forms): `<op>_c1` at least 2 dimensions,
// unless the input is empty (torch 1.13 skips the kernel, which reads
// size(-2), for an empty input).
Value triangle(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  Message m;
  m << op << ": input tensor must have at least 2 dimensions, got shape " << ctx.shape_hole(input);
  BoolTerm ok = ge(ctx.rank(input), 2) || eq(ctx.numel(input), 0);
  if (ctx.require(op + "_c1", ok, m) == Status::Refuted) return unknown_tensor();  // triu_c1, tril_c1
  return Value::tensor(input.shape());
}
Value rule_triu(RuleContext& ctx) { return triangle(ctx, "triu"); }
Value rule_tril(RuleContext& ctx) { return triangle(ctx, "tril"); }

// flip(input, dims): `flip_c1` each dim in range, `flip_c2` no dim twice.
Value flip_dims(RuleContext& ctx, const Arg& input, const std::vector<Arg>& dims) {
  distinct_dims(ctx, input, int_terms(ctx, dims), "flip_c1", "flip_c2",  // flip_c1, flip_c2
                "a dim appears multiple times in the list of dims ");
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(input.shape());
}
Value rule_flip(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return flip_dims(ctx, input, ctx.int_or_list(ctx.arg("dims")));
}
Value rule_tensor_flip(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return flip_dims(ctx, input, ctx.int_list("dims"));
}

// fliplr / flipud: at least 2 (`fliplr_c1`) or 1 (`flipud_c1`) dimensions.
Value flip_lr_ud(RuleContext& ctx, const std::string& op, int64_t min_rank) {
  Arg input = ctx.tensor("input");
  Message m;
  m << op << ": input must be >= " << std::to_string(min_rank) << "-d, got shape " << ctx.shape_hole(input);
  if (ctx.require(op + "_c1", ge(ctx.rank(input), min_rank), m) == Status::Refuted) return unknown_tensor();  // fliplr_c1, flipud_c1
  return Value::tensor(input.shape());
}
Value rule_fliplr(RuleContext& ctx) { return flip_lr_ud(ctx, "fliplr", 2); }
Value rule_flipud(RuleContext& ctx) { return flip_lr_ud(ctx, "flipud", 1); }

// roll(input, shifts, dims=None) as torch 1.13's roll_cpu: `roll_c1` some
// shift, `roll_c2` one dim per shift (or no dims and one shift: the
// flattened tensor rolls), `roll_c3` each dim in range (without scalar
// wrap) unless the input is empty (an empty tensor is returned as is).
Value rule_roll(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::vector<Arg> shifts = ctx.int_or_list(ctx.arg("shifts"));
  std::vector<Arg> dims = ctx.is_none("dims") ? std::vector<Arg>{} : ctx.int_or_list(ctx.arg("dims"));
  Message m1;
  m1 << "`shifts` required";
  if (ctx.require("roll_c1", BoolTerm(!shifts.empty()), m1) == Status::Refuted) return unknown_tensor();  // roll_c1
  Message m2;
  m2 << "shifts and dimensions must align. shifts: " << std::to_string(shifts.size())
     << ", dims: " << std::to_string(dims.size());
  bool aligned = shifts.size() == dims.size() || (dims.empty() && shifts.size() == 1);
  if (ctx.require("roll_c2", BoolTerm(aligned), m2) == Status::Refuted) return unknown_tensor();  // roll_c2
  IntTerm r = ctx.rank(input);
  BoolTerm empty = eq(ctx.numel(input), 0);
  for (const Arg& a : dims) {
    IntTerm d = ctx.int_term(a);
    Message m;
    m << "dimension out of range (expected to be in range of [" << -r << ", " << r - 1 << "], but got " << d << ")";
    ctx.require("roll_c3", empty || (le(-r, d) && lt(d, r)), m);  // roll_c3
  }
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(input.shape());
}

// movedim(input, source, destination) (moveaxis alike): `movedim_c1` as
// many destinations as sources, `movedim_c2` each dim in range,
// `movedim_c3` no source twice, `movedim_c4` no destination twice.
Value rule_movedim(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::vector<IntTerm> src = int_terms(ctx, ctx.int_or_list(ctx.arg("source")));
  std::vector<IntTerm> dst = int_terms(ctx, ctx.int_or_list(ctx.arg("destination")));
  Message m1;
  m1 << "movedim: invalid source or destination dims: source (";
  append_list(m1, src);
  m1 << " dims) should contain the same number of dims as destination (";
  append_list(m1, dst);
  m1 << " dims)";
  if (ctx.require("movedim_c1", BoolTerm(src.size() == dst.size()), m1) == Status::Refuted)  // movedim_c1
    return unknown_tensor();
  std::vector<std::optional<std::size_t>> si, di;
  distinct_dims(ctx, input, src, "movedim_c2", "movedim_c3", "movedim: repeated dim in `source` ", &si);  // movedim_c2, c3
  distinct_dims(ctx, input, dst, "movedim_c2", "movedim_c4", "movedim: repeated dim in `destination` ", &di);  // movedim_c4
  const Shape& in = input.shape();
  if (ctx.any_refuted()) return unknown_tensor();
  if (!in.rank_known()) return unknown_tensor();
  if (in.rank() == 0) return Value::tensor(in);
  auto known = [](const auto& v) { return std::all_of(v.begin(), v.end(), [](const auto& i) { return i.has_value(); }); };
  if (!known(si) || !known(di)) return Value::tensor(Shape::fresh("movedim", in.rank()));
  std::size_t r = in.rank();
  std::vector<std::optional<Dim>> out(r);
  std::vector<bool> moved(r, false);
  for (std::size_t i = 0; i < si.size(); ++i) {
    out[*di[i]] = in[*si[i]];
    moved[*si[i]] = true;
  }
  std::size_t next = 0;
  for (std::size_t k = 0; k < r; ++k) {
    if (moved[k]) continue;
    while (out[next]) ++next;
    out[next] = in[k];
  }
  std::vector<Dim> dims;
  for (const auto& d : out) dims.push_back(*d);
  return Value::tensor(Shape(std::move(dims)));
}

// tile(input, dims): the repetitions are padded with leading 1s to the
// rank, then it is repeat: `tile_c1` is repeat_c2 (no result size is negative).
Value tile_by(RuleContext& ctx, const Arg& input, std::vector<IntTerm> reps) {
  const Shape& in = input.shape();
  if (in.rank_known())
    while (reps.size() < in.rank()) reps.insert(reps.begin(), IntTerm(1));
  Shape out = repeat_sizes(ctx, "tile_c1", "tile dims", input, reps);  // tile_c1
  if (ctx.any_refuted() || !in.rank_known()) return unknown_tensor();
  return Value::tensor(out);
}
Value rule_tile(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return tile_by(ctx, input, int_terms(ctx, ctx.int_or_list(ctx.arg("dims"))));
}
Value rule_tensor_tile(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return tile_by(ctx, input, int_terms(ctx, ctx.int_list("dims")));
}

// repeat_interleave(input, repeats, dim=None): with int repeats,
// `repeat_interleave_c1` repeats >= 0, `repeat_interleave_c2` dim in range
// (without scalar wrap). Without dim the input is flattened. Tensor
// repeats: the repeated size is data (a fresh size).
Value rule_repeat_interleave(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg repeats = ctx.arg("repeats");
  Arg dim = ctx.arg("dim");
  if (repeats.is_none()) return Value::tensor(Shape{ctx.fresh("repeat_interleave")});  // repeat_interleave(repeats)
  bool by_tensor = repeats.is_tensor() || repeats.value.is_unknown();
  std::optional<IntTerm> k;
  if (!by_tensor) {
    k = ctx.int_term(repeats);
    Message m1;
    m1 << "repeats can not be negative, got " << *k;
    ctx.require("repeat_interleave_c1", ge(*k, 0), m1);  // repeat_interleave_c1
  }
  const Shape& in = input.shape();
  if (dim.is_none()) {
    if (ctx.any_refuted()) return unknown_tensor();
    if (!k) return Value::tensor(Shape{ctx.fresh("repeat_interleave")});
    return Value::tensor(Shape{(ctx.numel(input) * *k).dim()});
  }
  auto d = require_dim(ctx, "repeat_interleave_c2", input, ctx.int_term(dim), false);  // repeat_interleave_c2
  if (ctx.any_refuted() || !d || !in.rank_known()) return unknown_tensor();
  std::vector<Dim> out = in.dims();
  out[*d] = k ? (ctx.size(input, static_cast<int64_t>(*d)) * *k).dim() : ctx.fresh("repeat_interleave");
  return Value::tensor(Shape(std::move(out)));
}

// Length of the diagonal at `offset` of an n x m matrix (may be negative:
// the caller checks or clamps it).
IntTerm diagonal_length(const IntTerm& n, const IntTerm& m, const IntTerm& offset) {
  return ite(ge(offset, 0), min(n, m - offset), min(n + offset, m));
}

// diagonal(input, offset=0, dim1=0, dim2=1): `diagonal_c1` dim1 and
// `diagonal_c2` dim2 in range, `diagonal_c3` they differ. The two axes are
// dropped and the diagonal's length, clamped at 0, appended.
Value rule_diagonal(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm offset = ctx.int_term(ctx.arg("offset"));
  IntTerm d1 = ctx.int_term(ctx.arg("dim1"));
  IntTerm d2 = ctx.int_term(ctx.arg("dim2"));
  auto a = require_dim(ctx, "diagonal_c1", input, d1);  // diagonal_c1
  auto b = require_dim(ctx, "diagonal_c2", input, d2);  // diagonal_c2
  IntTerm bound = max(ctx.rank(input), 1);
  IntTerm w1 = ite(lt(d1, 0), d1 + bound, d1), w2 = ite(lt(d2, 0), d2 + bound, d2);
  Message m3;
  m3 << "diagonal dimensions cannot be identical " << d1 << ", " << d2;
  ctx.require("diagonal_c3", ne(w1, w2), m3);  // diagonal_c3
  const Shape& in = input.shape();
  if (ctx.any_refuted() || !a || !b || !in.rank_known()) return unknown_tensor();
  IntTerm len = max(diagonal_length(ctx.size(input, static_cast<int64_t>(*a)), ctx.size(input, static_cast<int64_t>(*b)), offset), 0);
  std::vector<Dim> out;
  for (std::size_t k = 0; k < in.rank(); ++k)
    if (k != *a && k != *b) out.push_back(in[k]);
  out.push_back(len.dim());
  return Value::tensor(Shape(std::move(out)));
}

// diag(input, diagonal=0): `diag_c1` a vector or a matrix, `diag_c2` (a
// matrix) the diagonal at that offset exists or is just past the edge
// (torch 1.13 sizes the result min(n, m - k), or min(n + k, m) below, and
// fails on a negative size). A vector of n gives an (n+|k|)-square matrix.
Value rule_diag(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm k = ctx.int_term(ctx.arg("diagonal"));
  Message m1;
  m1 << "diag(): matrix or a vector expected, got shape " << ctx.shape_hole(input);
  if (ctx.require("diag_c1", eq(ctx.rank(input), 1) || eq(ctx.rank(input), 2), m1) == Status::Refuted)  // diag_c1
    return unknown_tensor();
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  if (in.rank() == 1) {
    IntTerm n = ctx.size(input, 0) + abs(k);
    return Value::tensor(Shape{n.dim(), n.dim()});
  }
  IntTerm len = diagonal_length(ctx.size(input, 0), ctx.size(input, 1), k);
  Message m2;
  m2 << "diag(): offset " << k << " is beyond the edge of a " << ctx.size(input, 0) << "x" << ctx.size(input, 1)
     << " matrix (diagonal length " << len << ")";
  if (ctx.require("diag_c2", ge(len, 0), m2) == Status::Refuted) return unknown_tensor();  // diag_c2
  return Value::tensor(Shape{len.dim()});
}

// broadcast_to(input, size): expand's checks as `broadcast_to_c1`–`c3`.
Value rule_broadcast_to(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  return Value::tensor(expand_to(ctx, "broadcast_to", input, int_terms(ctx, ctx.int_or_list(ctx.arg("size")))));
}

// broadcast_tensors(*tensors): every pair of axes broadcasts
// (`broadcast_c1`); one result of the common shape per input.
Value rule_broadcast_tensors(RuleContext& ctx) {
  std::vector<Arg> ts;
  for (const Arg& a : ctx.elements(ctx.arg("tensors"))) {
    if (a.value.is_sequence()) {
      for (const Arg& b : ctx.elements(a)) ts.push_back(ctx.as_tensor(b));
    } else {
      ts.push_back(ctx.as_tensor(a));
    }
  }
  std::vector<IntTerm> acc;
  bool known = true;
  for (const Arg& t : ts) {
    if (!t.shape().rank_known()) {
      known = false;
      continue;
    }
    acc = broadcast_terms(ctx, "broadcast_c1", acc, sizes_from_end(ctx, t));  // broadcast_c1
  }
  Value item = Value::tensor(known ? shape_of_terms(acc) : Shape::unknown());
  return Value::tuple(std::vector<Value>(ts.size(), item));
}

// atleast_1d / 2d / 3d: no constraint; a 0-d input becomes [1] / [1, 1] /
// [1, 1, 1], a 1-d [n] becomes [1, n] (2d) or [1, n, 1] (3d), a 2-d one
// [n, m, 1] (3d). Several tensors (or one sequence) give a tuple.
Shape at_least(const Shape& in, std::size_t r) {
  if (!in.rank_known() || in.rank() >= r) return in;
  std::vector<Dim> d = in.dims();
  if (d.empty()) return Shape(std::vector<Dim>(r, Dim(1)));
  if (r == 2) return Shape{Dim(1), d[0]};
  if (d.size() == 1) return Shape{Dim(1), d[0], Dim(1)};
  return Shape{d[0], d[1], Dim(1)};
}
Value at_least_all(RuleContext& ctx, std::size_t r) {
  std::vector<Arg> args = ctx.elements(ctx.arg("tensors"));
  bool sequence = args.size() == 1 && args[0].value.is_sequence();
  if (sequence) args = ctx.elements(args[0]);
  std::vector<Value> out;
  for (const Arg& a : args) out.push_back(Value::tensor(at_least(ctx.as_tensor(a).shape(), r)));
  if (out.size() == 1 && !sequence) return out[0];
  return Value::tuple(std::move(out));
}
Value rule_atleast_1d(RuleContext& ctx) { return at_least_all(ctx, 1); }
Value rule_atleast_2d(RuleContext& ctx) { return at_least_all(ctx, 2); }
Value rule_atleast_3d(RuleContext& ctx) { return at_least_all(ctx, 3); }

// ravel(input): [numel]; no constraint.
Value rule_ravel(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  if (!input.shape().rank_known()) return Value::tensor(Shape{ctx.fresh("ravel")});
  return Value::tensor(Shape{input.shape().numel()});
}

// torch.view_as_real(input): a complex tensor seen as pairs of reals, the
// shape with an axis of 2 appended (its complex dtype is not a shape
// condition: not checked).
Value rule_view_as_real(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  const Shape& in = input.shape();
  if (!in.rank_known()) {
    std::vector<Dim> suffix = in.known_suffix();
    suffix.push_back(Dim(2));
    return Value::tensor(Shape::unknown_with_suffix(std::move(suffix)), input.value.contiguous());
  }
  std::vector<Dim> out = in.dims();
  out.push_back(Dim(2));
  return Value::tensor(Shape(std::move(out)), input.value.contiguous());
}

// torch.view_as_complex(input): pairs of reals seen as complex numbers,
// `view_as_complex_c1` the input has an axis, `view_as_complex_c2` its last
// axis is 2; the result drops it. Its layout conditions (last stride 1, the
// other strides even) and dtype are not checked.
Value rule_view_as_complex(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Message m1;
  m1 << "Input tensor must have one or more dimensions, got a tensor of shape " << ctx.shape_hole(input);
  if (ctx.require("view_as_complex_c1", ge(ctx.rank(input), 1), m1) == Status::Refuted) return unknown_tensor();  // view_as_complex_c1
  Message m2;
  m2 << "Tensor must have a last dimension of size 2, got " << ctx.size(input, -1) << " (shape " << ctx.shape_hole(input) << ")";
  if (ctx.require("view_as_complex_c2", eq(ctx.size(input, -1), 2), m2) == Status::Refuted) return unknown_tensor();  // view_as_complex_c2
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  std::vector<Dim> out(in.dims().begin(), in.dims().end() - 1);
  return Value::tensor(Shape(std::move(out)), input.value.contiguous());
}

// Tensor.unfold(dimension, size, step): `unfold_c1` dimension in range,
// `unfold_c2` `0 <= size <= n` (n the size there, 1 for a 0-d input),
// `unfold_c3` step > 0. The axis becomes `(n - size) // step + 1` and
// `size` is appended (a 0-d input gives [size]).
Value rule_unfold(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm dim = ctx.int_term(ctx.arg("dimension"));
  IntTerm size = ctx.int_term(ctx.arg("size"));
  IntTerm step = ctx.int_term(ctx.arg("step"));
  auto d = require_dim(ctx, "unfold_c1", input, dim);  // unfold_c1
  const Shape& in = input.shape();
  std::optional<IntTerm> n = nonempty_size_at(ctx, input, d, dim);
  if (n) {
    Message m;
    m << "maximum size for tensor at dimension " << dim << " is " << *n << " but size is " << size;
    ctx.require("unfold_c2", le(0, size) && le(size, *n), m);  // unfold_c2
  }
  Message m3;
  m3 << "step is " << step << " but must be > 0";
  ctx.require("unfold_c3", gt(step, 0), m3);  // unfold_c3
  if (ctx.any_refuted() || !in.rank_known() || !d || !n) return unknown_tensor();
  if (in.rank() == 0) return Value::tensor(Shape{size.dim()});
  std::vector<Dim> out = in.dims();
  out[*d] = (floordiv(*n - size, step) + 1).dim();
  out.push_back(size.dim());
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
  // in place: the same requirements and new shape (the interpreter gives the
  // receiver that shape, and forgets it in other holders)
  r.add("Tensor.t_", "input", rule_t);
  r.add("Tensor.transpose_", "input, dim0, dim1", rule_transpose);
  r.add("Tensor.swapaxes_", "input, dim0, dim1", rule_transpose);
  r.add("Tensor.swapdims_", "input, dim0, dim1", rule_transpose);
  r.add("Tensor.squeeze_", "input, dim=None", rule_squeeze);
  r.add("Tensor.unsqueeze_", "input, dim", rule_unsqueeze);
  r.add("Tensor.mT", "input", rule_matrix_transpose<true>);
  r.add("Tensor.mH", "input", rule_matrix_transpose<true>);
  r.add("Tensor.H", "input", rule_matrix_transpose<false>);
  r.add("torch.squeeze", "input, dim=None", rule_squeeze);
  r.add("Tensor.squeeze", "input, dim=None", rule_squeeze);
  r.add("torch.unsqueeze", "input, dim", rule_unsqueeze);
  r.add("Tensor.unsqueeze", "input, dim", rule_unsqueeze);
  r.add("Tensor.expand", "input, *size, implicit=False", rule_expand);
  r.add("Tensor.expand_as", "input, other", rule_expand_as);
  r.add("Tensor.repeat", "input, *repeats", rule_repeat);
  for (const char* name : {"torch.triu", "Tensor.triu", "Tensor.triu_"}) r.add(name, "input, diagonal=0, *, out=None", rule_triu);
  for (const char* name : {"torch.tril", "Tensor.tril", "Tensor.tril_"}) r.add(name, "input, diagonal=0, *, out=None", rule_tril);
  r.add("torch.flip", "input, dims", rule_flip);
  r.add("Tensor.flip", "input, *dims", rule_tensor_flip);
  for (const char* name : {"torch.fliplr", "Tensor.fliplr"}) r.add(name, "input", rule_fliplr);
  for (const char* name : {"torch.flipud", "Tensor.flipud"}) r.add(name, "input", rule_flipud);
  for (const char* name : {"torch.roll", "Tensor.roll"}) r.add(name, "input, shifts, dims=None", rule_roll);
  for (const char* name : {"torch.movedim", "Tensor.movedim", "torch.moveaxis", "Tensor.moveaxis"})
    r.add(name, "input, source, destination", rule_movedim);
  r.add("torch.tile", "input, dims", rule_tile);
  r.add("Tensor.tile", "input, *dims", rule_tensor_tile);
  for (const char* name : {"torch.repeat_interleave", "Tensor.repeat_interleave"})
    r.add(name, "input, repeats=None, dim=None, *, output_size=None", rule_repeat_interleave);
  for (const char* name : {"torch.diagonal", "Tensor.diagonal"}) r.add(name, "input, offset=0, dim1=0, dim2=1", rule_diagonal);
  for (const char* name : {"torch.diag", "Tensor.diag"}) r.add(name, "input, diagonal=0, *, out=None", rule_diag);
  r.add("torch.broadcast_to", "input, size", rule_broadcast_to);
  r.add("Tensor.broadcast_to", "input, size", rule_broadcast_to);
  r.add("torch.broadcast_tensors", "*tensors", rule_broadcast_tensors);
  r.add("torch.atleast_1d", "*tensors", rule_atleast_1d);
  r.add("torch.atleast_2d", "*tensors", rule_atleast_2d);
  r.add("torch.atleast_3d", "*tensors", rule_atleast_3d);
  for (const char* name : {"torch.ravel", "Tensor.ravel"}) r.add(name, "input", rule_ravel);
  r.add("Tensor.unfold", "input, dimension, size, step", rule_unfold);
  r.add("torch.view_as_real", "input", rule_view_as_real);
  r.add("torch.view_as_complex", "input", rule_view_as_complex);
}

}  // namespace gshape::gradual
