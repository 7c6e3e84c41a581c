// IR golden tests: every case of tests/frontend/golden/*.txt is parsed, built
// and dumped, and the output must equal the case's expectation.
//
// File format (tree-sitter corpus style):
//   ==================
//   case name
//   :attribute            (optional lines: :crlf, :cr, :bom, :no-newline)
//   ==================
//   <python source>
//   ---
//   <expected output>
//
// The source is the text between the header and the first `---` line, trailing
// blank lines dropped and one final newline kept (:no-newline drops it; an
// empty source stays empty). :crlf / :cr turn its line ends into "\r\n" / "\r",
// :bom prepends a UTF-8 byte-order mark. The expected output is each diagnostic
// as `path:line:col: severity: message` (the path is test.py), then the IR dump,
// or `(no module)` when the builder returned none.
//
// GSHAPE_UPDATE_GOLDEN=1 rewrites the expectations of every case that ran with
// what the builder produces now: read each change before committing it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/ir_builder.h"
#include "frontend/ir_dump.h"

namespace {

namespace fs = std::filesystem;

struct GoldenCase {
  std::string file;      // path of the golden file
  std::string name;      // the case's name line
  std::string test_name; // file stem + name, as a valid gtest name
  std::string head;      // raw text from the header's first line through the `---` line
  std::string source;    // the Python source handed to the builder
  std::string expected;  // expected output (no trailing blank lines)
};

bool is_rule(const std::string& line) {
  return line.size() >= 3 && std::all_of(line.begin(), line.end(), [](char c) { return c == '='; });
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string join(const std::vector<std::string>& lines, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) out += lines[i] + "\n";
  return out;
}

std::string trim_trailing_blank_lines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// The text before the first case (kept as is when rewriting).
std::map<std::string, std::string>& preambles() {
  static std::map<std::string, std::string> map;
  return map;
}

std::vector<GoldenCase> parse_golden_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::vector<std::string> lines = split_lines(buffer.str());
  std::vector<GoldenCase> cases;
  std::size_t i = 0;
  // A header: rule, name, attributes, rule.
  auto header_at = [&](std::size_t k) {
    if (k + 2 >= lines.size() || !is_rule(lines[k])) return false;
    std::size_t j = k + 2;
    while (j < lines.size() && !lines[j].empty() && lines[j][0] == ':') ++j;
    return j < lines.size() && is_rule(lines[j]);
  };
  while (i < lines.size() && !header_at(i)) ++i;
  preambles()[path.string()] = join(lines, 0, i);
  while (i < lines.size()) {
    GoldenCase c;
    c.file = path.string();
    std::size_t start = i;
    c.name = lines[i + 1];
    std::vector<std::string> attributes;
    std::size_t j = i + 2;
    while (!is_rule(lines[j])) attributes.push_back(lines[j++]);
    std::size_t source_begin = j + 1;
    std::size_t separator = source_begin;
    while (separator < lines.size() && lines[separator] != "---") ++separator;
    std::size_t source_end = separator;
    while (source_end > source_begin && lines[source_end - 1].empty()) --source_end;
    c.source = join(lines, source_begin, source_end);
    c.head = join(lines, start, std::min(separator + 1, lines.size()));
    std::size_t next = separator + 1;
    while (next < lines.size() && !header_at(next)) ++next;
    c.expected = trim_trailing_blank_lines(join(lines, std::min(separator + 1, lines.size()), next));
    i = next;

    for (const std::string& a : attributes) {
      if (a == ":no-newline" && !c.source.empty()) {
        c.source.pop_back();
      } else if (a == ":crlf" || a == ":cr") {
        std::string converted;
        for (char ch : c.source) converted += ch == '\n' ? (a == ":crlf" ? "\r\n" : "\r") : std::string(1, ch);
        c.source = converted;
      } else if (a == ":bom") {
        c.source = "\xEF\xBB\xBF" + c.source;
      } else if (a != ":crlf" && a != ":cr" && a != ":no-newline") {
        ADD_FAILURE() << path << ": case '" << c.name << "': unknown attribute " << a;
      }
    }
    c.test_name = sanitize(path.stem().string() + "_" + c.name);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<GoldenCase> all_cases() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(GSHAPE_GOLDEN_DIR)) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<GoldenCase> cases;
  for (const fs::path& f : files) {
    for (GoldenCase& c : parse_golden_file(f)) cases.push_back(std::move(c));
  }
  return cases;
}

