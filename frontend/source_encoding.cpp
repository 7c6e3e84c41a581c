#include "frontend/source_encoding.h"

#include <array>
#include <cctype>

namespace gshape {

namespace {

// cp1252's 0x80..0x9F (0: undefined; Python's codec rejects those bytes);
// its other bytes are latin-1's.
constexpr std::array<uint16_t, 32> kCp1252High = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The code point at `i` of UTF-8 `s` (advancing `i`), or nullopt when the
// bytes there are not valid UTF-8.
std::optional<uint32_t> next_code_point(std::string_view s, std::size_t& i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) {
    ++i;
    return c;
  }
  std::size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
  if (length == 0 || length > 4 || i + length > s.size()) return std::nullopt;
  uint32_t cp = c & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  i += length;
  return cp;
}

// CPython's tokenizer (get_normal_name): the first 12 characters, lower
// case, '_' as '-'; utf-8 and latin-1 with their suffixed forms.
std::optional<SourceEncoding> tokenizer_name(std::string_view declared) {
  std::string buf;
  for (std::size_t i = 0; i < declared.size() && i < 12; ++i) {
    char c = declared[i];
    buf += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  auto starts = [&](std::string_view prefix) { return buf.rfind(prefix, 0) == 0; };
  if (buf == "utf-8" || starts("utf-8-")) return SourceEncoding::Utf8;
  if (buf == "latin-1" || buf == "iso-8859-1" || buf == "iso-latin-1" || starts("latin-1-") || starts("iso-8859-1-") ||
      starts("iso-latin-1-"))
    return SourceEncoding::Latin1;
  return std::nullopt;
}

// encodings.normalize_encoding: runs of characters other than letters,
// digits and '.' become one '_' (none at either end), lower case as
// codecs.lookup makes it.
std::string normalize_codec_name(std::string_view declared) {
  std::string out;
  bool punct = false;
  for (char c : declared) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.') {
      if (punct && !out.empty()) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      punct = false;
    } else {
      punct = true;
    }
  }
  return out;
}

struct Alias {
  const char* name;
  SourceEncoding encoding;
};

// Python 3.11's encodings.aliases for the codecs gshape decodes, and the
// codecs' own module names.
constexpr Alias kAliases[] = {
    {"utf_8", SourceEncoding::Utf8},       {"u8", SourceEncoding::Utf8},
    {"utf", SourceEncoding::Utf8},         {"utf8", SourceEncoding::Utf8},
    {"utf8_ucs2", SourceEncoding::Utf8},   {"utf8_ucs4", SourceEncoding::Utf8},
    {"cp65001", SourceEncoding::Utf8},     {"latin_1", SourceEncoding::Latin1},
    {"8859", SourceEncoding::Latin1},      {"cp819", SourceEncoding::Latin1},
    {"csisolatin1", SourceEncoding::Latin1}, {"ibm819", SourceEncoding::Latin1},
    {"iso8859", SourceEncoding::Latin1},   {"iso8859_1", SourceEncoding::Latin1},
    {"iso_8859_1", SourceEncoding::Latin1}, {"iso_8859_1_1987", SourceEncoding::Latin1},
    {"iso_ir_100", SourceEncoding::Latin1}, {"l1", SourceEncoding::Latin1},
    {"latin", SourceEncoding::Latin1},     {"latin1", SourceEncoding::Latin1},
    {"cp1252", SourceEncoding::Cp1252},    {"1252", SourceEncoding::Cp1252},
    {"windows_1252", SourceEncoding::Cp1252}, {"ascii", SourceEncoding::Ascii},
    {"646", SourceEncoding::Ascii},        {"ansi_x3.4_1968", SourceEncoding::Ascii},
    {"ansi_x3.4_1986", SourceEncoding::Ascii}, {"ansi_x3_4_1968", SourceEncoding::Ascii},
    {"cp367", SourceEncoding::Ascii},      {"csascii", SourceEncoding::Ascii},
    {"ibm367", SourceEncoding::Ascii},     {"iso646_us", SourceEncoding::Ascii},
    {"iso_646.irv_1991", SourceEncoding::Ascii}, {"iso_ir_6", SourceEncoding::Ascii},
    {"us", SourceEncoding::Ascii},         {"us_ascii", SourceEncoding::Ascii},
};

}  // namespace

