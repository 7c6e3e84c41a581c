// Normalisation: nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm, nn.GroupNorm,
// nn.InstanceNorm1d/2d/3d
// (construction and forward) and F.batch_norm, F.layer_norm, F.group_norm.
// Every one keeps the input's shape; the checks are torch 1.13's, including
// Python's "more than 1 value per channel" (batch norm in training mode,
// group norm always).
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// size(0) * size(2) * ... : the values per channel batch norm averages over.
IntTerm values_per_channel(RuleContext& ctx, const Arg& input) {
  IntTerm n = ctx.size(input, 0);
  for (std::size_t i = 2; i < input.shape().rank(); ++i) n = n * ctx.size(input, static_cast<int64_t>(i));
  return n;
}

// ------------------------------------------------------------------ batch norm

// The channel counts a norm module's forward checks: it passes self.weight,
// self.bias (and its running statistics) to the functional op, which reads
// their sizes, not num_features, so a replaced parameter or statistic counts
// (`bn.weight = nn.Parameter(torch.ones(8))`, always seen at run time). The
// distinct element counts of the tensors among `names`, `declared` standing
// for those equal to it; `declared` alone when there is none.
std::vector<IntTerm> parameter_channels(const Arg& module, std::initializer_list<const char*> names,
                                        const std::optional<IntTerm>& declared) {
  std::vector<IntTerm> out;
  auto add = [&out](const IntTerm& t) {
    for (const IntTerm& seen : out)
      if (seen.dim() == t.dim()) return;
    out.push_back(t);
  };
  bool any = false;
  for (const char* name : names) {
    const Value* v = module_field(module, name);
    if (!v || !v->is_tensor() || !v->shape().rank_known()) continue;
    any = true;
    Dim n = v->shape().numel();
    if (declared && declared->dim() == n) {
      add(*declared);
    } else if (std::optional<int64_t> c = n.constant_value()) {
      add(IntTerm(*c));
    } else {
      add(IntTerm::opaque(n, module.role + "." + name + ".numel()"));
    }
  }
  if (!any && declared) out.push_back(*declared);
  return out;
}

// The checks after the module's rank check: `batch_norm_c2` the channel
// axis matches the statistics and affine parameters (only checked when
// there are some), `batch_norm_c3` in training mode more than one value
// per channel. An empty input returns at once in torch (no check but
// Python's), `empty` says when.
Value batch_norm_checks(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& features,
                        const BoolTerm& training, const std::string& what) {
  // `what`: "nn.BatchNorm2d" or "batch_norm"
  BoolTerm empty = eq(ctx.numel(input), 0);
  for (const IntTerm& f : features) {
    Message m2;
    m2 << what << "(" << f << ") expects " << f << " channels but the input's dimension 1 is " << ctx.size(input, 1);
    ctx.require("batch_norm_c2", empty || eq(ctx.size(input, 1), f), m2);  // batch_norm_c2
  }
  Message m3;
  m3 << what << " expected more than 1 value per channel when training, got input of shape " << ctx.shape_hole(input);
  if (input.shape().rank_known()) {
    ctx.require("batch_norm_c3", !training || ne(values_per_channel(ctx, input), 1), m3);  // batch_norm_c3
  } else {
    // Unknown rank: with C = size(1) > 0 there is one value per channel
    // exactly when numel == C; with C == 0 the product size(0)*size(2)*...
    // is not determined by numel, so it is a fresh size (deferred). The
    // run-time check sees the rank and takes the branch above.
    IntTerm c = ctx.size(input, 1);
    IntTerm per_channel = IntTerm::opaque(ctx.fresh("values per channel"), "values per channel");
    BoolTerm more_than_one = (ne(c, 0) && ne(ctx.numel(input), c)) || (eq(c, 0) && ne(per_channel, 1));
    ctx.require("batch_norm_c3", !training || more_than_one, m3);  // batch_norm_c3
  }
  return Value::tensor(input.shape());
}

