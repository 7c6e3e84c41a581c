// Convolutions: nn.Conv1d, nn.Conv2d, nn.ConvTranspose2d (construction and
// forward) and F.conv1d, F.conv2d, F.conv_transpose2d, as torch 1.13's
// at::_convolution checks them (batchify, check_shape_forward, the kernels'
// own checks). The module forward is F.convNd with the module's weight.
#include <functional>

#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// Everything a convolution call needs, from a module or from F.convNd's
// arguments.
struct ConvSpec {
  std::string prefix;  // tag prefix and op name: conv1d, conv2d, conv_transpose2d
  std::size_t n = 2;   // spatial dims
  bool transposed = false;
  bool module = false;
  IntTerm in_channels{0};   // channels the input must have
  IntTerm out_channels{0};  // channels of the result
  IntTerm groups{1};
  IntTerm filters{0};       // weight.size(0): at least `groups`, divisible by it
  IntTerm depth{1};         // weight.size(1): a transposed kernel needs it positive
  std::vector<IntTerm> kernel, stride, padding, dilation, output_padding;
  bool same = false;        // padding='same'
  std::function<void(Message&)> name;
};

std::string module_class(const ConvSpec& s) {
  if (s.transposed) return "nn.ConvTranspose" + std::to_string(s.n) + "d";
  return "nn.Conv" + std::to_string(s.n) + "d";
}

BoolTerm all_axes(const std::vector<IntTerm>& v, const std::function<BoolTerm(const IntTerm&)>& f) {
  std::vector<BoolTerm> parts;
  for (const IntTerm& t : v) parts.push_back(f(t));
  return all_of(parts);
}

