// Dimension terms: hash-consing, simplification on construction, printing.
#include "gradual/dim.h"
#include "gradual/shape.h"

#include <gtest/gtest.h>

namespace gshape::gradual {
namespace {

TEST(Dim, ConstantsFold) {
  EXPECT_EQ(Dim(3) + Dim(4), Dim(7));
  EXPECT_EQ((Dim(6) * 7).constant_value(), 42);
  EXPECT_EQ(floordiv(Dim(-7), Dim(2)).constant_value(), -4);  // Python floor division
  EXPECT_EQ(mod(Dim(-7), Dim(2)).constant_value(), 1);         // Python modulo
  EXPECT_EQ(floordiv(Dim(7), Dim(-2)).constant_value(), -4);
  EXPECT_EQ(mod(Dim(7), Dim(-2)).constant_value(), -1);
  EXPECT_EQ(min(Dim(3), Dim(5)).constant_value(), 3);
  EXPECT_EQ(max(Dim(3), Dim(5)).constant_value(), 5);
}

TEST(Dim, IdentitiesSimplify) {
  Dim b = Dim::symbol("B");
  EXPECT_EQ(b + 0, b);
  EXPECT_EQ(b * 1, b);
  EXPECT_EQ(b * 0, Dim(0));
  EXPECT_EQ((b + 1) - 1, b);
  EXPECT_EQ(b - b, Dim(0));
  EXPECT_EQ(floordiv(b, 1), b);
  EXPECT_EQ(mod(b, 1), Dim(0));
  EXPECT_EQ(floordiv(b * 6, 3), b * 2);
  EXPECT_EQ(mod(b * 6, 3), Dim(0));
  EXPECT_EQ(mod(b * 6 + 4, 3), Dim(1));
  EXPECT_EQ(floordiv(b * 4 + 6, 2), b * 2 + 3);
}

TEST(Dim, HashConsingMakesEqualTermsIdentical) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  EXPECT_EQ(b * c, c * b);
  EXPECT_EQ(b + c, c + b);
  EXPECT_EQ((b + c) * 2, b * 2 + c * 2);
  EXPECT_NE(b, Dim::symbol("B"));  // every symbol is fresh, even with the same name
}

TEST(Dim, ExactDivisionCancelsFactors) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), h = Dim::symbol("H"), w = Dim::symbol("W");
  EXPECT_EQ(exact_div(b * c * h * w, b), c * h * w);
  EXPECT_EQ(exact_div(b * c * 12, c * 4), b * 3);
  EXPECT_EQ(mod(b * c, c), Dim(0));
}

TEST(Dim, Printing) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C"), h = Dim::symbol("H");
  EXPECT_EQ((b * c).str(), "B*C");
  EXPECT_EQ((floordiv(h - 3, 2) + 1).str(), "(H - 3)//2 + 1");
  EXPECT_EQ((b - c * 2).str(), "B - 2*C");
  EXPECT_EQ((-b + 4).str(), "-B + 4");
  EXPECT_EQ(min(b, c).str(), "min(B, C)");
  EXPECT_EQ(Dim::ite(eq(b, 1), c, b).str(), "(C if B == 1 else B)");
  EXPECT_EQ(floordiv(b, c * h).str(), "B//(C*H)");
  EXPECT_EQ(Dim(-5).str(), "-5");
  // a minus sign before a quotient keeps its parentheses: Python reads
  // `--n//2` as (n)//2, a floor, where -(-n//2) is the ceiling
  Dim n = Dim::symbol("n", /*nonneg=*/false);
  EXPECT_EQ((-floordiv(-n, 2)).str(), "-(-n//2)");
  EXPECT_EQ((-floordiv(b, c)).str(), "-(B//C)");
  EXPECT_EQ((floordiv(b, c) * h).str(), "H*(B//C)");
}

TEST(Dim, DistinctSymbolsOfOneNamePrintApart) {
  Dim x1 = Dim::symbol("x.size(0)"), x2 = Dim::symbol("x.size(0)");
  EXPECT_EQ((x1 + 2 * x2).str(), "x.size(0) + 2*x.size(0)#2");
  EXPECT_EQ(x1.str(), "x.size(0)");
  Shape s({x2, x1});
  EXPECT_EQ(s.str(), "[x.size(0), x.size(0)#2]");  // numbered in the order printed
  {
    SymbolNamingScope one_message;
    std::string first = x1.str();
    std::string second = x2.str();
    EXPECT_EQ(first + " vs " + second, "x.size(0) vs x.size(0)#2");
  }
}

TEST(Dim, ARunawayTermIsCutWhereItStopsFitting) {
  // each step broadcasts against a new unrelated size: the term is a DAG of
  // 40 nodes that prints as a tree of 2^40
  Dim out = Dim::symbol("s");
  for (int i = 0; i < 40; ++i) out = Dim::ite(eq(out, 1), Dim::symbol("t" + std::to_string(i)), out);
  std::string text = out.str();
  EXPECT_LE(text.size(), 3 * kMaxPrintedTerm);
  EXPECT_NE(text.find("\u2026"), std::string::npos);
  EXPECT_EQ(text.rfind("(t39 if ", 0), 0u) << text;
}

