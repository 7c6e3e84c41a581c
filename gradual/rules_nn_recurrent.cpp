// Recurrent modules: nn.LSTM, nn.GRU, nn.RNN (construction and forward),
// as torch 1.13's Python RNNBase checks them: batched (3-d) and unbatched
// (2-d) inputs, batch_first, bidirectional, num_layers, LSTM's proj_size,
// a given or omitted hidden state. Tag prefixes: nn_lstm_ / lstm_,
// nn_gru_ / gru_, nn_rnn_ / rnn_ (one numbering for the three).
// The one-step cells nn.LSTMCell, nn.GRUCell, nn.RNNCell (RNNCellBase and
// ATen's *_cell checks): tag prefixes nn_lstm_cell_ / lstm_cell_, ...
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

enum class Cell { LSTM, GRU, RNN };

const char* prefix_of(Cell c) { return c == Cell::LSTM ? "lstm" : (c == Cell::GRU ? "gru" : "rnn"); }
const char* class_of(Cell c) { return c == Cell::LSTM ? "LSTM" : (c == Cell::GRU ? "GRU" : "RNN"); }

template <Cell C>
Value rule_rnn_init(RuleContext& ctx) {
  const std::string p = std::string("nn_") + prefix_of(C);
  const std::string cls = class_of(C);
  IntTerm input_size = ctx.int_term(ctx.arg("input_size"));
  IntTerm hidden = ctx.int_term(ctx.arg("hidden_size"));
  IntTerm layers = ctx.int_term(ctx.arg("num_layers"));
  bool bias = ctx.bool_constant("bias");
  bool batch_first = ctx.bool_constant("batch_first");
  bool bidirectional = ctx.bool_constant("bidirectional");
  auto describe = [&](Message& m) { m << "nn." << cls << "(" << input_size << ", " << hidden << ")"; };

  Arg dropout = ctx.arg("dropout");
  if (std::optional<double> d = float_constant(dropout)) {
    Message m1;
    describe(m1);
    m1 << ": dropout should be a number in range [0, 1], got " << float_text(*d);
    ctx.require(p + "_c1", BoolTerm(*d >= 0.0 && *d <= 1.0 && !dropout.value.is_bool()), m1);  // nn_<rnn>_c1
  }
  IntTerm proj(0);
  if (C == Cell::LSTM) {
    proj = ctx.int_term(ctx.arg("proj_size"));
  } else {
    Message m;
    describe(m);
    m << ": the proj_size argument is only supported for LSTM";
    ctx.require(p + "_c2", BoolTerm(!ctx.provided("proj_size")), m);  // nn_<rnn>_c2
    if (ctx.provided("proj_size")) return Value::unknown();
  }
  Message m2;
  describe(m2);
  m2 << ": proj_size " << proj << " must be non-negative and smaller than hidden_size " << hidden;
  if (ctx.require(p + "_c2", ge(proj, 0) && lt(proj, hidden), m2) == Status::Refuted) return Value::unknown();  // nn_<rnn>_c2
  Message m3;
  describe(m3);
  const int64_t gates = C == Cell::LSTM ? 4 : C == Cell::GRU ? 3 : 1;  // the weight PyTorch fails to create
  m3 << ": trying to create a weight with a negative dimension: weight_ih_l0 of shape [" << hidden * gates << ", "
     << input_size << "] (input_size " << input_size << ")";
  ctx.require(p + "_c3", ge(input_size, 0), m3);  // nn_<rnn>_c3
  Message m4;
  describe(m4);
  m4 << ": num_layers must be at least 1, got " << layers;
  ctx.require(p + "_c4", ge(layers, 1), m4);  // nn_<rnn>_c4
  if (C == Cell::RNN) {
    std::optional<std::string> nl = str_constant(ctx.arg("nonlinearity"));
    if (!nl) throw NotModelled("nonlinearity is not a constant string");
    Message m5;
    describe(m5);
    m5 << ": unknown nonlinearity '" << *nl << "'";
    ctx.require(p + "_c5", BoolTerm(*nl == "tanh" || *nl == "relu"), m5);  // nn_rnn_c5
  }
  auto obj = new_module("torch.nn." + cls);
  obj->attributes["input_size"] = Value::integer(input_size.dim());
  obj->attributes["hidden_size"] = Value::integer(hidden.dim());
  obj->attributes["num_layers"] = Value::integer(layers.dim());
  obj->attributes["proj_size"] = Value::integer(proj.dim());
  obj->attributes["bias"] = Value::boolean(Pred(bias));
  obj->attributes["batch_first"] = Value::boolean(Pred(batch_first));
  obj->attributes["bidirectional"] = Value::boolean(Pred(bidirectional));
  return Value::object(obj);
}

