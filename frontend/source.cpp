#include "frontend/source.h"

namespace gshape {

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    char c = text_[i];
    // "\r\n" ends one line; a lone '\r' also ends one (as Python's tokenizer does).
    if (c == '\n' || (c == '\r' && (i + 1 >= text_.size() || text_[i + 1] != '\n'))) {
      line_starts_.push_back(i + 1);
    }
  }
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return std::string_view(text_).substr(begin, end - begin);
}

uint32_t SourceFile::column_of(uint32_t line, uint32_t byte_column) const {
  std::string_view text = line_text(line);
  if (byte_column > text.size()) return byte_column + 1;
  uint32_t column = 1;
  uint32_t i = 0;
  // A byte-order mark opening the file is invisible in editors: it takes no column.
  if (line == 1 && byte_column >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  for (; i < byte_column; ++i) {
    // Count every byte that is not a UTF-8 continuation byte.
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  }
  return column;
}

std::string SourceLoc::str() const {
  if (!valid()) return "<unknown>";
  return file->path() + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace gshape
