// Pooling: nn.MaxPool2d, nn.AvgPool2d, nn.AdaptiveAvgPool2d (construction
// and forward) and F.max_pool2d, F.avg_pool2d, F.adaptive_avg_pool2d, as
// torch 1.13's pool2d_shape_check and pooling_output_shape compute them.
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

struct PoolSpec {
  std::string op;  // max_pool2d | avg_pool2d: the tag prefix
  std::vector<IntTerm> kernel, stride, padding, dilation;
  bool ceil_mode = false;
  bool return_indices = false;
  std::optional<IntTerm> divisor;  // avg_pool2d's divisor_override
};

// pooling_output_shape: floor((in + 2p - d(k-1) - 1 + (ceil ? s-1 : 0)) / s) + 1,
// one less in ceil mode when the last window would start in the right padding.
IntTerm pool_output(const IntTerm& in, const IntTerm& k, const IntTerm& s, const IntTerm& p, const IntTerm& d, bool ceil) {
  IntTerm out = floordiv(in + p * 2 - d * (k - 1) - 1 + (ceil ? s - 1 : IntTerm(0)), s) + 1;
  if (ceil) out = ite(ge((out - 1) * s, in + p), out - 1, out);
  return out;
}

Value pool_forward(RuleContext& ctx, const PoolSpec& s, const Arg& input) {
  const std::string& p = s.op;
  IntTerm rank = ctx.rank(input);
  Message m1;
  m1 << p << " expects a 3D (unbatched) or 4D (batched) input, got input of shape " << ctx.shape_hole(input);
  if (ctx.require(p + "_c1", eq(rank, 3) || eq(rank, 4), m1) == Status::Refuted) return unknown_tensor();  // <p>_c1

  std::vector<BoolTerm> valid;
  for (std::size_t a = 0; a < 2; ++a) {
    valid.push_back(gt(s.kernel[a], 0));
    valid.push_back(gt(s.stride[a], 0));
    valid.push_back(ge(s.padding[a], 0));
    if (!s.dilation.empty()) valid.push_back(gt(s.dilation[a], 0));
  }
  Message m2;
  m2 << p << ": kernel size ";
  append_tuple(m2, s.kernel);
  m2 << ", stride ";
  append_tuple(m2, s.stride);
  if (!s.dilation.empty()) {
    m2 << " and dilation ";
    append_tuple(m2, s.dilation);
  }
  m2 << " must be positive and padding ";
  append_tuple(m2, s.padding);
  m2 << " non-negative";
  bool ok = ctx.require(p + "_c2", all_of(valid), m2) != Status::Refuted;  // <p>_c2

  std::vector<BoolTerm> half;
  for (std::size_t a = 0; a < 2; ++a) half.push_back(le(s.padding[a], floordiv(s.kernel[a], 2)));
  Message m3;
  m3 << p << ": pad should be at most half of kernel size, but got pad ";
  append_tuple(m3, s.padding);
  m3 << " and kernel size ";
  append_tuple(m3, s.kernel);
  if (ctx.require(p + "_c3", all_of(half), m3) == Status::Refuted) ok = false;  // <p>_c3

  // every axis but a batch axis is non-empty
  std::vector<BoolTerm> nonempty{gt(ctx.size(input, -3), 0), gt(ctx.size(input, -2), 0), gt(ctx.size(input, -1), 0)};
  Message m4;
  m4 << p << " expects a 3D or 4D input whose axes other than the batch are not empty, got input of shape "
     << ctx.shape_hole(input);
  if (ctx.require(p + "_c4", all_of(nonempty), m4) == Status::Refuted) ok = false;  // <p>_c4

  if (s.divisor) {
    Message m6;
    m6 << p << ": divisor must be not zero";
    if (ctx.require(p + "_c6", ne(*s.divisor, 0), m6) == Status::Refuted) ok = false;  // <p>_c6
  }
  if (!ok) return unknown_tensor();

  std::vector<IntTerm> in{ctx.size(input, -2), ctx.size(input, -1)}, out;
  for (std::size_t a = 0; a < 2; ++a) {
    IntTerm d = s.dilation.empty() ? IntTerm(1) : s.dilation[a];
    out.push_back(pool_output(in[a], s.kernel[a], s.stride[a], s.padding[a], d, s.ceil_mode));
  }
  Message m5;
  m5 << p << ": given input size (";
  append_by(m5, in);
  m5 << "), the calculated output size (";
  append_by(m5, out);
  m5 << ") is too small";
  if (ctx.require(p + "_c5", ge(out[0], 1) && ge(out[1], 1), m5) == Status::Refuted) return unknown_tensor();  // <p>_c5

  const Shape& shape = input.shape();
  Value result;
  if (!shape.rank_known()) {
    // 3-D or 4-D (c1): the channels and the pooled axes are known all the same
    result = Value::tensor(Shape::unknown_with_suffix({ctx.size(input, -3).dim(), out[0].dim(), out[1].dim()}));
  } else {
    std::vector<Dim> dims(shape.dims().begin(), shape.dims().end() - 2);
    dims.push_back(out[0].dim());
    dims.push_back(out[1].dim());
    result = Value::tensor(Shape(std::move(dims)));
  }
  if (s.return_indices) return Value::tuple({result, result});
  return result;
}

