// Small helpers for the codegen unit tests: parse a text into IR, find the
// byte range of a piece of it, and write a one-site plan by hand.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codegen/plan.h"
#include "frontend/ir_builder.h"

namespace gshape::testing {

struct Parsed {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ir::Module> module;
  const std::string& text() const { return file->text(); }
};

inline Parsed parse(std::string text, std::string path = "t.py") {
  Parsed p;
  p.file = std::make_unique<SourceFile>(std::move(path), std::move(text));
  DiagnosticSink diags;
  p.module = build_module(*p.file, diags);
  EXPECT_TRUE(p.module) << "does not parse:\n" << p.file->text();
  return p;
}

// [begin, end) of the `occurrence`-th (0-based) `needle` in `text`, from byte `from` on.
inline std::pair<uint32_t, uint32_t> range_of(const std::string& text, const std::string& needle, int occurrence = 0,
                                              std::size_t from = 0) {
  std::size_t at = text.find(needle, from);
  for (int i = 0; i < occurrence && at != std::string::npos; ++i) at = text.find(needle, at + 1);
  EXPECT_NE(at, std::string::npos) << "'" << needle << "' not in:\n" << text;
  if (at == std::string::npos) return {0, 0};
  return {static_cast<uint32_t>(at), static_cast<uint32_t>(at + needle.size())};
}

inline codegen::OperandPlan operand(int slot, std::pair<uint32_t, uint32_t> range) {
  codegen::OperandPlan op;
  op.slot = slot;
  op.begin = range.first;
  op.end = range.second;
  return op;
}

inline codegen::CheckPlan check(std::string constraint, std::vector<int> slots, int obligation_id = 0) {
  codegen::CheckPlan c;
  c.line = 1;
  c.col = 1;
  c.tag = "t_c1";
  c.constraint = std::move(constraint);
  c.message = "m";
  c.slots = std::move(slots);
  c.obligation_id = obligation_id;
  return c;
}

inline codegen::SitePlan site(std::vector<codegen::OperandPlan> operands, std::vector<codegen::CheckPlan> checks) {
  codegen::SitePlan s;
  s.operands = std::move(operands);
  s.checks = std::move(checks);
  if (!s.operands.empty()) {
    s.begin = s.operands.front().begin;
    s.end = s.operands.back().end;
  }
  return s;
}

inline codegen::FilePlan file_plan(std::string path, std::vector<codegen::SitePlan> sites) {
  codegen::FilePlan p;
  p.path = std::move(path);
  p.sites = std::move(sites);
  return p;
}

}  // namespace gshape::testing
