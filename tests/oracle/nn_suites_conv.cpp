// Oracle generators for the convolutions: modules and functional forms, with
// hyperparameters and inputs near every boundary (groups not dividing, a
// channel off by one, the kernel one larger than the padded input, zero or
// negative stride/padding/dilation, output_padding not below stride or
// dilation, wrong ranks, unbatched inputs); unfold and fold (sliding
// blocks: kernels larger than the padded input, block counts off by one).
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

// An int, or sometimes the same per axis as a tuple of n.
NArg int_or_tuple(Rng& r, const std::vector<int64_t>& per_axis) {
  bool same = true;
  for (int64_t v : per_axis) same = same && v == per_axis[0];
  if (same && r.chance(0.6)) return I(per_axis[0]);
  return Ints(per_axis);
}

struct ConvDraw {
  int64_t groups, in, out;
  std::vector<int64_t> kernel, stride, padding, dilation, output_padding;
  bool same = false, valid = false;
};

ConvDraw draw(Rng& r, std::size_t n, bool transposed) {
  ConvDraw d;
  d.groups = r.chance(0.7) ? 1 : (r.chance(0.93) ? r.range(2, 3) : r.range(-1, 0));
  int64_t g = std::max<int64_t>(d.groups, 1);
  d.in = g * r.range(1, 3);
  d.out = g * r.range(1, 3);
  if (r.chance(0.04)) d.in += 1;
  if (r.chance(0.04)) d.out += 1;
  if (r.chance(0.02)) d.out = 0;
  if (r.chance(0.03)) d.in = r.chance(0.7) ? 0 : -1;
  for (std::size_t a = 0; a < n; ++a) {
    d.kernel.push_back(r.chance(0.02) ? r.range(-1, 0) : r.range(1, 4));
    d.stride.push_back(r.chance(0.02) ? 0 : r.range(1, 3));
    d.padding.push_back(r.chance(0.02) ? -1 : r.range(0, 2));
    d.dilation.push_back(r.chance(0.02) ? 0 : (r.chance(0.75) ? 1 : 2));
    int64_t s = d.stride.back(), dl = d.dilation.back();
    d.output_padding.push_back(r.chance(0.75) ? 0 : r.range(0, std::max(s, dl)));
  }
  if (!transposed && r.chance(0.12)) {
    (r.chance(0.5) ? d.same : d.valid) = true;
    if (d.same && r.chance(0.7)) d.stride.assign(n, 1);
  }
  return d;
}

// An input near the kernel boundary: spatial sizes around the smallest that
// fits (input + 2p == dilated kernel), channels usually right.
NArg input_for(Rng& r, const ConvDraw& d, std::size_t n, bool transposed) {
  std::vector<int64_t> shape;
  bool batched = r.chance(0.75);
  if (batched) shape.push_back(r.chance(0.1) ? 0 : r.range(1, 2));
  int64_t channels = d.in;
  shape.push_back(r.chance(0.06) ? std::max<int64_t>(0, channels + (r.chance(0.5) ? 1 : -1)) : std::max<int64_t>(channels, 0));
  for (std::size_t a = 0; a < n; ++a) {
    int64_t extent = d.dilation[a] * (d.kernel[a] - 1) + 1;
    int64_t fit = extent - 2 * (d.same || d.valid ? 0 : d.padding[a]);
    int64_t size = std::max<int64_t>(0, fit + (r.chance(0.1) ? -1 : r.range(0, 3)));
    if (transposed) size = r.chance(0.05) ? 0 : r.range(1, 4);
    shape.push_back(size);
  }
  if (r.chance(0.03)) shape.push_back(2);  // a rank too many
  if (r.chance(0.03) && shape.size() > 1) shape.erase(shape.begin());
  return T(shape);
}

