// Resampling: nn.PixelShuffle / F.pixel_shuffle, nn.Upsample /
// F.interpolate (sizes or scale factors, every mode but 'area'), F.pad
// (constant mode: pairs from the last axis, negative pads crop; reflect,
// replicate and circular on 1 to 3 trailing axes) and the padding modules
// (nn.ConstantPad1d/2d/3d, nn.ZeroPad2d, nn.ReflectionPad1d/2d/3d,
// nn.ReplicationPad1d/2d/3d: F.pad with their padding and mode).
#include <cmath>

#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// ------------------------------------------------------------------ pixel shuffle

// pixel_shuffle_c1 at least 3 dims, pixel_shuffle_c2 a positive factor,
// pixel_shuffle_c3 the channels (size(-3)) divisible by its square.
Value pixel_shuffle(RuleContext& ctx, const Arg& input, const IntTerm& r, const std::string& what) {
  Message m1;
  m1 << what << " expects an input with at least 3 dimensions, got input of shape " << ctx.shape_hole(input);
  if (ctx.require("pixel_shuffle_c1", ge(ctx.rank(input), 3), m1) == Status::Refuted) return unknown_tensor();  // pixel_shuffle_c1
  Message m2;
  m2 << what << " expects a positive upscale_factor, but got " << r;
  if (ctx.require("pixel_shuffle_c2", gt(r, 0), m2) == Status::Refuted) return unknown_tensor();  // pixel_shuffle_c2
  IntTerm c = ctx.size(input, -3);
  Message m3;
  m3 << what << " expects its input's channel dimension to be divisible by the square of upscale_factor, but "
     << c << " is not divisible by " << r * r;
  if (ctx.require("pixel_shuffle_c3", eq(mod(c, r * r), 0), m3) == Status::Refuted) return unknown_tensor();  // pixel_shuffle_c3
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  std::vector<Dim> dims(in.dims().begin(), in.dims().end() - 3);
  dims.push_back(exact_div(c.dim(), (r * r).dim()));
  dims.push_back((ctx.size(input, -2) * r).dim());
  dims.push_back((ctx.size(input, -1) * r).dim());
  return Value::tensor(Shape(std::move(dims)));
}

Value rule_f_pixel_shuffle(RuleContext& ctx) {
  return pixel_shuffle(ctx, ctx.tensor("input"), ctx.int_term(ctx.arg("upscale_factor")), "pixel_shuffle");
}

Value rule_pixel_shuffle_init(RuleContext& ctx) {
  auto obj = new_module("torch.nn.PixelShuffle");
  obj->attributes["upscale_factor"] = Value::integer(ctx.int_term(ctx.arg("upscale_factor")).dim());
  return Value::object(obj);
}

Value rule_pixel_shuffle_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  IntTerm r = module_int(ctx, module, "upscale_factor");
  Message what;
  return pixel_shuffle(ctx, ctx.tensor("input"), r, "nn.PixelShuffle");
}

// ------------------------------------------------------------------ interpolate

// A scale factor: a constant (int or float) or unknown.
struct Scale {
  std::optional<double> value;
  std::optional<IntTerm> integer;  // the scale as an int term when it is an int
};

Scale scale_of(RuleContext& ctx, const Arg& a) {
  Scale s;
  s.value = float_constant(a);
  if (ctx.is_int(a)) s.integer = ctx.int_term(a);
  if (s.value && std::floor(*s.value) == *s.value && std::fabs(*s.value) < 1e15)
    s.integer = IntTerm(static_cast<int64_t>(*s.value));
  return s;
}

struct InterpolateArgs {
  Arg size, scale;            // one of them None
  std::string mode;
  bool align_corners_given = false;
  std::optional<bool> recompute;
  bool antialias = false;
};

// The spatial ranks a mode works with (torch's dispatch in F.interpolate).
bool mode_takes(const std::string& mode, int64_t rank) {
  if (mode == "nearest" || mode == "nearest-exact") return rank >= 3 && rank <= 5;
  if (mode == "linear") return rank == 3;
  if (mode == "bilinear" || mode == "bicubic") return rank == 4;
  if (mode == "trilinear") return rank == 5;
  return false;
}

