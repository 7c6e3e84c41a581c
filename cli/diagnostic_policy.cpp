#include "cli/diagnostic_policy.h"

namespace gshape::cli {

Suppressions scan_suppressions(const Project& project) {
  Suppressions s;
  for (const ProjectModule& m : project.modules) {
    if (m.file) s.add_file(*m.file);
  }
  return s;
}

std::size_t apply_diagnostic_policy(const Settings& settings, Suppressions& suppressions,
                                    const gradual::AnalysisResult& result, DiagnosticSink& diags) {
  for (const gradual::AnalysedObligation& a : result.obligations) {
    if (a.ob.status == gradual::Status::Proven || !a.ob.loc.valid()) continue;
    suppressions.suppresses(a.ob.loc.file->path(), a.ob.loc.line, a.ob.tag);
  }
  std::size_t dropped = 0;
  DiagnosticSink kept;
  auto keep = [&](Diagnostic d) {
    std::optional<Severity> severity = settings.severity_of(d.tag, d.severity);
    if (!severity) {
      ++dropped;
      return;
    }
    d.severity = *severity;
    kept.report(std::move(d));
  };
  for (const Diagnostic& d : diags.all()) {
    if (d.loc.valid() && suppressions.suppresses(d.loc.file->path(), d.loc.line, d.tag)) {
      ++dropped;
      continue;
    }
    keep(d);
  }
  if (settings.warn_unused_ignores) {
    for (Diagnostic& d : suppressions.unused_warnings()) keep(std::move(d));
  }
  kept.sort();
  diags = std::move(kept);
  return dropped;
}

}  // namespace gshape::cli