// Construction of a batch or instance norm module `nn.<kind><Rank>d`: the
// parameters and running statistics it makes have num_features entries
// (`tag`: num_features >= 0 when there are some).
Value norm_module_init(RuleContext& ctx, const std::string& kind, int rank, const std::string& tag) {
  IntTerm features = ctx.int_term(ctx.arg("num_features"));
  bool affine = ctx.bool_constant("affine");
  bool track = ctx.bool_constant("track_running_stats");
  const std::string name = kind + std::to_string(rank) + "d";
  if (affine || track) {
    Message m;
    m << "trying to create tensor with negative dimension: nn." << name << "(" << features << ")";
    ctx.require(tag, ge(features, 0), m);
  }
  auto obj = new_module("torch.nn." + name);
  obj->attributes["num_features"] = Value::integer(features.dim());
  obj->attributes["affine"] = Value::boolean(Pred(affine));
  obj->attributes["track_running_stats"] = Value::boolean(Pred(track));
  obj->attributes["weight"] = affine ? Value::tensor(Shape{features.dim()}) : Value::none();
  obj->attributes["bias"] = affine ? Value::tensor(Shape{features.dim()}) : Value::none();
  return Value::object(obj);
}

template <int Rank>
Value rule_batch_norm_init(RuleContext& ctx) {
  return norm_module_init(ctx, "BatchNorm", Rank, "nn_batch_norm_c1");  // nn_batch_norm_c1
}


template <int Rank>
Value rule_batch_norm_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  IntTerm features = module_int(ctx, module, "num_features");
  std::string what = "nn.BatchNorm" + std::to_string(Rank) + "d(";
  Message m1;
  m1 << what << features << ") expects a " << (Rank == 1 ? "2D or 3D" : "4D") << " input, got input of shape "
     << ctx.shape_hole(input);
  IntTerm rank = ctx.rank(input);
  BoolTerm ranked = Rank == 1 ? eq(rank, 2) || eq(rank, 3) : eq(rank, 4);
  if (ctx.require("batch_norm_c1", ranked, m1) == Status::Refuted) return unknown_tensor();  // batch_norm_c1
  bool has_stats = module_flag(module, "affine") || module_flag(module, "track_running_stats");
  std::vector<IntTerm> channels = parameter_channels(module, {"weight", "bias", "running_mean", "running_var"},
                                                     has_stats ? std::optional<IntTerm>(features) : std::nullopt);
  return batch_norm_checks(ctx, input, channels, training_of(ctx, module), "nn.BatchNorm" + std::to_string(Rank) + "d");
}

// F.batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, ...):
// an empty input skips every check but Python's (batch_norm_c3).
Value rule_f_batch_norm(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  BoolTerm empty = eq(ctx.numel(input), 0);
  Message m1;
  m1 << "batch_norm expects an input with at least 2 dimensions, got input of shape " << ctx.shape_hole(input);
  if (ctx.require("batch_norm_c1", empty || ge(ctx.rank(input), 2), m1) == Status::Refuted) return unknown_tensor();  // batch_norm_c1
  bool training = ctx.bool_constant("training");
  bool wide = !input.shape().rank_known() || input.shape().rank() >= 2;
  IntTerm channels = wide ? ctx.size(input, 1) : IntTerm(0);
  for (const char* name : {"running_mean", "running_var", "weight", "bias"}) {
    Arg t = ctx.arg(name);
    if (t.is_none() || !wide) continue;
    Arg tensor = ctx.as_tensor(t);
    Message m2;
    m2 << "batch_norm: " << name << " should contain " << channels << " elements, not " << ctx.numel(tensor);
    ctx.require("batch_norm_c2", empty || eq(ctx.numel(tensor), channels), m2);  // batch_norm_c2
  }
  Message m4;
  m4 << "batch_norm: running_mean and running_var must be given when not training";
  bool stats = !ctx.arg("running_mean").is_none() && !ctx.arg("running_var").is_none();
  ctx.require("batch_norm_c4", empty || BoolTerm(training || stats), m4);  // batch_norm_c4
  return batch_norm_checks(ctx, input, {}, BoolTerm(training), "batch_norm");
}

// ------------------------------------------------------------------ layer norm

