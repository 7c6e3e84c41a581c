// Operator rules on symbolic and constant inputs: result shapes keep the
// symbols, obligations carry the right tags, statuses and runtime forms.
#include <gtest/gtest.h>

#include "gradual/rule_registry.h"
#include "gradual/solver.h"
#include "operand_builders.h"

namespace gshape::gradual {
namespace {

using namespace test_operands;

class Rules : public ::testing::Test {
 protected:
  Solver solver;
  std::vector<Obligation> obligations;

  RuleResult call(const std::string& name, std::vector<Operand> positional,
                  std::vector<std::pair<std::string, Operand>> keywords = {}) {
    const Rule* rule = RuleRegistry::builtin().find(name);
    EXPECT_NE(rule, nullptr) << name;
    if (!rule) return {};
    CallSite site;
    site.name = name;
    site.positional = std::move(positional);
    site.keywords = std::move(keywords);
    return apply_rule(*rule, site, solver, obligations);
  }
  const Obligation& with_tag(const RuleResult& r, const std::string& tag) {
    for (int id : r.obligations)
      if (obligations[static_cast<std::size_t>(id)].tag == tag) return obligations[static_cast<std::size_t>(id)];
    ADD_FAILURE() << "no obligation " << tag;
    static Obligation none;
    return none;
  }
  bool any_status(const RuleResult& r, Status s) {
    for (int id : r.obligations)
      if (obligations[static_cast<std::size_t>(id)].status == s) return true;
    return false;
  }
};

TEST_F(Rules, ViewKeepsTheBatchSymbolAndMultipliesTheRest) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), h = Dim::symbol("H"), w = Dim::symbol("W");
  RuleResult r = call("Tensor.view", {T({b, c, h, w}, 0), I(b, 1), I(-1)});
  ASSERT_TRUE(r.modelled) << r.note;
  EXPECT_EQ(r.value.shape(), Shape({b, c * h * w}));
  EXPECT_EQ(r.value.shape().str(), "[B, C*H*W]");
  EXPECT_FALSE(r.refuted);
  EXPECT_EQ(with_tag(r, "view_c4").status, Status::Proven);   // B*C*H*W % B == 0
  const Obligation& c3 = with_tag(r, "view_c3");              // B > 0: an empty batch cannot infer -1
  EXPECT_EQ(c3.status, Status::Deferred);
  EXPECT_EQ(c3.constraint_sexpr(), "(> (int 1) 0)");
  EXPECT_EQ(c3.reason, "B is unknown");
}

TEST_F(Rules, ViewOnConstantsDecidesWithoutZ3) {
  RuleResult ok = call("Tensor.view", {T({2, 3, 4}, 0), I(6, 1), I(-1, 2)});
  EXPECT_EQ(ok.value.shape(), Shape({6, 4}));
  EXPECT_FALSE(ok.refuted);
  RuleResult bad = call("Tensor.view", {T({2, 3, 4}, 0), I(5, 1), I(-1, 2)});
  EXPECT_TRUE(bad.refuted);
  EXPECT_EQ(with_tag(bad, "view_c4").status, Status::Refuted);
  EXPECT_EQ(with_tag(bad, "view_c4").render_message(), "shape [5, -1] is invalid for input of size 24");
  RuleResult two = call("Tensor.view", {T({2, 3, 4}, 0), I(-1), I(-1)});
  EXPECT_EQ(with_tag(two, "view_c1").status, Status::Refuted);
  RuleResult size = call("torch.reshape", {T({2, 3, 4}, 0), Tup({I(4), I(6)}, 1)});
  EXPECT_EQ(size.value.shape(), Shape({4, 6}));
  EXPECT_EQ(solver.stats().z3_checks, 0u);
  EXPECT_GT(solver.stats().decided_without_z3, 0u);
}

TEST_F(Rules, LinearModuleKeepsLeadingSymbols) {
  Dim b = Dim::symbol("B"), t = Dim::symbol("T");
  RuleResult init = call("torch.nn.Linear", {I(80), I(10)});
  ASSERT_TRUE(init.value.is_object());
  Operand module(init.value, 0);
  RuleResult fwd = call("torch.nn.Linear.forward", {module, T({b, t, 80}, 1)});
  EXPECT_EQ(fwd.value.shape(), Shape({b, t, 10}));
  EXPECT_EQ(with_tag(fwd, "linear_c1").status, Status::Proven);
}

