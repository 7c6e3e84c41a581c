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

TEST(Report, TriagesRefutedFirstThenDeferredPerFileAndFunction) {
  Project p;
  ProcessResult r = gshape({"report", "--color=never", p.src});
  EXPECT_EQ(r.exit_code, 1) << "a refuted obligation is an error: " << r.err;
  const std::string& out = r.out;
  // Sections in order, each per file and function.
  std::size_t refuted = out.find("refuted (1)\n" + p.src + "/model.py\n  at module level\n");
  std::size_t deferred = out.find("deferred (1)\n" + p.src + "/train.py\n  in main (line 12)\n");
  ASSERT_NE(refuted, std::string::npos) << out;
  ASSERT_NE(deferred, std::string::npos) << out;
  EXPECT_LT(refuted, deferred);
  std::smatch m;
  EXPECT_TRUE(std::regex_search(out, m, std::regex("\n    5:5 +refuted +matmul_c2 +a\\.size\\(1\\) == b\\.size\\(0\\)\n")))
      << out;
  EXPECT_TRUE(contains(out, "error: matmul: the last dimension of the first operand (5)")) << out;
  EXPECT_TRUE(contains(out, "run-time check: inserted")) << "a refuted one says its check stops the run: " << out;
  // A deferred obligation says what fails, why it is not proven and which values fail.
  ASSERT_TRUE(std::regex_search(out, m, std::regex("\n    15:11 +deferred +linear_c1 +batch\\.size\\(-1\\) == 4\n"
                                                   " +nn\\.Linear\\(4, 2\\) expects .*\n"
                                                   " +not proven: (.+); fails for (.+)\n")))
      << out;
  EXPECT_TRUE(contains(m[1].str(), "unknown")) << m[1];
  // named after the argument as written, in the constraint, the message and the example alike
  EXPECT_TRUE(contains(m[2].str(), "batch.size(-1) = ")) << m[2];
  EXPECT_FALSE(contains(m[2].str(), "= 4")) << "4 would not fail: " << m[2];
  // An inserted check is the normal case for a deferred one: not repeated.
  EXPECT_EQ(count_of(out.substr(deferred), "run-time check:"), 0u) << out;
  // Proven ones and the 0-dimensional trivia (linear_c2) are counted, not listed.
  EXPECT_FALSE(std::regex_search(out, std::regex("\n +13:10 +proven"))) << out;
  EXPECT_FALSE(contains(out, "linear_c2")) << out;
  EXPECT_TRUE(contains(out, "not listed: 4 proven obligations (--all), 1 deferred requirement that an operand is not "
                            "0-dimensional (--verbose lists the trivial ones)\n"))
      << out;
}

TEST(Report, AllListsProvenObligationsAsWhatHolds) {
  Project p;
  ProcessResult r = gshape({"report", "--color=never", "--all", p.src});
  EXPECT_EQ(r.exit_code, 1);
  std::size_t proven = r.out.find("proven (4)\n");
  ASSERT_NE(proven, std::string::npos) << r.out;
  EXPECT_GT(proven, r.out.find("deferred (1)\n")) << "proven ones come last: " << r.out;
  std::string section = r.out.substr(proven, r.out.find("\nfile ") - proven);
  EXPECT_TRUE(std::regex_search(section, std::regex("\n    13:10 +proven +nn_linear_c1 +holds for every input"))) << section;
  // No failure text under a proven obligation.
  EXPECT_FALSE(contains(section, "error:")) << section;
  EXPECT_FALSE(contains(section, "not proven")) << section;
  EXPECT_FALSE(contains(section, "fails for")) << section;
  EXPECT_FALSE(contains(r.out, "proven obligations (--all)")) << r.out;
}

// A hyperparameter read from the command line: every size requirement on it
// is that it is not negative (trivia), but view's element count is real.
const char* kHyperScript =
    "import sys\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "n, m, k = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])\n"  // three sizes: no check settles another
    "fc = nn.Linear(n, 4)\n"    // 6: nn_linear_c1 in_features >= 0
    "x = torch.zeros(2, m)\n"   // 7: zeros_c1 size[1] >= 0
    "y = x.view(2, k)\n";       // 8: view_c2 shape[1] >= -1