// `expected` as a message: `(2, B, 20)`.
void append_shape(Message& m, const std::vector<IntTerm>& dims) {
  m << "(";
  for (std::size_t i = 0; i < dims.size(); ++i) m << (i ? ", " : "") << dims[i];
  m << ")";
}

// One hidden-state tensor: `_c3` its rank (3 batched, 2 unbatched), `_c4`
// (or `_c5` for LSTM's cell state) exactly the expected shape.
void check_state(RuleContext& ctx, const std::string& p, const Arg& state, bool batched, const std::vector<IntTerm>& expected,
                 const std::string& tag, const std::string& what) {
  const int64_t rank = batched ? 3 : 2;
  Message m3;
  m3 << "for " << (batched ? "batched 3-D" : "unbatched 2-D") << " input, " << what << " should also be "
     << std::to_string(rank) << "-D but got shape " << ctx.shape_hole(state);
  if (ctx.require(p + "_c3", eq(ctx.rank(state), rank), m3) == Status::Refuted) return;  // <p>_c3
  std::vector<BoolTerm> same;
  for (std::size_t i = 0; i < expected.size(); ++i) same.push_back(eq(ctx.size(state, static_cast<int64_t>(i)), expected[i]));
  Message m;
  m << "expected " << what << " of shape ";
  append_shape(m, expected);
  m << ", got " << ctx.shape_hole(state);
  ctx.require(tag, all_of(same), m);  // <p>_c4 / lstm_c5
}

template <Cell C>
Value rule_rnn_forward(RuleContext& ctx) {
  const std::string p = prefix_of(C);
  const std::string cls = std::string("nn.") + class_of(C);
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  IntTerm input_size = module_int(ctx, module, "input_size");
  IntTerm hidden = module_int(ctx, module, "hidden_size");
  IntTerm layers = module_int(ctx, module, "num_layers");
  IntTerm proj = module_int(ctx, module, "proj_size");
  bool batch_first = module_flag(module, "batch_first");
  int64_t directions = module_flag(module, "bidirectional") ? 2 : 1;
  auto describe = [&](Message& m) { m << cls << "(" << input_size << ", " << hidden << ")"; };

  IntTerm rank = ctx.rank(input);
  Message m1;
  describe(m1);
  m1 << " expects a 3-D (batched) or 2-D (unbatched) input, got input of shape " << ctx.shape_hole(input);
  if (ctx.require(p + "_c1", eq(rank, 2) || eq(rank, 3), m1) == Status::Refuted) return Value::unknown();  // <p>_c1
  Message m2;
  describe(m2);
  m2 << " expects input_size " << input_size << " but the input's last dimension is " << ctx.size(input, -1);
  ctx.require(p + "_c2", eq(ctx.size(input, -1), input_size), m2);  // <p>_c2
  if (!input.shape().rank_known()) return Value::unknown();
  bool batched = input.shape().rank() == 3;
  IntTerm steps = ctx.size(input, batched && batch_first ? 1 : 0);
  Message m6;
  describe(m6);
  m6 << ": expected sequence length to be larger than 0, got input of shape " << ctx.shape_hole(input);
  ctx.require(p + "_c6", gt(steps, 0), m6);  // <p>_c6

  IntTerm out_size = ite(gt(proj, 0), proj, hidden);  // LSTM's projection, else hidden_size
  IntTerm stack = layers * directions;
  std::optional<IntTerm> batch;
  if (batched) batch = ctx.size(input, batch_first ? 0 : 1);
  auto state_shape = [&](const IntTerm& last) {
    std::vector<IntTerm> s{stack};
    if (batch) s.push_back(*batch);
    s.push_back(last);
    return s;
  };
  Arg hx = ctx.arg("hx");
  if (!hx.is_none()) {
    if (C == Cell::LSTM) {
      std::vector<Arg> pair = ctx.elements(hx);
      if (pair.size() != 2) throw NotModelled("hx is not a pair (h_0, c_0)");
      check_state(ctx, p, ctx.as_tensor(pair[0]), batched, state_shape(out_size), p + "_c4", "hx[0] (h_0)");
      check_state(ctx, p, ctx.as_tensor(pair[1]), batched, state_shape(hidden), p + "_c5", "hx[1] (c_0)");
    } else {
      check_state(ctx, p, ctx.as_tensor(hx), batched, state_shape(hidden), p + "_c4", "hx (h_0)");
    }
  }
  if (ctx.any_refuted()) return Value::unknown();

  std::vector<Dim> out = input.shape().dims();
  out.back() = (out_size * directions).dim();
  auto state = [&](const IntTerm& last) { return Value::tensor(shape_of_terms(state_shape(last))); };
  Value output = Value::tensor(Shape(std::move(out)));
  if (C == Cell::LSTM) return Value::tuple({output, Value::tuple({state(out_size), state(hidden)})});
  return Value::tuple({output, state(hidden)});
}


