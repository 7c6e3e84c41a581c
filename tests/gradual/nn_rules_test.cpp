// The nn rules on symbolic inputs: batch and sequence symbols survive every
// layer (Conv2d keeps B and computes (H + 2p - d(k-1) - 1)//s + 1, LSTM
// keeps T and B, ...), constant mistakes are refuted with the tags and
// messages docs/rules.md gives, symbolic hyperparameters are read at run
// time with (attr 0 name), and every obligation is well-formed for the
// runtime.
#include <gtest/gtest.h>

#include <memory>

#include "gradual/rule_registry.h"
#include "gradual/solver.h"
#include "operand_builders.h"

namespace gshape::gradual {
namespace {

using namespace test_operands;
using Keywords = std::vector<std::pair<std::string, Operand>>;

class NnRules : public ::testing::Test {
 protected:
  std::unique_ptr<Solver> solver = std::make_unique<Solver>();
  std::vector<Obligation> obligations;

  // A new program point: facts from earlier calls are gone.
  void fresh_solver() { solver = std::make_unique<Solver>(); }

  RuleResult call(const std::string& name, std::vector<Operand> positional, Keywords keywords = {}) {
    const Rule* rule = RuleRegistry::builtin().find(name);
    EXPECT_NE(rule, nullptr) << name;
    if (!rule) return {};
    CallSite site;
    site.name = name;
    site.positional = std::move(positional);
    site.keywords = std::move(keywords);
    return apply_rule(*rule, site, *solver, obligations);
  }
  // Builds `torch.nn.<cls>(init...)` and returns the module value.
  Value module(const std::string& cls, std::vector<Operand> init, Keywords keywords = {}) {
    RuleResult r = call("torch.nn." + cls, std::move(init), std::move(keywords));
    EXPECT_TRUE(r.modelled) << cls << ": " << r.note;
    EXPECT_FALSE(r.refuted) << cls;
    for (int id : r.obligations)
      EXPECT_NE(obligations[static_cast<std::size_t>(id)].status, Status::Refuted) << obligations[static_cast<std::size_t>(id)].render_message();
    EXPECT_TRUE(r.value.is_object()) << cls;
    return r.value;
  }
  // module(args...) with the module in slot 0 and the arguments from slot 1.
  RuleResult forward(const Value& m, std::vector<Operand> args, Keywords keywords = {}) {
    std::vector<Operand> positional{Operand(m, 0)};
    for (Operand& a : args) positional.push_back(std::move(a));
    return call(m.as_object()->class_name + ".forward", std::move(positional), std::move(keywords));
  }
  const Obligation& with_tag(const RuleResult& r, const std::string& tag) {
    for (int id : r.obligations)
      if (obligations[static_cast<std::size_t>(id)].tag == tag) return obligations[static_cast<std::size_t>(id)];
    ADD_FAILURE() << "no obligation " << tag;
    static Obligation none;
    return none;
  }
  std::vector<std::string> refuted_tags(const RuleResult& r) {
    std::vector<std::string> out;
    for (int id : r.obligations)
      if (obligations[static_cast<std::size_t>(id)].status == Status::Refuted) out.push_back(obligations[static_cast<std::size_t>(id)].tag);
    return out;
  }
};

const Shape& shape_of(const Value& v) { return v.shape(); }
const Value& item(const Value& v, std::size_t i) { return (*v.items())[i]; }

TEST_F(NnRules, Conv2dKeepsTheBatchAndComputesTheSpatialSizes) {
  Dim b = Dim::symbol("B"), h = Dim::symbol("H"), w = Dim::symbol("W");
  Value conv = module("Conv2d", {I(3), I(16), I(3)}, {{"stride", I(2)}, {"padding", I(1)}});
  RuleResult r = forward(conv, {T({b, 3, h, w}, 1)});
  ASSERT_TRUE(r.modelled) << r.note;
  EXPECT_FALSE(r.refuted);
  // (H + 2*1 - 1*(3-1) - 1)//2 + 1
  EXPECT_EQ(shape_of(r.value), Shape({b, 16, floordiv(h - 1, 2) + 1, floordiv(w - 1, 2) + 1}));
  EXPECT_EQ(with_tag(r, "conv2d_c2").status, Status::Proven);   // 3 channels, statically
  EXPECT_EQ(with_tag(r, "conv2d_c3").status, Status::Proven);   // constant hyperparameters
  const Obligation& fits = with_tag(r, "conv2d_c4");             // H + 2 >= 3: H unknown
  EXPECT_EQ(fits.status, Status::Deferred);
  EXPECT_TRUE(fits.runtime_checkable());
  EXPECT_NE(fits.constraint_sexpr().find("(size 1 -2)"), std::string::npos) << fits.constraint_sexpr();
}

TEST_F(NnRules, Conv2dWrongChannelsAndKernelTooLargeAreRefutedWithTheirTags) {
  Value conv = module("Conv2d", {I(16), I(32), I(5)});
  RuleResult channels = forward(conv, {T({2, 8, 12, 12}, 1)});
  EXPECT_TRUE(channels.refuted);
  EXPECT_EQ(refuted_tags(channels), std::vector<std::string>{"conv2d_c2"});
  EXPECT_EQ(with_tag(channels, "conv2d_c2").render_message(),
            "nn.Conv2d(16, 32, kernel_size=(5, 5)) expects 16 input channels but the input's channel dimension is 8");
  RuleResult kernel = forward(conv, {T({2, 16, 3, 3}, 1)});  // samples/bug_kernel_too_large.py
  EXPECT_EQ(refuted_tags(kernel), std::vector<std::string>{"conv2d_c4"});
  EXPECT_EQ(with_tag(kernel, "conv2d_c4").render_message(),
            "nn.Conv2d(16, 32, kernel_size=(5, 5)): the kernel (5 x 5) is larger than the padded input (3 x 3)");
  EXPECT_FALSE(kernel.value.shape().rank_known());  // no result shape after a certain error
}

TEST_F(NnRules, ConstructionChecksHyperparameters) {
  RuleResult groups = call("torch.nn.Conv2d", {I(4), I(6), I(3)}, {{"groups", I(4)}});
  EXPECT_EQ(refuted_tags(groups), std::vector<std::string>{"nn_conv2d_c3"});  // 6 % 4
  RuleResult heads = call("torch.nn.MultiheadAttention", {I(10), I(3)});
  EXPECT_EQ(refuted_tags(heads), std::vector<std::string>{"nn_mha_c1"});
  RuleResult same = call("torch.nn.Conv2d", {I(3), I(8), I(3)}, {{"stride", I(2)}, {"padding", Str("same")}});
  EXPECT_EQ(refuted_tags(same), std::vector<std::string>{"nn_conv2d_c5"});
  RuleResult proj = call("torch.nn.LSTM", {I(10), I(20)}, {{"proj_size", I(20)}});
  EXPECT_EQ(refuted_tags(proj), std::vector<std::string>{"nn_lstm_c2"});
  // a zero stride is accepted at construction: the error is at the call
  Value zero = module("Conv2d", {I(3), I(8), I(3)}, {{"stride", I(0)}});
  EXPECT_EQ(refuted_tags(forward(zero, {T({1, 3, 8, 8}, 1)})), std::vector<std::string>{"conv2d_c3"});
}

TEST_F(NnRules, SymbolicHyperparametersAreReadFromTheModuleAtRunTime) {
  Dim c = Dim::symbol("c"), b = Dim::symbol("B");
  Value conv = module("Conv2d", {I(c, 0), I(8, 1), I(3, 2)});
  RuleResult r = forward(conv, {T({b, 4, 10, 10}, 1)});
  const Obligation& channels = with_tag(r, "conv2d_c2");
  EXPECT_EQ(channels.status, Status::Deferred);
  EXPECT_EQ(channels.constraint_sexpr(), "(== (size 1 -3) (attr 0 in_channels))");
  EXPECT_EQ(channels.message_template(),
            "nn.Conv2d({(attr 0 in_channels)}, 8, kernel_size=(3, 3)) expects {(attr 0 in_channels)} input channels "
            "but the input's channel dimension is {(size 1 -3)}");
  EXPECT_TRUE(channels.runtime_checkable());
  // after the check, c is 4: the result is exact
  EXPECT_EQ(shape_of(r.value), Shape({b, 8, 8, 8}));
}

TEST_F(NnRules, UnbatchedConvolutionAndTransposedConvolution) {
  Dim h = Dim::symbol("H");
  Value conv = module("Conv1d", {I(2), I(4), I(3)});
  RuleResult r = forward(conv, {T({2, h}, 1)});
  EXPECT_EQ(shape_of(r.value), Shape({4, h - 2}));
  Value up = module("ConvTranspose2d", {I(8), I(4), I(4)}, {{"stride", I(2)}, {"padding", I(1)}});
  Dim b = Dim::symbol("B"), w = Dim::symbol("W");
  RuleResult t = forward(up, {T({b, 8, h, w}, 1)});
  ASSERT_TRUE(t.modelled) << t.note;
  EXPECT_EQ(shape_of(t.value), Shape({b, 4, h * 2, w * 2}));  // (H-1)*2 - 2 + 3 + 1
}

TEST_F(NnRules, PoolingKeepsLeadingAxes) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), h = Dim::symbol("H"), w = Dim::symbol("W");
  Value pool = module("MaxPool2d", {I(2)});
  RuleResult r = forward(pool, {T({b, c, h, w}, 1)});
  EXPECT_EQ(shape_of(r.value).str(), "[B, C, (H - 2)//2 + 1, (W - 2)//2 + 1]");
  EXPECT_EQ(with_tag(r, "max_pool2d_c5").status, Status::Deferred);  // H >= 2
  Value adaptive = module("AdaptiveAvgPool2d", {Tup({I(7), Operand(Value::none())})});
  EXPECT_EQ(shape_of(forward(adaptive, {T({b, c, h, w}, 1)}).value), Shape({b, c, 7, w}));
}

