// The suites of the libtorch nn oracle: the nn oracle's generators of the
// functional forms (nn_suites_*.cpp), whose reference here is the ATen
// operator, and generators of its own where the C++ operator's domain is
// narrower than the Python API's: F.linear; the binary cross entropies with
// the target of the input's shape and weights near broadcasting;
// F.interpolate with exactly one of size / scale_factor, of the right
// length, a mode the rank has (the arguments the upsample operators take);
// LSTM, GRU and RNN with valid hyperparameters (their constructors' checks
// are Python). nn.MultiheadAttention and the cells (nn.LSTMCell, GRUCell,
// RNNCell) reuse the nn oracle's generators (the runner redraws what only
// Python checks). No libtorch here.
#include <set>

#include "libtorch_nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

std::vector<int64_t> sizes(Rng& r, int64_t rank, double zero = 0.06) {
  std::vector<int64_t> s(static_cast<std::size_t>(rank));
  for (auto& d : s) d = r.chance(zero) ? 0 : r.range(1, 4);
  return s;
}

// F.linear(input, weight, bias): the input's last axis near in_features,
// weights of rank 1 or 2 (rarely 3), biases of the right length, of 1, of
// another length or of rank 2.
NCase linear(Rng& r) {
  int64_t in = r.chance(0.05) ? 0 : r.range(1, 4), out = r.chance(0.05) ? 0 : r.range(1, 4);
  std::vector<int64_t> x = sizes(r, r.range(0, 4));
  if (!x.empty()) x.back() = r.near(in, 0.15);
  double p = r.real(0, 1);
  std::vector<int64_t> w = p < 0.08 ? std::vector<int64_t>{r.near(in, 0.1)}
                          : p < 0.11 ? std::vector<int64_t>{1, out, in}
                                     : std::vector<int64_t>{out, in};
  NCase c;
  c.call.args = {T(x), T(w)};
  if (r.chance(0.6)) {
    double q = r.real(0, 1);
    std::vector<int64_t> b = q < 0.7 ? std::vector<int64_t>{r.near(out, 0.1)}
                            : q < 0.8 ? std::vector<int64_t>{1}
                            : q < 0.9 ? std::vector<int64_t>{}
                                      : std::vector<int64_t>{r.range(1, 2), out};
    c.call.args.push_back(T(b));
  }
  return c;
}

// F.interpolate as the upsample operators take it: sizes or scale factors
// that reach an output of 0, empty inputs, align_corners on the
// interpolating modes, recompute_scale_factor; rarely a rank the mode does
// not have or a list of the wrong length (Python-only errors).
NCase interpolate(Rng& r) {
  static const std::vector<std::string> modes = {"nearest", "nearest", "nearest-exact", "linear", "bilinear", "bilinear",
                                                 "bicubic", "trilinear"};
  std::string mode = r.pick(modes);
  int64_t rank = mode == "linear" ? 3 : mode == "trilinear" ? 5 : (mode == "bilinear" || mode == "bicubic") ? 4 : r.range(3, 5);
  if (r.chance(0.04)) rank += r.chance(0.5) ? 1 : -1;
  std::vector<int64_t> x = sizes(r, rank, 0.05);
  if (r.chance(0.06)) x[0] = 0;
  std::size_t n = static_cast<std::size_t>(std::max<int64_t>(rank - 2, 0));
  if (r.chance(0.03)) n += 1;
  NCase c;
  c.call.args = {T(x)};
  bool by_size = r.chance(0.5);
  if (by_size) {
    std::vector<int64_t> out(n);
    for (auto& v : out) v = r.chance(0.06) ? 0 : r.range(1, 6);
    c.call.kwargs.emplace_back("size", r.chance(0.3) && !out.empty() ? I(out[0]) : Ints(out));
  } else {
    static const std::vector<double> factors = {0.5, 1.5, 2.0, 0.3, 2.7, 0.2};
    std::vector<NArg> scales;
    for (std::size_t i = 0; i < n; ++i) scales.push_back(r.chance(0.4) ? I(r.range(1, 3)) : F(r.pick(factors)));
    c.call.kwargs.emplace_back("scale_factor", r.chance(0.4) && !scales.empty() ? scales[0] : Tup(scales));
    if (r.chance(0.15)) c.call.kwargs.emplace_back("recompute_scale_factor", B(true));
  }
  c.call.kwargs.emplace_back("mode", S(mode));
  bool interpolating = mode == "linear" || mode == "bilinear" || mode == "bicubic" || mode == "trilinear";
  if (interpolating && r.chance(0.4)) c.call.kwargs.emplace_back("align_corners", B(r.chance(0.5)));
  return c;
}

