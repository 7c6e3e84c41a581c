// The HTML review (`gshape report --html FILE`, OUT/gshape-report.html of
// `gshape instrument`): every obligation at its line with its status, the
// counts of the JSON review, shapes on hover, escaping, no network, and the
// usage and I/O errors. tests/samples/run_html_review.py renders a page in
// headless Chromium.
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "frontend/json_reader.h"
#include "gshape_runner.h"
#include "shape_fixtures.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count(const std::string& text, const std::string& pattern) {
  std::regex re(pattern);
  return static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

Json parse_or_fail(const std::string& text) {
  std::string error;
  std::optional<Json> doc = parse_json_text(text, error);
  EXPECT_TRUE(doc.has_value()) << error << "\n" << text;
  return doc.value_or(Json{});
}

// model.py: one refuted obligation (line 5); train.py: two deferred (line 15).
struct Project {
  TempDir dir;
  std::string src;
  Project() {
    dir.write("src/model.py", kRefutedModule);
    dir.write("src/train.py", kDeferredScript);
    src = dir / "src";
  }
};

// What every page must be: one self-contained document, nothing fetched.
void expect_self_contained(const std::string& page) {
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(contains(page, "</html>\n"));
  EXPECT_TRUE(contains(page, "<meta charset=\"utf-8\">"));
  for (const char* external : {"<script", "<link", " src=\"", "@import", "url(", "http://", "https://"}) {
    EXPECT_FALSE(contains(page, external)) << "the page refers to something outside it: " << external;
  }
}

TEST(ReportHtml, EveryObligationAtItsLineWithTheCountsOfTheJson) {
  Project p;
  std::string page_path = p.dir / "review.html";
  ProcessResult r = gshape({"report", "--format=json", "--html", page_path, p.src});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  Json doc = parse_or_fail(r.out);
  EXPECT_EQ(doc["html"].string, page_path);
  std::string page = read_all(page_path);
  expect_self_contained(page);
  // every obligation is on the page once, with its status
  for (const char* status : {"proven", "refuted", "deferred"}) {
    EXPECT_EQ(count(page, std::string("<div class=\"ob ") + status + "[ \"]"),
              static_cast<std::size_t>(doc["summary"][status].number))
        << status;
    EXPECT_TRUE(contains(page, std::string("data-total=\"") + status + "\">" +
                                   std::to_string(static_cast<long>(doc["summary"][status].number)) + "<"))
        << status;
  }
  // one refuted line, model.py's line 5, marked in red; train.py's line 15 amber
  EXPECT_EQ(count(page, "<tr class=\"line refuted"), 1u);
  EXPECT_TRUE(std::regex_search(page, std::regex("<tr class=\"line refuted\" id=\"f[0-9]+-L5\"")));
  EXPECT_TRUE(std::regex_search(page, std::regex("<tr class=\"line deferred\" id=\"f[0-9]+-L15\"")));
  EXPECT_TRUE(contains(page, "<b>error:</b> "));
  // the summary table has one row per file and the totals
  EXPECT_EQ(count(page, "<tr class=\"file-row\""), 2u);
  // shapes on hover: a (line 3) is [3, 5]
  EXPECT_TRUE(contains(page, "<span class=\"t\" title=\"[3, 5]\" data-shape=\"[3, 5]\">a</span>")) << page;
  // the deferred one says why and for which values it fails
  EXPECT_TRUE(contains(page, "not proven:</span> ")) << page;
  EXPECT_TRUE(contains(page, "fails for:</span> ")) << page;

  ProcessResult text = gshape({"report", "--html", p.dir / "again.html", p.src});
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_TRUE(contains(text.err, "wrote " + p.dir / "again.html")) << text.err;
  EXPECT_TRUE(contains(text.out, "refuted (1)")) << "the listing is printed as without --html:\n" << text.out;
}