TEST_F(Rules, LinearMismatchIsAStaticErrorWithThePaperMessage) {
  Dim b = Dim::symbol("B");
  RuleResult init = call("torch.nn.Linear", {I(80), I(10)});
  RuleResult fwd = call("torch.nn.Linear.forward", {Operand(init.value, 0), T({b, 120}, 1)});
  const Obligation& ob = with_tag(fwd, "linear_c1");
  EXPECT_EQ(ob.status, Status::Refuted);
  EXPECT_EQ(ob.render_message(), "nn.Linear(80, 10) expects in_features 80 but the input's last dimension is 120");
  EXPECT_EQ(ob.message_template(),
            "nn.Linear(80, 10) expects in_features 80 but the input's last dimension is {(size 1 -1)}");
  EXPECT_EQ(ob.constraint_sexpr(), "(== (size 1 -1) 80)");
  ASSERT_EQ(ob.slots.size(), 1u);
  EXPECT_EQ(ob.slots[0].slot, 1);
  EXPECT_EQ(ob.slots[0].description, "input");
}

TEST_F(Rules, SlotsCarryTheOperandLocation) {
  SourceFile file("m.py", "y = a @ b\n");
  Operand a = T({3, 4}, 0), b = T({Dim::symbol("K"), 5}, 1);
  a.loc = SourceLoc{&file, 1, 5, 4, 5};
  b.loc = SourceLoc{&file, 1, 9, 8, 9};
  RuleResult r = call("operator.matmul", {a, b});
  const Obligation& ob = with_tag(r, "matmul_c2");
  ASSERT_EQ(ob.slots.size(), 2u);
  EXPECT_EQ(ob.slots[0].loc.begin, 4u);
  EXPECT_EQ(ob.slots[1].loc.begin, 8u);
  EXPECT_EQ(ob.slots[1].description, "other");
}

TEST_F(Rules, LinearOnUnknownFeatureSizeIsDeferredAndCheckable) {
  Dim b = Dim::symbol("B"), k = Dim::symbol("K");
  RuleResult init = call("torch.nn.Linear", {I(80), I(10)});
  RuleResult fwd = call("torch.nn.Linear.forward", {Operand(init.value, 0), T({b, k}, 1)});
  const Obligation& ob = with_tag(fwd, "linear_c1");
  EXPECT_EQ(ob.status, Status::Deferred);
  EXPECT_TRUE(ob.runtime_checkable());
  ASSERT_EQ(ob.example.size(), 1u);
  EXPECT_EQ(ob.example[0].first, "K");
  EXPECT_EQ(fwd.value.shape(), Shape({b, 10}));
  // a later Linear on the same features is proven: the check above is a fact now
  RuleResult again = call("torch.nn.Linear.forward", {Operand(init.value, 0), T({b, k}, 1)});
  EXPECT_EQ(with_tag(again, "linear_c1").status, Status::Proven);
}

TEST_F(Rules, SymbolicHyperparameterReadsTheModuleAtRunTime) {
  Dim n = Dim::symbol("n_in"), b = Dim::symbol("B"), k = Dim::symbol("K");
  RuleResult init = call("torch.nn.Linear", {I(n), I(10)});
  RuleResult fwd = call("torch.nn.Linear.forward", {Operand(init.value, 0), T({b, k}, 1)});
  EXPECT_EQ(with_tag(fwd, "linear_c1").constraint_sexpr(), "(== (size 1 -1) (attr 0 in_features))");
}

TEST_F(Rules, MatmulBatchedAndMismatched) {
  Dim b = Dim::symbol("B"), n = Dim::symbol("N"), k = Dim::symbol("K"), m = Dim::symbol("M");
  RuleResult ok = call("torch.matmul", {T({b, n, k}, 0), T({k, m}, 1)});
  EXPECT_EQ(ok.value.shape(), Shape({b, n, m}));
  EXPECT_FALSE(any_status(ok, Status::Deferred));
  RuleResult vec = call("operator.matmul", {T({k}, 0), T({b, k, m}, 1)});
  EXPECT_EQ(vec.value.shape(), Shape({b, m}));
  RuleResult bad = call("torch.matmul", {T({2, 3}, 0), T({4, 5}, 1)});
  EXPECT_EQ(with_tag(bad, "matmul_c2").status, Status::Refuted);
  RuleResult scalar = call("torch.matmul", {T(Shape(std::vector<Dim>{}), 0), T({4}, 1)});
  EXPECT_EQ(with_tag(scalar, "matmul_c1").status, Status::Refuted);
  RuleResult batch = call("torch.matmul", {T({2, 3, 4}, 0), T({5, 4, 6}, 1)});
  EXPECT_EQ(with_tag(batch, "matmul_c3").status, Status::Refuted);
}

