// `gshape report`: the review of every obligation per file and line, the
// summary table, JSON that agrees with `check`, the review read back from
// gshape-report.json (--from), and run counters from a GSHAPE_STATS file.
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "frontend/json_reader.h"
#include "shape_fixtures.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

Json parse_or_fail(const std::string& text) {
  std::string error;
  std::optional<Json> doc = parse_json_text(text, error);
  EXPECT_TRUE(doc.has_value()) << error << "\n" << text;
  return doc.value_or(Json{});
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The fixture project: model.py (one refuted obligation) and train.py (two deferred).
struct Project {
  TempDir dir;
  std::string src;
  Project() {
    dir.write("src/model.py", kRefutedModule);
    dir.write("src/train.py", kDeferredScript);
    src = dir / "src";
  }
};

const Json* find_obligation(const Json& doc, const std::string& file_suffix, int line, const std::string& tag) {
  for (const Json& o : doc["obligations"].array) {
    const std::string& path = o["path"].string;
    if (path.size() >= file_suffix.size() && path.compare(path.size() - file_suffix.size(), file_suffix.size(), file_suffix) == 0 &&
        o["line"].number == line && o["tag"].string == tag) {
      return &o;
    }
  }
  return nullptr;
}

TEST(Report, ListsEveryObligationPerFileAndLineWithItsStatus) {
  Project p;
  ProcessResult r = gshape({"report", "--color=never", p.src});
  EXPECT_EQ(r.exit_code, 1) << "a refuted obligation is an error: " << r.err;
  const std::string& out = r.out;
  // Files in order, each followed by its obligations.
  std::size_t model = out.find(p.src + "/model.py\n"), train = out.find(p.src + "/train.py\n");
  ASSERT_NE(model, std::string::npos) << out;
  ASSERT_NE(train, std::string::npos) << out;
  EXPECT_LT(model, train);
  std::smatch m;
  EXPECT_TRUE(std::regex_search(out, m, std::regex("\n  5:5 +refuted +matmul_c2 +input\\.size\\(1\\) == other\\.size\\(0\\)\n")))
      << out;
  EXPECT_TRUE(contains(out, "error:          matmul: the last dimension of the first operand (5)")) << out;
  // A deferred obligation says why it is not proven and which values fail.
  ASSERT_TRUE(std::regex_search(out, m, std::regex("\n  15:11 +deferred +linear_c1 +input\\.size\\(-1\\) == 4\n"
                                                   "( +.*\n)*? +not proven: +(.+)\n +fails for: +(.+)\n")))
      << out;
  EXPECT_TRUE(contains(m[2].str(), "unknown")) << m[2];
  EXPECT_TRUE(contains(m[3].str(), "input.size(-1) = ")) << m[3];
  EXPECT_FALSE(contains(m[3].str(), "= 4")) << "4 would not fail: " << m[3];
  EXPECT_TRUE(contains(out, "run-time check: inserted")) << out;
  // Proven obligations are listed too.
  EXPECT_TRUE(std::regex_search(out, std::regex("\n  13:10 +proven +")) ) << out;
}

TEST(Report, TheSummaryTableCountsPerFile) {
  Project p;
  ProcessResult r = gshape({"report", "--summary", p.src});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.rfind("file ", 0), 0u) << "--summary prints the table alone:\n" << r.out;
  EXPECT_TRUE(contains(r.out, "  proven  refuted  deferred  not instrumentable\n")) << r.out;
  EXPECT_FALSE(contains(r.out, "ran  failed")) << "no run columns without --stats";
  // Columns: proven, refuted, deferred, not instrumentable.
  Json check = parse_or_fail(gshape({"check", "--format=json", p.src}).out);
  int proven_in_model = 0;
  for (const Json& o : check["obligations"].array) {
    if (contains(o["file"].string, "model.py") && o["status"].string == "proven") ++proven_in_model;
  }
  EXPECT_TRUE(std::regex_search(r.out, std::regex("/model\\.py +" + std::to_string(proven_in_model) + " +1 +0 +0\n")))
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("/train\\.py +[0-9]+ +0 +2 +0\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ntotal \\(2 files\\) +[0-9]+ +1 +2 +0\n"))) << r.out;
}

