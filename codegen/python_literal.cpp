#include "codegen/python_literal.h"

#include <cstdint>
#include <cstdio>

namespace gshape::codegen {

namespace {

// Decodes one UTF-8 sequence at `i`; returns the code point and advances `i`,
// or returns -1 (and advances one byte) when the bytes are not valid UTF-8.
int32_t decode_utf8(std::string_view s, std::size_t& i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  int length;
  int32_t cp;
  if (c < 0x80) {
    ++i;
    return c;
  } else if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    cp = c & 0x07;
  } else {
    ++i;
    return -1;
  }
  if (i + length > s.size()) {
    ++i;
    return -1;
  }
  for (int k = 1; k < length; ++k) {
    unsigned char next = byte(i + k);
    if ((next & 0xC0) != 0x80) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (next & 0x3F);
  }
  // Overlong forms, surrogates and values above U+10FFFF are invalid.
  bool overlong = (length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000);
  if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
    ++i;
    return -1;
  }
  i += length;
  return cp;
}

}  // namespace

std::string python_str(std::string_view text) {
  std::string out = "'";
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    int32_t cp = decode_utf8(text, i);
    if (cp < 0) cp = 0xFFFD;
    switch (cp) {
      case '\\': out += "\\\\"; continue;
      case '\'': out += "\\'"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (cp >= 0x20 && cp < 0x7F) {
      out += static_cast<char>(cp);
    } else if (cp < 0x100) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else if (cp < 0x10000) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
      out += buf;
    }
  }
  out += '\'';
  return out;
}

}  // namespace gshape::codegen
