// nn.MultiheadAttention (construction and forward) as torch 1.13's Python
// computes it outside the inference fast path: batch_first transposes,
// F.multi_head_attention_forward's shape checks (_mha_shape_check, the
// in-projections, the masks) and the output and attention-weight shapes.
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True,
// add_bias_kv=False, add_zero_attn=False, kdim=None, vdim=None, batch_first=False)
Value rule_mha_init(RuleContext& ctx) {
  IntTerm e = ctx.int_term(ctx.arg("embed_dim"));
  IntTerm h = ctx.int_term(ctx.arg("num_heads"));
  Arg kdim_arg = ctx.arg("kdim"), vdim_arg = ctx.arg("vdim");
  IntTerm kdim = kdim_arg.is_none() ? e : ctx.int_term(kdim_arg);
  IntTerm vdim = vdim_arg.is_none() ? e : ctx.int_term(vdim_arg);
  auto describe = [&](Message& m) { m << "nn.MultiheadAttention(" << e << ", " << h << ")"; };
  Message m1;
  describe(m1);
  m1 << ": embed_dim " << e << " must be divisible by num_heads " << h;
  // Python: head_dim = embed_dim // num_heads; assert head_dim * num_heads == embed_dim
  if (ctx.require("nn_mha_c1", ne(h, 0) && eq(mod(e, h), 0), m1) == Status::Refuted) return Value::unknown();  // nn_mha_c1
  Message m2;
  describe(m2);
  m2 << ": embed_dim must be positive (xavier initialisation of an empty projection divides by zero)";
  ctx.require("nn_mha_c2", gt(e, 0), m2);  // nn_mha_c2
  Message m3;
  describe(m3);
  m3 << ": kdim " << kdim << " and vdim " << vdim << " must be non-negative";
  ctx.require("nn_mha_c3", ge(kdim, 0) && ge(vdim, 0), m3);  // nn_mha_c3
  auto obj = new_module("torch.nn.MultiheadAttention");
  obj->attributes["embed_dim"] = Value::integer(e.dim());
  obj->attributes["num_heads"] = Value::integer(h.dim());
  obj->attributes["kdim"] = Value::integer(kdim.dim());
  obj->attributes["vdim"] = Value::integer(vdim.dim());
  // packed in-projection when kdim and vdim are embed_dim (Python's _qkv_same_embed_dim)
  obj->attributes["_qkv_same_embed_dim"] = Value::boolean(eq(kdim, e).pred() && eq(vdim, e).pred());
  obj->attributes["batch_first"] = Value::boolean(Pred(ctx.bool_constant("batch_first")));
  // PyTorch keeps the extra key/value biases as parameters bias_k, bias_v (or None)
  Value bias_kv = ctx.bool_constant("add_bias_kv") ? Value::tensor(Shape{1, 1, e.dim()}) : Value::none();
  obj->attributes["bias_k"] = bias_kv;
  obj->attributes["bias_v"] = bias_kv;
  obj->attributes["add_zero_attn"] = Value::boolean(Pred(ctx.bool_constant("add_zero_attn")));
  std::optional<double> dropout = float_constant(ctx.arg("dropout"));
  obj->attributes["dropout"] = Value::floating(dropout);
  return Value::object(obj);
}

// The first two axes of a (possibly transposed) batched operand, or the
// one axis of an unbatched one: sequence and batch.
struct Axes {
  IntTerm seq{0};
  std::optional<IntTerm> batch;
};

Axes axes_of(RuleContext& ctx, const Arg& t, bool batched, bool batch_first) {
  Axes a;
  if (!batched) {
    a.seq = ctx.size(t, 0);
  } else {
    a.seq = ctx.size(t, batch_first ? 1 : 0);
    a.batch = ctx.size(t, batch_first ? 0 : 1);
  }
  return a;
}

