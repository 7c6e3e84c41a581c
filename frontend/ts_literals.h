// Python literal tokens as tree-sitter-python delivers them (their source
// text) → values: integers, floats, string prefixes and string bodies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gshape::ts {

// "0x1F", "0o17", "0b101", "1_000", "42" → value; nullopt when it does not fit
// in int64 or is not a Python 3 integer literal.
std::optional<int64_t> parse_int_literal(std::string_view text);

// "1.5e3", "1_0.5", "2" → value (a complex literal's text without its 'j').
double parse_float_literal(std::string_view text);

// The letters before the opening quote of a string literal.
struct StringPrefix {
  bool raw = false;
  bool bytes = false;
  bool formatted = false;
};
// `start` is the string_start token: the prefix letters and the opening quote(s).
StringPrefix parse_string_prefix(std::string_view start);

// Appends the value of a (non-f) string body (the text between the quotes) to
// `out`: escapes decoded unless raw, \r\n and \r in the text become \n as in
// CPython, escaped newlines vanish. In a str, \x, \u, \U and octal escapes give
// code points (encoded as UTF-8); in bytes, \x and octal give single bytes.
// \N{name} is kept as written (no Unicode name table here).
void decode_string_body(std::string_view body, StringPrefix prefix, std::string& out);

// Appends code point `cp` to `out` as UTF-8.
void append_utf8(uint32_t cp, std::string& out);

}  // namespace gshape::ts