// interpolate_c1 exactly one of size and scale_factor (and no
// recompute_scale_factor with a size), interpolate_c2 one entry per spatial
// axis, interpolate_c3 the mode supports the input's rank (and
// align_corners / antialias only where allowed), interpolate_c4 the input's
// channels and spatial sizes and the output sizes are positive.
Value interpolate(RuleContext& ctx, const Arg& input, const InterpolateArgs& a) {
  const std::string& mode = a.mode;
  if (mode == "area") throw NotModelled("mode 'area' is adaptive average pooling");
  bool interpolating = mode == "linear" || mode == "bilinear" || mode == "bicubic" || mode == "trilinear";
  bool known_mode = interpolating || mode == "nearest" || mode == "nearest-exact";
  Message m1;
  m1 << "interpolate needs exactly one of size and scale_factor (and recompute_scale_factor only with a scale_factor)";
  bool one = a.size.is_none() != a.scale.is_none() && !(a.recompute.value_or(false) && !a.size.is_none());
  if (ctx.require("interpolate_c1", BoolTerm(one), m1) == Status::Refuted) return unknown_tensor();  // interpolate_c1
  Message m3a;
  m3a << "interpolate: align_corners can only be set with the interpolating modes (linear, bilinear, bicubic, "
         "trilinear), got mode '"
      << mode << "'";
  if (ctx.require("interpolate_c3", BoolTerm(known_mode && (interpolating || !a.align_corners_given)), m3a) ==
      Status::Refuted)  // interpolate_c3
    return unknown_tensor();
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  const int64_t rank = static_cast<int64_t>(in.rank());
  const int64_t n = rank - 2;  // spatial axes
  Message m3;
  m3 << "interpolate: mode '" << mode << "' does not take a " << std::to_string(rank) << "-d input";
  if (a.antialias) m3 << " with antialias";
  bool rank_ok = mode_takes(mode, rank) && (!a.antialias || ((mode == "bilinear" || mode == "bicubic") && rank == 4));
  // Python checks the lengths of size/scale_factor before the mode
  std::vector<Arg> sizes, scales;
  const Arg& given = a.size.is_none() ? a.scale : a.size;
  bool listed = given.value.is_sequence();
  if (listed) {
    std::vector<Arg> items = ctx.elements(given);
    Message m2;
    m2 << "interpolate: input and output must have the same number of spatial dimensions, but got input of shape "
       << ctx.shape_hole(input) << " and " << std::to_string(items.size()) << " output sizes or scale factors";
    if (!a.size.is_none()) {  // name the requested sizes, as PyTorch does
      std::vector<IntTerm> requested;
      for (const Arg& item : items) requested.push_back(ctx.int_term(item));
      m2 << " ";
      append_tuple(m2, requested);
    }
    if (ctx.require("interpolate_c2", BoolTerm(static_cast<int64_t>(items.size()) == n), m2) == Status::Refuted)  // interpolate_c2
      return unknown_tensor();
    (a.size.is_none() ? scales : sizes) = items;
  } else {
    for (int64_t i = 0; i < std::max<int64_t>(n, 0); ++i) (a.size.is_none() ? scales : sizes).push_back(given);
  }
  if (ctx.require("interpolate_c3", BoolTerm(rank_ok), m3) == Status::Refuted) return unknown_tensor();  // interpolate_c3

  std::vector<std::optional<IntTerm>> out;
  for (int64_t i = 0; i < n; ++i) {
    if (!a.size.is_none()) {
      out.emplace_back(ctx.int_term(sizes[static_cast<std::size_t>(i)]));
      continue;
    }
    Scale s = scale_of(ctx, scales[static_cast<std::size_t>(i)]);
    IntTerm x = ctx.size(input, 2 + i);
    auto xc = x.dim().constant_value();
    if (s.integer) {
      out.emplace_back(x * *s.integer);
    } else if (s.value && xc) {
      // torch casts size * scale (a double) to an int
      out.emplace_back(IntTerm(static_cast<int64_t>(static_cast<double>(*xc) * *s.value)));
    } else {
      out.emplace_back(std::nullopt);  // a float scale of a symbolic size
    }
  }
  std::vector<BoolTerm> positive{gt(ctx.size(input, 1), 0)};
  for (int64_t i = 0; i < n; ++i) {
    positive.push_back(gt(ctx.size(input, 2 + i), 0));
    if (out[static_cast<std::size_t>(i)]) positive.push_back(gt(*out[static_cast<std::size_t>(i)], 0));
  }
  Message m4;
  m4 << "interpolate: input and output sizes should be greater than 0 (and the channels non-empty), got input of shape "
     << ctx.shape_hole(input) << " and output size (";
  for (int64_t i = 0; i < n; ++i) {
    if (i) m4 << ", ";
    if (out[static_cast<std::size_t>(i)]) {
      m4 << *out[static_cast<std::size_t>(i)];
    } else {
      m4 << "?";
    }
  }
  m4 << ")";
  if (ctx.require("interpolate_c4", all_of(positive), m4) == Status::Refuted) return unknown_tensor();  // interpolate_c4
  std::vector<Dim> dims{in[0], in[1]};
  for (int64_t i = 0; i < n; ++i) {
    const auto& o = out[static_cast<std::size_t>(i)];
    dims.push_back(o ? o->dim() : ctx.fresh("interpolate.size(" + std::to_string(i + 2) + ")"));
  }
  return Value::tensor(Shape(std::move(dims)));
}