// ------------------------------------------------------------------ cells

const char* cell_prefix(Cell c) { return c == Cell::LSTM ? "lstm_cell" : (c == Cell::GRU ? "gru_cell" : "rnn_cell"); }
const char* cell_class(Cell c) { return c == Cell::LSTM ? "LSTMCell" : (c == Cell::GRU ? "GRUCell" : "RNNCell"); }

// RNNCellBase.__init__: nn_<cell>_c1 the weights [gates*H, I] and [gates*H, H]
// have no negative dimension. RNNCell keeps its nonlinearity unchecked: the
// forward raises.
template <Cell C>
Value rule_cell_init(RuleContext& ctx) {
  const std::string p = std::string("nn_") + cell_prefix(C);
  const std::string cls = cell_class(C);
  IntTerm input_size = ctx.int_term(ctx.arg("input_size"));
  IntTerm hidden = ctx.int_term(ctx.arg("hidden_size"));
  const int64_t gates = C == Cell::LSTM ? 4 : C == Cell::GRU ? 3 : 1;
  Message m1;
  m1 << "nn." << cls << "(" << input_size << ", " << hidden
     << "): trying to create a weight with a negative dimension: weight_ih of shape [" << hidden * gates << ", "
     << input_size << "]";
  if (ctx.require(p + "_c1", ge(input_size, 0) && ge(hidden, 0), m1) == Status::Refuted) return Value::unknown();  // nn_<cell>_c1
  std::optional<std::string> nl;
  if (C == Cell::RNN) {
    nl = str_constant(ctx.arg("nonlinearity"));
    if (!nl) throw NotModelled("nonlinearity is not a constant string");
  }
  auto obj = new_module("torch.nn." + cls);
  obj->attributes["input_size"] = Value::integer(input_size.dim());
  obj->attributes["hidden_size"] = Value::integer(hidden.dim());
  if (std::optional<bool> bias = ctx.bool_flag("bias")) obj->attributes["bias"] = Value::boolean(Pred(*bias));
  if (nl) obj->attributes["nonlinearity"] = Value::string(*nl);
  return Value::object(obj);
}

