// A small JSON reader, the twin of json_writer.h: `gshape report` reads back
// GSHAPE_STATS files and gshape-report.json with it, and the CLI tests parse
// `--format=json` output with it. Strict (one well-formed document, depth-limited); numbers are kept as
// doubles and as 64-bit integers when they are integral.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gshape {

struct Json {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  double number = 0;
  int64_t integer = 0;  // the number when it is an integer within 64 bits
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  bool is_object() const { return type == Type::Object; }
  bool is_array() const { return type == Type::Array; }
  // The member `key` of an object, or nullptr (also when this is no object).
  const Json* find(const std::string& key) const;
  // Typed member access with a fallback when absent or of another type.
  std::string str(const std::string& key, const std::string& fallback = {}) const;
  int64_t integer_of(const std::string& key, int64_t fallback = 0) const;
  bool bool_of(const std::string& key, bool fallback = false) const;
  bool has(const std::string& key) const { return find(key) != nullptr; }
  // The member `key` of an object; throws std::out_of_range when absent.
  const Json& operator[](const std::string& key) const { return object.at(key); }
};

// The parsed document, or nullopt with `error` saying what is wrong and where.
std::optional<Json> parse_json_text(const std::string& text, std::string& error);

}  // namespace gshape