std::optional<bool> optional_flag(const Arg& a) {
  if (a.is_none()) return std::nullopt;
  if (a.value.is_bool() && a.value.as_bool().is_constant()) return a.value.as_bool().is_true();
  throw NotModelled("'" + a.role + "' is not a constant");
}

Value rule_f_interpolate(RuleContext& ctx) {
  InterpolateArgs a;
  a.size = ctx.arg("size");
  a.scale = ctx.arg("scale_factor");
  std::optional<std::string> mode = str_constant(ctx.arg("mode"));
  if (!mode) throw NotModelled("the mode is not a constant string");
  a.mode = *mode;
  a.align_corners_given = !ctx.arg("align_corners").is_none();
  a.recompute = optional_flag(ctx.arg("recompute_scale_factor"));
  a.antialias = ctx.bool_constant("antialias");
  return interpolate(ctx, ctx.tensor("input"), a);
}

// nn.Upsample keeps its arguments; a scale factor of 0 (falsy) is None.
Value rule_upsample_init(RuleContext& ctx) {
  auto obj = new_module("torch.nn.Upsample");
  obj->attributes["size"] = ctx.arg("size").value;
  Arg scale = ctx.arg("scale_factor");
  std::optional<double> s = float_constant(scale);
  obj->attributes["scale_factor"] = s && *s == 0.0 ? Value::none() : scale.value;
  std::optional<std::string> mode = str_constant(ctx.arg("mode"));
  obj->attributes["mode"] = mode ? Value::string(*mode) : Value::string();
  obj->attributes["align_corners"] = ctx.arg("align_corners").value;
  obj->attributes["recompute_scale_factor"] = ctx.arg("recompute_scale_factor").value;
  return Value::object(obj);
}

// forward: F.interpolate with the module's arguments (known statically only)
Value rule_upsample_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  auto field = [&](const std::string& name) {
    const Value* v = module_field(module, name);
    return Arg::of(v ? *v : Value::unknown(), module.role + "." + name);
  };
  InterpolateArgs a;
  a.size = field("size");
  a.scale = field("scale_factor");
  std::optional<std::string> mode = module_str(module, "mode");
  if (!mode) throw NotModelled("the mode is not a constant string");
  a.mode = *mode;
  a.align_corners_given = !field("align_corners").is_none();
  a.recompute = optional_flag(field("recompute_scale_factor"));
  return interpolate(ctx, ctx.tensor("input"), a);
}

// ------------------------------------------------------------------ pad