TEST_F(NnRules, LstmKeepsTimeAndBatch) {
  Dim t = Dim::symbol("T"), b = Dim::symbol("B");
  Value lstm = module("LSTM", {I(10), I(20)}, {{"num_layers", I(2)}, {"bidirectional", Bool(true)}});
  RuleResult r = forward(lstm, {T({t, b, 10}, 1)});
  ASSERT_TRUE(r.modelled) << r.note;
  EXPECT_EQ(shape_of(item(r.value, 0)), Shape({t, b, 40}));
  EXPECT_EQ(shape_of(item(item(r.value, 1), 0)), Shape({4, b, 20}));
  EXPECT_EQ(shape_of(item(item(r.value, 1), 1)), Shape({4, b, 20}));
  EXPECT_EQ(with_tag(r, "lstm_c6").status, Status::Deferred);  // T > 0
  // batch_first GRU with a hidden state of the wrong batch
  Value gru = module("GRU", {I(8), I(16)}, {{"batch_first", Bool(true)}});
  RuleResult g = forward(gru, {T({4, t, 8}, 1), T({1, 3, 16}, 2)});
  EXPECT_EQ(refuted_tags(g), std::vector<std::string>{"gru_c4"});
  RuleResult ok = forward(gru, {T({b, t, 8}, 1)});
  EXPECT_EQ(shape_of(item(ok.value, 0)), Shape({b, t, 16}));
  EXPECT_EQ(shape_of(item(ok.value, 1)), Shape({1, b, 16}));
}

