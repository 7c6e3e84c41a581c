// Element-wise rules: unary functions and activations (same shape), binary
// arithmetic and comparisons with broadcasting (tensors) or Python
// arithmetic (ints, sequences), in-place variants, where, masked_fill, clamp,
// dropout, and shape-preserving conversions (contiguous, to, float, ...).
#include <cmath>

#include "gradual/rules.h"
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// ------------------------------------------------------------------ unary

Value rule_same_shape(RuleContext& ctx) { return Value::tensor(ctx.tensor("input").shape()); }

// F.dropout & co: `dropout_c1` the probability is in [0, 1] (a float,
// so decided only when it is a constant).
Value rule_dropout(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg p = ctx.arg("p");
  std::optional<double> prob;
  if (p.value.is_float()) prob = p.value.as_float();
  if (p.value.is_int() && p.value.as_int().is_constant()) prob = static_cast<double>(*p.value.as_int().constant_value());
  if (prob) {
    std::string text = std::to_string(*prob);
    Message m;
    m << "dropout probability has to be between 0 and 1, but got " << text;
    ctx.require("dropout_c1", BoolTerm(*prob >= 0.0 && *prob <= 1.0), m);  // dropout_c1
  }
  return Value::tensor(input.shape());
}

// F.dropout1d: `dropout1d_c1` the input is 2-D or 3-D, in training and
// evaluation alike (then dropout_c1).
Value rule_dropout1d(RuleContext& ctx) {
  require_dropout1d_rank(ctx, ctx.tensor("input"));
  return rule_dropout(ctx);
}

// F.dropout2d / F.feature_alpha_dropout (MinRank 2), F.dropout3d (1):
// `feature_dropout_c1`, decided where `training` is a constant (an unknown
// flag is not read at run time: not checked, docs/rules.md).
template <int MinRank>
Value rule_feature_dropout(RuleContext& ctx) {
  if (ctx.bool_flag("training") == std::optional<bool>(true))
    require_feature_dropout_rank(ctx, ctx.tensor("input"), MinRank, BoolTerm(true));
  return rule_dropout(ctx);
}

// ------------------------------------------------------------------ binary

enum class BinKind { Add, Sub, Mul, TrueDiv, FloorDiv, Mod, Pow, Cmp, Eq, Ne, Lt, Le, Gt, Ge, Bitwise };

// Python arithmetic on non-tensor operands (ints, floats, sequences).
Value python_binary(BinKind k, const Value& a, const Value& b) {
  if (a.is_sequence() && b.is_sequence() && k == BinKind::Add && a.items() && b.items()) {
    std::vector<Value> items = *a.items();
    items.insert(items.end(), b.items()->begin(), b.items()->end());
    return Value::sequence(a.sequence_kind(), std::move(items));
  }
  if (a.is_sequence() && b.is_int() && k == BinKind::Mul && a.items() && b.as_int().is_constant()) {
    std::vector<Value> items;
    for (int64_t i = 0; i < *b.as_int().constant_value(); ++i) items.insert(items.end(), a.items()->begin(), a.items()->end());
    return Value::sequence(a.sequence_kind(), std::move(items));
  }
  auto as_dim = [](const Value& v) -> std::optional<Dim> {
    if (v.is_int()) return v.as_int();
    if (v.is_bool() && v.as_bool().is_constant()) return Dim(v.as_bool().is_true() ? 1 : 0);
    return std::nullopt;
  };
  auto x = as_dim(a), y = as_dim(b);
  if (x && y) {
    switch (k) {
      case BinKind::Add: return Value::integer(*x + *y);
      case BinKind::Sub: return Value::integer(*x - *y);
      case BinKind::Mul: return Value::integer(*x * *y);
      case BinKind::FloorDiv:
        if (y->is_constant() && *y->constant_value() == 0) return Value::unknown();  // ZeroDivisionError
        return Value::integer(floordiv(*x, *y));
      case BinKind::Mod:
        if (y->is_constant() && *y->constant_value() == 0) return Value::unknown();
        return Value::integer(mod(*x, *y));
      case BinKind::TrueDiv: return Value::floating();
      case BinKind::Eq: return Value::boolean(eq(*x, *y));
      case BinKind::Ne: return Value::boolean(ne(*x, *y));
      case BinKind::Lt: return Value::boolean(lt(*x, *y));
      case BinKind::Le: return Value::boolean(le(*x, *y));
      case BinKind::Gt: return Value::boolean(gt(*x, *y));
      case BinKind::Ge: return Value::boolean(ge(*x, *y));
      case BinKind::Pow: {
        auto cx = x->constant_value(), cy = y->constant_value();
        if (cx && cy && *cy >= 0 && *cy < 63) {
          Dim r = 1;
          for (int64_t i = 0; i < *cy; ++i) r = r * *x;
          return Value::integer(r);
        }
        return Value::unknown();
      }
      default: return Value::unknown();
    }
  }
  if ((a.is_float() || a.is_int()) && (b.is_float() || b.is_int())) return Value::floating();
  return Value::unknown();
}

