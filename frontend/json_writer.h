// A minimal streaming JSON writer (objects, arrays, strings, numbers, bools),
// enough for diagnostics, dumps and reports without a third-party library.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gshape {

// Escapes `s` as a JSON string literal, quotes included. Bytes that are not
// valid UTF-8 become U+FFFD so the output is always valid JSON.
std::string json_quote(std::string_view s);

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out, bool pretty = false) : out_(out), pretty_(pretty) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(const std::string& v) { return value(std::string_view(v)); }
  JsonWriter& value(int64_t v);
  JsonWriter& value(uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(unsigned v) { return value(static_cast<uint64_t>(v)); }
  JsonWriter& value(double v);
  JsonWriter& value(bool v);
  JsonWriter& null();

  template <class T>
  JsonWriter& field(std::string_view k, const T& v) { key(k); return value(v); }

 private:
  void before_value();
  JsonWriter& close(char bracket);
  void newline();

  std::ostream& out_;
  bool pretty_;
  // One entry per open container: whether it already holds an element.
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace gshape