TEST(Report, TriviaIsHiddenUnlessVerbose) {
  TempDir dir;
  dir.write("hyper.py", kHyperScript);
  ProcessResult quiet = gshape({"report", "--color=never", dir.str()});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  for (const char* tag : {"nn_linear_c1", "zeros_c1", "view_c2"}) EXPECT_FALSE(contains(quiet.out, tag)) << quiet.out;
  EXPECT_TRUE(contains(quiet.out, "3 deferred requirements that a size or hyperparameter is not negative")) << quiet.out;
  ProcessResult verbose = gshape({"report", "--color=never", "--verbose", dir.str()});
  for (const char* tag : {"nn_linear_c1", "zeros_c1", "view_c2"}) EXPECT_TRUE(contains(verbose.out, tag)) << verbose.out;
  EXPECT_FALSE(contains(verbose.out, "not listed: 3 deferred")) << verbose.out;
  // JSON keeps every obligation and says which are trivia.
  Json doc = parse_or_fail(gshape({"report", "--format=json", dir.str()}).out);
  int sign = 0;
  for (const Json& o : doc["obligations"].array) {
    if (o["trivia"].string == "sign") ++sign;
    if (o["tag"].string == "nn_linear_c1") {
      EXPECT_EQ(o["trivia"].string, "sign");
    }
  }
  EXPECT_EQ(sign, 3) << "hyper.py has three sign requirements";
}

TEST(Report, TheCutTermsNoteCountsOnlyWhatWasListed) {
  // a chain of broadcasts of unrelated sizes: its terms pass the cap of 300
  // characters; hidden by --status, they must not be announced (an outside
  // user saw the note with no cut term on the screen)
  TempDir dir;
  std::string src = "from einops import rearrange\ndef f(m, n):\n    out = rearrange(m, 'b -> b')\n";
  for (int i = 0; i < 24; ++i) src += "    m = n\n    out = out + rearrange(m, 'b -> b')\n";
  dir.write("chain.py", src + "    return out\n");
  ProcessResult listed = gshape({"report", "--color=never", dir.str()});
  EXPECT_TRUE(contains(listed.out, "\u2026")) << listed.out;
  EXPECT_TRUE(contains(listed.err, "printed texts hold terms cut at 300 characters")) << listed.err;
  ProcessResult hidden = gshape({"report", "--color=never", "--status=proven", dir.str()});
  EXPECT_FALSE(contains(hidden.out, "\u2026")) << hidden.out;
  EXPECT_FALSE(contains(hidden.err, "terms cut")) << hidden.err;
}

TEST(Report, FiltersByStatusTagAndFile) {
  Project p;
  ProcessResult refuted = gshape({"report", "--color=never", "--status=refuted", p.src});
  EXPECT_TRUE(contains(refuted.out, "refuted (1)")) << refuted.out;
  EXPECT_FALSE(contains(refuted.out, "deferred (")) << refuted.out;
  EXPECT_TRUE(contains(refuted.out, "outside --status/--tag/--file")) << refuted.out;
  ProcessResult tag = gshape({"report", "--color=never", "--tag=linear_*", p.src});
  EXPECT_FALSE(contains(tag.out, "refuted (")) << tag.out;
  EXPECT_TRUE(contains(tag.out, "15:11  deferred  linear_c1")) << tag.out;
  ProcessResult file = gshape({"report", "--color=never", "--file=train.py", p.src});
  EXPECT_FALSE(contains(file.out, "matmul_c2")) << file.out;
  EXPECT_TRUE(contains(file.out, "linear_c1")) << file.out;
  EXPECT_EQ(file.exit_code, 1) << "filters change the listing, not the exit status";
  // --status=proven lists proven ones without --all; filters apply to JSON too.
  ProcessResult proven = gshape({"report", "--color=never", "--status=proven", "--file=model.py", p.src});
  EXPECT_TRUE(contains(proven.out, "proven (3)")) << proven.out;
  Json doc = parse_or_fail(gshape({"report", "--format=json", "--status", "deferred", p.src}).out);
  ASSERT_EQ(doc["obligations"].array.size(), 2u);
  for (const Json& o : doc["obligations"].array) {
    EXPECT_EQ(o["status"].string, "deferred");
    EXPECT_EQ(o["function"].string, "main");
  }
  ProcessResult bad = gshape({"report", "--status=broken", p.src});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.err, "unknown --status 'broken'")) << bad.err;
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

