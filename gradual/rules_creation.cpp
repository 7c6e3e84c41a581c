// Creation rules: zeros, ones, empty, rand, randn, full, arange, range
// (torch.range and Python's range), eye, randint, new_*, torch.tensor and
// the legacy constructors (torch.Tensor(2, 3), torch.FloatTensor(...));
// sampling: multinomial.
#include <cmath>

#include "gradual/rules.h"
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// `tag` (`<op>_c1` for most): every requested size is non-negative.
Value sized(RuleContext& ctx, const std::string& tag, const std::vector<IntTerm>& sizes) {
  std::vector<BoolTerm> nonneg;
  for (const IntTerm& s : sizes) nonneg.push_back(ge(s, 0));
  Message m;
  m << "trying to create tensor with negative dimension: ";
  append_list(m, sizes);
  ctx.require(tag, all_of(nonneg), m);  // <op>_c1
  return Value::tensor(shape_of_terms(sizes));
}

Value from_size_varargs(RuleContext& ctx) {
  return sized(ctx, op_short_name(ctx.rule_name()) + "_c1", int_terms(ctx, ctx.int_list("size")));
}

Value rule_full(RuleContext& ctx) { return sized(ctx, "full_c1", int_terms(ctx, ctx.int_or_list(ctx.arg("size")))); }

Value rule_new_sized(RuleContext& ctx) {
  ctx.tensor("input");
  return from_size_varargs(ctx);
}

Value rule_new_full(RuleContext& ctx) {
  ctx.tensor("input");
  return sized(ctx, "new_full_c1", int_terms(ctx, ctx.int_or_list(ctx.arg("size"))));
}

std::optional<double> numeric_constant(const Value& v) {
  if (v.is_float()) return v.as_float();
  if (v.is_int() && v.as_int().is_constant()) return static_cast<double>(*v.as_int().constant_value());
  return std::nullopt;
}

// arange and range on constant bounds, one of them a float: `step_tag`
// step != 0 and `sign_tag` the bounds agree with the step's sign. True when
// neither is refuted.
bool require_float_step(RuleContext& ctx, const std::string& step_tag, const std::string& sign_tag, double s, double e,
                        double st) {
  Message m1, m2;
  m1 << "step must be nonzero";
  m2 << "upper bound and larger bound inconsistent with step sign";
  bool ok1 = ctx.require(step_tag, BoolTerm(st != 0), m1) != Status::Refuted;
  bool ok2 = ctx.require(sign_tag, BoolTerm((st > 0 && e >= s) || (st < 0 && e <= s)), m2) != Status::Refuted;
  return ok1 && ok2;
}

// The same two checks on int bounds (terms).
void require_int_step(RuleContext& ctx, const std::string& step_tag, const std::string& sign_tag, const IntTerm& s,
                      const IntTerm& e, const IntTerm& st) {
  Message m1, m2;
  m1 << "step must be nonzero";
  m2 << "upper bound (" << e << ") and lower bound (" << s << ") inconsistent with step sign (" << st << ")";
  ctx.require(step_tag, ne(st, 0), m1);
  ctx.require(sign_tag, (gt(st, 0) && ge(e, s)) || (lt(st, 0) && le(e, s)), m2);
}

// torch.arange(end) / (start, end, step): `arange_c1` step != 0, `arange_c2`
// the bounds agree with the step's sign; size ceil((end - start) / step).
Value rule_arange(RuleContext& ctx) {
  Arg start = ctx.arg("start"), end = ctx.arg("end"), step = ctx.arg("step");
  if (end.is_none()) {  // arange(end)
    end = start;
    start = Arg::of(Value::integer(0), "start");
  }
  bool any_float = start.value.is_float() || end.value.is_float() || step.value.is_float();
  if (any_float) {
    auto s = numeric_constant(start.value), e = numeric_constant(end.value), st = numeric_constant(step.value);
    if (!s || !e || !st) return Value::tensor(Shape{ctx.fresh("arange")});
    if (!require_float_step(ctx, "arange_c1", "arange_c2", *s, *e, *st)) return unknown_tensor();  // arange_c1, arange_c2
    return Value::tensor(Shape{Dim(static_cast<int64_t>(std::ceil((*e - *s) / *st)))});
  }
  IntTerm s = ctx.int_term(start), e = ctx.int_term(end), st = ctx.int_term(step);
  require_int_step(ctx, "arange_c1", "arange_c2", s, e, st);  // arange_c1, arange_c2
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(Shape{(-floordiv(s - e, st)).dim()});
}

