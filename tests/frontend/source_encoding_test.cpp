// PEP 263 encodings: the declaration, the names CPython accepts for the
// codecs gshape decodes, and decoding / encoding back byte for byte.
#include "frontend/source_encoding.h"

#include <gtest/gtest.h>

namespace gshape {
namespace {

TEST(SourceEncoding, DeclarationOnLineOneOrTwoAfterAComment) {
  auto d = find_coding_declaration("# -*- coding: latin-1 -*-\nx = 1\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->encoding, "latin-1");
  EXPECT_EQ(d->line, 1u);
  d = find_coding_declaration("#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->encoding, "cp1252");
  EXPECT_EQ(d->line, 2u);
  d = find_coding_declaration("\xef\xbb\xbf# coding: latin-1\n");  // after a byte-order mark
  ASSERT_TRUE(d);
  EXPECT_EQ(d->encoding, "latin-1");
  // code on line 1: a declaration on line 2 does not count; nor does one on line 3
  EXPECT_FALSE(find_coding_declaration("x = 1\n# coding: latin-1\n"));
  EXPECT_FALSE(find_coding_declaration("#\n#\n# coding: latin-1\n"));
  EXPECT_FALSE(find_coding_declaration("s = '# coding: latin-1'\n"));
}

TEST(SourceEncoding, NamesAsCPythonReadsThem) {
  // the tokenizer's own normalisation, then the codec aliases
  for (const char* name : {"latin-1", "LATIN-1", "latin_1", "iso-8859-1", "ISO_8859_1", "iso-latin-1", "latin-1-unix",
                           "iso8859-1", "latin1", "l1", "cp819", "8859", "latin"}) {
    EXPECT_EQ(known_source_encoding(name), SourceEncoding::Latin1) << name;
  }
  for (const char* name : {"cp1252", "CP1252", "windows-1252", "windows_1252", "1252"}) {
    EXPECT_EQ(known_source_encoding(name), SourceEncoding::Cp1252) << name;
  }
  for (const char* name : {"ascii", "us-ascii", "US_ASCII", "646", "ANSI_X3.4-1968"}) {
    EXPECT_EQ(known_source_encoding(name), SourceEncoding::Ascii) << name;
  }
  for (const char* name : {"utf-8", "UTF8", "utf_8", "utf-8-unix", "u8"}) {
    EXPECT_EQ(known_source_encoding(name), SourceEncoding::Utf8) << name;
  }
  for (const char* name : {"euc-jp", "shift_jis", "koi8-r", "latin-2", "iso-8859-15", "utf-16", "nonsense"}) {
    EXPECT_FALSE(known_source_encoding(name)) << name;
  }
}

TEST(SourceEncoding, Latin1DecodesEveryByteAndEncodesBackToTheSameBytes) {
  std::string bytes;
  for (int b = 1; b < 256; ++b) bytes += static_cast<char>(b);
  DecodedSource d = decode_source(bytes, SourceEncoding::Latin1);
  EXPECT_EQ(d.bad, std::string::npos);
  EXPECT_EQ(d.text.substr(0, 127), bytes.substr(0, 127));
  EXPECT_EQ(d.text.substr(d.text.size() - 2), "\xc3\xbf");  // ÿ
  EXPECT_EQ(encode_source(d.text, SourceEncoding::Latin1), bytes);
  // a character beyond latin-1 cannot be written in it
  EXPECT_FALSE(encode_source("\xe2\x82\xac", SourceEncoding::Latin1));  // €
  EXPECT_FALSE(encode_source("\xff", SourceEncoding::Latin1));          // not UTF-8
}

TEST(SourceEncoding, Cp1252HasFiveUndefinedBytes) {
  DecodedSource d = decode_source("a\x80\x9f\xe9", SourceEncoding::Cp1252);
  EXPECT_EQ(d.bad, std::string::npos);
  EXPECT_EQ(d.text, "a\xe2\x82\xac\xc5\xb8\xc3\xa9");  // a € Ÿ é
  EXPECT_EQ(encode_source(d.text, SourceEncoding::Cp1252), "a\x80\x9f\xe9");
  for (unsigned char undefined : {0x81, 0x8d, 0x8f, 0x90, 0x9d}) {
    std::string bytes = std::string("ok ") + static_cast<char>(undefined);
    EXPECT_EQ(decode_source(bytes, SourceEncoding::Cp1252).bad, 3u) << static_cast<int>(undefined);
  }
  std::string all;
  for (int b = 1; b < 256; ++b) {
    if (b != 0x81 && b != 0x8d && b != 0x8f && b != 0x90 && b != 0x9d) all += static_cast<char>(b);
  }
  DecodedSource every = decode_source(all, SourceEncoding::Cp1252);
  EXPECT_EQ(every.bad, std::string::npos);
  EXPECT_EQ(encode_source(every.text, SourceEncoding::Cp1252), all);
  EXPECT_FALSE(encode_source("\xc2\x81", SourceEncoding::Cp1252));  // U+0081: cp1252 has no byte for it
}

TEST(SourceEncoding, AsciiRejectsHighBytes) {
  EXPECT_EQ(decode_source("x = 1\n", SourceEncoding::Ascii).text, "x = 1\n");
  EXPECT_EQ(decode_source("x = '\xe9'\n", SourceEncoding::Ascii).bad, 5u);
  EXPECT_FALSE(encode_source("\xc3\xa9", SourceEncoding::Ascii));
}

TEST(SourceEncoding, Utf8IsLeftAsItIs) {
  EXPECT_EQ(decode_source("caf\xc3\xa9", SourceEncoding::Utf8).text, "caf\xc3\xa9");
  EXPECT_EQ(encode_source("caf\xc3\xa9", SourceEncoding::Utf8), "caf\xc3\xa9");
}

}  // namespace
}  // namespace gshape
