// Loading and analysing a project the way `gshape check` does, for the
// commands built on the analysis (instrument, run, report): the project, the
// analysis result, and every diagnostic (front end, then the analysis'
// errors and warnings) sorted by file and line.
#pragma once

#include <string>
#include <vector>

#include "cli/config.h"
#include "cli/report.h"
#include "frontend/diagnostics.h"
#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::cli {

struct AnalysedProject {
  Project project;
  gradual::AnalysisResult result;
  DiagnosticSink diags;
  CheckSummary summary;
  bool missing_paths() const { return !project.missing_paths.empty(); }
};

// Adds the analysis' errors and warnings to `diags` (and, with `verbose`,
// the notes on where it gave up); sorts `diags`.
void add_analysis_diagnostics(const gradual::AnalysisResult& result, DiagnosticSink& diags, bool verbose);

// add_analysis_diagnostics, then what the configuration and the project's
// `# gshape: ignore` comments do to them (cli/diagnostic_policy.h); returns
// how many were suppressed.
std::size_t add_checked_diagnostics(const Project& project, const gradual::AnalysisResult& result, DiagnosticSink& diags,
                                    bool verbose, const Settings& settings);

// load_project on `paths`, analyse_project, diagnostics as `check` reports
// them (suppressions and severities of `settings` applied).
AnalysedProject analyse_paths(const std::vector<std::string>& paths, bool verbose, const Settings& settings = {},
                              const gradual::AnalysisOptions& options = {});

// The diagnostics and check's summary lines on stderr (text form).
void print_check_text(const AnalysedProject& analysed, bool color);

}  // namespace gshape::cli
