// Source files and locations: every IR node and diagnostic points into a
// SourceFile through a SourceLoc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gshape {

// The encoding a file was read from (PEP 263; frontend/source_encoding.h).
// Whatever it is, SourceFile::text() is UTF-8.
enum class SourceEncoding : uint8_t { Utf8, Latin1, Cp1252, Ascii };

// One file's text as read from disk (converted to UTF-8 when the file declares
// another encoding gshape decodes), with its line table. Owned by the
// Project (or a test); IR nodes keep raw pointers to it, so it must outlive them.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  // Dotted module name within its project ("pkg.sub.mod"); empty for a lone file.
  const std::string& module_name() const { return module_name_; }
  void set_module_name(std::string name) { module_name_ = std::move(name); }
  bool is_package_init() const { return is_package_init_; }
  void set_package_init(bool v) { is_package_init_ = v; }
  // The encoding of the file on disk; text() holds its UTF-8 conversion, so
  // byte offsets (SourceLoc::begin/end) count bytes of that conversion.
  SourceEncoding encoding() const { return encoding_; }
  void set_encoding(SourceEncoding e) { encoding_ = e; }

  std::size_t line_count() const { return line_starts_.size(); }
  // Text of 1-based line `line`, without its line terminator.
  std::string_view line_text(uint32_t line) const;
  // 1-based column (in code points) of a 0-based byte column on a 1-based line.
  uint32_t column_of(uint32_t line, uint32_t byte_column) const;

 private:
  std::string path_;
  std::string text_;
  std::string module_name_;
  bool is_package_init_ = false;
  SourceEncoding encoding_ = SourceEncoding::Utf8;
  std::vector<uint32_t> line_starts_;  // byte offset of each line's first byte
};

// A place in a file: 1-based line and column (column counts code points, as
// editors do) and the byte range [begin, end) in the file's text.
struct SourceLoc {
  const SourceFile* file = nullptr;
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return file != nullptr && line > 0; }
  // "path:line:col" (or "<unknown>" when not valid).
  std::string str() const;
};

}  // namespace gshape