TEST_F(Rules, BroadcastingArithmetic) {
  Dim b = Dim::symbol("B");
  RuleResult r = call("operator.add", {T({b, 1, 4}, 0), T({3, 1}, 1)});
  EXPECT_EQ(r.value.shape(), Shape({b, 3, 4}));
  EXPECT_FALSE(r.refuted);
  RuleResult bad = call("torch.mul", {T({b, 3}, 0), T({4}, 1)});
  EXPECT_EQ(with_tag(bad, "broadcast_c1").status, Status::Refuted);
  RuleResult scalar = call("operator.mul", {T({b, 3}, 0), Operand(Value::floating(0.5), 1)});
  EXPECT_EQ(scalar.value.shape(), Shape({b, 3}));
  RuleResult ints = call("operator.floordiv", {I(b, 0), I(2, 1)});
  ASSERT_TRUE(ints.value.is_int());
  EXPECT_EQ(ints.value.as_int(), floordiv(b, 2));
  RuleResult cmp = call("operator.eq", {I(b, 0), I(3, 1)});
  EXPECT_EQ(cmp.value.as_bool(), eq(b, 3));
}

TEST_F(Rules, InplaceKeepsTheLeftShape) {
  RuleResult ok = call("Tensor.add_", {T({2, 3}, 0), T({3}, 1)});
  EXPECT_EQ(ok.value.shape(), Shape({2, 3}));
  EXPECT_FALSE(ok.refuted);
  RuleResult grow = call("operator.iadd", {T({1, 3}, 0), T({2, 3}, 1)});
  EXPECT_TRUE(grow.refuted);
  EXPECT_TRUE(any_status(grow, Status::Refuted));
  for (int id : grow.obligations) EXPECT_EQ(obligations[static_cast<std::size_t>(id)].tag, "inplace_c1");
}

TEST_F(Rules, ReductionsWithDimsAndKeepdim) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  RuleResult r = call("torch.sum", {T({b, c, 5}, 0), Tup({I(0), I(-1)})}, {{"keepdim", Operand(Value::boolean(true))}});
  EXPECT_EQ(r.value.shape(), Shape({1, c, 1}));
  RuleResult all = call("Tensor.mean", {T({b, c}, 0)});
  EXPECT_EQ(all.value.shape(), Shape(std::vector<Dim>{}));
  RuleResult dup = call("torch.sum", {T({b, c}, 0), Tup({I(1), I(-1)})});
  EXPECT_EQ(with_tag(dup, "sum_c2").status, Status::Refuted);
  RuleResult out = call("torch.sum", {T({b, c}, 0), I(2)});
  EXPECT_EQ(with_tag(out, "sum_c1").status, Status::Refuted);
  RuleResult mx = call("torch.max", {T({b, c}, 0), I(1, 1)});
  ASSERT_TRUE(mx.value.is_sequence());
  EXPECT_EQ((*mx.value.items())[0].shape(), Shape({b}));
  EXPECT_EQ(with_tag(mx, "max_c3").status, Status::Deferred);  // C could be 0
}

TEST_F(Rules, CatAndStack) {
  Dim b = Dim::symbol("B");
  RuleResult r = call("torch.cat", {Tup({T({b, 3}, 1), T({b, 4}, 2)}, 0), I(1)});
  EXPECT_EQ(r.value.shape(), Shape({b, 7}));
  EXPECT_FALSE(any_status(r, Status::Deferred));
  RuleResult bad = call("torch.cat", {Tup({T({b, 3}, 1), T({b, 4}, 2)}, 0)});
  EXPECT_EQ(with_tag(bad, "cat_c5").status, Status::Refuted);
  EXPECT_NE(with_tag(bad, "cat_c5").message_template().find("{(size 1 1)}"), std::string::npos);
  RuleResult st = call("torch.stack", {Tup({T({b, 3}, 1), T({b, 3}, 2)}, 0), I(-1)});
  EXPECT_EQ(st.value.shape(), Shape({b, 3, 2}));
}

