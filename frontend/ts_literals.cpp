#include "frontend/ts_literals.h"

#include <charconv>
#include <cstdlib>

namespace gshape::ts {

namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

}  // namespace

std::optional<int64_t> parse_int_literal(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0') {
    char p = text[1];
    if (p == 'x' || p == 'X') base = 16;
    if (p == 'o' || p == 'O') base = 8;
    if (p == 'b' || p == 'B') base = 2;
    if (base != 10) text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  bool any_digit = false;
  for (char c : text) {
    if (c == '_') continue;
    int d = digit_value(c);
    if (d >= base) return std::nullopt;  // 'L' suffix, stray letters: not a Python 3 int
    if (value > (static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) {
      return std::nullopt;
    }
    value = value * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
    any_digit = true;
  }
  if (!any_digit) return std::nullopt;
  return static_cast<int64_t>(value);
}

double parse_float_literal(std::string_view text) {
  std::string digits;
  digits.reserve(text.size());
  for (char c : text) {
    if (c != '_') digits += c;
  }
  double value = 0.0;
  auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (result.ec == std::errc::result_out_of_range) {
    // from_chars leaves the value unset on overflow; strtod gives inf or 0 as Python does.
    value = std::strtod(digits.c_str(), nullptr);
  }
  return value;
}

StringPrefix parse_string_prefix(std::string_view start) {
  StringPrefix prefix;
  for (char c : start) {
    switch (c) {
      case 'r': case 'R': prefix.raw = true; break;
      case 'b': case 'B': prefix.bytes = true; break;
      case 'f': case 'F': prefix.formatted = true; break;
      default: break;
    }
  }
  return prefix;
}

void append_utf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

void decode_string_body(std::string_view body, StringPrefix prefix, std::string& out) {
  out.reserve(out.size() + body.size());
  std::size_t i = 0;
  auto newline_at = [&](std::size_t k) -> std::size_t {  // length of a line end at k, or 0
    if (k >= body.size()) return 0;
    if (body[k] == '\r') return k + 1 < body.size() && body[k + 1] == '\n' ? 2 : 1;
    return body[k] == '\n' ? 1 : 0;
  };
  // Reads up to `max` digits of `base` at i; returns false when there are fewer than `min`.
  auto read_number = [&](int base, std::size_t min, std::size_t max, uint32_t& value) {
    std::size_t n = 0;
    value = 0;
    while (n < max && i + n < body.size() && digit_value(body[i + n]) < base) {
      value = value * static_cast<uint32_t>(base) + static_cast<uint32_t>(digit_value(body[i + n]));
      ++n;
    }
    if (n < min) return false;
    i += n;
    return true;
  };

  while (i < body.size()) {
    if (std::size_t nl = newline_at(i)) {  // CPython reads \r\n and \r in source as \n
      out += '\n';
      i += nl;
      continue;
    }
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      ++i;
      continue;
    }
    if (prefix.raw) {
      // Raw: the backslash stays, and it protects the next character (a quote or a newline).
      out += c;
      ++i;
      if (newline_at(i) == 0) out += body[i++];
      continue;
    }
    std::size_t escape_start = i;
    ++i;  // past the backslash
    if (std::size_t nl = newline_at(i)) {  // backslash-newline: a continuation, no character
      i += nl;
      continue;
    }
    char e = body[i++];
    uint32_t value = 0;
    switch (e) {
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
        --i;
        read_number(8, 1, 3, value);
        if (prefix.bytes) out += static_cast<char>(value & 0xFF);
        else append_utf8(value, out);
        break;
      case 'x':
        if (read_number(16, 2, 2, value)) {
          if (prefix.bytes) out += static_cast<char>(value);
          else append_utf8(value, out);
        } else {
          out.append(body.substr(escape_start, i - escape_start));  // invalid: keep as written
        }
        break;
      case 'u':
      case 'U':
        if (!prefix.bytes && read_number(16, e == 'u' ? 4 : 8, e == 'u' ? 4 : 8, value) && value <= 0x10FFFF) {
          append_utf8(value, out);
        } else {
          out.append(body.substr(escape_start, i - escape_start));  // bytes have no \u; keep as written
        }
        break;
      default:
        // Unknown escapes (and \N{...}) keep their backslash, as CPython does for unknown ones.
        out += '\\';
        out += e;
        break;
    }
  }
}

}  // namespace gshape::ts
