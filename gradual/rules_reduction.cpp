// Reductions and scans: sum, mean, prod, norm, any, all, max, min, argmax,
// argmin, softmax, log_softmax, cumsum, cumprod, logsumexp; topk, sort,
// argsort, var, std, var_mean, std_mean, median, nanmedian, amax, amin, F.normalize,
// kthvalue, mode, cummax, cummin, logcumsumexp, count_nonzero.
#include "gradual/rules.h"

namespace gshape::gradual {
namespace {

// The dims of a reduction: None or missing → every axis; an int; a list.
std::vector<Arg> reduction_dims(RuleContext& ctx, const Arg& dim) {
  if (dim.is_none()) return {};
  return ctx.int_or_list(dim);
}

// sum / mean / norm / logsumexp: `<op>_c1` each dim in range, `<op>_c2` no dim twice.
Value reduce_over(RuleContext& ctx, const std::string& op, const std::string& dim_param) {
  Arg input = ctx.tensor("input");
  std::vector<Arg> dims = reduction_dims(ctx, ctx.arg(dim_param));
  bool keepdim = ctx.bool_constant("keepdim");
  return Value::tensor(reduce_shape(ctx, op + "_c1", op + "_c2", input, dims, keepdim));
}

Value rule_sum(RuleContext& ctx) { return reduce_over(ctx, "sum", "dim"); }
Value rule_mean(RuleContext& ctx) { return reduce_over(ctx, "mean", "dim"); }
Value rule_norm(RuleContext& ctx) { return reduce_over(ctx, "norm", "dim"); }
Value rule_logsumexp(RuleContext& ctx) { return reduce_over(ctx, "logsumexp", "dim"); }

// prod / any / all take one optional int dim: `<op>_c1` it is in range.
Value reduce_single(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  Arg dim = ctx.arg("dim");
  if (dim.is_none()) return Value::tensor(Shape(std::vector<Dim>{}));
  bool keepdim = ctx.bool_constant("keepdim");
  return Value::tensor(reduce_shape(ctx, op + "_c1", op + "_c1", input, {dim}, keepdim));
}

Value rule_prod(RuleContext& ctx) { return reduce_single(ctx, "prod"); }
Value rule_any(RuleContext& ctx) { return reduce_single(ctx, "any"); }
Value rule_all(RuleContext& ctx) { return reduce_single(ctx, "all"); }

// max/min over one dim (values and indices), argmax/argmin: the dim is in
// range (`<op>_c2`) and the reduced axis is not empty (`<op>_c3`); without a
// dim the input is not empty (`<op>_c1`).
Shape reduce_nonempty(RuleContext& ctx, const std::string& op, const Arg& input, const Arg& dim, bool keepdim) {
  if (dim.is_none()) {
    Message m;
    m << op << "(): expected reduction dim to be specified for input.numel() == 0";
    ctx.require(op + "_c1", gt(ctx.numel(input), 0), m);  // <op>_c1
    return Shape(std::vector<Dim>{});
  }
  IntTerm d = ctx.int_term(dim);
  auto i = require_dim(ctx, op + "_c2", input, d);  // <op>_c2
  const Shape& in = input.shape();
  std::optional<IntTerm> size;
  if (i && in.rank_known() && in.rank() > 0) {
    size = ctx.size(input, static_cast<int64_t>(*i));
  } else if (!in.rank_known()) {
    // the axis is not known statically: the runtime reads it through the dim itself
    size = d.is_literal() ? ctx.size(input, d.expr()->value) : IntTerm::opaque(ctx.fresh("size"), "size");
  }
  if (size) {
    Message m;
    m << op << "(): expected reduction dim " << d << " to have non-zero size";
    ctx.require(op + "_c3", gt(*size, 0), m);  // <op>_c3
  }
  if (!i || !in.rank_known()) return Shape::unknown();
  if (in.rank() == 0) return in;
  std::vector<Dim> out = in.dims();
  if (keepdim) {
    out[*i] = Dim(1);
  } else {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(*i));
  }
  return Shape(std::move(out));
}

// torch.max / torch.min: no dim → 0-d; dim → (values, indices); a tensor
// second argument → element-wise maximum/minimum with broadcasting.
Value max_min(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  Arg dim = ctx.arg("dim");
  if (dim.is_tensor()) return Value::tensor(broadcast_args(ctx, "broadcast_c1", input, dim));
  if (!ctx.is_none("other")) return Value::tensor(broadcast_args(ctx, "broadcast_c1", input, ctx.tensor("other")));
  if (dim.value.is_unknown()) throw NotModelled("the second argument may be a tensor or a dim");
  bool keepdim = ctx.bool_constant("keepdim");
  Shape out = reduce_nonempty(ctx, op, input, dim, keepdim);
  if (dim.is_none()) return Value::tensor(out);
  return Value::tuple({Value::tensor(out), Value::tensor(out)});
}

Value rule_max(RuleContext& ctx) { return max_min(ctx, "max"); }
Value rule_min(RuleContext& ctx) { return max_min(ctx, "min"); }

Value arg_reduce(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  Arg dim = ctx.arg("dim");
  bool keepdim = ctx.bool_constant("keepdim");
  return Value::tensor(reduce_nonempty(ctx, op, input, dim, keepdim));
}

Value rule_argmax(RuleContext& ctx) { return arg_reduce(ctx, "argmax"); }
Value rule_argmin(RuleContext& ctx) { return arg_reduce(ctx, "argmin"); }

// softmax / log_softmax / cumsum / cumprod: same shape, `<op>_c1` dim in range.
Value along_dim(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  Arg dim = ctx.arg("dim");
  if (dim.is_none()) {
    // F.softmax without dim: torch picks 0 for 0-, 1- and 3-d inputs, else 1
    if (!input.shape().rank_known()) return Value::tensor(input.shape());
    std::size_t r = input.shape().rank();
    int64_t implicit = (r == 0 || r == 1 || r == 3) ? 0 : 1;
    require_dim(ctx, op + "_c1", input, IntTerm(implicit));  // <op>_c1
    return Value::tensor(input.shape());
  }
  require_dim(ctx, op + "_c1", input, ctx.int_term(dim));  // <op>_c1
  return Value::tensor(input.shape());
}

Value rule_softmax(RuleContext& ctx) { return along_dim(ctx, "softmax"); }
Value rule_log_softmax(RuleContext& ctx) { return along_dim(ctx, "log_softmax"); }
Value rule_cumsum(RuleContext& ctx) { return along_dim(ctx, "cumsum"); }
Value rule_cumprod(RuleContext& ctx) { return along_dim(ctx, "cumprod"); }


// topk(input, k, dim=-1): `topk_c1` dim in range, `topk_c2`
// `0 <= k <= n` (n the size at dim, 1 for a 0-d input). Values and
// indices: the input's shape with k at dim.
Value rule_topk(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm k = ctx.int_term(ctx.arg("k"));
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  auto d = require_dim(ctx, "topk_c1", input, dim);  // topk_c1
  const Shape& in = input.shape();
  std::optional<IntTerm> n = nonempty_size_at(ctx, input, d, dim);
  if (n) {
    Message m;
    m << "selected index k out of range: k is " << k << " but dimension " << dim << " has size " << *n;
    ctx.require("topk_c2", le(0, k) && le(k, *n), m);  // topk_c2
  }
  if (ctx.any_refuted() || !in.rank_known() || !d) return unknown_tensor();
  std::vector<Dim> out = in.dims();
  if (!out.empty()) out[*d] = k.dim();
  Value v = Value::tensor(Shape(std::move(out)));
  return Value::tuple({v, v});
}

// sort / argsort: `<op>_c1` dim in range; the input's shape (sort: values
// and indices).
Value rule_sort(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  if (!require_dim(ctx, "sort_c1", input, ctx.int_term(ctx.arg("dim"))) && ctx.any_refuted())  // sort_c1
    return unknown_tensor();
  Value v = Value::tensor(input.shape());
  return Value::tuple({v, v});
}
Value rule_argsort(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  if (!require_dim(ctx, "argsort_c1", input, ctx.int_term(ctx.arg("dim"))) && ctx.any_refuted())  // argsort_c1
    return unknown_tensor();
  return Value::tensor(input.shape());
}

// var / std (and var_mean / std_mean, two results): a sum-like reduction,
// `<op>_c1` each dim in range, `<op>_c2` no dim twice. A bool second
// argument is the legacy `unbiased` overload: every axis.
Shape variance_shape(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  Arg dim = ctx.arg("dim");
  if (dim.value.is_bool()) return reduce_shape(ctx, op + "_c1", op + "_c2", input, {}, false);
  std::vector<Arg> dims = reduction_dims(ctx, dim);
  bool keepdim = ctx.bool_constant("keepdim");
  return reduce_shape(ctx, op + "_c1", op + "_c2", input, dims, keepdim);
}
Value rule_var(RuleContext& ctx) { return Value::tensor(variance_shape(ctx, "var")); }
Value rule_std(RuleContext& ctx) { return Value::tensor(variance_shape(ctx, "std")); }
Value rule_var_mean(RuleContext& ctx) {
  Value v = Value::tensor(variance_shape(ctx, "var_mean"));
  return Value::tuple({v, v});
}
Value rule_std_mean(RuleContext& ctx) {
  Value v = Value::tensor(variance_shape(ctx, "std_mean"));
  return Value::tuple({v, v});
}

// median / nanmedian: without dim a 0-d result (an empty input gives nan,
// no error); with a dim, max's `_c2` (dim in range) and `_c3` (the axis is
// not empty) and the tuple (values, indices).
Value median_like(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  Arg dim = ctx.arg("dim");
  if (dim.is_none()) return Value::tensor(Shape(std::vector<Dim>{}));
  bool keepdim = ctx.bool_constant("keepdim");
  Value v = Value::tensor(reduce_nonempty(ctx, op, input, dim, keepdim));  // median_c2, median_c3
  return Value::tuple({v, v});
}
Value rule_median(RuleContext& ctx) { return median_like(ctx, "median"); }
Value rule_nanmedian(RuleContext& ctx) { return median_like(ctx, "nanmedian"); }

// amax / amin(input, dim=(), keepdim=False) (no dim: every axis): `<op>_c1` with no dim the input
// is not empty, `<op>_c2` each dim in range, `<op>_c3` no dim twice,
// `<op>_c4` each reduced axis is not empty.
Value amax_like(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  std::vector<Arg> dims = reduction_dims(ctx, ctx.arg("dim"));
  bool keepdim = ctx.bool_constant("keepdim");
  if (dims.empty()) {
    Message m;
    m << op << "(): expected reduction dim to be specified for input.numel() == 0";
    ctx.require(op + "_c1", gt(ctx.numel(input), 0), m);  // amax_c1, amin_c1
  }
  Shape out = reduce_shape(ctx, op + "_c2", op + "_c3", input, dims, keepdim);  // amax_c2, amax_c3
  const Shape& in = input.shape();
  if (!ctx.any_refuted() && in.rank_known() && in.rank() > 0) {
    for (const Arg& a : dims) {
      auto c = ctx.int_term(a).dim().constant_value();
      if (!c) continue;
      int64_t r = static_cast<int64_t>(in.rank());
      int64_t i = *c < 0 ? *c + r : *c;
      IntTerm size = ctx.size(input, i);
      Message m;
      m << op << "(): expected reduction dim " << std::to_string(i) << " to have non-zero size";
      ctx.require(op + "_c4", gt(size, 0), m);  // amax_c4, amin_c4
    }
  }
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(out);
}
Value rule_amax(RuleContext& ctx) { return amax_like(ctx, "amax"); }
Value rule_amin(RuleContext& ctx) { return amax_like(ctx, "amin"); }

// F.normalize(input, p=2.0, dim=1): `normalize_c1` dim in range (torch
// divides by the norm over dim, kept); the input's shape.
Value rule_normalize(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  require_dim(ctx, "normalize_c1", input, ctx.int_term(ctx.arg("dim")));  // normalize_c1
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(input.shape());
}

// kthvalue(input, k, dim=-1, keepdim=False): `kthvalue_c1` dim in range,
// `kthvalue_c2` `1 <= k <= n` (n the size at dim, 1 for a 0-d input).
// Values and indices: the reduced shape.
Value rule_kthvalue(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm k = ctx.int_term(ctx.arg("k"));
  Arg dim = ctx.arg("dim");
  bool keepdim = ctx.bool_constant("keepdim");
  IntTerm d = ctx.int_term(dim);
  auto i = require_dim(ctx, "kthvalue_c1", input, d);  // kthvalue_c1
  const Shape& in = input.shape();
  std::optional<IntTerm> n = nonempty_size_at(ctx, input, i, d);
  if (n) {
    Message m;
    m << "kthvalue(): selected number k (" << k << ") out of range for dimension " << d << " of size " << *n;
    ctx.require("kthvalue_c2", le(1, k) && le(k, *n), m);  // kthvalue_c2
  }
  if (ctx.any_refuted() || !in.rank_known() || !i) return unknown_tensor();
  std::vector<Dim> out = in.dims();
  if (!out.empty()) {
    if (keepdim) {
      out[*i] = Dim(1);
    } else {
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(*i));
    }
  }
  Value v = Value::tensor(Shape(std::move(out)));
  return Value::tuple({v, v});
}

