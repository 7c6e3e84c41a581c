// How `gshape report` prints a Review: per file and line, every obligation
// with its status, then the summary table per file (text); or one JSON
// document holding the same.
#pragma once

#include <iosfwd>
#include <string>

#include "cli/review.h"
#include "cli/review_triage.h"

namespace gshape::cli {

struct ReviewPrintOptions {
  bool summary_only = false;  // the table alone, no per-obligation lines
  bool color = false;
  ReviewFilter filter;        // what the listing shows (cli/review_triage.h)
};

// With --args=symbolic, the preconditions first (as check prints them); then
// the triaged listing (unless summary_only): refuted, then deferred, then
// (--all) proven obligations, each per file and function; the summary
// table; and what the listing left out.
void print_review_text(std::ostream& out, const Review& review, const ReviewPrintOptions& options);

// "ran 3 times, never failed", "never ran", "no check to run" ... (with --stats).
std::string run_text(const ReviewEntry& e, const Review& review);
// "inserted", "not instrumentable: why", "none (why)".
std::string runtime_check_text(const ReviewEntry& e);

// The summary table alone: one row per file with obligations, and a total.
void print_review_table(std::ostream& out, const Review& review);

// {"tool", "version", "command": "report", "source", "stats", "obligations": [...],
//  "files": [...], "summary": {...}, "unanalysed_files", "unmatched_stats",
//  "symbolic_arguments", "preconditions" (--args=symbolic; null otherwise), "exit_code"};
// "obligations" holds every entry the explicit filters select, hidden or
// not, each with "function", "trivia", "suppressed" and "severity"; "html"
// is the page written with --html (null when none).
void print_review_json(std::ostream& out, const Review& review, const ReviewFilter& filter, int exit_code,
                       const std::string& html_path = {});

}  // namespace gshape::cli
