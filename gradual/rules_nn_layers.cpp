// Small nn modules: activations (ReLU, GELU, Tanh, ... and PReLU), Dropout,
// Softmax / LogSoftmax, Flatten, Identity, Bilinear, Embedding, with
// F.embedding and F.bilinear. Module forwards that are a functional op on
// the input use that op's tags (softmax_c1, flatten_c1–c3, dropout_c1).
#include <cmath>

#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// ------------------------------------------------------------------ activations

// Activation modules take any hyperparameters and keep the input's shape.
Value rule_activation_init(RuleContext& ctx) {
  const std::string& name = ctx.rule_name();
  return Value::object(new_module(name));
}
Value rule_same_shape_forward(RuleContext& ctx) { return Value::tensor(ctx.tensor("input").shape()); }

// nn.Hardtanh(min_val=-1.0, max_val=1.0): Python asserts max_val > min_val.
Value rule_hardtanh_init(RuleContext& ctx) {
  std::optional<double> lo = float_constant(ctx.arg("min_val")), hi = float_constant(ctx.arg("max_val"));
  if (lo && hi) {
    Message m;
    m << "nn.Hardtanh needs max_val > min_val, got min_val " << float_text(*lo) << " and max_val "
      << float_text(*hi);
    ctx.require("nn_hardtanh_c1", BoolTerm(*hi > *lo), m);  // nn_hardtanh_c1
  }
  return Value::object(new_module("torch.nn.Hardtanh"));
}

// nn.PReLU(num_parameters=1, init=0.25): one weight per channel or one for all.
Value rule_prelu_init(RuleContext& ctx) {
  IntTerm n = ctx.int_term(ctx.arg("num_parameters"));
  Message m;
  m << "trying to create tensor with negative dimension: nn.PReLU(" << n << ")";
  ctx.require("nn_prelu_c1", ge(n, 0), m);  // nn_prelu_c1
  auto obj = new_module("torch.nn.PReLU");
  obj->attributes["num_parameters"] = Value::integer(n.dim());
  obj->attributes["weight"] = Value::tensor(Shape{n.dim()});
  return Value::object(obj);
}

// prelu_c1: a weight of more than one entry has one per channel (dimension
// 1, or 1 for a 1-d input), and the input is not 0-d.
Value prelu(RuleContext& ctx, const Arg& input, const IntTerm& n) {
  IntTerm rank = ctx.rank(input);
  IntTerm channels = ite(gt(rank, 1), input.shape().rank_known() && input.shape().rank() < 2 ? IntTerm(1) : ctx.size(input, 1), 1);
  Message m;
  m << "prelu: mismatch of parameter numbers and input channel size: found " << n << " parameters and channel size "
    << channels;
  ctx.require("prelu_c1", eq(n, 1) || (gt(rank, 0) && eq(channels, n)), m);  // prelu_c1
  return Value::tensor(input.shape());
}

Value rule_prelu_forward(RuleContext& ctx) {
  return prelu(ctx, ctx.tensor("input"), module_int(ctx, ctx.arg("self"), "num_parameters"));
}

Value rule_f_prelu(RuleContext& ctx) {
  Arg weight = ctx.tensor("weight");
  return prelu(ctx, ctx.tensor("input"), ctx.numel(weight));
}

// ------------------------------------------------------------------ dropout

// nn.Dropout(p=0.5): Python checks p at construction (`nn_dropout_c1`).
Value rule_dropout_init(RuleContext& ctx) {
  Arg p = ctx.arg("p");
  if (std::optional<double> prob = float_constant(p)) {
    Message m;
    m << "dropout probability has to be between 0 and 1, but got " << float_text(*prob);
    ctx.require("nn_dropout_c1", BoolTerm(*prob >= 0.0 && *prob <= 1.0), m);  // nn_dropout_c1
  }
  return Value::object(new_module(ctx.rule_name()));
}

