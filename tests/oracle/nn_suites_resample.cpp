// Oracle generators for resampling: pixel shuffle (channels not divisible
// by r^2, r <= 0), interpolate / Upsample (size or scale factor, both or
// neither, per-axis lists of the wrong length, modes against ranks,
// align_corners where not allowed, sizes reaching 0), F.pad in every mode
// (odd lengths, too many pairs, negative pads cropping too much; reflect,
// replicate and circular: ranks each mode does not take, empty axes, pads
// at the reflection bound, padded sizes reaching 0, a value, an unknown
// mode) and the padding modules (an int, a tuple of the module's length or
// of another one).
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

std::vector<int64_t> shape(Rng& r, int64_t rank) {
  std::vector<int64_t> s(static_cast<std::size_t>(rank));
  for (auto& d : s) d = r.chance(0.06) ? 0 : r.range(1, 4);
  return s;
}

NCase pixel_shuffle(Rng& r, bool module) {
  int64_t f = r.chance(0.05) ? r.range(-1, 0) : r.range(1, 3);
  std::vector<int64_t> x = shape(r, r.chance(0.05) ? 2 : r.range(3, 5));
  if (x.size() >= 3) x[x.size() - 3] = std::max<int64_t>(f, 1) * std::max<int64_t>(f, 1) * r.range(0, 2) + (r.chance(0.15) ? 1 : 0);
  NCase c;
  if (module) {
    c.init.args = {I(f)};
    c.call.args = {T(x)};
  } else {
    c.call.args = {T(x), I(f)};
  }
  return c;
}

const std::vector<std::string> kModes = {"nearest", "nearest", "nearest-exact", "linear", "bilinear", "bilinear",
                                         "bicubic", "trilinear"};

int64_t rank_for(Rng& r, const std::string& mode) {
  if (r.chance(0.1)) return r.range(2, 5);
  if (mode == "linear") return 3;
  if (mode == "bilinear" || mode == "bicubic") return 4;
  if (mode == "trilinear") return 5;
  return r.range(3, 5);
}

// The interpolate keyword arguments, as F.interpolate and nn.Upsample take them.
NCall interpolate_args(Rng& r, int64_t spatial, const std::string& mode) {
  NCall call;
  std::size_t n = static_cast<std::size_t>(std::max<int64_t>(spatial, 0));
  if (r.chance(0.1) && n > 0) n = r.chance(0.5) ? n + 1 : n - 1;
  bool by_size = r.chance(0.5);
  if (by_size || r.chance(0.04)) {
    std::vector<int64_t> sizes(n);
    for (auto& v : sizes) v = r.chance(0.05) ? 0 : r.range(1, 6);
    call.kwargs.emplace_back("size", r.chance(0.3) && !sizes.empty() ? I(sizes[0]) : Ints(sizes));
  }
  if (!by_size || r.chance(0.04)) {
    std::vector<NArg> scales;
    for (std::size_t i = 0; i < n; ++i) scales.push_back(r.chance(0.5) ? I(r.range(1, 3)) : F(r.pick(std::vector<double>{0.5, 1.5, 2.0, 0.3, 2.7})));
    call.kwargs.emplace_back("scale_factor", r.chance(0.4) && !scales.empty() ? scales[0] : Tup(scales));
  }
  call.kwargs.emplace_back("mode", S(mode));
  bool interpolating = mode == "linear" || mode == "bilinear" || mode == "bicubic" || mode == "trilinear";
  if (interpolating ? r.chance(0.3) : r.chance(0.05)) call.kwargs.emplace_back("align_corners", B(r.chance(0.5)));
  return call;
}

NCase interpolate(Rng& r, bool module) {
  std::string mode = r.pick(kModes);
  int64_t rank = rank_for(r, mode);
  std::vector<int64_t> x = shape(r, rank);
  NCase c;
  NCall args = interpolate_args(r, rank - 2, mode);
  if (module) {
    c.init = args;
    c.call.args = {T(x)};
  } else {
    c.call = args;
    c.call.args.insert(c.call.args.begin(), T(x));
    if (r.chance(0.1)) c.call.kwargs.emplace_back("recompute_scale_factor", B(true));
  }
  return c;
}

// A pad for an axis of `size`: mostly at or below the reflection bound
// (pad < size; reflect: mostly below it, or three axes would rarely all
// pass), often cropping (sometimes more than the axis has).
int64_t pad_for(Rng& r, int64_t size, bool reflect) {
  double p = r.real(0, 1);
  if (reflect && p < 0.6) return r.range(0, std::max<int64_t>(size - 1, 0));
  if (p < 0.55) return r.range(0, std::max<int64_t>(size, 1));
  if (p < 0.8) return -r.range(1, std::max<int64_t>(size, 1) + 1);
  return r.range(-2, size + 2);
}

struct PadDraw {
  std::vector<int64_t> x, pads;
};