// What the builder produces for `source`, in the golden format.
std::string actual_output(const std::string& source) {
  gshape::SourceFile file("test.py", source);
  gshape::DiagnosticSink diags;
  std::unique_ptr<gshape::ir::Module> module = gshape::build_module(file, diags);
  std::ostringstream out;
  for (const gshape::Diagnostic& d : diags.all()) {
    out << (d.loc.valid() ? d.loc.str() : d.path) << ": " << gshape::severity_name(d.severity) << ": " << d.message
        << "\n";
  }
  if (module) gshape::dump_ir(out, *module);
  else out << "(no module)\n";
  return trim_trailing_blank_lines(out.str());
}

bool update_mode() {
  const char* v = std::getenv("GSHAPE_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// Actual outputs recorded in update mode, by file and case index.
std::map<std::string, std::map<std::string, std::string>>& updates() {
  static std::map<std::string, std::map<std::string, std::string>> map;
  return map;
}

// gtest prints a failing parameter with this (instead of its bytes).
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.file << ": " << c.name; }

class GoldenTest : public testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTest, DumpMatches) {
  const GoldenCase& c = GetParam();
  std::string actual = actual_output(c.source);
  EXPECT_EQ(actual.find(" @0:"), std::string::npos) << c.name << ": a node without a location\n" << actual;
  if (update_mode()) {
    updates()[c.file][c.name] = actual;
    return;
  }
  if (actual != c.expected) {
    std::vector<std::string> want = split_lines(c.expected), got = split_lines(actual);
    std::size_t line = 0;
    while (line < want.size() && line < got.size() && want[line] == got[line]) ++line;
    ADD_FAILURE() << c.file << ": case '" << c.name << "': dump differs from expectation line " << line + 1 << "\n"
                  << "  expected: " << (line < want.size() ? want[line] : "<end>") << "\n"
                  << "  actual:   " << (line < got.size() ? got[line] : "<end>") << "\n"
                  << "--- expected\n" << c.expected << "\n--- actual\n" << actual << "\n"
                  << "(GSHAPE_UPDATE_GOLDEN=1 rewrites the expectations; review the diff before committing)";
  }
}

// Rewrites golden files in update mode once every case has run.
class GoldenUpdater : public testing::Environment {
 public:
  void TearDown() override {
    if (!update_mode()) return;
    std::map<std::string, std::vector<GoldenCase>> by_file;
    for (GoldenCase& c : all_cases()) by_file[c.file].push_back(std::move(c));
    for (auto& [file, cases] : by_file) {
      auto recorded = updates().find(file);
      if (recorded == updates().end()) continue;
      std::string text = preambles()[file];
      for (std::size_t i = 0; i < cases.size(); ++i) {
        auto it = recorded->second.find(cases[i].name);
        text += cases[i].head;
        text += (it != recorded->second.end() ? it->second : cases[i].expected) + "\n";
        if (i + 1 < cases.size()) text += "\n";
      }
      std::ofstream(file, std::ios::binary) << text;
    }
  }
};

const testing::Environment* const kUpdater = testing::AddGlobalTestEnvironment(new GoldenUpdater);

INSTANTIATE_TEST_SUITE_P(Golden, GoldenTest, testing::ValuesIn(all_cases()),
                         [](const testing::TestParamInfo<GoldenCase>& param_info) { return param_info.param.test_name; });

// The runner itself: every golden file has cases, and names are unique.
TEST(GoldenFiles, CasesAreWellFormed) {
  if (update_mode()) GTEST_SKIP() << "expectations are being rewritten";
  std::vector<GoldenCase> cases = all_cases();
  ASSERT_FALSE(cases.empty()) << "no golden cases found in " << GSHAPE_GOLDEN_DIR;
  std::map<std::string, int> names;
  for (const GoldenCase& c : cases) {
    EXPECT_EQ(++names[c.test_name], 1) << "duplicate golden case name " << c.test_name;
    EXPECT_FALSE(c.expected.empty()) << c.file << ": case '" << c.name << "' has no expectation";
  }
}

}  // namespace