// nn.Dropout1d: F.dropout1d's `dropout1d_c1` (a 2-D or 3-D input).
Value rule_dropout1d_forward(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  require_dropout1d_rank(ctx, input);
  return Value::tensor(input.shape());
}

// nn.Dropout2d (MinRank 2) / nn.Dropout3d (1): `feature_dropout_c1` in the
// module's training mode (read at run time when the analysis does not know it).
template <int MinRank>
Value rule_feature_dropout_forward(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  require_feature_dropout_rank(ctx, input, MinRank, training_of(ctx, ctx.arg("self")));
  return Value::tensor(input.shape());
}

// ------------------------------------------------------------------ softmax

// nn.Softmax(dim=None) / nn.LogSoftmax: F.softmax's `softmax_c1` (the dim,
// or the implicit one: 0 for 0-, 1- and 3-d inputs, else 1, is in range).
Value rule_softmax_init(RuleContext& ctx) {
  auto obj = new_module(ctx.rule_name());
  Arg dim = ctx.arg("dim");
  obj->attributes["dim"] = dim.is_none() ? Value::none() : Value::integer(ctx.int_term(dim).dim());
  return Value::object(obj);
}

template <bool Log>
Value rule_softmax_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  const std::string tag = Log ? "log_softmax_c1" : "softmax_c1";
  const Value* dim = module_field(module, "dim");
  if (!dim || dim->is_none()) {
    if (!input.shape().rank_known()) return Value::tensor(input.shape());
    std::size_t r = input.shape().rank();
    require_dim(ctx, tag, input, IntTerm((r == 0 || r == 1 || r == 3) ? 0 : 1));  // softmax_c1 / log_softmax_c1
    return Value::tensor(input.shape());
  }
  require_dim(ctx, tag, input, module_int(ctx, module, "dim"));  // softmax_c1 / log_softmax_c1
  return Value::tensor(input.shape());
}

// ------------------------------------------------------------------ flatten, identity

Value rule_flatten_init(RuleContext& ctx) {
  auto obj = new_module("torch.nn.Flatten");
  obj->attributes["start_dim"] = Value::integer(ctx.int_term(ctx.arg("start_dim")).dim());
  obj->attributes["end_dim"] = Value::integer(ctx.int_term(ctx.arg("end_dim")).dim());
  return Value::object(obj);
}

// nn.Flatten's forward is input.flatten(start_dim, end_dim): torch.flatten's tags.
Value rule_flatten_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  IntTerm start = module_int(ctx, module, "start_dim");
  IntTerm end = module_int(ctx, module, "end_dim");
  return flatten_dims(ctx, input, start, end);
}

// ------------------------------------------------------------------ bilinear

// nn.Bilinear(in1, in2, out): weight [out, in1, in2] (`nn_bilinear_c1` no
// negative size); Python's init divides by sqrt(in1) (`nn_bilinear_c2`).
Value rule_bilinear_init(RuleContext& ctx) {
  IntTerm in1 = ctx.int_term(ctx.arg("in1_features"));
  IntTerm in2 = ctx.int_term(ctx.arg("in2_features"));
  IntTerm out = ctx.int_term(ctx.arg("out_features"));
  std::optional<bool> has_bias = ctx.bool_flag("bias");  // unknown: the module is kept, its bias unknown
  auto describe = [&](Message& m) { m << "nn.Bilinear(" << in1 << ", " << in2 << ", " << out << ")"; };
  Message m1;
  describe(m1);
  m1 << ": trying to create a weight with a negative dimension";
  if (ctx.require("nn_bilinear_c1", ge(in1, 0) && ge(in2, 0) && ge(out, 0), m1) == Status::Refuted)  // nn_bilinear_c1
    return Value::unknown();
  Message m2;
  describe(m2);
  m2 << ": in1_features must be positive (its initialisation divides by sqrt(in1_features))";
  ctx.require("nn_bilinear_c2", gt(in1, 0), m2);  // nn_bilinear_c2
  auto obj = new_module("torch.nn.Bilinear");
  obj->attributes["in1_features"] = Value::integer(in1.dim());
  obj->attributes["in2_features"] = Value::integer(in2.dim());
  obj->attributes["out_features"] = Value::integer(out.dim());
  obj->attributes["weight"] = Value::tensor(Shape{out.dim(), in1.dim(), in2.dim()});
  obj->attributes["bias"] = !has_bias ? Value::unknown() : *has_bias ? Value::tensor(Shape{out.dim()}) : Value::none();
  return Value::object(obj);
}

