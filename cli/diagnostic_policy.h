// What the project's configuration and its `# gshape: ignore` comments do
// to the diagnostics a command prints: suppressed ones are dropped (and
// counted), severity overrides per tag applied, and with
// --warn-unused-ignores the comments that suppressed nothing reported.
// Shared by check, instrument, run and report.
#pragma once

#include <cstddef>

#include "cli/config.h"
#include "cli/suppressions.h"
#include "frontend/diagnostics.h"
#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::cli {

// The ignore comments of every parsed module of `project`.
Suppressions scan_suppressions(const Project& project);

// Marks comments used by the refuted and deferred obligations of their line
// (an ignore may be there for the review only), drops the suppressed
// diagnostics of `diags`, applies `settings`' severity overrides, adds the
// unused-ignore warnings when asked, and sorts. Returns how many
// diagnostics were suppressed (by a comment or an "ignore" severity).
std::size_t apply_diagnostic_policy(const Settings& settings, Suppressions& suppressions,
                                    const gradual::AnalysisResult& result, DiagnosticSink& diags);

}  // namespace gshape::cli
