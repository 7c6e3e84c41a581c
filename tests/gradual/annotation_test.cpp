// Shape annotations: jaxtyping dimension strings, the rule name that spells
// a boundary's check, and the check itself on constant and symbolic shapes.
#include <gtest/gtest.h>

#include "gradual/annotation_pattern.h"
#include "gradual/rule_registry.h"
#include "gradual/solver.h"
#include "operand_builders.h"

namespace gshape::gradual {
namespace {

using namespace test_operands;

TEST(AnnotationPattern, ReadsEveryKindOfDimension) {
  PatternParse p = parse_dim_string("  *batch  #b _ _h 784 n+1 2*d (h//2)*w ");
  ASSERT_TRUE(p.pattern) << p.error;
  const auto& d = p.pattern->dims;
  ASSERT_EQ(d.size(), 8u);
  EXPECT_EQ(d[0].kind, DimPattern::Kind::Variadic);
  EXPECT_EQ(d[0].name, "batch");
  EXPECT_EQ(d[1].kind, DimPattern::Kind::Name);
  EXPECT_TRUE(d[1].broadcast);
  EXPECT_EQ(d[2].kind, DimPattern::Kind::Anonymous);
  EXPECT_EQ(d[3].kind, DimPattern::Kind::Anonymous);
  EXPECT_EQ(d[4].kind, DimPattern::Kind::Literal);
  EXPECT_EQ(d[4].value, 784);
  EXPECT_EQ(d[5].kind, DimPattern::Kind::Expr);
  EXPECT_EQ(d[7].kind, DimPattern::Kind::Expr);
  EXPECT_EQ(p.pattern->text, "*batch #b _ _h 784 n+1 2*d (h//2)*w");
  EXPECT_EQ(p.pattern->display(), "[*batch, #b, _, _h, 784, n+1, 2*d, (h//2)*w]");
  EXPECT_EQ(p.pattern->fixed_count(), 7u);
}

TEST(AnnotationPattern, RejectsWhatJaxtypingRejects) {
  EXPECT_FALSE(parse_dim_string("... *batch").pattern);  // two variadic dimensions
  EXPECT_FALSE(parse_dim_string("n+").pattern);
  EXPECT_FALSE(parse_dim_string("#").pattern);
  EXPECT_FALSE(parse_dim_string("a$b").pattern);
  EXPECT_TRUE(parse_dim_string("").pattern);  // a scalar
}

TEST(AnnotationPattern, RuleNamesRoundTrip) {
  AnnotationCheck check;
  check.operands.push_back({"the value returned by f", *parse_dim_string("b n+m").pattern, false});
  check.operands.push_back({"argument x of f", *parse_dim_string("b n").pattern, true});
  std::string name = annotation_rule_name(check);
  EXPECT_EQ(name, "gshape.annotation:the value returned by f=b n+m|~argument x of f=b n");
  auto back = parse_annotation_rule_name(name);
  ASSERT_TRUE(back);
  ASSERT_EQ(back->operands.size(), 2u);
  EXPECT_TRUE(back->operands[1].given);
  EXPECT_EQ(back->operands[0].pattern.text, "b n+m");
  EXPECT_EQ(RuleRegistry::builtin().find(name), RuleRegistry::builtin().find(name));  // built once
  EXPECT_EQ(RuleRegistry::builtin().find("gshape.annotation:no pattern"), nullptr);
}

class AnnotationRule : public ::testing::Test {
 protected:
  Solver solver;
  std::vector<Obligation> obligations;

  RuleResult check(const std::string& spec, std::vector<Operand> operands) {
    const Rule* rule = RuleRegistry::builtin().find(spec);
    EXPECT_NE(rule, nullptr) << spec;
    CallSite site;
    site.name = spec;
    site.positional = std::move(operands);
    return apply_rule(*rule, site, solver, obligations);
  }
  std::vector<std::string> refuted(const RuleResult& r) {
    std::vector<std::string> out;
    for (int id : r.obligations)
      if (obligations[static_cast<std::size_t>(id)].status == Status::Refuted)
        out.push_back(obligations[static_cast<std::size_t>(id)].tag + ": " +
                      obligations[static_cast<std::size_t>(id)].render_message());
    return out;
  }
};

TEST_F(AnnotationRule, NamesBindAcrossArguments) {
  const std::string spec = "gshape.annotation:argument x of f=b n|argument y of f=b m";
  EXPECT_TRUE(refuted(check(spec, {T({4, 3}, 0), T({4, 2}, 1)})).empty());
  std::vector<std::string> bad = refuted(check(spec, {T({4, 3}, 0), T({5, 2}, 1)}));
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0], "annotation_c3: argument y of f expects [b, m] but gets [5, 2]: dimension 0 is 5 but b = 4 "
                    "(from argument x of f)");
}

