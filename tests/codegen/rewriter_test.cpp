// The rewriter on small programs with hand-made plans: the exact text it
// inserts, the order of stash/check, and the operands it refuses.
#include "codegen/rewriter.h"

#include <gtest/gtest.h>

#include "plan_builders.h"

namespace gshape::testing {
namespace {

using codegen::InstrumentedSource;

// Every test program starts with this line, which receives the header.
const std::string kFirst = "import torch\n";

// The range of `needle` in `text` after the first line.
std::pair<uint32_t, uint32_t> code_range(const std::string& text, const std::string& needle, int occurrence = 0) {
  return range_of(text, needle, occurrence, text.find('\n') + 1);
}

// The instrumented text after the first line.
std::string rest(const InstrumentedSource& out) { return out.text.substr(out.text.find('\n') + 1); }

InstrumentedSource instrument(const Parsed& p, const codegen::FilePlan& plan) {
  return codegen::instrument_source(p.text(), *p.module, plan);
}

// A plan with one site whose operands are the given pieces of text (slot i =
// pieces[i]).
codegen::FilePlan one_site(const std::string& text, const std::vector<std::string>& pieces) {
  std::vector<codegen::OperandPlan> operands;
  for (std::size_t i = 0; i < pieces.size(); ++i) operands.push_back(operand(static_cast<int>(i), code_range(text, pieces[i])));
  return file_plan("t.py", {site(operands)});
}

TEST(Rewriter, MatmulGetsStashThenCheckAndTheHeader) {
  Parsed p = parse(kFirst + "y = a @ b\n");
  codegen::SitePlan s = site({operand(0, range_of(p.text(), "a")), operand(1, range_of(p.text(), "b"))}, "operator.matmul", {7});
  s.line = 2;
  s.col = 5;
  InstrumentedSource out = instrument(p, file_plan("t.py", {s}));
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.sites, 1);
  EXPECT_EQ(out.text,
            "import gshape_runtime as _gshape_rt; _gshape_checks = _gshape_rt.CheckTable('t.py', "
            "[(2, 5, 'operator.matmul', ['arg', 'arg'])]); "
            "import torch\n"
            "y = _gshape_checks.stash(0, 0, a) @ _gshape_checks.check(0, 1, b)\n");
  ASSERT_EQ(out.outcomes.size(), 1u);
  EXPECT_TRUE(out.outcomes[0].instrumented);
  EXPECT_EQ(out.outcomes[0].obligation_id, 7);
  EXPECT_EQ(out.outcomes[0].runtime_site, 0);
}

TEST(Rewriter, NestedSitesNest) {
  std::string text = kFirst + "y = self.fc2(self.fc1(x))\n";
  Parsed p = parse(text);
  codegen::FilePlan plan = file_plan(
      "t.py", {site({operand(0, code_range(text, "self.fc1(x)"))}),
               site({operand(0, code_range(text, "x"))})});
  EXPECT_EQ(rest(instrument(p, plan)),
            "y = self.fc2(_gshape_checks.check(0, 0, self.fc1(_gshape_checks.check(1, 0, x))))\n");
}

TEST(Rewriter, ReceiverAndArgumentsInSourceOrder) {
  std::string text = kFirst + "z = x.view(b, -1)\n";
  Parsed p = parse(text);
  EXPECT_EQ(rest(instrument(p, one_site(text, {"x", "b", "-1"}))),
            "z = _gshape_checks.stash(0, 0, x).view(_gshape_checks.stash(0, 1, b), _gshape_checks.check(0, 2, -1))\n");
}

TEST(Rewriter, CheckGoesOnTheOperandEvaluatedLast) {
  // CPython evaluates `*b` before the keyword argument written before it.
  std::string text = kFirst + "f(k=a, *b)\n";
  Parsed p = parse(text);
  codegen::FilePlan plan = one_site(text, {"k=a", "*b"});
  EXPECT_EQ(rest(instrument(p, plan)), "f(k=_gshape_checks.check(0, 0, a), *_gshape_checks.stash(0, 1, b))\n");
  // Slot order does not matter, evaluation order does: the outer list is complete last.
  std::string text2 = kFirst + "torch.cat([u, w])\n";
  Parsed p2 = parse(text2);
  EXPECT_EQ(rest(instrument(p2, one_site(text2, {"u", "[u, w]", "w"}))),
            "torch.cat(_gshape_checks.check(0, 1, [_gshape_checks.stash(0, 0, u), _gshape_checks.stash(0, 2, w)]))\n");
}

TEST(Rewriter, AssignedValueIsEvaluatedBeforeTheTargetsParts) {
  std::string text = kFirst + "x[i] = v\n";
  Parsed p = parse(text);
  EXPECT_EQ(rest(instrument(p, one_site(text, {"x", "i", "v"}))),
            "_gshape_checks.stash(0, 0, x)[_gshape_checks.check(0, 1, i)] = _gshape_checks.stash(0, 2, v)\n");
}

TEST(Rewriter, AnIndexHoldingASliceIsReadThroughTheRuntimesIndexObject) {
  // `a:b` is no expression; `_gshape_rt.index[a:b, i]` is the key Python
  // passes to __getitem__/__setitem__, from the same text in the same order
  std::string text = kFirst + "y = x[1:n, i]\npe[:, 0::2] = v\n";
  Parsed p = parse(text);
  codegen::FilePlan plan = file_plan(
      "t.py", {site({operand(0, code_range(text, "x")), operand(1, code_range(text, "1:n, i"))}, "operator.getitem"),
               site({operand(0, code_range(text, "pe")), operand(1, code_range(text, ":, 0::2")),
                     operand(2, code_range(text, "v"))},
                    "operator.setitem")});
  EXPECT_EQ(rest(instrument(p, plan)),
            "y = _gshape_checks.stash(0, 0, x)[_gshape_checks.check(0, 1, _gshape_rt.index[1:n, i])]\n"
            "_gshape_checks.stash(1, 0, pe)[_gshape_checks.check(1, 1, _gshape_rt.index[:, 0::2])] = "
            "_gshape_checks.stash(1, 2, v)\n");
}

TEST(Rewriter, AStarredIndexIsPassedAsTheOneItemTupleItIs) {
  // tester9/02: `x[*idx]` (Python 3.11) was wrapped as `(*idx)`, a SyntaxError
  std::string text = kFirst + "y = x[*idx]\n";
  Parsed p = parse(text);
  codegen::FilePlan plan = file_plan(
      "t.py", {site({operand(0, code_range(text, "x")), operand(1, code_range(text, "*idx"))}, "operator.getitem")});
  EXPECT_EQ(rest(instrument(p, plan)), "y = _gshape_checks.stash(0, 0, x)[_gshape_checks.check(0, 1, (*idx,))]\n");
}

TEST(Rewriter, StarredOperandIsWrappedInsideTheStar) {
  std::string text = kFirst + "y = [*a, c]\n";
  Parsed p = parse(text);
  EXPECT_EQ(rest(instrument(p, one_site(text, {"*a", "c"}))),
            "y = [*_gshape_checks.stash(0, 0, a), _gshape_checks.check(0, 1, c)]\n");
}

TEST(Rewriter, KeywordArgumentRangeWrapsItsValue) {
  std::string text = kFirst + "s = x.sum(dim=d)\n";
  Parsed p = parse(text);
  EXPECT_EQ(rest(instrument(p, one_site(text, {"dim=d"}))), "s = x.sum(dim=_gshape_checks.check(0, 0, d))\n");
}

TEST(Rewriter, ParenthesesWhereAnArgumentNeedsThem) {
  struct Case {
    std::string code, operand, expected;
  };
  std::vector<Case> cases = {
      {"y = torch.cat((a, b), 0)\n", "(a, b)", "y = torch.cat(_gshape_checks.check(0, 0, ((a, b))), 0)\n"},
      {"for t in a, b: pass\n", "a, b", "for t in  _gshape_checks.check(0, 0, (a, b)): pass\n"},
      {"y = f((z := g()))\n", "z := g()", "y = f((_gshape_checks.check(0, 0, (z := g()))))\n"},
      {"y = f(lambda: 1)\n", "lambda: 1", "y = f(_gshape_checks.check(0, 0, (lambda: 1)))\n"},
      {"y = f(a if c else b)\n", "a if c else b", "y = f(_gshape_checks.check(0, 0, (a if c else b)))\n"},
      {"def g():\n    y = f((yield x))\n", "yield x", "def g():\n    y = f((_gshape_checks.check(0, 0, (yield x))))\n"},
  };
  for (const Case& c : cases) {
    std::string text = kFirst + c.code;
    Parsed p = parse(text);
    EXPECT_EQ(rest(instrument(p, one_site(text, {c.operand}))), c.expected) << c.code;
  }
}

TEST(Rewriter, GeneratorThatIsTheWholeArgumentList) {
  std::string text = kFirst + "s = sum(x for x in y)\n";
  Parsed p = parse(text);
  EXPECT_EQ(rest(instrument(p, one_site(text, {"(x for x in y)"}))),
            "s = sum (_gshape_checks.check(0, 0, (x for x in y),))\n");
}

TEST(Rewriter, SpaceAfterAKeywordTouchingTheOperand) {
  std::string text = kFirst + "for t in(a, b): pass\n";
  Parsed p = parse(text);
  EXPECT_EQ(rest(instrument(p, one_site(text, {"(a, b)"}))), "for t in _gshape_checks.check(0, 0, ((a, b))): pass\n");
}

TEST(Rewriter, AugmentedAssignmentToANameReadsTheNameAgain) {
  std::string text = kFirst + "x += y\n";
  Parsed p = parse(text);
  EXPECT_EQ(rest(instrument(p, one_site(text, {"x", "y"}))),
            "x += (_gshape_checks.stash(0, 0, x,), _gshape_checks.check(0, 1, y))[1]\n");
  // The target alone: it is then the last operand, so it gets the check.
  Parsed p2 = parse(text);
  EXPECT_EQ(rest(instrument(p2, one_site(text, {"x"}))), "x += (_gshape_checks.check(0, 0, x,), y)[1]\n");
}

TEST(Rewriter, AugmentedAssignmentToAnAttributeOrSubscriptReadsItAgain) {
  // `self.h += x` is everyday code: the check needs the target's value too
  std::string text = kFirst + "self.h += y\nbuf[:, i] *= y\n";
  Parsed p = parse(text);
  codegen::FilePlan plan = file_plan("t.py", {site({operand(0, code_range(text, "self.h")), operand(1, code_range(text, "y"))}),
                                              site({operand(0, code_range(text, "buf[:, i]")),
                                                    operand(1, code_range(text, "y", 1))})});
  EXPECT_EQ(rest(instrument(p, plan)),
            "self.h += (_gshape_checks.stash(0, 0, self.h,), _gshape_checks.check(0, 1, y))[1]\n"
            "buf[:, i] *= (_gshape_checks.stash(1, 0, buf[:, i],), _gshape_checks.check(1, 1, y))[1]\n");
}

// The reason a one-operand site on `piece` of `code` is not instrumented.
std::string refusal(const std::string& code, const std::string& piece, int occurrence = 0) {
  std::string text = kFirst + code;
  Parsed p = parse(text);
  codegen::FilePlan plan = file_plan("t.py", {site({operand(0, code_range(text, piece, occurrence))})});
  InstrumentedSource out = instrument(p, plan);
  EXPECT_FALSE(out.changed) << code;
  EXPECT_EQ(out.text, text);
  if (out.outcomes.size() != 1 || out.outcomes[0].instrumented) return "<instrumented>";
  return out.outcomes[0].reason;
}

TEST(Rewriter, OperandsThatCannotBeWrappedAreReportedNotGuessed) {
  EXPECT_NE(refusal("self.h[f(i)] += y\n", "self.h[f(i)]").find("augmented assignment"), std::string::npos);
  EXPECT_NE(refusal("g().h += y\n", "g().h").find("augmented assignment"), std::string::npos);
  EXPECT_NE(refusal("del x[i]\n", "x[i]").find("`del` target"), std::string::npos);
  EXPECT_NE(refusal("x[i] = v\n", "x[i]").find("assignment target"), std::string::npos);
  EXPECT_NE(refusal("a, b = v\n", "a").find("assignment target"), std::string::npos);
  EXPECT_NE(refusal("for t in v: pass\n", "t", 0).find("assignment target"), std::string::npos);
  EXPECT_NE(refusal("print(f\"{x.size(0)=}\")\n", "x").find("{expr=}"), std::string::npos);
  EXPECT_NE(refusal("y = a @ b\n", "a @").find("not an expression"), std::string::npos);
  EXPECT_NE(refusal("x += yield z\n", "x").find("cannot be wrapped"), std::string::npos);
  EXPECT_NE(refusal("def f(a: T[n]) -> R[n]: pass\n", "T[n]").find("annotation"), std::string::npos);
  EXPECT_NE(refusal("v: T[n] = 1\n", "T[n]").find("annotation"), std::string::npos);
}

TEST(Rewriter, ASiteIsCheckedWithTheOperandsThatCanBeRead) {
  // x[i] is an assignment target: the check runs without it (the rule sees an
  // unknown operand there) and the outcome says so.
  std::string text = kFirst + "x[i] = v + w\n";
  Parsed p = parse(text);
  codegen::FilePlan plan = file_plan(
      "t.py", {site({operand(0, code_range(text, "x[i]")), operand(1, code_range(text, "v")), operand(2, code_range(text, "w"))},
                    "operator.add", {1, 2})});
  InstrumentedSource out = instrument(p, plan);
  EXPECT_EQ(rest(out), "x[i] = _gshape_checks.stash(0, 1, v) + _gshape_checks.check(0, 2, w)\n");
  ASSERT_EQ(out.outcomes.size(), 2u);
  EXPECT_TRUE(out.outcomes[0].instrumented);
  EXPECT_TRUE(out.outcomes[1].instrumented);
  ASSERT_EQ(out.site_outcomes.size(), 1u);
  EXPECT_NE(out.site_outcomes[0].problem.find("operand 0 cannot be read (the operand is an assignment target)"),
            std::string::npos)
      << out.site_outcomes[0].problem;
  EXPECT_EQ(out.sites, 1);
  // without its callee a call cannot be checked at all
  std::string call = kFirst + "f(a)\n";
  Parsed q = parse(call);
  // "f(" is no expression
  codegen::SitePlan unreadable = site({operand(0, code_range(call, "f("), "callee"), operand(1, code_range(call, "a"))}, "");
  InstrumentedSource refused = instrument(q, file_plan("t.py", {unreadable}));
  EXPECT_FALSE(refused.changed);
  ASSERT_EQ(refused.outcomes.size(), 1u);
  EXPECT_FALSE(refused.outcomes[0].instrumented);
  EXPECT_NE(refused.outcomes[0].reason.find("the callee cannot be read"), std::string::npos);
}

TEST(Rewriter, FileWithoutSitesIsUnchanged) {
  Parsed p = parse("import torch\r\nx = 1\r\n");
  InstrumentedSource out = codegen::instrument_source(p.text(), *p.module, file_plan("t.py", {}));
  EXPECT_FALSE(out.changed);
  EXPECT_EQ(out.text, p.text());
  EXPECT_EQ(out.text.find("gshape_runtime"), std::string::npos);
}

TEST(Rewriter, InsertionsKeepTheLineStructure) {
  std::string text = "import torch\r\ny = (a @\r\n     b)\r\nz = f(\r\n  c)\r\n";
  Parsed p = parse(text);
  codegen::FilePlan plan = file_plan("t.py", {site({operand(0, code_range(text, "a")), operand(1, code_range(text, "b"))}),
                                              site({operand(0, code_range(text, "c"))})});
  InstrumentedSource out = instrument(p, plan);
  EXPECT_EQ(rest(out), "y = (_gshape_checks.stash(0, 0, a) @\r\n     _gshape_checks.check(0, 1, b))\r\nz = f(\r\n  _gshape_checks.check(1, 0, c))\r\n");
  EXPECT_EQ(std::count(out.text.begin(), out.text.end(), '\n'), std::count(text.begin(), text.end(), '\n'));
  EXPECT_EQ(std::count(out.text.begin(), out.text.end(), '\r'), std::count(text.begin(), text.end(), '\r'));
}

TEST(Rewriter, TableLiteralsAreAsciiWithoutLineBreaks) {
  std::string text = kFirst + "y = f(\xc3\xb1=a)\n";
  Parsed p = parse(text, "dir/\xc3\xa9t\xc3\xa9.py");
  codegen::FilePlan plan = file_plan(
      p.file->path(), {site({operand(0, code_range(text, "f"), "callee"), operand(1, code_range(text, "a"), "\xc3\xb1=")}, "")});
  InstrumentedSource out = instrument(p, plan);
  std::string header = out.text.substr(0, out.text.find('\n'));
  EXPECT_NE(header.find("CheckTable('dir/\\xe9t\\xe9.py', [(1, 1, None, ['callee', '\\xf1='])])"), std::string::npos)
      << header;
  for (unsigned char c : header) EXPECT_LT(c, 0x80);
}

}  // namespace
}  // namespace gshape::testing
