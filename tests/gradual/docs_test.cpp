// docs/rules.md documents every registered rule and every constraint tag
// written in the rule sources (spec → code → test stay in step).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "gradual/rule_registry.h"

namespace gshape::gradual {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// "torch.nn.functional.softmax" → "softmax"; "torch.nn.Linear.forward" → "Linear".
std::string op_short_name_for_docs(std::string name) {
  std::size_t dot = name.rfind('.');
  if (dot != std::string::npos && name.substr(dot + 1) == "forward") name = name.substr(0, dot);
  dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

TEST(Docs, RulesMdNamesEveryRule) {
  std::string doc = read(std::filesystem::path(GSHAPE_SOURCE_DIR) / "docs" / "rules.md");
  ASSERT_FALSE(doc.empty());
  for (const Rule* rule : RuleRegistry::builtin().all()) {
    std::string shortname = op_short_name_for_docs(rule->name);
    EXPECT_NE(doc.find(shortname), std::string::npos) << rule->name << " is not in docs/rules.md";
  }
}

TEST(Docs, RulesMdListsEveryTagOfTheSources) {
  std::string doc = read(std::filesystem::path(GSHAPE_SOURCE_DIR) / "docs" / "rules.md");
  std::regex tag("\"([a-z_]+_c[0-9]+)\"");
  int found = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(GSHAPE_SOURCE_DIR) / "gradual")) {
    std::string name = entry.path().filename().string();
    if (name.rfind("rule", 0) != 0 || entry.path().extension() != ".cpp") continue;
    std::string text = read(entry.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
      ++found;
      std::string t = (*it)[1].str();
      EXPECT_NE(doc.find(t), std::string::npos) << t << " (in " << name << ") is not in docs/rules.md";
    }
  }
  EXPECT_GT(found, 50);
}

}  // namespace
}  // namespace gshape::gradual