// stride=None (or an empty list) means the kernel size.
std::vector<IntTerm> stride_or_kernel(RuleContext& ctx, const Arg& stride, const std::vector<IntTerm>& kernel) {
  if (stride.is_none()) return kernel;
  if (stride.value.is_sequence() && stride.value.items() && stride.value.items()->empty()) return kernel;
  return int_tuple(ctx, stride, 2);
}

// ------------------------------------------------------------------ functional

PoolSpec functional_spec(RuleContext& ctx, const std::string& op) {
  PoolSpec s;
  s.op = op;
  s.kernel = int_tuple(ctx, ctx.arg("kernel_size"), 2);
  s.stride = stride_or_kernel(ctx, ctx.arg("stride"), s.kernel);
  s.padding = int_tuple(ctx, ctx.arg("padding"), 2);
  s.ceil_mode = ctx.bool_constant("ceil_mode");
  return s;
}

Value rule_max_pool2d(RuleContext& ctx) {
  PoolSpec s = functional_spec(ctx, "max_pool2d");
  s.dilation = int_tuple(ctx, ctx.arg("dilation"), 2);
  s.return_indices = ctx.bool_constant("return_indices");
  return pool_forward(ctx, s, ctx.tensor("input"));
}

Value rule_avg_pool2d(RuleContext& ctx) {
  PoolSpec s = functional_spec(ctx, "avg_pool2d");
  Arg divisor = ctx.arg("divisor_override");
  if (!divisor.is_none()) s.divisor = ctx.int_term(divisor);
  return pool_forward(ctx, s, ctx.tensor("input"));
}

// adaptive_avg_pool2d: `_c1` 3-d or 4-d input, `_c2` output sizes >= 0,
// `_c3` the spatial axes are not empty. None in output_size keeps that axis.
// An output of 1 x 1 is torch's mean over the last two axes: any input with
// two axes (three when output_size is a tuple: Python's _list_with_default).
Value adaptive_forward(RuleContext& ctx, const Arg& input, const std::vector<std::optional<IntTerm>>& size, bool tuple) {
  IntTerm rank = ctx.rank(input);
  std::vector<IntTerm> out;
  std::vector<BoolTerm> nonneg;
  for (std::size_t a = 0; a < 2; ++a) {
    out.push_back(size[a] ? *size[a] : ctx.size(input, static_cast<int64_t>(a) - 2));
    if (size[a]) nonneg.push_back(ge(*size[a], 0));
  }
  BoolTerm mean = eq(out[0], 1) && eq(out[1], 1);
  Message m1;
  m1 << "adaptive_avg_pool2d() expects a 3D or 4D input, got input of shape " << ctx.shape_hole(input);
  BoolTerm ranked = eq(rank, 3) || eq(rank, 4) || (mean && ge(rank, tuple ? 3 : 2));
  if (ctx.require("adaptive_avg_pool2d_c1", ranked, m1) == Status::Refuted)  // adaptive_avg_pool2d_c1
    return unknown_tensor();
  Message m2;
  m2 << "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received ";
  append_tuple(m2, out);
  bool ok = ctx.require("adaptive_avg_pool2d_c2", all_of(nonneg), m2) != Status::Refuted;  // adaptive_avg_pool2d_c2
  Message m3;
  m3 << "adaptive_avg_pool2d() expects an input with non-empty spatial axes, got input of shape "
     << ctx.shape_hole(input);
  BoolTerm spatial = gt(ctx.size(input, -2), 0) && gt(ctx.size(input, -1), 0);
  if (ctx.require("adaptive_avg_pool2d_c3", mean || spatial, m3) == Status::Refuted) ok = false;  // adaptive_avg_pool2d_c3
  const Shape& shape = input.shape();
  if (!ok) return unknown_tensor();
  if (!shape.rank_known()) return Value::tensor(Shape::unknown_with_suffix({out[0].dim(), out[1].dim()}));
  std::vector<Dim> dims(shape.dims().begin(), shape.dims().end() - 2);
  dims.push_back(out[0].dim());
  dims.push_back(out[1].dim());
  return Value::tensor(Shape(std::move(dims)));
}

// output_size: an int, or a pair whose items are ints or None.
std::vector<std::optional<IntTerm>> adaptive_size(RuleContext& ctx, const Arg& size) {
  if (size.value.is_int()) {
    IntTerm t = ctx.int_term(size);
    return {t, t};
  }
  if (!size.value.is_sequence()) throw NotModelled("output_size is neither an int nor a tuple");
  std::vector<Arg> items = ctx.elements(size);
  if (items.size() != 2) throw NotModelled("output_size of another length");
  std::vector<std::optional<IntTerm>> out;
  for (const Arg& item : items) {
    if (item.is_none()) {
      out.emplace_back(std::nullopt);
    } else {
      out.emplace_back(ctx.int_term(item));
    }
  }
  return out;
}

