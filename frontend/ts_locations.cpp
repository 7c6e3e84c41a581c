#include "frontend/ts_locations.h"

#include <algorithm>

namespace gshape::ts {

LocationMap::LocationMap(const SourceFile& file) : file_(file) {
  const std::string& text = file.text();
  line_starts_.reserve(file.line_count());
  ascii_line_.reserve(file.line_count());
  for (uint32_t line = 1; line <= file.line_count(); ++line) {
    std::string_view line_text = file.line_text(line);
    line_starts_.push_back(static_cast<uint32_t>(line_text.data() - text.data()));
    bool ascii = std::all_of(line_text.begin(), line_text.end(),
                             [](char c) { return (static_cast<unsigned char>(c) & 0x80) == 0; });
    ascii_line_.push_back(ascii);
  }
  if (line_starts_.empty()) {
    line_starts_.push_back(0);
    ascii_line_.push_back(true);
  }
}

uint32_t LocationMap::line_index(uint32_t offset) {
  auto within = [&](uint32_t i) {
    return line_starts_[i] <= offset && (i + 1 == line_starts_.size() || offset < line_starts_[i + 1]);
  };
  if (within(hint_)) return hint_;
  if (hint_ + 1 < line_starts_.size() && within(hint_ + 1)) return ++hint_;
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  hint_ = static_cast<uint32_t>(std::max<std::ptrdiff_t>(0, (it - line_starts_.begin()) - 1));
  return hint_;
}

uint32_t LocationMap::column(uint32_t index, uint32_t offset) {
  uint32_t start = line_starts_[index];
  if (offset < start) return 1;
  uint32_t line = index + 1;
  if (ascii_line_[index]) return 1 + (offset - start);  // one byte, one column (as column_of counts)
  // Count on from the last lookup on this line when it lies before `offset`
  // (past a byte-order mark, which column_of does not count; within the line's
  // text, beyond which column_of counts bytes).
  const std::string& text = file_.text();
  bool within_text = offset - start <= file_.line_text(line).size();
  if (counted_line_ == index && counted_offset_ <= offset && counted_offset_ >= start + 3 && within_text) {
    for (uint32_t i = counted_offset_; i < offset && i < text.size(); ++i) {
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++counted_column_;
    }
  } else {
    counted_column_ = file_.column_of(line, offset - start);
  }
  counted_line_ = index;
  counted_offset_ = offset;
  return counted_column_;
}

SourceLoc LocationMap::at(uint32_t begin, uint32_t end) {
  uint32_t index = line_index(begin);
  SourceLoc loc;
  loc.file = &file_;
  loc.line = index + 1;
  loc.column = column(index, begin);
  loc.begin = begin;
  loc.end = end;
  return loc;
}

}  // namespace gshape::ts
