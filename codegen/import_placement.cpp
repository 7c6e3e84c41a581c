#include "codegen/import_placement.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace gshape::codegen {

using namespace gshape::ir;

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// The file's physical lines as Python counts them (\n, \r\n and \r end a line).
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
        starts_.push_back(static_cast<uint32_t>(i + 1));
      }
    }
    bom_ = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    // After a final line break there is no line, only the end of the file.
    if (starts_.size() > 1 && starts_.back() == text.size()) starts_.pop_back();
  }

  std::size_t count() const { return starts_.size(); }
  // 0-based line holding byte `offset`.
  std::size_t line_of(uint32_t offset) const {
    return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin()) - 1;
  }
  // First byte of line `line` (after the byte-order mark on line 0).
  uint32_t begin(std::size_t line) const { return line == 0 ? bom_ : starts_[line]; }
  // The line's text without its terminator.
  std::string_view content(std::size_t line) const {
    uint32_t b = begin(line);
    uint32_t e = line + 1 < starts_.size() ? starts_[line + 1] : static_cast<uint32_t>(text_.size());
    std::string_view s = text_.substr(b, e - b);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  }
  // Only blanks before `offset` on its line.
  bool starts_line(uint32_t offset) const {
    std::size_t line = line_of(offset);
    for (uint32_t i = begin(line); i < offset; ++i) {
      if (!is_blank(text_[i])) return false;
    }
    return true;
  }

 private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
  uint32_t bom_ = 0;
};

enum class LineKind { Blank, Comment, Code };

LineKind kind_of(std::string_view content) {
  std::size_t first = 0;
  while (first < content.size() && is_blank(content[first])) ++first;
  if (first == content.size()) return LineKind::Blank;
  return content[first] == '#' ? LineKind::Comment : LineKind::Code;
}

// Lines (0-based) that must stay exactly as they are at the top of the file:
// a shebang, and every line up to one holding a PEP 263 encoding declaration.
std::size_t first_free_line(const Lines& lines) {
  std::size_t first_free = 0;
  if (lines.count() > 0 && lines.content(0).substr(0, 2) == "#!") first_free = 1;
  for (std::size_t line = 0; line < 2 && line < lines.count(); ++line) {
    std::string_view content = lines.content(line);
    LineKind kind = kind_of(content);
    if (kind == LineKind::Code) break;
    if (kind == LineKind::Comment) {
      for (std::size_t at = content.find("coding"); at != std::string_view::npos;
           at = content.find("coding", at + 1)) {
        if (at + 6 < content.size() && (content[at + 6] == ':' || content[at + 6] == '=')) {
          first_free = std::max(first_free, line + 1);
        }
      }
    }
  }
  return first_free;
}

bool is_docstring(const Stmt* s) {
  const auto* e = dyn_cast<ExprStmt>(s);
  if (!e) return false;
  const auto* c = dyn_cast<Constant>(e->value);
  return c && c->type == Constant::Type::Str;
}

bool is_future_import(const Stmt* s) {
  const auto* i = dyn_cast<ImportFrom>(s);
  return i && i->level == 0 && i->module == "__future__";
}

// Byte ranges of function bodies inside `s` (they do not run at load time).
void collect_def_bodies(const Stmt* s, std::vector<std::pair<uint32_t, uint32_t>>& out);

void collect_def_bodies(const Body& body, std::vector<std::pair<uint32_t, uint32_t>>& out) {
  for (const Stmt* s : body) collect_def_bodies(s, out);
}

void collect_def_bodies(const Stmt* s, std::vector<std::pair<uint32_t, uint32_t>>& out) {
  switch (s->kind) {
    case Kind::FunctionDef: {
      const Body& body = cast<FunctionDef>(s)->body;
      if (!body.empty()) out.emplace_back(body.front()->loc.begin, body.back()->loc.end);
      break;
    }
    case Kind::ClassDef: collect_def_bodies(cast<ClassDef>(s)->body, out); break;
    case Kind::If:
      collect_def_bodies(cast<If>(s)->body, out);
      collect_def_bodies(cast<If>(s)->orelse, out);
      break;
    case Kind::For:
      collect_def_bodies(cast<For>(s)->body, out);
      collect_def_bodies(cast<For>(s)->orelse, out);
      break;
    case Kind::While:
      collect_def_bodies(cast<While>(s)->body, out);
      collect_def_bodies(cast<While>(s)->orelse, out);
      break;
    case Kind::With: collect_def_bodies(cast<With>(s)->body, out); break;
    case Kind::Try: {
      const auto* t = cast<Try>(s);
      collect_def_bodies(t->body, out);
      for (const ExceptHandler& h : t->handlers) collect_def_bodies(h.body, out);
      collect_def_bodies(t->orelse, out);
      collect_def_bodies(t->finalbody, out);
      break;
    }
    default: break;
  }
}

