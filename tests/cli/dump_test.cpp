// `gshape dump-ir` and `gshape dump-imports`.
#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

TEST(DumpIr, PrintsTheTreeWithLocations) {
  TempDir dir;
  std::string file = dir.write("small.py", "import torch\nx = f(1)\n");
  ProcessResult r = gshape({"dump-ir", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("Import @1:1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Assign @2:1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Call @2:5"), std::string::npos) << r.out;
  EXPECT_LT(r.out.find("Import @1:1"), r.out.find("Assign @2:1"));
}

TEST(DumpIr, ByteOrderMarkDoesNotShiftColumns) {
  // The BOM stays in the text, but editors do not show it: `f` is column 5.
  TempDir dir;
  std::string file = dir.write("bom.py", "\xef\xbb\xbfx = f(1)\n");
  ProcessResult r = gshape({"dump-ir", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Assign @1:1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Call @1:5"), std::string::npos) << r.out;
}

TEST(DumpIr, SyntaxErrorPrintsTheDiagnosticAndExits1) {
  TempDir dir;
  std::string file = dir.write("broken.py", "x = (\n");
  ProcessResult r = gshape({"dump-ir", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(file + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("error: syntax error"), std::string::npos) << r.err;
}

TEST(DumpIr, NeedsExactlyOneFile) {
  TempDir dir;
  dir.write("a.py", "x = 1\n");
  EXPECT_EQ(gshape({"dump-ir"}).exit_code, 2);
  EXPECT_EQ(gshape({"dump-ir", dir / "a.py", dir / "a.py"}).exit_code, 2);
  ProcessResult d = gshape({"dump-ir", dir.str()});
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_NE(d.err.find("is a directory"), std::string::npos) << d.err;
  ProcessResult m = gshape({"dump-ir", dir / "missing.py"});
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_NE(m.err.find("no such file or directory"), std::string::npos) << m.err;
}

TEST(DumpImports, PrintsDependenciesFirstWithTheirImports) {
  TempDir dir;
  dir.write("app.py", "import torch\nfrom lib import helpers\nimport model\n");
  dir.write("model.py", "from lib.helpers import act\n");
  dir.write("lib/__init__.py", "");
  dir.write("lib/helpers.py", "import math\n");
  ProcessResult r = gshape({"dump-imports", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "lib\n"
            "lib.helpers\n"
            "model -> lib, lib.helpers\n"
            "app -> lib, lib.helpers, model\n");
}

TEST(DumpImports, MarksCyclesAndKeepsTheirModulesTogether) {
  TempDir dir;
  dir.write("a.py", "import b\n");
  dir.write("b.py", "import a\nimport c\n");
  dir.write("c.py", "x = 1\n");
  dir.write("d.py", "import a\n");
  ProcessResult r = gshape({"dump-imports", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "c\n"
            "cycle: a, b\n"
            "  a -> b\n"
            "  b -> a, c\n"
            "d -> a\n");
}

TEST(DumpImports, BrokenFilesAreReportedAndLeftOut) {
  TempDir dir;
  dir.write("a.py", "import b\n");
  dir.write("b.py", "def f(:\n");
  ProcessResult r = gshape({"dump-imports", dir.str()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "a\n");
  EXPECT_NE(r.err.find("b.py:1:"), std::string::npos) << r.err;
}

TEST(DumpImports, OutputIsTheSameEveryRun) {
  TempDir dir;
  for (char c = 'z'; c >= 'a'; --c) {
    std::string name(1, c);
    dir.write(name + ".py", c > 'a' ? "import " + std::string(1, static_cast<char>(c - 1)) + "\n" : "x = 1\n");
  }
  ProcessResult first = gshape({"dump-imports", dir.str()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out.substr(0, 8), "a\nb -> a");
  for (int run = 0; run < 3; ++run) EXPECT_EQ(gshape({"dump-imports", dir.str()}).out, first.out);
}

}  // namespace
}  // namespace gshape::testing