// The analysis goes on with an unknown value after an error (and after a
// call it cannot follow): a deferred obligation on that value names the
// earlier site, in the text, the JSON and the HTML review.
TEST(Report, ADeferredObligationNamesTheEarlierErrorOrUnknownItComesFrom) {
  TempDir dir;
  dir.write("m.py",
            "import torch\n"
            "import torch.nn as nn\n"
            "fc1 = nn.Linear(10, 20)\n"
            "fc2 = nn.Linear(30, 5)\n"
            "h = fc2(fc1(torch.randn(4, 10)))\n"
            "y = h @ torch.randn(5, 3)\n"
            "z = y.view(4, -1)\n"
            "a = torch.stft(torch.randn(4, 8), 4)\n"
            "b = nn.Linear(8, 2)(a)\n");
  ProcessResult r = gshape({"report", "--color=never", dir / "m.py"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.out, "not proven: `h` is unknown because of the error at 5:5 [linear_c1]")) << r.out;
  EXPECT_TRUE(contains(r.out, "not proven: the shape of `y` is unknown because of the error at 5:5 [linear_c1]"))
      << "carried on through y = h @ ...: " << r.out;
  EXPECT_TRUE(contains(r.out, "not proven: the shape of `a` is unknown because of "
                              "`torch.stft(torch.randn(4, 8), 4)` at 8:5, which has no rule (torch.stft)"))
      << r.out;

  Json doc = parse_or_fail(gshape({"report", "--format=json", dir / "m.py"}).out);
  const Json* matmul = find_obligation(doc, "m.py", 6, "matmul_c2");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ((*matmul)["status"].string, "deferred");
  EXPECT_TRUE(contains((*matmul)["reason"].string, "`h` is unknown because of the error at 5:5 [linear_c1]"))
      << (*matmul)["reason"].string;
  const Json* view = find_obligation(doc, "m.py", 7, "view_c4");
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(contains((*view)["reason"].string, "because of the error at 5:5 [linear_c1]")) << (*view)["reason"].string;

  std::string html = dir / "review.html";
  ProcessResult h = gshape({"report", "--html", html, dir / "m.py"});
  EXPECT_EQ(h.exit_code, 1) << h.err;
  std::string page = read_all(html);
  EXPECT_TRUE(contains(page, "`h` is unknown because of the error at 5:5 [linear_c1]")) << "the page says it too";
}

TEST(Report, AnUnknownCarriesItsCauseIntoTheFunctionsItReaches) {
  // the batch comes from a file read at run time, in another function and
  // another file: the deferred check in forward says so, and the JSON's
  // origin classes it as run-time data
  TempDir dir;
  dir.write("data.py",
            "import torch\n"
            "def load():\n"
            "    return torch.load('batch.pt')\n");
  dir.write("m.py",
            "import torch\n"
            "import torch.nn as nn\n"
            "from torch.utils.data import DataLoader\n"
            "from data import load\n"
            "class Net(nn.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.fc = nn.Linear(8, 2)\n"
            "    def forward(self, x):\n"
            "        return self.fc(x)\n"
            "net = Net()\n"
            "y = net(load())\n"
            "for batch in DataLoader(load(), batch_size=4):\n"
            "    z = batch.view(4, -1)\n");
  ProcessResult r = gshape({"report", "--color=never", dir.str()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "not proven: `x` is unknown because of `torch.load('batch.pt')` at 3:12, "
                              "which reads a file when the program runs (in "))
      << r.out;
  Json doc = parse_or_fail(gshape({"report", "--format=json", dir.str()}).out);
  const Json* linear = find_obligation(doc, "m.py", 10, "linear_c1");
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ((*linear)["status"].string, "deferred");
  ASSERT_TRUE(linear->has("origin")) << (*linear)["reason"].string;
  EXPECT_EQ((*linear)["origin"].string, "run-time data");
  // a DataLoader whose samples the analysis cannot see: its batches are data
  const Json* view = find_obligation(doc, "m.py", 14, "view_c4");
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(contains((*view)["reason"].string, "whose samples are read when the program runs")) << (*view)["reason"].string;
  EXPECT_EQ(view->str("origin"), "run-time data");
  // an op without a rule is a limit of the analysis, and says so
  dir.write("m.py",
            "import torch\n"
            "import torch.nn as nn\n"
            "def spectrum(x):\n"
            "    return torch.stft(x, 4)\n"
            "y = nn.Linear(8, 2)(spectrum(torch.randn(4, 8)))\n");
  doc = parse_or_fail(gshape({"report", "--format=json", dir / "m.py"}).out);
  linear = find_obligation(doc, "m.py", 5, "linear_c1");
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ(linear->str("origin"), "no rule") << (*linear)["reason"].string;
  // so is a library the analysis does not model, and a join keeps the
  // unknown side's cause
  dir.write("m.py",
            "import sys\n"
            "import numpy as np\n"
            "import torch\n"
            "import torch.nn as nn\n"
            "w = np.random.randn(4, 8)\n"
            "x = torch.from_numpy(w) if len(sys.argv) > 1 else torch.zeros(4, 8)\n"
            "y = nn.Linear(8, 2)(x)\n");
  doc = parse_or_fail(gshape({"report", "--format=json", dir / "m.py"}).out);
  linear = find_obligation(doc, "m.py", 7, "linear_c1");
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ(linear->str("origin"), "library not modelled") << (*linear)["reason"].string;
  EXPECT_TRUE(contains((*linear)["reason"].string, "which the analysis does not model (numpy.random.randn)"))
      << (*linear)["reason"].string;
}

