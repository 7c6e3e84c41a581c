// Oracle generators for LSTM, GRU and RNN: batched and unbatched inputs,
// batch_first, bidirectional, several layers, LSTM's proj_size, hidden
// states given or not, with sizes off by one, wrong ranks, empty sequences
// and invalid hyperparameters (proj_size >= hidden_size, num_layers 0,
// dropout out of range, an unknown nonlinearity). The cells LSTMCell,
// GRUCell, RNNCell: batched and unbatched inputs, hidden states of the
// wrong batch, size or rank, LSTMCell's hx of one or three tensors,
// negative sizes, an unknown nonlinearity.
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

// batch < 0: an unbatched state.
NArg state(Rng& r, int64_t stack, int64_t batch, int64_t last) {
  std::vector<int64_t> s{r.near(stack, 0.05)};
  if (batch >= 0) s.push_back(r.near(batch, 0.05));
  s.push_back(r.near(last, 0.05));
  if (r.chance(0.03)) s.insert(s.begin(), 1);
  if (r.chance(0.03)) s.erase(s.begin());
  for (auto& d : s) d = std::max<int64_t>(d, 0);
  return T(s);
}

NCase rnn_case(Rng& r, const std::string& kind) {
  int64_t in = r.chance(0.05) ? r.range(-1, 0) : r.range(1, 4);
  int64_t hidden = r.chance(0.03) ? 0 : r.range(1, 4);
  int64_t layers = r.chance(0.04) ? 0 : r.range(1, 2);
  bool batch_first = r.chance(0.4), bidirectional = r.chance(0.4);
  int64_t proj = 0;
  NCase c;
  c.init.args = {I(in), I(hidden)};
  if (layers != 1 || r.chance(0.3)) c.init.kwargs.emplace_back("num_layers", I(layers));
  if (batch_first) c.init.kwargs.emplace_back("batch_first", B(true));
  if (bidirectional) c.init.kwargs.emplace_back("bidirectional", B(true));
  if (r.chance(0.08)) c.init.kwargs.emplace_back("dropout", F(r.chance(0.5) ? 1.5 : 0.3));
  if (kind == "LSTM" && r.chance(0.3)) {
    proj = r.chance(0.85) ? r.range(1, std::max<int64_t>(hidden - 1, 1)) : hidden;
    c.init.kwargs.emplace_back("proj_size", I(proj));
  } else if (kind != "LSTM" && r.chance(0.03)) {
    c.init.kwargs.emplace_back("proj_size", I(0));
  }
  if (kind == "RNN" && r.chance(0.3)) c.init.kwargs.emplace_back("nonlinearity", S(r.chance(0.85) ? "relu" : "sigmoid"));

  bool batched = r.chance(0.7);
  int64_t steps = r.chance(0.05) ? 0 : r.range(1, 3), batch = r.chance(0.05) ? 0 : r.range(1, 3);
  std::vector<int64_t> x;
  if (batched) {
    x = batch_first ? std::vector<int64_t>{batch, steps} : std::vector<int64_t>{steps, batch};
  } else {
    x = {steps};
  }
  x.push_back(std::max<int64_t>(r.near(in, 0.08), 0));
  if (r.chance(0.03)) x.insert(x.begin(), 2);
  if (r.chance(0.03) && x.size() > 1) x.erase(x.begin());
  c.call.args = {T(x)};
  if (r.chance(0.5)) {
    int64_t stack = std::max<int64_t>(layers, 1) * (bidirectional ? 2 : 1);
    int64_t b = batched ? batch : -1;
    if (kind == "LSTM") {
      c.call.args.push_back(Tup({state(r, stack, b, proj > 0 ? proj : hidden), state(r, stack, b, hidden)}));
    } else {
      c.call.args.push_back(state(r, stack, b, hidden));
    }
  }
  return c;
}


