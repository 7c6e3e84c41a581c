// SourceFile: line table (LF, CRLF, lone CR), line texts, code-point columns.
#include <gtest/gtest.h>

#include "frontend/source.h"

namespace gshape {
namespace {

TEST(SourceFile, SplitsLinesOnLf) {
  SourceFile f("a.py", "a = 1\nbc\n");
  EXPECT_EQ(f.line_count(), 3u);  // the empty line after the final newline counts
  EXPECT_EQ(f.line_text(1), "a = 1");
  EXPECT_EQ(f.line_text(2), "bc");
  EXPECT_EQ(f.line_text(3), "");
}

TEST(SourceFile, CrLfEndsOneLineAndIsNotPartOfTheText) {
  SourceFile f("a.py", "x\r\ny\r\n\r\nz");
  EXPECT_EQ(f.line_count(), 4u);
  EXPECT_EQ(f.line_text(1), "x");
  EXPECT_EQ(f.line_text(2), "y");
  EXPECT_EQ(f.line_text(3), "");
  EXPECT_EQ(f.line_text(4), "z");
}

TEST(SourceFile, LoneCrEndsALineLikePython) {
  SourceFile f("a.py", "x\ry\rz");
  EXPECT_EQ(f.line_count(), 3u);
  EXPECT_EQ(f.line_text(2), "y");
  EXPECT_EQ(f.line_text(3), "z");
}

TEST(SourceFile, EmptyFileHasOneEmptyLine) {
  SourceFile f("e.py", "");
  EXPECT_EQ(f.line_count(), 1u);
  EXPECT_EQ(f.line_text(1), "");
  EXPECT_EQ(f.column_of(1, 0), 1u);
}

TEST(SourceFile, OutOfRangeLinesAreEmpty) {
  SourceFile f("a.py", "x\n");
  EXPECT_EQ(f.line_text(0), "");
  EXPECT_EQ(f.line_text(99), "");
}

TEST(SourceFile, ColumnsCountCodePoints) {
  // "é" is 2 bytes, "€" 3 bytes, "𝔁" 4 bytes: each is one column.
  SourceFile f("u.py", "é = '€𝔁' + x\n");
  EXPECT_EQ(f.column_of(1, 0), 1u);
  EXPECT_EQ(f.column_of(1, 2), 2u);   // after é
  EXPECT_EQ(f.column_of(1, 5), 5u);   // the quote
  EXPECT_EQ(f.column_of(1, 6), 6u);   // €
  EXPECT_EQ(f.column_of(1, 9), 7u);   // 𝔁
  EXPECT_EQ(f.column_of(1, 13), 8u);  // closing quote
  EXPECT_EQ(f.column_of(1, 18), 13u); // x
}

TEST(SourceFile, TabIsOneColumn) {
  SourceFile f("t.py", "\tx\n");
  EXPECT_EQ(f.column_of(1, 1), 2u);
}

TEST(SourceFile, ByteOrderMarkTakesNoColumn) {
  SourceFile f("b.py", "\xEF\xBB\xBFx = 1\ny\n");
  EXPECT_EQ(f.column_of(1, 3), 1u);  // x, right after the mark
  EXPECT_EQ(f.column_of(1, 7), 5u);  // 1
  EXPECT_EQ(f.column_of(2, 0), 1u);  // only the first line has a mark
}

TEST(SourceFile, ColumnOnSecondCrLfLine) {
  SourceFile f("c.py", "a\r\n  b\r\n");
  EXPECT_EQ(f.column_of(2, 2), 3u);
}

TEST(SourceFile, ModuleNameAndPackageFlag) {
  SourceFile f("pkg/__init__.py", "");
  EXPECT_EQ(f.module_name(), "");
  EXPECT_FALSE(f.is_package_init());
  f.set_module_name("pkg");
  f.set_package_init(true);
  EXPECT_EQ(f.module_name(), "pkg");
  EXPECT_TRUE(f.is_package_init());
}

TEST(SourceLoc, StrShowsPathLineColumn) {
  SourceFile f("dir/m.py", "x\n");
  SourceLoc loc{&f, 3, 7, 10, 12};
  EXPECT_TRUE(loc.valid());
  EXPECT_EQ(loc.str(), "dir/m.py:3:7");
  EXPECT_FALSE(SourceLoc{}.valid());
  EXPECT_EQ(SourceLoc{}.str(), "<unknown>");
}

}  // namespace
}  // namespace gshape
