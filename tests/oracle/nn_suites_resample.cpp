// Oracle generators for resampling: pixel shuffle (channels not divisible
// by r^2, r <= 0), interpolate / Upsample (size or scale factor, both or
// neither, per-axis lists of the wrong length, modes against ranks,
// align_corners where not allowed, sizes reaching 0), and constant F.pad
// (odd lengths, too many pairs, negative pads cropping too much).
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

NCase pad(Rng& r) {
  std::vector<int64_t> x = shape(r, r.range(1, 4));
  int64_t pairs = r.range(1, static_cast<int64_t>(x.size()) + (r.chance(0.1) ? 1 : 0));
  std::vector<int64_t> pads;
  for (int64_t i = 0; i < 2 * pairs; ++i) pads.push_back(r.chance(0.25) ? -r.range(1, 3) : r.range(0, 2));
  if (r.chance(0.05)) pads.pop_back();
  NCase c;
  c.call.args = {T(x), Ints(pads)};
  if (r.chance(0.3)) c.call.kwargs.emplace_back("value", F(1.5));
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
  return out;
}

}  // namespace gshape::oracle::nn