TEST(Report, TheLengthOfRunTimeDataIsRunTimeDataToo) {
  // nanoGPT's get_batch: torch.randint(len(data) - block_size, ...) of a
  // memory-mapped file; the deferred check was "len is unknown", no origin
  TempDir dir;
  dir.write("m.py",
            "import numpy as np\n"
            "import torch\n"
            "block_size = 8\n"
            "data = np.memmap('train.bin', dtype=np.uint16, mode='r')\n"
            "ix = torch.randint(len(data) - block_size, (4,))\n");
  Json doc = parse_or_fail(gshape({"report", "--format=json", "--verbose", dir / "m.py"}).out);
  const Json* randint = find_obligation(doc, "m.py", 5, "randint_c1");
  ASSERT_NE(randint, nullptr);
  EXPECT_EQ((*randint)["status"].string, "deferred");
  EXPECT_EQ(randint->str("origin"), "run-time data") << (*randint)["reason"].string;
  EXPECT_TRUE(contains((*randint)["reason"].string, "reads a file when the program runs")) << (*randint)["reason"].string;
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
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\n    15:11 +deferred +linear_c1 .*\n(( +.*\n)*?) +in the run: +(.+)\n")))
      << r.out;
  EXPECT_EQ(m[3].str(), "ran 3 times, failed 1 time");
  // linear_c2 (trivia: --verbose) is checked by the same site: it ran as often, and never failed
  ProcessResult v = gshape({"report", "--color=never", "--verbose", "--stats", stats, p.src});
  ASSERT_TRUE(std::regex_search(v.out, m, std::regex("\n    15:11 +deferred +linear_c2 .*\n(( +.*\n)*?) +in the run: +(.+)\n")))
      << v.out;
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

// Operations whose checks would nest too deep run unchecked: the review
// names their line, analysed or read back, in text and JSON, even when they
// have no obligation (here: values not known to be tensors).
TEST(Report, NamesTheLinesOfOperationsNestedTooDeepToCheck) {
  TempDir dir;
  std::string chain = "a";
  for (int i = 0; i < 201; ++i) chain += " + b";
  dir.write("src/chain.py", "import sys, torch\na = torch.randn(*[int(v) for v in sys.argv[1:]])\nb = torch.randn(3)\ny = " +
                                chain + "\n");
  const std::string note = dir / "src/chain.py" + ":4: note: ";
  const std::string why = " operations on this line are not checked at run time: nested too deep for their checks";
  ProcessResult r = gshape({"report", "--color=never", dir / "src"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, note) && contains(r.out, why)) << r.out;
  Json doc = parse_or_fail(gshape({"report", "--format=json", dir / "src"}).out);
  ASSERT_EQ(doc["unchecked_notes"].array.size(), 1u);
  EXPECT_TRUE(contains(doc["unchecked_notes"].array[0].string, why)) << doc["unchecked_notes"].array[0].string;
  ASSERT_EQ(gshape({"instrument", dir / "src", "-o", dir / "out"}).exit_code, 0);
  r = gshape({"report", "--color=never", "--from", dir / "out/gshape-report.json"});
  EXPECT_TRUE(contains(r.out, note) && contains(r.out, why)) << r.out;
  // and the page instrument wrote
  EXPECT_TRUE(contains(read_all(dir / "out/gshape-report.html"), why));
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
