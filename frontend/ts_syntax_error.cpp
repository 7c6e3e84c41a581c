#include "frontend/ts_syntax_error.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gshape::ts {

namespace {

constexpr TSSymbol kErrorSymbol = static_cast<TSSymbol>(-1);  // tree-sitter's builtin ERROR

bool is_error(TSNode node) { return ts_node_symbol(node) == kErrorSymbol; }
bool type_is(TSNode node, const char* type) { return std::strcmp(ts_node_type(node), type) == 0; }

// The first ERROR or MISSING node in document order. Inside an ERROR, a
// nested error is preferred only when it is a stray token on the same line
// (the ERROR around `return $` holds a childless ERROR for `$`); otherwise
// it is a consequence of the outer one.
// Whether only blanks stand before `offset` on its line.
bool begins_line(std::string_view text, uint32_t offset) {
  while (offset > 0 && offset <= text.size()) {
    char c = text[offset - 1];
    if (c == '\n' || c == '\r') return true;
    if (c != ' ' && c != '\t' && c != '\f') return false;
    --offset;
  }
  return true;
}

// `*statement_level` tells whether it stands where a statement would (a
// child of the module or of a block, or first on its line): tree-sitter
// wrapped there a statement it could not finish, not tokens it skipped
// inside one.
TSNode first_error(TSNode root, std::string_view text = {}, bool* statement_level = nullptr) {
  TSNode found = root;
  bool have_error = false;
  TSNode parent{};
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    bool missing = ts_node_is_missing(node);
    if (missing || is_error(node)) {
      bool stray = missing || ts_node_child_count(node) == 0;
      if (have_error && (!stray || ts_node_start_point(node).row != ts_node_start_point(found).row)) break;
      found = node;
      have_error = true;
      if (statement_level != nullptr) {
        *statement_level = !ts_node_is_null(parent) && (type_is(parent, "module") || type_is(parent, "block") ||
                                                        (!stray && begins_line(text, ts_node_start_byte(node))));
      }
      if (missing) break;
    }
    parent = node;
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

// Nodes that can hold statements: the walk for Python 2 statements steps
// into these only, never into expressions.
bool may_hold_statements(TSNode node) {
  if (is_error(node)) return true;
  std::string_view type = ts_node_type(node);
  auto ends_with = [&](std::string_view tail) {
    return type.size() >= tail.size() && type.substr(type.size() - tail.size()) == tail;
  };
  if (type == "module" || type == "block") return true;
  if (type == "expression_statement") return false;
  return ends_with("_statement") || ends_with("_clause") || ends_with("_definition");
}

// The first Python 2 `print x` or `exec code` statement.
// tree-sitter-python parses them as statements; Python 3 does not. `print >>f, x`
// (a chevron) is not among them: Python 3 reads it as a tuple expression.
std::optional<TSNode> first_legacy_statement(TSNode root) {
  std::vector<TSNode> stack{root};
  std::optional<TSNode> found;
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (found && ts_node_start_byte(node) >= ts_node_start_byte(*found)) continue;
    bool print = type_is(node, "print_statement");
    if (print || type_is(node, "exec_statement")) {
      bool chevron = false;
      for (uint32_t i = 0, n = ts_node_named_child_count(node); print && i < n; ++i) {
        chevron = chevron || type_is(ts_node_named_child(node, i), "chevron");
      }
      if (!chevron) found = node;
      continue;
    }
    if (!may_hold_statements(node)) continue;
    // Children pushed last first, so the first is popped first.
    for (uint32_t i = ts_node_child_count(node); i-- > 0;) stack.push_back(ts_node_child(node, i));
  }
  return found;
}

// ------------------------------------------------------------ CPython's tokenizer, reduced

// What CPython's tokenizer finds that the parser never sees: an unterminated
// string, a closing bracket that closes nothing or the wrong bracket, and the
// brackets still open at the end of the file.
struct TokenScan {
  struct Bracket {
    char c;
    uint32_t offset;
  };
  std::optional<uint32_t> error_at;  // byte offset of the tokenizer's first error
  std::string error;
  std::vector<Bracket> open;  // still open at the end (when no error)
};

uint32_t line_number(std::string_view text, uint32_t offset) {
  uint32_t line = 1;
  for (uint32_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) ++line;
  }
  return line;
}

