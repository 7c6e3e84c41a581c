// Oracle generators for pooling: kernels, strides, paddings and dilations
// near the boundaries (padding just above half the kernel, an output of
// size 0, ceil mode's last window, empty axes), modules and functions.
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

NArg pair_arg(Rng& r, int64_t a, int64_t b) {
  if (a == b && r.chance(0.6)) return I(a);
  return Ints({a, b});
}

struct PoolDraw {
  std::vector<int64_t> kernel, stride, padding, dilation;
  bool default_stride = false;
};

PoolDraw draw(Rng& r) {
  PoolDraw d;
  for (int a = 0; a < 2; ++a) {
    d.kernel.push_back(r.chance(0.03) ? 0 : r.range(1, 4));
    d.stride.push_back(r.chance(0.03) ? 0 : r.range(1, 3));
    int64_t half = d.kernel.back() / 2;
    d.padding.push_back(r.chance(0.06) ? half + 1 : (r.chance(0.03) ? -1 : r.range(0, half)));
    d.dilation.push_back(r.chance(0.03) ? 0 : (r.chance(0.8) ? 1 : 2));
  }
  d.default_stride = r.chance(0.4);
  return d;
}

NArg input_near(Rng& r, const PoolDraw& d) {
  std::vector<int64_t> shape;
  if (r.chance(0.75)) shape.push_back(r.chance(0.08) ? 0 : r.range(1, 2));
  shape.push_back(r.chance(0.04) ? 0 : r.range(1, 3));
  for (int a = 0; a < 2; ++a) {
    int64_t extent = d.dilation[a] * (d.kernel[a] - 1) + 1 - 2 * d.padding[a];
    shape.push_back(std::max<int64_t>(r.chance(0.05) ? 0 : 1, extent + (r.chance(0.1) ? -1 : r.range(0, 4))));
  }
  if (r.chance(0.03)) shape.erase(shape.begin());
  if (r.chance(0.03)) shape.push_back(2);
  return T(shape);
}

NCase pool_case(Rng& r, bool max, bool module) {
  PoolDraw d = draw(r);
  NCase c;
  NCall& hyper = module ? c.init : c.call;
  if (!module) hyper.args.push_back(input_near(r, d));
  hyper.args.push_back(pair_arg(r, d.kernel[0], d.kernel[1]));
  if (!d.default_stride) hyper.kwargs.emplace_back("stride", pair_arg(r, d.stride[0], d.stride[1]));
  hyper.kwargs.emplace_back("padding", pair_arg(r, d.padding[0], d.padding[1]));
  if (max) {
    hyper.kwargs.emplace_back("dilation", pair_arg(r, d.dilation[0], d.dilation[1]));
    if (r.chance(0.2)) hyper.kwargs.emplace_back("return_indices", B(true));
  } else {
    d.dilation = {1, 1};
    if (r.chance(0.1)) hyper.kwargs.emplace_back("divisor_override", I(r.range(0, 2)));
  }
  if (r.chance(0.4)) hyper.kwargs.emplace_back("ceil_mode", B(true));
  if (module) c.call.args.push_back(input_near(r, d));
  return c;
}

NCase adaptive_case(Rng& r, bool module) {
  std::vector<NArg> size;
  for (int a = 0; a < 2; ++a) size.push_back(r.chance(0.15) ? None() : I(r.chance(0.05) ? -1 : r.range(0, 5)));
  NArg out = r.chance(0.4) && size[0].kind == NArg::Kind::Int ? size[0] : Tup(size);
  std::vector<int64_t> shape;
  if (r.chance(0.75)) shape.push_back(r.chance(0.1) ? 0 : r.range(1, 2));
  shape.push_back(r.chance(0.1) ? 0 : r.range(1, 3));
  shape.push_back(r.chance(0.06) ? 0 : r.range(1, 6));
  shape.push_back(r.chance(0.06) ? 0 : r.range(1, 6));
  if (r.chance(0.04)) shape.erase(shape.begin());
  if (r.chance(0.04)) shape.insert(shape.begin(), 1);
  NCase c;
  if (module) {
    c.init.args = {out};
    c.call.args = {T(shape)};
  } else {
    c.call.args = {T(shape), out};
  }
  return c;
}

}  // namespace

std::vector<NSuite> pool_suites() {
  std::vector<NSuite> out;
  out.push_back({"nn.MaxPool2d", "torch.nn.MaxPool2d", [](Rng& r) { return pool_case(r, true, true); }});
  out.push_back({"nn.AvgPool2d", "torch.nn.AvgPool2d", [](Rng& r) { return pool_case(r, false, true); }});
  out.push_back({"F.max_pool2d", "torch.nn.functional.max_pool2d", [](Rng& r) { return pool_case(r, true, false); }});
  out.push_back({"F.avg_pool2d", "torch.nn.functional.avg_pool2d", [](Rng& r) { return pool_case(r, false, false); }});
  out.push_back({"nn.AdaptiveAvgPool2d", "torch.nn.AdaptiveAvgPool2d", [](Rng& r) { return adaptive_case(r, true); }});
  out.push_back({"F.adaptive_avg_pool2d", "torch.nn.functional.adaptive_avg_pool2d",
                 [](Rng& r) { return adaptive_case(r, false); }});
  return out;
}

}  // namespace gshape::oracle::nn