// mode(input, dim=-1, keepdim=False): numbered as max, `mode_c2` dim in
// range, `mode_c3` the axis is not empty. Values and indices.
Value rule_mode(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg dim = ctx.arg("dim");
  bool keepdim = ctx.bool_constant("keepdim");
  Value v = Value::tensor(reduce_nonempty(ctx, "mode", input, dim, keepdim));  // mode_c2, mode_c3
  return Value::tuple({v, v});
}

// cummax / cummin: `<op>_c1` dim in range, unless the input is 0-d or
// empty (torch 1.13 fills those without reading the dim); values and
// indices of the input's shape.
Value cumulative_extreme(RuleContext& ctx, const std::string& op) {
  Arg input = ctx.tensor("input");
  IntTerm d = ctx.int_term(ctx.arg("dim"));
  IntTerm r = ctx.rank(input);
  Message m;
  m << "dimension out of range (expected to be in range of [" << -r << ", " << r - 1 << "], but got " << d << ")";
  BoolTerm ok = eq(r, 0) || eq(ctx.numel(input), 0) || (le(-r, d) && lt(d, r));
  if (ctx.require(op + "_c1", ok, m) == Status::Refuted) return unknown_tensor();  // cummax_c1, cummin_c1
  Value v = Value::tensor(input.shape());
  return Value::tuple({v, v});
}
Value rule_cummax(RuleContext& ctx) { return cumulative_extreme(ctx, "cummax"); }
Value rule_cummin(RuleContext& ctx) { return cumulative_extreme(ctx, "cummin"); }
Value rule_logcumsumexp(RuleContext& ctx) { return along_dim(ctx, "logcumsumexp"); }

