// Oracle generators for normalisation: channel counts off by one, one value
// per channel in training mode, normalized shapes that do not end the
// input, groups that do not divide the channels, wrong ranks.
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

std::vector<int64_t> shape_of_rank(Rng& r, int64_t rank, int64_t channels) {
  std::vector<int64_t> s;
  for (int64_t i = 0; i < rank; ++i) s.push_back(r.chance(0.3) ? 1 : r.range(2, 3));
  if (rank >= 2) s[1] = channels;
  if (!s.empty() && r.chance(0.05)) s[0] = 0;
  return s;
}

NCase batch_norm_module(Rng& r, int dims) {
  int64_t features = r.chance(0.04) ? -1 : r.range(1, 4);
  NCase c;
  c.init.args = {I(features)};
  if (r.chance(0.15)) c.init.kwargs.emplace_back("affine", B(false));
  if (r.chance(0.15)) c.init.kwargs.emplace_back("track_running_stats", B(false));
  int64_t rank = dims == 1 ? (r.chance(0.5) ? 2 : 3) : 4;
  if (r.chance(0.06)) rank += r.chance(0.5) ? 1 : -1;
  c.call.args = {T(shape_of_rank(r, rank, std::max<int64_t>(r.near(features, 0.1), 0)))};
  return c;
}

// Instance norm: one sample or a batch, channels near num_features, empty
// batches and axes, one spatial element, parameters and running statistics.
NCase instance_norm_module(Rng& r, int dims) {
  int64_t features = r.chance(0.04) ? -1 : r.range(0, 4);
  NCase c;
  c.init.args = {I(features)};
  if (r.chance(0.4)) c.init.kwargs.emplace_back("affine", B(true));
  if (r.chance(0.3)) c.init.kwargs.emplace_back("track_running_stats", B(true));
  int64_t rank = dims + (r.chance(0.3) ? 1 : 2);
  if (r.chance(0.06)) rank += r.chance(0.5) ? 1 : -1;
  std::vector<int64_t> s;
  for (int64_t i = 0; i < rank; ++i) s.push_back(r.chance(0.3) ? 1 : r.range(2, 3));
  int64_t channel = rank == dims + 1 ? 0 : 1;
  if (rank >= 2) s[static_cast<std::size_t>(channel)] = std::max<int64_t>(r.near(features, 0.15), 0);
  if (!s.empty() && r.chance(0.08)) s[static_cast<std::size_t>(r.range(0, rank - 1))] = 0;
  c.call.args = {T(s)};
  return c;
}

NCase f_batch_norm(Rng& r) {
  int64_t rank = r.chance(0.05) ? 1 : r.range(2, 4);
  int64_t ch = r.range(1, 4);
  std::vector<int64_t> x = shape_of_rank(r, rank, ch);
  bool training = r.chance(0.5);
  auto stat = [&]() { return r.chance(training ? 0.3 : 0.05) ? None() : T({r.near(ch, 0.08)}); };
  NCase c;
  c.call.args = {T(x), stat(), stat()};
  if (r.chance(0.4)) c.call.kwargs.emplace_back("weight", T({r.near(ch, 0.08)}));
  if (r.chance(0.4)) c.call.kwargs.emplace_back("bias", T({r.near(ch, 0.08)}));
  c.call.kwargs.emplace_back("training", B(training));
  return c;
}

// A normalized_shape that is usually the input's tail.
std::vector<int64_t> tail_of(Rng& r, const std::vector<int64_t>& x) {
  int64_t k = r.range(x.empty() ? 0 : 1, std::max<int64_t>(1, static_cast<int64_t>(x.size())));
  if (r.chance(0.04)) k = 0;
  std::vector<int64_t> tail;
  for (int64_t i = 0; i < k; ++i) {
    int64_t j = static_cast<int64_t>(x.size()) - k + i;
    tail.push_back(j >= 0 ? x[static_cast<std::size_t>(j)] : r.range(1, 3));
  }
  if (!tail.empty() && r.chance(0.15)) tail[static_cast<std::size_t>(r.range(0, k - 1))] += 1;
  return tail;
}

NArg shape_arg(Rng& r, const std::vector<int64_t>& s) {
  if (s.size() == 1 && r.chance(0.5)) return I(s[0]);
  return Ints(s);
}

NCase layer_norm(Rng& r, bool module) {
  std::vector<int64_t> x;
  int64_t rank = r.range(1, 4);
  for (int64_t i = 0; i < rank; ++i) x.push_back(r.chance(0.1) ? 0 : r.range(1, 4));
  std::vector<int64_t> tail = tail_of(r, x);
  NCase c;
  if (module) {
    c.init.args = {shape_arg(r, tail)};
    if (r.chance(0.2)) c.init.kwargs.emplace_back("elementwise_affine", B(false));
    c.call.args = {T(x)};
  } else {
    c.call.args = {T(x), r.chance(0.1) ? shape_arg(r, tail) : Ints(tail)};  // an int is a TypeError here
    if (r.chance(0.4)) c.call.args.push_back(T(r.chance(0.85) ? tail : tail_of(r, x)));
  }
  return c;
}

NCase group_norm(Rng& r, bool module) {
  int64_t groups = r.chance(0.04) ? r.range(-2, 0) : r.range(1, 3);
  int64_t channels = std::max<int64_t>(groups, 1) * r.range(1, 3);
  if (r.chance(0.08)) channels += 1;
  int64_t rank = r.chance(0.05) ? 1 : r.range(2, 4);
  std::vector<int64_t> x = shape_of_rank(r, rank, r.near(channels, 0.08));
  NCase c;
  if (module) {
    c.init.args = {I(groups), I(channels)};
    if (r.chance(0.2)) c.init.kwargs.emplace_back("affine", B(false));
    c.call.args = {T(x)};
  } else {
    c.call.args = {T(x), I(groups)};
    if (r.chance(0.5)) c.call.args.push_back(T({r.near(channels, 0.1)}));
  }
  return c;
}

}  // namespace

std::vector<NSuite> norm_suites() {
  std::vector<NSuite> out;
  out.push_back({"nn.BatchNorm1d", "torch.nn.BatchNorm1d", [](Rng& r) { return batch_norm_module(r, 1); }});
  out.push_back({"nn.BatchNorm2d", "torch.nn.BatchNorm2d", [](Rng& r) { return batch_norm_module(r, 2); }});
  out.push_back({"F.batch_norm", "torch.nn.functional.batch_norm", f_batch_norm});
  for (int dims : {1, 2, 3}) {
    const std::string n = std::to_string(dims);
    out.push_back({"nn.InstanceNorm" + n + "d", "torch.nn.InstanceNorm" + n + "d",
                   [dims](Rng& r) { return instance_norm_module(r, dims); }});
  }
  out.push_back({"nn.LayerNorm", "torch.nn.LayerNorm", [](Rng& r) { return layer_norm(r, true); }});
  out.push_back({"F.layer_norm", "torch.nn.functional.layer_norm", [](Rng& r) { return layer_norm(r, false); }});
  out.push_back({"nn.GroupNorm", "torch.nn.GroupNorm", [](Rng& r) { return group_norm(r, true); }});
  out.push_back({"F.group_norm", "torch.nn.functional.group_norm", [](Rng& r) { return group_norm(r, false); }});
  return out;
}

}  // namespace gshape::oracle::nn