TEST_F(Rules, SplitAndChunk) {
  RuleResult r = call("Tensor.split", {T({10, 3}, 0), I(4)});
  ASSERT_TRUE(r.value.is_sequence() && r.value.items());
  ASSERT_EQ(r.value.items()->size(), 3u);
  EXPECT_EQ((*r.value.items())[2].shape(), Shape({2, 3}));
  Dim b = Dim::symbol("B");
  RuleResult sym = call("torch.split", {T({b, 3}, 0), I(4)});
  ASSERT_TRUE(sym.value.is_sequence());
  EXPECT_EQ(sym.value.items(), nullptr);  // the number of pieces depends on B
  RuleResult sizes = call("torch.split", {T({10, 3}, 0), Tup({I(3), I(8)})});
  EXPECT_EQ(with_tag(sizes, "split_c6").status, Status::Refuted);
  RuleResult chunks = call("torch.chunk", {T({b, 6}, 0), I(3), I(1)});
  ASSERT_TRUE(chunks.value.items());
  EXPECT_EQ((*chunks.value.items())[0].shape(), Shape({b, 2}));
}

TEST_F(Rules, SqueezeUsesFactsWhenSizesAreSymbolic) {
  Dim b = Dim::symbol("B");
  RuleResult unknown = call("torch.squeeze", {T({b, 1, 3}, 0)});
  EXPECT_FALSE(unknown.value.shape().rank_known());
  solver.add_fact(gt(b, 1), SourceLoc{}, "assert B > 1");
  RuleResult known = call("torch.squeeze", {T({b, 1, 3}, 0)});
  EXPECT_EQ(known.value.shape(), Shape({b, 3}));
  RuleResult one = call("Tensor.squeeze", {T({b, 1, 3}, 0), I(1)});
  EXPECT_EQ(one.value.shape(), Shape({b, 3}));
}

TEST_F(Rules, UnknownNeverYieldsAStaticError) {
  Operand x = T(Shape::unknown(), 0);
  for (const char* name : {"Tensor.view", "torch.sum", "torch.matmul", "torch.transpose", "torch.cat", "torch.flatten"}) {
    RuleResult r;
    if (std::string(name) == "Tensor.view") r = call(name, {x, I(-1)});
    if (std::string(name) == "torch.sum") r = call(name, {x, I(3)});
    if (std::string(name) == "torch.matmul") r = call(name, {x, T(Shape::unknown(), 1)});
    if (std::string(name) == "torch.transpose") r = call(name, {x, I(0), I(5)});
    if (std::string(name) == "torch.cat") r = call(name, {Tup({x, T(Shape::unknown(), 1)})});
    if (std::string(name) == "torch.flatten") r = call(name, {x, I(1)});
    EXPECT_FALSE(r.refuted) << name;
  }
  RuleResult v = call("Tensor.view", {x, I(-1), I(4)});
  EXPECT_EQ(v.value.shape().rank(), 2u);  // the rank comes from the arguments
  RuleResult opaque = call("Tensor.view", {Operand(Value::unknown(), 0), I(2), I(3)});
  EXPECT_FALSE(opaque.refuted);
}

TEST_F(Rules, UnsupportedFormsAreNotModelledRatherThanErrors) {
  RuleResult s = call("Tensor.view", {T({2, 3}, 0), Operand(Value::string("float16"), 1)});
  EXPECT_FALSE(s.modelled);
  EXPECT_TRUE(s.value.is_unknown());
  RuleResult extra = call("torch.t", {T({2, 3}, 0), I(1), I(2)});
  EXPECT_FALSE(extra.modelled);  // too many arguments: a TypeError, not a shape error
}

