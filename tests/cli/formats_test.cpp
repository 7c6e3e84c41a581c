// Machine-readable diagnostics: SARIF 2.1.0 (checked by a structural
// validator of the schema's required properties, since the schema cannot be
// fetched here), GitHub workflow commands and their escaping, and the JSON
// fields --format=json gained (end of each range, --show-shapes' shapes).
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "cli/diagnostic_formats.h"
#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

// A refuted matmul on line 5 (columns 5-9), with notes on lines 3 and 4.
const char* kModel =
    "import torch\n"
    "\n"
    "a = torch.zeros(3, 5)\n"
    "b = torch.zeros(4, 2)\n"
    "c = a @ b\n";

// What the SARIF 2.1.0 schema (sarif-schema-2.1.0.json, OASIS) requires of
// the parts gshape writes, plus what code-scanning consumers read:
// sarifLog: version "2.1.0" (required), runs (required, array), $schema (a URI);
// run: tool (required); tool: driver (required); toolComponent: name (required);
// reportingDescriptor (rules[]): id (required); result: message (required),
// message: text or id; level in none|note|warning|error; ruleIndex within rules;
// location.physicalLocation: artifactLocation (uri) and region; region:
// startLine >= 1, startColumn >= 1, endLine >= startLine, endColumn >= 1
// (endColumn > startColumn on one line: the end is exclusive).
std::vector<std::string> sarif_problems(const Json& log) {
  std::vector<std::string> p;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) p.push_back(what);
    return ok;
  };
  if (!need(log.is_object(), "the log is an object")) return p;
  need(log.str("version") == "2.1.0", "version is \"2.1.0\"");
  need(std::regex_match(log.str("$schema"), std::regex("https://.*sarif.*2\\.1\\.0.*\\.json")), "$schema names the 2.1.0 schema");
  const Json* runs = log.find("runs");
  if (!need(runs && runs->is_array() && !runs->array.empty(), "runs is a non-empty array")) return p;
  for (const Json& run : runs->array) {
    const Json* tool = run.find("tool");
    const Json* driver = tool ? tool->find("driver") : nullptr;
    if (!need(driver && driver->is_object(), "run.tool.driver")) continue;
    need(!driver->str("name").empty(), "tool.driver.name");
    const Json* rules = driver->find("rules");
    need(rules && rules->is_array(), "tool.driver.rules is an array");
    std::set<std::string> rule_ids;
    if (rules && rules->is_array()) {
      for (const Json& r : rules->array) {
        need(!r.str("id").empty(), "every rule has an id");
        need(rule_ids.insert(r.str("id")).second, "rule ids are unique: " + r.str("id"));
      }
    }
    const Json* results = run.find("results");
    if (!need(results && results->is_array(), "run.results is an array")) continue;
    for (const Json& res : results->array) {
      std::string id = res.str("ruleId");
      need(rule_ids.count(id) == 1, "result.ruleId names a rule: " + id);
      if (const Json* index = res.find("ruleIndex")) {
        need(index->integer >= 0 && static_cast<std::size_t>(index->integer) < rules->array.size() &&
                 rules->array[static_cast<std::size_t>(index->integer)].str("id") == id,
             "ruleIndex points at the rule of ruleId");
      }
      need(std::set<std::string>{"none", "note", "warning", "error"}.count(res.str("level")) == 1, "result.level");
      const Json* message = res.find("message");
      need(message && !message->str("text").empty(), "result.message.text");
      const Json* locations = res.find("locations");
      if (!need(locations && locations->is_array(), "result.locations is an array")) continue;
      for (const Json& loc : locations->array) {
        const Json* phys = loc.find("physicalLocation");
        const Json* artifact = phys ? phys->find("artifactLocation") : nullptr;
        need(artifact && !artifact->str("uri").empty(), "physicalLocation.artifactLocation.uri");
        const Json* region = phys ? phys->find("region") : nullptr;
        if (!need(region != nullptr, "physicalLocation.region")) continue;
        int64_t sl = region->integer_of("startLine"), sc = region->integer_of("startColumn");
        int64_t el = region->integer_of("endLine"), ec = region->integer_of("endColumn");
        need(sl >= 1 && sc >= 1, "region starts at line and column >= 1");
        need(el >= sl && ec >= 1, "region.endLine >= startLine, endColumn >= 1");
        if (el == sl) need(ec > sc, "region.endColumn is after startColumn (exclusive end)");
      }
    }
  }
  return p;
}

TEST(Formats, SarifIsAValid210Log) {
  TempDir dir;
  std::string file = dir.write("model.py", kModel);
  ProcessResult r = gshape({"check", "--format=sarif", file});
  EXPECT_EQ(r.exit_code, 1);
  Json log = parse_json_or_fail(r.out);
  std::vector<std::string> problems = sarif_problems(log);
  EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems) << "\n" << r.out;
  const Json& run = log["runs"].array.at(0);
  EXPECT_EQ(run["tool"]["driver"]["name"].string, "gshape");
  ASSERT_EQ(run["results"].array.size(), 1u) << r.out;
  const Json& result = run["results"].array[0];
  EXPECT_EQ(result["ruleId"].string, "matmul_c2");
  EXPECT_EQ(result["level"].string, "error");
  const Json& region = result["locations"].array.at(0)["physicalLocation"]["region"];
  EXPECT_EQ(region["startLine"].integer, 5);
  EXPECT_EQ(region["startColumn"].integer, 5);
  EXPECT_EQ(region["endLine"].integer, 5);
  EXPECT_EQ(region["endColumn"].integer, 10);
  EXPECT_EQ(result["relatedLocations"].array.size(), 2u) << "the notes";
  EXPECT_EQ(result["locations"].array[0]["physicalLocation"]["artifactLocation"]["uri"].string,
            "file://" + file) << "an absolute path is a file:// URI";
}