// torch.range(start, end, step=1) (deprecated, end inclusive): `range_c1`
// step != 0, `range_c2` sign agreement; size (end - start) // step + 1.
Value rule_torch_range(RuleContext& ctx) {
  Arg start = ctx.arg("start"), end = ctx.arg("end"), step = ctx.arg("step");
  auto s = numeric_constant(start.value), e = numeric_constant(end.value), st = numeric_constant(step.value);
  if (start.value.is_float() || end.value.is_float() || step.value.is_float()) {
    if (!s || !e || !st) return Value::tensor(Shape{ctx.fresh("range")});
    if (!require_float_step(ctx, "range_c1", "range_c2", *s, *e, *st)) return unknown_tensor();  // range_c1, range_c2
    return Value::tensor(Shape{Dim(static_cast<int64_t>((*e - *s) / *st + 1))});
  }
  IntTerm si = ctx.int_term(start), ei = ctx.int_term(end), sti = ctx.int_term(step);
  require_int_step(ctx, "range_c1", "range_c2", si, ei, sti);  // range_c1, range_c2
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(Shape{(floordiv(ei - si, sti) + 1).dim()});
}

// Python's range(stop) / (start, stop, step): `pyrange_c1` step != 0.
// The result is a "builtins.range" object with start, stop, step and len.
Value rule_builtin_range(RuleContext& ctx) {
  Arg start = ctx.arg("start"), stop = ctx.arg("stop"), step = ctx.arg("step");
  if (stop.is_none()) {  // range(stop)
    stop = start;
    start = Arg::of(Value::integer(0), "start");
  }
  IntTerm s = ctx.int_term(start), e = ctx.int_term(stop), st = ctx.int_term(step);
  Message m;
  m << "range() arg 3 must not be zero";
  if (ctx.require("pyrange_c1", ne(st, 0), m) == Status::Refuted) return Value::unknown();  // pyrange_c1
  auto obj = std::make_shared<ObjectValue>("builtins.range");
  obj->attributes["start"] = Value::integer(s.dim());
  obj->attributes["stop"] = Value::integer(e.dim());
  obj->attributes["step"] = Value::integer(st.dim());
  obj->attributes["len"] = Value::integer(max(Dim(0), -floordiv(s.dim() - e.dim(), st.dim())));
  return Value::object(obj);
}

// torch.eye(n, m=None): `eye_c1` n >= 0, `eye_c2` m >= 0.
Value rule_eye(RuleContext& ctx) {
  IntTerm n = ctx.int_term(ctx.arg("n"));
  Message m1;
  m1 << "n must be greater or equal to 0, got " << n;
  ctx.require("eye_c1", ge(n, 0), m1);  // eye_c1
  IntTerm m = n;
  if (!ctx.is_none("m")) {
    m = ctx.int_term(ctx.arg("m"));
    Message m2;
    m2 << "m must be greater or equal to 0, got " << m;
    ctx.require("eye_c2", ge(m, 0), m2);  // eye_c2
  }
  return Value::tensor(Shape{n.dim(), m.dim()});
}

// torch.linspace / torch.logspace(start, end, steps): `linspace_c1` /
// `logspace_c1` steps >= 0; the result has `steps` elements.
template <bool Log>
Value rule_linspace(RuleContext& ctx) {
  IntTerm steps = ctx.int_term(ctx.arg("steps"));
  Message m;
  m << "number of steps must be non-negative, got " << steps;
  if (ctx.require(Log ? "logspace_c1" : "linspace_c1", ge(steps, 0), m) == Status::Refuted)  // linspace_c1, logspace_c1
    return unknown_tensor();
  return Value::tensor(Shape{steps.dim()});
}

