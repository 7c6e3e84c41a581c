// The normal form of size terms (gradual/normal_form.h): the identities it
// shows, the conditions it leaves undecided, and agreement with concrete
// evaluation (witness.h's, Python semantics) on random values.
#include "gradual/normal_form.h"

#include <gtest/gtest.h>

#include <random>

#include "frontend/source.h"
#include "gradual/solver.h"
#include "gradual/witness.h"

namespace gshape::gradual {
namespace {

TEST(NormalForm, FloorDivisionOfASumWithAMultipleOfTheDivisor) {
  NormalForm nf;
  Dim h = Dim::symbol("h"), k = Dim::symbol("k"), w = Dim::symbol("w");
  // unfold's count of windows against the plain quotient
  EXPECT_EQ(nf.decide(eq(floordiv(h - k, k) + 1, floordiv(h, k))), true);
  // a product of sums multiplied out
  Dim n = floordiv(h - k, k) + 1;
  EXPECT_EQ(nf.decide(eq(k * k * n * (6 * floordiv(h - k, k) + 6), 6 * floordiv(h, k) * floordiv(h, k) * k * k)), true);
  // (x*k*w)//(k*w) and (x + 2*k) % k
  Dim x = Dim::symbol("x");
  EXPECT_EQ(nf.decide(eq(floordiv(x * k * w, k * w), x)), true);
  EXPECT_EQ(nf.decide(eq(mod(x + 2 * k, k), mod(x, k))), true);
}

TEST(NormalForm, SquaresAreNotNegative) {
  NormalForm nf;
  Dim a = Dim::symbol("a", /*nonneg=*/false);
  EXPECT_EQ(nf.decide(le(0, a * a)), true);
  EXPECT_EQ(nf.decide(eq(a * a, -1)), false);
  // the ite that guards reshape's -1 picks its else branch
  EXPECT_EQ(nf.decide(eq(Dim::ite(eq(a * a, -1), 1, a * a), a * a)), true);
}

TEST(NormalForm, LeavesUndecidedWhatDependsOnValues) {
  NormalForm nf;
  Dim h = Dim::symbol("h"), k = Dim::symbol("k");
  Dim a = Dim::symbol("a", false);
  EXPECT_EQ(nf.decide(eq(floordiv(h, k) * k, h)), std::nullopt);  // only when k divides h
  EXPECT_EQ(nf.decide(le(0, a * a * a)), std::nullopt);             // an odd power of a signed value
  EXPECT_EQ(nf.decide(lt(h, k)), std::nullopt);
  EXPECT_EQ(nf.decide(eq(mod(h, k), 0)), std::nullopt);
}

TEST(NormalForm, AgreesWithEvaluationOnRandomValues) {
  // every condition it calls true (false) evaluates to true (false) at
  // random values with non-zero divisors
  std::mt19937 rng(7);
  Dim s[3] = {Dim::symbol("p"), Dim::symbol("q"), Dim::symbol("r", false)};
  std::uniform_int_distribution<int> pick(0, 2), small(-3, 3), op(0, 5);
  auto random_term = [&](auto& self, int depth) -> Dim {
    if (depth == 0 || op(rng) == 0) return small(rng) == 0 ? Dim(small(rng)) : s[pick(rng)];
    Dim a = self(self, depth - 1), b = self(self, depth - 1);
    switch (op(rng)) {
      case 1: return a + b;
      case 2: return a - b;
      case 3: return a * b;
      case 4: return floordiv(a * b + a, b);
      default: return mod(a + 2 * b, b);
    }
  };
  NormalForm nf;
  int decided = 0;
  for (int i = 0; i < 1200; ++i) {
    Dim a = random_term(random_term, 3), b = random_term(random_term, 3);
    // a third of them an identity through a division: (a*p + b*p*p)//p - b*p == a
    if (i % 3 == 2) b = floordiv(a * s[0] + b * s[0] * s[0], s[0]) - b * s[0];
    Pred c = (i % 2) ? eq(a, b) : le(a, b);
    std::optional<bool> verdict = nf.decide(c);
    if (!verdict) continue;
    ++decided;
    for (int t = 0; t < 30; ++t) {
      std::uniform_int_distribution<int64_t> size(0, 9), any(-9, 9);
      Assignment values{{s[0].node(), size(rng)}, {s[1].node(), size(rng)}, {s[2].node(), any(rng)}};
      std::optional<int64_t> v = evaluate(c.node(), values);
      if (!v) continue;  // a divisor is zero there: outside what the normal form claims
      EXPECT_EQ(*v != 0, *verdict) << c.str();
    }
  }
  EXPECT_GT(decided, 100);
}

TEST(NormalForm, TheSolverProvesWhatZ3GivesUpOn) {
  // the reshape of samples/hyper/config_file.py: Z3 ends unknown on it
  Solver solver;
  Dim image = Dim::symbol("image", false), patch = Dim::symbol("patch", false);
  Dim n = floordiv(image - patch, patch) + 1;
  Pred c = eq(patch * patch * n * (6 * floordiv(image - patch, patch) + 6),
              6 * floordiv(image, patch) * floordiv(image, patch) * patch * patch);
  EXPECT_EQ(solver.query(c), true);
  EXPECT_EQ(solver.stats().decided_by_normal_form, 1u);
}

}  // namespace
}  // namespace gshape::gradual