// `layer_norm_c1` normalized_shape has an entry, `layer_norm_c2` weight and
// bias have exactly that shape, `layer_norm_c3` the input ends with it.
Value layer_norm(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& shape, const std::vector<Arg>& params) {
  Message m1;
  m1 << "expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element";
  if (ctx.require("layer_norm_c1", BoolTerm(!shape.empty()), m1) == Status::Refuted) return unknown_tensor();  // layer_norm_c1
  for (const Arg& p : params) {
    if (!p.is_tensor() || !p.shape().rank_known()) continue;
    std::vector<BoolTerm> same;
    if (p.shape().rank() == shape.size()) {
      for (std::size_t i = 0; i < shape.size(); ++i) same.push_back(eq(ctx.size(p, static_cast<int64_t>(i)), shape[i]));
    } else {
      same.push_back(BoolTerm(false));
    }
    Message m2;
    m2 << "expected " << p.role << " to be of same shape as normalized_shape ";
    append_list(m2, shape);
    m2 << ", but got " << p.role << " of shape " << ctx.shape_hole(p);
    ctx.require("layer_norm_c2", all_of(same), m2);  // layer_norm_c2
  }
  const int64_t k = static_cast<int64_t>(shape.size());
  std::vector<BoolTerm> tail{ge(ctx.rank(input), k)};
  bool rank_ok = !input.shape().rank_known() || static_cast<int64_t>(input.shape().rank()) >= k;
  if (rank_ok) {
    for (int64_t i = 0; i < k; ++i) tail.push_back(eq(ctx.size(input, i - k), shape[static_cast<std::size_t>(i)]));
  }
  Message m3;
  m3 << "given normalized_shape ";
  append_list(m3, shape);
  m3 << ", expected input with shape [*";
  for (const IntTerm& d : shape) m3 << ", " << d;
  m3 << "], but got input of shape " << ctx.shape_hole(input);
  Status c3 = ctx.require("layer_norm_c3", all_of(tail), m3);  // layer_norm_c3
  if (!input.shape().rank_known() && c3 != Status::Refuted) {
    // unknown rank: after c3 its last axes are normalized_shape
    const std::vector<Dim>& known = input.shape().known_suffix();
    std::vector<Dim> suffix;
    if (known.size() > shape.size()) suffix.assign(known.begin(), known.end() - static_cast<std::ptrdiff_t>(shape.size()));
    for (const IntTerm& d : shape) suffix.push_back(d.dim());
    return Value::tensor(Shape::unknown_with_suffix(std::move(suffix)));
  }
  return Value::tensor(input.shape());
}

std::vector<IntTerm> shape_terms(RuleContext& ctx, const Arg& a) {
  std::vector<IntTerm> out;
  for (const Arg& item : ctx.int_or_list(a)) out.push_back(ctx.int_term(item));
  return out;
}

Value rule_f_layer_norm(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg normalized = ctx.arg("normalized_shape");
  Message m0;
  m0 << "layer_norm(): argument 'normalized_shape' must be a tuple of ints, not an int";
  if (ctx.require("layer_norm_c1", BoolTerm(!ctx.is_int(normalized)), m0) == Status::Refuted) return unknown_tensor();  // layer_norm_c1
  std::vector<IntTerm> shape = shape_terms(ctx, normalized);
  std::vector<Arg> params;
  for (const char* name : {"weight", "bias"}) {
    Arg p = ctx.arg(name);
    if (!p.is_none()) params.push_back(ctx.as_tensor(p));
  }
  return layer_norm(ctx, input, shape, params);
}