// Constant mode (constant_pad_nd): pad_c3 negative pads crop no more than
// the axis has, pad_c4 when some pad is positive, every padded axis ends up
// non-empty (torch checks new size > 0).
Value pad_constant(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& pad) {
  const int64_t k = static_cast<int64_t>(pad.size() / 2);
  std::vector<IntTerm> sizes, cropped, padded;
  std::vector<BoolTerm> crop_ok, nonpositive;
  for (int64_t i = 0; i < k; ++i) {
    // pad[2i], pad[2i+1] apply to the axis i from the end (-1 - i)
    IntTerm size = ctx.size(input, -1 - i);
    const IntTerm& left = pad[static_cast<std::size_t>(2 * i)];
    const IntTerm& right = pad[static_cast<std::size_t>(2 * i + 1)];
    IntTerm after_left = size + min(left, 0);
    crop_ok.push_back(ge(after_left, 0) && ge(after_left + min(right, 0), 0));
    nonpositive.push_back(le(left, 0) && le(right, 0));
    sizes.push_back(size);
    cropped.push_back(after_left + min(right, 0));
    padded.push_back(size + left + right);
  }
  Message m3;
  m3 << "pad: negative padding crops more than the input has, input of shape " << ctx.shape_hole(input)
     << " with pad ";
  append_tuple(m3, pad);
  if (ctx.require("pad_c3", all_of(crop_ok), m3) == Status::Refuted) return unknown_tensor();  // pad_c3
  BoolTerm only_crops = all_of(nonpositive);
  std::vector<BoolTerm> positive;
  for (const IntTerm& q : padded) positive.push_back(gt(q, 0));
  Message m4;
  m4 << "pad: the padded sizes (";
  append_by(m4, padded);
  m4 << ") must be positive, input of shape " << ctx.shape_hole(input) << " with pad ";
  append_tuple(m4, pad);
  if (ctx.require("pad_c4", only_crops || all_of(positive), m4) == Status::Refuted) return unknown_tensor();  // pad_c4
  const Shape& in = input.shape();
  if (!in.rank_known()) return unknown_tensor();
  std::vector<Dim> dims = in.dims();
  for (int64_t i = 0; i < k; ++i) {
    std::size_t axis = in.rank() - 1 - static_cast<std::size_t>(i);
    dims[axis] = ite(only_crops, cropped[static_cast<std::size_t>(i)], padded[static_cast<std::size_t>(i)]).dim();
  }
  return Value::tensor(Shape(std::move(dims)));
}

// "2-D or 3-D"
std::string ranks_text(int64_t a, int64_t b) { return std::to_string(a) + "-D or " + std::to_string(b) + "-D"; }