// bilinear_c1 both inputs have a dimension and the same rank, bilinear_c2
// their leading axes agree, bilinear_c3 input1's last axis is in1 and
// input2's is in2, bilinear_c4 the bias has out entries, bilinear_c5 both
// feature counts are positive.
Value bilinear(RuleContext& ctx, const Arg& x1, const Arg& x2, const IntTerm& in1, const IntTerm& in2, const IntTerm& out,
               const std::optional<IntTerm>& bias0, const std::string& what) {
  IntTerm r1 = ctx.rank(x1), r2 = ctx.rank(x2);
  Message m1;
  m1 << what << ": input dimensions do not match or are 0: got " << r1 << " and " << r2;
  if (ctx.require("bilinear_c1", eq(r1, r2) && ge(r1, 1), m1) == Status::Refuted) return unknown_tensor();  // bilinear_c1
  if (!x1.shape().rank_known() || !x2.shape().rank_known()) return unknown_tensor();
  std::size_t r = x1.shape().rank();
  for (std::size_t i = 0; i + 1 < r; ++i) {
    IntTerm a = ctx.size(x1, static_cast<int64_t>(i)), b = ctx.size(x2, static_cast<int64_t>(i));
    Message m2;
    m2 << what << ": input batch dimensions do not match: got " << a << " and " << b << " at dimension "
       << std::to_string(i);
    ctx.require("bilinear_c2", eq(a, b), m2);  // bilinear_c2
  }
  Message m3;
  m3 << what << " expects inputs ending with " << in1 << " and " << in2 << " features, got " << ctx.size(x1, -1)
     << " and " << ctx.size(x2, -1);
  ctx.require("bilinear_c3", eq(ctx.size(x1, -1), in1) && eq(ctx.size(x2, -1), in2), m3);  // bilinear_c3
  Message m5;
  m5 << what << " cannot take inputs with no features (torch reshapes each to [-1, features]), got " << in1 << " and "
     << in2;
  ctx.require("bilinear_c5", gt(in1, 0) && gt(in2, 0), m5);  // bilinear_c5
  if (bias0) {
    Message m4;
    m4 << what << ": the bias has " << *bias0 << " entries, expected " << out;
    ctx.require("bilinear_c4", eq(*bias0, out), m4);  // bilinear_c4
  }
  std::vector<Dim> dims(x1.shape().dims().begin(), x1.shape().dims().end() - 1);
  dims.push_back(out.dim());
  return Value::tensor(Shape(std::move(dims)));
}

Value rule_bilinear_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  IntTerm in1 = module_int(ctx, module, "in1_features");
  IntTerm in2 = module_int(ctx, module, "in2_features");
  IntTerm out = module_int(ctx, module, "out_features");
  return bilinear(ctx, ctx.tensor("input1"), ctx.tensor("input2"), in1, in2, out, std::nullopt, "nn.Bilinear");
}