Value rule_layer_norm_init(RuleContext& ctx) {
  Arg normalized = ctx.arg("normalized_shape");
  // nn.LayerNorm(dim) with `dim` a parameter nobody passed: read as the int
  // its hint names (a tuple there would fail the int uses of `dim` that
  // relate it to the input first); the site itself is checked at run time
  std::vector<IntTerm> shape = normalized.value.is_unknown() && normalized.value.int_view()
                                   ? std::vector<IntTerm>{ctx.int_term(normalized)}
                                   : shape_terms(ctx, normalized);
  std::optional<bool> affine = ctx.bool_flag("elementwise_affine");
  if (!affine && ctx.arg("elementwise_affine").value.is_bool()) throw NotModelled("a symbolic elementwise_affine");
  std::vector<BoolTerm> nonneg;
  for (const IntTerm& d : shape) nonneg.push_back(ge(d, 0));
  if (!affine || *affine) {
    Message m;
    m << "trying to create tensor with negative dimension: nn.LayerNorm(";
    append_list(m, shape);
    m << ")";
    // a flag not known statically is read at run time: the weights exist when it is true
    BoolTerm needed = affine ? all_of(nonneg) : implies(ne(ctx.int_term(ctx.arg("elementwise_affine")), 0), all_of(nonneg));
    ctx.require("nn_layer_norm_c1", needed, m);  // nn_layer_norm_c1
  }
  auto obj = new_module("torch.nn.LayerNorm");
  obj->attributes["normalized_shape"] = tuple_value(shape);
  obj->attributes["elementwise_affine"] = affine ? Value::boolean(Pred(*affine)) : Value::unknown();
  Shape param = shape_of_terms(shape);
  obj->attributes["weight"] = !affine ? Value::unknown() : *affine ? Value::tensor(param) : Value::none();
  obj->attributes["bias"] = !affine ? Value::unknown() : *affine ? Value::tensor(param) : Value::none();
  return Value::object(obj);
}

Value rule_layer_norm_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  return layer_norm(ctx, ctx.tensor("input"), module_ints(module, "normalized_shape"), {});
}

// ------------------------------------------------------------------ group norm

// `group_norm_c1` at least 2 dims, `group_norm_c2` channels divisible by
// the groups, `group_norm_c3` weight and bias have one entry per channel,
// `group_norm_c4` more than one value per group (Python checks it always).
Value group_norm(RuleContext& ctx, const Arg& input, const IntTerm& groups, const std::vector<IntTerm>& channels,
                 const std::vector<Arg>& params, const std::string& what) {
  Message m1;
  m1 << what << " expects an input with at least 2 dimensions, got input of shape " << ctx.shape_hole(input);
  if (ctx.require("group_norm_c1", ge(ctx.rank(input), 2), m1) == Status::Refuted) return unknown_tensor();  // group_norm_c1
  IntTerm c = ctx.size(input, 1);
  Message m0;
  m0 << what << ": num_groups must be positive, got " << groups;
  if (ctx.require("group_norm_c2", gt(groups, 0), m0) == Status::Refuted) return unknown_tensor();  // group_norm_c2
  if (input.shape().rank_known()) {
    IntTerm per_group = floordiv(ctx.size(input, 0) * c, groups);
    for (std::size_t i = 2; i < input.shape().rank(); ++i) per_group = per_group * ctx.size(input, static_cast<int64_t>(i));
    Message m4;
    m4 << what << " expected more than 1 value per group, got input of shape " << ctx.shape_hole(input)
       << " with " << groups << " groups";
    ctx.require("group_norm_c4", ne(per_group, 1), m4);  // group_norm_c4
  }
  Message m2;
  m2 << what << " expects the number of channels " << c << " to be divisible by num_groups " << groups;
  ctx.require("group_norm_c2", eq(mod(c, groups), 0), m2);  // group_norm_c2
  for (const IntTerm& channel_count : channels) {
    Message m3;
    m3 << what << " has weight and bias for " << channel_count << " channels but the input's dimension 1 is " << c;
    ctx.require("group_norm_c3", eq(c, channel_count), m3);  // group_norm_c3
  }
  for (const Arg& p : params) {
    Message m3;
    m3 << what << ": expected " << p.role << " to be a vector of size equal to the number of channels " << c
       << ", but got " << p.role << " of shape " << ctx.shape_hole(p);
    ctx.require("group_norm_c3", eq(ctx.numel(p), c), m3);  // group_norm_c3
  }
  return Value::tensor(input.shape());
}

Value rule_f_group_norm(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm groups = ctx.int_term(ctx.arg("num_groups"));
  std::vector<Arg> params;
  for (const char* name : {"weight", "bias"}) {
    Arg p = ctx.arg(name);
    if (!p.is_none()) params.push_back(ctx.as_tensor(p));
  }
  return group_norm(ctx, input, groups, {}, params, "group_norm");
}