TEST_F(AnnotationRule, RankLiteralsArithmeticAndBroadcast) {
  EXPECT_EQ(refuted(check("gshape.annotation:argument x of f=b 784", {T({32, 1, 28, 28}, 0)})).front(),
            "annotation_c1: argument x of f expects [b, 784] but gets [32, 1, 28, 28]: 2 dimensions expected");
  EXPECT_EQ(refuted(check("gshape.annotation:argument x of f=b 784", {T({32, 780}, 0)})).front(),
            "annotation_c2: argument x of f expects [b, 784] but gets [32, 780]: dimension 1 is 780 instead of 784");
  const std::string cat = "gshape.annotation:r=b n+m|~argument x of f=b n|~argument y of f=b m";
  EXPECT_TRUE(refuted(check(cat, {T({4, 5}, 0), T({4, 3}, 1), T({4, 2}, 2)})).empty());
  EXPECT_EQ(refuted(check(cat, {T({4, 6}, 0), T({4, 3}, 1), T({4, 2}, 2)})).front(),
            "annotation_c4: r expects [b, n+m] but gets [4, 6]: dimension 1 is 6 but n+m = 5");
  const std::string bc = "gshape.annotation:a=b n|b=#b n";
  EXPECT_TRUE(refuted(check(bc, {T({4, 3}, 0), T({1, 3}, 1)})).empty());
  EXPECT_FALSE(refuted(check(bc, {T({4, 3}, 0), T({2, 3}, 1)})).empty());
}

TEST_F(AnnotationRule, VariadicAxesAreTheSameEverywhere) {
  const std::string spec = "gshape.annotation:x=*batch n d|mask=*batch n";
  EXPECT_TRUE(refuted(check(spec, {T({4, 6, 10, 32}, 0), T({4, 6, 10}, 1)})).empty());
  EXPECT_TRUE(refuted(check(spec, {T({10, 32}, 0), T({10}, 1)})).empty());
  EXPECT_FALSE(refuted(check(spec, {T({4, 6, 10, 32}, 0), T({4, 10}, 1)})).empty());
  EXPECT_FALSE(refuted(check(spec, {T({4, 6, 10, 32}, 0), T({4, 7, 10}, 1)})).empty());
  EXPECT_TRUE(refuted(check("gshape.annotation:x=... c", {T({2, 3, 4, 5}, 0)})).empty());
}

TEST_F(AnnotationRule, SymbolicSizesAreDeferredAndUnknownRanksTakeThePattern) {
  Dim b = Dim::symbol("B"), d = Dim::symbol("D");
  RuleResult r = check("gshape.annotation:x=b 784", {T({b, d}, 0)});
  EXPECT_TRUE(refuted(r).empty());
  bool deferred = false;
  for (int id : r.obligations) deferred = deferred || obligations[static_cast<std::size_t>(id)].status == Status::Deferred;
  EXPECT_TRUE(deferred);
  // an operand of unknown rank: after the check it is what the pattern says,
  // names shared with the other operands
  RuleResult u = check("gshape.annotation:x=b 784|y=b 10", {Operand(Value::unknown(), 0), T({b, 10}, 1)});
  ASSERT_TRUE(u.modelled) << u.note;
  const std::vector<Value>* items = u.value.items();
  ASSERT_TRUE(items);
  ASSERT_EQ(items->size(), 2u);
  EXPECT_EQ((*items)[0].shape(), Shape({b, Dim::constant(784)}));
}

TEST_F(AnnotationRule, AValueThatIsNoTensorFailsButNonePasses) {
  // jaxtyping admits tensors only; None stays allowed (`mask: ... = None`)
  std::vector<std::string> bad = refuted(check("gshape.annotation:argument x of f=b", {I(3, 0)}));
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0], "annotation_c1: argument x of f expects a tensor [b] but gets an int");
  EXPECT_TRUE(refuted(check("gshape.annotation:argument x of f=b", {Operand(Value::none(), 0)})).empty());
}

}  // namespace
}  // namespace gshape::gradual
