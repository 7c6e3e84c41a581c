#include "cli/path_glob.h"

#include <filesystem>

namespace gshape::cli {

namespace fs = std::filesystem;

namespace {

// A bracket expression at pattern[p] ('[' ...); sets `next` past it. A '['
// without its ']' is a literal '['.
bool bracket_matches(std::string_view pattern, std::size_t p, char c, std::size_t& next, bool& is_class) {
  std::size_t i = p + 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  std::size_t start = i;
  bool found = false;
  for (; i < pattern.size() && (pattern[i] != ']' || i == start); ++i) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) found = true;
      i += 2;
    } else if (pattern[i] == c) {
      found = true;
    }
  }
  if (i >= pattern.size()) {  // no closing bracket
    is_class = false;
    next = p + 1;
    return c == '[';
  }
  is_class = true;
  next = i + 1;
  return found != negate && c != '/';
}

bool match_from(std::string_view pattern, std::size_t p, std::string_view text, std::size_t t) {
  while (p < pattern.size()) {
    char pc = pattern[p];
    if (pc == '*') {
      bool any_depth = p + 1 < pattern.size() && pattern[p + 1] == '*';
      std::size_t rest = p + (any_depth ? 2 : 1);
      if (any_depth && rest < pattern.size() && pattern[rest] == '/') {
        // "**/" matches zero or more whole folders
        for (std::size_t u = t;; ++u) {
          if ((u == t || text[u - 1] == '/') && match_from(pattern, rest + 1, text, u)) return true;
          if (u >= text.size()) return false;
        }
      }
      for (std::size_t u = t;; ++u) {
        if (match_from(pattern, rest, text, u)) return true;
        if (u >= text.size() || (!any_depth && text[u] == '/')) return false;
      }
    }
    if (t >= text.size()) return false;
    if (pc == '?') {
      if (text[t] == '/') return false;
      ++p;
      ++t;
      continue;
    }
    if (pc == '[') {
      std::size_t next = p;
      bool is_class = false;
      if (!bracket_matches(pattern, p, text[t], next, is_class)) return false;
      p = next;
      ++t;
      continue;
    }
    if (pc != text[t]) return false;
    ++p;
    ++t;
  }
  return t == text.size();
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) { return match_from(pattern, 0, text, 0); }

bool path_glob_matches(std::string_view pattern, std::string_view path) {
  std::string pat(pattern);
  while (pat.size() > 1 && pat.back() == '/') pat.pop_back();  // "legacy/" is "legacy"
  if (pat.rfind("./", 0) == 0) pat.erase(0, 2);
  if (pat.empty()) return false;
  if (pat.find('/') == std::string::npos) pat = "**/" + pat;
  else if (pat.front() == '/') pat.erase(0, 1);
  // the whole path, or a leading run of folders holding it
  if (glob_match(pat, path)) return true;
  for (std::size_t slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
    if (glob_match(pat, path.substr(0, slash))) return true;
  }
  return false;
}

void PathPatterns::add(const std::string& glob, const std::string& base_dir) {
  std::error_code ec;
  fs::path base = fs::absolute(base_dir.empty() ? fs::path(".") : fs::path(base_dir), ec).lexically_normal();
  patterns.push_back({glob, base.string()});
}

bool PathPatterns::matches(const std::string& path) const {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec).lexically_normal();
  for (const Pattern& p : patterns) {
    fs::path relative = absolute.lexically_relative(p.base);
    std::string rel = relative.generic_string();
    if (rel.empty() || rel == "." || rel.rfind("..", 0) == 0) {
      // outside the base: only a depth-free pattern ("test_*.py") can match, by name
      if (p.glob.find('/') == std::string::npos && glob_match(p.glob, absolute.filename().string())) return true;
      continue;
    }
    if (path_glob_matches(p.glob, rel)) return true;
  }
  return false;
}

}  // namespace gshape::cli
