// Concrete witnesses (gradual/witness.h): evaluation with the Z3
// translation's semantics, the local search, and the solver's use of them.
// The evaluator is checked against Z3 itself: a witness pinned as facts must
// make Z3 prove the conditions, and the solver must reach the same verdict
// on random obligations with and without witnesses (on a live path).
#include "gradual/witness.h"

#include <gtest/gtest.h>

#include <random>

#include "frontend/source.h"
#include "gradual/solver.h"

namespace gshape::gradual {
namespace {

std::optional<int64_t> eval_with(const Dim& d, const Assignment& a) { return evaluate(d.node(), a); }

TEST(WitnessEvaluate, FloorDivisionAndModuloFollowPython) {
  Dim a = Dim::symbol("a", false), b = Dim::symbol("b", false);
  auto at = [&](int64_t x, int64_t y) { return Assignment{{a.node(), x}, {b.node(), y}}; };
  EXPECT_EQ(eval_with(floordiv(a, b), at(-7, 2)), -4);
  EXPECT_EQ(eval_with(mod(a, b), at(-7, 2)), 1);
  EXPECT_EQ(eval_with(floordiv(a, b), at(7, -2)), -4);
  EXPECT_EQ(eval_with(mod(a, b), at(7, -2)), -1);
  EXPECT_EQ(eval_with(mod(a, b), at(6, 3)), 0);
  EXPECT_EQ(eval_with(floordiv(a, b), at(1, 0)), std::nullopt);  // no witness divides by zero
  EXPECT_EQ(eval_with(a * b, at(INT64_MAX, 2)), std::nullopt);   // nor overflows
}

TEST(WitnessEvaluate, OnlyTheTakenBranchAndTheDecidingOperandMatter) {
  Dim a = Dim::symbol("a", false), b = Dim::symbol("b", false);
  Assignment zero_b{{a.node(), 4}, {b.node(), 0}};
  EXPECT_EQ(eval_with(Dim::ite(eq(b, 0), a, floordiv(a, b)), zero_b), 4);
  EXPECT_EQ(evaluate((eq(b, 1) && eq(floordiv(a, b), 2)).node(), zero_b), 0);
  EXPECT_EQ(evaluate((eq(b, 0) || eq(floordiv(a, b), 2)).node(), zero_b), 1);
  EXPECT_EQ(evaluate((eq(b, 0) && eq(floordiv(a, b), 2)).node(), zero_b), std::nullopt);
  EXPECT_EQ(eval_with(a, {}), std::nullopt);  // a symbol without a value
}

TEST(WitnessSearch, FindsValuesThatNeedSeveralSymbolsAtOnce) {
  // view's "only one -1" negated: both sizes must be -1 together
  Dim s0 = Dim::symbol("s0", false), s2 = Dim::symbol("s2", false);
  Pred two_inferred = lt(1, Dim::ite(eq(s0, -1), 1, 0) + Dim::ite(eq(s2, -1), 1, 0));
  auto w = find_witness({two_inferred.node()});
  ASSERT_TRUE(w);
  EXPECT_EQ(evaluate(two_inferred.node(), *w), 1);
}

TEST(WitnessSearch, FollowsEqualitiesAndKeepsSizesNonNegative) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), in = Dim::symbol("in_features");
  std::vector<const TermNode*> conds{eq(in, 37).node(), eq(c, in).node(), ne(b * c, 0).node(),
                                     eq(mod(b * c, 37), 0).node()};
  auto w = find_witness(conds);
  ASSERT_TRUE(w);
  for (const TermNode* n : conds) EXPECT_EQ(evaluate(n, *w), 1);
  for (const auto& [symbol, value] : *w) EXPECT_GE(value, 0);
}

TEST(WitnessSearch, ContradictionsHaveNoWitness) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  EXPECT_FALSE(find_witness({eq(b, c + 1).node(), eq(c, b + 1).node()}));
  EXPECT_FALSE(find_witness({lt(b, 3).node(), lt(5, b).node()}));
}

