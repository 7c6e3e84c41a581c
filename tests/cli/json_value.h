// A strict little JSON parser for tests: it rejects anything that is not
// one well-formed JSON document, so `--format=json` output can be checked
// by parsing it back rather than by searching for substrings.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gshape::testing {

struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;

  bool has(const std::string& key) const { return type == Type::Object && object.count(key) != 0; }
  const JsonValue& operator[](const std::string& key) const { return object.at(key); }
};

// The parsed document, or nullopt with `error` set to what is wrong and where.
std::optional<JsonValue> parse_json(const std::string& text, std::string& error);

}  // namespace gshape::testing
