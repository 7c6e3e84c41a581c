// Losses, function and module forms: cross_entropy / CrossEntropyLoss
// (class indices or probabilities), nll_loss / NLLLoss (1-d to n-d inputs),
// mse_loss, l1_loss, smooth_l1_loss, huber_loss (broadcasting), kl_div,
// binary_cross_entropy (same shape), binary_cross_entropy_with_logits
// (same shape, weight and pos_weight broadcast to it). Reduction 'none'
// keeps the per-element shape, 'mean' / 'sum' give a 0-d tensor.
#include <algorithm>
#include <map>

#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

Value scalar() { return Value::tensor(Shape(std::vector<Dim>{})); }

// What a loss call gets besides input and target.
struct LossArgs {
  std::string reduction;  // none | mean | sum | batchmean
  std::optional<Arg> weight, pos_weight;
  std::optional<double> label_smoothing, beta, delta;
};

// The reduction from the call's `reduction`, `size_average`, `reduce`.
std::string reduction_of(RuleContext& ctx, bool batchmean_ok = false) {
  return loss_reduction(ctx, ctx.arg("reduction"), ctx.arg("size_average"), ctx.arg("reduce"), batchmean_ok);
}

std::optional<Arg> optional_tensor(RuleContext& ctx, const Arg& a) {
  if (a.is_none()) return std::nullopt;
  return ctx.as_tensor(a);
}

// ------------------------------------------------------------------ nll_loss

// torch's nll_loss_nd on log-probabilities `input` and class indices
// `target`, with the tags of `op` (nll_loss or cross_entropy):
// c1 the input has a dimension, c2 the target's rank (<= 1 for a 1-d or 2-d
// input, 3 for a 4-d one), c3 (3-d and >4-d inputs) the target's axes after
// the first are the input's after the class axis, c4 the batch axes agree,
// c5 the weight has one entry per class.
Value nll(RuleContext& ctx, const std::string& op, const Arg& input, const Arg& target, const LossArgs& a) {
  const std::string& p = op;
  Message m1;
  m1 << op << " expects an input with 1 or more dimensions, got input of shape " << ctx.shape_hole(input);
  if (ctx.require(p + "_c1", ge(ctx.rank(input), 1), m1) == Status::Refuted) return unknown_tensor();  // <op>_c1
  const Shape& in = input.shape();
  const Shape& tg = target.shape();
  if (!in.rank_known() || !tg.rank_known()) return a.reduction == "none" ? unknown_tensor() : scalar();
  const std::size_t r = in.rank(), rt = tg.rank();
  bool ok = true;
  if (r <= 2 || r == 4) {
    Message m2;
    m2 << op << " expects a target with " << (r == 4 ? "3 dimensions" : (r == 1 ? "0 or 1 dimensions" : "1 dimension"))
       << " for an input of shape " << ctx.shape_hole(input) << ", got target of shape " << ctx.shape_hole(target);
    bool rank_ok = r == 4 ? rt == 3 : (r == 1 ? rt <= 1 : rt == 1);
    if (ctx.require(p + "_c2", BoolTerm(rank_ok), m2) == Status::Refuted) return unknown_tensor();  // <op>_c2
  } else {
    // target.shape[1:] == input.shape[2:] (the rank included)
    std::vector<BoolTerm> same{BoolTerm(rt == r - 1)};
    if (rt == r - 1) {
      for (std::size_t i = 1; i < rt; ++i) same.push_back(eq(ctx.size(target, static_cast<int64_t>(i)), ctx.size(input, static_cast<int64_t>(i) + 1)));
    }
    Message m3;
    m3 << op << " expects a target of shape [N, d1, ...] matching the input's axes after the class dimension: input of shape "
       << ctx.shape_hole(input) << ", target of shape " << ctx.shape_hole(target);
    if (ctx.require(p + "_c3", all_of(same), m3) == Status::Refuted) ok = false;  // <op>_c3
  }
  if (rt >= 1 && !(r == 1 && rt == 0)) {
    IntTerm n = ctx.size(input, 0), nt = ctx.size(target, 0);
    std::vector<BoolTerm> batch{eq(n, nt)};
    if (r == 4 && rt == 3) {
      batch.push_back(eq(ctx.size(input, 2), ctx.size(target, 1)));
      batch.push_back(eq(ctx.size(input, 3), ctx.size(target, 2)));
    }
    Message m4;
    m4 << op << ": expected input batch_size (" << n << ") to match target batch_size (" << nt
       << "): input of shape " << ctx.shape_hole(input) << ", target of shape " << ctx.shape_hole(target);
    if (ctx.require(p + "_c4", all_of(batch), m4) == Status::Refuted) ok = false;  // <op>_c4
  }
  if (a.weight) {
    IntTerm classes = r <= 2 ? ctx.size(input, -1) : ctx.size(input, 1);
    BoolTerm w_ok = eq(ctx.numel(*a.weight), classes);
    if (r <= 2) w_ok = w_ok && eq(ctx.rank(*a.weight), 1);
    Message m5;
    m5 << op << ": the weight should have one entry for each of the " << classes << " classes, got weight of shape "
       << ctx.shape_hole(*a.weight);
    if (ctx.require(p + "_c5", w_ok, m5) == Status::Refuted) ok = false;  // <op>_c5
  }
  if (!ok) return unknown_tensor();
  // 'none' gives the target's shape, except for a 1-d input (torch: 0-d)
  return a.reduction == "none" && r >= 2 ? Value::tensor(tg) : scalar();
}

