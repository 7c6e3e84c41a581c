// yaml-cpp parses; the typing follows PyYAML's resolver (yaml/resolver.py):
// yaml-cpp leaves plain scalars untyped (tag "?"), quoted and block scalars
// are strings (tag "!").
#include "gradual/yaml_config.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <regex>

namespace gshape::gradual {

namespace {

constexpr int kMaxDepth = 64;

std::string without_underscores(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '_') out += c;
  return out;
}

YamlValue unknown() { return YamlValue{}; }

YamlValue convert(const YAML::Node& node, int depth);

std::optional<std::string> key_of(const YAML::Node& key) {
  if (!key.IsScalar() && !key.IsNull()) return std::nullopt;
  YamlValue k = convert(key, kMaxDepth);
  if (k.kind == YamlValue::Kind::String) return "s:" + k.string;
  if (k.kind == YamlValue::Kind::Int) return "i:" + std::to_string(k.integer);
  return std::nullopt;  // None, bools, floats as keys: not the analysis' dict keys
}

YamlValue convert(const YAML::Node& node, int depth) {
  if (depth > kMaxDepth) return unknown();
  const std::string& tag = node.Tag();
  switch (node.Type()) {
    case YAML::NodeType::Null: {
      if (tag != "?" && tag != "!" && tag != "tag:yaml.org,2002:null" && !tag.empty()) return unknown();
      if (tag == "!") {  // an empty quoted scalar
        YamlValue v;
        v.kind = YamlValue::Kind::String;
        return v;
      }
      YamlValue v;
      v.kind = YamlValue::Kind::Null;
      return v;
    }
    case YAML::NodeType::Scalar: {
      const std::string& text = node.Scalar();
      if (tag == "!" || tag == "tag:yaml.org,2002:str") {
        YamlValue v;
        v.kind = YamlValue::Kind::String;
        v.string = text;
        return v;
      }
      if (tag == "?") return resolve_plain_scalar(text);
      return unknown();  // !!int "0x10", !!python/..., local tags: not typed here
    }
    case YAML::NodeType::Sequence: {
      if (tag != "?" && tag != "!" && tag != "tag:yaml.org,2002:seq") return unknown();
      YamlValue v;
      v.kind = YamlValue::Kind::List;
      for (const YAML::Node& item : node) v.items.push_back(convert(item, depth + 1));
      return v;
    }
    case YAML::NodeType::Map: {
      if (tag != "?" && tag != "!" && tag != "tag:yaml.org,2002:map") return unknown();
      YamlValue v;
      v.kind = YamlValue::Kind::Map;
      for (const auto& kv : node) {
        if (kv.first.IsScalar() && kv.first.Tag() == "?" && kv.first.Scalar() == "<<") return unknown();  // merge keys
        std::optional<std::string> key = key_of(kv.first);
        if (!key) {
          v.complete = false;
          continue;
        }
        YamlValue value = convert(kv.second, depth + 1);
        bool replaced = false;
        for (auto& [k, old] : v.entries) {
          if (k == *key) {
            old = value;
            replaced = true;
          }
        }
        if (!replaced) v.entries.emplace_back(*key, std::move(value));
      }
      return v;
    }
    case YAML::NodeType::Undefined: return unknown();
  }
  return unknown();
}

}  // namespace

YamlValue resolve_plain_scalar(const std::string& text) {
  static const std::regex boolean("yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF");
  static const std::regex null("~|null|Null|NULL|");
  static const std::regex decimal("[-+]?(0|[1-9][0-9_]*)");
  static const std::regex other_int("[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+");
  static const std::regex decimal_float("[-+]?[0-9][0-9_]*\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9][0-9_]*([eE][-+][0-9]+)?");
  static const std::regex other_float("[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  static const std::regex timestamp("[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?([Tt]|[ \\t]+|$)[\\s\\S]*");
  static const std::regex value_or_merge("=|<<");
  YamlValue v;
  if (std::regex_match(text, boolean)) {
    v.kind = YamlValue::Kind::Bool;
    char c = text[0];
    v.boolean = c == 'y' || c == 'Y' || c == 't' || c == 'T' || text == "on" || text == "On" || text == "ON";
    return v;
  }
  if (std::regex_match(text, null)) {
    v.kind = YamlValue::Kind::Null;
    return v;
  }
  if (std::regex_match(text, decimal)) {
    std::string digits = without_underscores(text);
    if (digits.size() > 18) return unknown();
    v.kind = YamlValue::Kind::Int;
    v.integer = std::strtoll(digits.c_str(), nullptr, 10);
    return v;
  }
  if (std::regex_match(text, other_int)) return unknown();
  if (std::regex_match(text, decimal_float)) {
    std::string digits = without_underscores(text);
    char* end = nullptr;
    double d = std::strtod(digits.c_str(), &end);
    if (!end || *end != '\0') return unknown();
    v.kind = YamlValue::Kind::Float;
    v.number = d;
    return v;
  }
  if (std::regex_match(text, other_float) || std::regex_match(text, timestamp) ||
      std::regex_match(text, value_or_merge))
    return unknown();
  v.kind = YamlValue::Kind::String;
  v.string = text;
  return v;
}

std::optional<YamlValue> read_yaml_config(const std::string& text, std::string& error) {
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(text);
    if (docs.empty()) {  // an empty stream: None
      YamlValue v;
      v.kind = YamlValue::Kind::Null;
      return v;
    }
    if (docs.size() > 1) return unknown();  // safe_load refuses several documents; not decided here
    return convert(docs.front(), 0);
  } catch (const YAML::Exception& e) {
    error = e.what();
    return std::nullopt;
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace gshape::gradual