template <BinKind K>
Value rule_binary(RuleContext& ctx) {
  Arg a = ctx.arg("input");
  Arg b = ctx.arg("other");
  if (!a.is_tensor() && !b.is_tensor()) return python_binary(K, a.value, b.value);
  return Value::tensor(broadcast_args(ctx, "broadcast_c1", a, b));  // broadcast_c1 per axis pair
}

// In-place: the broadcast result must keep the left operand's shape (`inplace_c1`).
template <BinKind K>
Value rule_inplace(RuleContext& ctx) {
  Arg a = ctx.arg("input");
  Arg b = ctx.arg("other");
  if (!a.is_tensor()) {
    if (a.value.is_unknown()) return Value::unknown();
    return python_binary(K, a.value, b.value);  // `n += 1` on ints
  }
  require_broadcastable_to(ctx, "inplace_c1", a, b);  // inplace_c1
  return Value::tensor(a.shape());
}

Value rule_unary_operator(RuleContext& ctx) {
  Arg a = ctx.arg("input");
  if (a.is_tensor()) return Value::tensor(a.shape());
  return Value::unknown();
}

Value rule_neg(RuleContext& ctx) {
  Arg a = ctx.arg("input");
  if (a.is_tensor()) return Value::tensor(a.shape());
  if (a.value.is_int()) return Value::integer(-a.value.as_int());
  return Value::unknown();
}

Value rule_abs(RuleContext& ctx) {
  Arg a = ctx.arg("input");
  if (a.is_tensor()) return Value::tensor(a.shape());
  if (a.value.is_int()) return Value::integer(abs(a.value.as_int()));
  return Value::unknown();
}

// ------------------------------------------------------------------ where / masked_fill / clamp

// Sizes of an operand for broadcasting: a scalar is 0-d; nullopt for an
// unknown operand or an unknown rank.
std::optional<std::vector<IntTerm>> broadcast_sizes(RuleContext& ctx, const Arg& a) {
  if (a.is_tensor()) {
    if (!a.shape().rank_known()) return std::nullopt;
    return sizes_from_end(ctx, a);
  }
  if (a.value.is_int() || a.value.is_float() || a.value.is_bool()) return std::vector<IntTerm>{};
  return std::nullopt;
}

Shape broadcast_all(RuleContext& ctx, const std::string& tag, const std::vector<Arg>& args) {
  std::optional<std::vector<IntTerm>> acc = std::vector<IntTerm>{};
  for (const Arg& a : args) {
    auto s = broadcast_sizes(ctx, a);
    if (!s) return Shape::unknown();
    acc = broadcast_terms(ctx, tag, *acc, *s);
  }
  return shape_of_terms(*acc);
}

// Python's sum(items, start=0) of tensors: start + items[0] + items[1] ...,
// all broadcast together (`broadcast_c1`). Items of other kinds are
// Python's own business; a sequence the rule cannot list is not modelled.
Value rule_builtin_sum(RuleContext& ctx) {
  std::vector<Arg> operands{ctx.arg("start")};
  bool tensors = operands.front().is_tensor();
  for (const Arg& item : ctx.elements(ctx.arg("iterable"))) {
    tensors = tensors || item.is_tensor();
    operands.push_back(item);
  }
  if (!tensors) return Value::unknown();
  return Value::tensor(broadcast_all(ctx, "broadcast_c1", operands));  // broadcast_c1
}