Value rule_group_norm_init(RuleContext& ctx) {
  IntTerm groups = ctx.int_term(ctx.arg("num_groups"));
  IntTerm channels = ctx.int_term(ctx.arg("num_channels"));
  bool affine = ctx.bool_constant("affine");
  Message m1;
  m1 << "nn.GroupNorm(" << groups << ", " << channels << "): num_channels must be divisible by num_groups";
  // Python computes num_channels % num_groups: 0 groups is a ZeroDivisionError
  if (ctx.require("nn_group_norm_c1", ne(groups, 0) && eq(mod(channels, groups), 0), m1) == Status::Refuted)  // nn_group_norm_c1
    return Value::unknown();
  if (affine) {
    Message m2;
    m2 << "trying to create tensor with negative dimension: nn.GroupNorm(" << groups << ", " << channels << ")";
    ctx.require("nn_group_norm_c2", ge(channels, 0), m2);  // nn_group_norm_c2
  }
  auto obj = new_module("torch.nn.GroupNorm");
  obj->attributes["num_groups"] = Value::integer(groups.dim());
  obj->attributes["num_channels"] = Value::integer(channels.dim());
  obj->attributes["affine"] = Value::boolean(Pred(affine));
  obj->attributes["weight"] = affine ? Value::tensor(Shape{channels.dim()}) : Value::none();
  obj->attributes["bias"] = affine ? Value::tensor(Shape{channels.dim()}) : Value::none();
  return Value::object(obj);
}

Value rule_group_norm_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  IntTerm groups = module_int(ctx, module, "num_groups");
  IntTerm channels = module_int(ctx, module, "num_channels");
  bool affine = module_flag(module, "affine");
  return group_norm(ctx, ctx.tensor("input"), groups,
                    parameter_channels(module, {"weight", "bias"}, affine ? std::optional<IntTerm>(channels) : std::nullopt),
                    {}, "nn.GroupNorm");
}

// ------------------------------------------------------------------ instance norm

// nn.InstanceNorm{1,2,3}d(num_features, eps, momentum, affine=False,
// track_running_stats=False): as batch norm's construction.
template <int Rank>
Value rule_instance_norm_init(RuleContext& ctx) {
  return norm_module_init(ctx, "InstanceNorm", Rank, "nn_instance_norm_c1");  // nn_instance_norm_c1
}