// The one-step cells: [B, I] → [B, H] (unbatched [I] → [H]); LSTMCell
// returns (h_1, c_1). Each hidden state has the input's rank, batch and
// hidden_size.
TEST_F(NnRules, RecurrentCellsKeepTheBatch) {
  Dim b = Dim::symbol("B");
  Value lstm = module("LSTMCell", {I(10), I(20)});
  RuleResult r = forward(lstm, {T({b, 10}, 1), Tup({T({b, 20}, 3), T({b, 20}, 4)}, 2)});
  ASSERT_TRUE(r.modelled) << r.note;
  EXPECT_FALSE(r.refuted);
  EXPECT_EQ(shape_of(item(r.value, 0)), Shape({b, 20}));
  EXPECT_EQ(shape_of(item(r.value, 1)), Shape({b, 20}));
  EXPECT_EQ(with_tag(r, "lstm_cell_c4").status, Status::Proven);  // the batch is the input's
  EXPECT_EQ(shape_of(item(forward(lstm, {T({10}, 1)}).value, 0)), Shape({20}));  // unbatched, no state
  RuleResult short_pair = forward(lstm, {T({b, 10}, 1), Tup({T({b, 20}, 3)}, 2)});
  EXPECT_EQ(refuted_tags(short_pair), std::vector<std::string>{"lstm_cell_c6"});
  RuleResult cell_size = forward(lstm, {T({4, 10}, 1), Tup({T({4, 20}, 3), T({4, 21}, 4)}, 2)});
  EXPECT_EQ(refuted_tags(cell_size), std::vector<std::string>{"lstm_cell_c5"});
  for (int id : cell_size.obligations) {  // c_0's check (h_0's holds)
    const Obligation& ob = obligations[static_cast<std::size_t>(id)];
    if (ob.status == Status::Refuted) {
      EXPECT_EQ(ob.render_message(), "LSTMCell(10, 20): hidden1 (hx[1]) has inconsistent hidden_size: got 21, expected 20");
    }
  }

  Value gru = module("GRUCell", {I(8), I(16)});
  EXPECT_EQ(shape_of(forward(gru, {T({b, 8}, 1), T({b, 16}, 2)}).value), Shape({b, 16}));
  EXPECT_EQ(refuted_tags(forward(gru, {T({4, 8}, 1), T({3, 16}, 2)})), std::vector<std::string>{"gru_cell_c4"});
  EXPECT_EQ(refuted_tags(forward(gru, {T({4, 9}, 1)})), std::vector<std::string>{"gru_cell_c2"});
  EXPECT_EQ(refuted_tags(forward(gru, {T({2, 4, 8}, 1)})), std::vector<std::string>{"gru_cell_c1"});
  // a batched state with an unbatched input: PyTorch unsqueezes it and compares sizes 0 and 1
  EXPECT_EQ(refuted_tags(forward(gru, {T({8}, 1), T({b, 16}, 2)})), std::vector<std::string>{"gru_cell_c3"});

  Value rnn = module("RNNCell", {I(4), I(6)}, {{"nonlinearity", Str("sigmoid")}});  // Python accepts it here
  EXPECT_EQ(refuted_tags(forward(rnn, {T({b, 4}, 1)})), std::vector<std::string>{"rnn_cell_c7"});
  RuleResult negative = call("torch.nn.RNNCell", {I(4), I(-1)});
  EXPECT_EQ(refuted_tags(negative), std::vector<std::string>{"nn_rnn_cell_c1"});
  EXPECT_EQ(with_tag(negative, "nn_rnn_cell_c1").render_message(),
            "nn.RNNCell(4, -1): trying to create a weight with a negative dimension: weight_ih of shape [-1, 4]");
}