// The result of a convolution on `input` (batched or unbatched), with the
// checks of torch 1.13. An input with no batch or no channels takes torch's
// "empty" path: the kernels do not run, so their own checks (dilation and
// kernel positive, output padding small) do not apply, and a zero-channel
// input gives zero output channels.
Value conv_forward(RuleContext& ctx, const ConvSpec& s, const Arg& input, const Arg* output_size = nullptr) {
  const std::string& p = s.prefix;
  const int64_t n = static_cast<int64_t>(s.n);
  IntTerm rank = ctx.rank(input);
  Message m1;
  m1 << "expected " << std::to_string(n + 1) << "D (unbatched) or " << std::to_string(n + 2)
     << "D (batched) input to " << p << ", but got input of shape " << ctx.shape_hole(input);
  if (ctx.require(p + "_c1", eq(rank, n + 1) || eq(rank, n + 2), m1) == Status::Refuted) return unknown_tensor();  // <p>_c1

  Message m5;
  if (s.module) {
    s.name(m5);
    m5 << " has " << s.filters << " " << (s.transposed ? "input" : "output") << " channels: it needs at least "
       << s.groups << " (one per group)";
    if (s.transposed) m5 << " and at least one output channel per group";
  } else {
    m5 << "given groups=" << s.groups << ", expected weight to have at least " << s.groups
       << " filters at dimension 0, divisible by " << s.groups << ", but got " << s.filters;
    if (s.transposed) m5 << " (and a non-empty weight: its dimension 1 is " << s.depth << ")";
  }
  // <p>_c5: groups > 0, weight.size(0) >= groups and divisible by groups (and
  // a transposed weight is not empty: weight.size(1) > 0)
  BoolTerm weight_ok = gt(s.groups, 0) && ge(s.filters, s.groups) && eq(mod(s.filters, s.groups), 0);
  if (s.transposed) weight_ok = weight_ok && gt(s.depth, 0);
  ctx.require(p + "_c5", weight_ok, m5);  // <p>_c5

  IntTerm channels = ctx.size(input, -n - 1);
  Message m2;
  s.name(m2);
  m2 << " expects " << s.in_channels << " input channels but the input's channel dimension is " << channels;
  bool channels_ok = ctx.require(p + "_c2", eq(channels, s.in_channels), m2) != Status::Refuted;  // <p>_c2
  // after c2 the channels are in_channels: conditions on them fold when it is a constant
  IntTerm c = channels_ok ? s.in_channels : channels;
  IntTerm batch = input.shape().rank_known() ? (input.shape().rank() == s.n + 2 ? ctx.size(input, 0) : IntTerm(1))
                                             : ite(eq(rank, n + 2), ctx.size(input, 0), 1);
  BoolTerm no_channels = settle(ctx, eq(c, 0));
  BoolTerm empty = settle(ctx, eq(batch, 0) || no_channels);

  std::vector<BoolTerm> valid{all_axes(s.stride, [](const IntTerm& x) { return gt(x, 0); }),
                              no_channels || all_axes(s.kernel, [](const IntTerm& k) { return gt(k, 0); }),
                              empty || all_axes(s.dilation, [](const IntTerm& d) { return gt(d, 0); })};
  if (!s.same) valid.push_back(all_axes(s.padding, [](const IntTerm& q) { return ge(q, 0); }));
  if (s.transposed) valid.push_back(all_axes(s.output_padding, [](const IntTerm& q) { return ge(q, 0); }));
  if (s.same) valid.push_back(all_axes(s.stride, [](const IntTerm& x) { return eq(x, 1); }));
  Message m3;
  s.name(m3);
  m3 << ": kernel size ";
  append_tuple(m3, s.kernel);
  m3 << ", stride ";
  append_tuple(m3, s.stride);
  m3 << " and dilation ";
  append_tuple(m3, s.dilation);
  m3 << " must be positive and padding ";
  if (s.same) {
    m3 << "'same' needs stride 1";
  } else {
    append_tuple(m3, s.padding);
    m3 << (s.transposed ? " and output_padding non-negative" : " non-negative");
  }
  bool hyper_ok = ctx.require(p + "_c3", all_of(valid), m3) != Status::Refuted;  // <p>_c3

  std::vector<IntTerm> spatial, extent;
  for (int64_t i = 0; i < n; ++i) {
    spatial.push_back(ctx.size(input, i - n));
    std::size_t a = static_cast<std::size_t>(i);
    extent.push_back(s.dilation[a] * (s.kernel[a] - 1) + 1);  // the dilated kernel
  }
  std::vector<IntTerm> out;
  bool sizes_ok = hyper_ok;
  if (!s.transposed) {
    std::vector<IntTerm> padded;
    std::vector<BoolTerm> fits;
    for (std::size_t a = 0; a < s.n; ++a) {
      // 'same' pads d*(k-1) in total (one more on the right when odd)
      padded.push_back(s.same ? spatial[a] + (extent[a] - 1) : spatial[a] + s.padding[a] * 2);
      fits.push_back(ge(padded[a], extent[a]));
    }
    Message m4;
    s.name(m4);
    m4 << ": the kernel (";
    append_by(m4, extent);
    m4 << ") is larger than the padded input (";
    append_by(m4, padded);
    m4 << ")";
    if (ctx.require(p + "_c4", all_of(fits), m4) == Status::Refuted) sizes_ok = false;  // <p>_c4
    if (sizes_ok) {
      for (std::size_t a = 0; a < s.n; ++a)
        out.push_back(s.same ? spatial[a] : floordiv(padded[a] - extent[a], s.stride[a]) + 1);
    }
  } else {
    std::vector<IntTerm> least;  // the output size with output_padding 0
    for (std::size_t a = 0; a < s.n; ++a)
      least.push_back((spatial[a] - 1) * s.stride[a] - s.padding[a] * 2 + extent[a]);
    std::vector<IntTerm> extra = s.output_padding;
    if (output_size && !output_size->is_none()) {
      // forward(input, output_size): Python derives output_padding from the
      // requested size (its last n entries), which must be reachable
      std::vector<Arg> req = ctx.elements(*output_size);
      if (req.size() != s.n && req.size() != s.n + 1 && req.size() != s.n + 2)
        throw NotModelled("output_size of another length");
      std::vector<BoolTerm> reachable;
      std::vector<IntTerm> wanted, most;
      extra.clear();
      for (std::size_t a = 0; a < s.n; ++a) {
        IntTerm want = ctx.int_term(req[req.size() - s.n + a]);
        most.push_back(least[a] + s.stride[a] - 1);
        reachable.push_back(ge(want, least[a]) && le(want, most[a]));
        extra.push_back(want - least[a]);
        wanted.push_back(want);
      }
      Message m9;  // the numbers PyTorch's ValueError names: the request and both ends of the range
      s.name(m9);
      m9 << ": the requested output size (";
      append_by(m9, wanted);
      m9 << ") is not reachable: valid sizes range from (";
      append_by(m9, least);
      m9 << ") to (";
      append_by(m9, most);
      m9 << ")";
      if (ctx.require(p + "_c9", all_of(reachable), m9) == Status::Refuted) return unknown_tensor();  // <p>_c9
    }
    std::vector<BoolTerm> small;
    for (std::size_t a = 0; a < s.n; ++a) small.push_back(lt(extra[a], s.stride[a]) || lt(extra[a], s.dilation[a]));
    Message m7;
    s.name(m7);
    m7 << ": output padding must be smaller than either stride or dilation, but got output_padding ";
    append_tuple(m7, extra);
    m7 << ", stride ";
    append_tuple(m7, s.stride);
    m7 << " and dilation ";
    append_tuple(m7, s.dilation);
    if (ctx.require(p + "_c7", empty || all_of(small), m7) == Status::Refuted) sizes_ok = false;  // <p>_c7
    std::vector<IntTerm> sizes;
    std::vector<BoolTerm> positive;
    for (std::size_t a = 0; a < s.n; ++a) {
      sizes.push_back(least[a] + extra[a]);
      positive.push_back((empty && ge(sizes[a], 0)) || gt(sizes[a], 0));
    }
    Message m8;
    s.name(m8);
    m8 << ": given input size per channel (";
    append_by(m8, spatial);
    m8 << "), the calculated output size per channel (";
    append_by(m8, sizes);
    m8 << ") is too small";
    if (ctx.require(p + "_c8", all_of(positive), m8) == Status::Refuted) sizes_ok = false;  // <p>_c8
    if (sizes_ok) out = sizes;
  }
  std::vector<BoolTerm> nonzero;
  for (const IntTerm& x : spatial) nonzero.push_back(gt(x, 0));
  Message m10;
  s.name(m10);
  m10 << ": only inputs with zero batch or zero channels may be empty, got input of shape " << ctx.shape_hole(input);
  if (ctx.require(p + "_c10", empty || all_of(nonzero), m10) == Status::Refuted) sizes_ok = false;  // <p>_c10
  if (!sizes_ok) return unknown_tensor();
  if (!input.shape().rank_known()) {
    // batched or not (c1): the channel and spatial axes are known all the same
    std::vector<Dim> suffix{ite(no_channels, 0, s.out_channels).dim()};
    for (const IntTerm& t : out) suffix.push_back(t.dim());
    return Value::tensor(Shape::unknown_with_suffix(std::move(suffix)));
  }
  std::vector<Dim> dims;
  if (input.shape().rank() == s.n + 2) dims.push_back(input.shape()[0]);
  dims.push_back(ite(no_channels, 0, s.out_channels).dim());
  for (const IntTerm& t : out) dims.push_back(t.dim());
  return Value::tensor(Shape(std::move(dims)));
}

