#include "frontend/json_writer.h"

#include <cmath>
#include <cstdio>

namespace gshape {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid.
// Overlong forms, UTF-16 surrogates and code points above U+10FFFF are
// invalid too (RFC 3629), so strict JSON readers accept the output.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  if (n == 1) return 1;
  unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
  if (c < 0xC2) return 0;                               // overlong 2-byte form
  if (c == 0xE0 && c1 < 0xA0) return 0;                 // overlong 3-byte form
  if (c == 0xED && c1 >= 0xA0) return 0;                // surrogates U+D800..U+DFFF
  if (c == 0xF0 && c1 < 0x90) return 0;                 // overlong 4-byte form
  if (c > 0xF4 || (c == 0xF4 && c1 >= 0x90)) return 0;  // above U+10FFFF
  return n;
}

}  // namespace

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
      continue;
    }
    std::size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\\ufffd";
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  out += '"';
  return out;
}

void JsonWriter::newline() {
  if (!pretty_) return;
  out_ << '\n';
  for (std::size_t i = 0; i < has_element_.size(); ++i) out_ << "  ";
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_element_.empty()) {
    if (has_element_.back()) out_ << ',';
    has_element_.back() = true;
    newline();
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ << '{';
  has_element_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  bool had = has_element_.back();
  has_element_.pop_back();
  if (had) newline();
  out_ << bracket;
  return *this;
}

JsonWriter& JsonWriter::end_object() { return close('}'); }

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ << '[';
  has_element_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::end_array() { return close(']'); }

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  out_ << json_quote(k) << (pretty_ ? ": " : ":");
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
  before_value();
  out_ << json_quote(v);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
  before_value();
  out_ << v;
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
  before_value();
  out_ << v;
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  before_value();
  if (std::isfinite(v)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    out_ << buf;
  } else {
    out_ << "null";  // JSON has no NaN or infinity
  }
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  before_value();
  out_ << (v ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ << "null";
  return *this;
}

}  // namespace gshape
