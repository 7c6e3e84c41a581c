// Resampling: nn.PixelShuffle / F.pixel_shuffle, nn.Upsample /
// F.interpolate (sizes or scale factors, every mode but 'area'), and
// F.pad in constant mode (pairs from the last axis, negative pads crop).
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

// F.pad(input, pad, mode='constant', value=None), constant mode: pad_c1 an
// even number of pads, pad_c2 at most two per dimension, pad_c3 negative
// pads crop no more than the axis has, pad_c4 when some pad is positive,
// every padded axis ends up non-empty (torch checks new size > 0).
Value rule_f_pad(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::optional<std::string> mode = str_constant(ctx.arg("mode"));
  if (!mode || *mode != "constant") throw NotModelled("only constant padding is modelled");
  std::vector<IntTerm> pad;
  for (const Arg& p : ctx.elements(ctx.arg("pad"))) pad.push_back(ctx.int_term(p));
  Message m1;
  m1 << "pad: the length of pad must be divisible by 2 but instead it equals " << std::to_string(pad.size());
  if (ctx.require("pad_c1", BoolTerm(pad.size() % 2 == 0), m1) == Status::Refuted) return unknown_tensor();  // pad_c1
  const int64_t k = static_cast<int64_t>(pad.size() / 2);
  Message m2;
  m2 << "pad: the length of pad " << std::to_string(pad.size())
     << " should be no more than twice the number of dimensions of the input " << ctx.rank(input);
  if (ctx.require("pad_c2", le(IntTerm(k), ctx.rank(input)), m2) == Status::Refuted) return unknown_tensor();  // pad_c2
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
  for (const IntTerm& p : padded) positive.push_back(gt(p, 0));
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
}

}  // namespace gshape::gradual