NCase module_case(Rng& r, std::size_t n, bool transposed) {
  ConvDraw d = draw(r, n, transposed);
  NCase c;
  c.init.args = {I(d.in), I(d.out), int_or_tuple(r, d.kernel)};
  if (r.chance(0.6) || d.stride[0] != 1) c.init.kwargs.emplace_back("stride", int_or_tuple(r, d.stride));
  if (d.same) {
    c.init.kwargs.emplace_back("padding", S("same"));
  } else if (d.valid) {
    c.init.kwargs.emplace_back("padding", S("valid"));
  } else {
    c.init.kwargs.emplace_back("padding", int_or_tuple(r, d.padding));
  }
  if (transposed) c.init.kwargs.emplace_back("output_padding", int_or_tuple(r, d.output_padding));
  c.init.kwargs.emplace_back("dilation", int_or_tuple(r, d.dilation));
  if (d.groups != 1 || r.chance(0.2)) c.init.kwargs.emplace_back("groups", I(d.groups));
  if (r.chance(0.2)) c.init.kwargs.emplace_back("bias", B(false));
  c.call.args = {input_for(r, d, n, transposed)};
  return c;
}

NCase functional_case(Rng& r, std::size_t n, bool transposed) {
  ConvDraw d = draw(r, n, transposed);
  NCase c;
  int64_t g = std::max<int64_t>(d.groups, 1);
  std::vector<int64_t> w = transposed ? std::vector<int64_t>{d.in, std::max<int64_t>(d.out / g, 0)}
                                      : std::vector<int64_t>{std::max<int64_t>(d.out, 0), std::max<int64_t>(d.in / g, 0)};
  for (int64_t k : d.kernel) w.push_back(std::max<int64_t>(k, 0));
  if (r.chance(0.05)) w.pop_back();  // a weight of the wrong rank
  NArg bias = None();
  if (r.chance(0.5)) {
    int64_t b = transposed ? (w.size() > 1 ? w[1] * g : 1) : w[0];
    bias = r.chance(0.85) ? T({r.near(b, 0.1)}) : T({b, 1});
  }
  c.call.args = {input_for(r, d, n, transposed), T(w), bias};
  c.call.kwargs.emplace_back("stride", int_or_tuple(r, d.stride));
  if (d.same) {
    c.call.kwargs.emplace_back("padding", S("same"));
  } else if (d.valid) {
    c.call.kwargs.emplace_back("padding", S("valid"));
  } else {
    c.call.kwargs.emplace_back("padding", int_or_tuple(r, d.padding));
  }
  if (transposed) c.call.kwargs.emplace_back("output_padding", int_or_tuple(r, d.output_padding));
  c.call.kwargs.emplace_back("dilation", int_or_tuple(r, d.dilation));
  c.call.kwargs.emplace_back("groups", I(d.groups));
  return c;
}

}  // namespace

// An int or a pair (now and then of another length), near the bounds:
// zero and negative now and then, `low` its smallest valid value.
NArg block_param(Rng& r, int64_t low) {
  auto value = [&] { return r.chance(0.06) ? r.range(low - 2, low - 1) : r.range(low, low + 2); };
  if (r.chance(0.4)) return I(value());
  std::vector<NArg> items{I(value()), I(value())};
  if (r.chance(0.04)) items.push_back(I(value()));
  return Tup(items);
}

// F.unfold / nn.Unfold: 3-d or 4-d inputs (2-d and 5-d now and then),
// empty axes, kernels larger than the padded input.
NCase unfold_case(Rng& r, bool module) {
  int64_t rank = r.chance(0.06) ? r.pick(std::vector<int64_t>{2, 5}) : r.range(3, 4);
  std::vector<int64_t> x(static_cast<std::size_t>(rank));
  for (auto& d : x) d = r.chance(0.05) ? 0 : r.range(1, 7);
  NCall params;
  params.args.push_back(block_param(r, 1));
  if (r.chance(0.5)) params.kwargs.emplace_back("dilation", block_param(r, 1));
  if (r.chance(0.5)) params.kwargs.emplace_back("padding", block_param(r, 0));
  if (r.chance(0.5)) params.kwargs.emplace_back("stride", block_param(r, 1));
  NCase c;
  if (module) {
    c.init = params;
    c.call.args = {T(x)};
  } else {
    c.call = params;
    c.call.args.insert(c.call.args.begin(), T(x));
  }
  return c;
}