std::optional<CodingDeclaration> find_coding_declaration(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a byte-order mark is read first
  for (uint32_t line = 1; line <= 2 && !text.empty(); ++line) {
    std::size_t eol = text.find_first_of("\r\n");
    std::string_view current = text.substr(0, eol);
    std::size_t first = current.find_first_not_of(" \t\f");
    bool is_comment = first != std::string_view::npos && current[first] == '#';
    if (is_comment) {
      for (std::size_t at = current.find("coding", first); at != std::string_view::npos;
           at = current.find("coding", at + 1)) {
        std::size_t k = at + 6;
        if (k >= current.size() || (current[k] != ':' && current[k] != '=')) continue;
        ++k;
        while (k < current.size() && (current[k] == ' ' || current[k] == '\t')) ++k;
        std::size_t name_begin = k;
        while (k < current.size() && (std::isalnum(static_cast<unsigned char>(current[k])) || current[k] == '-' ||
                                      current[k] == '_' || current[k] == '.')) {
          ++k;
        }
        if (k > name_begin) return CodingDeclaration{std::string(current.substr(name_begin, k - name_begin)), line};
      }
    }
    if (first != std::string_view::npos && !is_comment) break;  // code on line 1: line 2 does not count
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + (text.compare(eol, 2, "\r\n") == 0 ? 2 : 1));
  }
  return std::nullopt;
}

std::optional<SourceEncoding> known_source_encoding(std::string_view declared) {
  if (std::optional<SourceEncoding> e = tokenizer_name(declared)) return e;
  std::string name = normalize_codec_name(declared);
  std::string underscored = name;
  for (char& c : underscored) c = c == '.' ? '_' : c;
  for (const Alias& a : kAliases) {
    if (name == a.name || underscored == a.name) return a.encoding;
  }
  return std::nullopt;
}

const char* source_encoding_name(SourceEncoding e) {
  switch (e) {
    case SourceEncoding::Utf8: return "utf-8";
    case SourceEncoding::Latin1: return "latin-1";
    case SourceEncoding::Cp1252: return "cp1252";
    case SourceEncoding::Ascii: return "ascii";
  }
  return "utf-8";
}

DecodedSource decode_source(std::string_view bytes, SourceEncoding e) {
  DecodedSource out;
  if (e == SourceEncoding::Utf8) {
    out.text = std::string(bytes);
    return out;
  }
  out.text.reserve(bytes.size() + bytes.size() / 8);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    auto c = static_cast<unsigned char>(bytes[i]);
    uint32_t cp = c;
    if (c >= 0x80) {
      if (e == SourceEncoding::Ascii) cp = 0;
      else if (e == SourceEncoding::Cp1252 && c < 0xA0) cp = kCp1252High[c - 0x80];
    }
    if (cp == 0 && c != 0) {
      out.bad = i;
      return out;
    }
    append_utf8(out.text, cp);
  }
  return out;
}

std::optional<std::string> encode_source(std::string_view text, SourceEncoding e) {
  if (e == SourceEncoding::Utf8) return std::string(text);
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::optional<uint32_t> cp = next_code_point(text, i);
    if (!cp) return std::nullopt;
    if (*cp < 0x80 || (*cp < 0x100 && e == SourceEncoding::Latin1) ||
        (*cp >= 0xA0 && *cp < 0x100 && e == SourceEncoding::Cp1252)) {
      out += static_cast<char>(*cp);
      continue;
    }
    bool found = false;
    if (e == SourceEncoding::Cp1252) {
      for (std::size_t k = 0; k < kCp1252High.size() && !found; ++k) {
        if (kCp1252High[k] != 0 && kCp1252High[k] == *cp) {
          out += static_cast<char>(0x80 + k);
          found = true;
        }
      }
    }
    if (!found) return std::nullopt;
  }
  return out;
}

}  // namespace gshape
