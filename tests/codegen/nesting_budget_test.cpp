// The nesting budget: bracket levels as CPython's tokenizer counts them, and
// the rewriter leaving unchecked (and saying so) the sites whose wrappers
// would nest past it. An outside user's `a + b + ... + b` with 201 deferred
// `+` was instrumented 202 calls deep: `SyntaxError: too many nested
// parentheses` under `gshape run`.
#include "codegen/nesting_budget.h"

#include <gtest/gtest.h>

#include "auto_plan.h"
#include "codegen/rewriter.h"
#include "plan_builders.h"

namespace gshape::testing {
namespace {

using codegen::BracketDepths;

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// The level at the first occurrence of `needle`.
uint32_t depth_at(const std::string& text, const std::string& needle) {
  return BracketDepths(text).at(static_cast<uint32_t>(text.find(needle)));
}

TEST(BracketDepths, CountsBracketsOfCodeOnly) {
  std::string text = "f(a, [b, {c: (d)}])  # ((( in a comment\ns = '((' + \"[[\" + '''\n{{\n''' + r'\\\\' + x\n";
  EXPECT_EQ(depth_at(text, "a"), 1u);
  EXPECT_EQ(depth_at(text, "b"), 2u);
  EXPECT_EQ(depth_at(text, "c"), 3u);
  EXPECT_EQ(depth_at(text, "d"), 4u);
  EXPECT_EQ(depth_at(text, "(d"), 4u) << "a bracket is at the level it opens";
  EXPECT_EQ(depth_at(text, "# ((("), 0u);
  EXPECT_EQ(depth_at(text, "x\n"), 0u) << "strings and comments open nothing";
  EXPECT_EQ(BracketDepths(text).max_in(0, static_cast<uint32_t>(text.size())), 4u);
}

TEST(BracketDepths, FStringFieldsCountTheirBraceAndBrackets) {
  std::string text = "y = f'a ({{ {g(x)} }} {w:>{width}} \\N{BULLET} {v!r}' + rf'\\{z}' + z2\n";
  EXPECT_EQ(depth_at(text, "g("), 1u);
  EXPECT_EQ(depth_at(text, "x)"), 2u);
  EXPECT_EQ(depth_at(text, "width"), 2u) << "a field in a format spec";
  EXPECT_EQ(depth_at(text, "BULLET"), 0u) << "\\N{...} is an escape";
  EXPECT_EQ(depth_at(text, "v!r"), 1u);
  EXPECT_EQ(depth_at(text, "z}"), 1u) << "a raw f-string's backslash does not hide the field";
  EXPECT_EQ(depth_at(text, "z2"), 0u);
  // a nested string in a field, with the same quote (Python 3.12)
  std::string nested = "y = f\"{d[\"k(\"]}\" + q\n";
  EXPECT_EQ(depth_at(nested, "d["), 1u);
  EXPECT_EQ(depth_at(nested, "q\n"), 0u);
}

TEST(BracketDepths, DeepestLevelOfARangeOverManyBlocks) {
  std::string text = "x = 1\n" + repeat("y = 2\n", 300) + "z = " + repeat("(", 40) + "1" + repeat(")", 40) + "\n" +
                     repeat("w = 3\n", 300);
  BracketDepths d(text);
  uint32_t z = static_cast<uint32_t>(text.find("z"));
  EXPECT_EQ(d.max_in(0, static_cast<uint32_t>(text.size())), 40u);
  EXPECT_EQ(d.max_in(0, z), 0u);
  EXPECT_EQ(d.max_in(z, z + 30), 26u);
  EXPECT_EQ(d.max_in(static_cast<uint32_t>(text.find("w")), static_cast<uint32_t>(text.size())), 0u);
  for (uint32_t begin = 0; begin < text.size(); begin += 97) {
    for (uint32_t end = begin; end <= text.size(); end += 131) {
      uint32_t expected = 0;
      for (uint32_t k = begin; k < end; ++k) expected = std::max(expected, d.at(k));
      ASSERT_EQ(d.max_in(begin, end), expected) << begin << " " << end;
    }
  }
}

// Every operation of `text` checked (auto plan).
codegen::InstrumentedSource instrument_all(const Parsed& p) {
  return codegen::instrument_source(p.text(), *p.module, plan_every_operation(*p.module));
}

std::size_t count_nested_too_deep(const codegen::InstrumentedSource& out) {
  std::size_t n = 0;
  for (const codegen::SiteOutcome& s : out.site_outcomes) n += s.nested_too_deep;
  return n;
}

TEST(NestingBudget, ALongChainKeepsItsOuterChecksWithinTheBudget) {
  // `a + b + ... + b` with 201 `+`: every `+` wraps the chain before it
  std::string text = "import torch\ny = a" + repeat(" + b", 201) + "\n";
  Parsed p = parse(text);
  codegen::InstrumentedSource out = instrument_all(p);
  ASSERT_TRUE(out.changed);
  EXPECT_LE(BracketDepths(out.text).max_in(0, static_cast<uint32_t>(out.text.size())), codegen::kMaxBracketDepth);
  std::size_t dropped = count_nested_too_deep(out);
  EXPECT_GT(dropped, 90u);
  EXPECT_LT(dropped, 110u);
  EXPECT_EQ(static_cast<std::size_t>(out.sites) + dropped, out.site_outcomes.size());
  // the outermost `+` (the last evaluated) keeps its check, the innermost do not
  EXPECT_NE(out.text.find("stash(0, 0, a + b + b + b"), std::string::npos) << out.text.substr(0, 400);
  EXPECT_EQ(out.text.substr(out.text.size() - 5), ", b)\n");
  for (const codegen::SiteOutcome& s : out.site_outcomes) {
    if (s.nested_too_deep) {
      EXPECT_FALSE(s.instrumented);
      EXPECT_EQ(s.problem.rfind("nested too deep to check at run time: its check would put code ", 0), 0u) << s.problem;
    }
  }
  // their obligations are not instrumentable, with that reason
  for (const codegen::CheckOutcome& o : out.outcomes) {
    if (!o.instrumented) {
      EXPECT_EQ(o.reason.rfind("nested too deep", 0), 0u) << o.reason;
    }
  }
  // one note for the line
  std::string notes = codegen::nesting_notes("t.py", out.site_outcomes);
  EXPECT_EQ(notes, "t.py:2: note: " + std::to_string(dropped) +
                       " operations on this line are not checked at run time: nested too deep for their checks (gshape "
                       "keeps instrumented code within 100 nested brackets; CPython stops at 200)\n");
  // the table numbers the sites that are checked, in order
  EXPECT_NE(out.text.find("_gshape_checks.check(" + std::to_string(out.sites - 1) + ", 1, b)"), std::string::npos);
  EXPECT_EQ(out.text.find("_gshape_checks.check(" + std::to_string(out.sites) + ", "), std::string::npos);
}

TEST(NestingBudget, ShortChainsAndOrdinaryNestingAreUntouched) {
  std::string text = "import torch\ny = a" + repeat(" + b", 40) + "\nz = f(g(h(k(x[0] + 1) * 2)))\n";
  Parsed p = parse(text);
  codegen::InstrumentedSource out = instrument_all(p);
  EXPECT_EQ(count_nested_too_deep(out), 0u);
  EXPECT_EQ(static_cast<std::size_t>(out.sites), out.site_outcomes.size());
  EXPECT_EQ(codegen::nesting_notes("t.py", out.site_outcomes), "");
}

TEST(NestingBudget, CodeAlreadyDeepInBracketsGetsNoWrapperAroundIt) {
  // 120 brackets of the program's own: no site whose operands hold them can
  // be wrapped within the budget; the next statement's can
  std::string text = "import torch\ny = g(" + repeat("(", 120) + "a + b" + repeat(")", 120) + ") - c\nz = c + d\n";
  Parsed p = parse(text);
  codegen::InstrumentedSource out = instrument_all(p);
  EXPECT_EQ(BracketDepths(out.text).max_in(0, static_cast<uint32_t>(out.text.size())), 121u)
      << "the program's own brackets, nothing added";
  EXPECT_EQ(count_nested_too_deep(out), 3u);  // g(...), a + b and the `-`
  EXPECT_NE(out.text.find("\nz = _gshape_checks.stash(0, 0, c) + _gshape_checks.check(0, 1, d)\n"), std::string::npos)
      << out.text;
}

TEST(NestingBudget, CodeTheFrontEndCutIsNeverWrapped) {
  // 399 `+`: the builder cuts the innermost `x` (past 400 levels); every `+`
  // holds it, so none is wrapped, and the note says why
  std::string text = "import torch\ny = x" + repeat(" + x", 399) + "\n";
  Parsed p = parse(text);
  codegen::InstrumentedSource out = instrument_all(p);
  EXPECT_FALSE(out.changed);
  EXPECT_EQ(count_nested_too_deep(out), 399u);
  EXPECT_EQ(codegen::nesting_notes("t.py", out.site_outcomes),
            "t.py:2: note: 399 operations on this line are not checked at run time: their operands hold code nested "
            "deeper than gshape analyses\n");
}

}  // namespace
}  // namespace gshape::testing