// torch.randperm(n): `randperm_c1` n >= 0; a permutation of n indices.
Value rule_randperm(RuleContext& ctx) {
  IntTerm n = ctx.int_term(ctx.arg("n"));
  Message m;
  m << "n must be non-negative, got " << n;
  if (ctx.require("randperm_c1", ge(n, 0), m) == Status::Refuted) return unknown_tensor();  // randperm_c1
  return Value::tensor(Shape{n.dim()});
}

// torch.meshgrid(*tensors, indexing=None): `meshgrid_c1` at least one
// tensor, `meshgrid_c2` each is 0-D or 1-D, `meshgrid_c3` indexing is 'ij'
// or 'xy'. Every result has one axis per input (its number of elements);
// 'xy' swaps the first two.
Value rule_meshgrid(RuleContext& ctx) {
  std::vector<Arg> given = ctx.elements(ctx.arg("tensors"));
  if (given.size() == 1 && given[0].value.is_sequence()) given = ctx.elements(given[0]);  // meshgrid([a, b])
  Message m1;
  m1 << "torch.meshgrid expects a non-empty TensorList";
  if (ctx.require("meshgrid_c1", BoolTerm(!given.empty()), m1) == Status::Refuted) return Value::unknown();  // meshgrid_c1
  std::string indexing = "ij";
  if (!ctx.is_none("indexing")) {
    std::optional<std::string> text = str_constant(ctx.arg("indexing"));
    if (!text) throw NotModelled("indexing is not a constant string");
    indexing = *text;
  }
  Message m3;
  m3 << "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: " << indexing;
  if (ctx.require("meshgrid_c3", BoolTerm(indexing == "ij" || indexing == "xy"), m3) == Status::Refuted)  // meshgrid_c3
    return Value::unknown();
  std::vector<Dim> axes;
  bool known = true;
  for (const Arg& g : given) {
    Arg t = ctx.as_tensor(g);
    Message m2;
    m2 << "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got " << t.role << " of shape "
       << ctx.shape_hole(t);
    if (ctx.require("meshgrid_c2", le(ctx.rank(t), 1), m2) == Status::Refuted) return Value::unknown();  // meshgrid_c2
    const Shape& shape = t.shape();
    if (!shape.rank_known()) {
      known = false;
      continue;
    }
    axes.push_back(shape.rank() == 0 ? Dim(1) : shape[0]);
  }
  if (!known) return Value::unknown_length(SequenceKind::Tuple, unknown_tensor());
  if (indexing == "xy" && axes.size() >= 2) std::swap(axes[0], axes[1]);
  std::vector<Value> out(given.size(), Value::tensor(Shape(axes), false));  // expanded views
  return Value::tuple(std::move(out));
}

// torch.randint(high, size) / (low, high, size): `randint_c1` low < high,
// `randint_c2` sizes non-negative.
Value rule_randint(RuleContext& ctx) {
  Arg low = ctx.arg("low"), high = ctx.arg("high"), size = ctx.arg("size");
  if (size.is_none()) {  // randint(high, size)
    size = high;
    high = low;
    low = Arg::of(Value::integer(0), "low");
  }
  IntTerm lo = ctx.int_term(low), hi = ctx.int_term(high);
  std::vector<IntTerm> sizes = int_terms(ctx, ctx.int_or_list(size));
  Message m1;
  m1 << "random_ expects 'from' to be less than 'to', but got from=" << lo << " >= to=" << hi;
  ctx.require("randint_c1", lt(lo, hi), m1);  // randint_c1
  return sized(ctx, "randint_c2", sizes);  // randint_c2
}