// torch.where(condition, input, other): `where_c1` the three broadcast.
Value rule_where(RuleContext& ctx) {
  Arg cond = ctx.tensor("condition");
  if (ctx.is_none("input") && ctx.is_none("other")) {  // torch.where(cond): nonzero as a tuple
    if (!cond.shape().rank_known()) return Value::unknown_length(SequenceKind::Tuple, Value::tensor(Shape{ctx.fresh("nonzero")}), true);
    Dim n = ctx.fresh("nonzero");
    return Value::tuple(std::vector<Value>(cond.shape().rank(), Value::tensor(Shape{n})));
  }
  return Value::tensor(broadcast_all(ctx, "where_c1", {cond, ctx.arg("input"), ctx.arg("other")}));  // where_c1
}

// Tensor.where(condition, other): self is the input.
Value rule_tensor_where(RuleContext& ctx) {
  return Value::tensor(broadcast_all(ctx, "where_c1", {ctx.tensor("condition"), ctx.tensor("input"), ctx.arg("other")}));
}

// A value tensor must be 0-d (`masked_fill_c2`).
void require_scalar_value(RuleContext& ctx, const Arg& value) {
  if (!value.is_tensor()) return;
  Message m;
  m << "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with " << ctx.rank(value)
    << " dimension(s)";
  ctx.require("masked_fill_c2", eq(ctx.rank(value), 0), m);  // masked_fill_c2
}

// masked_fill: the result broadcasts input and mask (`masked_fill_c1`).
Value rule_masked_fill(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg mask = ctx.tensor("mask");
  Shape out = broadcast_args(ctx, "masked_fill_c1", input, mask);  // masked_fill_c1
  require_scalar_value(ctx, ctx.arg("value"));
  return Value::tensor(out);
}

// masked_fill_: the mask broadcasts to the input's shape (`inplace_c1`).
Value rule_masked_fill_(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg mask = ctx.tensor("mask");
  require_broadcastable_to(ctx, "inplace_c1", input, mask);  // inplace_c1
  require_scalar_value(ctx, ctx.arg("value"));
  return Value::tensor(input.shape());
}

// clamp: `clamp_c1` a bound is given; tensor bounds broadcast (`broadcast_c1`).
Value rule_clamp(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg lo = ctx.arg("min");
  Arg hi = ctx.arg("max");
  Message m;
  m << "torch.clamp: at least one of 'min' or 'max' must not be None";
  ctx.require("clamp_c1", BoolTerm(!(lo.is_none() && hi.is_none())), m);  // clamp_c1
  std::vector<Arg> parts{input};
  if (lo.is_tensor()) parts.push_back(lo);
  if (hi.is_tensor()) parts.push_back(hi);
  if (parts.size() == 1) return Value::tensor(input.shape());
  return Value::tensor(broadcast_all(ctx, "broadcast_c1", parts));
}

Value rule_clamp_(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg lo = ctx.arg("min");
  Arg hi = ctx.arg("max");
  Message m;
  m << "torch.clamp: at least one of 'min' or 'max' must not be None";
  ctx.require("clamp_c1", BoolTerm(!(lo.is_none() && hi.is_none())), m);  // clamp_c1
  if (lo.is_tensor()) require_broadcastable_to(ctx, "inplace_c1", input, lo);
  if (hi.is_tensor()) require_broadcastable_to(ctx, "inplace_c1", input, hi);
  return Value::tensor(input.shape());
}


