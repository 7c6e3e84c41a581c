#include "codegen/nesting_budget.h"

#include <algorithm>
#include <array>
#include <map>

#include "codegen/rewriter.h"

namespace gshape::codegen {

namespace {

constexpr bool is_name_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (static_cast<unsigned char>(c) & 0x80) != 0;
}

bool is_quote(char c) { return c == '\'' || c == '"'; }

// A string prefix (r, b, u, f and their pairs, any case); sets raw / fstring.
bool string_prefix(std::string_view name, bool& raw, bool& fstring) {
  if (name.size() > 2) return false;
  raw = fstring = false;
  bool bytes = false, unicode = false;
  for (char c : name) {
    switch (c) {
      case 'r': case 'R': raw = true; break;
      case 'f': case 'F': fstring = true; break;
      case 'b': case 'B': bytes = true; break;
      case 'u': case 'U': unicode = true; break;
      default: return false;
    }
  }
  if (unicode && name.size() > 1) return false;
  return !(bytes && fstring);
}

// Bytes the scanner must look at in code (anything else is skipped in a
// run), and in a string.
constexpr std::array<bool, 256> byte_table(std::string_view bytes, bool names) {
  std::array<bool, 256> table{};
  for (char c : bytes) table[static_cast<unsigned char>(c)] = true;
  for (int c = 0; c < 256 && names; ++c) table[c] = table[c] || is_name_byte(static_cast<char>(c));
  return table;
}
constexpr std::array<bool, 256> kCodeByte = byte_table("#'\"()[]{}:", true);
constexpr std::array<bool, 256> kStringByte = byte_table("\\'\"{}\n\r", false);

// The scanner's context: code (the file, or an f-string field), a string
// literal, or an f-string field's format spec.
struct Frame {
  enum class Kind : uint8_t { Code, String, Spec } kind = Kind::Code;
  // Code in a field / Spec: the level inside the field's `{` (-1: the file)
  int base = -1;
  // String
  char quote = '"';
  bool triple = false;
  bool raw = false;
  bool fstring = false;
};

}  // namespace