// ------------------------------------------------------------------ construction

template <std::size_t N, bool Transposed>
Value rule_conv_init(RuleContext& ctx) {
  const std::string cls = Transposed ? "ConvTranspose" + std::to_string(N) + "d" : "Conv" + std::to_string(N) + "d";
  const std::string p = Transposed ? "nn_conv_transpose" + std::to_string(N) + "d" : "nn_conv" + std::to_string(N) + "d";
  IntTerm in = ctx.int_term(ctx.arg("in_channels"));
  IntTerm out = ctx.int_term(ctx.arg("out_channels"));
  std::vector<IntTerm> kernel = int_tuple(ctx, ctx.arg("kernel_size"), N);
  std::vector<IntTerm> stride = int_tuple(ctx, ctx.arg("stride"), N);
  std::vector<IntTerm> dilation = int_tuple(ctx, ctx.arg("dilation"), N);
  IntTerm groups = ctx.int_term(ctx.arg("groups"));
  std::optional<bool> has_bias = ctx.bool_flag("bias");  // unknown: the module is kept, its bias unknown
  Arg padding_arg = ctx.arg("padding");
  std::optional<std::string> padding_str = str_constant(padding_arg);
  if (padding_arg.value.is_str() && !padding_str) throw NotModelled("padding is a string that is not a constant");
  if (padding_str && Transposed) throw NotModelled("a string padding for a transposed convolution");
  std::vector<IntTerm> padding = padding_str ? std::vector<IntTerm>(N, IntTerm(0)) : int_tuple(ctx, padding_arg, N);
  std::optional<std::string> mode = str_constant(ctx.arg("padding_mode"));
  if (!mode) throw NotModelled("padding_mode is not a constant string");

  auto describe = [&](Message& m) {
    m << "nn." << cls << "(" << in << ", " << out << ", kernel_size=";
    append_tuple(m, kernel);
    m << ")";
  };
  Message m1;
  describe(m1);
  m1 << ": groups must be a positive integer, got " << groups;
  if (ctx.require(p + "_c1", gt(groups, 0), m1) == Status::Refuted) return Value::unknown();  // nn_conv*_c1
  Message m2;
  describe(m2);
  m2 << ": in_channels " << in << " must be divisible by groups " << groups;
  ctx.require(p + "_c2", eq(mod(in, groups), 0), m2);  // nn_conv*_c2
  Message m3;
  describe(m3);
  m3 << ": out_channels " << out << " must be divisible by groups " << groups;
  ctx.require(p + "_c3", eq(mod(out, groups), 0), m3);  // nn_conv*_c3
  // the weight is [out, in/groups, *k] ([in, out/groups, *k] transposed)
  IntTerm w0 = Transposed ? in : out;
  IntTerm w1 = floordiv(Transposed ? out : in, groups);
  std::vector<BoolTerm> nonneg{ge(w0, 0), ge(w1, 0)};
  for (const IntTerm& k : kernel) nonneg.push_back(ge(k, 0));
  Message m4;
  describe(m4);
  m4 << ": trying to create a weight with a negative dimension [" << w0 << ", " << w1;
  for (const IntTerm& k : kernel) m4 << ", " << k;
  m4 << "]";
  ctx.require(p + "_c4", all_of(nonneg), m4);  // nn_conv*_c4
  bool mode_ok = Transposed ? *mode == "zeros" : (*mode == "zeros" || *mode == "reflect" || *mode == "replicate" || *mode == "circular");
  bool padding_ok = !padding_str || *padding_str == "same" || *padding_str == "valid";
  BoolTerm ok = BoolTerm(mode_ok && padding_ok);
  if (padding_str && *padding_str == "same") ok = ok && all_axes(stride, [](const IntTerm& x) { return eq(x, 1); });
  Message m5;
  describe(m5);
  if (!mode_ok) {
    m5 << ": padding_mode '" << *mode << "' is not supported" << (Transposed ? " (only 'zeros')" : "");
  } else if (!padding_ok) {
    m5 << ": invalid padding string '" << *padding_str << "', expected 'same' or 'valid'";
  } else {
    m5 << ": padding='same' is not supported for strided convolutions, got stride ";
    append_tuple(m5, stride);
  }
  ctx.require(p + "_c5", ok, m5);  // nn_conv*_c5

  auto obj = new_module("torch.nn." + cls);
  obj->attributes["in_channels"] = Value::integer(in.dim());
  obj->attributes["out_channels"] = Value::integer(out.dim());
  obj->attributes["kernel_size"] = tuple_value(kernel);
  obj->attributes["stride"] = tuple_value(stride);
  obj->attributes["dilation"] = tuple_value(dilation);
  obj->attributes["groups"] = Value::integer(groups.dim());
  obj->attributes["padding"] = padding_str ? Value::string(padding_str == "valid" ? std::string("valid") : *padding_str)
                                           : tuple_value(padding);
  obj->attributes["padding_mode"] = Value::string(*mode);
  if (Transposed) obj->attributes["output_padding"] = tuple_value(int_tuple(ctx, ctx.arg("output_padding"), N));
  std::vector<Dim> w{w0.dim(), w1.dim()};
  for (const IntTerm& k : kernel) w.push_back(k.dim());
  obj->attributes["weight"] = Value::tensor(Shape(std::move(w)));
  obj->attributes["bias"] = !has_bias ? Value::unknown() : *has_bias ? Value::tensor(Shape{out.dim()}) : Value::none();
  return Value::object(obj);
}

