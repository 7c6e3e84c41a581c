// JsonWriter and json_quote: escaping, invalid UTF-8, nesting, numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "frontend/json_writer.h"

namespace gshape {
namespace {

TEST(JsonQuote, EscapesQuotesBackslashesAndControls) {
  EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(json_quote("\n\r\t"), R"("\n\r\t")");
  EXPECT_EQ(json_quote(std::string("\x01\x1f\x7f", 3)), R"("\u0001\u001f\u007f")");
  EXPECT_EQ(json_quote(std::string("a\0b", 3)), R"("a\u0000b")");
}

TEST(JsonQuote, KeepsValidUtf8) {
  EXPECT_EQ(json_quote("é€𝔁"), "\"é€𝔁\"");
}

TEST(JsonQuote, InvalidUtf8BecomesReplacementCharacter) {
  EXPECT_EQ(json_quote("a\xff" "b"), R"("a\ufffdb")");
  EXPECT_EQ(json_quote("\x80"), R"("\ufffd")");            // lone continuation byte
  EXPECT_EQ(json_quote("x\xe2\x82"), R"("x\ufffd\ufffd")"); // truncated 3-byte sequence
  EXPECT_EQ(json_quote("\xc3"), R"("\ufffd")");             // truncated at the end
}

TEST(JsonQuote, OverlongSurrogateAndOutOfRangeSequencesAreInvalid) {
  EXPECT_EQ(json_quote("\xc0\xaf"), R"("\ufffd\ufffd")");          // overlong '/'
  EXPECT_EQ(json_quote("\xe0\x80\xaf"), R"("\ufffd\ufffd\ufffd")"); // overlong 3-byte
  EXPECT_EQ(json_quote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")"); // UTF-16 surrogate U+D800
  EXPECT_EQ(json_quote("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");  // beyond U+10FFFF
  EXPECT_EQ(json_quote("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");             // U+10FFFF is fine
}

TEST(JsonWriter, CompactNesting) {
  std::ostringstream out;
  JsonWriter w(out);
  w.begin_object();
  w.key("a").begin_array().value(1).value(2).begin_object().key("b").null().end_object().end_array();
  w.field("c", true);
  w.key("d").begin_array().end_array();
  w.key("e").begin_object().end_object();
  w.end_object();
  EXPECT_EQ(out.str(), R"({"a":[1,2,{"b":null}],"c":true,"d":[],"e":{}})");
}

TEST(JsonWriter, PrettyIndentsTwoSpacesPerLevel) {
  std::ostringstream out;
  JsonWriter w(out, /*pretty=*/true);
  w.begin_object().field("k", "v").key("list").begin_array().value(1).end_array().end_object();
  EXPECT_EQ(out.str(), "{\n  \"k\": \"v\",\n  \"list\": [\n    1\n  ]\n}");
}

TEST(JsonWriter, Numbers) {
  std::ostringstream out;
  JsonWriter w(out);
  w.begin_array();
  w.value(int64_t{-42}).value(std::numeric_limits<uint64_t>::max()).value(0.5).value(std::nan(""));
  w.value(std::numeric_limits<double>::infinity()).value(false);
  w.end_array();
  EXPECT_EQ(out.str(), "[-42,18446744073709551615,0.5,null,null,false]");
}

TEST(JsonWriter, KeysAreEscaped) {
  std::ostringstream out;
  JsonWriter w(out);
  w.begin_object().field("a\"b", "\xff").end_object();
  EXPECT_EQ(out.str(), R"({"a\"b":"\ufffd"})");
}

}  // namespace
}  // namespace gshape
