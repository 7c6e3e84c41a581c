// The review as one self-contained HTML page (`gshape report --html OUT.html`,
// and OUT/gshape-report.html next to gshape-report.json for `instrument`):
// a summary table per file (proven, refuted, deferred, not checked, no
// run-time check; ran and failed with --stats), a list of what needs
// attention, then each file's source with every obligation under its line,
// the line colour-coded by its worst status (refuted red, deferred amber,
// proven green, not checked grey), and each tensor expression's inferred
// shape in a `title` (shown on hover) and a `data-shape` attribute.
//
// No network: CSS inline, no script, no external font or image; toggles
// (proven obligations, trivia and suppressed ones) are CSS checkboxes.
// Everything taken from the source or the analysis is HTML-escaped, and
// bytes that are not UTF-8 are written as U+FFFD.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "cli/review.h"
#include "cli/review_triage.h"
#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::cli {

// What the page shows besides the review's obligations.
struct ReviewPageExtras {
  std::map<std::string, std::string> sources;  // path (as the review names it) → text
  struct Shape {
    uint32_t begin = 0, end = 0;  // byte offsets into the file's text
    std::string shapes;           // "[4, 400]", contexts joined with " | "
  };
  std::map<std::string, std::vector<Shape>> shapes;  // by path
  bool shapes_recorded = false;                      // false: the page says why there are none (--from)
  // A site calling ops that have no rule: neither proven nor checked.
  struct Unchecked {
    uint32_t line = 0, column = 0;
    std::string what;  // "torch.fft.fft has no rule"
  };
  std::map<std::string, std::vector<Unchecked>> unchecked;  // by path
  bool coverage_known = false;  // false: the "not checked" column is "-" (read from a report file)
  // The notes of each static error and warning (where the shapes came
  // from), keyed by "path:line:column:tag".
  std::map<std::string, std::vector<std::string>> notes;
};

// Sources of every parsed module.
void add_sources(const Project& project, ReviewPageExtras& extras);
// Sources, recorded shapes (when the analysis recorded them), sites without
// a rule, and the notes of the analysis' diagnostics.
ReviewPageExtras page_extras_from_analysis(const Project& project, const gradual::AnalysisResult& result);

struct ReviewPageOptions {
  std::string title = "gshape review";
  ReviewFilter filter;  // --status/--tag/--file select what the page holds (--all, --verbose: shown at first)
};

void write_review_html(std::ostream& out, const Review& review, const ReviewPageExtras& extras,
                       const ReviewPageOptions& options);

// write_review_html to `path` (atomically); "" or why it could not be written.
std::string write_review_html_file(const std::string& path, const Review& review, const ReviewPageExtras& extras,
                                   const ReviewPageOptions& options);

// Escapes & < > " ' for text and attribute values; bytes that are not
// UTF-8, and control characters other than tab and newline, become U+FFFD.
std::string html_escape(std::string_view text);

}  // namespace gshape::cli