LossArgs nll_args(RuleContext& ctx) {
  LossArgs a;
  a.reduction = reduction_of(ctx);
  a.weight = optional_tensor(ctx, ctx.arg("weight"));
  return a;
}

Value rule_nll_loss(RuleContext& ctx) {
  LossArgs a = nll_args(ctx);
  if (a.reduction.empty()) return unknown_tensor();
  return nll(ctx, "nll_loss", ctx.tensor("input"), ctx.tensor("target"), a);
}

// ------------------------------------------------------------------ cross_entropy

// Probabilities when the target has the input's shape, class indices
// otherwise (torch decides by shape; the dtype is not modelled). Both read
// log_softmax over the class axis (1, or 0 for a 1-d input): c1 the input
// has a dimension. c6 label_smoothing is at most 1. With probabilities,
// c5 the weight has one entry per class.
Value cross_entropy(RuleContext& ctx, const Arg& input, const Arg& target, const LossArgs& a) {
  const Shape& in = input.shape();
  const Shape& tg = target.shape();
  if (a.label_smoothing) {
    Message m6;
    m6 << "cross_entropy: label_smoothing must be between 0.0 and 1.0, got " << float_text(*a.label_smoothing);
    if (ctx.require("cross_entropy_c6", BoolTerm(*a.label_smoothing <= 1.0), m6) == Status::Refuted)  // cross_entropy_c6
      return unknown_tensor();
  }
  if (!in.rank_known() || !tg.rank_known()) return a.reduction == "none" ? unknown_tensor() : scalar();
  bool probabilities = false;
  if (in.rank() == tg.rank()) {
    std::vector<Pred> same;
    for (std::size_t i = 0; i < in.rank(); ++i) same.push_back(eq(in[i], tg[i]));
    std::optional<bool> all_same = ctx.query(all_of(same));
    if (!all_same) throw NotModelled("cannot tell class indices from probabilities: the shapes may or may not be equal");
    probabilities = *all_same;
  }
  if (!probabilities) return nll(ctx, "cross_entropy", input, target, a);
  Message m1;
  m1 << "cross_entropy expects an input with 1 or more dimensions, got input of shape " << ctx.shape_hole(input);
  if (ctx.require("cross_entropy_c1", ge(ctx.rank(input), 1), m1) == Status::Refuted) return unknown_tensor();  // cross_entropy_c1
  std::size_t class_dim = in.rank() == 1 ? 0 : 1;
  if (a.weight) {
    IntTerm classes = ctx.size(input, static_cast<int64_t>(class_dim));
    Message m5;
    m5 << "cross_entropy: the weight should have one entry for each of the " << classes
       << " classes, got weight of shape " << ctx.shape_hole(*a.weight);
    if (ctx.require("cross_entropy_c5", eq(ctx.rank(*a.weight), 1) && eq(ctx.numel(*a.weight), classes), m5) ==
        Status::Refuted)  // cross_entropy_c5
      return unknown_tensor();
  }
  if (a.reduction != "none") return scalar();
  std::vector<Dim> dims = in.dims();
  dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(class_dim));
  return Value::tensor(Shape(std::move(dims)));
}