TEST(Report, JsonAgreesWithCheck) {
  Project p;
  ProcessResult r = gshape({"report", "--format=json", p.src});
  EXPECT_EQ(r.exit_code, 1);
  Json doc = parse_or_fail(r.out);
  Json check = parse_or_fail(gshape({"check", "--format=json", p.src}).out);
  EXPECT_EQ(doc["command"].string, "report");
  EXPECT_EQ(doc["obligations"].array.size(), check["obligations"].array.size());
  EXPECT_EQ(doc["summary"]["proven"].number, check["summary"]["proven"].number);
  EXPECT_EQ(doc["summary"]["refuted"].number, check["summary"]["refuted"].number);
  EXPECT_EQ(doc["summary"]["deferred"].number, check["summary"]["deferred"].number);
  EXPECT_EQ(doc["exit_code"].number, 1);
  const Json* deferred = find_obligation(doc, "train.py", kDeferredLine, "linear_c1");
  ASSERT_NE(deferred, nullptr);
  EXPECT_EQ((*deferred)["status"].string, "deferred");
  EXPECT_EQ((*deferred)["column"].number, kDeferredColumn);
  EXPECT_EQ((*deferred)["runtime_check"].string, "inserted");
  EXPECT_FALSE((*deferred)["reason"].string.empty());
  EXPECT_FALSE((*deferred)["example"].object.empty());
  EXPECT_EQ(doc["files"].array.size(), 2u);
}

TEST(Report, ACleanProjectExits0) {
  TempDir dir;
  dir.write("train.py", kDeferredScript);
  ProcessResult r = gshape({"report", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\ntotal \\(1 file\\) +[0-9]+ +0 +2 +0\n"))) << r.out;
}

TEST(Report, ReadsTheReviewInstrumentWroteBack) {
  Project p;
  ASSERT_EQ(gshape({"instrument", p.src, "-o", p.dir / "out"}).exit_code, 1);
  ProcessResult analysed = gshape({"report", "--format=json", p.src});
  ProcessResult stored = gshape({"report", "--format=json", "--from", p.dir / "out/gshape-report.json"});
  EXPECT_EQ(stored.exit_code, 1) << stored.err;
  Json a = parse_or_fail(analysed.out), s = parse_or_fail(stored.out);
  ASSERT_EQ(a["obligations"].array.size(), s["obligations"].array.size());
  for (std::size_t i = 0; i < a["obligations"].array.size(); ++i) {
    const Json& x = a["obligations"].array[i];
    const Json& y = s["obligations"].array[i];
    for (const char* field : {"path", "tag", "status", "constraint", "runtime_constraint", "runtime_check", "reason"}) {
      EXPECT_EQ(x[field].string, y[field].string) << field << " of obligation " << i;
    }
    EXPECT_EQ(x["line"].number, y["line"].number);
    EXPECT_EQ(x["column"].number, y["column"].number);
  }
  EXPECT_EQ(s["source"].string, p.dir / "out/gshape-report.json");
  // The text form works from the file too.
  ProcessResult text = gshape({"report", "--summary", "--from", p.dir / "out/gshape-report.json"});
  EXPECT_TRUE(contains(text.out, "total (2 files)")) << text.out;
}

TEST(Report, StatsShowHowOftenEachCheckRanAndFailed) {
  Project p;
  Json doc = parse_or_fail(gshape({"report", "--format=json", p.src}).out);
  const Json* ob = find_obligation(doc, "train.py", kDeferredLine, "linear_c1");
  ASSERT_NE(ob, nullptr);
  // A stats file as the runtime writes it (docs/runtime.md): the site of
  // train.py:15 ran 3 times and failed once on linear_c1; a site of a file
  // the project does not have; the module hook's counters.
  std::string stats = p.dir.write("stats.json",
      "{\"format\": \"gshape-runtime-stats\", \"version\": 2, \"checks_enabled\": true, \"pid\": 1, \"sites\": [\n"
      " {\"path\": \"" + p.src + "/train.py\", \"line\": 15, \"col\": 11, \"rule\": \"\", \"site\": 0, \"runs\": 3,"
      " \"failures\": 1, \"skipped\": 0, \"no_rule\": 0, \"cached\": 2, \"failed_tags\": {\"linear_c1\": 1},"
      " \"rules_run\": {\"torch.nn.Linear.forward\": 3}},\n"
      " {\"path\": \"" + p.src + "/gone.py\", \"line\": 2, \"col\": 1, \"rule\": \"\", \"site\": 0, \"runs\": 9,"
      " \"failures\": 0, \"skipped\": 0, \"no_rule\": 0, \"cached\": 8, \"failed_tags\": {}, \"rules_run\": {}},\n"
      " {\"path\": \"<module calls>\", \"line\": 0, \"col\": 0, \"rule\": \"torch.nn.Linear.forward\", \"site\": 0,"
      " \"runs\": 5, \"failures\": 0, \"skipped\": 0, \"no_rule\": 0, \"cached\": 4, \"failed_tags\": {},"
      " \"rules_run\": {}}]}\n");
  ProcessResult r = gshape({"report", "--color=never", "--stats", stats, p.src});
  EXPECT_EQ(r.exit_code, 1);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\n  15:11 +deferred +linear_c1 .*\n(( +.*\n)*?) +in the run: +(.+)\n")))
      << r.out;
  EXPECT_EQ(m[3].str(), "ran 3 times, failed 1 time");
  // linear_c2 is checked by the same site: it ran as often, and never failed
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\n  15:11 +deferred +linear_c2 .*\n(( +.*\n)*?) +in the run: +(.+)\n")))
      << r.out;
  EXPECT_EQ(m[3].str(), "ran 3 times, never failed");
  EXPECT_TRUE(contains(r.out, "  ran  failed\n")) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("/train\\.py +[0-9]+ +0 +2 +0 +2 +1\n"))) << r.out;
  EXPECT_TRUE(contains(r.out, "note: the stats file has 1 site in files this review does not hold")) << r.out;
  EXPECT_TRUE(contains(r.out, "gone.py:2:1")) << r.out;

  Json j = parse_or_fail(gshape({"report", "--format=json", "--stats", stats, p.src}).out);
  const Json* counted = find_obligation(j, "train.py", kDeferredLine, "linear_c1");
  ASSERT_NE(counted, nullptr);
  EXPECT_EQ((*counted)["run"]["runs"].number, 3);
  EXPECT_EQ((*counted)["run"]["failures"].number, 1);
  EXPECT_EQ(j["summary"]["failed"].number, 1);
  EXPECT_EQ(j["unmatched_stats"].array.size(), 1u);
}