// An input and 2k pads for `mode`, the input usually (k+1)-D or (k+2)-D;
// `uniform`: one pad for every side (a module built from an int). Not drawn,
// the two forms the rule does not follow PyTorch 1.13 on (docs/rules.md):
// circular padding that crops one side of an axis and pads the other (its
// outcome depends on the memory layout), and reflect on 2 axes of an empty
// input whose padded size is negative (1.13 makes a tensor of negative size).
PadDraw pad_draw(Rng& r, int64_t k, const std::string& mode, bool uniform = false) {
  for (;;) {
    int64_t rank = r.chance(0.88) ? k + r.range(1, 2) : r.range(1, 5);
    std::vector<int64_t> x = shape(r, rank);
    std::vector<int64_t> pads;
    int64_t first = 0;
    for (int64_t i = 0; i < k; ++i) {
      int64_t size = i < rank ? x[static_cast<std::size_t>(rank - 1 - i)] : 2;
      int64_t a = pad_for(r, size, mode == "reflect"), b = pad_for(r, size, mode == "reflect");
      if (i == 0) first = a;
      if (uniform) a = b = first;
      if (mode == "circular" && ((a < 0 && b > 0) || (a > 0 && b < 0))) (a < 0 ? a : b) = 0;
      pads.push_back(a);
      pads.push_back(b);
    }
    bool empty = false, negative = false;
    for (int64_t d : x) empty = empty || d == 0;
    for (int64_t i = 0; i < k && i < rank; ++i)
      negative = negative || x[static_cast<std::size_t>(rank - 1 - i)] + pads[static_cast<std::size_t>(2 * i)] +
                                     pads[static_cast<std::size_t>(2 * i + 1)] < 0;
    if (mode == "reflect" && k == 2 && (rank == 3 || rank == 4) && empty && negative) continue;
    return {x, pads};
  }
}

NCase pad(Rng& r) {
  NCase c;
  if (r.chance(0.4)) {  // constant mode
    std::vector<int64_t> x = shape(r, r.range(1, 4));
    int64_t pairs = r.range(1, static_cast<int64_t>(x.size()) + (r.chance(0.1) ? 1 : 0));
    std::vector<int64_t> pads;
    for (int64_t i = 0; i < 2 * pairs; ++i) pads.push_back(r.chance(0.25) ? -r.range(1, 3) : r.range(0, 2));
    if (r.chance(0.05)) pads.pop_back();
    c.call.args = {T(x), Ints(pads)};
    if (r.chance(0.3)) c.call.kwargs.emplace_back("value", F(1.5));
    return c;
  }
  std::string mode = r.chance(0.03) ? "wrap" : r.pick(std::vector<std::string>{"reflect", "replicate", "circular"});
  int64_t k = r.chance(0.05) ? r.pick(std::vector<int64_t>{0, 4}) : r.range(1, 3);
  PadDraw d = pad_draw(r, k, mode);
  if (!d.pads.empty() && r.chance(0.04)) d.pads.pop_back();
  c.call.args = {T(d.x), Ints(d.pads), S(mode)};
  if (r.chance(0.08)) c.call.kwargs.emplace_back("value", F(r.chance(0.5) ? 0.0 : 1.5));
  return c;
}

// nn.<Kind>Pad<n>d(padding[, value]) on an input: padding an int, a tuple of
// 2n pads or, rarely, of another length (F.pad then pads that many axes).
NCase pad_module(Rng& r, const std::string& mode, int64_t n, bool with_value) {
  double p = r.real(0, 1);
  bool as_int = p < 0.3;
  int64_t length = p < 0.9 ? 2 * n : r.pick(std::vector<int64_t>{2 * n - 1, 2, 2 * n + 2});
  PadDraw d = pad_draw(r, (length + 1) / 2, mode, as_int);
  if (length % 2) d.pads.pop_back();
  NCase c;
  c.init.args = {as_int ? I(d.pads.front()) : Ints(d.pads)};
  if (with_value) c.init.args.push_back(F(r.chance(0.5) ? 0.0 : 2.5));
  c.call.args = {T(d.x)};
  return c;
}

}  // namespace

std::vector<NSuite> resample_suites() {
  std::vector<NSuite> out;
  out.push_back({"nn.PixelShuffle", "torch.nn.PixelShuffle", [](Rng& r) { return pixel_shuffle(r, true); }});
  out.push_back({"F.pixel_shuffle", "torch.nn.functional.pixel_shuffle", [](Rng& r) { return pixel_shuffle(r, false); }});
  out.push_back({"nn.Upsample", "torch.nn.Upsample", [](Rng& r) { return interpolate(r, true); }});
  out.push_back({"F.interpolate", "torch.nn.functional.interpolate", [](Rng& r) { return interpolate(r, false); }});
  out.push_back({"F.pad", "torch.nn.functional.pad", pad});
  for (int64_t n = 1; n <= 3; ++n) {
    std::string d = std::to_string(n) + "d";
    out.push_back({"nn.ReflectionPad" + d, "torch.nn.ReflectionPad" + d, [n](Rng& r) { return pad_module(r, "reflect", n, false); }});
    out.push_back({"nn.ReplicationPad" + d, "torch.nn.ReplicationPad" + d,
                   [n](Rng& r) { return pad_module(r, "replicate", n, false); }});
    out.push_back({"nn.ConstantPad" + d, "torch.nn.ConstantPad" + d, [n](Rng& r) { return pad_module(r, "constant", n, true); }});
  }
  out.push_back({"nn.ZeroPad2d", "torch.nn.ZeroPad2d", [](Rng& r) { return pad_module(r, "constant", 2, false); }});
  return out;
}

}  // namespace gshape::oracle::nn