Value rule_cross_entropy(RuleContext& ctx) {
  LossArgs a = nll_args(ctx);
  if (a.reduction.empty()) return unknown_tensor();
  a.label_smoothing = float_constant(ctx.arg("label_smoothing"));
  return cross_entropy(ctx, ctx.tensor("input"), ctx.tensor("target"), a);
}

// ------------------------------------------------------------------ element-wise losses

// mse / l1 / smooth_l1 / huber / kl_div: input and target broadcast
// (broadcast_c1; torch only warns when the shapes differ).
// `loss_broadcast_c1` (mse, l1, smooth_l1, huber: the losses torch warns
// about) is advice, not an obligation: when input and target certainly
// broadcast to a shape larger than the input ([N, 1] against [N] gives
// [N, N]), the loss compares every input with every target; torch only warns.
Value pointwise(RuleContext& ctx, const Arg& input, const Arg& target, const LossArgs& a, const std::string& op = {}) {
  Shape s = broadcast_args(ctx, "broadcast_c1", input, target);
  const Shape& in = input.shape();
  const Shape& tg = target.shape();
  if (!op.empty() && op != "kl_div" && !ctx.any_refuted() && in.rank_known() && tg.rank_known()) {
    // the result is larger than the input: an input axis of size 1 against a
    // larger target axis, or a target axis the input lacks, of size > 1
    // (a target broadcast to the input's shape, a constant, is left alone)
    std::vector<BoolTerm> grows;
    std::size_t ri = in.rank(), rt = tg.rank();
    for (std::size_t k = 1; k <= rt; ++k) {
      IntTerm y = ctx.size(target, -static_cast<int64_t>(k));
      if (k <= ri) grows.push_back(eq(ctx.size(input, -static_cast<int64_t>(k)), 1) && gt(y, 1));
      else grows.push_back(gt(y, 1));
    }
    BoolTerm any(false);
    for (const BoolTerm& g : grows) any = any || g;
    Message m;
    m << op << ": the input of shape " << ctx.shape_hole(input) << " and the target of shape " << ctx.shape_hole(target)
      << " broadcast to " << ShapeHole{-1, s}
      << ", larger than the input; PyTorch only warns and then compares every input with every target: make the two shapes equal";
    ctx.advise("loss_broadcast_c1", any.pred(), m);  // loss_broadcast_c1
  }
  return a.reduction == "none" ? Value::tensor(s) : scalar();
}

Value rule_pointwise_loss(RuleContext& ctx) {
  const std::string op = op_short_name(ctx.rule_name());
  LossArgs a;
  a.reduction = reduction_of(ctx, op == "kl_div");
  if (a.reduction.empty()) return unknown_tensor();
  if (op == "smooth_l1_loss") {
    if (std::optional<double> beta = float_constant(ctx.arg("beta"))) {
      Message m;
      m << "smooth_l1_loss does not support negative values for beta, got " << float_text(*beta);
      ctx.require("smooth_l1_loss_c1", BoolTerm(*beta >= 0.0), m);  // smooth_l1_loss_c1
    }
  }
  return pointwise(ctx, ctx.tensor("input"), ctx.tensor("target"), a, op);
}

// huber_loss(input, target, reduction='mean', delta=1.0): no legacy flags.
Value rule_huber_loss(RuleContext& ctx) {
  LossArgs a;
  Arg none = Arg::of(Value::none(), "size_average");
  a.reduction = loss_reduction(ctx, ctx.arg("reduction"), none, none);
  if (a.reduction.empty()) return unknown_tensor();
  if (std::optional<double> delta = float_constant(ctx.arg("delta"))) {
    Message m;
    m << "huber_loss does not support non-positive values for delta, got " << float_text(*delta);
    ctx.require("huber_loss_c1", BoolTerm(*delta > 0.0), m);  // huber_loss_c1
  }
  return pointwise(ctx, ctx.tensor("input"), ctx.tensor("target"), a, "huber_loss");
}

// ------------------------------------------------------------------ binary cross entropy