// nn.Parameter(data=None, requires_grad=True): a tensor with data's shape
// (an empty one without data). A Parameter takes part in every tensor
// operation as the tensor it wraps.
Value rule_parameter(RuleContext& ctx) {
  Arg data = ctx.arg("data");
  if (data.is_none()) return Value::tensor(Shape{0});
  return Value::tensor(ctx.tensor("data").shape());
}

// The shape of tensor data: a nested sequence's lengths, a tensor's shape.
Value data_shape(RuleContext& ctx, Value v) {
  std::vector<Dim> dims;
  while (true) {
    if (v.is_int() || v.is_float() || v.is_bool()) return Value::tensor(Shape(dims));
    if (v.is_tensor()) {
      if (!v.shape().rank_known()) return unknown_tensor();
      dims.insert(dims.end(), v.shape().dims().begin(), v.shape().dims().end());
      return Value::tensor(Shape(dims));
    }
    if (!v.is_sequence()) return unknown_tensor();
    if (!v.items()) {
      dims.push_back(ctx.fresh("len"));
      if (!v.element()) return unknown_tensor();
      v = *v.element();
      continue;
    }
    dims.push_back(Dim(static_cast<int64_t>(v.items()->size())));
    if (v.items()->empty()) return Value::tensor(Shape(dims));
    Value first = v.items()->front();
    v = first;
  }
}

// torch.tensor(data): the nested sequence's lengths.
Value rule_tensor(RuleContext& ctx) { return data_shape(ctx, ctx.arg("data").value); }

// The legacy constructors torch.Tensor(...), torch.FloatTensor(...), ...:
// ints (or one torch.Size) are the sizes of an uninitialised tensor
// (`legacy_new_c1` every size non-negative); one list or tuple is data, as
// for torch.tensor; one tensor gives its shape; no argument, an empty [0].
Value rule_legacy_new(RuleContext& ctx) {
  Arg all = ctx.arg("args");
  const std::vector<Value>* items = all.value.items();
  if (!items) return unknown_tensor();
  if (items->empty()) return Value::tensor(Shape{0});
  if (items->size() == 1) {
    const Value& only = items->front();
    if (only.is_tensor()) return Value::tensor(only.shape());
    if (only.is_sequence() && only.sequence_kind() != SequenceKind::Size) return data_shape(ctx, only);
  }
  bool sizes = items->size() == 1 && items->front().is_sequence() && items->front().sequence_kind() == SequenceKind::Size;
  if (!sizes) {
    for (const Value& v : *items)
      if (!v.is_int()) return unknown_tensor();  // a float, a storage, an unknown: not read
  }
  return sized(ctx, "legacy_new_c1", int_terms(ctx, ctx.int_list("args")));
}


