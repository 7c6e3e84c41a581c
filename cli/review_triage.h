// What `gshape report` shows by default, and the filters that change it.
//
// Triage: refuted obligations first, then deferred ones, each grouped per
// file and function; proven ones only with --all. Hidden unless --verbose:
// suppressed obligations (`# gshape: ignore`) and *trivia*, deferred
// obligations no user acts on:
//   sign   every requirement is that a size or hyperparameter argument is
//          non-negative (or positive): nn.Linear(in_f, out_f) with unknown
//          in_f, view(B, n) needing n >= -1, torch.zeros(n) ...
//   rank0  every requirement is that an operand has at least one dimension
//          (it fails only on a 0-dimensional tensor): matmul, Linear, cat ...
// Their checks are in the instrumented code all the same; the report only
// does not list them. Filters (--status, --tag, --file) select among every
// obligation, hidden or not, and apply to JSON too.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/review.h"

namespace gshape::cli {

// "sign", "rank0", or "" when the entry is no trivia (refuted ones and
// warnings never are).
std::string trivia_kind(const ReviewEntry& e);

struct ReviewFilter {
  std::set<std::string> statuses;  // --status: proven, refuted, deferred (empty: any)
  std::vector<std::string> tags;   // --tag globs (empty: any)
  std::vector<std::string> files;  // --file globs (empty: any)
  bool all = false;                // --all: proven ones too
  bool verbose = false;            // --verbose: trivia and suppressed ones too

  // Reads --status, --tag, --file (comma-separated, repeatable), --all,
  // --verbose; the usage error when a status is unknown.
  static std::optional<std::string> read(const ParsedArgs& args, ReviewFilter& out);
  bool explicit_filters() const { return !statuses.empty() || !tags.empty() || !files.empty(); }
  // Whether the explicit filters select the entry.
  bool selects(const ReviewEntry& e) const;
};

// The entries to print, in order, and what was left out.
struct Triage {
  std::vector<const ReviewEntry*> refuted, deferred, proven;  // each by file, function, line
  std::size_t filtered_out = 0;    // not selected by --status/--tag/--file
  std::size_t hidden_proven = 0;   // without --all
  std::size_t hidden_sign = 0;     // trivia, without --verbose
  std::size_t hidden_rank0 = 0;
  std::size_t hidden_suppressed = 0;
};

Triage triage_review(const Review& review, const ReviewFilter& filter);

}  // namespace gshape::cli
