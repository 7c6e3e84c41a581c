// `# gshape: ignore` and `# gshape: ignore[tag, ...]` comments: a comment
// on a line suppresses the diagnostics of that line (every one, or those
// whose tag it names) and marks its refuted and deferred obligations as
// suppressed in the review. Their run-time checks stay in instrumented code.
// With --warn-unused-ignores, a comment (or a tag in one) that matched
// nothing is reported.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/source.h"

namespace gshape::cli {

// One ignore comment as written.
struct IgnoreComment {
  uint32_t line = 0;
  uint32_t byte_column = 0;        // 0-based byte offset of its '#' within the line
  uint32_t offset = 0;             // byte offset of the '#' in the file
  uint32_t length = 0;             // bytes of the comment
  std::vector<std::string> tags;   // empty: every diagnostic of the line
};

// The ignore comments of a Python source, found by a small tokenizer that
// skips string literals (a '#' inside a string is no comment).
std::vector<IgnoreComment> find_ignore_comments(std::string_view text);

// The tag unused comments are reported under (so severity overrides apply).
inline constexpr const char* kUnusedIgnoreTag = "unused-ignore";

class Suppressions {
 public:
  // The comments of `file` (which must outlive this object).
  void add_file(const SourceFile& file);
  // Reads `path` from disk (for a review read back from a report file);
  // false when it cannot be read.
  bool add_file_from_disk(const std::string& path);

  // Whether a comment on path:line suppresses `tag` ("" = a diagnostic
  // without a tag: only a comment without a tag list suppresses it); a
  // comment that does is marked used.
  bool suppresses(const std::string& path, uint32_t line, const std::string& tag);
  bool empty() const { return by_file_.empty(); }

  // One warning per comment that suppressed nothing, or per tag of a
  // comment's list that matched nothing: `unused 'gshape: ignore' comment`.
  std::vector<Diagnostic> unused_warnings() const;

 private:
  struct Entry {
    IgnoreComment comment;
    bool used = false;
    std::vector<bool> tag_used;
  };
  struct FileComments {
    const SourceFile* file = nullptr;
    std::map<uint32_t, std::vector<Entry>> by_line;
  };
  std::map<std::string, FileComments> by_file_;
  std::vector<std::unique_ptr<SourceFile>> owned_;
};

}  // namespace gshape::cli
