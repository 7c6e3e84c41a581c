// Oracle generators for the small modules: activations (shape-preserving;
// Hardtanh's and PReLU's checks), Dropout's probability, Softmax's dim,
// Flatten's dims, Bilinear's features, Embedding's table and padding_idx.
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

std::vector<int64_t> any_shape(Rng& r, int64_t lo, int64_t hi) {
  std::vector<int64_t> s(static_cast<std::size_t>(r.range(lo, hi)));
  for (auto& d : s) d = r.chance(0.08) ? 0 : r.range(1, 4);
  return s;
}

NCase activation(Rng& r) {
  NCase c;
  if (r.chance(0.3)) c.init.kwargs.emplace_back("inplace", B(r.chance(0.5)));
  c.call.args = {T(any_shape(r, 0, 4))};
  return c;
}

NCase plain(Rng& r) {
  NCase c;
  c.call.args = {T(any_shape(r, 0, 4))};
  return c;
}

NCase hardtanh(Rng& r) {
  NCase c;
  double lo = r.real(-2, 1), hi = r.chance(0.85) ? lo + r.real(0.1, 2) : lo - r.real(0, 1);
  c.init.args = {F(lo), F(hi)};
  c.call.args = {T(any_shape(r, 0, 3))};
  return c;
}

NCase prelu(Rng& r, bool module) {
  int64_t n = r.chance(0.4) ? 1 : r.range(2, 4);
  std::vector<int64_t> x = any_shape(r, 0, 4);
  if (x.size() >= 2 && r.chance(0.7)) x[1] = r.near(n, 0.1);
  NCase c;
  if (module) {
    c.init.args = {I(n)};
    c.call.args = {T(x)};
  } else {
    c.call.args = {T(x), T({n})};
  }
  return c;
}

NCase dropout(Rng& r) {
  NCase c;
  c.init.args = {F(r.chance(0.85) ? r.real(0, 1) : (r.chance(0.5) ? r.real(1.01, 2) : -r.real(0.01, 1)))};
  c.call.args = {T(any_shape(r, 0, 4))};
  return c;
}

NCase dropout2d(Rng& r) {
  NCase c;
  c.init.args = {F(r.chance(0.85) ? r.real(0, 1) : r.real(1.01, 2))};
  c.call.args = {T(any_shape(r, 3, 4))};  // the ranks feature dropout is defined for
  return c;
}

NCase softmax(Rng& r) {
  std::vector<int64_t> x = any_shape(r, 0, 4);
  int64_t rank = static_cast<int64_t>(x.size()), b = std::max<int64_t>(rank, 1);
  NCase c;
  if (r.chance(0.2)) {
    c.init.args = {None()};
  } else {
    c.init.args = {I(r.chance(0.85) ? r.range(-b, b - 1) : (r.chance(0.5) ? b : -b - 1))};
  }
  c.call.args = {T(x)};
  return c;
}

NCase flatten(Rng& r) {
  std::vector<int64_t> x = any_shape(r, 0, 4);
  int64_t b = std::max<int64_t>(static_cast<int64_t>(x.size()), 1);
  NCase c;
  if (r.chance(0.7)) {
    c.init.kwargs.emplace_back("start_dim", I(r.range(-b, b)));
    c.init.kwargs.emplace_back("end_dim", I(r.range(-b, b)));
  }
  c.call.args = {T(x)};
  return c;
}

NCase bilinear(Rng& r, bool module) {
  int64_t in1 = r.chance(0.04) ? 0 : r.range(1, 3), in2 = r.chance(0.04) ? 0 : r.range(1, 3), out = r.range(0, 3);
  std::vector<int64_t> lead = any_shape(r, 0, 2);
  std::vector<int64_t> a = lead, b = lead;
  a.push_back(r.near(in1, 0.08));
  b.push_back(r.near(in2, 0.08));
  if (!lead.empty() && r.chance(0.08)) b[0] += 1;
  if (r.chance(0.05)) b.insert(b.begin(), 2);
  if (r.chance(0.03)) a.clear();
  NCase c;
  if (module) {
    c.init.args = {I(in1), I(in2), I(out)};
    if (r.chance(0.2)) c.init.kwargs.emplace_back("bias", B(false));
    c.call.args = {T(a), T(b)};
  } else {
    c.call.args = {T(a), T(b), T({out, in1, in2})};
    if (r.chance(0.5)) c.call.args.push_back(T({r.near(out, 0.1)}));
  }
  return c;
}

NCase embedding(Rng& r, bool module) {
  int64_t n = r.chance(0.1) ? 0 : r.range(1, 5), d = r.range(0, 4);
  if (r.chance(0.03)) n = -1;
  NArg pad = None();
  if (r.chance(0.3)) pad = I(r.range(-n - 1, n));
  NCase c;
  NArg idx = LT(any_shape(r, 0, 3));
  if (module) {
    c.init.args = {I(n), I(d)};
    if (pad.kind != NArg::Kind::None) c.init.kwargs.emplace_back("padding_idx", pad);
    c.call.args = {idx};
  } else {
    c.call.args = {idx, r.chance(0.95) ? T({std::max<int64_t>(n, 0), d}) : T({std::max<int64_t>(n, 0)})};
    if (pad.kind != NArg::Kind::None) c.call.kwargs.emplace_back("padding_idx", pad);
  }
  return c;
}

}  // namespace

std::vector<NSuite> layer_suites() {
  std::vector<NSuite> out;
  for (const char* name : {"ReLU", "ReLU6", "GELU", "Tanh", "Sigmoid", "LeakyReLU", "ELU", "SELU", "CELU", "SiLU", "Mish",
                           "Softplus", "Softsign", "Hardswish", "Hardsigmoid", "LogSigmoid", "Tanhshrink", "Softshrink",
                           "Hardshrink", "Identity"}) {
    std::string n = name;
    bool inplace = n == "ReLU" || n == "ReLU6" || n == "LeakyReLU" || n == "ELU" || n == "SELU" || n == "CELU" ||
                   n == "SiLU" || n == "Mish" || n == "Hardswish" || n == "Hardsigmoid";
    NSuite s{"nn." + n, "torch.nn." + n, inplace ? activation : plain};
    s.can_fail = false;
    out.push_back(s);
  }
  out.push_back({"nn.Hardtanh", "torch.nn.Hardtanh", hardtanh});
  out.push_back({"nn.PReLU", "torch.nn.PReLU", [](Rng& r) { return prelu(r, true); }});
  out.push_back({"F.prelu", "torch.nn.functional.prelu", [](Rng& r) { return prelu(r, false); }});
  out.push_back({"nn.Dropout", "torch.nn.Dropout", dropout});
  out.push_back({"nn.Dropout2d", "torch.nn.Dropout2d", dropout2d});
  out.push_back({"nn.Softmax", "torch.nn.Softmax", softmax});
  out.push_back({"nn.LogSoftmax", "torch.nn.LogSoftmax", softmax});
  out.push_back({"nn.Flatten", "torch.nn.Flatten", flatten});
  out.push_back({"nn.Bilinear", "torch.nn.Bilinear", [](Rng& r) { return bilinear(r, true); }});
  out.push_back({"F.bilinear", "torch.nn.functional.bilinear", [](Rng& r) { return bilinear(r, false); }});
  out.push_back({"nn.Embedding", "torch.nn.Embedding", [](Rng& r) { return embedding(r, true); }});
  out.push_back({"F.embedding", "torch.nn.functional.embedding", [](Rng& r) { return embedding(r, false); }});
  return out;
}

}  // namespace gshape::oracle::nn
