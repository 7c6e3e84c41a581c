// build_plans: obligations → per-file, per-site plans.
#include "codegen/plan.h"

#include <gtest/gtest.h>

#include "plan_builders.h"

namespace gshape::testing {
namespace {

SourceLoc loc_of(const SourceFile& file, std::pair<uint32_t, uint32_t> range, uint32_t line, uint32_t column) {
  SourceLoc loc;
  loc.file = &file;
  loc.line = line;
  loc.column = column;
  loc.begin = range.first;
  loc.end = range.second;
  return loc;
}

gradual::Obligation obligation(int id, const SourceLoc& site, const std::string& constraint,
                               std::vector<std::pair<int, SourceLoc>> slots, gradual::Status status) {
  gradual::Obligation ob;
  ob.id = id;
  ob.loc = site;
  ob.rule = "torch.matmul";
  ob.tag = "matmul_c" + std::to_string(id);
  ob.constraint = gradual::BoolTerm(gradual::parse_sexpr(constraint), gradual::Pred(true));
  ob.message = gradual::Message("shapes differ");
  for (auto& [slot, loc] : slots) {
    gradual::SlotInfo info;
    info.slot = slot;
    info.description = slot == 0 ? "mat1" : "mat2";
    info.loc = loc;
    ob.slots.push_back(info);
  }
  ob.status = status;
  return ob;
}

TEST(BuildPlans, GroupsObligationsByFileAndCallSite) {
  std::string text = "y = a @ b\nz = c @ d\n";
  SourceFile file("m.py", text);
  SourceLoc site1 = loc_of(file, range_of(text, "a @ b"), 1, 5);
  SourceLoc site2 = loc_of(file, range_of(text, "c @ d"), 2, 5);
  SourceLoc a = loc_of(file, range_of(text, "a"), 1, 5), b = loc_of(file, range_of(text, "b"), 1, 9);
  SourceLoc c = loc_of(file, range_of(text, "c"), 2, 5), d = loc_of(file, range_of(text, "d"), 2, 9);
  std::vector<gradual::Obligation> obligations = {
      obligation(0, site1, "(== (size 0 -1) (size 1 -2))", {{0, a}, {1, b}}, gradual::Status::Deferred),
      obligation(1, site1, "(>= (dim 0) 1)", {{0, a}}, gradual::Status::Refuted),
      obligation(2, site1, "(>= (dim 1) 1)", {{1, b}}, gradual::Status::Proven),
      obligation(3, site2, "(== (size 0 -1) (size 1 -2))", {{0, c}, {1, d}}, gradual::Status::Deferred),
  };
  std::vector<codegen::FilePlan> plans = codegen::build_plans(obligations);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].path, "m.py");
  ASSERT_EQ(plans[0].sites.size(), 2u);
  const codegen::SitePlan& s = plans[0].sites[0];
  EXPECT_EQ(s.line, 1u);
  ASSERT_EQ(s.checks.size(), 2u);  // the proven one is not there
  EXPECT_EQ(s.checks[0].constraint, "(== (size 0 -1) (size 1 -2))");
  EXPECT_EQ(s.checks[0].slots, (std::vector<int>{0, 1}));
  EXPECT_EQ(s.checks[0].status, codegen::CheckStatus::Deferred);
  EXPECT_EQ(s.checks[1].status, codegen::CheckStatus::Refuted);
  EXPECT_EQ(s.checks[1].obligation_id, 1);
  ASSERT_EQ(s.checks[0].slot_names.size(), 2u);
  EXPECT_EQ(*s.checks[0].slot_names[1], "mat2");
  ASSERT_EQ(s.operands.size(), 2u);
  EXPECT_EQ(s.operands[0].begin, a.begin);
  EXPECT_EQ(s.operands[1].end, b.end);
  EXPECT_TRUE(plans[0].rejected.empty());
  EXPECT_EQ(plans[0].sites[1].checks.at(0).obligation_id, 3);
}

TEST(BuildPlans, RejectsWhatTheRuntimeCannotEvaluate) {
  std::string text = "y = a @ b\n";
  SourceFile file("m.py", text);
  SourceLoc site = loc_of(file, range_of(text, "a @ b"), 1, 5);
  gradual::Obligation ob = obligation(5, site, "(== 1 1)", {}, gradual::Status::Deferred);
  ob.constraint = gradual::BoolTerm(gradual::parse_sexpr("(== (opaque \"n\") 3)"), gradual::Pred(true));
  ASSERT_TRUE(ob.constraint.expr());
  std::vector<codegen::FilePlan> plans = codegen::build_plans({ob});
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_TRUE(plans[0].sites.empty());
  ASSERT_EQ(plans[0].rejected.size(), 1u);
  EXPECT_EQ(plans[0].rejected[0].obligation_id, 5);
  EXPECT_NE(plans[0].rejected[0].reason.find("cannot reach"), std::string::npos);
}

TEST(BuildPlans, OperandsWithoutALocationAreReported) {
  std::string text = "y = a @ b\n";
  SourceFile file("m.py", text);
  SourceLoc site = loc_of(file, range_of(text, "a @ b"), 1, 5);
  SourceLoc a = loc_of(file, range_of(text, "a"), 1, 5);
  gradual::Obligation ob = obligation(4, site, "(== (size 0 -1) (size 1 -2))", {{0, a}, {1, SourceLoc{}}},
                                      gradual::Status::Deferred);
  std::vector<codegen::FilePlan> plans = codegen::build_plans({ob});
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_TRUE(plans[0].sites.empty());
  ASSERT_EQ(plans[0].rejected.size(), 1u);
  EXPECT_EQ(plans[0].rejected[0].reason, "the analysis gave no source location for operand 1 (mat2)");
}

TEST(BuildPlans, DisagreeingOperandLocationsAreRejected) {
  std::string text = "y = a @ b\n";
  SourceFile file("m.py", text);
  SourceLoc site = loc_of(file, range_of(text, "a @ b"), 1, 5);
  SourceLoc a = loc_of(file, range_of(text, "a"), 1, 5), b = loc_of(file, range_of(text, "b"), 1, 9);
  std::vector<codegen::FilePlan> plans = codegen::build_plans(
      {obligation(0, site, "(>= (dim 0) 1)", {{0, a}}, gradual::Status::Deferred),
       obligation(1, site, "(>= (dim 0) 2)", {{0, b}}, gradual::Status::Deferred)});
  ASSERT_EQ(plans.size(), 1u);
  ASSERT_EQ(plans[0].sites.size(), 1u);
  EXPECT_EQ(plans[0].sites[0].checks.size(), 1u);
  ASSERT_EQ(plans[0].rejected.size(), 1u);
  EXPECT_NE(plans[0].rejected[0].reason.find("disagree"), std::string::npos);
}

TEST(BuildPlans, ProvenOnlyFilesHaveNoPlan) {
  std::string text = "y = a @ b\n";
  SourceFile file("m.py", text);
  SourceLoc site = loc_of(file, range_of(text, "a @ b"), 1, 5);
  EXPECT_TRUE(codegen::build_plans({obligation(0, site, "(true)", {}, gradual::Status::Proven)}).empty());
}

}  // namespace
}  // namespace gshape::testing