Value rule_adaptive_avg_pool2d(RuleContext& ctx) {
  Arg size = ctx.arg("output_size");
  return adaptive_forward(ctx, ctx.tensor("input"), adaptive_size(ctx, size), size.value.is_sequence());
}

// ------------------------------------------------------------------ modules

// nn.MaxPool2d / nn.AvgPool2d store their arguments as given, as PyTorch
// does (an int or a tuple; stride defaults to kernel_size), so that the
// forward reads a real module's attributes the same way (no construction check).
template <bool Max>
Value rule_pool_init(RuleContext& ctx) {
  auto obj = new_module(Max ? "torch.nn.MaxPool2d" : "torch.nn.AvgPool2d");
  int_tuple(ctx, ctx.arg("kernel_size"), 2);  // a form the forward can read, or not modelled
  obj->attributes["kernel_size"] = ctx.arg("kernel_size").value;
  obj->attributes["stride"] = ctx.arg("stride").is_none() ? ctx.arg("kernel_size").value : ctx.arg("stride").value;
  obj->attributes["padding"] = ctx.arg("padding").value;
  obj->attributes["ceil_mode"] = Value::boolean(Pred(ctx.bool_constant("ceil_mode")));
  if (Max) {
    obj->attributes["dilation"] = ctx.arg("dilation").value;
    obj->attributes["return_indices"] = Value::boolean(Pred(ctx.bool_constant("return_indices")));
  } else {
    Arg divisor = ctx.arg("divisor_override");
    obj->attributes["divisor_override"] = divisor.is_none() ? Value::none() : Value::integer(ctx.int_term(divisor).dim());
  }
  return Value::object(obj);
}

// The forward passes the attributes to F.max_pool2d / F.avg_pool2d, which
// read each as `_pair` does.
template <bool Max>
Value rule_pool_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  auto attr = [&](const char* name) {
    const Value* v = module_field(module, name);
    if (!v) throw NotModelled(std::string("module attribute '") + name + "' unknown");
    return Arg::of(*v, module.role + "." + name);
  };
  PoolSpec s;
  s.op = Max ? "max_pool2d" : "avg_pool2d";
  s.kernel = int_tuple(ctx, attr("kernel_size"), 2);
  s.stride = stride_or_kernel(ctx, attr("stride"), s.kernel);
  s.padding = int_tuple(ctx, attr("padding"), 2);
  s.ceil_mode = module_flag(module, "ceil_mode");
  if (Max) {
    s.dilation = int_tuple(ctx, attr("dilation"), 2);
    s.return_indices = module_flag(module, "return_indices");
  } else if (const Value* d = module_field(module, "divisor_override"); d && !d->is_none()) {
    s.divisor = module_int(ctx, module, "divisor_override");
  }
  if (s.kernel.size() != 2 || s.stride.size() != 2 || s.padding.size() != 2) throw NotModelled("hyperparameters of another length");
  return pool_forward(ctx, s, ctx.tensor("input"));
}

// nn.AdaptiveAvgPool2d keeps output_size as given (an int or a pair).
Value rule_adaptive_init(RuleContext& ctx) {
  auto obj = new_module("torch.nn.AdaptiveAvgPool2d");
  adaptive_size(ctx, ctx.arg("output_size"));  // a form the forward can read, or not modelled
  obj->attributes["output_size"] = ctx.arg("output_size").value;
  return Value::object(obj);
}

Value rule_adaptive_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  const Value* v = module_field(module, "output_size");
  if (!v) throw NotModelled("output_size unknown");
  Arg size = Arg::of(*v, module.role + ".output_size");
  return adaptive_forward(ctx, ctx.tensor("input"), adaptive_size(ctx, size), v->is_sequence());
}

}  // namespace

void register_nn_pool_rules(RuleRegistry& r) {
  const char* max_sig = "input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False";
  const char* avg_sig = "input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None";
  r.add("torch.nn.functional.max_pool2d", max_sig, rule_max_pool2d);
  r.add("torch.max_pool2d", max_sig, rule_max_pool2d);
  r.add("torch.nn.functional.avg_pool2d", avg_sig, rule_avg_pool2d);
  r.add("torch.nn.functional.adaptive_avg_pool2d", "input, output_size", rule_adaptive_avg_pool2d);
  r.add("torch.nn.MaxPool2d", "kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False",
        rule_pool_init<true>);
  r.add("torch.nn.MaxPool2d.forward", "self, input", rule_pool_forward<true>);
  r.add("torch.nn.AvgPool2d",
        "kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None",
        rule_pool_init<false>);
  r.add("torch.nn.AvgPool2d.forward", "self, input", rule_pool_forward<false>);
  r.add("torch.nn.AdaptiveAvgPool2d", "output_size", rule_adaptive_init);
  r.add("torch.nn.AdaptiveAvgPool2d.forward", "self, input", rule_adaptive_forward);
}

}  // namespace gshape::gradual