// count_nonzero(input, dim=None): a sum-like reduction without keepdim,
// `count_nonzero_c1` each dim in range, `count_nonzero_c2` no dim twice.
Value rule_count_nonzero(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::vector<Arg> dims = reduction_dims(ctx, ctx.arg("dim"));
  return Value::tensor(reduce_shape(ctx, "count_nonzero_c1", "count_nonzero_c2", input, dims, false));
}

}  // namespace

void register_reduction_rules(RuleRegistry& r) {
  const char* reduce_sig = "input, dim=None, keepdim=False, *, dtype=None, out=None";
  for (const char* name : {"torch.sum", "Tensor.sum"}) r.add(name, reduce_sig, rule_sum);
  for (const char* name : {"torch.mean", "Tensor.mean"}) r.add(name, reduce_sig, rule_mean);
  for (const char* name : {"torch.logsumexp", "Tensor.logsumexp"}) r.add(name, "input, dim, keepdim=False, *, out=None", rule_logsumexp);
  for (const char* name : {"torch.norm", "Tensor.norm"})
    r.add(name, "input, p='fro', dim=None, keepdim=False, out=None, dtype=None", rule_norm);
  for (const char* name : {"torch.prod", "Tensor.prod"}) r.add(name, reduce_sig, rule_prod);
  for (const char* name : {"torch.any", "Tensor.any"}) r.add(name, "input, dim=None, keepdim=False, *, out=None", rule_any);
  for (const char* name : {"torch.all", "Tensor.all"}) r.add(name, "input, dim=None, keepdim=False, *, out=None", rule_all);
  const char* max_sig = "input, dim=None, keepdim=False, *, other=None, out=None";
  for (const char* name : {"torch.max", "Tensor.max"}) r.add(name, max_sig, rule_max);
  for (const char* name : {"torch.min", "Tensor.min"}) r.add(name, max_sig, rule_min);
  const char* arg_sig = "input, dim=None, keepdim=False, *, out=None";
  for (const char* name : {"torch.argmax", "Tensor.argmax"}) r.add(name, arg_sig, rule_argmax);
  for (const char* name : {"torch.argmin", "Tensor.argmin"}) r.add(name, arg_sig, rule_argmin);
  const char* softmax_sig = "input, dim=None, _stacklevel=3, dtype=None";
  for (const char* name : {"torch.softmax", "Tensor.softmax", "torch.nn.functional.softmax"})
    r.add(name, softmax_sig, rule_softmax);
  for (const char* name : {"torch.log_softmax", "Tensor.log_softmax", "torch.nn.functional.log_softmax"})
    r.add(name, softmax_sig, rule_log_softmax);
  for (const char* name : {"torch.cumsum", "Tensor.cumsum"}) r.add(name, "input, dim, *, dtype=None, out=None", rule_cumsum);
  for (const char* name : {"torch.cumprod", "Tensor.cumprod"}) r.add(name, "input, dim, *, dtype=None, out=None", rule_cumprod);
  for (const char* name : {"torch.topk", "Tensor.topk"})
    r.add(name, "input, k, dim=-1, largest=True, sorted=True, *, out=None", rule_topk);
  for (const char* name : {"torch.sort", "Tensor.sort"}) r.add(name, "input, dim=-1, descending=False, stable=False, *, out=None", rule_sort);
  for (const char* name : {"torch.argsort", "Tensor.argsort"}) r.add(name, "input, dim=-1, descending=False, stable=False", rule_argsort);
  const char* var_sig = "input, dim=None, unbiased=True, keepdim=False, *, correction=None, out=None";
  for (const char* name : {"torch.var", "Tensor.var"}) r.add(name, var_sig, rule_var);
  for (const char* name : {"torch.std", "Tensor.std"}) r.add(name, var_sig, rule_std);
  r.add("torch.var_mean", var_sig, rule_var_mean);
  r.add("torch.std_mean", var_sig, rule_std_mean);
  for (const char* name : {"torch.median", "Tensor.median"}) r.add(name, "input, dim=None, keepdim=False, *, out=None", rule_median);
  for (const char* name : {"torch.nanmedian", "Tensor.nanmedian"}) r.add(name, "input, dim=None, keepdim=False, *, out=None", rule_nanmedian);
  const char* amax_sig = "input, dim=None, keepdim=False, *, out=None";
  for (const char* name : {"torch.amax", "Tensor.amax"}) r.add(name, amax_sig, rule_amax);
  for (const char* name : {"torch.amin", "Tensor.amin"}) r.add(name, amax_sig, rule_amin);
  r.add("torch.nn.functional.normalize", "input, p=2.0, dim=1, eps=1e-12, out=None", rule_normalize);
  for (const char* name : {"torch.kthvalue", "Tensor.kthvalue"})
    r.add(name, "input, k, dim=-1, keepdim=False, *, out=None", rule_kthvalue);
  for (const char* name : {"torch.mode", "Tensor.mode"}) r.add(name, "input, dim=-1, keepdim=False, *, out=None", rule_mode);
  for (const char* name : {"torch.cummax", "Tensor.cummax"}) r.add(name, "input, dim, *, out=None", rule_cummax);
  for (const char* name : {"torch.cummin", "Tensor.cummin"}) r.add(name, "input, dim, *, out=None", rule_cummin);
  for (const char* name : {"torch.logcumsumexp", "Tensor.logcumsumexp"}) r.add(name, "input, dim, *, out=None", rule_logcumsumexp);
  for (const char* name : {"torch.count_nonzero", "Tensor.count_nonzero"}) r.add(name, "input, dim=None", rule_count_nonzero);
}

}  // namespace gshape::gradual
