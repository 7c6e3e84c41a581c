// Source encodings (PEP 263): the encoding a Python file declares, and the
// ones gshape decodes. A file in latin-1, cp1252 or ascii is converted to
// UTF-8 when it is read (SourceFile::text() is always UTF-8, so columns,
// string constants and quoted lines are right), and whatever gshape writes
// from that text (an instrumented or annotated copy) is converted back with
// encode_source_text, byte for byte the original where nothing was inserted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "frontend/source.h"

namespace gshape {

// A PEP 263 declaration (`# -*- coding: latin-1 -*-`) on line 1, or on line 2
// when line 1 is blank or a comment, as CPython reads it.
struct CodingDeclaration {
  std::string encoding;  // as written
  uint32_t line = 0;     // 1-based
};
std::optional<CodingDeclaration> find_coding_declaration(std::string_view text);

// What a declared name means to CPython: the name its tokenizer normalises
// (`latin-1`, `ISO_8859_1`, `latin-1-unix` → latin-1; `utf_8` → utf-8), then
// the codec aliases of Python's `encodings` package (`l1`, `cp819`,
// `windows-1252`, `us-ascii` ...). nullopt: a codec gshape does not decode
// (or none at all).
std::optional<SourceEncoding> known_source_encoding(std::string_view declared);

// The codec's Python name, for messages: "utf-8", "latin-1", "cp1252", "ascii".
const char* source_encoding_name(SourceEncoding e);

// `bytes` in `e` converted to UTF-8; `bad` is the offset (in `bytes`) of the
// first byte the codec cannot decode (ascii: >= 0x80; cp1252: its five
// undefined bytes), npos when there is none (then `text` is the whole file).
// Utf8: `bytes` unchanged (not validated here).
struct DecodedSource {
  std::string text;
  std::size_t bad = std::string::npos;
};
DecodedSource decode_source(std::string_view bytes, SourceEncoding e);

// UTF-8 `text` in `e`; nullopt when it holds a character `e` cannot encode
// (or is not valid UTF-8). Utf8: `text` unchanged.
std::optional<std::string> encode_source(std::string_view text, SourceEncoding e);
// The same in the encoding `file` was read from.
inline std::optional<std::string> encode_source_text(const SourceFile& file, std::string_view text) {
  return encode_source(text, file.encoding());
}

}  // namespace gshape