// The other modes (at::pad: reflection_pad{1,2,3}d, replication_pad{1,2,3}d,
// _pad_circular), on k = len(pad) / 2 trailing axes: pad_c7 k is 1, 2 or 3
// and the input is (k+1)-D or (k+2)-D (circular: (k+2)-D only); reflect and
// replicate: pad_c8 no empty axis but the batch (reflect 1d/2d unbatched:
// but the channels), pad_c9 (reflect) each pad smaller than its axis,
// pad_c10 the padded sizes (one axis: positive; more: none negative and one
// positive); circular: pad_c11 each pad at most its axis, pad_c12 each
// padded size non-negative.
Value pad_other(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& pad, const std::string& mode) {
  const int64_t k = static_cast<int64_t>(pad.size() / 2);
  const bool circular = mode == "circular", reflect = mode == "reflect";
  IntTerm rank = ctx.rank(input);
  Message m7;
  if (k < 1 || k > 3) {
    m7 << "pad: mode '" << mode << "' pads 1, 2 or 3 axes (2, 4 or 6 pads), got " << std::to_string(pad.size())
       << " pads for an input of shape " << ctx.shape_hole(input);
  } else if (circular) {
    m7 << "pad: mode 'circular' with " << std::to_string(2 * k) << " pads takes a " << std::to_string(k + 2)
       << "-D input (batch and channels first), got shape " << ctx.shape_hole(input) << ", which takes "
       << (rank - IntTerm(2)) * IntTerm(2) << " pads";
  } else {
    m7 << "pad: mode '" << mode << "' with " << std::to_string(2 * k) << " pads takes a " << ranks_text(k + 1, k + 2)
       << " (batch mode) input, got shape " << ctx.shape_hole(input);
  }
  BoolTerm rank_ok = k < 1 || k > 3 ? BoolTerm(false)
                                    : (circular ? eq(rank, k + 2) : eq(rank, k + 1) || eq(rank, k + 2));
  if (ctx.require("pad_c7", rank_ok, m7) == Status::Refuted) return unknown_tensor();  // pad_c7

  std::vector<IntTerm> sizes, out;  // per padded axis, the last first
  for (int64_t i = 0; i < k; ++i) {
    sizes.push_back(ctx.size(input, -1 - i));
    out.push_back(sizes.back() + pad[static_cast<std::size_t>(2 * i)] + pad[static_cast<std::size_t>(2 * i + 1)]);
  }
  auto pads_of = [&](int64_t i) {
    return std::vector<IntTerm>{pad[static_cast<std::size_t>(2 * i)], pad[static_cast<std::size_t>(2 * i + 1)]};
  };
  const Shape& in = input.shape();
  if (circular) {
    for (int64_t i = 0; i < k; ++i) {
      auto l = pad[static_cast<std::size_t>(2 * i)].dim().constant_value();
      auto r = pad[static_cast<std::size_t>(2 * i + 1)].dim().constant_value();
      // one side cropped, the other padded: PyTorch's copies between overlapping slices fail or not
      // depending on the memory layout (docs/rules.md)
      if (l && r && ((*l < 0 && *r > 0) || (*l > 0 && *r < 0)))
        throw NotModelled("circular padding that crops one side of an axis and pads the other");
    }
    for (int64_t i = 0; i < k; ++i) {
      const IntTerm& l = pad[static_cast<std::size_t>(2 * i)];
      const IntTerm& r = pad[static_cast<std::size_t>(2 * i + 1)];
      Message m11;
      m11 << "pad: circular padding ";
      append_tuple(m11, pads_of(i));
      m11 << " wraps around an axis of size " << sizes[static_cast<std::size_t>(i)]
          << " more than once, input of shape " << ctx.shape_hole(input);
      ctx.require("pad_c11", le(l, sizes[static_cast<std::size_t>(i)]) && le(r, sizes[static_cast<std::size_t>(i)]),
                  m11);  // pad_c11
      Message m12;
      m12 << "pad: circular padding ";
      append_tuple(m12, pads_of(i));
      m12 << " leaves the negative size " << out[static_cast<std::size_t>(i)] << " for an axis of size "
          << sizes[static_cast<std::size_t>(i)] << ", input of shape " << ctx.shape_hole(input);
      ctx.require("pad_c12", ge(out[static_cast<std::size_t>(i)], 0), m12);  // pad_c12
    }
  } else {
    if (in.rank_known()) {
      const int64_t r = static_cast<int64_t>(in.rank());
      const bool batched = r == k + 2;
      // the first axis may be empty when it is the batch, and for reflect 1d/2d unbatched (the channels)
      const bool first_free = batched || (reflect && k < 3);
      std::vector<BoolTerm> nonempty;
      for (int64_t d = first_free ? 1 : 0; d < r; ++d) nonempty.push_back(ne(ctx.size(input, d), 0));
      Message m8;
      m8 << "pad: mode '" << mode << "' expects a " << ranks_text(k + 1, k + 2) << " (batch mode) input "
         << (batched ? "with possibly 0 batch size and other non-zero dimensions"
                     : first_free ? "whose axes but the first are not empty" : "with no empty axis")
         << ", got shape " << ctx.shape_hole(input);
      if (ctx.require("pad_c8", all_of(nonempty), m8) == Status::Refuted) return unknown_tensor();  // pad_c8
    }
    if (reflect) {
      for (int64_t i = 0; i < k; ++i) {
        const IntTerm& size = sizes[static_cast<std::size_t>(i)];
        // PyTorch's words: the argument is 4, 6, 8 for the last, second, third axis from the end
        Message m9;
        m9 << "pad: argument #" << std::to_string(4 + 2 * i)
           << " (reflect): padding size should be less than the corresponding input dimension, but got padding ";
        append_tuple(m9, pads_of(i));
        m9 << " at dimension " << rank - IntTerm(1 + i) << " (of size " << size << ") of input " << ctx.shape_hole(input);
        ctx.require("pad_c9", lt(pad[static_cast<std::size_t>(2 * i)], size) && lt(pad[static_cast<std::size_t>(2 * i + 1)], size),
                    m9);  // pad_c9
      }
    }
    std::vector<BoolTerm> nonneg, positive;
    for (const IntTerm& o : out) {
      nonneg.push_back(ge(o, 0));
      positive.push_back(ge(o, 1));
    }
    std::vector<IntTerm> in_order(sizes.rbegin(), sizes.rend()), out_order(out.rbegin(), out.rend());
    Message m10;
    m10 << "pad: input (";
    append_by(m10, in_order);
    m10 << ") is too small: the padded size" << (k > 1 ? "s (" : " ");
    append_by(m10, out_order);
    m10 << (k > 1 ? ") must not be negative and one must be positive" : " must be positive") << ", input of shape "
        << ctx.shape_hole(input) << " with pad ";
    append_tuple(m10, pad);
    ctx.require("pad_c10", k == 1 ? positive[0] : all_of(nonneg) && any_of(positive), m10);  // pad_c10
  }
  if (ctx.any_refuted()) return unknown_tensor();
  std::vector<Dim> last;  // the padded axes in axis order
  for (auto it = out.rbegin(); it != out.rend(); ++it) last.push_back(it->dim());
  if (!in.rank_known()) return Value::tensor(Shape::unknown_with_suffix(std::move(last)));
  std::vector<Dim> dims = in.dims();
  for (int64_t i = 0; i < k; ++i) dims[in.rank() - 1 - static_cast<std::size_t>(i)] = out[static_cast<std::size_t>(i)].dim();
  return Value::tensor(Shape(std::move(dims)));
}