// A cell's hidden state for an input of `batch` rows (-1: unbatched):
// usually right, sometimes a size off by one, an axis more or less.
std::vector<int64_t> cell_state(Rng& r, int64_t batch, int64_t hidden) {
  std::vector<int64_t> s;
  if (batch >= 0) s.push_back(std::max<int64_t>(r.near(batch, 0.06), 0));
  s.push_back(std::max<int64_t>(r.near(hidden, 0.08), 0));
  double p = r.real(0, 1);
  if (p < 0.04) s.insert(s.begin(), r.range(1, 2));
  else if (p < 0.08) s.erase(s.begin());
  return s;
}

// A state of higher rank than the input whose sizes 0 and 1 (after Python
// unsqueezes an unbatched one) pass PyTorch 1.13's checks: the cell's
// arithmetic then crashes (GRUCell, LSTMCell: a chunk index out of range)
// or returns a tensor of another rank (RNNCell). Not drawn (docs/rules.md).
bool past_the_checks(const std::vector<int64_t>& x, const std::vector<int64_t>& state, int64_t hidden) {
  if (x.size() != 1 && x.size() != 2) return false;
  std::vector<int64_t> s = state;
  if (x.size() == 1) s.insert(s.begin(), 1);
  return s.size() > 2 && s[0] == (x.size() == 2 ? x[0] : 1) && s[1] == hidden;
}

NCase cell_case(Rng& r, const std::string& kind) {
  for (;;) {
    int64_t in = r.chance(0.04) ? -1 : r.chance(0.04) ? 0 : r.range(1, 4);
    int64_t hidden = r.chance(0.04) ? -1 : r.chance(0.04) ? 0 : r.range(1, 4);
    NCase c;
    c.init.args = {I(in), I(hidden)};
    if (r.chance(0.15)) c.init.kwargs.emplace_back("bias", B(false));
    if (kind == "RNNCell" && r.chance(0.3)) c.init.kwargs.emplace_back("nonlinearity", S(r.chance(0.8) ? "relu" : "sigmoid"));
    bool batched = r.chance(0.7);
    int64_t batch = r.chance(0.06) ? 0 : r.range(1, 3);
    std::vector<int64_t> x;
    if (batched) x.push_back(batch);
    x.push_back(std::max<int64_t>(r.near(in, 0.12), 0));
    if (r.chance(0.04)) x.insert(x.begin(), 2);
    c.call.args = {T(x)};
    std::vector<std::vector<int64_t>> states;
    if (r.chance(0.6)) {
      int64_t count = kind != "LSTMCell" ? 1 : r.chance(0.03) ? 3 : r.chance(0.03) ? 1 : 2;
      for (int64_t i = 0; i < count; ++i) states.push_back(cell_state(r, batched ? batch : -1, hidden));
      if (kind == "LSTMCell") {
        std::vector<NArg> items;
        for (const auto& s : states) items.push_back(T(s));
        c.call.args.push_back(Tup(items));
      } else {
        c.call.args.push_back(T(states[0]));
      }
    }
    bool degenerate = false;
    for (const auto& s : states) degenerate = degenerate || (in >= 0 && hidden >= 0 && past_the_checks(x, s, hidden));
    if (!degenerate) return c;
  }
}

}  // namespace

std::vector<NSuite> recurrent_suites() {
  std::vector<NSuite> out;
  out.push_back({"nn.LSTM", "torch.nn.LSTM", [](Rng& r) { return rnn_case(r, "LSTM"); }});
  out.push_back({"nn.GRU", "torch.nn.GRU", [](Rng& r) { return rnn_case(r, "GRU"); }});
  out.push_back({"nn.RNN", "torch.nn.RNN", [](Rng& r) { return rnn_case(r, "RNN"); }});
  for (const char* kind : {"LSTMCell", "GRUCell", "RNNCell"}) {
    std::string k = kind;
    out.push_back({"nn." + k, "torch.nn." + k, [k](Rng& r) { return cell_case(r, k); }});
  }
  return out;
}

}  // namespace gshape::oracle::nn