// ------------------------------------------------------------------ forward

template <std::size_t N, bool Transposed>
Value rule_conv_module_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  ConvSpec s;
  s.n = N;
  s.transposed = Transposed;
  s.module = true;
  s.prefix = Transposed ? "conv_transpose" + std::to_string(N) + "d" : "conv" + std::to_string(N) + "d";
  IntTerm in = module_int(ctx, module, "in_channels");
  IntTerm out = module_int(ctx, module, "out_channels");
  s.in_channels = in;
  s.out_channels = out;
  s.groups = module_int(ctx, module, "groups");
  s.filters = Transposed ? in : out;
  if (Transposed) s.depth = floordiv(out, s.groups);
  s.kernel = module_ints(module, "kernel_size");
  s.stride = module_ints(module, "stride");
  s.dilation = module_ints(module, "dilation");
  std::optional<std::string> mode = module_str(ctx.arg("self"), "padding_mode");
  if (mode && *mode != "zeros") throw NotModelled("padding_mode '" + *mode + "' pads with F.pad first");
  if (std::optional<std::string> ps = module_str(module, "padding")) {
    s.same = *ps == "same";
    s.padding.assign(N, IntTerm(0));
  } else {
    s.padding = module_ints(module, "padding");
  }
  if (Transposed) s.output_padding = module_ints(module, "output_padding");
  if (s.kernel.size() != N || s.stride.size() != N || s.dilation.size() != N || s.padding.size() != N)
    throw NotModelled("hyperparameters of another length");
  // The forward passes self.weight to F.convNd, which reads the weight's
  // sizes, not the constructor's: a replaced weight (`conv.weight =
  // nn.Parameter(...)`, always seen at run time) counts. Taken when its sizes
  // are constants and groups is; a symbolic construction's weight has the
  // constructor's sizes, and a replacement by a symbolic one makes them
  // unknown (the analysis' attribute write).
  const Value* weight = module_field(module, "weight");
  std::optional<std::vector<int64_t>> w =
      weight && weight->is_tensor() ? weight->shape().constant_sizes() : std::nullopt;
  if (w && w->size() == N + 2 && s.groups.is_literal()) {
    IntTerm w0((*w)[0]), w1((*w)[1]);
    in = Transposed ? w0 : w1 * s.groups;
    out = Transposed ? w1 * s.groups : w0;
    s.in_channels = in;
    s.out_channels = out;
    s.filters = w0;
    if (Transposed) s.depth = w1;
    for (std::size_t a = 0; a < N; ++a) s.kernel[a] = IntTerm((*w)[a + 2]);
  }
  std::string cls = module_class(s);
  std::vector<IntTerm> kernel = s.kernel;
  s.name = [cls, in, out, kernel](Message& m) {
    m << cls << "(" << in << ", " << out << ", kernel_size=";
    append_tuple(m, kernel);
    m << ")";
  };
  if (Transposed) {
    Arg output_size = ctx.arg("output_size");
    return conv_forward(ctx, s, input, &output_size);
  }
  return conv_forward(ctx, s, input);
}