Value rule_f_bilinear(RuleContext& ctx) {
  Arg weight = ctx.tensor("weight");
  Message mw;
  mw << "bilinear expects a 3-d weight, got weight of shape " << ctx.shape_hole(weight);
  if (ctx.require("bilinear_c1", eq(ctx.rank(weight), 3), mw) == Status::Refuted) return unknown_tensor();  // bilinear_c1
  std::optional<IntTerm> b;
  Arg bias = ctx.arg("bias");
  if (!bias.is_none()) b = ctx.size(ctx.as_tensor(bias), 0);
  return bilinear(ctx, ctx.tensor("input1"), ctx.tensor("input2"), ctx.size(weight, 1), ctx.size(weight, 2),
                  ctx.size(weight, 0), b, "bilinear");
}

// ------------------------------------------------------------------ embedding

// Python's padding_idx check: 0 < p < n or -n <= p < 0 (0 itself passes).
BoolTerm padding_idx_ok(const IntTerm& p, const IntTerm& n) {
  return (gt(p, 0) && lt(p, n)) || (lt(p, 0) && ge(p, -n)) || eq(p, 0);
}

// nn.Embedding(num_embeddings, embedding_dim, padding_idx=None, ...):
// `nn_embedding_c1` no negative size, `nn_embedding_c2` padding_idx within
// [-num, num) (the module zeroes that row: 0 needs a row too).
Value rule_embedding_init(RuleContext& ctx) {
  IntTerm n = ctx.int_term(ctx.arg("num_embeddings"));
  IntTerm d = ctx.int_term(ctx.arg("embedding_dim"));
  Arg weight = ctx.arg("_weight");
  Message m1;
  m1 << "nn.Embedding(" << n << ", " << d << "): trying to create a weight with a negative dimension";
  if (weight.is_none()) ctx.require("nn_embedding_c1", ge(n, 0) && ge(d, 0), m1);  // nn_embedding_c1
  Arg pad = ctx.arg("padding_idx");
  if (!pad.is_none()) {
    IntTerm p = ctx.int_term(pad);
    Message m2;
    m2 << "nn.Embedding(" << n << ", " << d << "): padding_idx " << p << " must be within num_embeddings";
    BoolTerm ok = padding_idx_ok(p, n);
    if (weight.is_none()) ok = ok && (ne(p, 0) || gt(n, 0));
    ctx.require("nn_embedding_c2", ok, m2);  // nn_embedding_c2
  }
  auto obj = new_module("torch.nn.Embedding");
  obj->attributes["num_embeddings"] = Value::integer(n.dim());
  obj->attributes["embedding_dim"] = Value::integer(d.dim());
  obj->attributes["weight"] = Value::tensor(Shape{n.dim(), d.dim()});
  return Value::object(obj);
}

// embedding_c1: a non-empty index tensor needs a non-empty table (every
// index is out of range of an empty one). Result: indices' shape + [dim]
// (`[*, dim]` for indices of unknown rank).
// The indices must be an integer tensor: gshape has no dtypes, not checked.
Value embedding(RuleContext& ctx, const Arg& indices, const IntTerm& n, const IntTerm& d, const std::string& what) {
  Message m;
  m << what << " has no rows (num_embeddings " << n << ") but is indexed by a tensor of shape "
    << ctx.shape_hole(indices);
  ctx.require("embedding_c1", gt(n, 0) || eq(ctx.numel(indices), 0), m);  // embedding_c1
  std::vector<Dim> dims = indices.shape().known_suffix();
  dims.push_back(d.dim());
  if (!indices.shape().rank_known()) return Value::tensor(Shape::unknown_with_suffix(std::move(dims)));  // [*, dim]
  return Value::tensor(Shape(std::move(dims)));
}

Value rule_embedding_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  IntTerm n = module_int(ctx, module, "num_embeddings");
  IntTerm d = module_int(ctx, module, "embedding_dim");
  return embedding(ctx, ctx.tensor("input"), n, d, "nn.Embedding");
}