// The line CPython names at the end of the file ("detected at line N").
uint32_t last_line(std::string_view text) {
  uint32_t n = line_number(text, static_cast<uint32_t>(text.size()));
  if (n > 1 && !text.empty() && (text.back() == '\n' || text.back() == '\r')) --n;
  return n;
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         (static_cast<unsigned char>(c) & 0x80) != 0;
}

TokenScan scan_tokens(std::string_view text, std::size_t limit = std::string_view::npos) {
  TokenScan scan;
  std::size_t i = 0;
  const std::size_t n = std::min(text.size(), limit);
  while (i < n) {
    char c = text[i];
    if (c == '#') {
      while (i < n && text[i] != '\n' && text[i] != '\r') ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && (text[i + 1] == '\n' || text[i + 1] == '\r')) {
      i += 2;
      continue;
    }
    if (is_name_char(c)) {
      while (i < n && is_name_char(text[i])) ++i;  // a string prefix (r, b, f, u) too: its quote is read next
      continue;
    }
    if (c == '"' || c == '\'') {
      uint32_t start = static_cast<uint32_t>(i);
      bool triple = i + 2 < n && text[i + 1] == c && text[i + 2] == c;
      i += triple ? 3 : 1;
      bool closed = false;
      while (i < n) {
        char s = text[i];
        if (s == '\\') {
          i += 2;
          continue;
        }
        if (!triple && (s == '\n' || s == '\r')) break;
        if (s == c && (!triple || (i + 2 < n && text[i + 1] == c && text[i + 2] == c))) {
          i += triple ? 3 : 1;
          closed = true;
          break;
        }
        ++i;
      }
      if (!closed) {
        scan.error_at = start;
        scan.error = triple ? "unterminated triple-quoted string literal (detected at line " + std::to_string(last_line(text)) + ")"
                            : "unterminated string literal (detected at line " + std::to_string(line_number(text, start)) + ")";
        return scan;
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{') {
      scan.open.push_back({c, static_cast<uint32_t>(i)});
    } else if (c == ')' || c == ']' || c == '}') {
      uint32_t at = static_cast<uint32_t>(i);
      if (scan.open.empty()) {
        scan.error_at = at;
        scan.error = std::string("unmatched '") + c + "'";
        return scan;
      }
      TokenScan::Bracket opening = scan.open.back();
      char expected = opening.c == '(' ? ')' : opening.c == '[' ? ']' : '}';
      if (c != expected) {
        scan.error_at = at;
        scan.error = std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" + opening.c + "'";
        uint32_t open_line = line_number(text, opening.offset);
        if (open_line != line_number(text, at)) scan.error += " on line " + std::to_string(open_line);
        return scan;
      }
      scan.open.pop_back();
    }
    ++i;
  }
  return scan;
}

// How many brackets are open at `offset`.
std::size_t bracket_depth(std::string_view text, uint32_t offset) {
  TokenScan scan = scan_tokens(text, offset);
  return scan.error_at ? 0 : scan.open.size();
}

// The first byte at or after `offset` that is not blank or a comment;
// newlines are skipped too when `skip_newlines` (inside brackets). The end
// of the text when nothing is left.
uint32_t next_token(std::string_view text, uint32_t offset, bool skip_newlines) {
  while (offset < text.size()) {
    char c = text[offset];
    if (c == ' ' || c == '\t' || c == '\f' || (c == '\\' && offset + 1 < text.size() && (text[offset + 1] == '\n' || text[offset + 1] == '\r'))) {
      offset += c == '\\' ? 2 : 1;
    } else if ((c == '\n' || c == '\r') && skip_newlines) {
      ++offset;
    } else if (c == '#') {
      while (offset < text.size() && text[offset] != '\n' && text[offset] != '\r') ++offset;
    } else {
      break;
    }
  }
  return offset;
}

// The end of the token starting at `offset` (a name or number, else one character).
uint32_t token_end(std::string_view text, uint32_t offset) {
  if (offset >= text.size()) return offset;
  if (!is_name_char(text[offset])) return offset + 1;
  while (offset < text.size() && is_name_char(text[offset])) ++offset;
  return offset;
}

// ------------------------------------------------------------ the parser's errors in CPython's words

// Block keywords whose header must end in ':'.
bool is_compound_keyword(TSNode node) {
  static constexpr const char* kKeywords[] = {"if",   "elif",  "else", "while", "for",     "def",
                                              "class", "with", "try",  "except", "finally", "async"};
  if (ts_node_is_named(node)) return false;
  for (const char* k : kKeywords) {
    if (type_is(node, k)) return true;
  }
  return false;
}

// Where CPython's parser would stop in an ERROR node: at the second of two
// expressions written side by side (`a b`; the first goes to `*before`),
// else at the node itself.
TSNode failing_token(TSNode error, TSNode* before = nullptr) {
  uint32_t n = ts_node_child_count(error);
  TSNode previous{};
  bool have_previous = false;
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_child(error, i);
    if (is_error(child)) return child;
    bool expression = ts_node_is_named(child) && !type_is(child, "parameters") && !type_is(child, "argument_list") &&
                      !type_is(child, "comment");
    if (expression && have_previous && ts_node_start_point(child).row == ts_node_end_point(previous).row) {
      if (before != nullptr) *before = previous;
      return child;
    }
    have_previous = expression;
    if (expression) previous = child;
  }
  return error;
}

struct Described {
  uint32_t begin;
  uint32_t end;
  std::string message;
};

// An ERROR or MISSING node described as CPython would: "expected ':'" for a
// block header without its colon, otherwise "invalid syntax" where the parse
// stopped.
Described describe_parse_error(TSNode node, bool statement_level, std::string_view text_of_tree) {
  if (ts_node_is_missing(node)) {
    uint32_t at = ts_node_start_byte(node);
    return {at, ts_node_end_byte(node), type_is(node, ":") ? "expected ':'" : "invalid syntax"};
  }
  uint32_t n = ts_node_child_count(node);
  if (n > 0 && is_compound_keyword(ts_node_child(node, 0))) {
    // The header: the children on the keyword's line. Without a ':' there, and
    // with no two expressions side by side, the colon is what is missing.
    uint32_t row = ts_node_start_point(node).row;
    TSNode last = ts_node_child(node, 0);
    bool colon = false;
    for (uint32_t i = 0; i < n; ++i) {
      TSNode child = ts_node_child(node, i);
      if (ts_node_start_point(child).row != row) break;
      if (is_error(child)) return {ts_node_start_byte(child), ts_node_end_byte(child), "invalid syntax"};
      if (type_is(child, ":")) colon = true;
      last = child;
    }
    TSNode stop = failing_token(node);
    bool side_by_side = !ts_node_eq(stop, node) && ts_node_start_point(stop).row == row;
    if (!colon && !side_by_side) return {ts_node_end_byte(last), ts_node_end_byte(last), "expected ':'"};
  }
  TSNode before{};
  TSNode stop = failing_token(node, &before);
  if (!ts_node_is_null(before) && bracket_depth(text_of_tree, ts_node_start_byte(stop)) > 0) {
    // CPython's guess inside brackets, over both expressions
    return {ts_node_start_byte(before), ts_node_end_byte(stop), "invalid syntax. Perhaps you forgot a comma?"};
  }
  if (ts_node_eq(stop, node) && !statement_level && n > 0 && ts_node_is_named(ts_node_child(node, 0))) {
    // Tokens tree-sitter skipped inside a statement: after an expression
    // they are the second of two side by side (`foo(a b)`).
    TSNode previous = ts_node_prev_sibling(node);
    if (!ts_node_is_null(previous) && ts_node_is_named(previous) && !is_error(previous) &&
        ts_node_end_point(previous).row == ts_node_start_point(node).row &&
        bracket_depth(text_of_tree, ts_node_start_byte(node)) > 0) {
      return {ts_node_start_byte(previous), ts_node_end_byte(node), "invalid syntax. Perhaps you forgot a comma?"};
    }
  }
  if (!ts_node_eq(stop, node) || !statement_level) {
    return {ts_node_start_byte(stop), ts_node_end_byte(stop), "invalid syntax"};
  }
  // Nothing in a statement-level ERROR stands out: tree-sitter wrapped a
  // statement it could not finish, and CPython stops at the token after it
  // (the end of the line when the line ends there).
  std::string_view text = ts_node_end_byte(node) <= text_of_tree.size() ? text_of_tree : std::string_view{};
  uint32_t at = next_token(text, ts_node_end_byte(node), false);
  if (at >= text.size()) return {ts_node_start_byte(node), ts_node_end_byte(node), "invalid syntax"};
  return {at, token_end(text, at), "invalid syntax"};
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
  bool has_error = ts_node_has_error(root);
  std::string_view text = file.text();
  auto report = [&](uint32_t begin, uint32_t end, const std::string& message) {
    diags.error(locations.at(begin, end), "syntax error: " + message);
    return true;
  };

  std::optional<TSNode> legacy = first_legacy_statement(root);
  if (!has_error && !legacy) return false;

  uint32_t columns = 0;
  if (uint32_t line = first_too_deep_line(file, columns)) {
    std::string_view line_text = file.line_text(line);
    uint32_t begin = static_cast<uint32_t>(line_text.data() - text.data());
    // a limit of gshape's parser, not an error in the program (CPython
    // takes 100 levels of any width): a warning; the file is skipped
    diags.warning(locations.at(begin, begin + static_cast<uint32_t>(line_text.size())),
                  "nesting too deep: this line is indented by " + std::to_string(columns) +
                      " columns; the parser follows at most " + std::to_string(kMaxIndentColumns) +
                      ", so the file is not analysed nor checked at run time");
    return true;
  }

  auto legacy_message = [&](TSNode statement) {
    std::string keyword = type_is(statement, "print_statement") ? "print" : "exec";
    uint32_t begin = ts_node_start_byte(statement);
    return report(begin, begin + static_cast<uint32_t>(keyword.size()),
                  "Missing parentheses in call to '" + keyword + "'. Did you mean " + keyword + "(...)?");
  };
  if (!has_error) return legacy_message(*legacy);

  // CPython tokenizes the whole file after a parse error, and a tokenizer
  // error found anywhere replaces the parser's message.
  TokenScan scan = scan_tokens(text);
  if (scan.error_at) return report(*scan.error_at, *scan.error_at + 1, scan.error);

  bool statement_level = false;
  TSNode error = first_error(root, text, &statement_level);
  Described described = describe_parse_error(error, statement_level, text);
  uint32_t stop = described.begin;
  if (legacy && ts_node_start_byte(*legacy) < stop) stop = ts_node_start_byte(*legacy);
  // A bracket still open at the end of the file: CPython names it when its
  // parser read on to the end of the file, or to a later line than the
  // innermost open bracket's, before it stopped. It reads one token past a
  // token that starts an expression (`a b` inside brackets), else it stops
  // at the failing token (`def f(:`).
  if (!scan.open.empty()) {
    TokenScan::Bracket inner = scan.open.back();
    uint32_t furthest = stop;
    if (stop < text.size() && !ts_node_is_missing(error) &&
        (is_name_char(text[stop]) || text[stop] == '"' || text[stop] == '\'' || text[stop] == '(' ||
         text[stop] == '[' || text[stop] == '{')) {
      furthest = next_token(text, token_end(text, stop), true);
    }
    bool at_end = next_token(text, furthest, true) >= text.size();
    if (at_end || line_number(text, furthest) > line_number(text, inner.offset)) {
      return report(inner.offset, inner.offset + 1, std::string("'") + inner.c + "' was never closed");
    }
  }
  if (legacy && ts_node_start_byte(*legacy) < described.begin) return legacy_message(*legacy);
  return report(described.begin, described.end, described.message);
}

}  // namespace gshape::ts