// `<op>_c1` the target has the input's shape; `<op>_c2` the weight (and
// pos_weight) broadcast to it.
Value binary(RuleContext& ctx, const std::string& op, const Arg& input, const Arg& target, const LossArgs& a) {
  const Shape& in = input.shape();
  const Shape& tg = target.shape();
  std::vector<BoolTerm> same{eq(ctx.rank(target), ctx.rank(input))};
  if (in.rank_known() && tg.rank_known() && in.rank() == tg.rank()) {
    for (std::size_t i = 0; i < in.rank(); ++i) same.push_back(eq(ctx.size(target, static_cast<int64_t>(i)), ctx.size(input, static_cast<int64_t>(i))));
  }
  Message m1;
  m1 << op << " expects a target of the input's size: target of shape " << ctx.shape_hole(target)
     << ", input of shape " << ctx.shape_hole(input);
  if (ctx.require(op + "_c1", all_of(same), m1) == Status::Refuted) return unknown_tensor();  // <op>_c1
  for (const auto& extra : {a.weight, a.pos_weight}) {
    if (extra) require_broadcastable_to(ctx, op + "_c2", input, *extra);  // <op>_c2
  }
  return a.reduction == "none" ? Value::tensor(in) : scalar();
}

Value rule_binary_cross_entropy(RuleContext& ctx) {
  LossArgs a;
  a.reduction = reduction_of(ctx);
  if (a.reduction.empty()) return unknown_tensor();
  a.weight = optional_tensor(ctx, ctx.arg("weight"));
  return binary(ctx, "binary_cross_entropy", ctx.tensor("input"), ctx.tensor("target"), a);
}

Value rule_bce_with_logits(RuleContext& ctx) {
  LossArgs a;
  a.reduction = reduction_of(ctx);
  if (a.reduction.empty()) return unknown_tensor();
  a.weight = optional_tensor(ctx, ctx.arg("weight"));
  a.pos_weight = optional_tensor(ctx, ctx.arg("pos_weight"));
  return binary(ctx, "binary_cross_entropy_with_logits", ctx.tensor("input"), ctx.tensor("target"), a);
}

// ------------------------------------------------------------------ modules

// Loss modules check nothing at construction: they keep the reduction
// (legacy size_average/reduce turned into one, as _Loss does) and options.
Value rule_loss_init(RuleContext& ctx) {
  auto obj = new_module(ctx.rule_name());
  Arg none = Arg::of(Value::none(), "size_average");
  Arg size_average = ctx.provided("size_average") ? ctx.arg("size_average") : none;
  Arg reduce = ctx.provided("reduce") ? ctx.arg("reduce") : none;
  if (!size_average.is_none() || !reduce.is_none()) {
    obj->attributes["reduction"] = Value::string(loss_reduction(ctx, ctx.arg("reduction"), size_average, reduce, true));
  } else {
    obj->attributes["reduction"] = ctx.arg("reduction").value;
  }
  for (const char* name : {"weight", "pos_weight", "label_smoothing", "beta", "delta"})
    if (ctx.provided(name)) obj->attributes[name] = ctx.arg(name).value;
  return Value::object(obj);
}

// The module's options as the functional form sees them.
LossArgs module_loss_args(RuleContext& ctx, const Arg& module, bool batchmean_ok) {
  LossArgs a;
  const Value* reduction = module_field(module, "reduction");
  Arg none = Arg::of(Value::none(), "size_average");
  a.reduction = loss_reduction(ctx, Arg::of(reduction ? *reduction : Value::unknown(), "reduction"), none, none, batchmean_ok);
  for (const char* name : {"weight", "pos_weight"}) {
    const Value* v = module_field(module, name);
    if (v && !v->is_none()) {
      Arg t = ctx.as_tensor(Arg::of(*v, module.role + "." + name));
      (std::string(name) == "weight" ? a.weight : a.pos_weight) = t;
    }
  }
  if (const Value* v = module_field(module, "label_smoothing")) a.label_smoothing = float_constant(Arg::of(*v, "label_smoothing"));
  if (const Value* v = module_field(module, "beta")) a.beta = float_constant(Arg::of(*v, "beta"));
  if (const Value* v = module_field(module, "delta")) a.delta = float_constant(Arg::of(*v, "delta"));
  return a;
}