// Random integer terms over a few symbols, with the operators whose
// semantics the evaluator must share with the Z3 translation.
class RandomTerms {
 public:
  explicit RandomTerms(uint32_t seed) : rng_(seed) {
    for (int i = 0; i < 3; ++i) symbols_.push_back(Dim::symbol("n" + std::to_string(i), false));
    for (int i = 0; i < 2; ++i) symbols_.push_back(Dim::symbol("s" + std::to_string(i)));
  }
  Dim term(int depth) {
    int pick = static_cast<int>(rng_() % (depth <= 0 ? 2 : 9));
    switch (pick) {
      case 0: return symbols_[rng_() % symbols_.size()];
      case 1: return Dim(static_cast<int64_t>(rng_() % 9) - 3);
      case 2: return term(depth - 1) + term(depth - 1);
      case 3: return term(depth - 1) * term(depth - 1);
      case 4: return floordiv(term(depth - 1), Dim(static_cast<int64_t>(rng_() % 7) - 3 == 0 ? 2 : static_cast<int64_t>(rng_() % 7) - 3));
      case 5: return mod(term(depth - 1), Dim(static_cast<int64_t>(rng_() % 5) + 1));
      case 6: return min(term(depth - 1), term(depth - 1));
      case 7: return max(term(depth - 1), term(depth - 1));
      default: return Dim::ite(cond(depth - 1), term(depth - 1), term(depth - 1));
    }
  }
  Pred cond(int depth) {
    switch (rng_() % 4) {
      case 0: return eq(term(depth), term(depth));
      case 1: return lt(term(depth), term(depth));
      case 2: return le(term(depth), term(depth));
      default: return !eq(term(depth), term(depth));
    }
  }

 private:
  std::mt19937 rng_;
  std::vector<Dim> symbols_;
};

TEST(WitnessSearch, EveryWitnessIsAModelForZ3) {
  SourceFile file{"w.py", "x\n"};
  SourceLoc loc{&file, 1, 1, 0, 0};
  RandomTerms gen(7);
  int found = 0;
  for (int i = 0; i < 300; ++i) {
    Pred c = gen.cond(2) && gen.cond(2);
    if (c.is_constant()) continue;
    auto w = find_witness({c.node()});
    if (!w) continue;
    ++found;
    ASSERT_EQ(evaluate(c.node(), *w), 1);
    Solver z3_only(SolverOptions{2000, false});
    for (const auto& [symbol, value] : *w) z3_only.add_fact(eq(Dim(symbol), value), loc, "pinned");
    EXPECT_EQ(z3_only.decide(c).status, Status::Proven) << c.str();
  }
  EXPECT_GT(found, 150);
}

TEST(WitnessSolver, SameVerdictsWithAndWithoutWitnesses) {
  SourceFile file{"w.py", "x\n"};
  SourceLoc loc{&file, 1, 1, 0, 0};
  RandomTerms gen(11);
  int by_witness = 0;
  for (int i = 0; i < 200; ++i) {
    Pred fact = gen.cond(1);
    Pred c = gen.cond(2);
    Solver with(SolverOptions{2000, true}), without(SolverOptions{2000, false});
    with.add_fact(fact, loc, "fact");
    without.add_fact(fact, loc, "fact");
    Verdict a = with.decide(c), b = without.decide(c);
    // a contradictory fact on other symbols makes Z3 prove anything (a dead
    // path); witnesses look only at the facts connected to c and defer
    if (!without.consistent()) continue;
    if (b.status == Status::Deferred && !b.reason.empty() && b.reason.find("could not decide") != std::string::npos)
      continue;  // Z3 itself gave up: nothing to compare
    EXPECT_EQ(a.status, b.status) << "fact " << fact.str() << "; condition " << c.str();
    if (a.by_witness) {
      ++by_witness;
      // the example is a failing one: it violates c
      Assignment values;
      for (const auto& [name, value] : a.example)
        for (const Dim& s : symbols_of(c.node()))
          if (s.symbol_name() == name) values.emplace_back(s.node(), value);
      EXPECT_EQ(evaluate(c.node(), values), 0) << c.str();
    }
  }
  EXPECT_GT(by_witness, 50);
}

TEST(WitnessSolver, DeferredByWitnessHasAFailingExampleAndNoZ3Check) {
  Solver s;
  Dim b = Dim::symbol("B"), in = Dim::symbol("in_features");
  Verdict v = s.decide(eq(b, in));
  EXPECT_EQ(v.status, Status::Deferred);
  EXPECT_TRUE(v.by_witness);
  EXPECT_EQ(v.reason, "B, in_features are unknown");
  ASSERT_EQ(v.example.size(), 2u);
  EXPECT_NE(v.example[0].second, v.example[1].second);
  EXPECT_EQ(s.stats().z3_checks, 0u);
}

}  // namespace
}  // namespace gshape::gradual
