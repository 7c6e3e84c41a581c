// How a command shows its diagnostics: compiler-style text on stderr (with
// optional colour) or one JSON document on stdout, plus the summary counts.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

#include "frontend/diagnostics.h"

namespace gshape::cli {

enum class OutputFormat { Text, Json, Sarif, Github };
enum class ColorMode { Auto, Always, Never };

std::optional<OutputFormat> parse_format(const std::string& s);
std::optional<ColorMode> parse_color(const std::string& s);
// Auto: colour only when stderr is a terminal (and NO_COLOR is unset, TERM is not "dumb").
bool use_color(ColorMode mode);

// What `check` counted; later phases add their counts here.
struct CheckSummary {
  std::size_t files = 0;     // every .py file found, parsed or not
  std::size_t modules = 0;   // files that parsed
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t notes = 0;     // stand-alone notes (notes attached to a diagnostic are not counted)
  std::size_t suppressed = 0;  // dropped by a `# gshape: ignore` comment or an "ignore" severity
  std::size_t unreadable = 0;  // files or paths that could not be read: I/O errors, not in `errors`
};

CheckSummary count_diagnostics(const DiagnosticSink& diags, std::size_t files, std::size_t modules);

// "checked 12 files: 1 error, 0 warnings" (", 2 suppressed" when any;
// "; 1 file could not be read" when any)
std::string summary_line(const CheckSummary& s);

// Every diagnostic in `diags` order, in compiler form.
void print_diagnostics_text(std::ostream& out, const DiagnosticSink& diags, bool color);

// {"tool": "gshape", "version": …, "command": …, "diagnostics": […],
//  "summary": {"files": …, "modules": …, "errors": …, "warnings": …, "notes": …, "unreadable": …,
//              "text": "checked …"},
//  "exit_code": …}
void print_json_report(std::ostream& out, const std::string& command, const DiagnosticSink& diags,
                       const CheckSummary& summary, int exit_code);

}  // namespace gshape::cli
