#include "cli/suppressions.h"

#include <regex>

#include "codegen/atomic_file.h"

namespace gshape::cli {

namespace {

std::string trim(std::string s) {
  std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return {};
  std::size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

// `comment` starts at '#': the ignore directive in it, if any.
bool parse_directive(std::string_view comment, IgnoreComment& out) {
  // "ignore", or "ignore[...]" with its closing bracket ("ignore[" alone suppresses nothing)
  static const std::regex directive(R"(#\s*gshape:\s*ignore(?:\[([^\]]*)\]|(?![\w\-\[])))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(comment.begin(), comment.end(), m, directive)) return false;
  if (m[1].matched) {
    std::string list = m[1].str();
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t comma = list.find(',', start);
      std::string tag = trim(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (!tag.empty()) out.tags.push_back(tag);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return true;
}

}  // namespace

std::vector<IgnoreComment> find_ignore_comments(std::string_view text) {
  std::vector<IgnoreComment> out;
  uint32_t line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == '#') {
      std::size_t end = text.find('\n', i);
      if (end == std::string_view::npos) end = n;
      std::string_view comment = text.substr(i, end - i);
      if (!comment.empty() && comment.back() == '\r') comment.remove_suffix(1);
      IgnoreComment ic;
      if (parse_directive(comment, ic)) {
        ic.line = line;
        ic.byte_column = static_cast<uint32_t>(i - line_start);
        ic.offset = static_cast<uint32_t>(i);
        ic.length = static_cast<uint32_t>(comment.size());
        out.push_back(std::move(ic));
      }
      i = end;
      continue;
    }
    if (c == '\'' || c == '"') {
      // A string literal (any prefix is already behind us): skip to its end,
      // counting the lines a triple-quoted one spans. A backslash escapes the
      // next character in every kind of literal, raw ones included.
      bool triple = i + 2 < n && text[i + 1] == c && text[i + 2] == c;
      std::size_t j = i + (triple ? 3 : 1);
      while (j < n) {
        if (text[j] == '\\' && j + 1 < n) {
          if (text[j + 1] == '\n') {
            ++line;
            line_start = j + 2;
          }
          j += 2;
          continue;
        }
        if (text[j] == '\n') {
          if (!triple) break;  // an unterminated one-line string ends at the line's end
          ++line;
          line_start = j + 1;
          ++j;
          continue;
        }
        if (text[j] == c && (!triple || (j + 2 < n && text[j + 1] == c && text[j + 2] == c))) {
          j += triple ? 3 : 1;
          break;
        }
        ++j;
      }
      i = j;
      continue;
    }
    ++i;
  }
  return out;
}

void Suppressions::add_file(const SourceFile& file) {
  std::vector<IgnoreComment> comments = find_ignore_comments(file.text());
  if (comments.empty()) return;
  FileComments& fc = by_file_[file.path()];
  fc.file = &file;
  for (IgnoreComment& c : comments) {
    Entry e;
    e.tag_used.assign(c.tags.size(), false);
    e.comment = std::move(c);
    fc.by_line[e.comment.line].push_back(std::move(e));
  }
}

bool Suppressions::add_file_from_disk(const std::string& path) {
  if (by_file_.count(path)) return true;
  std::optional<std::string> text = codegen::read_file(path);
  if (!text) return false;
  owned_.push_back(std::make_unique<SourceFile>(path, std::move(*text)));
  add_file(*owned_.back());
  return true;
}

bool Suppressions::suppresses(const std::string& path, uint32_t line, const std::string& tag) {
  auto f = by_file_.find(path);
  if (f == by_file_.end()) return false;
  auto l = f->second.by_line.find(line);
  if (l == f->second.by_line.end()) return false;
  for (Entry& e : l->second) {
    if (e.comment.tags.empty()) {
      e.used = true;
      return true;
    }
    for (std::size_t i = 0; i < e.comment.tags.size(); ++i) {
      if (!tag.empty() && e.comment.tags[i] == tag) {
        e.used = true;
        e.tag_used[i] = true;
        return true;
      }
    }
  }
  return false;
}

std::vector<Diagnostic> Suppressions::unused_warnings() const {
  std::vector<Diagnostic> out;
  for (const auto& [path, fc] : by_file_) {
    for (const auto& [line, entries] : fc.by_line) {
      for (const Entry& e : entries) {
        SourceLoc loc{fc.file, e.comment.line, fc.file->column_of(e.comment.line, e.comment.byte_column), e.comment.offset,
                      e.comment.offset + e.comment.length};
        if (!e.used) {
          std::string list;
          for (const std::string& t : e.comment.tags) list += (list.empty() ? "" : ", ") + t;
          out.push_back({Severity::Warning, loc, {},
                         list.empty() ? "unused 'gshape: ignore' comment: nothing to suppress on this line"
                                      : "unused 'gshape: ignore[" + list + "]' comment: no diagnostic or obligation "
                                        "on this line has " + (e.comment.tags.size() == 1 ? "this tag" : "these tags"),
                         kUnusedIgnoreTag, {}});
          continue;
        }
        for (std::size_t i = 0; i < e.comment.tags.size(); ++i) {
          if (!e.tag_used[i]) {
            out.push_back({Severity::Warning, loc, {},
                           "unused tag '" + e.comment.tags[i] + "' in 'gshape: ignore[...]': no " + e.comment.tags[i] +
                               " diagnostic or obligation on this line",
                           kUnusedIgnoreTag, {}});
          }
        }
      }
    }
  }
  return out;
}

}  // namespace gshape::cli
