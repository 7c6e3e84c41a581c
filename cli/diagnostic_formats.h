// Diagnostics in the machine-readable forms of `--format`: gshape's JSON
// object per diagnostic (render_json's fields plus where the range ends),
// SARIF 2.1.0 for code-scanning tools, and GitHub Actions workflow
// commands (`::error file=…,line=…::message`) that annotate a pull request.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "frontend/diagnostics.h"

namespace gshape::cli {

// A location's range as editors count it: 1-based lines, 1-based columns in
// code points; the end is exclusive (the column after the last character),
// as SARIF's endColumn. A location without a range ends where it starts.
struct TextRange {
  uint32_t line = 0, column = 0, end_line = 0, end_column = 0;
};
TextRange range_of(const SourceLoc& loc);

// One diagnostic as a JSON object: severity, file, line, column, begin,
// end, end_line, end_column, message, tag, source_line, notes (each with its
// own location and range).
void write_diagnostic_json(std::ostream& out, const Diagnostic& d);

// A SARIF 2.1.0 log with one run: tool.driver (name, version, one rule per
// tag met), one result per diagnostic (ruleId,
// level, message.text, locations[].physicalLocation with artifactLocation.uri
// and region, relatedLocations for the notes). `command` goes in the run's
// invocation; `exit_code` tells whether it succeeded.
void print_sarif(std::ostream& out, const std::string& command, const DiagnosticSink& diags, int exit_code);

// One GitHub workflow command per error, warning and note:
//   ::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=TAG::message
// with the notes appended to the message; data escaped as GitHub specifies
// (% \r \n), property values also : and ,.
void print_github_annotations(std::ostream& out, const DiagnosticSink& diags);
std::string github_escape_data(std::string_view s);
std::string github_escape_property(std::string_view s);

}  // namespace gshape::cli
