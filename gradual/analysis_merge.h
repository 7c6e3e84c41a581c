// Merging the obligations of one call site analysed in several contexts
// (two callers, the full and the last batch of a loader, unrolled loop
// iterations) into the ones reported and instrumented, per (site, tag):
// all proven → proven; refuted where the code certainly runs → error;
// refuted only in a last-batch context, or only inside a `try:` whose
// handler catches PyTorch's RuntimeError → warning; otherwise deferred.
//
// Constraints read operands through slots, so the same check analysed twice
// has the same text. When the analyses of a site disagree on the checks of
// a tag (the full and the last batch, a loop over two different Linear
// layers), they merge into one obligation: the worst context's, with its
// constraint, message and failing example. The merged obligation is what
// the review shows; the run-time check of the site is the operator's rule
// itself, whatever the contexts were (codegen/plan.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gradual/analysis.h"

namespace gshape::gradual {

struct RawObligation {
  const Obligation* ob = nullptr;
  int evaluation = 0;      // one visit of the site
  bool last_batch = false; // emitted while analysing a last partial batch
  bool uncalled = false;   // emitted while analysing a function nobody in the project calls
  std::string uncalled_root;    // that function ("test")
  SourceLoc uncalled_root_loc;  // its name in its `def`
  std::string context_note;    // the last-batch note (warning text)
  std::string context_detail;  // how large that batch is and why
  SourceLoc context_loc;       // where that loader was built
  const std::vector<DiagnosticNote>* notes = nullptr;
  // Emitted inside a `try:` whose handler catches the RuntimeError (valid
  // loc): refuted there, it is a warning (the program handles the failure).
  SourceLoc handled_by;
  std::string handled_what;  // "except RuntimeError", "a bare except"
  // Emitted in an except clause's body (that clause): it runs only when the
  // try body raised, so refuted there it is a warning.
  SourceLoc in_handler;
};

std::vector<AnalysedObligation> merge_obligations(const std::vector<RawObligation>& raw);
// The same, each merged obligation moved out of the raw one it shows
// instead of copied (a copy of every obligation was a large part of the
// peak of memory): for a caller that reads none of `obligations` after the
// merge, every `raw[i].ob` pointing into it. Nothing is moved, and nullopt
// returned, when a merged obligation would be one whose proof was skipped
// (the caller decides them, then merges again).
std::optional<std::vector<AnalysedObligation>> merge_obligations_spending(const std::vector<RawObligation>& raw,
                                                                          std::vector<Obligation>& obligations);

// The raw obligations whose proof was skipped (Obligation::proof_skipped) and
// whose decision the merge could read: the first deferred member of a
// group, or one whose zero-only or uncalled-only standing no other member
// settles, or any member of a group whose analyses disagree. Indices in `raw`.
std::vector<std::size_t> skipped_proofs_that_matter(const std::vector<RawObligation>& raw);

}  // namespace gshape::gradual
