// The libtorch nn oracle: the nn rules' functional forms (and the recurrent
// modules) against the real ATen/libtorch C++ operators, on 240 seeded random
// cases per suite, many invalid near the boundaries. The rule must refute an
// obligation if and only if the C++ operator throws, and otherwise be
// modelled, defer nothing (every input is a constant) and give the same
// result shapes. A case that reaches a check only PyTorch's Python layer
// makes (AtenOutcome::python_only) is not compared here (the Python nn
// oracle, nn_oracle_test.cpp, covers it): another case is drawn in its place
// and the suite prints how many there were.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "gradual/solver.h"
#include "libtorch_nn_oracle.h"
#include "nn_rule_side.h"

namespace gshape::oracle::nn {
namespace {

constexpr int kCases = 240;
constexpr int kMaxDraws = 4 * kCases;  // python-only cases are redrawn, up to this many draws in all

// ------------------------------------------------------------------ the suites

uint64_t seed_of(const NSuite& s) { return std::hash<std::string>()(s.rule + "/libtorch/" + s.target) % 100003 + 31; }

class NnLibtorchOracle : public ::testing::TestWithParam<NSuite> {};

TEST_P(NnLibtorchOracle, RuleAgreesWithLibtorch) {
  const NSuite& suite = GetParam();
  auto start = std::chrono::steady_clock::now();
  Rng rng(seed_of(suite));
  gradual::Solver solver;  // all inputs are constants: nothing reaches Z3, no fact accumulates
  int compared = 0, agree = 0, errors = 0, python_only = 0, draws = 0;
  std::string python_only_example;
  std::vector<std::string> disagreements;
  while (compared < kCases && draws < kMaxDraws) {
    ++draws;
    NCase c = suite.gen(rng);
    AtenOutcome aten = run_aten(suite.target, c);
    if (aten.python_only) {
      ++python_only;
      if (python_only_example.empty()) python_only_example = case_text(suite, c) + ": " + aten.why;
      continue;
    }
    ++compared;
    const NOutcome& torch = aten.outcome;
    if (torch.threw) ++errors;
    std::string problem = rule_disagreement(suite, c, torch, {"libtorch", "throws"}, solver);
    if (problem.empty()) {
      ++agree;
    } else if (disagreements.size() < 8) {
      disagreements.push_back(case_text(suite, c) + ": " + problem);
    }
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ nn libtorch ] %-44s %d cases, %d agree, %d libtorch errors, %d python-only redrawn (%.0f ms)\n",
              suite.rule.c_str(), compared, agree, errors, python_only, ms);
  for (const std::string& d : disagreements) ADD_FAILURE() << d;
  EXPECT_EQ(compared, kCases) << "too many python-only cases, e.g. " << python_only_example;
  EXPECT_EQ(agree, compared);
  if (suite.can_fail) {
    EXPECT_GT(errors, kCases / 50) << "the generator should reach the error boundary";
    EXPECT_LT(errors, kCases - kCases / 5) << "the generator should mostly produce valid calls too";
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, NnLibtorchOracle, ::testing::ValuesIn(aten_suites()),
                         [](const ::testing::TestParamInfo<NSuite>& p) { return test_name(p.param); });

}  // namespace
}  // namespace gshape::oracle::nn
