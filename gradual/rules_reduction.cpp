// Reductions and scans: sum, mean, prod, norm, any, all, max, min, argmax,
// argmin, softmax, log_softmax, cumsum, cumprod, logsumexp.
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
  if (i && in.rank_known() && in.rank() > 0) {
    IntTerm size = ctx.size(input, static_cast<int64_t>(*i));
    Message m;
    m << op << "(): expected reduction dim " << d << " to have non-zero size";
    ctx.require(op + "_c3", gt(size, 0), m);  // <op>_c3
  } else if (!in.rank_known()) {
    // the axis is not known statically: the runtime reads it through the dim itself
    IntTerm size = d.is_literal() ? ctx.size(input, d.expr()->value) : IntTerm::opaque(ctx.fresh("size"), "size");
    Message m;
    m << op << "(): expected reduction dim " << d << " to have non-zero size";
    ctx.require(op + "_c3", gt(size, 0), m);  // <op>_c3
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
}

}  // namespace gshape::gradual