TEST_F(NnRules, RecurrentCellsOnSymbolicAndUnknownOperands) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), k = Dim::symbol("k", false);
  Value lstm = module("LSTMCell", {I(k, 0), I(8)});
  RuleResult r = forward(lstm, {T({b, c}, 1)});
  const Obligation& c2 = with_tag(r, "lstm_cell_c2");
  EXPECT_EQ(c2.status, Status::Deferred);
  EXPECT_NE(c2.constraint_sexpr().find("(attr 0 input_size)"), std::string::npos) << c2.constraint_sexpr();
  EXPECT_EQ(shape_of(item(r.value, 1)), Shape({b, 8}));
  // an input of unknown rank: [B, H] or [H], so the last axis is known
  RuleResult unknown = forward(module("GRUCell", {I(3), I(5)}), {Operand(Value::tensor(Shape::unknown()), 1)});
  ASSERT_TRUE(unknown.modelled) << unknown.note;
  EXPECT_EQ(with_tag(unknown, "gru_cell_c1").status, Status::Deferred);
  EXPECT_EQ(shape_of(unknown.value).str(), "[*, 5]");
}

// F.pad's other modes and the padding modules: the padded axes grow by
// their two pads, symbols stay; reflect needs each pad below its axis.
TEST_F(NnRules, PaddingModesAndModules) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), h = Dim::symbol("H"), w = Dim::symbol("W");
  RuleResult reflect = call("torch.nn.functional.pad", {T({b, c, h, w}, 0), Tup({I(1), I(1), I(2), I(0)}, 1)},
                            {{"mode", Str("reflect")}});
  ASSERT_TRUE(reflect.modelled) << reflect.note;
  EXPECT_EQ(shape_of(reflect.value), Shape({b, c, h + 2, w + 2}));
  EXPECT_EQ(with_tag(reflect, "pad_c9").status, Status::Deferred);  // 1 < W
  EXPECT_EQ(with_tag(reflect, "pad_c7").status, Status::Proven);

  Value rp = module("ReflectionPad2d", {I(3)});
  EXPECT_EQ(shape_of(forward(rp, {T({b, 3, h, w}, 1)}).value), Shape({b, 3, h + 6, w + 6}));
  EXPECT_EQ(refuted_tags(forward(rp, {T({1, 3, 3, 3}, 1)})), (std::vector<std::string>{"pad_c9", "pad_c9"}));
  RuleResult two_d = forward(rp, {T({4, 4}, 1)});
  EXPECT_EQ(refuted_tags(two_d), std::vector<std::string>{"pad_c7"});
  EXPECT_EQ(with_tag(two_d, "pad_c7").render_message(),
            "pad: mode 'reflect' with 4 pads takes a 3-D or 4-D (batch mode) input, got shape [4, 4]");

  Value rep = module("ReplicationPad1d", {Tup({I(1), I(2)})});
  RuleResult rr = forward(rep, {T({b, c, w}, 1)});
  EXPECT_EQ(shape_of(rr.value), Shape({b, c, w + 3}));
  EXPECT_EQ(with_tag(rr, "pad_c10").status, Status::Proven);  // W + 3 >= 1
  EXPECT_EQ(refuted_tags(forward(rep, {T({2, 0, 4}, 1)})), std::vector<std::string>{"pad_c8"});
  EXPECT_EQ(refuted_tags(forward(module("ReplicationPad2d", {Tup({I(-3), I(0), I(-2), I(-2)})}), {T({1, 3, 3, 3}, 1)})),
            std::vector<std::string>{"pad_c10"});

  EXPECT_EQ(shape_of(forward(module("ZeroPad2d", {Tup({I(1), I(1), I(0), I(0)})}), {T({b, c, h, w}, 1)}).value),
            Shape({b, c, h, w + 2}));
  Value cp = module("ConstantPad3d", {I(1), Operand(Value::floating(0.5))});
  EXPECT_EQ(shape_of(forward(cp, {T({b, c, 4, h, w}, 1)}).value), Shape({b, c, 6, h + 2, w + 2}));

  fresh_solver();  // the reflect call above assumed 1 < W
  RuleResult circular = call("torch.nn.functional.pad", {T({b, c, w}, 0), Tup({I(2), I(2)}, 1)}, {{"mode", Str("circular")}});
  EXPECT_EQ(shape_of(circular.value), Shape({b, c, w + 4}));
  EXPECT_EQ(with_tag(circular, "pad_c11").status, Status::Deferred);  // 2 <= W
  RuleResult unbatched = call("torch.nn.functional.pad", {T({c, w}, 0), Tup({I(2), I(2)}, 1)}, {{"mode", Str("circular")}});
  EXPECT_EQ(refuted_tags(unbatched), std::vector<std::string>{"pad_c7"});
  RuleResult mixed = call("torch.nn.functional.pad", {T({b, c, w}, 0), Tup({I(-1), I(2)}, 1)}, {{"mode", Str("circular")}});
  EXPECT_FALSE(mixed.modelled);  // one side cropped, the other padded: depends on the memory layout
  EXPECT_EQ(refuted_tags(call("torch.nn.functional.pad", {T({b, c, w}, 0), Tup({I(1), I(1)}, 1)}, {{"mode", Str("wrap")}})),
            std::vector<std::string>{"pad_c5"});
  EXPECT_EQ(refuted_tags(call("torch.nn.functional.pad", {T({b, c, w}, 0), Tup({I(1), I(1)}, 1), Str("replicate"),
                                                           Operand(Value::floating(1.0))})),
            std::vector<std::string>{"pad_c6"});
}