TEST(ReportHtml, EscapesEverythingFromTheSource) {
  TempDir dir;
  dir.write("evil.py",
            "import torch\n"
            "# </td></tr><script>alert(\"x\")</script> & 'quote'\n"
            "s = \"<b>not bold</b>\"\n"
            "a = torch.zeros(3, 5)\n"
            "b = torch.zeros(4, 2)\n"
            "c = a @ b  # <img src=x>\n");
  std::string page_path = dir / "page.html";
  ProcessResult r = gshape({"report", "--html", page_path, dir / "evil.py"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string page = read_all(page_path);
  expect_self_contained(page);
  EXPECT_TRUE(contains(page, "&lt;/td&gt;&lt;/tr&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quote&#39;"));
  EXPECT_TRUE(contains(page, "&lt;b&gt;not bold&lt;/b&gt;"));
  EXPECT_TRUE(contains(page, "&lt;img src=x&gt;"));
  EXPECT_EQ(count(page, "<tr class=\"line refuted\" id=\"f1-L6\""), 1u);
}

TEST(ReportHtml, FiltersSelectWhatThePageHolds) {
  Project p;
  ProcessResult r = gshape({"report", "--status=refuted", "--html", p.dir / "refuted.html", p.src});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string page = read_all(p.dir / "refuted.html");
  EXPECT_EQ(count(page, "<div class=\"ob refuted"), 1u);
  EXPECT_EQ(count(page, "<div class=\"ob (deferred|proven)"), 0u);
  EXPECT_TRUE(contains(page, "id=\"filtered\""));
  // --all and --verbose turn on the page's toggles
  gshape({"report", "--all", "--verbose", "--html", p.dir / "all.html", p.src});
  std::string all = read_all(p.dir / "all.html");
  EXPECT_TRUE(contains(all, "id=\"show-proven\" checked"));
  EXPECT_TRUE(contains(all, "id=\"show-hidden\" checked"));
  EXPECT_FALSE(contains(page, "id=\"show-proven\" checked"));
}

TEST(ReportHtml, StatsShowRunsAndFailuresPerCheck) {
  Project p;
  std::string stats = p.dir.write("stats.json",
      "{\"format\": \"gshape-runtime-stats\", \"version\": 2, \"checks_enabled\": true, \"pid\": 1, \"sites\": [\n"
      " {\"path\": \"" + p.src + "/train.py\", \"line\": 15, \"col\": 11, \"rule\": \"\", \"site\": 0, \"runs\": 3,"
      " \"failures\": 1, \"skipped\": 0, \"no_rule\": 0, \"cached\": 2, \"failed_tags\": {\"linear_c1\": 1},"
      " \"rules_run\": {\"torch.nn.Linear.forward\": 3}}]}\n");
  ProcessResult r = gshape({"report", "--stats", stats, "--html", p.dir / "run.html", p.src});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string page = read_all(p.dir / "run.html");
  EXPECT_TRUE(std::regex_search(page, std::regex("<tr class=\"line deferred failed\" id=\"f[0-9]+-L15\""))) << page;
  EXPECT_TRUE(contains(page, "data-tag=\"linear_c1\" data-line=\"15\" data-column=\"11\" data-runs=\"3\" data-failures=\"1\""));
  EXPECT_TRUE(contains(page, "in the run:</span> ran 3 times, failed 1 time"));
  EXPECT_TRUE(contains(page, "<th>ran</th><th>failed</th>"));
  EXPECT_TRUE(contains(page, "id=\"failed-list\""));
}

TEST(ReportHtml, FromAReportFileHasTheSameMarksButNoShapes) {
  Project p;
  ASSERT_EQ(gshape({"instrument", p.src, "-o", p.dir / "out"}).exit_code, 1);
  ProcessResult r = gshape({"report", "--from", p.dir / "out/gshape-report.json", "--html", p.dir / "from.html"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::string page = read_all(p.dir / "from.html");
  expect_self_contained(page);
  EXPECT_EQ(count(page, "<tr class=\"line refuted"), 1u);
  EXPECT_EQ(count(page, "data-shape="), 0u);
  EXPECT_TRUE(contains(page, "no inferred shapes on this page"));
  // and the page `instrument` wrote next to the report has them
  std::string written = read_all(p.dir / "out/gshape-report.html");
  expect_self_contained(written);
  EXPECT_EQ(count(written, "<tr class=\"line refuted"), 1u);
  EXPECT_GT(count(written, "data-shape="), 0u);
  EXPECT_EQ(count(written, "<div class=\"ob "), count(page, "<div class=\"ob "));
}

TEST(ReportHtml, InstrumentSaysWhereThePageIs) {
  Project p;
  ProcessResult r = gshape({"instrument", p.src, "-o", p.dir / "out"});
  EXPECT_TRUE(contains(r.err, "wrote " + p.dir / "out/gshape-report.html\n")) << r.err;
  Json j = parse_or_fail(gshape({"instrument", "--format=json", p.src, "-o", p.dir / "out2"}).out);
  EXPECT_EQ(j["instrument"]["html"].string, p.dir / "out2/gshape-report.html");
}

TEST(ReportHtml, AFileWithoutObligationsAndAnEmptyFile) {
  TempDir dir;
  dir.write("p/plain.py", kPlainModule);
  dir.write("p/empty.py", "");
  ProcessResult r = gshape({"report", "--html", dir / "page.html", dir / "p"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string page = read_all(dir / "page.html");
  expect_self_contained(page);
  EXPECT_TRUE(contains(page, "id=\"no-obligations\""));
}

TEST(ReportHtml, UsageAndIOErrors) {
  Project p;
  ProcessResult a = gshape({"report", p.src, "--html"});
  EXPECT_EQ(a.exit_code, 2);
  ProcessResult b = gshape({"report", "--html=", p.src});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_TRUE(contains(b.err, "'--html' needs a file")) << b.err;
  // a folder cannot be written as a file; a file cannot be a folder
  ProcessResult c = gshape({"report", "--html", p.src, p.src});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_TRUE(contains(c.err, "cannot write the HTML review")) << c.err;
  ProcessResult d = gshape({"report", "--html", p.src + "/model.py/page.html", p.src});
  EXPECT_EQ(d.exit_code, 2);
}

}  // namespace
}  // namespace gshape::testing