TEST_F(Rules, ValuesWithoutSlotsAreNotRuntimeCheckable) {
  Dim k = Dim::symbol("K");
  RuleResult r = call("torch.matmul", {T({3, k}), T({4, 5})});  // no slots
  const Obligation& ob = with_tag(r, "matmul_c2");
  EXPECT_EQ(ob.status, Status::Deferred);
  EXPECT_FALSE(ob.runtime_checkable());
  RuleResult routed = call("torch.matmul", {T({3, k}, 0), T({4, 5}, 1)});
  EXPECT_TRUE(with_tag(routed, "matmul_c2").runtime_checkable());
}

TEST_F(Rules, CreationAndArange) {
  Dim n = Dim::symbol("n", false);
  RuleResult z = call("torch.zeros", {I(n, 0), I(3)});
  EXPECT_EQ(z.value.shape(), Shape({n, 3}));
  EXPECT_EQ(with_tag(z, "zeros_c1").status, Status::Deferred);
  RuleResult neg = call("torch.ones", {Tup({I(2), I(-1)})});
  EXPECT_EQ(with_tag(neg, "ones_c1").status, Status::Refuted);
  RuleResult a = call("torch.arange", {I(2), I(11), I(3)});
  EXPECT_EQ(a.value.shape(), Shape({3}));
  RuleResult r = call("builtins.range", {I(n, 0)});
  ASSERT_TRUE(r.value.is_object());
  EXPECT_EQ(r.value.as_object()->attribute("len")->as_int(), max(Dim(0), n));
}

// multinomial: [K] → [n], [B, K] → [B, n]; without replacement n <= K.
TEST_F(Rules, MultinomialSamplesPerRow) {
  Dim b = Dim::symbol("B"), k = Dim::symbol("K"), n = Dim::symbol("n", false);
  RuleResult r = call("torch.multinomial", {T({b, k}, 0), I(5, 1)});
  ASSERT_TRUE(r.modelled) << r.note;
  EXPECT_EQ(r.value.shape(), Shape({b, 5}));
  const Obligation& c3 = with_tag(r, "multinomial_c3");
  EXPECT_EQ(c3.status, Status::Deferred);  // 5 <= K
  EXPECT_EQ(c3.constraint_sexpr(), "(<= 5 (size 0 -1))");
  EXPECT_EQ(with_tag(r, "multinomial_c5").status, Status::Proven);  // K > 0 or B == 0, after 5 <= K
  Dim k2 = Dim::symbol("K2");
  RuleResult replacing = call("torch.multinomial", {T({b, k2}, 0), I(2, 1), Bool(true)});
  EXPECT_EQ(with_tag(replacing, "multinomial_c5").status, Status::Deferred);
  EXPECT_EQ(with_tag(replacing, "multinomial_c5").constraint_sexpr(), "(or (> (size 0 -1) 0) (== (size 0 0) 0))");
  RuleResult with = call("Tensor.multinomial", {T({10}, 0), I(n, 1), Bool(true)});
  EXPECT_EQ(with.value.shape(), Shape({n}));
  EXPECT_EQ(with_tag(with, "multinomial_c3").status, Status::Proven);
  EXPECT_EQ(with_tag(with, "multinomial_c2").status, Status::Deferred);  // n > 0

  auto refuted = [&](RuleResult x, const std::string& tag) {
    EXPECT_TRUE(x.refuted) << tag;
    EXPECT_EQ(with_tag(x, tag).status, Status::Refuted) << tag;
  };
  refuted(call("torch.multinomial", {T({2, 3, 4}, 0), I(1, 1)}), "multinomial_c1");
  refuted(call("torch.multinomial", {T({3}, 0), I(0, 1)}), "multinomial_c2");
  RuleResult too_many = call("torch.multinomial", {T({3}, 0), I(4, 1)});
  refuted(too_many, "multinomial_c3");
  EXPECT_EQ(with_tag(too_many, "multinomial_c3").render_message(),
            "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement, got num_samples 4 "
            "for 3 categories (input of shape [3])");
  refuted(call("torch.multinomial", {T({0, (int64_t{1} << 24) + 1}, 0), I(1, 1), Bool(true)}), "multinomial_c4");
  refuted(call("torch.multinomial", {T({2, 0}, 0), I(1, 1)}, {{"replacement", Bool(true)}}), "multinomial_c5");
  RuleResult empty = call("torch.multinomial", {T({0, 0}, 0), I(2, 1), Bool(true)});
  EXPECT_FALSE(empty.refuted);
  EXPECT_EQ(empty.value.shape(), Shape({0, 2}));
}