TEST_F(NnRules, AttentionShapesWithBatchFirst) {
  Dim b = Dim::symbol("B"), l = Dim::symbol("L"), s = Dim::symbol("S");
  Value mha = module("MultiheadAttention", {I(16), I(4)}, {{"batch_first", Bool(true)}});
  RuleResult r = forward(mha, {T({b, l, 16}, 1), T({b, s, 16}, 2), T({b, s, 16}, 3)});
  ASSERT_TRUE(r.modelled) << r.note;
  EXPECT_FALSE(r.refuted);
  EXPECT_EQ(shape_of(item(r.value, 0)), Shape({b, l, 16}));
  EXPECT_EQ(shape_of(item(r.value, 1)), Shape({b, l, s}));
  RuleResult wrong = forward(mha, {T({b, l, 12}, 1), T({b, s, 16}, 2), T({b, s, 16}, 3)});
  EXPECT_EQ(refuted_tags(wrong), std::vector<std::string>{"mha_c3"});
}

TEST_F(NnRules, EmbeddingFlattenShuffleInterpolate) {
  Dim b = Dim::symbol("B"), t = Dim::symbol("T"), h = Dim::symbol("H"), w = Dim::symbol("W");
  Value emb = module("Embedding", {I(100), I(16)});
  EXPECT_EQ(shape_of(forward(emb, {T({b, t}, 1)}).value), Shape({b, t, 16}));
  Value flat = module("Flatten", {});
  EXPECT_EQ(shape_of(forward(flat, {T({b, 3, h, w}, 1)}).value), Shape({b, h * w * 3}));
  Value shuffle = module("PixelShuffle", {I(3)});
  RuleResult s = forward(shuffle, {T({b, 9, h, w}, 1)});
  EXPECT_EQ(shape_of(s.value), Shape({b, 1, h * 3, w * 3}));
  EXPECT_EQ(refuted_tags(forward(shuffle, {T({b, 8, h, w}, 1)})), std::vector<std::string>{"pixel_shuffle_c3"});
  RuleResult up = call("torch.nn.functional.interpolate", {T({b, 3, h, w}, 0)}, {{"scale_factor", I(2)}});
  EXPECT_EQ(shape_of(up.value), Shape({b, 3, h * 2, w * 2}));
  RuleResult pad = call("torch.nn.functional.pad", {T({b, 3, h, w}, 0), Tup({I(1), I(1), I(2), I(0)}, 1)});
  EXPECT_EQ(shape_of(pad.value), Shape({b, 3, h + 2, w + 2}));
}

