// build_plans: every call and operator of a file becomes a site with a
// run-time check, unless the analysis proved it safe in every visit.
#include "codegen/plan.h"

#include <gtest/gtest.h>

#include "plan_builders.h"

namespace gshape::testing {
namespace {

// A one-module project holding `text`.
Project project_of(std::string text) {
  Project project;
  ProjectModule m;
  m.file = std::make_unique<SourceFile>("m.py", std::move(text));
  DiagnosticSink diags;
  m.ir = build_module(*m.file, diags);
  EXPECT_TRUE(m.ir);
  project.modules.push_back(std::move(m));
  return project;
}

SourceLoc loc_of(const Project& project, const std::string& piece, uint32_t line, uint32_t column) {
  const SourceFile& file = *project.modules[0].file;
  auto range = range_of(file.text(), piece);
  SourceLoc loc;
  loc.file = &file;
  loc.line = line;
  loc.column = column;
  loc.begin = range.first;
  loc.end = range.second;
  return loc;
}

gradual::Obligation obligation(int id, const SourceLoc& site, gradual::Status status) {
  gradual::Obligation ob;
  ob.id = id;
  ob.loc = site;
  ob.rule = "operator.matmul";
  ob.tag = "matmul_c1";
  ob.status = status;
  return ob;
}

gradual::SiteSummary visited(const SourceLoc& loc) {
  gradual::SiteSummary s;
  s.loc = loc;
  s.visits = 2;
  return s;
}

const codegen::SitePlan* site_at(const codegen::FilePlan& plan, uint32_t line, uint32_t col) {
  for (const codegen::SitePlan& s : plan.sites)
    if (s.line == line && s.col == col) return &s;
  return nullptr;
}

std::vector<std::string> kinds(const codegen::SitePlan& s) {
  std::vector<std::string> out;
  for (const codegen::OperandPlan& o : s.operands) out.push_back(o.kind);
  return out;
}

TEST(BuildPlans, EverySiteTheAnalysisDidNotReachIsChecked) {
  Project p = project_of(
      "y = a @ b\n"
      "z = f(x, *r, dim=1, **kw)\n"
      "w = -y\n"
      "q = a < b\n"
      "if not a or a is None or a < b < c: pass\n"
      "a += b\n"
      "def g(v: f(1)) -> h(2): pass\n");
  std::vector<codegen::FilePlan> plans = codegen::build_plans(p, {}, {});
  ASSERT_EQ(plans.size(), 1u);
  const codegen::FilePlan& plan = plans[0];
  EXPECT_EQ(plan.path, "m.py");
  ASSERT_EQ(plan.sites.size(), 7u);  // not `is`, a chained comparison, or calls in annotations
  ASSERT_TRUE(site_at(plan, 1, 5));
  EXPECT_EQ(site_at(plan, 1, 5)->rule, "operator.matmul");
  EXPECT_EQ(kinds(*site_at(plan, 1, 5)), (std::vector<std::string>{"arg", "arg"}));
  EXPECT_EQ(site_at(plan, 1, 5)->reason, "the analysis did not reach it");
  const codegen::SitePlan* call = site_at(plan, 2, 5);
  ASSERT_TRUE(call);
  EXPECT_EQ(call->rule, "");  // the callee decides at run time
  EXPECT_EQ(kinds(*call), (std::vector<std::string>{"callee", "arg", "*", "dim=", "**"}));
  EXPECT_EQ(call->operands[1].begin, range_of(p.modules[0].file->text(), "x").first);
  ASSERT_TRUE(site_at(plan, 3, 5));
  EXPECT_EQ(site_at(plan, 3, 5)->rule, "operator.neg");
  ASSERT_TRUE(site_at(plan, 4, 5));
  EXPECT_EQ(site_at(plan, 4, 5)->rule, "operator.lt");
  ASSERT_TRUE(site_at(plan, 6, 1));
  EXPECT_EQ(site_at(plan, 6, 1)->rule, "operator.iadd");
  // the if's test and `not a` convert a value to bool (a tensor's truth needs one element)
  ASSERT_TRUE(site_at(plan, 5, 1));
  EXPECT_EQ(site_at(plan, 5, 1)->rule, "operator.truth");
  ASSERT_TRUE(site_at(plan, 5, 4));
  EXPECT_EQ(site_at(plan, 5, 4)->rule, "operator.truth");
}

TEST(BuildPlans, ASiteProvenInEveryVisitIsLeftOut) {
  Project p = project_of("y = a @ b\nz = c @ d\n");
  SourceLoc first = loc_of(p, "a @ b", 1, 5), second = loc_of(p, "c @ d", 2, 5);
  std::vector<gradual::Obligation> obligations = {obligation(0, first, gradual::Status::Proven),
                                                  obligation(1, second, gradual::Status::Proven)};
  std::vector<gradual::SiteSummary> sites = {visited(first), visited(second)};
  EXPECT_TRUE(codegen::build_plans(p, obligations, sites).empty());

  // a deferred obligation, a refuted one, or a visit that could not tell
  // what it applies keeps the check
  obligations[1].status = gradual::Status::Refuted;
  std::vector<codegen::FilePlan> refuted = codegen::build_plans(p, obligations, sites);
  ASSERT_EQ(refuted.size(), 1u);
  ASSERT_EQ(refuted[0].sites.size(), 1u);
  EXPECT_EQ(refuted[0].sites[0].status, codegen::CheckStatus::Refuted);
  EXPECT_EQ(refuted[0].sites[0].obligations, std::vector<int>{1});
  EXPECT_EQ(refuted[0].sites[0].reason, "a requirement is not proven");

  obligations[1].status = gradual::Status::Proven;
  sites[0].unresolved = true;
  sites[0].what = "an operand is not known (it may be a tensor)";
  std::vector<codegen::FilePlan> unresolved = codegen::build_plans(p, obligations, sites);
  ASSERT_EQ(unresolved.size(), 1u);
  ASSERT_EQ(unresolved[0].sites.size(), 1u);
  EXPECT_EQ(unresolved[0].sites[0].line, 1u);
  EXPECT_EQ(unresolved[0].sites[0].reason, "an operand is not known (it may be a tensor)");

  sites[0].unresolved = false;
  codegen::PlanOptions all;
  all.check_proven = true;
  std::vector<codegen::FilePlan> every = codegen::build_plans(p, obligations, sites, all);
  ASSERT_EQ(every.size(), 1u);
  EXPECT_EQ(every[0].sites.size(), 2u);
}

TEST(BuildPlans, ARequirementAwayFromACallOrOperatorIsRejected) {
  Project p = project_of("y = x.T\n");
  std::vector<codegen::FilePlan> plans =
      codegen::build_plans(p, {obligation(3, loc_of(p, "x.T", 1, 5), gradual::Status::Deferred)}, {});
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_TRUE(plans[0].sites.empty());
  ASSERT_EQ(plans[0].rejected.size(), 1u);
  EXPECT_EQ(plans[0].rejected[0].obligation_id, 3);
  EXPECT_NE(plans[0].rejected[0].reason.find("not at a call or an operator"), std::string::npos);
}

}  // namespace
}  // namespace gshape::testing
