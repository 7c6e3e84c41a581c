// The YAML reader for config files a launch names: values typed as PyYAML's
// safe_load types them (YAML 1.1), and what it cannot type exactly unknown.
#include <gtest/gtest.h>

#include "gradual/yaml_config.h"

namespace gshape::gradual {
namespace {

using Kind = YamlValue::Kind;

YamlValue read(const std::string& text) {
  std::string error;
  std::optional<YamlValue> v = read_yaml_config(text, error);
  EXPECT_TRUE(v.has_value()) << error;
  return v ? *v : YamlValue{};
}

const YamlValue* entry(const YamlValue& map, const std::string& key) {
  for (const auto& [k, v] : map.entries)
    if (k == key) return &v;
  return nullptr;
}

TEST(YamlConfig, NestedMappingsOfScalarsWithComments) {
  YamlValue v = read(
      "# a model\n"
      "model:\n"
      "  width: 96   # per head: 16\n"
      "  heads: 6\n"
      "  name: \"vit #1\"\n"
      "data: {image: 32, patch: 8}\n"
      "sizes: [1, 2, 3]\n");
  ASSERT_EQ(v.kind, Kind::Map);
  const YamlValue* model = entry(v, "s:model");
  ASSERT_TRUE(model && model->kind == Kind::Map);
  ASSERT_TRUE(entry(*model, "s:width"));
  EXPECT_EQ(entry(*model, "s:width")->kind, Kind::Int);
  EXPECT_EQ(entry(*model, "s:width")->integer, 96);
  EXPECT_EQ(entry(*model, "s:name")->string, "vit #1");
  EXPECT_EQ(entry(*entry(v, "s:data"), "s:patch")->integer, 8);
  const YamlValue* sizes = entry(v, "s:sizes");
  ASSERT_TRUE(sizes && sizes->kind == Kind::List);
  ASSERT_EQ(sizes->items.size(), 3u);
  EXPECT_EQ(sizes->items[2].integer, 3);
}

TEST(YamlConfig, PlainScalarsAreTypedAsPyYamlTypesThem) {
  EXPECT_EQ(resolve_plain_scalar("42").kind, Kind::Int);
  EXPECT_EQ(resolve_plain_scalar("-1_000").integer, -1000);
  EXPECT_EQ(resolve_plain_scalar("3.0e-4").kind, Kind::Float);
  EXPECT_EQ(resolve_plain_scalar("1e3").kind, Kind::String) << "YAML 1.1 needs a dot in a float";
  EXPECT_EQ(resolve_plain_scalar("3e-4").kind, Kind::String);
  EXPECT_EQ(resolve_plain_scalar(".5").kind, Kind::Float);
  EXPECT_TRUE(resolve_plain_scalar("yes").boolean);
  EXPECT_EQ(resolve_plain_scalar("Off").kind, Kind::Bool);
  EXPECT_FALSE(resolve_plain_scalar("Off").boolean);
  EXPECT_EQ(resolve_plain_scalar("~").kind, Kind::Null);
  EXPECT_EQ(resolve_plain_scalar("relu").kind, Kind::String);
  // forms the reader does not evaluate: unknown, never a wrong value
  EXPECT_EQ(resolve_plain_scalar("0x1F").kind, Kind::Unknown);
  EXPECT_EQ(resolve_plain_scalar("017").kind, Kind::Unknown) << "octal in YAML 1.1";
  EXPECT_EQ(resolve_plain_scalar("1:30").kind, Kind::Unknown) << "sexagesimal";
  EXPECT_EQ(resolve_plain_scalar("2024-01-02").kind, Kind::Unknown) << "a date";
  EXPECT_EQ(resolve_plain_scalar(".inf").kind, Kind::Unknown);
}

TEST(YamlConfig, QuotedScalarsAreStrings) {
  YamlValue v = read("a: '64'\nb: \"yes\"\nc: 'null'\nd: |\n  text\n");
  EXPECT_EQ(entry(v, "s:a")->kind, Kind::String);
  EXPECT_EQ(entry(v, "s:a")->string, "64");
  EXPECT_EQ(entry(v, "s:b")->kind, Kind::String);
  EXPECT_EQ(entry(v, "s:c")->kind, Kind::String);
  EXPECT_EQ(entry(v, "s:d")->string, "text\n");
}

TEST(YamlConfig, WhatIsNotTypedExactlyIsUnknown) {
  YamlValue merged = read("base: &b {w: 1}\nderived:\n  <<: *b\n  h: 2\n");
  ASSERT_EQ(merged.kind, Kind::Map);
  ASSERT_TRUE(entry(merged, "s:derived"));
  EXPECT_EQ(entry(merged, "s:derived")->kind, Kind::Unknown) << "merge keys";
  EXPECT_EQ(entry(read("x: !!python/tuple [1, 2]\n"), "s:x")->kind, Kind::Unknown);
  EXPECT_EQ(read("a: 1\n---\nb: 2\n").kind, Kind::Unknown) << "several documents";
  EXPECT_FALSE(read("null_key: ~\n").entries.empty());
  std::string error;
  EXPECT_FALSE(read_yaml_config("a: [1, 2\n", error).has_value());
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(read("").kind, Kind::Null) << "an empty file is None";
}

TEST(YamlConfig, ALaterDuplicateKeyWins) {
  YamlValue v = read("w: 1\nw: 2\n");
  ASSERT_EQ(v.entries.size(), 1u);
  EXPECT_EQ(v.entries[0].second.integer, 2);
}

}  // namespace
}  // namespace gshape::gradual
