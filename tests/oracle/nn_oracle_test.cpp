// The nn oracle: every nn rule (module construction and forward, functional
// forms, losses) against PyTorch 1.13 itself on at least 200 seeded random
// cases per suite, many invalid near the boundaries. PyTorch runs in one
// /usr/bin/python3 process for all suites (the modules' Python code is part
// of their semantics: constructor checks, RNN hidden-state checks,
// F.multi_head_attention_forward, F.interpolate). The rules must refute an
// obligation if and only if PyTorch raises (at construction or at the
// call), and otherwise be modelled, defer nothing (every input is a
// constant) and give the same result shapes.
#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "gradual/solver.h"
#include "nn_oracle.h"
#include "nn_rule_side.h"

namespace gshape::oracle::nn {
namespace {

constexpr int kCases = 240;

// ------------------------------------------------------------------ all suites, one Python run

std::vector<NSuite> all_suites() {
  std::vector<NSuite> out;
  for (auto family : {conv_suites, pool_suites, norm_suites, layer_suites, resample_suites, recurrent_suites, attention_suites, loss_suites}) {
    for (NSuite& s : family()) out.push_back(std::move(s));
  }
  return out;
}

std::string key_of(const NSuite& s) { return s.target + "|" + s.rule; }
uint64_t seed_of(const NSuite& s) { return std::hash<std::string>()(s.rule + "/" + s.target) % 100003 + 29; }

struct SuiteRun {
  std::vector<NCase> cases;
  std::vector<NOutcome> torch;
};

// Generates every suite's cases and runs them all through PyTorch once.
const std::map<std::string, SuiteRun>& torch_runs(std::string* error) {
  static std::map<std::string, SuiteRun> runs;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::pair<std::string, NCase>> flat;
    std::vector<NSuite> suites = all_suites();
    for (const NSuite& s : suites) {
      Rng rng(seed_of(s));
      SuiteRun& run = runs[key_of(s)];
      for (int i = 0; i < kCases; ++i) {
        run.cases.push_back(s.gen(rng));
        flat.emplace_back(s.target, run.cases.back());
      }
    }
    std::vector<NOutcome> outcomes = run_python(flat, &failure);
    std::size_t k = 0;
    for (const NSuite& s : suites) {
      SuiteRun& run = runs[key_of(s)];
      for (int i = 0; i < kCases && k < outcomes.size(); ++i) run.torch.push_back(outcomes[k++]);
    }
  });
  *error = failure;
  return runs;
}

class NnOracle : public ::testing::TestWithParam<NSuite> {};

TEST_P(NnOracle, RuleAgreesWithPyTorch) {
  const NSuite& suite = GetParam();
  std::string error;
  const auto& runs = torch_runs(&error);
  ASSERT_TRUE(error.empty()) << error;
  const SuiteRun& run = runs.at(key_of(suite));
  ASSERT_EQ(run.torch.size(), run.cases.size());
  int agree = 0, errors = 0;
  std::vector<std::string> disagreements;
  gradual::Solver solver;  // all inputs are constants: nothing reaches Z3, no fact accumulates
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const NCase& c = run.cases[i];
    const NOutcome& torch = run.torch[i];
    if (torch.threw) ++errors;
    std::string problem = rule_disagreement(suite, c, torch, {"PyTorch", "raises"}, solver);
    if (problem.empty()) {
      ++agree;
    } else if (disagreements.size() < 8) {
      disagreements.push_back(case_text(suite, c) + ": " + problem);
    }
  }
  std::printf("[ nn oracle ] %-44s %d cases, %d agree, %d PyTorch errors\n", suite.rule.c_str(),
              static_cast<int>(run.cases.size()), agree, errors);
  for (const std::string& d : disagreements) ADD_FAILURE() << d;
  EXPECT_EQ(agree, static_cast<int>(run.cases.size()));
  if (suite.can_fail) {
    EXPECT_GT(errors, kCases / 50) << "the generator should reach the error boundary";
    EXPECT_LT(errors, kCases - kCases / 5) << "the generator should mostly produce valid calls too";
  }
}

// The run-time check (the same rule, run by gshape_runtime on the module
// object PyTorch built and on the actual arguments) raises exactly when
// PyTorch raises, and decides every case PyTorch accepts.
TEST_P(NnOracle, RunTimeCheckAgreesWithPyTorch) {
  const NSuite& suite = GetParam();
  std::string error;
  const auto& runs = torch_runs(&error);
  ASSERT_TRUE(error.empty()) << error;
  const SuiteRun& run = runs.at(key_of(suite));
  if (run.torch.empty() || run.torch.front().runtime.empty()) GTEST_SKIP() << "built without the runtime";
  int agree = 0, shown = 0, sizes = 0;
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const std::string& verdict = run.torch[i].runtime;
    if (verdict.rfind("agree", 0) == 0) {
      ++agree;
      if (verdict != "agree" && sizes++ < 3) std::printf("  %s: %s\n", case_text(suite, run.cases[i]).c_str(), verdict.c_str());
    } else if (shown++ < 8) {
      ADD_FAILURE() << case_text(suite, run.cases[i]) << ": " << verdict;
    }
  }
  std::printf("[ runtime   ] %-44s %d cases, %d agree, %d messages without a size PyTorch names\n", suite.rule.c_str(),
              static_cast<int>(run.cases.size()), agree, sizes);
  EXPECT_EQ(agree, static_cast<int>(run.cases.size()));
  // The remaining differences are PyTorch reporting another failing check
  // first or a number it derives (a flattened size, an internal padding).
  EXPECT_LE(sizes, static_cast<int>(run.cases.size()) / 20) << "messages without the sizes PyTorch names";
}

INSTANTIATE_TEST_SUITE_P(Rules, NnOracle, ::testing::ValuesIn(all_suites()),
                         [](const ::testing::TestParamInfo<NSuite>& p) { return test_name(p.param); });

}  // namespace
}  // namespace gshape::oracle::nn
