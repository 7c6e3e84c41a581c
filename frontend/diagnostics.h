// Diagnostics in compiler form: `path:line:col: severity: message [tag]`,
// the source line, and a caret under the location; notes point elsewhere.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "frontend/source.h"

namespace gshape {

enum class Severity { Note, Warning, Error };
const char* severity_name(Severity s);

// A note points at where something came from; a help line suggests the fix
// of a classic cause (rustc's `help:`), and is only attached when the
// analysis checked that the fix would make the failing constraint hold
// (gradual/interp_help.cpp). A help line has no location; its id names
// the cause ("batch_first", "keepdim", "cat_dim", "transposed_weight",
// "unsqueeze", "contiguous").
enum class NoteKind { Note, Help };
const char* note_kind_name(NoteKind k);  // "note", "help"

struct DiagnosticNote {
  SourceLoc loc;  // may be invalid: the note then has no location
  std::string message;
  NoteKind kind = NoteKind::Note;
  std::string id = {};  // a help line's cause; empty for notes (a default: two-field notes stay warning-free)

  static DiagnosticNote help(std::string id, std::string message) {
    return {SourceLoc{}, std::move(message), NoteKind::Help, std::move(id)};
  }
};

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;       // invalid for errors that are about no file position
  std::string path;    // file the diagnostic concerns when loc is invalid (I/O errors)
  std::string message; // lower-case start, no final period
  std::string tag;     // constraint tag such as "linear_c1"; empty when none
  std::vector<DiagnosticNote> notes;
  // A file or path that could not be read at all (missing, not a regular
  // file, a read error): an I/O error, not an error in the code. Summaries
  // count these apart ("1 file could not be read") and exit with status 2.
  bool io_error = false;
};

// Collects diagnostics from every phase, in the order they were reported.
class DiagnosticSink {
 public:
  void report(Diagnostic d) { diagnostics_.push_back(std::move(d)); }
  void error(const SourceLoc& loc, std::string message, std::string tag = {});
  void warning(const SourceLoc& loc, std::string message, std::string tag = {});
  // An error about a whole file (not UTF-8, binary, ...).
  void file_error(const std::string& path, std::string message);
  // A file or path that could not be read (Diagnostic::io_error).
  void io_error(const std::string& path, std::string message);

  const std::vector<Diagnostic>& all() const { return diagnostics_; }
  std::size_t count(Severity s) const;  // io errors included
  std::size_t count_io_errors() const;
  bool has_errors() const { return count(Severity::Error) > 0; }
  // Orders by file path, line, column (stable for equal positions).
  void sort();

 private:
  std::vector<Diagnostic> diagnostics_;
};

// A location's range as editors count it: 1-based lines, 1-based columns in
// code points; the end is exclusive (the column after the last character),
// as SARIF's endColumn. A location without a range ends where it starts.
struct TextRange {
  uint32_t line = 0, column = 0, end_line = 0, end_column = 0;
};
TextRange range_of(const SourceLoc& loc);

// Text form with the source line and a caret; `color` adds ANSI colours.
// Notes follow, then help lines (`help: message`, no location).
void render_text(std::ostream& out, const Diagnostic& d, bool color = false);
// One JSON object per diagnostic, the same information as the text form:
// severity, file, line, column, begin, end, end_line, end_column, message,
// tag, source_line, notes (each with its kind, "note" or "help", a help's
// id, its own location and range, and its message). The one
// JSON form of a diagnostic (`--format=json`, instrument's report).
void render_json(std::ostream& out, const Diagnostic& d);

}  // namespace gshape