Value rule_loss_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input"), target = ctx.tensor("target");
  const std::string cls = module_object(module).class_name;
  LossArgs a = module_loss_args(ctx, module, cls == "torch.nn.KLDivLoss");
  if (a.reduction.empty()) return unknown_tensor();
  if (cls == "torch.nn.CrossEntropyLoss") return cross_entropy(ctx, input, target, a);
  if (cls == "torch.nn.NLLLoss") return nll(ctx, "nll_loss", input, target, a);
  if (cls == "torch.nn.BCELoss") return binary(ctx, "binary_cross_entropy", input, target, a);
  if (cls == "torch.nn.BCEWithLogitsLoss") return binary(ctx, "binary_cross_entropy_with_logits", input, target, a);
  if (cls == "torch.nn.SmoothL1Loss" && a.beta) {
    Message m;
    m << "smooth_l1_loss does not support negative values for beta, got " << float_text(*a.beta);
    ctx.require("smooth_l1_loss_c1", BoolTerm(*a.beta >= 0.0), m);  // smooth_l1_loss_c1
  }
  if (cls == "torch.nn.HuberLoss" && a.delta) {
    Message m;
    m << "huber_loss does not support non-positive values for delta, got " << float_text(*a.delta);
    ctx.require("huber_loss_c1", BoolTerm(*a.delta > 0.0), m);  // huber_loss_c1
  }
  static const std::map<std::string, std::string> ops = {{"torch.nn.MSELoss", "mse_loss"}, {"torch.nn.L1Loss", "l1_loss"},
                                                         {"torch.nn.SmoothL1Loss", "smooth_l1_loss"},
                                                         {"torch.nn.HuberLoss", "huber_loss"}};
  auto op = ops.find(cls);
  return pointwise(ctx, input, target, a, op == ops.end() ? std::string() : op->second);
}

}  // namespace

void register_nn_loss_rules(RuleRegistry& r) {
  const char* legacy = "size_average=None, reduce=None, reduction='mean'";
  r.add("torch.nn.functional.nll_loss",
        std::string("input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'"),
        rule_nll_loss);
  r.add("torch.nn.functional.cross_entropy",
        "input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', "
        "label_smoothing=0.0",
        rule_cross_entropy);
  for (const char* op : {"mse_loss", "l1_loss"})
    r.add(std::string("torch.nn.functional.") + op, std::string("input, target, ") + legacy, rule_pointwise_loss);
  r.add("torch.nn.functional.smooth_l1_loss", std::string("input, target, ") + legacy + ", beta=1.0", rule_pointwise_loss);
  r.add("torch.nn.functional.kl_div", std::string("input, target, ") + legacy + ", log_target=False", rule_pointwise_loss);
  r.add("torch.nn.functional.huber_loss", "input, target, reduction='mean', delta=1.0", rule_huber_loss);
  r.add("torch.nn.functional.binary_cross_entropy", std::string("input, target, weight=None, ") + legacy,
        rule_binary_cross_entropy);
  r.add("torch.nn.functional.binary_cross_entropy_with_logits",
        std::string("input, target, weight=None, ") + legacy + ", pos_weight=None", rule_bce_with_logits);

  r.add("torch.nn.CrossEntropyLoss",
        "weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0",
        rule_loss_init);
  r.add("torch.nn.NLLLoss", "weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'",
        rule_loss_init);
  r.add("torch.nn.MSELoss", legacy, rule_loss_init);
  r.add("torch.nn.L1Loss", legacy, rule_loss_init);
  r.add("torch.nn.SmoothL1Loss", std::string(legacy) + ", beta=1.0", rule_loss_init);
  r.add("torch.nn.HuberLoss", "reduction='mean', delta=1.0", rule_loss_init);
  r.add("torch.nn.KLDivLoss", std::string(legacy) + ", log_target=False", rule_loss_init);
  r.add("torch.nn.BCELoss", std::string("weight=None, ") + legacy, rule_loss_init);
  r.add("torch.nn.BCEWithLogitsLoss", std::string("weight=None, ") + legacy + ", pos_weight=None", rule_loss_init);
  for (const char* m : {"CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
                        "BCELoss", "BCEWithLogitsLoss"})
    r.add(std::string("torch.nn.") + m + ".forward", "self, input, target", rule_loss_forward);
}

}  // namespace gshape::gradual