TEST_F(NnRules, BatchNormInTrainingModeIsReadAtRunTime) {
  Dim b = Dim::symbol("B");
  Value bn = module("BatchNorm1d", {I(4)});
  RuleResult r = forward(bn, {T({b, 4}, 1)});
  const Obligation& c3 = with_tag(r, "batch_norm_c3");  // the last partial batch of 1 in training mode
  EXPECT_EQ(c3.status, Status::Deferred);
  EXPECT_NE(c3.constraint_sexpr().find("(attr 0 training)"), std::string::npos) << c3.constraint_sexpr();
  EXPECT_EQ(with_tag(r, "batch_norm_c2").status, Status::Proven);
}

// An input of unknown rank still gets the per-channel check: with C > 0 it is
// numel != C; when the module is known to be in eval mode it holds.
TEST_F(NnRules, BatchNormOnUnknownRankKeepsThePerChannelCheck) {
  Value bn = module("BatchNorm2d", {I(4)});
  RuleResult r = forward(bn, {Operand(Value::tensor(Shape::unknown()), 1)});
  ASSERT_TRUE(r.modelled) << r.note;
  const Obligation& c3 = with_tag(r, "batch_norm_c3");
  EXPECT_EQ(c3.status, Status::Deferred);
  EXPECT_NE(c3.constraint_sexpr().find("(numel 1)"), std::string::npos) << c3.constraint_sexpr();
  bn.as_object()->attributes["training"] = Value::boolean(Pred(false));
  RuleResult eval = forward(bn, {Operand(Value::tensor(Shape::unknown()), 1)});
  EXPECT_EQ(with_tag(eval, "batch_norm_c3").status, Status::Proven);
}