// F.fold / nn.Fold: the columns of an unfold of the output size, or a
// near miss (a column count not divisible by kh*kw, a block count off by
// one), 2-d and 3-d inputs.
NCase fold_case(Rng& r, bool module) {
  int64_t kh = r.chance(0.05) ? 0 : r.range(1, 3), kw = r.range(1, 3);
  int64_t oh = r.range(1, 6), ow = r.range(1, 6);
  int64_t stride = r.range(1, 2), padding = r.range(0, 1);
  auto blocks = [&](int64_t o, int64_t k) { return k > 0 ? (o + 2 * padding - k) / stride + 1 : 1; };
  int64_t columns = std::max<int64_t>(kh, 1) * kw * r.range(0, 2) + (r.chance(0.15) ? 1 : 0);
  int64_t length = std::max<int64_t>(blocks(oh, kh), 0) * std::max<int64_t>(blocks(ow, kw), 0) + (r.chance(0.15) ? r.range(-1, 1) : 0);
  std::vector<int64_t> x = {columns, std::max<int64_t>(length, 0)};
  if (r.chance(0.7)) x.insert(x.begin(), r.chance(0.05) ? 0 : r.range(1, 2));
  if (r.chance(0.04)) x.push_back(1);
  NCall params;
  params.args = {Tup({I(oh), I(ow)}), Tup({I(kh), I(kw)})};
  params.kwargs.emplace_back("padding", I(padding));
  params.kwargs.emplace_back("stride", I(stride));
  NCase c;
  if (module) {
    c.init = params;
    c.call.args = {T(x)};
  } else {
    c.call = params;
    c.call.args.insert(c.call.args.begin(), T(x));
  }
  return c;
}

std::vector<NSuite> conv_suites() {
  std::vector<NSuite> out;
  out.push_back({"nn.Conv1d", "torch.nn.Conv1d", [](Rng& r) { return module_case(r, 1, false); }});
  out.push_back({"nn.Conv2d", "torch.nn.Conv2d", [](Rng& r) { return module_case(r, 2, false); }});
  // ConvTranspose2d(...)(input, output_size) now and then: sizes near the reachable range
  out.push_back({"nn.ConvTranspose2d", "torch.nn.ConvTranspose2d", [](Rng& r) {
                   NCase c = module_case(r, 2, true);
                   if (r.chance(0.7)) return c;
                   const NArg& x = c.call.args[0];
                   std::vector<int64_t> want;
                   for (std::size_t a = x.shape.size() >= 2 ? x.shape.size() - 2 : 0; a < x.shape.size(); ++a)
                     want.push_back(2 * x.shape[a] + r.range(-1, 2));
                   c.call.kwargs.emplace_back("output_size", Ints(want));
                   return c;
                 }});
  out.push_back({"nn.Unfold", "torch.nn.Unfold", [](Rng& r) { return unfold_case(r, true); }});
  out.push_back({"F.unfold", "torch.nn.functional.unfold", [](Rng& r) { return unfold_case(r, false); }});
  out.push_back({"nn.Fold", "torch.nn.Fold", [](Rng& r) { return fold_case(r, true); }});
  out.push_back({"F.fold", "torch.nn.functional.fold", [](Rng& r) { return fold_case(r, false); }});
  out.push_back({"F.conv1d", "torch.nn.functional.conv1d", [](Rng& r) { return functional_case(r, 1, false); }});
  out.push_back({"F.conv2d", "torch.nn.functional.conv2d", [](Rng& r) { return functional_case(r, 2, false); }});
  out.push_back({"F.conv_transpose2d", "torch.nn.functional.conv_transpose2d",
                 [](Rng& r) { return functional_case(r, 2, true); }});
  return out;
}

}  // namespace gshape::oracle::nn