// F.convNd(input, weight, bias, stride, padding, dilation, groups) and
// F.conv_transposeNd(input, weight, bias, stride, padding, output_padding, groups, dilation).
template <std::size_t N, bool Transposed>
Value rule_conv_functional(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg weight = ctx.tensor("weight");
  Arg bias = ctx.arg("bias");
  ConvSpec s;
  s.n = N;
  s.transposed = Transposed;
  s.prefix = Transposed ? "conv_transpose" + std::to_string(N) + "d" : "conv" + std::to_string(N) + "d";
  const std::string& p = s.prefix;
  s.groups = ctx.int_term(ctx.arg("groups"));
  s.stride = int_tuple(ctx, ctx.arg("stride"), N);
  s.dilation = int_tuple(ctx, ctx.arg("dilation"), N);
  Arg padding_arg = ctx.arg("padding");
  if (padding_arg.value.is_str()) {
    std::optional<std::string> ps = str_constant(padding_arg);
    if (!ps || Transposed) throw NotModelled("a string padding");
    Message m;
    m << "invalid padding string '" << *ps << "' for " << p << ", expected 'same' or 'valid'";
    if (ctx.require(p + "_c3", BoolTerm(*ps == "same" || *ps == "valid"), m) == Status::Refuted) return unknown_tensor();
    s.same = *ps == "same";
    s.padding.assign(N, IntTerm(0));
  } else {
    s.padding = int_tuple(ctx, padding_arg, N);
  }
  if (Transposed) s.output_padding = int_tuple(ctx, ctx.arg("output_padding"), N);

  // the weight's rank must be the batched input's
  IntTerm wrank = ctx.rank(weight);
  Message mw;
  mw << p << " expects a " << std::to_string(N + 2) << "-dimensional weight, got weight of shape "
     << ctx.shape_hole(weight);
  if (ctx.require(p + "_c5", eq(wrank, static_cast<int64_t>(N) + 2), mw) == Status::Refuted) return unknown_tensor();  // <p>_c5
  if (!weight.shape().rank_known()) {
    // nothing about channels or the kernel is known: only the input's rank
    Message m1;
    m1 << "expected " << std::to_string(N + 1) << "D (unbatched) or " << std::to_string(N + 2) << "D (batched) input to "
       << p << ", but got input of shape " << ctx.shape_hole(input);
    IntTerm rank = ctx.rank(input);
    ctx.require(p + "_c1", eq(rank, static_cast<int64_t>(N) + 1) || eq(rank, static_cast<int64_t>(N) + 2), m1);
    return unknown_tensor();
  }
  IntTerm w0 = ctx.size(weight, 0), w1 = ctx.size(weight, 1);
  s.filters = w0;
  s.depth = w1;
  s.in_channels = Transposed ? w0 : w1 * s.groups;
  s.out_channels = Transposed ? w1 * s.groups : w0;
  for (std::size_t a = 0; a < N; ++a) s.kernel.push_back(ctx.size(weight, static_cast<int64_t>(a) + 2));
  s.name = [p, weight, &ctx](Message& m) { m << p << " with weight of shape " << ctx.shape_hole(weight); };
  if (!bias.is_none()) {
    Arg b = ctx.as_tensor(bias);
    IntTerm expected = Transposed ? w1 * s.groups : w0;
    Message m6;
    m6 << p << " expects a 1-dimensional bias with " << expected << " elements, got bias of shape "
       << ctx.shape_hole(b);
    BoolTerm one_d = eq(ctx.rank(b), 1);
    IntTerm b0 = b.shape().rank_known() && b.shape().rank() != 1 ? IntTerm(-1) : ctx.size(b, 0);
    ctx.require(p + "_c6", one_d && eq(b0, expected), m6);  // <p>_c6
  }
  return conv_forward(ctx, s, input);
}

}  // namespace

