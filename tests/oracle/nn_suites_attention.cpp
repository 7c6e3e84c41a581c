// Oracle generator for nn.MultiheadAttention: batched and unbatched
// queries, batch_first, kdim/vdim, add_bias_kv, add_zero_attn, masks,
// need_weights and average_attn_weights, with an embedding off by one, a
// key batch that differs, heads that do not divide embed_dim, wrong ranks.
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

std::vector<int64_t> operand(Rng& r, bool batched, bool batch_first, int64_t seq, int64_t batch, int64_t features) {
  std::vector<int64_t> s;
  if (!batched) {
    s = {seq};
  } else {
    s = batch_first ? std::vector<int64_t>{batch, seq} : std::vector<int64_t>{seq, batch};
  }
  s.push_back(std::max<int64_t>(r.near(features, 0.05), 0));
  return s;
}

NCase mha(Rng& r) {
  int64_t heads = r.chance(0.04) ? r.range(-2, 0) : r.range(1, 3);
  int64_t e = std::max<int64_t>(std::abs(heads), 1) * r.range(1, 3);
  if (r.chance(0.06)) e += 1;
  if (r.chance(0.02)) e = 0;
  bool separate = r.chance(0.3);
  int64_t kdim = separate ? r.range(1, 4) : e, vdim = separate ? r.range(1, 4) : e;
  bool batch_first = r.chance(0.4), bias_kv = r.chance(0.15), zero_attn = r.chance(0.15);
  NCase c;
  c.init.args = {I(e), I(heads)};
  if (separate) {
    c.init.kwargs.emplace_back("kdim", I(kdim));
    c.init.kwargs.emplace_back("vdim", I(vdim));
  }
  if (batch_first) c.init.kwargs.emplace_back("batch_first", B(true));
  if (bias_kv) c.init.kwargs.emplace_back("add_bias_kv", B(true));
  if (zero_attn) c.init.kwargs.emplace_back("add_zero_attn", B(true));
  if (r.chance(0.05)) c.init.kwargs.emplace_back("dropout", F(1.5));

  bool batched = r.chance(0.7);
  int64_t l = r.chance(0.05) ? 0 : r.range(1, 3), s = r.chance(0.05) ? 0 : r.range(1, 3);
  int64_t n = r.chance(0.05) ? 0 : r.range(1, 3);
  int64_t nk = r.chance(0.06) ? n + 1 : n;
  std::vector<int64_t> q = operand(r, batched, batch_first, l, n, e);
  std::vector<int64_t> k = operand(r, batched, batch_first, s, nk, kdim);
  std::vector<int64_t> v = operand(r, batched, batch_first, r.near(s, 0.05), nk, vdim);
  if (r.chance(0.04)) q.insert(q.begin(), 2);
  if (r.chance(0.03)) k.erase(k.begin());
  c.call.args = {T(q), T(k), T(v)};
  if (r.chance(0.15)) {
    std::vector<int64_t> m = batched ? std::vector<int64_t>{n, s} : std::vector<int64_t>{s};
    if (r.chance(0.15)) m.back() += 1;
    c.call.kwargs.emplace_back("key_padding_mask", BT(m));
  }
  if (r.chance(0.15)) {
    std::vector<int64_t> m = r.chance(0.6) ? std::vector<int64_t>{l, s}
                                           : std::vector<int64_t>{(batched ? n : 1) * std::max<int64_t>(heads, 1), l, s};
    if (r.chance(0.15)) m.back() += 1;
    c.call.kwargs.emplace_back("attn_mask", BT(m));
  }
  if (r.chance(0.2)) c.call.kwargs.emplace_back("need_weights", B(false));
  if (r.chance(0.25)) c.call.kwargs.emplace_back("average_attn_weights", B(false));
  return c;
}

}  // namespace

std::vector<NSuite> attention_suites() {
  return {{"nn.MultiheadAttention", "torch.nn.MultiheadAttention", mha}};
}

}  // namespace gshape::oracle::nn