TEST_F(Rules, EinsumKeepsSymbols) {
  Dim b = Dim::symbol("B"), n = Dim::symbol("N"), k = Dim::symbol("K"), m = Dim::symbol("M");
  Operand eq(Value::string("bij,bjk->bik"), 0);
  RuleResult r = call("torch.einsum", {eq, T({b, n, k}, 1), T({b, k, m}, 2)});
  EXPECT_EQ(r.value.shape(), Shape({b, n, m}));
  EXPECT_FALSE(any_status(r, Status::Deferred));
  RuleResult implicit = call("torch.einsum", {Operand(Value::string("...ij,jk"), 0), T({b, n, k}, 1), T({k, m}, 2)});
  EXPECT_EQ(implicit.value.shape(), Shape({b, n, m}));  // "..." first, then i and k (j is summed)
  RuleResult bad = call("torch.einsum", {Operand(Value::string("ij,jk->ik"), 0), T({2, 3}, 1), T({4, 5}, 2)});
  EXPECT_EQ(with_tag(bad, "einsum_c5").status, Status::Refuted);
  RuleResult unknown_eq = call("torch.einsum", {Operand(Value::string(), 0), T({2, 3}, 1)});
  EXPECT_FALSE(unknown_eq.modelled);
}

TEST_F(Rules, EinopsEinsumNamesAxesWithWords) {
  // einops.einsum(*tensors, pattern): words for axes, the pattern last; the
  // shapes and requirements are torch.einsum's on the renamed equation
  Dim b = Dim::symbol("B"), n = Dim::symbol("N"), k = Dim::symbol("K"), m = Dim::symbol("M");
  RuleResult r = call("einops.einsum", {T({b, n, k}, 0), T({b, k, m}, 1), Operand(Value::string("batch i j, batch j k -> batch i k"), 2)});
  EXPECT_EQ(r.value.shape(), Shape({b, n, m}));
  EXPECT_FALSE(any_status(r, Status::Deferred));
  RuleResult ell = call("einops.einsum", {T({2, 4, 5, 8}, 0), T({2, 4, 6, 8}, 1), Operand(Value::string("... i d, ... j d -> ... i j"), 2)});
  EXPECT_EQ(ell.value.shape(), Shape({2, 4, 5, 6}));
  RuleResult bad = call("einops.einsum", {T({2, 3}, 0), T({4, 5}, 1), Operand(Value::string("i j, j k -> i k"), 2)});
  EXPECT_EQ(with_tag(bad, "einsum_c5").status, Status::Refuted);
  RuleResult rank = call("einops.einsum", {T({2, 3, 4}, 0), Operand(Value::string("i j -> j i"), 1)});
  EXPECT_EQ(with_tag(rank, "einsum_c3").status, Status::Refuted);
  // no '->' is an error in einops; a non-constant pattern is not modelled
  EXPECT_FALSE(call("einops.einsum", {T({2, 3}, 0), Operand(Value::string("i j"), 1)}).modelled);
  EXPECT_FALSE(call("einops.einsum", {T({2, 3}, 0), Operand(Value::string(), 1)}).modelled);
}

TEST_F(Rules, FromNumpyKeepsTheArraysShape) {
  EXPECT_EQ(call("torch.from_numpy", {T({3, 4}, 0)}).value.shape(), Shape({3, 4}));
  // an array the analysis does not know is a tensor of unknown shape, no longer unknown
  RuleResult r = call("torch.from_numpy", {Operand(Value::unknown(), 0)});
  EXPECT_TRUE(r.value.is_tensor());
  EXPECT_FALSE(r.value.shape().rank_known());
}

TEST_F(Rules, RegistryIsConsistent) {
  const RuleRegistry& reg = RuleRegistry::builtin();
  EXPECT_GT(reg.size(), 150u);
  for (const Rule* rule : reg.all()) {
    EXPECT_NE(rule->fn, nullptr) << rule->name;
    EXPECT_FALSE(rule->signature.params().empty()) << rule->name;
  }
  EXPECT_EQ(reg.find("Tensor.reshape")->fn, reg.find("torch.reshape")->fn);  // aliases share one rule
  EXPECT_EQ(reg.find("no.such.op"), nullptr);
}

}  // namespace
}  // namespace gshape::gradual