TEST_F(NnRules, LossesOnSymbolicBatches) {
  Dim b = Dim::symbol("B"), t = Dim::symbol("T");
  RuleResult ce = call("torch.nn.functional.cross_entropy", {T({b, 10}, 0), T({b}, 1)});
  ASSERT_TRUE(ce.modelled) << ce.note;
  EXPECT_EQ(shape_of(ce.value), Shape(std::vector<Dim>{}));
  EXPECT_EQ(with_tag(ce, "cross_entropy_c4").status, Status::Proven);
  RuleResult none = call("torch.nn.functional.nll_loss", {T({b, 10, t}, 0), T({b, t}, 1)}, {{"reduction", Str("none")}});
  EXPECT_EQ(shape_of(none.value), Shape({b, t}));
  Value criterion = module("NLLLoss", {});
  RuleResult bad = forward(criterion, {T({4, 7, 12}, 1), T({4, 7}, 2)});  // samples/bug_nll_3d.py
  EXPECT_EQ(refuted_tags(bad), std::vector<std::string>{"nll_loss_c3"});
  RuleResult bce = call("torch.nn.functional.binary_cross_entropy", {T({8}, 0), T({8, 1}, 1)});
  EXPECT_EQ(refuted_tags(bce), std::vector<std::string>{"binary_cross_entropy_c1"});
  RuleResult mse = call("torch.nn.functional.mse_loss", {T({b, 1}, 0), T({b}, 1)}, {{"reduction", Str("none")}});
  EXPECT_EQ(shape_of(mse.value), Shape({b, b}));  // broadcasting, as torch does (with a warning)
}

// The runtime's sort discipline, as in runtime_form_test.cpp.
bool is_condition(const CExpr& e);
bool is_integer(const CExpr& e) {
  switch (e->op) {
    case COp::Int: case COp::Size: case COp::Rank: case COp::Numel: case COp::IntOf: case COp::Len:
    case COp::Item: case COp::Attr: case COp::Opaque:
      return true;
    case COp::Add: case COp::Sub: case COp::Mul: case COp::FloorDiv: case COp::Mod: case COp::Min: case COp::Max:
    case COp::Neg: case COp::Abs:
      for (const CExpr& a : e->args)
        if (!is_integer(a)) return false;
      return true;
    case COp::Ite: return is_condition(e->args[0]) && is_integer(e->args[1]) && is_integer(e->args[2]);
    default: return false;
  }
}
bool is_condition(const CExpr& e) {
  switch (e->op) {
    case COp::True: case COp::False: return true;
    case COp::Lt: case COp::Le: case COp::Gt: case COp::Ge: return is_integer(e->args[0]) && is_integer(e->args[1]);
    case COp::Eq: case COp::Ne:
      return (is_integer(e->args[0]) && is_integer(e->args[1])) || (is_condition(e->args[0]) && is_condition(e->args[1]));
    case COp::And: case COp::Or: case COp::Not:
      for (const CExpr& a : e->args)
        if (!is_condition(a)) return false;
      return true;
    case COp::Ite: return is_condition(e->args[0]) && is_condition(e->args[1]) && is_condition(e->args[2]);
    default: return false;
  }
}