// clamp_min / clamp_max(input, bound): a number keeps the input's shape, a
// tensor broadcasts with it (`broadcast_c1`); the in-place forms need the
// bound to broadcast to the input's shape (`inplace_c1`).
Value clamp_one(RuleContext& ctx, const char* param) {
  Arg input = ctx.tensor("input");
  return Value::tensor(broadcast_all(ctx, "broadcast_c1", {input, ctx.arg(param)}));  // broadcast_c1
}
Value rule_clamp_min(RuleContext& ctx) { return clamp_one(ctx, "min"); }
Value rule_clamp_max(RuleContext& ctx) { return clamp_one(ctx, "max"); }
Value clamp_one_(RuleContext& ctx, const char* param) {
  Arg input = ctx.tensor("input");
  Arg bound = ctx.arg(param);
  if (bound.is_tensor()) require_broadcastable_to(ctx, "inplace_c1", input, bound);  // inplace_c1
  return Value::tensor(input.shape());
}
Value rule_clamp_min_(RuleContext& ctx) { return clamp_one_(ctx, "min"); }
Value rule_clamp_max_(RuleContext& ctx) { return clamp_one_(ctx, "max"); }

// lerp(input, end, weight), addcmul / addcdiv(input, tensor1, tensor2):
// the three operands (a number weight is a scalar) broadcast (`broadcast_c1`).
Value ternary_broadcast(RuleContext& ctx, const char* second, const char* third) {
  Arg input = ctx.tensor("input");
  return Value::tensor(broadcast_all(ctx, "broadcast_c1", {input, ctx.arg(second), ctx.arg(third)}));  // broadcast_c1
}
Value rule_lerp(RuleContext& ctx) { return ternary_broadcast(ctx, "end", "weight"); }
Value rule_addcmul(RuleContext& ctx) { return ternary_broadcast(ctx, "tensor1", "tensor2"); }

}  // namespace