// Whether any of the sorted `offsets` lies in `s` but outside its function bodies.
bool runs_at_load(const Stmt* s, const std::vector<uint32_t>& offsets) {
  auto first = std::lower_bound(offsets.begin(), offsets.end(), s->loc.begin);
  auto last = std::lower_bound(offsets.begin(), offsets.end(), s->loc.end);
  if (first == last) return false;
  std::vector<std::pair<uint32_t, uint32_t>> bodies;
  collect_def_bodies(s, bodies);
  for (auto it = first; it != last; ++it) {
    bool deferred = std::any_of(bodies.begin(), bodies.end(),
                                [&](const auto& b) { return *it >= b.first && *it < b.second; });
    if (!deferred) return true;
  }
  return false;
}

bool defines_code(const Stmt* s) { return !isa<Import>(s) && !isa<ImportFrom>(s) && !is_docstring(s); }

bool is_compound(const Stmt* s) {
  switch (s->kind) {
    case Kind::FunctionDef: case Kind::ClassDef: case Kind::If: case Kind::For: case Kind::While:
    case Kind::With: case Kind::Try: case Kind::OpaqueStmt:  // match, or anything unknown: assume compound
      return true;
    default:
      return false;
  }
}

// After `s`, on its last line, only blanks, a comment or `;`: "; HEADER" fits.
bool can_append_after(std::string_view text, const Stmt* s) {
  std::size_t i = s->loc.end;
  while (i < text.size() && is_blank(text[i])) ++i;
  return i >= text.size() || text[i] == '\n' || text[i] == '\r' || text[i] == '#' || text[i] == ';';
}

}  // namespace

ImportPlacement place_runtime_import(const Module& module, const std::vector<uint32_t>& wrapper_offsets,
                                     const std::vector<uint32_t>& call_begins) {
  std::string_view text = module.file().text();
  Lines lines(text);
  const Body& body = module.body;
  ImportPlacement placement;

  // Rule 1: the preamble (docstring, then __future__ imports).
  std::size_t first_code = 0;
  if (first_code < body.size() && is_docstring(body[first_code])) ++first_code;
  while (first_code < body.size() && is_future_import(body[first_code])) ++first_code;
  if (first_code > 0 && can_append_after(text, body[first_code - 1])) {
    placement.form = ImportPlacement::Form::AfterStatement;
    placement.offset = body[first_code - 1]->loc.end;
    placement.rule = 1;
    return placement;
  }

  const std::size_t first_free = first_free_line(lines);
  // The last blank or comment-only line in [from, to), or none.
  auto gap_line = [&](std::size_t from, std::size_t to) -> std::optional<std::size_t> {
    from = std::max(from, first_free);
    for (std::size_t line = to; line > from; --line) {
      if (kind_of(lines.content(line - 1)) != LineKind::Code) return line - 1;
    }
    return std::nullopt;
  };
  auto on_line = [&](std::size_t line, int rule) {
    placement.form = ImportPlacement::Form::OwnLine;
    placement.offset = lines.begin(line);
    placement.before_comment = kind_of(lines.content(line)) == LineKind::Comment;
    placement.rule = rule;
    return placement;
  };

  // Rules 2-4 walk the statements after the preamble.
  std::size_t previous_end_line = first_code > 0 ? lines.line_of(body[first_code - 1]->loc.end) + 1 : 0;
  bool module_code_defined = false;
  for (std::size_t i = first_code; i < body.size(); ++i) {
    const Stmt* s = body[i];
    std::size_t line = lines.line_of(s->loc.begin);
    bool first = i == first_code;
    if (first && !is_compound(s) && lines.starts_line(s->loc.begin) && line >= first_free) {
      placement.form = ImportPlacement::Form::BeforeStatement;
      placement.offset = s->loc.begin;
      placement.rule = 2;
      return placement;
    }
    if (auto gap = gap_line(previous_end_line, line)) return on_line(*gap, first ? 3 : 4);
    if (!first && !is_compound(s) && lines.starts_line(s->loc.begin) && line >= first_free) {
      placement.form = ImportPlacement::Form::BeforeStatement;
      placement.offset = s->loc.begin;
      placement.rule = 4;
      return placement;
    }
    // Past `s` only if running it cannot need the table.
    if (runs_at_load(s, wrapper_offsets) || (module_code_defined && runs_at_load(s, call_begins))) {
      placement.problem = "the file begins with a compound statement that runs checks while the module loads "
                          "(line " + std::to_string(line + 1) + "), and no blank or comment line, docstring "
                          "or simple statement comes before it to hold the runtime import";
      return placement;
    }
    module_code_defined = module_code_defined || defines_code(s);
    previous_end_line = lines.line_of(s->loc.end > s->loc.begin ? s->loc.end - 1 : s->loc.end) + 1;
  }
  if (auto gap = gap_line(previous_end_line, lines.count())) return on_line(*gap, 4);
  placement.problem = "no blank or comment line, docstring or top-level simple statement can hold the runtime "
                      "import without adding a line";
  return placement;
}

std::string header_insertion(const ImportPlacement& placement, const std::string& header) {
  switch (placement.form) {
    case ImportPlacement::Form::AfterStatement: return "; " + header;
    case ImportPlacement::Form::BeforeStatement: return header + "; ";
    case ImportPlacement::Form::OwnLine: return placement.before_comment ? header + "  " : header;
    case ImportPlacement::Form::None: break;
  }
  return {};
}

}  // namespace gshape::codegen
