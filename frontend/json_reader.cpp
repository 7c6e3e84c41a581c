#include "frontend/json_reader.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "frontend/ts_literals.h"  // append_utf8

namespace gshape {

namespace {

constexpr int kMaxDepth = 256;

class Reader {
 public:
  explicit Reader(const std::string& text) : s_(text) {}

  std::optional<Json> document(std::string& error) {
    Json v;
    skip_blanks();
    if (!value(v, 0)) {
      error = error_ + " at byte " + std::to_string(pos_);
      return std::nullopt;
    }
    skip_blanks();
    if (pos_ != s_.size()) {
      error = "unexpected text after the document at byte " + std::to_string(pos_);
      return std::nullopt;
    }
    return v;
  }

 private:
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  void skip_blanks() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }
  bool word(const std::string& w) {
    if (s_.compare(pos_, w.size(), w) != 0) return fail("unexpected character");
    pos_ += w.size();
    return true;
  }

  bool value(Json& v, int depth) {
    if (depth > kMaxDepth) return fail("nesting too deep");
    if (pos_ >= s_.size()) return fail("unexpected end of the document");
    switch (s_[pos_]) {
      case '{': return object(v, depth);
      case '[': return array(v, depth);
      case '"': v.type = Json::Type::String; return string(v.string);
      case 't': v.type = Json::Type::Bool; v.boolean = true; return word("true");
      case 'f': v.type = Json::Type::Bool; return word("false");
      case 'n': return word("null");
      default: return number(v);
    }
  }

  bool number(Json& v) {
    std::size_t start = pos_;
    auto digits = [&] {
      std::size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ > from;
    };
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    if (!digits()) return fail("expected a value");
    bool integral = true;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      integral = false;
      if (!digits()) return fail("expected digits after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      integral = false;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) return fail("expected digits in the exponent");
    }
    std::string text = s_.substr(start, pos_ - start);
    v.type = Json::Type::Number;
    v.number = std::strtod(text.c_str(), nullptr);
    if (integral) {
      errno = 0;
      long long n = std::strtoll(text.c_str(), nullptr, 10);
      if (errno == 0) v.integer = n;
    } else if (std::isfinite(v.number) && std::fabs(v.number) < 9.0e18 && v.number == std::floor(v.number)) {
      v.integer = static_cast<int64_t>(v.number);
    }
    return true;
  }


  bool hex4(uint32_t& cp) {
    if (pos_ + 4 > s_.size()) return fail("short \\u escape");
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      cp <<= 4;
      if (c >= '0' && c <= '9') cp |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') cp |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') cp |= static_cast<uint32_t>(c - 'A' + 10);
      else return fail("bad \\u escape");
    }
    return true;
  }

  bool string(std::string& out) {
    ++pos_;  // the opening quote
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && s_.compare(pos_, 2, "\\u") == 0) {  // a surrogate pair
            pos_ += 2;
            uint32_t low = 0;
            if (!hex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return fail("unpaired surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
          }
          ts::append_utf8(cp, out);
          break;
        }
        default: return fail("bad escape");
      }
    }
    return fail("unterminated string");
  }

  bool array(Json& v, int depth) {
    v.type = Json::Type::Array;
    ++pos_;
    skip_blanks();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_blanks();
      v.array.emplace_back();
      if (!value(v.array.back(), depth + 1)) return false;
      skip_blanks();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool object(Json& v, int depth) {
    v.type = Json::Type::Object;
    ++pos_;
    skip_blanks();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_blanks();
      if (pos_ >= s_.size() || s_[pos_] != '"') return fail("expected a member name");
      std::string key;
      if (!string(key)) return false;
      skip_blanks();
      if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':'");
      ++pos_;
      skip_blanks();
      Json member;
      if (!value(member, depth + 1)) return false;
      v.object[key] = std::move(member);
      skip_blanks();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

const Json* Json::find(const std::string& key) const {
  if (type != Type::Object) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &it->second;
}

std::string Json::str(const std::string& key, const std::string& fallback) const {
  const Json* v = find(key);
  return v && v->type == Type::String ? v->string : fallback;
}

int64_t Json::integer_of(const std::string& key, int64_t fallback) const {
  const Json* v = find(key);
  return v && v->type == Type::Number ? v->integer : fallback;
}

bool Json::bool_of(const std::string& key, bool fallback) const {
  const Json* v = find(key);
  return v && v->type == Type::Bool ? v->boolean : fallback;
}

std::optional<Json> parse_json_text(const std::string& text, std::string& error) {
  return Reader(text).document(error);
}

}  // namespace gshape
