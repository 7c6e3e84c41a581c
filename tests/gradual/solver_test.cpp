// The Z3 discharge engine: proven / refuted / deferred (with a model),
// timeouts, facts and scopes, unsat cores mapped to locations, the
// constant fast path, and the typical query time.
#include "gradual/solver.h"

#include <gtest/gtest.h>

#include <chrono>

#include "frontend/source.h"

namespace gshape::gradual {
namespace {

class SolverTest : public ::testing::Test {
 protected:
  SourceFile file{"train.py", "a\nb\nc\nd\ne\nf\n"};
  SourceLoc line(uint32_t n) { return SourceLoc{&file, n, 1, 0, 0}; }

  Obligation obligation(const std::string& tag, const Pred& p, uint32_t at) {
    Obligation ob;
    ob.tag = tag;
    ob.loc = line(at);
    ob.constraint = BoolTerm(cx::opaque(p.str()), p);
    return ob;
  }
};

TEST_F(SolverTest, ProvenWithCoreFromFacts) {
  Solver s;
  Dim b = Dim::symbol("B");
  s.add_fact(eq(b, 3), line(2), "assert B == 3");
  Verdict v = s.decide(eq(b * 2, 6));
  EXPECT_EQ(v.status, Status::Proven);
  EXPECT_TRUE(v.core.empty());  // a proof's core is asked for when it is printed
  ASSERT_TRUE(v.pending_core);
  std::vector<FactRef> core = s.core_of(*v.pending_core);
  ASSERT_EQ(core.size(), 1u);
  EXPECT_EQ(core[0].loc.line, 2u);
  EXPECT_EQ(core[0].description, "assert B == 3");
  EXPECT_FALSE(v.without_z3);
}

TEST_F(SolverTest, RefutedWithCore) {
  Solver s;
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  s.add_fact(gt(b, 10), line(3), "if B > 10");
  s.add_fact(eq(c, 1), line(4), "unrelated");
  Verdict v = s.decide(eq(b, 3));
  EXPECT_EQ(v.status, Status::Refuted);
  ASSERT_EQ(v.core.size(), 1u);  // only the fact that matters
  EXPECT_EQ(v.core[0].loc.line, 3u);
}

TEST_F(SolverTest, DeferredWithFailingExample) {
  Solver s;
  Dim b = Dim::symbol("B");
  Verdict v = s.decide(eq(b, 80));
  EXPECT_EQ(v.status, Status::Deferred);
  EXPECT_EQ(v.reason, "B is unknown");
  ASSERT_EQ(v.example.size(), 1u);
  EXPECT_EQ(v.example[0].first, "B");
  EXPECT_NE(v.example[0].second, 80);  // a value that fails the check
  EXPECT_GE(v.example[0].second, 0);   // sizes are non-negative
}

TEST_F(SolverTest, SizesAreNonNegative) {
  Solver s;
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  EXPECT_EQ(s.decide(ge(b * c, 0)).status, Status::Proven);
  EXPECT_EQ(s.decide(eq(b + c, -1)).status, Status::Refuted);
  Dim n = Dim::symbol("n", false);
  EXPECT_EQ(s.decide(ge(n, 0)).status, Status::Deferred);
}

TEST_F(SolverTest, DischargeAssumesTheConstraintAfterwards) {
  Solver s;
  Dim b = Dim::symbol("B");
  Obligation first = obligation("linear_c1", eq(b, 80), 5);
  s.discharge(first);
  EXPECT_EQ(first.status, Status::Deferred);
  Obligation second = obligation("linear_c1", eq(b * 2, 160), 6);
  s.discharge(second);
  EXPECT_EQ(second.status, Status::Proven);  // the runtime check at line 5 enforced it
  ASSERT_TRUE(second.pending_core);
  std::vector<FactRef> core = s.core_of(*second.pending_core);
  ASSERT_EQ(core.size(), 1u);
  EXPECT_EQ(core[0].loc.line, 5u);
  EXPECT_EQ(core[0].description, "linear_c1 (checked here)");
  EXPECT_EQ(s.stats().obligations, 2u);
  EXPECT_EQ(s.stats().deferred, 1u);
  EXPECT_EQ(s.stats().proven, 1u);
}

TEST_F(SolverTest, RefutedObligationsAreNotAssumed) {
  Solver s;
  Dim b = Dim::symbol("B");
  s.add_fact(eq(b, 4), line(1), "B = 4");
  Obligation bad = obligation("view_c5", eq(b, 5), 2);
  s.discharge(bad);
  EXPECT_EQ(bad.status, Status::Refuted);
  EXPECT_TRUE(s.consistent());
  EXPECT_EQ(s.decide(eq(b, 5)).status, Status::Refuted);
}

TEST_F(SolverTest, ScopesFollowBranches) {
  Solver s;
  Dim b = Dim::symbol("B");
  s.push_scope();
  s.add_fact(eq(b, 2), line(1), "if B == 2");
  EXPECT_EQ(s.decide(lt(b, 3)).status, Status::Proven);
  s.add_fact(eq(b, 7), line(2), "contradiction");
  EXPECT_FALSE(s.consistent());
  s.pop_scope();
  EXPECT_TRUE(s.consistent());
  EXPECT_EQ(s.decide(lt(b, 3)).status, Status::Deferred);
  EXPECT_EQ(s.scope_depth(), 0u);
  // a symbol first seen inside a popped scope keeps its >= 0 axiom afterwards
  Dim c = Dim::symbol("C");
  s.push_scope();
  EXPECT_EQ(s.decide(ge(c + b, 0)).status, Status::Proven);
  s.pop_scope();
  EXPECT_EQ(s.decide(eq(c, -1)).status, Status::Refuted);
}

TEST_F(SolverTest, ConstantObligationsSkipZ3) {
  Solver s;
  Obligation a = obligation("view_c5", eq(Dim(12), Dim(3) * 4), 1);
  Obligation b = obligation("view_c5", eq(Dim(12), Dim(5)), 2);
  s.discharge(a);
  s.discharge(b);
  EXPECT_EQ(a.status, Status::Proven);
  EXPECT_EQ(b.status, Status::Refuted);
  EXPECT_TRUE(a.decided_without_z3);
  EXPECT_TRUE(b.decided_without_z3);
  EXPECT_EQ(s.stats().decided_without_z3, 2u);
  EXPECT_EQ(s.stats().z3_checks, 0u);
}

TEST_F(SolverTest, TimeoutGivesDeferredWithReason) {
  Solver s(SolverOptions{30});
  Dim x = Dim::symbol("x"), y = Dim::symbol("y"), z = Dim::symbol("z");
  s.add_fact(ge(x, 1) && ge(y, 1) && ge(z, 1), line(1), "positive");
  // x^3 + y^3 == z^3 has no positive solution, but no decision procedure knows that
  Pred fermat = ne(x * x * x + y * y * y, z * z * z);
  auto start = std::chrono::steady_clock::now();
  Verdict v = s.decide(fermat);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(v.status, Status::Deferred);
  EXPECT_NE(v.reason.find("could not decide"), std::string::npos) << v.reason;
  EXPECT_LT(secs, 5.0);
  EXPECT_GE(s.stats().z3_unknown, 1u);
}

TEST_F(SolverTest, FloorDivisionMatchesPython) {
  Solver s;
  Dim n = Dim::symbol("n", false), d = Dim::symbol("d", false);
  s.add_fact(eq(n, -7) && eq(d, 2), line(1), "n, d = -7, 2");
  EXPECT_EQ(s.decide(eq(floordiv(n, d), -4)).status, Status::Proven);
  EXPECT_EQ(s.decide(eq(mod(n, d), 1)).status, Status::Proven);
  Dim m = Dim::symbol("m", false), e = Dim::symbol("e", false);
  s.add_fact(eq(m, 7) && eq(e, -2), line(2), "m, e = 7, -2");
  EXPECT_EQ(s.decide(eq(floordiv(m, e), -4)).status, Status::Proven);
  EXPECT_EQ(s.decide(eq(mod(m, e), -1)).status, Status::Proven);
}

// The brief's reference: ~0.08 ms for a typical symbolic obligation.
TEST_F(SolverTest, TypicalQueryTime) {
  Solver s;
  const int n = 300;
  for (int i = 0; i < n; ++i) {
    // a different size each time: the same form would be answered by the cache
    Dim b = Dim::symbol("B"), c = Dim::symbol("C");
    s.add_fact(eq(c, 784 + i), line(1), "assert x.shape[1] == 784 + i");
    Obligation ob = obligation("linear_c1", eq(c, 784 + i) && ge(b * c, 0), 2);
    s.discharge(ob);
    ASSERT_EQ(ob.status, Status::Proven);
  }
  double per_check_ms = 1000.0 * s.stats().z3_seconds / static_cast<double>(s.stats().z3_checks);
  std::printf("[ solver   ] %d typical obligations: %.4f ms per Z3 check (max %.3f ms)\n", n, per_check_ms,
              1000.0 * s.stats().max_check_seconds);
  EXPECT_LT(per_check_ms, 50.0);
}

// A function analysed again in another context asks the same question of
// fresh symbols: the verdict comes from the cache, and its core names the
// facts of the second question, not the first's.
TEST_F(SolverTest, AQueryOfTheSameFormOverFreshSymbolsIsAnsweredFromTheCache) {
  Solver s;
  Dim h1 = Dim::symbol("h"), p1 = Dim::symbol("p");
  s.add_fact(eq(mod(h1, p1), 0), line(1), "first context");
  s.add_fact(gt(p1, 0), line(1), "p > 0 (first)");
  Verdict first = s.decide(eq(floordiv(h1, p1) * p1, h1));
  ASSERT_EQ(first.status, Status::Proven);
  uint64_t checks = s.stats().z3_checks;

  Dim h2 = Dim::symbol("h"), p2 = Dim::symbol("p");
  s.add_fact(eq(mod(h2, p2), 0), line(2), "second context");
  s.add_fact(gt(p2, 0), line(2), "p > 0 (second)");
  Verdict second = s.decide(eq(floordiv(h2, p2) * p2, h2));
  EXPECT_EQ(second.status, Status::Proven);
  EXPECT_EQ(s.stats().z3_checks, checks);
  EXPECT_EQ(s.stats().cache_hits, 1u);
  ASSERT_TRUE(second.pending_core);
  std::vector<FactRef> core = s.core_of(*second.pending_core);
  ASSERT_FALSE(core.empty());
  for (const FactRef& f : core) EXPECT_EQ(f.loc.line, 2u) << f.description;

  // the same form without the divisibility fact is another question
  Dim h3 = Dim::symbol("h"), p3 = Dim::symbol("p");
  s.add_fact(gt(p3, 0), line(3), "p > 0 (third)");
  Verdict third = s.decide(eq(floordiv(h3, p3) * p3, h3));
  EXPECT_EQ(third.status, Status::Deferred);
}

// Facts over other symbols cannot change a verdict, and a hard one among
// them no longer makes an easy query end unknown.
TEST_F(SolverTest, FactsOverOtherSymbolsDoNotReachTheQuery) {
  Solver s;
  Dim a = Dim::symbol("a"), b = Dim::symbol("b"), c = Dim::symbol("c");
  s.add_fact(eq(a * a * a + b * b * b, c * c * c), line(1), "hard, unrelated");
  Dim n = Dim::symbol("n");
  s.add_fact(eq(n, 4), line(2), "n == 4");
  Verdict v = s.decide(eq(n * 2, 8));
  EXPECT_EQ(v.status, Status::Proven);
  ASSERT_TRUE(v.pending_core);
  std::vector<FactRef> core = s.core_of(*v.pending_core);
  ASSERT_EQ(core.size(), 1u);
  EXPECT_EQ(core[0].loc.line, 2u);
  // a contradiction among the facts is still seen by consistent()
  s.add_fact(eq(n, 5), line(3), "n == 5");
  EXPECT_FALSE(s.consistent());
}

}  // namespace
}  // namespace gshape::gradual
