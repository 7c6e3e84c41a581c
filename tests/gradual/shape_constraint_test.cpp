// Shapes (printing, broadcasting, dim wrapping) and the constraint language
// (s-expression printer and parser, paired terms, static evaluation).
#include <gtest/gtest.h>

#include "gradual/constraint.h"
#include "gradual/shape.h"

namespace gshape::gradual {
namespace {

TEST(Shape, Printing) {
  Dim b = Dim::symbol("B");
  EXPECT_EQ(Shape({b, 10}).str(), "[B, 10]");
  EXPECT_EQ(Shape(std::vector<Dim>{}).str(), "[]");
  EXPECT_EQ(Shape::unknown().str(), "[*]");
  EXPECT_EQ(Shape({b, 3, 4}).numel(), b * 12);
  EXPECT_FALSE(Shape({b, 3}).constant_sizes());
  EXPECT_EQ(*Shape({2, 3}).constant_sizes(), (std::vector<int64_t>{2, 3}));
}

TEST(Shape, BroadcastingIsExactForConstantsAndSymbols) {
  Dim b = Dim::symbol("B"), c = Dim::symbol("C");
  EXPECT_EQ(broadcast_shapes(Shape({b, 1, 4}), Shape({3, 1})), Shape({b, 3, 4}));
  EXPECT_EQ(broadcast_dim(1, 0), Dim(0));  // 1 with 0 gives 0 (not max)
  EXPECT_EQ(broadcast_dim(b, b), b);
  EXPECT_EQ(broadcast_dim(b, 1), b);
  EXPECT_TRUE(broadcast_compatible(3, 4).is_false());
  EXPECT_TRUE(broadcast_compatible(b, 1).is_true());
  EXPECT_FALSE(broadcast_compatible(b, c).is_constant());
  EXPECT_EQ(broadcast_shapes(Shape::unknown(), Shape({2})), Shape::unknown());
}

TEST(Shape, WrapDim) {
  auto w = wrap_dim(-1, 3);
  EXPECT_TRUE(w.in_range.is_true());
  EXPECT_EQ(w.index, Dim(2));
  EXPECT_TRUE(wrap_dim(3, 3).in_range.is_false());
  EXPECT_TRUE(wrap_dim(-1, 0).in_range.is_true());                       // a 0-d tensor takes -1 and 0
  EXPECT_TRUE(wrap_dim(0, 0, /*wrap_scalar=*/false).in_range.is_false());
}

TEST(Constraint, PrinterUsesTheRuntimeSyntax) {
  CExpr e = cx::op(COp::Eq, {cx::size(1, -1), cx::lit(80)});
  EXPECT_EQ(to_sexpr(e), "(== (size 1 -1) 80)");
  CExpr all = cx::op(COp::And, {cx::op(COp::Ge, {cx::rank(0), cx::lit(1)}),
                                cx::op(COp::Ite, {cx::op(COp::Eq, {cx::int_of(2), cx::lit(-1)}), cx::numel(0),
                                                  cx::item(3, 1)})});
  EXPECT_EQ(to_sexpr(all), "(and (>= (dim 0) 1) (ite (== (int 2) -1) (numel 0) (item 3 1)))");
  EXPECT_EQ(to_sexpr(cx::op(COp::Not, {cx::boolean(true)})), "(not (true))");
  EXPECT_EQ(to_sexpr(cx::attr(0, "in_features")), "(attr 0 in_features)");
}

TEST(Constraint, ParserRoundTrips) {
  for (const char* text : {"(== (size 1 -1) 80)", "(and (>= (dim 0) 1) (< (// (numel 0) 3) (len 2)))",
                           "(or (not (false)) (!= (% (int 1) 4) (neg (abs -3))))",
                           "(== (ite (> (item 2 0) 0) (min 3 (max 1 2)) 5) (attr 0 out_features))", "(and)"}) {
    std::string error;
    CExpr e = parse_sexpr(text, &error);
    ASSERT_TRUE(e) << text << ": " << error;
    EXPECT_EQ(to_sexpr(e), text);
  }
}

TEST(Constraint, ParserRejectsMalformedInput) {
  for (const char* text : {"(== (size 0) 80)", "(frob 1 2)", "(== 1 2", "(+ 1)", "(size -1 0)", "12x", ""}) {
    std::string error;
    EXPECT_FALSE(parse_sexpr(text, &error)) << text;
    EXPECT_FALSE(error.empty()) << text;
  }
}

// A fixed environment: slot 0 is a [B, 3] tensor, slot 1 the int n.
struct FixedEnv : OperandEnv {
  Dim b = Dim::symbol("B");
  Dim n = Dim::symbol("n", false);
  Dim size(int slot, int64_t d) override { return slot == 0 ? (d == 0 || d == -2 ? b : Dim(3)) : Dim::symbol("?"); }
  Dim rank(int) override { return 2; }
  Dim numel(int) override { return b * 3; }
  Dim int_value(int) override { return n; }
  Dim len(int) override { return 2; }
  Dim item(int, int64_t) override { return 7; }
  Dim attr(int, const std::string&) override { return 80; }
};

TEST(Constraint, StaticEvaluation) {
  FixedEnv env;
  CExpr e = parse_sexpr("(== (// (numel 0) (size 0 -1)) (size 0 0))");
  EXPECT_TRUE(eval_bool(e, env).is_true());  // B*3 // 3 == B
  CExpr f = parse_sexpr("(< (size 0 0) (int 1))");
  EXPECT_EQ(eval_bool(f, env), lt(env.b, env.n));
  EXPECT_EQ(eval_int(parse_sexpr("(+ (attr 0 in_features) (item 1 0))"), env), Dim(87));
}

TEST(Constraint, PairedTermsFoldLiteralsAndKeepAccessors) {
  Dim b = Dim::symbol("B");
  IntTerm s(cx::size(1, -1), b);
  BoolTerm c = eq(s, 80);
  EXPECT_EQ(c.sexpr(), "(== (size 1 -1) 80)");
  EXPECT_EQ(c.pred(), eq(b, 80));
  EXPECT_EQ((IntTerm(2) * 3 + 1).sexpr(), "7");           // literals fold
  EXPECT_EQ((s * 1 + 0).sexpr(), "(size 1 -1)");          // identities vanish
  EXPECT_EQ((BoolTerm(true) && c).sexpr(), c.sexpr());
  EXPECT_EQ((BoolTerm(false) || !c).sexpr(), "(!= (size 1 -1) 80)");
  IntTerm known(cx::size(0, 0), Dim(5));
  EXPECT_EQ(eq(known, 5).sexpr(), "(== (size 0 0) 5)");  // an accessor stays even if statically 5
  EXPECT_TRUE(eq(known, 5).pred().is_true());
  IntTerm hidden = IntTerm::opaque(b, "x.size(0)");
  EXPECT_TRUE(eq(hidden, 3).expr()->has_opaque);
  EXPECT_EQ(slots_of(parse_sexpr("(== (size 1 0) (+ (int 3) (size 1 1)))")), (std::vector<int>{1, 3}));
}

}  // namespace
}  // namespace gshape::gradual

namespace gshape::gradual {
namespace {

TEST(ShapeSuffix, UnknownRankWithKnownLastAxes) {
  Dim b = Dim::symbol("B");
  Shape s = Shape::unknown_with_suffix({b, 16});
  EXPECT_FALSE(s.rank_known());
  EXPECT_EQ(s.str(), "[*, B, 16]");
  EXPECT_EQ(s.from_end(-1), Dim(16));
  EXPECT_EQ(s.from_end(-2), b);
  EXPECT_EQ(s.from_end(-3), std::nullopt);  // not known
  EXPECT_EQ(s.from_end(0), std::nullopt);   // counted from the left: the rank is unknown
  EXPECT_NE(s, Shape::unknown());
  EXPECT_EQ(Shape::unknown_with_suffix({}), Shape::unknown());
  EXPECT_EQ(Shape::unknown().str(), "[*]");
  // a known rank's suffix is all of it
  EXPECT_EQ(Shape({b, 3}).from_end(-2), b);
  EXPECT_EQ(Shape({b, 3}).known_suffix().size(), 2u);
}

}  // namespace
}  // namespace gshape::gradual
