#include "cli/project_analysis.h"

#include <iostream>

#include "cli/check_report.h"
#include "cli/diagnostic_policy.h"

namespace gshape::cli {

void add_analysis_diagnostics(const gradual::AnalysisResult& result, DiagnosticSink& diags, bool verbose) {
  for (Diagnostic& d : gradual::diagnostics_of(result)) diags.report(std::move(d));
  if (verbose) {
    for (const Diagnostic& d : result.internal) diags.report(d);
  }
  diags.sort();
}

std::size_t add_checked_diagnostics(const Project& project, const gradual::AnalysisResult& result, DiagnosticSink& diags,
                                    bool verbose, const Settings& settings) {
  add_analysis_diagnostics(result, diags, verbose);
  Suppressions suppressions = scan_suppressions(project);
  return apply_diagnostic_policy(settings, suppressions, result, diags);
}

AnalysedProject analyse_paths(const std::vector<std::string>& paths, bool verbose, const Settings& settings,
                              const gradual::AnalysisOptions& options) {
  AnalysedProject a;
  a.project = load_project(paths, a.diags, 0, {}, settings.max_file_bytes);
  if (a.project.all_files.empty() && a.project.missing_paths.empty()) {
    a.diags.report({Severity::Warning, {}, {}, "no Python files found", {}, {}});
  }
  a.result = gradual::analyse_project(a.project, options);
  std::size_t suppressed = add_checked_diagnostics(a.project, a.result, a.diags, verbose, settings);
  a.summary = count_diagnostics(a.diags, a.project.all_files.size(), a.project.modules.size());
  a.summary.suppressed = suppressed;
  return a;
}

void print_check_text(const AnalysedProject& a, bool color) {
  print_diagnostics_text(std::cerr, a.diags, color);
  std::cerr << summary_line(a.summary) << "\n";
  if (!a.result.obligations.empty()) std::cerr << obligation_summary_line(a.result) << "\n";
  for (const std::string& line : coverage_lines(a.result)) std::cerr << line << "\n";
}

}  // namespace gshape::cli