// torch.multinomial(input, num_samples, replacement=False) and the method:
// multinomial_c1 the input is 1-D or 2-D, multinomial_c2 num_samples > 0,
// multinomial_c3 without replacement num_samples <= the categories
// (size(-1)), multinomial_c4 at most 2^24 categories, multinomial_c5 a
// distribution without categories cannot be sampled (its probabilities sum
// to 0) unless the result is empty. Result [num_samples] or [B, num_samples].
// The other "invalid multinomial distribution" errors read the
// probabilities (negative, inf, all zero), not the shape: not modelled.
Value rule_multinomial(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  IntTerm n = ctx.int_term(ctx.arg("num_samples"));
  Arg replacement = ctx.arg("replacement");
  IntTerm rank = ctx.rank(input);
  Message m1;
  m1 << "multinomial: prob_dist must be 1 or 2 dim, got input of shape " << ctx.shape_hole(input);
  if (ctx.require("multinomial_c1", eq(rank, 1) || eq(rank, 2), m1) == Status::Refuted) return unknown_tensor();  // multinomial_c1
  Message m2;
  m2 << "multinomial: cannot sample n_sample <= 0 samples, got num_samples " << n;
  ctx.require("multinomial_c2", gt(n, 0), m2);  // multinomial_c2
  IntTerm categories = ctx.size(input, -1);
  std::optional<bool> with = ctx.bool_flag("replacement");
  if (!with && !replacement.value.is_unknown() && !replacement.value.is_int())
    throw NotModelled("replacement is not a constant");
  BoolTerm replacing = with ? BoolTerm(*with) : ne(ctx.int_term(replacement), 0);
  Message m3;
  m3 << "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement, got num_samples " << n
     << " for " << categories << " categories (input of shape " << ctx.shape_hole(input) << ")";
  ctx.require("multinomial_c3", replacing || le(n, categories), m3);  // multinomial_c3
  Message m4;
  m4 << "multinomial: number of categories cannot exceed 2^24, got " << categories;
  ctx.require("multinomial_c4", le(categories, IntTerm(int64_t{1} << 24)), m4);  // multinomial_c4
  const Shape& in = input.shape();
  std::optional<IntTerm> batch;
  if (in.rank_known() && in.rank() == 2) batch = ctx.size(input, 0);
  Message m5;
  m5 << "multinomial: invalid multinomial distribution (sum of probabilities <= 0): " << n
     << " samples from a distribution with 0 categories, input of shape " << ctx.shape_hole(input);
  // the result is empty when the batch is (n > 0 after multinomial_c2)
  BoolTerm empty_result = batch ? eq(*batch, 0) : BoolTerm(false);
  if (!in.rank_known()) empty_result = eq(rank, 2) && eq(ctx.size(input, 0), 0);
  ctx.require("multinomial_c5", gt(categories, 0) || empty_result, m5);  // multinomial_c5
  if (ctx.any_refuted()) return unknown_tensor();
  if (!in.rank_known()) return Value::tensor(Shape::unknown_with_suffix({n.dim()}));
  if (batch) return Value::tensor(Shape({batch->dim(), n.dim()}));
  return Value::tensor(Shape({n.dim()}));
}

}  // namespace

void register_creation_rules(RuleRegistry& r) {
  for (const char* op : {"zeros", "ones", "empty", "rand", "randn"})
    r.add(std::string("torch.") + op, "*size, **options", from_size_varargs);
  r.add("torch.full", "size, fill_value, **options", rule_full);
  for (const char* op : {"new_zeros", "new_ones", "new_empty"})
    r.add(std::string("Tensor.") + op, "input, *size, **options", rule_new_sized);
  r.add("Tensor.new_full", "input, size, fill_value, **options", rule_new_full);
  r.add("torch.arange", "start, end=None, step=1, **options", rule_arange);
  r.add("torch.range", "start, end, step=1, **options", rule_torch_range);
  r.add("builtins.range", "start, stop=None, step=1", rule_builtin_range);
  r.add("torch.eye", "n, m=None, **options", rule_eye);
  r.add("torch.randint", "low, high, size=None, **options", rule_randint);
  r.add("torch.linspace", "start, end, steps, **options", rule_linspace<false>);
  r.add("torch.logspace", "start, end, steps, base=10.0, **options", rule_linspace<true>);
  r.add("torch.randperm", "n, **options", rule_randperm);
  r.add("torch.meshgrid", "*tensors, indexing=None", rule_meshgrid);
  r.add("torch.multinomial", "input, num_samples, replacement=False, *, generator=None, out=None", rule_multinomial);
  r.add("Tensor.multinomial", "input, num_samples, replacement=False, *, generator=None", rule_multinomial);
  for (const char* name : {"torch.tensor", "torch.as_tensor"}) r.add(name, "data, **options", rule_tensor);
  for (const char* name : {"torch.Tensor", "torch.FloatTensor", "torch.DoubleTensor", "torch.HalfTensor",
                           "torch.LongTensor", "torch.IntTensor", "torch.ShortTensor", "torch.ByteTensor",
                           "torch.CharTensor", "torch.BoolTensor"})
    r.add(name, "*args, **options", rule_legacy_new);
  for (const char* name : {"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
    r.add(name, "data=None, requires_grad=True", rule_parameter);
}

}  // namespace gshape::gradual
