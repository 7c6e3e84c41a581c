// `# gshape: ignore` comments: what they suppress in check and report, that
// a suppressed error keeps its run-time check, --warn-unused-ignores; and the
// comment scanner itself (a '#' inside a string is no comment).
#include <gtest/gtest.h>

#include "cli/suppressions.h"
#include "frontend/json_reader.h"
#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

// Four refuted matmuls: lines 5, 6 suppressed (all / by tag), 7 names
// another tag, 9 has none; line 10's comment has nothing to suppress.
const char* kIgnored =
    "import torch\n"
    "a = torch.zeros(3, 5)\n"
    "b = torch.zeros(4, 2)\n"
    "s = '# gshape: ignore'\n"
    "c = a @ b  # gshape: ignore\n"
    "d = a @ b  #gshape:ignore[matmul_c2, linear_c1]\n"
    "e = a @ b  # gshape: ignore[linear_c1]\n"
    "t = \"\"\"\n# gshape: ignore\n\"\"\"; f = a @ b\n"  // 8-10: the comment is inside a string
    "x = 1  # gshape: ignore  -- nothing here\n";        // 11

TEST(Suppression, CommentsSuppressTheirLinesDiagnostics) {
  TempDir dir;
  std::string file = dir.write("model.py", kIgnored);
  ProcessResult r = gshape({"check", "--color=never", file});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(contains(r.err, "model.py:5:")) << r.err;
  EXPECT_FALSE(contains(r.err, "model.py:6:")) << r.err;
  EXPECT_TRUE(contains(r.err, "model.py:7:5: error:")) << "another tag does not suppress: " << r.err;
  EXPECT_TRUE(contains(r.err, "model.py:10:")) << "a comment inside a string suppresses nothing: " << r.err;
  EXPECT_TRUE(contains(r.err, "checked 1 file: 2 errors, 0 warnings, 2 suppressed\n")) << r.err;
  EXPECT_FALSE(contains(r.err, "unused")) << "only with --warn-unused-ignores: " << r.err;

  Json doc = gshape_json({"check", "--format=json", file});
  EXPECT_EQ(doc["summary"]["errors"].integer, 2);
  EXPECT_EQ(doc["summary"]["suppressed"].integer, 2);
}

TEST(Suppression, EverythingSuppressedExits0) {
  TempDir dir;
  std::string file = dir.write("model.py", "import torch\nc = torch.zeros(3, 5) @ torch.zeros(4, 2)  # gshape: ignore\n");
  ProcessResult r = gshape({"check", "--color=never", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ProcessResult report = gshape({"report", "--color=never", file});
  EXPECT_EQ(report.exit_code, 0) << "a suppressed refuted obligation is no error: " << report.out;
  EXPECT_TRUE(contains(report.out, "1 suppressed obligation")) << report.out;
  ProcessResult verbose = gshape({"report", "--color=never", "--verbose", file});
  EXPECT_TRUE(contains(verbose.out, "suppressed by a 'gshape: ignore' comment")) << verbose.out;
  EXPECT_TRUE(contains(verbose.out, "run-time check: inserted")) << verbose.out;
}

TEST(Suppression, ASuppressedErrorIsStillCheckedAtRunTime) {
  TempDir dir;
  dir.write("src/model.py", "import torch\nc = torch.zeros(3, 5) @ torch.zeros(4, 2)  # gshape: ignore\n");
  ProcessResult r = gshape({"instrument", dir / "src", "-o", dir / "out"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Json report = parse_json_file(dir / "out/gshape-report.json");
  bool inserted = false;
  for (const Json& o : report["obligations"].array) {
    if (o["obligation"]["tag"].string == "matmul_c2") inserted = o["runtime_check"].string == "inserted";
  }
  EXPECT_TRUE(inserted) << "the check of a suppressed error stays in the instrumented code";
}

TEST(Suppression, WarnUnusedIgnoresNamesFileLineAndColumn) {
  TempDir dir;
  std::string file = dir.write("model.py", kIgnored);
  ProcessResult r = gshape({"check", "--color=never", "--warn-unused-ignores", file});
  EXPECT_TRUE(contains(r.err, file + ":7:12: warning: unused 'gshape: ignore[linear_c1]' comment")) << r.err;
  EXPECT_TRUE(contains(r.err, file + ":11:8: warning: unused 'gshape: ignore' comment")) << r.err;
  // line 6 suppressed matmul_c2, not linear_c1: the unused tag is named
  EXPECT_TRUE(contains(r.err, file + ":6:12: warning: unused tag 'linear_c1'")) << r.err;
  EXPECT_FALSE(contains(r.err, file + ":5:12: warning")) << r.err;
  EXPECT_TRUE(contains(r.err, "[unused-ignore]")) << r.err;
  EXPECT_EQ(r.exit_code, 1);
  // A comment kept for a deferred obligation (no diagnostic) is used.
  TempDir d2;
  std::string deferred = d2.write("train.py",
                                  "import sys, json, torch\nimport torch.nn as nn\nfc = nn.Linear(4, 2)\n"
                                  "x = torch.tensor(json.loads(sys.argv[1]))\ny = fc(x)  # gshape: ignore[linear_c1]\n");
  ProcessResult used = gshape({"check", "--color=never", "--warn-unused-ignores", deferred});
  EXPECT_FALSE(contains(used.err, "unused")) << used.err;
  ProcessResult report = gshape({"report", "--color=never", "--warn-unused-ignores", deferred});
  EXPECT_FALSE(contains(report.err, "unused")) << report.err;
  EXPECT_FALSE(contains(report.out, "deferred  linear_c1")) << report.out;
  EXPECT_TRUE(contains(report.out, "1 suppressed obligation")) << report.out;
}

TEST(IgnoreComments, TheScannerSkipsStringsAndReadsTags) {
  using cli::find_ignore_comments;
  auto comments = find_ignore_comments(
      "x = 1  # gshape: ignore\n"
      "s = '#gshape: ignore'  # other\n"
      "t = r'\\'#'  # gshape: ignore[ a_c1 ,b_c2 ]\n"
      "u = '''\n# gshape: ignore\n'''\n"
      "v = 2  # noqa  # gshape: ignore[c_c3]\n"
      "w = 3  # gshape: ignored\n"
      "y = 4  # gshape:ignore\r\n");
  ASSERT_EQ(comments.size(), 4u);
  EXPECT_EQ(comments[0].line, 1u);
  EXPECT_EQ(comments[0].byte_column, 7u);
  EXPECT_TRUE(comments[0].tags.empty());
  EXPECT_EQ(comments[1].line, 3u);
  EXPECT_EQ(comments[1].tags, (std::vector<std::string>{"a_c1", "b_c2"}));
  EXPECT_EQ(comments[2].line, 7u);
  EXPECT_EQ(comments[2].tags, (std::vector<std::string>{"c_c3"}));
  EXPECT_EQ(comments[3].line, 9u);
  EXPECT_TRUE(find_ignore_comments("'unterminated # gshape: ignore\n").empty());
  EXPECT_TRUE(find_ignore_comments("x = 1  # gshape: ignore[linear_c1\n").empty()) << "an unclosed list is no directive";
  EXPECT_EQ(find_ignore_comments("x = 1  # gshape: ignore[]\n").size(), 1u);
  EXPECT_TRUE(find_ignore_comments("").empty());
}

}  // namespace
}  // namespace gshape::testing
