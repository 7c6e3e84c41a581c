// Merging the obligations of one call site analysed in several contexts
// (two callers, the full and the last batch of a loader, unrolled loop
// iterations) into the ones reported and instrumented, per (site, tag):
// all proven → proven; refuted where the code certainly runs → error;
// refuted only in a last-batch context → warning; otherwise deferred.
//
// Constraints read operands through slots, so the same check analysed twice
// has the same text. When the analyses of a site disagree on the checks of
// a tag (the full and the last batch, a loop over two different Linear
// layers), the merged check is the one recomputed on the joined operands
// (GeneralCheck) when there is one, else the disjunction over analyses of
// each one's conjunction: it never fails on a run that one of the analysed
// contexts covers. The message shown to the user stays the worst context's.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "gradual/analysis.h"

namespace gshape::gradual {

struct RawObligation {
  const Obligation* ob = nullptr;
  int evaluation = 0;      // one visit of the site
  bool last_batch = false; // emitted while analysing a last partial batch
  std::string context_note;    // the last-batch note (warning text)
  std::string context_detail;  // how large that batch is and why
  SourceLoc context_loc;       // where that loader was built
  const std::vector<DiagnosticNote>* notes = nullptr;
};

// The check of one (site, tag) recomputed on the join of the operands of
// every analysis of the site (differing sizes become symbols), so that it
// reads the operands instead of folding to each context's constants.
struct GeneralCheck {
  BoolTerm constraint{true};
  Message message;
  std::vector<SlotInfo> slots;
};
using SiteTagKey = std::tuple<const SourceFile*, uint32_t, uint32_t, std::string>;

std::vector<AnalysedObligation> merge_obligations(const std::vector<RawObligation>& raw,
                                                  const std::map<SiteTagKey, GeneralCheck>& general = {});

}  // namespace gshape::gradual
