// Recurrent modules: nn.LSTM, nn.GRU, nn.RNN (construction and forward),
// as torch 1.13's Python RNNBase checks them: batched (3-d) and unbatched
// (2-d) inputs, batch_first, bidirectional, num_layers, LSTM's proj_size,
// a given or omitted hidden state. Tag prefixes: nn_lstm_ / lstm_,
// nn_gru_ / gru_, nn_rnn_ / rnn_ (one numbering for the three).
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
}

}  // namespace gshape::gradual