TEST(Report, BadInputFilesAreIOErrors) {
  Project p;
  std::string not_json = p.dir.write("bad.json", "{\"format\": ");
  ProcessResult a = gshape({"report", "--stats", not_json, p.src});
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_TRUE(contains(a.err, "bad.json: error: the GSHAPE_STATS file is not valid JSON")) << a.err;
  std::string other = p.dir.write("other.json", "{\"format\": \"something-else\", \"checks\": []}");
  ProcessResult b = gshape({"report", "--stats", other, p.src});
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_TRUE(contains(b.err, "not a GSHAPE_STATS file")) << b.err;
  ProcessResult c = gshape({"report", "--stats", p.dir / "missing.json", p.src});
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_TRUE(contains(c.err, "missing.json: error: no such file or directory")) << c.err;
  ProcessResult d = gshape({"report", "--from", other});
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_TRUE(contains(d.err, "not a gshape-report.json")) << d.err;
}

TEST(Report, UsageErrors) {
  Project p;
  ProcessResult none = gshape({"report"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(contains(none.err, "needs a PATH")) << none.err;
  ProcessResult both = gshape({"report", "--from", p.dir / "x.json", p.src});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_TRUE(contains(both.err, "not both")) << both.err;
  ProcessResult missing = gshape({"report", p.dir / "nowhere"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.err, "nowhere: error: no such file or directory")) << missing.err;
}

#ifdef GSHAPE_TEST_HAS_RUNTIME
// The whole loop: a run writes GSHAPE_STATS, the report reads it.
TEST(Report, CountersOfARealRun) {
  Project p;
  TempDir cache;
  std::string stats = p.dir / "run-stats.json";
  ProcessResult run = run_process("/usr/bin/env", {"GSHAPE_STATS=" + stats, GSHAPE_BINARY, "run", "--cache-dir",
                                                   cache.str(), p.src + "/train.py", "--", "[[1.0, 2.0, 3.0]]"},
                                  {}, 180);
  ASSERT_EQ(run.exit_code, 1) << run.err;
  ASSERT_TRUE(std::filesystem::exists(stats)) << run.err;
  Json j = parse_or_fail(gshape({"report", "--format=json", "--stats", stats, p.src}).out);
  const Json* c1 = find_obligation(j, "train.py", kDeferredLine, "linear_c1");
  ASSERT_NE(c1, nullptr);
  EXPECT_EQ((*c1)["run"]["runs"].number, 1) << read_all(stats);
  EXPECT_EQ((*c1)["run"]["failures"].number, 1) << read_all(stats);
  EXPECT_EQ(j["unmatched_stats"].array.size(), 0u) << read_all(stats);
}
#endif

}  // namespace
}  // namespace gshape::testing