// --full-terms for the length of a test.
struct FullTerms {
  FullTerms() { set_full_terms(true); }
  ~FullTerms() { set_full_terms(false); }
};

TEST(Dim, ACutTermPrintsInFullWithItsSharedPartsNamed) {
  Dim out = Dim::symbol("s");
  for (int i = 0; i < 40; ++i) out = Dim::ite(eq(out, 1), Dim::symbol("t" + std::to_string(i)), out);
  const std::string cut = out.str();
  FullTerms full;
  const std::string text = out.str();
  // nothing left out, and linear in the DAG's 40 steps, not the tree's 2^40
  EXPECT_FALSE(has_cut_term(text)) << text;
  EXPECT_LE(text.size(), 40 * 64u) << text;
  EXPECT_EQ(text.rfind("(t39 if _39 == 1 else _39) where _1 = (t0 if s == 1 else s); _2 = (t1 if _1 == 1 else _1); ", 0), 0u)
      << text;
  EXPECT_NE(text.find("; _39 = (t38 if _38 == 1 else _38)"), std::string::npos) << text;
  EXPECT_NE(cut, text);
  // the same term as a condition
  EXPECT_EQ(eq(out, 2).str().rfind("(t39 if _39 == 1 else _39) == 2 where _1 = ", 0), 0u);
}

TEST(Dim, FullTermsLeaveTermsWithinTheCapAsTheyWere) {
  Dim b = Dim::symbol("B"), t = Dim::symbol("T");
  Dim shared = Dim::ite(eq(b, 1), t, b);  // shared twice, but the whole fits
  Dim d = shared * shared + floordiv(shared, 2);
  const std::string capped = d.str();
  FullTerms full;
  EXPECT_EQ(d.str(), capped);
  EXPECT_EQ(capped.find("where"), std::string::npos) << capped;
}

TEST(Dim, AVeryLongTermWithoutSharingPrintsWhole) {
  Dim d = Dim::symbol("x.size(0)");
  for (int i = 0; i < 60; ++i) d = min(d + 1, Dim::symbol("config.n_embd_" + std::to_string(i)));
  EXPECT_TRUE(has_cut_term(d.str()));
  FullTerms full;
  const std::string text = d.str();
  EXPECT_FALSE(has_cut_term(text)) << text;
  EXPECT_EQ(text.find("where"), std::string::npos) << text;
  EXPECT_NE(text.find("config.n_embd_59"), std::string::npos) << text;
}

TEST(Dim, ComparisonsFoldOnConstantDifference) {
  Dim b = Dim::symbol("B");
  EXPECT_TRUE(lt(b, b + 1).is_true());
  EXPECT_TRUE(le(b + 2, b).is_false());
  EXPECT_TRUE(eq(b + 1, b).is_false());
  EXPECT_TRUE(ge(b, 0).is_true());          // sizes are non-negative
  EXPECT_TRUE(eq(b, -1).is_false());        // so a size is never -1
  EXPECT_FALSE(eq(b, 3).is_constant());
  Dim n = Dim::symbol("n", /*nonneg=*/false);
  EXPECT_FALSE(ge(n, 0).is_constant());     // a plain int may be negative
  EXPECT_EQ(ne(b, 3).str(), "B != 3");
}

TEST(Dim, IteSimplifies) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  EXPECT_EQ(Dim::ite(Pred(true), b, c), b);
  EXPECT_EQ(Dim::ite(eq(b, c), b, b), b);
  EXPECT_EQ(Dim::ite(eq(b, 1), 1, b), b);   // broadcasting B with 1 gives B
  EXPECT_EQ(Dim::ite(eq(b, c), b, c), c);
  // the branch is the symbol's own value at that point: `min(16, T) if T == 1 else T` is T
  Dim t = Dim::symbol("T");
  EXPECT_EQ(Dim::ite(eq(t, 1), min(Dim(16), t), t), t);
  EXPECT_EQ(Dim::ite(eq(t, 2), t * t - 2, t), t);
  EXPECT_NE(Dim::ite(eq(t, 1), min(Dim(16), t) + 1, t), t);  // 2 at T = 1: not T
  EXPECT_NE(Dim::ite(eq(t, 1), c, t), t);
}

TEST(Dim, BooleanAlgebra) {
  Dim b = Dim::symbol("B");
  Pred p = eq(b, 3);
  EXPECT_TRUE((p && !p).is_false());
  EXPECT_TRUE((p || !p).is_true());
  EXPECT_EQ(p && Pred(true), p);
  EXPECT_EQ(!!p, p);
  EXPECT_EQ(!lt(b, 3), le(Dim(3), b));
  EXPECT_EQ((p && (eq(b, 4) || lt(b, 2))).str(), "B == 3 and (B == 4 or B < 2)");
}

TEST(Dim, SymbolsOfTerm) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  auto syms = symbols_of((b * c + b).node());
  ASSERT_EQ(syms.size(), 2u);
  EXPECT_EQ(syms[0], b);
  EXPECT_EQ(syms[1], c);
}

TEST(Dim, OverflowThrowsInsteadOfWrapping) {
  Dim big(int64_t{1} << 62);
  EXPECT_THROW(big * 4, std::overflow_error);
}

}  // namespace
}  // namespace gshape::gradual