// F.embedding(input, weight, padding_idx=None, ...): `embedding_c2` the
// weight is 2-d, `embedding_c3` padding_idx within the table (Python's check).
Value rule_f_embedding(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg weight = ctx.tensor("weight");
  Message m2;
  m2 << "embedding: 'weight' must be 2-D, got weight of shape " << ctx.shape_hole(weight);
  if (ctx.require("embedding_c2", eq(ctx.rank(weight), 2), m2) == Status::Refuted) return unknown_tensor();  // embedding_c2
  IntTerm n = ctx.size(weight, 0);
  Arg pad = ctx.arg("padding_idx");
  if (!pad.is_none()) {
    IntTerm p = ctx.int_term(pad);
    Message m3;
    m3 << "embedding: padding_idx " << p << " must be within num_embeddings " << n;
    ctx.require("embedding_c3", padding_idx_ok(p, n), m3);  // embedding_c3
  }
  return embedding(ctx, input, n, ctx.size(weight, 1), "embedding");
}

}  // namespace

void register_nn_layer_rules(RuleRegistry& r) {
  for (const char* name : {"ReLU", "ReLU6", "GELU", "Tanh", "Sigmoid", "LeakyReLU", "ELU", "SELU", "CELU", "SiLU", "Mish",
                           "Softplus", "Softsign", "Hardswish", "Hardsigmoid", "LogSigmoid", "Tanhshrink", "Softshrink",
                           "Hardshrink", "Identity"}) {
    r.add(std::string("torch.nn.") + name, "*args, **options", rule_activation_init);
    r.add(std::string("torch.nn.") + name + ".forward", "self, input", rule_same_shape_forward);
  }
  r.add("torch.nn.Hardtanh", "min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None", rule_hardtanh_init);
  r.add("torch.nn.Hardtanh.forward", "self, input", rule_same_shape_forward);
  r.add("torch.nn.PReLU", "num_parameters=1, init=0.25, device=None, dtype=None", rule_prelu_init);
  r.add("torch.nn.PReLU.forward", "self, input", rule_prelu_forward);
  r.add("torch.nn.functional.prelu", "input, weight", rule_f_prelu);
  for (const char* name : {"Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout"}) {
    r.add(std::string("torch.nn.") + name, "p=0.5, inplace=False", rule_dropout_init);
    if (std::string(name) == "Dropout" || std::string(name) == "AlphaDropout")
      r.add(std::string("torch.nn.") + name + ".forward", "self, input", rule_same_shape_forward);
  }
  r.add("torch.nn.Dropout1d.forward", "self, input", rule_dropout1d_forward);
  r.add("torch.nn.Dropout2d.forward", "self, input", rule_feature_dropout_forward<2>);
  r.add("torch.nn.Dropout3d.forward", "self, input", rule_feature_dropout_forward<1>);
  r.add("torch.nn.Softmax", "dim=None", rule_softmax_init);
  r.add("torch.nn.Softmax.forward", "self, input", rule_softmax_forward<false>);
  r.add("torch.nn.LogSoftmax", "dim=None", rule_softmax_init);
  r.add("torch.nn.LogSoftmax.forward", "self, input", rule_softmax_forward<true>);
  r.add("torch.nn.Flatten", "start_dim=1, end_dim=-1", rule_flatten_init);
  r.add("torch.nn.Flatten.forward", "self, input", rule_flatten_forward);
  r.add("torch.nn.Bilinear", "in1_features, in2_features, out_features, bias=True, device=None, dtype=None",
        rule_bilinear_init);
  r.add("torch.nn.Bilinear.forward", "self, input1, input2", rule_bilinear_forward);
  r.add("torch.nn.functional.bilinear", "input1, input2, weight, bias=None", rule_f_bilinear);
  r.add("torch.nn.Embedding",
        "num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, "
        "sparse=False, _weight=None, device=None, dtype=None",
        rule_embedding_init);
  r.add("torch.nn.Embedding.forward", "self, input", rule_embedding_forward);
  r.add("torch.nn.functional.embedding",
        "input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False",
        rule_f_embedding);
}

}  // namespace gshape::gradual
