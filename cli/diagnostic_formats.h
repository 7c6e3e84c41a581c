// Diagnostics in the machine-readable forms of `--format` besides gshape's
// own JSON (frontend/diagnostics.h, render_json): SARIF 2.1.0 for
// code-scanning tools, and GitHub Actions workflow commands
// (`::error file=…,line=…::message`) that annotate a pull request.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "frontend/diagnostics.h"

namespace gshape::cli {

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
