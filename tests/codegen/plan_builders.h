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

inline codegen::OperandPlan operand(int slot, std::pair<uint32_t, uint32_t> range, std::string kind = "arg") {
  codegen::OperandPlan op;
  op.slot = slot;
  op.begin = range.first;
  op.end = range.second;
  op.kind = std::move(kind);
  return op;
}

// A site at line 1, column 1 checked by `rule` (empty: by its callee).
inline codegen::SitePlan site(std::vector<codegen::OperandPlan> operands, std::string rule = "operator.add",
                              std::vector<int> obligations = {0}) {
  codegen::SitePlan s;
  s.operands = std::move(operands);
  s.rule = std::move(rule);
  s.obligations = std::move(obligations);
  s.line = 1;
  s.col = 1;
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