TEST_F(NnRules, EveryObligationOnSymbolicInputsIsWellFormedForTheRuntime) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), h = Dim::symbol("H"), w = Dim::symbol("W"), t = Dim::symbol("T");
  Dim k = Dim::symbol("k", false);
  std::vector<RuleResult> results;
  // each call at its own program point (the calls share symbols, not facts)
  auto next = [&](RuleResult r) {
    results.push_back(std::move(r));
    fresh_solver();
  };
  next(forward(module("Conv2d", {I(k, 0), I(8, 1), I(3, 2)}), {T({b, c, h, w}, 1)}));
  next(forward(module("ConvTranspose2d", {I(c, 0), I(8, 1), I(3, 2)}, {{"stride", I(2)}}), {T({b, c, h, w}, 1)}));
  next(call("torch.nn.functional.conv2d", {T({b, c, h, w}, 0), T({8, k, 3, 3}, 1), T({8}, 2)}, {{"groups", I(k, 3)}}));
  next(forward(module("MaxPool2d", {I(k, 0)}), {T({b, c, h, w}, 1)}));
  next(call("torch.nn.functional.avg_pool2d", {T({b, c, h, w}, 0), I(k, 1)}, {{"ceil_mode", Bool(true)}}));
  next(forward(module("BatchNorm2d", {I(k, 0)}), {T({b, c, h, w}, 1)}));
  next(forward(module("LayerNorm", {I(k, 0)}), {T({b, t, c}, 1)}));
  next(forward(module("GroupNorm", {I(2), I(k, 1)}), {T({b, c, h}, 1)}));
  next(forward(module("Embedding", {I(k, 0), I(4)}), {T({b, t}, 1)}));
  next(forward(module("LSTM", {I(k, 0), I(8)}), {T({t, b, c}, 1), Tup({T({1, b, 8}, 3), T({1, c, 8}, 4)}, 2)}));
  next(forward(module("MultiheadAttention", {I(8), I(2)}), {T({t, b, c}, 1), T({h, b, 8}, 2), T({h, b, 8}, 3)}));
  next(forward(module("Bilinear", {I(k, 0), I(3), I(2)}), {T({b, c}, 1), T({b, 3}, 2)}));
  next(call("torch.nn.functional.pixel_shuffle", {T({b, c, h, w}, 0), I(k, 1)}));
  next(call("torch.nn.functional.pad", {T({b, c, h, w}, 0), Tup({I(k, 2), I(-1, 3)}, 1)}));
  next(call("torch.nn.functional.pad", {T({b, c, h, w}, 0), Tup({I(k, 2), I(1, 3), I(1, 4), I(k, 5)}, 1), Str("reflect")}));
  next(call("torch.nn.functional.pad", {T({b, c, w}, 0), Tup({I(k, 2), I(2, 3)}, 1)}, {{"mode", Str("circular")}}));
  next(forward(module("ReplicationPad2d", {I(2)}), {T({b, c, h, w}, 1)}));
  next(forward(module("LSTMCell", {I(k, 0), I(8)}), {T({b, c}, 1), Tup({T({b, 8}, 3), T({h, 8}, 4)}, 2)}));
  next(forward(module("RNNCell", {I(3), I(k, 1)}), {T({b, 3}, 1), T({h, w}, 2)}));
  next(call("torch.nn.functional.interpolate", {T({b, c, h, w}, 0)}, {{"size", Tup({I(k, 2), I(4, 3)}, 1)}}));
  next(call("torch.nn.functional.cross_entropy", {T({b, c, h}, 0), T({b, w}, 1)}));
  next(call("torch.nn.functional.binary_cross_entropy_with_logits", {T({b, c}, 0), T({b, c}, 1)}, {{"pos_weight", T({h}, 2)}}));
  std::size_t checked = 0, deferred = 0;
  for (const RuleResult& r : results) {
    EXPECT_TRUE(r.modelled) << r.note;
    for (int id : r.obligations) {
      const Obligation& ob = obligations[static_cast<std::size_t>(id)];
      std::string where = ob.rule + " " + ob.tag;
      std::string text = ob.constraint_sexpr(), error;
      CExpr parsed = parse_sexpr(text, &error);
      ASSERT_TRUE(parsed) << where << ": " << text << ": " << error;
      EXPECT_EQ(to_sexpr(parsed), text) << where;
      EXPECT_TRUE(is_condition(parsed)) << where << ": " << text;
      EXPECT_FALSE(ob.message_template().empty()) << where;
      EXPECT_EQ(ob.message_template().find('\n'), std::string::npos) << where;
      ++checked;
      if (ob.status == Status::Deferred) ++deferred;
    }
  }
  EXPECT_GT(checked, 60u);
  EXPECT_GT(deferred, 20u);
}

}  // namespace
}  // namespace gshape::gradual
