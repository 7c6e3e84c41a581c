// Diagnostics: the sink, and render_text / render_json (carets with tabs and
// non-ASCII text, notes, file-level errors, range ends).
#include <gtest/gtest.h>

#include <sstream>

#include "frontend/diagnostics.h"

namespace gshape {
namespace {

std::string text_of(const Diagnostic& d, bool color = false) {
  std::ostringstream out;
  render_text(out, d, color);
  return out.str();
}

std::string json_of(const Diagnostic& d) {
  std::ostringstream out;
  render_json(out, d);
  return out.str();
}

// A location covering bytes [begin, end) of `f`, on `line` at `column`.
SourceLoc at(const SourceFile& f, uint32_t line, uint32_t column, uint32_t begin, uint32_t end) {
  return SourceLoc{&f, line, column, begin, end};
}

TEST(RenderText, HeaderSourceLineAndCaretWithRange) {
  SourceFile f("m.py", "x = foo(y)\n");
  Diagnostic d{Severity::Error, at(f, 1, 5, 4, 10), {}, "bad call", "linear_c1", {}};
  EXPECT_EQ(text_of(d), "m.py:1:5: error: bad call [linear_c1]\n  x = foo(y)\n      ^~~~~~\n");
}

TEST(RenderText, CaretKeepsTabsSoItLinesUp) {
  SourceFile f("t.py", "\tif x:\n\t\ty = z\n");
  // `z` on line 2: two tabs, "y = " then z at column 7.
  Diagnostic d{Severity::Warning, at(f, 2, 7, 13, 14), {}, "unknown name", {}, {}};
  EXPECT_EQ(text_of(d), "t.py:2:7: warning: unknown name\n  \t\ty = z\n  \t\t    ^\n");
}

TEST(RenderText, NonAsciiTextTakesOneColumnPerCodePoint) {
  SourceFile f("u.py", "é = \"€€\" + bad\n");
  // "bad" starts at byte 16, column 12.
  ASSERT_EQ(f.column_of(1, 16), 12u);
  Diagnostic d{Severity::Error, at(f, 1, 12, 16, 19), {}, "m", {}, {}};
  EXPECT_EQ(text_of(d), "u.py:1:12: error: m\n  é = \"€€\" + bad\n             ^~~\n");
  // Underlining non-ASCII text: one mark per code point ("€€" and its quotes).
  Diagnostic s{Severity::Error, at(f, 1, 5, 5, 13), {}, "m", {}, {}};
  EXPECT_EQ(text_of(s), "u.py:1:5: error: m\n  é = \"€€\" + bad\n      ^~~~\n");
}

TEST(RenderText, RangeStopsAtTheEndOfTheLine) {
  SourceFile f("r.py", "f(a,\n  b)\n");
  Diagnostic d{Severity::Error, at(f, 1, 1, 0, 10), {}, "m", {}, {}};
  EXPECT_EQ(text_of(d), "r.py:1:1: error: m\n  f(a,\n  ^~~~\n");
}

TEST(RenderText, ByteOrderMarkTakesNoColumn) {
  SourceFile f("b.py", "\xEF\xBB\xBFx = y\n");
  Diagnostic d{Severity::Error, at(f, 1, 5, 7, 8), {}, "m", {}, {}};
  EXPECT_EQ(text_of(d), "b.py:1:5: error: m\n  \xEF\xBB\xBFx = y\n      ^\n");
}

TEST(RenderText, FileErrorsAndErrorsWithoutAnyPlace) {
  Diagnostic file_level{Severity::Error, {}, "data/bin.py", "not UTF-8", {}, {}};
  EXPECT_EQ(text_of(file_level), "data/bin.py: error: not UTF-8\n");
  Diagnostic nowhere{Severity::Error, {}, {}, "no input files", {}, {}};
  EXPECT_EQ(text_of(nowhere), "gshape: error: no input files\n");
}

TEST(RenderText, NotesFollowTheirDiagnostic) {
  SourceFile f("n.py", "a = b\n");
  Diagnostic d{Severity::Error, at(f, 1, 5, 4, 5), {}, "shape mismatch", {}, {}};
  d.notes.push_back({at(f, 1, 1, 0, 1), "declared here"});
  d.notes.push_back({{}, "no place"});
  EXPECT_EQ(text_of(d),
            "n.py:1:5: error: shape mismatch\n  a = b\n      ^\n"
            "n.py:1:1: note: declared here\n  a = b\n  ^\n"
            "gshape: note: no place\n");
}

TEST(RenderText, HelpLinesFollowTheNotesWithoutALocation) {
  SourceFile f("h.py", "a = b\n");
  Diagnostic d{Severity::Error, at(f, 1, 5, 4, 5), {}, "shape mismatch", "t_c1", {}};
  d.notes.push_back(DiagnosticNote::help("keepdim", "pass keepdim=True"));
  d.notes.push_back({at(f, 1, 1, 0, 1), "declared here"});
  EXPECT_EQ(text_of(d),
            "h.py:1:5: error: shape mismatch [t_c1]\n  a = b\n      ^\n"
            "h.py:1:1: note: declared here\n  a = b\n  ^\n"
            "help: pass keepdim=True\n");
  std::string j = json_of(d);
  EXPECT_NE(j.find(R"({"kind":"help","id":"keepdim","file":"","line":null,"column":null,"message":"pass keepdim=True"})"),
            std::string::npos) << j;
  EXPECT_NE(j.find(R"({"kind":"note","file":"h.py","line":1)"), std::string::npos) << j;
}

TEST(RenderText, ColorAddsAnsiCodesOnlyWhenAsked) {
  SourceFile f("c.py", "x\n");
  Diagnostic d{Severity::Error, at(f, 1, 1, 0, 1), {}, "m", {}, {}};
  EXPECT_EQ(text_of(d, false).find('\033'), std::string::npos);
  EXPECT_NE(text_of(d, true).find("\033[1;31merror:"), std::string::npos);
}

TEST(RenderJson, CarriesWhatTheTextCarries) {
  SourceFile f("j.py", "x = \"é\"\n");
  Diagnostic d{Severity::Error, at(f, 1, 5, 4, 8), {}, "bad \"str\"", "t_c1", {}};
  d.notes.push_back({{}, "why"});
  EXPECT_EQ(json_of(d),
            R"({"severity":"error","file":"j.py","line":1,"column":5,"begin":4,"end":8,"end_line":1,"end_column":8,)"
            R"("message":"bad \"str\"","tag":"t_c1","source_line":"x = \"é\"",)"
            R"("notes":[{"kind":"note","file":"","line":null,"column":null,"message":"why"}]})");
}

TEST(RenderJson, RangeEndsOnTheLineWhereTheRangeEnds) {
  SourceFile f("r.py", "f(a,\n  bé)\n");
  // bytes 0..11 cover `f(a,\n  bé)`: the end is on line 2, after `)` (column 6)
  Diagnostic d{Severity::Error, at(f, 1, 1, 0, 11), {}, "m", {}, {}};
  d.notes.push_back({at(f, 2, 3, 7, 10), "n"});
  std::string j = json_of(d);
  EXPECT_NE(j.find(R"("begin":0,"end":11,"end_line":2,"end_column":6,)"), std::string::npos) << j;
  EXPECT_NE(j.find(R"("kind":"note","file":"r.py","line":2,"column":3,"begin":7,"end":10,"end_line":2,"end_column":5,"message":"n")"), std::string::npos) << j;
  TextRange r = range_of(d.loc);
  EXPECT_EQ(r.line, 1u);
  EXPECT_EQ(r.end_line, 2u);
  EXPECT_EQ(r.end_column, 6u);
}

TEST(RenderJson, FileLevelErrorHasNullPosition) {
  Diagnostic d{Severity::Warning, {}, "p.py", "m", {}, {}};
  EXPECT_EQ(json_of(d), R"({"severity":"warning","file":"p.py","line":null,"column":null,"message":"m","notes":[]})");
}

TEST(DiagnosticSink, CountsAndSortsByPathLineColumn) {
  SourceFile a("a.py", "x\ny\n"), b("b.py", "z\n");
  DiagnosticSink sink;
  sink.error(at(b, 1, 1, 0, 1), "b1");
  sink.warning(at(a, 2, 1, 2, 3), "a2");
  sink.error(at(a, 1, 2, 1, 1), "a1c2");
  sink.error(at(a, 1, 1, 0, 1), "a1c1");
  sink.file_error("a.py", "whole file");
  EXPECT_EQ(sink.count(Severity::Error), 4u);
  EXPECT_EQ(sink.count(Severity::Warning), 1u);
  EXPECT_TRUE(sink.has_errors());
  sink.sort();
  std::vector<std::string> order;
  for (const Diagnostic& d : sink.all()) order.push_back(d.message);
  EXPECT_EQ(order, (std::vector<std::string>{"whole file", "a1c1", "a1c2", "a2", "b1"}));
  EXPECT_FALSE(DiagnosticSink{}.has_errors());
}

TEST(DiagnosticSink, OnOneLineAnExpressionInsideAnotherComesFirst) {
  // `y = x + f(g(x))`: Python evaluates g(x) before f(...) before the sum,
  // so the first failure, the cause, is listed first
  SourceFile a("a.py", "y = x + f(g(x))\n");
  DiagnosticSink sink;
  sink.error(at(a, 1, 5, 4, 15), "sum");
  sink.error(at(a, 1, 9, 8, 15), "f");
  sink.error(at(a, 1, 11, 10, 14), "g");
  sink.error(at(a, 1, 1, 0, 1), "y");
  sink.sort();
  std::vector<std::string> order;
  for (const Diagnostic& d : sink.all()) order.push_back(d.message);
  EXPECT_EQ(order, (std::vector<std::string>{"y", "g", "f", "sum"}));
}

}  // namespace
}  // namespace gshape