Value rule_mha_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg query = ctx.tensor("query"), key = ctx.tensor("key"), value = ctx.tensor("value");
  IntTerm e = module_int(ctx, module, "embed_dim");
  IntTerm h = module_int(ctx, module, "num_heads");
  IntTerm kdim = module_int(ctx, module, "kdim");
  IntTerm vdim = module_int(ctx, module, "vdim");
  bool batch_first = module_flag(module, "batch_first");
  bool packed = module_flag(module, "_qkv_same_embed_dim");
  const Value* bias_k = module_field(module, "bias_k");
  if (!bias_k || !(bias_k->is_none() || bias_k->is_tensor())) throw NotModelled("bias_k unknown");
  bool bias_kv = bias_k->is_tensor();
  bool zero_attn = module_flag(module, "add_zero_attn");
  bool need_weights = ctx.bool_constant("need_weights");
  bool average = ctx.bool_constant("average_attn_weights");
  auto describe = [&](Message& m) { m << "nn.MultiheadAttention(" << e << ", " << h << ")"; };

  IntTerm rank = ctx.rank(query);
  Message m1;
  describe(m1);
  m1 << " expects an unbatched 2-D or batched 3-D query, got query of shape " << ctx.shape_hole(query);
  if (ctx.require("mha_c1", eq(rank, 2) || eq(rank, 3), m1) == Status::Refuted) return Value::unknown();  // mha_c1
  if (!query.shape().rank_known()) return Value::unknown();
  const bool batched = query.shape().rank() == 3;
  const int64_t r = batched ? 3 : 2;
  Message m2;
  describe(m2);
  m2 << ": for a " << (batched ? "batched (3-D)" : "unbatched (2-D)") << " query, key and value must be "
     << std::to_string(r) << "-D, got key of shape " << ctx.shape_hole(key) << " and value of shape "
     << ctx.shape_hole(value);
  if (ctx.require("mha_c2", eq(ctx.rank(key), r) && eq(ctx.rank(value), r), m2) == Status::Refuted)  // mha_c2
    return Value::unknown();
  if (!key.shape().rank_known() || !value.shape().rank_known()) return Value::unknown();

  Message m3;
  describe(m3);
  m3 << " expects the query's embedding dimension to be " << e << ", got " << ctx.size(query, -1);
  ctx.require("mha_c3", eq(ctx.size(query, -1), e), m3);  // mha_c3

  Axes q = axes_of(ctx, query, batched, batch_first);
  Axes k = axes_of(ctx, key, batched, batch_first);
  Axes v = axes_of(ctx, value, batched, batch_first);
  std::vector<BoolTerm> agree{eq(k.seq, v.seq)};
  if (batched) agree.push_back(eq(*k.batch, *v.batch));
  if (packed) agree.push_back(eq(ctx.size(key, -1), ctx.size(value, -1)));
  Message m4;
  describe(m4);
  m4 << ": key of shape " << ctx.shape_hole(key) << " does not match value of shape " << ctx.shape_hole(value)
     << (packed ? "" : " in its sequence and batch axes");
  ctx.require("mha_c4", all_of(agree), m4);  // mha_c4

  Message m5;
  describe(m5);
  m5 << " expects key features " << kdim << " and value features " << vdim << ", got " << ctx.size(key, -1)
     << " and " << ctx.size(value, -1);
  ctx.require("mha_c5", eq(ctx.size(key, -1), kdim) && eq(ctx.size(value, -1), vdim), m5);  // mha_c5

  if (batched) {
    // k.view(S, N*h, head_dim) (and the bias_k concatenation) need the query's batch
    Message m6;
    describe(m6);
    m6 << ": key and value have batch " << *k.batch << " but the query has batch " << *q.batch;
    BoolTerm ok = eq(*k.batch, *q.batch);
    if (!bias_kv) ok = ok || eq(k.seq, 0);
    ctx.require("mha_c6", ok, m6);  // mha_c6
  }
  Message m7;
  describe(m7);
  m7 << ": num_heads must be positive, got " << h;
  ctx.require("mha_c7", gt(h, 0), m7);  // mha_c7

  // masks, against the source length before bias_kv / zero_attn add their column
  IntTerm batch = batched ? *q.batch : IntTerm(1);
  Arg kpm = ctx.arg("key_padding_mask");
  if (!kpm.is_none()) {
    Arg mask = ctx.as_tensor(kpm);
    BoolTerm ok = batched ? eq(ctx.rank(mask), 2) : eq(ctx.rank(mask), 1);
    Message m8;
    describe(m8);
    m8 << ": expected key_padding_mask of shape ";
    if (batched) {
      m8 << "(" << batch << ", " << k.seq << ")";
    } else {
      m8 << "(" << k.seq << ")";
    }
    m8 << ", got " << ctx.shape_hole(mask);
    if (mask.shape().rank_known() && mask.shape().rank() == (batched ? 2u : 1u)) {
      ok = ok && (batched ? eq(ctx.size(mask, 0), batch) && eq(ctx.size(mask, 1), k.seq) : eq(ctx.size(mask, 0), k.seq));
    }
    ctx.require("mha_c8", ok, m8);  // mha_c8
  }
  Arg am = ctx.arg("attn_mask");
  if (!am.is_none()) {
    Arg mask = ctx.as_tensor(am);
    Message m8;
    describe(m8);
    m8 << ": expected attn_mask of shape (" << q.seq << ", " << k.seq << ") or (" << batch * h << ", " << q.seq
       << ", " << k.seq << "), got " << ctx.shape_hole(mask);
    BoolTerm ok = eq(ctx.rank(mask), 2) || eq(ctx.rank(mask), 3);
    if (mask.shape().rank_known() && mask.shape().rank() == 2) {
      ok = ok && eq(ctx.size(mask, 0), q.seq) && eq(ctx.size(mask, 1), k.seq);
    } else if (mask.shape().rank_known() && mask.shape().rank() == 3) {
      ok = ok && eq(ctx.size(mask, 0), batch * h) && eq(ctx.size(mask, 1), q.seq) && eq(ctx.size(mask, 2), k.seq);
    }
    ctx.require("mha_c8", ok, m8);  // mha_c8
  }
  const Value* dropout = module_field(module, "dropout");
  if (dropout && dropout->is_float() && dropout->as_float() && *dropout->as_float() > 0.0) {
    // F.dropout on the attention weights, in training mode
    double p = *dropout->as_float();
    Message m9;
    describe(m9);
    m9 << ": dropout probability has to be between 0 and 1, but got " << float_text(p);
    BoolTerm training = ne(module_int(ctx, module, "training"), 0);
    ctx.require("mha_c9", !training || BoolTerm(p <= 1.0), m9);  // mha_c9
  }
  if (ctx.any_refuted()) return Value::unknown();

  IntTerm src = k.seq + (bias_kv ? 1 : 0) + (zero_attn ? 1 : 0);
  std::vector<Dim> out = query.shape().dims();  // [L, N, E], [N, L, E] or [L, E]: the query's shape
  out.back() = e.dim();
  // an out_proj set on the module (`mha.out_proj = nn.Linear(8, 4)`): the
  // output has its width (the construction makes none: embed_dim then)
  if (const Value* proj = module_field(module, "out_proj")) {
    const Value* width = proj->is_object() && proj->as_object() ? proj->as_object()->attribute("out_features") : nullptr;
    if (!width || !width->is_int()) throw NotModelled("an out_proj the rule cannot read");
    out.back() = width->as_int();
  }
  Value weights = Value::none();
  if (need_weights) {
    std::vector<Dim> w;
    if (batched) w.push_back(q.batch->dim());
    if (!average) w.push_back(h.dim());
    w.push_back(q.seq.dim());
    w.push_back(src.dim());
    weights = Value::tensor(Shape(std::move(w)));
  }
  return Value::tuple({Value::tensor(Shape(std::move(out))), weights});
}

}  // namespace

void register_nn_attention_rules(RuleRegistry& r) {
  r.add("torch.nn.MultiheadAttention",
        "embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False, kdim=None, vdim=None, "
        "batch_first=False, device=None, dtype=None",
        rule_mha_init);
  r.add("torch.nn.MultiheadAttention.forward",
        "self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None, average_attn_weights=True",
        rule_mha_forward);
}

}  // namespace gshape::gradual