// binary_cross_entropy(_with_logits) with the target of the input's shape
// (another size is the Python wrapper's ValueError), and weights and
// pos_weights that broadcast, enlarge the result or do not broadcast.
NCase binary(Rng& r, bool logits) {
  std::vector<int64_t> x = sizes(r, r.range(0, 3), 0.05);
  auto broadcastish = [&]() {
    std::vector<int64_t> w;
    for (std::size_t i = x.size() - static_cast<std::size_t>(r.range(0, static_cast<int64_t>(x.size()))); i < x.size(); ++i)
      w.push_back(r.chance(0.4) ? 1 : x[i]);
    if (r.chance(0.15)) w.insert(w.begin(), 2);
    if (!w.empty() && r.chance(0.2)) w.back() += 1;
    return T(w);
  };
  NCase c;
  c.call.args = {T(x), T(r.chance(0.03) ? std::vector<int64_t>{7} : x)};
  if (r.chance(0.5)) c.call.kwargs.emplace_back("weight", broadcastish());
  if (logits && r.chance(0.5)) c.call.kwargs.emplace_back("pos_weight", broadcastish());
  c.call.kwargs.emplace_back("reduction", S(r.pick(std::vector<std::string>{"none", "mean", "sum"})));
  return c;
}

// batch < 0: an unbatched state.
NArg state(Rng& r, int64_t stack, int64_t batch, int64_t last) {
  std::vector<int64_t> s{r.near(stack, 0.04)};
  if (batch >= 0) s.push_back(r.near(batch, 0.04));
  s.push_back(std::max<int64_t>(r.near(last, 0.04), 0));
  return T(s);
}

// LSTM/GRU/RNN with valid hyperparameters; inputs with the feature size off
// by one, empty sequences and batches, hidden states given or not.
NCase recurrent(Rng& r, const std::string& kind) {
  int64_t in = r.range(1, 4), hidden = r.range(1, 4), layers = r.range(1, 2);
  bool batch_first = r.chance(0.4), bidirectional = r.chance(0.4);
  int64_t proj = 0;
  NCase c;
  c.init.args = {I(in), I(hidden)};
  if (layers != 1 || r.chance(0.3)) c.init.kwargs.emplace_back("num_layers", I(layers));
  if (batch_first) c.init.kwargs.emplace_back("batch_first", B(true));
  if (bidirectional) c.init.kwargs.emplace_back("bidirectional", B(true));
  if (r.chance(0.15)) c.init.kwargs.emplace_back("bias", B(false));
  if (layers > 1 && r.chance(0.3)) c.init.kwargs.emplace_back("dropout", F(0.3));
  if (kind == "LSTM" && hidden > 1 && r.chance(0.35)) {
    proj = r.range(1, hidden - 1);
    c.init.kwargs.emplace_back("proj_size", I(proj));
  }
  if (kind == "RNN" && r.chance(0.4)) c.init.kwargs.emplace_back("nonlinearity", S("relu"));

  bool batched = r.chance(0.7);
  int64_t steps = r.chance(0.08) ? 0 : r.range(1, 3), batch = r.chance(0.08) ? 0 : r.range(1, 3);
  std::vector<int64_t> x;
  if (batched) x = batch_first ? std::vector<int64_t>{batch, steps} : std::vector<int64_t>{steps, batch};
  else x = {steps};
  x.push_back(r.chance(0.04) ? 0 : r.near(in, 0.15));
  if (r.chance(0.03)) x.insert(x.begin(), 2);
  c.call.args = {T(x)};
  if (r.chance(0.5)) {
    int64_t stack = layers * (bidirectional ? 2 : 1);
    int64_t b = batched ? batch : -1;
    if (kind == "LSTM") {
      c.call.args.push_back(Tup({state(r, stack, b, proj > 0 ? proj : hidden), state(r, stack, b, hidden)}));
    } else {
      c.call.args.push_back(state(r, stack, b, hidden));
    }
  }
  return c;
}

}  // namespace

std::vector<NSuite> aten_suites() {
  // the nn oracle's functional suites the ATen operator is the reference of
  static const std::set<std::string> reused = {
      "F.conv1d",      "F.conv2d",       "F.conv_transpose2d", "F.max_pool2d",    "F.avg_pool2d",
      "F.adaptive_avg_pool2d", "F.batch_norm", "F.layer_norm", "F.group_norm",    "F.prelu",
      "F.bilinear",    "F.embedding",    "F.pixel_shuffle",    "F.pad",           "F.cross_entropy",
      "F.nll_loss",    "F.mse_loss",     "F.l1_loss",          "F.smooth_l1_loss", "F.huber_loss",
      "F.kl_div",      "nn.MultiheadAttention", "nn.LSTMCell", "nn.GRUCell", "nn.RNNCell"};
  std::vector<NSuite> out;
  for (auto family : {conv_suites, pool_suites, norm_suites, layer_suites, resample_suites, recurrent_suites, loss_suites,
                      attention_suites}) {
    for (NSuite& s : family())
      if (reused.count(s.target)) out.push_back(std::move(s));
  }
  out.push_back({"F.linear", "torch.nn.functional.linear", linear});
  out.push_back({"F.binary_cross_entropy", "torch.nn.functional.binary_cross_entropy", [](Rng& r) { return binary(r, false); }});
  out.push_back({"F.binary_cross_entropy_with_logits", "torch.nn.functional.binary_cross_entropy_with_logits",
                 [](Rng& r) { return binary(r, true); }});
  out.push_back({"F.interpolate", "torch.nn.functional.interpolate", interpolate});
  for (const char* kind : {"LSTM", "GRU", "RNN"}) {
    std::string k = kind;
    out.push_back({"nn." + k, "torch.nn." + k, [k](Rng& r) { return recurrent(r, k); }});
  }
  return out;
}

}  // namespace gshape::oracle::nn