TEST(Formats, TheValidatorCatchesBrokenLogs) {
  std::string error;
  Json broken = *parse_json_text(
      R"({"version": "2.0.0", "runs": [{"tool": {"driver": {"rules": [{"id": "a"}]}},
          "results": [{"ruleId": "b", "level": "fatal", "message": {},
          "locations": [{"physicalLocation": {"artifactLocation": {}, "region": {"startLine": 3, "startColumn": 4, "endLine": 2, "endColumn": 1}}}]}]}]})",
      error);
  EXPECT_GE(sarif_problems(broken).size(), 7u) << ::testing::PrintToString(sarif_problems(broken));
}

TEST(Formats, SarifOfACleanProjectHasNoResults) {
  TempDir dir;
  std::string file = dir.write("ok.py", "import torch\nx = torch.zeros(2, 3) @ torch.zeros(3, 4)\n");
  ProcessResult r = gshape({"check", "--format=sarif", file});
  EXPECT_EQ(r.exit_code, 0);
  Json log = parse_json_or_fail(r.out);
  EXPECT_TRUE(sarif_problems(log).empty()) << r.out;
  EXPECT_TRUE(log["runs"].array.at(0)["results"].array.empty());
}

TEST(Formats, GithubWorkflowCommands) {
  TempDir dir;
  std::string file = dir.write("model.py", kModel);
  ProcessResult r = gshape({"check", "--format=github", file});
  EXPECT_EQ(r.exit_code, 1);
  std::string prefix = "::error file=" + cli::github_escape_property(file) + ",line=5,col=5,endLine=5,endColumn=9,title=matmul_c2::matmul: ";
  EXPECT_EQ(r.out.rfind(prefix, 0), 0u) << r.out;
  // one command per line: the notes are in the message, newlines escaped
  EXPECT_EQ(count_of(r.out, "\n"), 1u) << r.out;
  EXPECT_TRUE(contains(r.out, "%0Anote: ")) << r.out;
  EXPECT_TRUE(contains(r.err, "checked 1 file: 1 error, 0 warnings")) << r.err;
}

TEST(Formats, GithubEscaping) {
  EXPECT_EQ(cli::github_escape_data("100% a\r\nb: c, d"), "100%25 a%0D%0Ab: c, d");
  EXPECT_EQ(cli::github_escape_property("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
}

TEST(Formats, JsonDiagnosticsCarryTheEndOfTheirRange) {
  TempDir dir;
  std::string file = dir.write("model.py", kModel);
  Json doc = gshape_json({"check", "--format=json", file});
  ASSERT_EQ(doc["diagnostics"].array.size(), 1u);
  const Json& d = doc["diagnostics"].array[0];
  EXPECT_EQ(d["line"].integer, 5);
  EXPECT_EQ(d["column"].integer, 5);
  EXPECT_EQ(d["end_line"].integer, 5);
  EXPECT_EQ(d["end_column"].integer, 10);
  EXPECT_EQ(d["notes"].array.at(0)["end_line"].integer, 3);
  EXPECT_EQ(d["notes"].array.at(0)["end_column"].integer, 22);
}

TEST(Formats, JsonCarriesTheShapesOfShowShapes) {
  TempDir dir;
  std::string file = dir.write("model.py", kModel);
  Json plain = gshape_json({"check", "--format=json", file});
  EXPECT_FALSE(plain.has("shapes"));
  Json doc = gshape_json({"check", "--format=json", "--show-shapes", file});
  ASSERT_TRUE(doc.has("shapes"));
  bool found = false;
  for (const Json& s : doc["shapes"].array) {
    if (s["line"].integer == 3 && s["expression"].string == "torch.zeros(3, 5)") {
      found = true;
      EXPECT_EQ(s["shapes"].array.at(0).string, "[3, 5]");
      EXPECT_EQ(s["end_column"].integer, 22);
    }
  }
  EXPECT_TRUE(found) << "torch.zeros(3, 5) on line 3";
  // the text form prints the same shapes
  ProcessResult text = gshape({"check", "--show-shapes", file});
  EXPECT_TRUE(contains(text.out, "model.py:3:5: torch.zeros(3, 5) : [3, 5]")) << text.out;
}

TEST(Formats, UnknownFormatIsAUsageError) {
  TempDir dir;
  std::string file = dir.write("model.py", kModel);
  ProcessResult r = gshape({"check", "--format=xml", file});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "expected text, json, sarif or github")) << r.err;
  ProcessResult report = gshape({"report", "--format=sarif", file});
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_TRUE(contains(report.err, "expected text or json")) << report.err;
}

}  // namespace
}  // namespace gshape::testing
