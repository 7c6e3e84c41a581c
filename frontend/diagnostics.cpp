#include "frontend/diagnostics.h"

#include <algorithm>
#include <ostream>

#include "frontend/json_writer.h"

namespace gshape {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

const char* note_kind_name(NoteKind k) { return k == NoteKind::Help ? "help" : "note"; }

void DiagnosticSink::error(const SourceLoc& loc, std::string message, std::string tag) {
  report({Severity::Error, loc, {}, std::move(message), std::move(tag), {}});
}

void DiagnosticSink::warning(const SourceLoc& loc, std::string message, std::string tag) {
  report({Severity::Warning, loc, {}, std::move(message), std::move(tag), {}});
}

void DiagnosticSink::file_error(const std::string& path, std::string message) {
  report({Severity::Error, {}, path, std::move(message), {}, {}});
}

void DiagnosticSink::io_error(const std::string& path, std::string message) {
  Diagnostic d{Severity::Error, {}, path, std::move(message), {}, {}};
  d.io_error = true;
  report(std::move(d));
}

std::size_t DiagnosticSink::count_io_errors() const {
  return static_cast<std::size_t>(
      std::count_if(diagnostics_.begin(), diagnostics_.end(), [](const Diagnostic& d) { return d.io_error; }));
}

std::size_t DiagnosticSink::count(Severity s) const {
  return static_cast<std::size_t>(
      std::count_if(diagnostics_.begin(), diagnostics_.end(), [s](const Diagnostic& d) { return d.severity == s; }));
}

static const std::string& diagnostic_path(const Diagnostic& d) { return d.loc.valid() ? d.loc.file->path() : d.path; }

void DiagnosticSink::sort() {
  std::stable_sort(diagnostics_.begin(), diagnostics_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    const std::string& pa = diagnostic_path(a);
    const std::string& pb = diagnostic_path(b);
    if (pa != pb) return pa < pb;
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    // on one line, in the order Python evaluates them: an expression inside
    // another first (`x + self.attn(self.ln1(x))`: the ln1 call's failure,
    // the cause, before the sum's); expressions are nested or disjoint, so
    // by where they end, then the later start
    if (a.loc.valid() && b.loc.valid()) {
      auto end = [](const SourceLoc& l) { return std::max(l.begin + 1, l.end); };  // a point is one character
      if (end(a.loc) != end(b.loc)) return end(a.loc) < end(b.loc);
      return a.loc.begin > b.loc.begin;
    }
    return a.loc.column < b.loc.column;
  });
}

TextRange range_of(const SourceLoc& loc) {
  TextRange r{loc.line, loc.column, loc.line, loc.column};
  if (!loc.valid() || loc.end <= loc.begin) return r;
  const std::string& text = loc.file->text();
  std::size_t end = std::min<std::size_t>(loc.end, text.size());
  // the end's line: the start's, plus the line ends inside the range
  uint32_t line = loc.line;
  std::size_t line_start = static_cast<std::size_t>(loc.file->line_text(loc.line).data() - text.data());
  for (std::size_t i = std::max<std::size_t>(loc.begin, line_start); i < end; ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      line_start = i + 1;
    }
  }
  r.end_line = line;
  r.end_column = loc.file->column_of(line, static_cast<uint32_t>(end - line_start));
  return r;
}

namespace {

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::Error: return "\033[1;31m";
    case Severity::Warning: return "\033[1;35m";
    case Severity::Note: return "\033[1;36m";
  }
  return "";
}

// Prints one "where: severity: message" line, then the source line and a caret
// line underlining the location's range on that line.
void render_one(std::ostream& out, const SourceLoc& loc, const std::string& path, Severity severity,
                const std::string& message, const std::string& tag, bool color) {
  const char* bold = color ? "\033[1m" : "";
  const char* reset = color ? "\033[0m" : "";
  if (loc.valid()) {
    out << bold << loc.str() << ":" << reset << " ";
  } else if (!path.empty()) {
    out << bold << path << ":" << reset << " ";
  } else {
    out << bold << "gshape:" << reset << " ";
  }
  out << (color ? severity_color(severity) : "") << severity_name(severity) << ":" << reset << " " << message;
  if (!tag.empty()) out << " [" << tag << "]";
  out << "\n";
  if (!loc.valid()) return;

  std::string_view line = loc.file->line_text(loc.line);
  out << "  " << line << "\n  ";
  // Keep tabs so the caret lines up under the same characters.
  uint32_t column = 1;
  std::size_t i = 0;
  // A byte-order mark opening the file takes no column (SourceFile::column_of).
  if (loc.line == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  for (; i < line.size() && column < loc.column; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;
    out << (c == '\t' ? '\t' : ' ');
    ++column;
  }
  out << (color ? "\033[1;32m" : "") << '^';
  // Underline the rest of the range when it stays on this line.
  std::size_t line_begin = static_cast<std::size_t>(line.data() - loc.file->text().data());
  std::size_t range_end = std::min<std::size_t>(loc.end, line_begin + line.size());
  std::size_t caret_byte = line_begin + i;
  for (std::size_t b = caret_byte + 1; b < range_end; ++b) {
    if ((static_cast<unsigned char>(loc.file->text()[b]) & 0xC0) != 0x80) out << '~';
  }
  out << reset << "\n";
}

void write_loc(JsonWriter& w, const SourceLoc& loc, const std::string& path) {
  w.field("file", loc.valid() ? loc.file->path() : path);
  if (loc.valid()) {
    TextRange r = range_of(loc);
    w.field("line", loc.line).field("column", loc.column);
    w.field("begin", loc.begin).field("end", loc.end);
    w.field("end_line", r.end_line).field("end_column", r.end_column);
  } else {
    w.key("line").null().key("column").null();
  }
}

}  // namespace

void render_text(std::ostream& out, const Diagnostic& d, bool color) {
  render_one(out, d.loc, d.path, d.severity, d.message, d.tag, color);
  for (const DiagnosticNote& n : d.notes)
    if (n.kind == NoteKind::Note) render_one(out, n.loc, {}, Severity::Note, n.message, {}, color);
  for (const DiagnosticNote& n : d.notes) {
    if (n.kind != NoteKind::Help) continue;
    out << (color ? "\033[1;36m" : "") << "help:" << (color ? "\033[0m" : "") << " " << n.message << "\n";
  }
}

void render_json(std::ostream& out, const Diagnostic& d) {
  JsonWriter w(out);
  w.begin_object();
  w.field("severity", severity_name(d.severity));
  write_loc(w, d.loc, d.path);
  w.field("message", d.message);
  if (!d.tag.empty()) w.field("tag", d.tag);
  if (d.loc.valid()) w.field("source_line", d.loc.file->line_text(d.loc.line));
  w.key("notes").begin_array();
  for (const DiagnosticNote& n : d.notes) {
    w.begin_object();
    w.field("kind", note_kind_name(n.kind));
    if (n.kind == NoteKind::Help) w.field("id", n.id);
    write_loc(w, n.loc, {});
    w.field("message", n.message);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace gshape
