#include "frontend/ts_syntax_error.h"

#include <string>
#include <string_view>

namespace gshape::ts {

namespace {

constexpr TSSymbol kErrorSymbol = static_cast<TSSymbol>(-1);  // tree-sitter's builtin ERROR
constexpr std::size_t kMaxShownCodePoints = 40;

bool is_error(TSNode node) { return ts_node_symbol(node) == kErrorSymbol; }

// The first ERROR or MISSING node in document order. Inside an ERROR, a
// nested error is preferred only when it is a stray token on the same line
// (the ERROR around `return $` holds a childless ERROR for `$`); otherwise
// it is a consequence of the outer one.
TSNode first_error(TSNode root) {
  TSNode found = root;
  bool have_error = false;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool missing = ts_node_is_missing(node);
    if (missing || is_error(node)) {
      bool stray = missing || ts_node_child_count(node) == 0;
      if (have_error && (!stray || ts_node_start_point(node).row != ts_node_start_point(found).row)) break;
      found = node;
      have_error = true;
      if (missing) break;
    }
    // Step into the first child that holds an error (a cursor: no quadratic child indexing).
    bool has_next = false;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        // An ERROR leaf (a stray character) does not count as "having" an error itself.
        if (ts_node_has_error(child) || ts_node_is_missing(child) || is_error(child)) {
          has_next = true;
          break;
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    if (!has_next) break;
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

// The node's text up to the end of its first line, trimmed and shortened.
std::string shown_text(const SourceFile& file, TSNode node) {
  std::string_view text = file.text();
  uint32_t begin = ts_node_start_byte(node);
  uint32_t end = ts_node_end_byte(node);
  if (begin > text.size()) return {};
  std::string_view s = text.substr(begin, end - begin);
  std::size_t line_end = s.find_first_of("\r\n");
  if (line_end != std::string_view::npos) s = s.substr(0, line_end);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  std::string out;
  std::size_t code_points = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    bool starts_code_point = (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
    if (starts_code_point && ++code_points > kMaxShownCodePoints) {
      out += "…";
      break;
    }
    out += s[i];
  }
  return out;
}

// Width of a line's indentation as tree-sitter-python's scanner counts it.
uint32_t indent_columns(std::string_view line) {
  uint32_t columns = 0;
  for (char c : line) {
    if (c == ' ') ++columns;
    else if (c == '\t') columns += 8 - columns % 8;
    else if (c == '\f') columns = 0;
    else break;
  }
  return columns;
}

// First line indented deeper than the scanner can follow (0 when none).
uint32_t first_too_deep_line(const SourceFile& file, uint32_t& columns) {
  for (uint32_t line = 1; line <= file.line_count(); ++line) {
    columns = indent_columns(file.line_text(line));
    if (columns > kMaxIndentColumns) return line;
  }
  return 0;
}

}  // namespace

bool report_syntax_error(TSNode root, const SourceFile& file, LocationMap& locations, DiagnosticSink& diags) {
  if (!ts_node_has_error(root)) return false;

  uint32_t columns = 0;
  if (uint32_t line = first_too_deep_line(file, columns)) {
    std::string_view text = file.line_text(line);
    uint32_t begin = static_cast<uint32_t>(text.data() - file.text().data());
    diags.error(locations.at(begin, begin + static_cast<uint32_t>(text.size())),
                "nesting too deep: this line is indented by " + std::to_string(columns) +
                    " columns; the parser follows at most " + std::to_string(kMaxIndentColumns));
    return true;
  }

  TSNode node = first_error(root);
  if (ts_node_is_missing(node)) {
    std::string what = ts_node_type(node);
    std::string message = ts_node_is_named(node) ? "syntax error: missing " + what
                                                 : "syntax error: missing '" + what + "'";
    diags.error(locations.of(node), message);
    return true;
  }
  std::string shown = shown_text(file, node);
  std::string message = shown.empty() ? "syntax error: unexpected end of line" : "syntax error: unexpected '" + shown + "'";
  diags.error(locations.of(node), message);
  return true;
}

}  // namespace gshape::ts
