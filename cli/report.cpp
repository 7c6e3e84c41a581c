#include "cli/report.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <ostream>

#include "cli/diagnostic_formats.h"
#include "frontend/json_writer.h"
#include "gshape_version.h"

namespace gshape::cli {

std::optional<OutputFormat> parse_format(const std::string& s) {
  if (s == "text") return OutputFormat::Text;
  if (s == "json") return OutputFormat::Json;
  if (s == "sarif") return OutputFormat::Sarif;
  if (s == "github") return OutputFormat::Github;
  return std::nullopt;
}

std::optional<ColorMode> parse_color(const std::string& s) {
  if (s == "auto") return ColorMode::Auto;
  if (s == "always") return ColorMode::Always;
  if (s == "never") return ColorMode::Never;
  return std::nullopt;
}

bool use_color(ColorMode mode) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  const char* no_color = std::getenv("NO_COLOR");  // https://no-color.org
  if (no_color != nullptr && no_color[0] != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(STDERR_FILENO) != 0;
}

CheckSummary count_diagnostics(const DiagnosticSink& diags, std::size_t files, std::size_t modules) {
  CheckSummary s;
  s.files = files;
  s.modules = modules;
  s.unreadable = diags.count_io_errors();
  s.errors = diags.count(Severity::Error) - s.unreadable;
  s.warnings = diags.count(Severity::Warning);
  s.notes = diags.count(Severity::Note);
  return s;
}

namespace {

std::string counted(std::size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string summary_line(const CheckSummary& s) {
  return "checked " + counted(s.files, "file") + ": " + counted(s.errors, "error") + ", " +
         counted(s.warnings, "warning") + (s.suppressed > 0 ? ", " + std::to_string(s.suppressed) + " suppressed" : "") +
         (s.unreadable > 0 ? "; " + counted(s.unreadable, "file") + " could not be read" : "");
}

void print_diagnostics_text(std::ostream& out, const DiagnosticSink& diags, bool color) {
  for (const Diagnostic& d : diags.all()) render_text(out, d, color);
}

void print_json_report(std::ostream& out, const std::string& command, const DiagnosticSink& diags,
                       const CheckSummary& summary, int exit_code) {
  // render_json writes each diagnostic as a complete object; the envelope is
  // written around them by hand, with json_quote for every string.
  out << "{\"tool\":\"gshape\",\"version\":" << json_quote(GSHAPE_VERSION) << ",\"command\":" << json_quote(command)
      << ",\"diagnostics\":[";
  bool first = true;
  for (const Diagnostic& d : diags.all()) {
    if (!first) out << ",";
    first = false;
    render_json(out, d);
  }
  out << "],\"summary\":{\"files\":" << summary.files << ",\"modules\":" << summary.modules
      << ",\"errors\":" << summary.errors << ",\"warnings\":" << summary.warnings << ",\"notes\":" << summary.notes
      << ",\"unreadable\":" << summary.unreadable << ",\"text\":" << json_quote(summary_line(summary)) << "},\"exit_code\":" << exit_code << "}\n";
}

}  // namespace gshape::cli
