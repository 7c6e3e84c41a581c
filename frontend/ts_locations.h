// Byte offsets in a parsed file → SourceLoc (1-based line, code-point column).
#pragma once

#include <cstdint>
#include <vector>

#include <tree_sitter/api.h>

#include "frontend/source.h"

namespace gshape::ts {

// Uses the SourceFile's own line table (so a lone '\r' ends a line here as it
// does for SourceFile, whatever tree-sitter's row count says) and gives the
// same columns as SourceFile::column_of, but without rescanning the line for
// every node: ASCII lines map bytes to columns directly, and on other lines
// the column is counted on from the previous lookup when it lies further on.
// Lookups are cheapest in document order.
class LocationMap {
 public:
  explicit LocationMap(const SourceFile& file);

  SourceLoc at(uint32_t begin, uint32_t end);
  SourceLoc of(TSNode node) { return at(ts_node_start_byte(node), ts_node_end_byte(node)); }
  // From the start of `first` to the end of `last`.
  SourceLoc span(TSNode first, TSNode last) { return at(ts_node_start_byte(first), ts_node_end_byte(last)); }

 private:
  uint32_t line_index(uint32_t offset);  // 0-based
  uint32_t column(uint32_t index, uint32_t offset);

  const SourceFile& file_;
  std::vector<uint32_t> line_starts_;
  std::vector<bool> ascii_line_;
  uint32_t hint_ = 0;
  // The last column counted on a non-ASCII line.
  uint32_t counted_line_ = UINT32_MAX;
  uint32_t counted_offset_ = 0;
  uint32_t counted_column_ = 0;
};

}  // namespace gshape::ts
