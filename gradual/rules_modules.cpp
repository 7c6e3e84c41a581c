// nn.Module rules: construction ("torch.nn.Linear") returns an object whose
// attributes hold the hyperparameters; the forward ("torch.nn.Linear.forward",
// module in slot 0, input in slot 1) reads them. Convolutions, pooling,
// normalisation and losses follow the same pattern (next batch).
#include "gradual/rules.h"

namespace gshape::gradual {
namespace {

// A hyperparameter of a module as a term: a literal when statically known,
// else `(attr K name)` read from the module at run time.
IntTerm module_attr(RuleContext& ctx, const Arg& module, const std::string& name) {
  const Value* v = nullptr;
  if (module.value.is_object() && module.value.as_object()) v = module.value.as_object()->attribute(name);
  if (v && v->is_int() && v->as_int().is_constant()) return IntTerm(*v->as_int().constant_value());
  if (module.slot >= 0) return IntTerm(cx::attr(module.slot, name), ctx.attr(module.slot, name));
  Dim d = v && v->is_int() ? v->as_int() : ctx.fresh(module.role + "." + name, false);
  return IntTerm::opaque(d, module.role + "." + name);
}

// The size F.linear sees: the weight's ([out, in]), which is in_features /
// out_features unless the program replaced the weight (a real module's
// weight is read at run time).
IntTerm linear_size(RuleContext& ctx, const Arg& module, const std::string& name, std::size_t axis) {
  const Value* w = module.value.is_object() && module.value.as_object() ? module.value.as_object()->attribute("weight")
                                                                        : nullptr;
  if (w && w->is_tensor() && w->shape().rank_known() && w->shape().rank() == 2) {
    if (auto c = w->shape()[axis].constant_value()) return IntTerm(*c);
  }
  return module_attr(ctx, module, name);
}

// nn.Linear(in_features, out_features, bias=True): `nn_linear_c1` both sizes
// are non-negative (torch creates the weight [out, in]).
Value rule_linear_init(RuleContext& ctx) {
  IntTerm in = ctx.int_term(ctx.arg("in_features"));
  IntTerm out = ctx.int_term(ctx.arg("out_features"));
  std::optional<bool> has_bias = ctx.bool_flag("bias");  // unknown: the module is kept, its bias unknown
  Message m;
  m << "trying to create tensor with negative dimension: nn.Linear(" << in << ", " << out << ")";
  ctx.require("nn_linear_c1", ge(in, 0) && ge(out, 0), m);  // nn_linear_c1
  auto obj = std::make_shared<ObjectValue>("torch.nn.Linear");
  obj->attributes["in_features"] = Value::integer(in.dim());
  obj->attributes["out_features"] = Value::integer(out.dim());
  obj->attributes["weight"] = Value::tensor(Shape{out.dim(), in.dim()});
  obj->attributes["bias"] = !has_bias ? Value::unknown() : *has_bias ? Value::tensor(Shape{out.dim()}) : Value::none();
  return Value::object(obj);
}

// nn.Linear forward: [..., in_features] → [..., out_features], keeping every
// leading axis (symbols included); [*, out_features] for an unknown rank. `linear_c2` the input has an axis,
// `linear_c1` its last axis is in_features.
Value rule_linear_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  IntTerm in = linear_size(ctx, module, "in_features", 1);
  IntTerm out = linear_size(ctx, module, "out_features", 0);
  Message m2;
  m2 << "nn.Linear(" << in << ", " << out << ") needs an input with at least one dimension, got shape "
     << ctx.shape_hole(input);
  if (ctx.require("linear_c2", ge(ctx.rank(input), 1), m2) == Status::Refuted) return unknown_tensor();  // linear_c2
  Message m1;
  m1 << "nn.Linear(" << in << ", " << out << ") expects in_features " << in << " but the input's last dimension is "
     << ctx.size(input, -1);
  ctx.require("linear_c1", eq(ctx.size(input, -1), in), m1);  // linear_c1
  const Shape& s = input.shape();
  if (!s.rank_known()) {
    // an input of unknown rank still gives [*, out_features]
    std::vector<Dim> suffix = s.known_suffix();
    if (suffix.empty()) suffix.push_back(out.dim());
    suffix.back() = out.dim();
    return Value::tensor(Shape::unknown_with_suffix(std::move(suffix)));
  }
  std::vector<Dim> dims = s.dims();
  dims.back() = out.dim();
  return Value::tensor(Shape(std::move(dims)));
}

}  // namespace

void register_module_rules(RuleRegistry& r) {
  r.add("torch.nn.Linear", "in_features, out_features, bias=True, device=None, dtype=None", rule_linear_init);
  r.add("torch.nn.Linear.forward", "self, input", rule_linear_forward);
}

}  // namespace gshape::gradual