// The forward (RNNCell.forward and friends, then ATen's check_rnn_cell_forward_*):
// <cell>_c1 the input is 1-D or 2-D; <cell>_c2 its last axis is input_size;
// per hidden state, <cell>_c3 it has the input's rank (PyTorch 1.13 has no
// such check: it unsqueezes an unbatched state and reads sizes 0 and 1,
// see docs/rules.md), <cell>_c4 (batched) its batch is the input's,
// <cell>_c5 its last axis is hidden_size; lstm_cell_c6 hx is a pair;
// rnn_cell_c7 the nonlinearity is tanh or relu.
template <Cell C>
Value rule_cell_forward(RuleContext& ctx) {
  const std::string p = cell_prefix(C);
  const std::string cls = cell_class(C);
  Arg module = ctx.arg("self");
  Arg input = ctx.tensor("input");
  IntTerm input_size = module_int(ctx, module, "input_size");
  IntTerm hidden = module_int(ctx, module, "hidden_size");
  auto describe = [&](Message& m) { m << cls << "(" << input_size << ", " << hidden << ")"; };

  IntTerm rank = ctx.rank(input);
  Message m1;
  describe(m1);
  m1 << ": expected input to be 1-D or 2-D but received a tensor of shape " << ctx.shape_hole(input);
  if (ctx.require(p + "_c1", eq(rank, 1) || eq(rank, 2), m1) == Status::Refuted) return Value::unknown();  // <cell>_c1
  Message m2;
  describe(m2);
  m2 << ": input has inconsistent input_size: got " << ctx.size(input, -1) << ", expected " << input_size;
  ctx.require(p + "_c2", eq(ctx.size(input, -1), input_size), m2);  // <cell>_c2

  if (C == Cell::RNN) {
    std::optional<std::string> nl = module_str(module, "nonlinearity");
    if (!nl) throw NotModelled("the nonlinearity is not a constant string");
    Message m7;
    describe(m7);
    m7 << ": unknown nonlinearity '" << *nl << "' (expected 'tanh' or 'relu')";
    ctx.require(p + "_c7", BoolTerm(*nl == "tanh" || *nl == "relu"), m7);  // rnn_cell_c7
  }

  const Shape& in = input.shape();
  std::optional<bool> batched;
  if (in.rank_known()) batched = in.rank() == 2;
  Arg hx = ctx.arg("hx");
  std::vector<std::pair<Arg, std::string>> states;  // each with its name in PyTorch's messages
  if (!hx.is_none()) {
    if (C == Cell::LSTM) {
      if (!hx.value.is_sequence()) throw NotModelled("hx is not a tuple (h_0, c_0)");
      std::vector<Arg> pair = ctx.elements(hx);
      // batched: ATen's lstm_cell takes exactly two; unbatched: Python reads hx[0] and hx[1]
      Message m6;
      describe(m6);
      m6 << " expects hx to be a pair (h_0, c_0), got " << std::to_string(pair.size()) << " tensors";
      bool pair_ok = batched ? (*batched ? pair.size() == 2 : pair.size() >= 2) : pair.size() == 2;
      if (!batched && pair.size() != 2) throw NotModelled("hx is not a pair and the input's rank is unknown");
      if (ctx.require(p + "_c6", BoolTerm(pair_ok), m6) == Status::Refuted) return Value::unknown();  // lstm_cell_c6
      states.emplace_back(ctx.as_tensor(pair[0]), "hidden0 (hx[0])");
      states.emplace_back(ctx.as_tensor(pair[1]), "hidden1 (hx[1])");
    } else {
      states.emplace_back(ctx.as_tensor(hx), "hidden0 (hx)");
    }
  }
  for (const auto& [state, name] : states) {
    Message m3;
    describe(m3);
    m3 << ": " << name << " should have the input's rank (2-D for a batched input, 1-D for an unbatched one), got "
       << ctx.shape_hole(state) << " for an input of shape " << ctx.shape_hole(input);
    if (ctx.require(p + "_c3", eq(ctx.rank(state), rank), m3) == Status::Refuted) continue;  // <cell>_c3
    if (!batched) continue;  // which axes to compare depends on the rank: read at run time
    if (*batched) {
      Message m4;
      describe(m4);
      m4 << ": input batch size " << ctx.size(input, 0) << " doesn't match " << name << " batch size "
         << ctx.size(state, 0);
      ctx.require(p + "_c4", eq(ctx.size(state, 0), ctx.size(input, 0)), m4);  // <cell>_c4
    }
    Message m5;
    describe(m5);
    m5 << ": " << name << " has inconsistent hidden_size: got " << ctx.size(state, -1) << ", expected " << hidden;
    ctx.require(p + "_c5", eq(ctx.size(state, -1), hidden), m5);  // <cell>_c5
  }
  if (ctx.any_refuted()) return Value::unknown();

  Shape out = !batched ? Shape::unknown_with_suffix({hidden.dim()})
                       : (*batched ? Shape({in[0], hidden.dim()}) : Shape({hidden.dim()}));
  if (C == Cell::LSTM) return Value::tuple({Value::tensor(out), Value::tensor(out)});
  return Value::tensor(out);
}

}  // namespace

void register_nn_recurrent_rules(RuleRegistry& r) {
  const char* common = "input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False";
  r.add("torch.nn.LSTM", std::string(common) + ", proj_size=0, device=None, dtype=None", rule_rnn_init<Cell::LSTM>);
  r.add("torch.nn.GRU", std::string(common) + ", proj_size=None, device=None, dtype=None", rule_rnn_init<Cell::GRU>);
  r.add("torch.nn.RNN", std::string(common) + ", proj_size=None, nonlinearity='tanh', device=None, dtype=None",
        rule_rnn_init<Cell::RNN>);
  r.add("torch.nn.LSTM.forward", "self, input, hx=None", rule_rnn_forward<Cell::LSTM>);
  r.add("torch.nn.GRU.forward", "self, input, hx=None", rule_rnn_forward<Cell::GRU>);
  r.add("torch.nn.RNN.forward", "self, input, hx=None", rule_rnn_forward<Cell::RNN>);
  r.add("torch.nn.LSTMCell", "input_size, hidden_size, bias=True, device=None, dtype=None", rule_cell_init<Cell::LSTM>);
  r.add("torch.nn.GRUCell", "input_size, hidden_size, bias=True, device=None, dtype=None", rule_cell_init<Cell::GRU>);
  r.add("torch.nn.RNNCell", "input_size, hidden_size, bias=True, nonlinearity='tanh', device=None, dtype=None",
        rule_cell_init<Cell::RNN>);
  r.add("torch.nn.LSTMCell.forward", "self, input, hx=None", rule_cell_forward<Cell::LSTM>);
  r.add("torch.nn.GRUCell.forward", "self, input, hx=None", rule_cell_forward<Cell::GRU>);
  r.add("torch.nn.RNNCell.forward", "self, input, hx=None", rule_cell_forward<Cell::RNN>);
}

}  // namespace gshape::gradual