void register_nn_conv_rules(RuleRegistry& r) {
  const char* conv_sig =
      "in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, "
      "padding_mode='zeros', device=None, dtype=None";
  const char* convt_sig =
      "in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True, "
      "dilation=1, padding_mode='zeros', device=None, dtype=None";
  r.add("torch.nn.Conv1d", conv_sig, rule_conv_init<1, false>);
  r.add("torch.nn.Conv2d", conv_sig, rule_conv_init<2, false>);
  r.add("torch.nn.ConvTranspose2d", convt_sig, rule_conv_init<2, true>);
  r.add("torch.nn.Conv1d.forward", "self, input", rule_conv_module_forward<1, false>);
  r.add("torch.nn.Conv2d.forward", "self, input", rule_conv_module_forward<2, false>);
  r.add("torch.nn.ConvTranspose2d.forward", "self, input, output_size=None", rule_conv_module_forward<2, true>);
  const char* fconv_sig = "input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1";
  const char* fconvt_sig = "input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1";
  r.add("torch.nn.functional.conv1d", fconv_sig, rule_conv_functional<1, false>);
  r.add("torch.nn.functional.conv2d", fconv_sig, rule_conv_functional<2, false>);
  r.add("torch.conv1d", fconv_sig, rule_conv_functional<1, false>);
  r.add("torch.conv2d", fconv_sig, rule_conv_functional<2, false>);
  r.add("torch.nn.functional.conv_transpose2d", fconvt_sig, rule_conv_functional<2, true>);
  r.add("torch.conv_transpose2d", fconvt_sig, rule_conv_functional<2, true>);
}

}  // namespace gshape::gradual