BracketDepths::BracketDepths(std::string_view text) : depth_(text.size(), 0) {
  const std::size_t n = text.size();
  std::vector<Frame> stack{Frame{}};
  int depth = 0;
  std::size_t i = 0;
  // depth_ is written where the level changes: bytes before `at` at the
  // current level, from `at` on at `level`
  std::size_t filled = 0;
  auto level_from = [&](std::size_t at, int level) {
    at = std::min(at, n);
    if (at > filled) std::fill(depth_.begin() + static_cast<std::ptrdiff_t>(filled), depth_.begin() + static_cast<std::ptrdiff_t>(at),
                               static_cast<uint8_t>(std::clamp(depth, 0, 255)));
    filled = std::max(filled, at);
    depth = level;
    max_ = std::max<uint32_t>(max_, static_cast<uint32_t>(std::clamp(depth, 0, 255)));
  };
  auto open_string = [&](std::size_t at, bool raw, bool fstring) {  // `at`: the first quote
    Frame f;
    f.kind = Frame::Kind::String;
    f.quote = text[at];
    f.triple = at + 2 < n && text[at + 1] == f.quote && text[at + 2] == f.quote;
    f.raw = raw;
    f.fstring = fstring;
    std::size_t width = f.triple ? 3 : 1;
    stack.push_back(f);
    return at + width;
  };
  auto open_field = [&](std::size_t at) {  // `at`: the field's `{`
    level_from(at, depth + 1);
    Frame f;
    f.kind = Frame::Kind::Code;
    f.base = depth;
    stack.push_back(f);
    return at + 1;
  };
  while (i < n) {
    Frame& top = stack.back();
    const char c = text[i];
    if (top.kind == Frame::Kind::String) {
      if (c == '\\') {
        // `\N{NAME}` in a (non-raw) f-string is an escape, not a field
        if (top.fstring && !top.raw && i + 2 < n && text[i + 1] == 'N' && text[i + 2] == '{') {
          std::size_t close = text.find('}', i + 3);
          std::size_t end = close == std::string_view::npos ? n : close + 1;
          i = end;
          continue;
        }
        // a backslash keeps the next character in the string, but a brace
        // after it still opens or closes a field
        std::size_t width = i + 1 < n && !(top.fstring && (text[i + 1] == '{' || text[i + 1] == '}')) ? 2 : 1;
        i += width;
        continue;
      }
      if (c == top.quote && (!top.triple || (i + 2 < n && text[i + 1] == c && text[i + 2] == c))) {
        std::size_t width = top.triple ? 3 : 1;
        i += width;
        stack.pop_back();
        continue;
      }
      if (!top.triple && (c == '\n' || c == '\r')) {  // unterminated: not valid Python; end it here
        stack.pop_back();
        continue;
      }
      if (top.fstring && (c == '{' || c == '}')) {
        if (i + 1 < n && text[i + 1] == c) {  // `{{`, `}}`: a literal brace
          i += 2;
          continue;
        }
        if (c == '{') {
          i = open_field(i);
          continue;
        }
      }
      for (++i; i < n && !kStringByte[static_cast<unsigned char>(text[i])]; ++i) {
      }
      continue;
    }
    if (top.kind == Frame::Kind::Spec) {
      if (c == '{') {
        i = open_field(i);
        continue;
      }
      if (c == '}') {  // ends the field
        level_from(i + 1, depth - 1);
        ++i;
        stack.pop_back();
        continue;
      }
      ++i;
      continue;
    }
    // code
    if (c == '#') {
      std::size_t end = i;
      while (end < n && text[end] != '\n' && text[end] != '\r') ++end;
      i = end;
      continue;
    }
    if (is_quote(c)) {
      i = open_string(i, false, false);
      continue;
    }
    if (is_name_byte(c)) {
      std::size_t end = i;
      while (end < n && is_name_byte(text[end])) ++end;
      bool raw = false, fstring = false;
      if (end < n && is_quote(text[end]) && string_prefix(text.substr(i, end - i), raw, fstring)) {
        i = open_string(end, raw, fstring);
      } else {
        i = end;
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      level_from(i, depth + 1);  // a bracket is at the level it opens
      ++i;
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (top.base >= 0 && c == '}' && depth <= top.base) {  // ends an f-string field
        level_from(i + 1, top.base - 1);
        ++i;
        stack.pop_back();
        continue;
      }
      if (depth > std::max(top.base, 0)) level_from(i + 1, depth - 1);
      ++i;
      continue;
    }
    if (c == ':' && top.base >= 0 && depth <= top.base) {  // a field's format spec
      top.kind = Frame::Kind::Spec;
      ++i;
      continue;
    }
    // blanks, operators, line ends: nothing to see up to the next byte that may matter
    for (++i; i < n && !kCodeByte[static_cast<unsigned char>(text[i])]; ++i) {
    }
  }

  level_from(n, depth);
}

uint32_t BracketDepths::at(uint32_t offset) const { return offset < depth_.size() ? depth_[offset] : 0; }

uint32_t BracketDepths::max_in(uint32_t begin, uint32_t end) const {
  end = std::min<uint32_t>(end, static_cast<uint32_t>(depth_.size()));
  if (begin >= end) return 0;
  if (sparse_.empty()) {
    // the deepest level per block, and per run of 2^k blocks
    const std::size_t n = depth_.size();
    std::size_t blocks = (n >> kBlockBits) + 1;
    sparse_.emplace_back(blocks, 0);
    for (std::size_t k = 0; k < n; ++k) sparse_[0][k >> kBlockBits] = std::max(sparse_[0][k >> kBlockBits], depth_[k]);
    for (std::size_t width = 2; width <= blocks; width *= 2) {
      const std::vector<uint8_t>& prev = sparse_.back();
      std::vector<uint8_t> level(blocks - width + 1);
      for (std::size_t b = 0; b + width <= blocks; ++b) level[b] = std::max(prev[b], prev[b + width / 2]);
      sparse_.push_back(std::move(level));
    }
  }
  uint8_t best = 0;
  std::size_t first_block = (begin >> kBlockBits) + 1;  // the whole blocks inside the range
  std::size_t last_block = end >> kBlockBits;          // exclusive
  if (first_block >= last_block) {
    for (uint32_t k = begin; k < end; ++k) best = std::max(best, depth_[k]);
    return best;
  }
  for (uint32_t k = begin; k < (first_block << kBlockBits); ++k) best = std::max(best, depth_[k]);
  for (std::size_t k = last_block << kBlockBits; k < end; ++k) best = std::max(best, depth_[k]);
  std::size_t count = last_block - first_block;
  std::size_t level = 0;
  while ((std::size_t{2} << level) <= count) ++level;
  const std::vector<uint8_t>& row = sparse_[level];
  best = std::max({best, row[first_block], row[last_block - (std::size_t{1} << level)]});
  return best;
}

std::vector<DepthVerdict> sites_over_budget(std::string_view text, const std::vector<WrapperDepth>& wrappers,
                                            std::size_t sites,
                                            const std::vector<std::pair<uint32_t, uint32_t>>& too_deep,
                                            uint32_t budget) {
  std::vector<DepthVerdict> verdicts(sites);
  if (wrappers.empty()) return verdicts;
  const BracketDepths original(text);
  std::vector<uint32_t> cut;  // where the front end's cut code begins, sorted
  for (const auto& range : too_deep) cut.push_back(range.first);
  std::sort(cut.begin(), cut.end());
  std::vector<bool> dropped(sites, false);
  struct Open {
    uint32_t end;
    uint32_t levels;  // brackets added around what lies inside, this wrapper's and its ancestors'
  };
  std::vector<Open> open;
  for (const WrapperDepth& w : wrappers) {
    while (!open.empty() && open.back().end <= w.begin) open.pop_back();
    if (w.site >= sites || dropped[w.site]) continue;
    const uint32_t added = open.empty() ? 0 : open.back().levels;
    // the file's deepest level bounds the range's: most wrappers need no more
    uint32_t reached = original.max() + added + std::max(w.inner, w.own);
    if (reached > budget) {
      reached = std::max(original.max_in(w.begin, w.end) + added + w.inner, original.at(w.begin) + added + w.own);
    }
    auto first_cut = std::lower_bound(cut.begin(), cut.end(), w.begin);
    const bool holds_cut = first_cut != cut.end() && *first_cut < w.end;
    if (reached > budget || holds_cut) {
      dropped[w.site] = true;
      verdicts[w.site].reached = holds_cut ? 0 : reached;
      verdicts[w.site].holds_too_deep = holds_cut;
      continue;
    }
    open.push_back({w.end, added + w.inner});
  }
  return verdicts;
}

std::string nesting_problem(const DepthVerdict& verdict) {
  if (verdict.holds_too_deep) {
    return std::string(kNestedTooDeep) + ": an operand holds code nested deeper than gshape analyses";
  }
  return std::string(kNestedTooDeep) + ": its check would put code " + std::to_string(verdict.reached) +
         " brackets deep (gshape keeps instrumented code within " + std::to_string(kMaxBracketDepth) +
         "; CPython stops at " + std::to_string(kPythonMaxBracketDepth) + ")";
}

std::string nesting_notes(const std::string& display_path, const std::vector<SiteOutcome>& sites) {
  const std::string cut = nesting_problem(DepthVerdict{0, true});
  std::map<uint32_t, std::pair<std::size_t, std::size_t>> per_line;  // line → (too deep, holding cut code)
  for (const SiteOutcome& s : sites) {
    if (!s.nested_too_deep) continue;
    auto& counts = per_line[s.line];
    (s.problem == cut ? counts.second : counts.first)++;
  }
  std::string out;
  auto note = [&](uint32_t line, std::size_t count, const std::string& why) {
    if (count == 0) return;
    out += display_path + ":" + std::to_string(line) + ": note: " + std::to_string(count) +
           (count == 1 ? " operation on this line is" : " operations on this line are") +
           " not checked at run time: " + why + "\n";
  };
  for (const auto& [line, counts] : per_line) {
    note(line, counts.first,
         "nested too deep for their checks (gshape keeps instrumented code within " + std::to_string(kMaxBracketDepth) +
             " nested brackets; CPython stops at " + std::to_string(kPythonMaxBracketDepth) + ")");
    note(line, counts.second, "their operands hold code nested deeper than gshape analyses");
  }
  return out;
}

}  // namespace gshape::codegen