void register_pointwise_rules(RuleRegistry& r) {
  // activations and unary math: the input's shape, no constraint
  for (const char* op : {"relu", "sigmoid", "tanh", "exp", "log", "abs", "sqrt", "rsqrt", "neg", "sin", "cos", "log1p",
                         "expm1", "sign", "floor", "ceil", "round", "trunc", "reciprocal", "square", "erf", "exp2",
                         "log2", "log10", "logical_not", "isnan", "isinf", "isfinite", "sigmoid_", "relu_", "tanh_",
                         "exp_", "neg_", "abs_", "sqrt_", "zero_", "fill_", "normal_", "uniform_", "bernoulli_",
                         "clone", "detach", "detach_", "contiguous", "float", "double", "half", "bfloat16", "long",
                         "int", "short", "bool", "byte", "char", "to", "cpu", "cuda", "type_as",
                         "requires_grad_", "pin_memory", "share_memory_", "nan_to_num", "positive", "erfinv",
                         "to_sparse", "to_dense"}) {
    r.add(std::string("Tensor.") + op, "input, *args, **options", rule_same_shape);
  }
  // the rest of torch 1.13's element-wise math, both forms
  for (const char* op : {"tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "arcsin", "arccos",
                         "arctan", "arcsinh", "arccosh", "arctanh", "sgn", "frac", "lgamma", "digamma", "sinc",
                         "deg2rad", "rad2deg", "negative", "absolute", "fix", "erfc", "i0", "logit", "signbit"}) {
    r.add(std::string("Tensor.") + op, "input, *args, **options", rule_same_shape);
    r.add(std::string("torch.") + op, "input, *args, **options", rule_same_shape);
  }
  for (const char* op : {"relu", "sigmoid", "tanh", "exp", "log", "abs", "sqrt", "rsqrt", "neg", "sin", "cos", "log1p",
                         "expm1", "sign", "floor", "ceil", "round", "trunc", "reciprocal", "square", "erf", "exp2",
                         "log2", "log10", "logical_not", "isnan", "isinf", "isfinite", "relu_", "sigmoid_", "tanh_",
                         "clone", "detach", "nan_to_num", "positive", "erfinv", "zeros_like", "ones_like", "empty_like",
                         "rand_like", "randn_like", "full_like", "randint_like", "bernoulli"}) {
    r.add(std::string("torch.") + op, "input, *args, **options", rule_same_shape);
  }
  for (const char* op : {"relu", "relu6", "gelu", "silu", "elu", "selu", "celu", "leaky_relu", "sigmoid", "tanh",
                         "softplus", "softsign", "hardtanh", "hardswish", "hardsigmoid", "mish", "logsigmoid",
                         "tanhshrink", "softshrink", "hardshrink", "relu_", "elu_", "leaky_relu_", "hardtanh_"}) {
    r.add(std::string("torch.nn.functional.") + op, "input, *args, **options", rule_same_shape);
  }
  // numpy's array as a tensor of the same shape (numpy values are modelled
  // as tensors where known)
  r.add("torch.from_numpy", "ndarray", [](RuleContext& ctx) { return Value::tensor(ctx.tensor("ndarray").shape()); });
  for (const char* name : {"torch.nn.functional.dropout", "torch.nn.functional.alpha_dropout"})
    r.add(name, "input, p=0.5, training=True, inplace=False", rule_dropout);
  r.add("torch.nn.functional.dropout2d", "input, p=0.5, training=True, inplace=False", rule_feature_dropout<2>);
  r.add("torch.nn.functional.feature_alpha_dropout", "input, p=0.5, training=True, inplace=False",
        rule_feature_dropout<2>);
  r.add("torch.nn.functional.dropout3d", "input, p=0.5, training=True, inplace=False", rule_feature_dropout<1>);
  r.add("torch.nn.functional.dropout1d", "input, p=0.5, training=True, inplace=False", rule_dropout1d);
  r.add("torch.dropout", "input, p, train", rule_dropout);

  // binary arithmetic and comparisons: broadcast_c1
  struct Binary {
    const char* name;
    RuleFn fn;
  };
  const Binary binaries[] = {
      {"add", rule_binary<BinKind::Add>},          {"sub", rule_binary<BinKind::Sub>},
      {"subtract", rule_binary<BinKind::Sub>},     {"mul", rule_binary<BinKind::Mul>},
      {"multiply", rule_binary<BinKind::Mul>},     {"div", rule_binary<BinKind::TrueDiv>},
      {"divide", rule_binary<BinKind::TrueDiv>},   {"true_divide", rule_binary<BinKind::TrueDiv>},
      {"floor_divide", rule_binary<BinKind::FloorDiv>}, {"remainder", rule_binary<BinKind::Mod>},
      {"fmod", rule_binary<BinKind::Mod>},         {"pow", rule_binary<BinKind::Pow>},
      {"maximum", rule_binary<BinKind::Cmp>},      {"minimum", rule_binary<BinKind::Cmp>},
      {"atan2", rule_binary<BinKind::Cmp>},        {"eq", rule_binary<BinKind::Eq>},
      {"ne", rule_binary<BinKind::Ne>},            {"lt", rule_binary<BinKind::Lt>},
      {"le", rule_binary<BinKind::Le>},            {"gt", rule_binary<BinKind::Gt>},
      {"ge", rule_binary<BinKind::Ge>},            {"logical_and", rule_binary<BinKind::Bitwise>},
      {"logical_or", rule_binary<BinKind::Bitwise>}, {"logical_xor", rule_binary<BinKind::Bitwise>},
      {"bitwise_and", rule_binary<BinKind::Bitwise>}, {"bitwise_or", rule_binary<BinKind::Bitwise>},
      {"bitwise_xor", rule_binary<BinKind::Bitwise>},
      {"logaddexp", rule_binary<BinKind::Cmp>},    {"logaddexp2", rule_binary<BinKind::Cmp>},
      {"hypot", rule_binary<BinKind::Cmp>},        {"fmax", rule_binary<BinKind::Cmp>},
      {"fmin", rule_binary<BinKind::Cmp>},         {"copysign", rule_binary<BinKind::Cmp>},
      {"xlogy", rule_binary<BinKind::Cmp>},        {"float_power", rule_binary<BinKind::Cmp>},
  };
  for (const Binary& b : binaries) {
    r.add(std::string("torch.") + b.name, "input, other, *, alpha=1, rounding_mode=None, out=None", b.fn);
    r.add(std::string("Tensor.") + b.name, "input, other, *, alpha=1, rounding_mode=None", b.fn);
  }
  const Binary operators[] = {
      {"add", rule_binary<BinKind::Add>},    {"sub", rule_binary<BinKind::Sub>},
      {"mul", rule_binary<BinKind::Mul>},    {"truediv", rule_binary<BinKind::TrueDiv>},
      {"floordiv", rule_binary<BinKind::FloorDiv>}, {"mod", rule_binary<BinKind::Mod>},
      {"pow", rule_binary<BinKind::Pow>},    {"eq", rule_binary<BinKind::Eq>},
      {"ne", rule_binary<BinKind::Ne>},      {"lt", rule_binary<BinKind::Lt>},
      {"le", rule_binary<BinKind::Le>},      {"gt", rule_binary<BinKind::Gt>},
      {"ge", rule_binary<BinKind::Ge>},      {"and_", rule_binary<BinKind::Bitwise>},
      {"or_", rule_binary<BinKind::Bitwise>}, {"xor", rule_binary<BinKind::Bitwise>},
  };
  for (const Binary& b : operators) r.add(std::string("operator.") + b.name, "input, other", b.fn);

  // in-place: inplace_c1
  const Binary inplace[] = {
      {"add_", rule_inplace<BinKind::Add>}, {"sub_", rule_inplace<BinKind::Sub>},
      {"mul_", rule_inplace<BinKind::Mul>}, {"div_", rule_inplace<BinKind::TrueDiv>},
      {"pow_", rule_inplace<BinKind::Pow>}, {"remainder_", rule_inplace<BinKind::Mod>},
      {"copy_", rule_inplace<BinKind::Bitwise>},
  };
  for (const Binary& b : inplace) r.add(std::string("Tensor.") + b.name, "input, other, *, alpha=1, rounding_mode=None, non_blocking=False", b.fn);
  const Binary inplace_operators[] = {
      {"iadd", rule_inplace<BinKind::Add>},   {"isub", rule_inplace<BinKind::Sub>},
      {"imul", rule_inplace<BinKind::Mul>},   {"itruediv", rule_inplace<BinKind::TrueDiv>},
      {"ifloordiv", rule_inplace<BinKind::FloorDiv>}, {"imod", rule_inplace<BinKind::Mod>},
      {"ipow", rule_inplace<BinKind::Pow>},
  };
  for (const Binary& b : inplace_operators) r.add(std::string("operator.") + b.name, "input, other", b.fn);
  for (const char* op : {"pos", "invert"}) r.add(std::string("operator.") + op, "input", rule_unary_operator);
  r.add("operator.neg", "input", rule_neg);
  r.add("operator.abs", "input", rule_abs);
  r.add("builtins.abs", "input", rule_abs);
  r.add_check("builtins.sum", "iterable, start=0", rule_builtin_sum);
  // pow(a, b) of tensors (the interpreter applies it only then; ints are Python's)
  r.add("builtins.pow", "input, other", rule_binary<BinKind::Pow>);

  r.add("torch.where", "condition, input=None, other=None, *, out=None", rule_where);
  r.add("Tensor.where", "input, condition, other", rule_tensor_where);
  r.add("torch.masked_fill", "input, mask, value", rule_masked_fill);
  r.add("Tensor.masked_fill", "input, mask, value", rule_masked_fill);
  r.add("Tensor.masked_fill_", "input, mask, value", rule_masked_fill_);
  for (const char* name : {"torch.clamp", "Tensor.clamp", "torch.clip", "Tensor.clip"})
    r.add(name, "input, min=None, max=None, *, out=None", rule_clamp);
  for (const char* name : {"Tensor.clamp_", "Tensor.clip_"}) r.add(name, "input, min=None, max=None", rule_clamp_);
  for (const char* name : {"torch.clamp_min", "Tensor.clamp_min"}) r.add(name, "input, min", rule_clamp_min);
  for (const char* name : {"torch.clamp_max", "Tensor.clamp_max"}) r.add(name, "input, max", rule_clamp_max);
  r.add("Tensor.clamp_min_", "input, min", rule_clamp_min_);
  r.add("Tensor.clamp_max_", "input, max", rule_clamp_max_);
  for (const char* name : {"torch.lerp", "Tensor.lerp"}) r.add(name, "input, end, weight, *, out=None", rule_lerp);
  for (const char* name : {"torch.addcmul", "Tensor.addcmul", "torch.addcdiv", "Tensor.addcdiv"})
    r.add(name, "input, tensor1, tensor2, *, value=1, out=None", rule_addcmul);
}

}  // namespace gshape::gradual