// at::pad(input, pad, mode, value): pad_c1 an even number of pads, pad_c2 at
// most two per dimension, pad_c5 a known mode, pad_c6 no value (or 0) but
// in constant mode; then the mode's own checks.
Value pad_nd(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& pad, const std::string& mode,
             const Arg& value) {
  Message m1;
  m1 << "pad: the length of pad must be divisible by 2 but instead it equals " << std::to_string(pad.size());
  if (ctx.require("pad_c1", BoolTerm(pad.size() % 2 == 0), m1) == Status::Refuted) return unknown_tensor();  // pad_c1
  const int64_t k = static_cast<int64_t>(pad.size() / 2);
  Message m2;
  m2 << "pad: the length of pad " << std::to_string(pad.size())
     << " should be no more than twice the number of dimensions of the input " << ctx.rank(input);
  if (ctx.require("pad_c2", le(IntTerm(k), ctx.rank(input)), m2) == Status::Refuted) return unknown_tensor();  // pad_c2
  const bool known = mode == "constant" || mode == "reflect" || mode == "replicate" || mode == "circular";
  Message m5;
  m5 << "pad: unrecognised padding mode '" << mode << "' (expected 'constant', 'reflect', 'replicate' or 'circular')";
  if (ctx.require("pad_c5", BoolTerm(known), m5) == Status::Refuted) return unknown_tensor();  // pad_c5
  if (mode == "constant") return pad_constant(ctx, input, pad);
  if (!value.is_none()) {
    std::optional<double> v = float_constant(value);
    if (!v) throw NotModelled("the value of a non-constant padding is not a constant");
    Message m6;
    m6 << "pad: padding mode '" << mode << "' doesn't take in value argument, got value=" << float_text(*v);
    if (ctx.require("pad_c6", BoolTerm(*v == 0.0), m6) == Status::Refuted) return unknown_tensor();  // pad_c6
  }
  return pad_other(ctx, input, pad, mode);
}

// F.pad(input, pad, mode='constant', value=None)
Value rule_f_pad(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::optional<std::string> mode = str_constant(ctx.arg("mode"));
  if (!mode) throw NotModelled("the padding mode is not a constant string");
  std::vector<IntTerm> pad;
  for (const Arg& q : ctx.elements(ctx.arg("pad"))) pad.push_back(ctx.int_term(q));
  return pad_nd(ctx, input, pad, *mode, ctx.arg("value"));
}

// The padding modules: nn.ConstantPad1d/2d/3d(padding, value), nn.ZeroPad2d(padding),
// nn.ReflectionPad1d/2d/3d(padding), nn.ReplicationPad1d/2d/3d(padding). Python's
// _ntuple(2N): an int is repeated, a sequence is kept as it is (any length:
// F.pad checks it at the call). No check at construction.
enum class PadKind { Constant, Zero, Reflection, Replication };