// forward, torch 1.13: `instance_norm_c1` Rank+1 axes (one sample, made a
// batch of 1) or Rank+2; `instance_norm_c2` when it computes statistics
// (training, or no running ones) more than one spatial element (Python's
// check); then at::instance_norm folds the batch into the channels and runs
// batch norm, whose checks become: `instance_norm_c3` a non-empty input has
// num_features channels when there are parameters or running statistics;
// `instance_norm_c4` an empty input with parameters needs a non-empty
// batch and num_features >= 1 (it reads weight[0]), and with running
// statistics its channels average into them (as many, or 1 when the batch
// is empty). The input's shape is kept.
template <int Rank>
Value rule_instance_norm_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  const std::string what = "nn.InstanceNorm" + std::to_string(Rank) + "d";
  IntTerm features = module_int(ctx, module, "num_features");
  bool affine = module_flag(module, "affine");
  bool track = module_flag(module, "track_running_stats");
  if (affine || track) {
    // the parameters and statistics F.instance_norm reads (a replaced one counts)
    std::vector<IntTerm> counts = parameter_channels(module, {"weight", "bias", "running_mean", "running_var"}, features);
    if (counts.size() != 1) throw NotModelled(what + " whose parameters and statistics differ in size");
    features = counts[0];
  }
  IntTerm rank = ctx.rank(input);
  Message m1;
  m1 << "expected " << std::to_string(Rank + 1) << "D or " << std::to_string(Rank + 2) << "D input (got " << rank
     << "D input)";
  if (ctx.require("instance_norm_c1", eq(rank, Rank + 1) || eq(rank, Rank + 2), m1) == Status::Refuted)  // instance_norm_c1
    return unknown_tensor();
  const Shape& in = input.shape();
  // which checks apply depends on the rank (the batch and channel axes move)
  if (!in.rank_known()) throw NotModelled(what + " on an input of unknown rank");
  const bool batched = in.rank() == static_cast<std::size_t>(Rank + 2);
  IntTerm batch = batched ? ctx.size(input, 0) : IntTerm(1);
  IntTerm channels = ctx.size(input, batched ? 1 : 0);
  std::vector<IntTerm> spatial;
  for (std::size_t i = batched ? 2 : 1; i < in.rank(); ++i) spatial.push_back(ctx.size(input, static_cast<int64_t>(i)));
  IntTerm spatial_count = product(spatial);
  BoolTerm input_stats = track ? training_of(ctx, module) : BoolTerm(true);
  Message m2;
  m2 << "Expected more than 1 spatial element when training, got input of shape " << ctx.shape_hole(input);
  ctx.require("instance_norm_c2", !input_stats || ne(spatial_count, 1), m2);  // instance_norm_c2
  BoolTerm empty = eq(batch * channels * spatial_count, 0);
  if (affine || track) {
    Message m3;
    m3 << what << "(" << features << ") expects " << features << " channels but the input has " << channels;
    ctx.require("instance_norm_c3", empty || eq(channels, features), m3);  // instance_norm_c3
  }
  if (affine) {
    Message m4;
    m4 << what << "(" << features << "): an empty input of shape " << ctx.shape_hole(input)
       << " needs a non-empty batch and weight (index 0 is out of range)";
    ctx.require("instance_norm_c4", !empty || ge(batch * features, 1), m4);  // instance_norm_c4
  }
  if (track) {
    Message m4;
    m4 << what << "(" << features << "): an empty input of shape " << ctx.shape_hole(input)
       << " does not match the running statistics' " << features << " entries";
    BoolTerm fits = (eq(batch, 0) && (eq(channels, features) || eq(channels, 1))) || (ne(batch, 0) && eq(channels, features));
    ctx.require("instance_norm_c4", !empty || fits, m4);  // instance_norm_c4
  }
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(in);
}

}  // namespace

void register_nn_norm_rules(RuleRegistry& r) {
  const char* in_sig = "num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False, device=None, dtype=None";
  r.add("torch.nn.InstanceNorm1d", in_sig, rule_instance_norm_init<1>);
  r.add("torch.nn.InstanceNorm2d", in_sig, rule_instance_norm_init<2>);
  r.add("torch.nn.InstanceNorm3d", in_sig, rule_instance_norm_init<3>);
  r.add("torch.nn.InstanceNorm1d.forward", "self, input", rule_instance_norm_forward<1>);
  r.add("torch.nn.InstanceNorm2d.forward", "self, input", rule_instance_norm_forward<2>);
  r.add("torch.nn.InstanceNorm3d.forward", "self, input", rule_instance_norm_forward<3>);
  const char* bn_sig = "num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None";
  r.add("torch.nn.BatchNorm1d", bn_sig, rule_batch_norm_init<1>);
  r.add("torch.nn.BatchNorm2d", bn_sig, rule_batch_norm_init<2>);
  r.add("torch.nn.BatchNorm1d.forward", "self, input", rule_batch_norm_forward<1>);
  r.add("torch.nn.BatchNorm2d.forward", "self, input", rule_batch_norm_forward<2>);
  r.add("torch.nn.functional.batch_norm",
        "input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05",
        rule_f_batch_norm);
  r.add("torch.nn.LayerNorm", "normalized_shape, eps=1e-05, elementwise_affine=True, device=None, dtype=None",
        rule_layer_norm_init);
  r.add("torch.nn.LayerNorm.forward", "self, input", rule_layer_norm_forward);
  r.add("torch.nn.functional.layer_norm", "input, normalized_shape, weight=None, bias=None, eps=1e-05", rule_f_layer_norm);
  r.add("torch.nn.GroupNorm", "num_groups, num_channels, eps=1e-05, affine=True, device=None, dtype=None",
        rule_group_norm_init);
  r.add("torch.nn.GroupNorm.forward", "self, input", rule_group_norm_forward);
  r.add("torch.nn.functional.group_norm", "input, num_groups, weight=None, bias=None, eps=1e-05", rule_f_group_norm);
}

}  // namespace gshape::gradual