const char* pad_mode(PadKind k) {
  return k == PadKind::Reflection ? "reflect" : k == PadKind::Replication ? "replicate" : "constant";
}

std::string pad_class(PadKind k, int n) {
  const char* base = k == PadKind::Constant ? "ConstantPad" : k == PadKind::Zero ? "ZeroPad"
                     : k == PadKind::Reflection ? "ReflectionPad" : "ReplicationPad";
  return std::string("torch.nn.") + base + std::to_string(n) + "d";
}

template <PadKind K, int N>
Value rule_pad_init(RuleContext& ctx) {
  Arg padding = ctx.arg("padding");
  std::vector<IntTerm> pads;
  if (padding.value.is_sequence()) {
    for (const Arg& item : ctx.elements(padding)) pads.push_back(ctx.int_term(item));
  } else {
    pads = int_tuple(ctx, padding, 2 * N);
  }
  auto obj = new_module(pad_class(K, N));
  obj->attributes["padding"] = tuple_value(pads);
  if (K == PadKind::Constant) obj->attributes["value"] = ctx.arg("value").value;
  if (K == PadKind::Zero) obj->attributes["value"] = Value::floating(0.0);
  return Value::object(obj);
}

// forward: F.pad(input, self.padding, mode, self.value)
template <PadKind K>
Value rule_pad_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  std::vector<IntTerm> pads = module_ints(module, "padding");
  Arg value = Arg::of(Value::none(), module.role + ".value");
  return pad_nd(ctx, ctx.tensor("input"), pads, pad_mode(K), value);
}

}  // namespace

void register_nn_resample_rules(RuleRegistry& r) {
  r.add("torch.nn.PixelShuffle", "upscale_factor", rule_pixel_shuffle_init);
  r.add("torch.nn.PixelShuffle.forward", "self, input", rule_pixel_shuffle_forward);
  r.add("torch.nn.functional.pixel_shuffle", "input, upscale_factor", rule_f_pixel_shuffle);
  r.add("torch.pixel_shuffle", "input, upscale_factor", rule_f_pixel_shuffle);
  r.add("torch.nn.functional.interpolate",
        "input, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None, "
        "antialias=False",
        rule_f_interpolate);
  r.add("torch.nn.Upsample", "size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None",
        rule_upsample_init);
  r.add("torch.nn.Upsample.forward", "self, input", rule_upsample_forward);
  r.add("torch.nn.functional.pad", "input, pad, mode='constant', value=None", rule_f_pad);
  r.add("torch.nn.ConstantPad1d", "padding, value", rule_pad_init<PadKind::Constant, 1>);
  r.add("torch.nn.ConstantPad2d", "padding, value", rule_pad_init<PadKind::Constant, 2>);
  r.add("torch.nn.ConstantPad3d", "padding, value", rule_pad_init<PadKind::Constant, 3>);
  r.add("torch.nn.ZeroPad2d", "padding", rule_pad_init<PadKind::Zero, 2>);
  r.add("torch.nn.ReflectionPad1d", "padding", rule_pad_init<PadKind::Reflection, 1>);
  r.add("torch.nn.ReflectionPad2d", "padding", rule_pad_init<PadKind::Reflection, 2>);
  r.add("torch.nn.ReflectionPad3d", "padding", rule_pad_init<PadKind::Reflection, 3>);
  r.add("torch.nn.ReplicationPad1d", "padding", rule_pad_init<PadKind::Replication, 1>);
  r.add("torch.nn.ReplicationPad2d", "padding", rule_pad_init<PadKind::Replication, 2>);
  r.add("torch.nn.ReplicationPad3d", "padding", rule_pad_init<PadKind::Replication, 3>);
  for (int n = 1; n <= 3; ++n) {
    r.add(pad_class(PadKind::Constant, n) + ".forward", "self, input", rule_pad_forward<PadKind::Constant>);
    r.add(pad_class(PadKind::Reflection, n) + ".forward", "self, input", rule_pad_forward<PadKind::Reflection>);
    r.add(pad_class(PadKind::Replication, n) + ".forward", "self, input", rule_pad_forward<PadKind::Replication>);
  }
  r.add("torch.nn.ZeroPad2d.forward", "self, input", rule_pad_forward<PadKind::Zero>);
}

}  // namespace gshape::gradual
