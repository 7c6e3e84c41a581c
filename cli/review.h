// The review behind `gshape report`: every shape obligation of a project,
// per file and line, with its status (proven, refuted, deferred), what became
// of it in the instrumented code (a check inserted, not needed, not
// instrumentable and why) and, given a GSHAPE_STATS file from a run, how
// often its check ran and failed there.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/check_report.h"
#include "cli/config.h"
#include "cli/suppressions.h"
#include "codegen/instrument_tree.h"
#include "frontend/json_reader.h"
#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::cli {

// What happened to the check of one run-time obligation, from a stats file.
struct RunCounts {
  int64_t runs = 0;
  int64_t failures = 0;
  int64_t skipped = 0;  // not evaluable (a pass by the gradual guarantee)
};

struct ReviewEntry {
  std::string path;  // as gshape displays it
  uint32_t line = 0;
  uint32_t column = 0;
  std::string tag;
  std::string rule;
  std::string status;   // "proven", "refuted", "deferred"
  std::string outcome;  // the analysis' verdict: "proven", "error", "warning", "deferred" ("" when unknown)
  std::string constraint;          // over the operands, in Python terms: input.size(-1) == 80
  std::string runtime_constraint;  // the runtime's s-expression (what the stats name)
  std::string static_constraint;   // what it became with the shapes the analysis knew (may be True/False)
  std::string message;
  std::string reason;                                     // deferred: why it could not be proven
  std::string origin;  // deferred: where its unknown comes from ("run-time data", "no rule" ...; "" not traced)
  std::vector<std::pair<std::string, int64_t>> example;   // deferred: values that would fail
  std::string context_note;                               // a warning's "fails on the last batch ..."
  // "inserted", "not_needed" (proven), "not_instrumentable", "not_in_plan"
  std::string runtime_check;
  std::string runtime_reason;  // not_instrumentable: why
  std::optional<RunCounts> run;  // with --stats: the check's counters (nullopt: never built in that run)
  // The function (or class body) holding the line, as "Class.method"; "" at
  // module level or when the file could not be read (cli/review_scopes.h).
  std::string function;
  uint32_t function_line = 0;  // its def line (0 at module level)
  bool suppressed = false;     // a `# gshape: ignore` comment on its line names it
  std::string severity;        // a configured severity for its tag ("" when none): error, warning, note, ignore

  // Whether it makes `report` exit 1: refuted, not suppressed, and not
  // configured below error.
  bool counts_as_error() const { return status == "refuted" && !suppressed && (severity.empty() || severity == "error"); }

  bool needs_check() const { return status != "proven"; }
  std::string example_text() const;  // "B = 0, C = 3"
};

// Per-file counts of the summary table.
struct FileCounts {
  std::size_t proven = 0;
  std::size_t refuted = 0;
  std::size_t deferred = 0;
  std::size_t warnings = 0;            // deferred ones the analysis warned about
  std::size_t not_instrumentable = 0;  // refuted or deferred without a run-time check
  std::size_t ran = 0;                 // with --stats: checks that ran at least once
  std::size_t failed = 0;              // with --stats: checks that failed at least once
  void add(const ReviewEntry& e);
  void add(const FileCounts& other);
};

struct Review {
  std::string source;  // "analysis" (PATHs analysed now) or the report file read
  std::vector<ReviewEntry> entries;  // sorted by path, line, column, tag
  std::vector<std::string> unanalysed_files;  // Python files that could not be parsed
  // Lines holding operations whose checks would nest too deep, left
  // unchecked (codegen::nesting_notes: `PATH:LINE: note: N operations ...`),
  // whether they have obligations or not.
  std::vector<std::string> unchecked_notes;
  std::size_t python_files = 0;
  std::vector<std::string> files;  // every Python file of the project, as displayed
  // --stats
  std::string stats_path;
  bool stats_checks_enabled = true;
  std::vector<std::string> unmatched_stats;  // "path:line:col" of stats sites in files this review does not hold
  // report --args=symbolic: the script's int arguments as symbols and the
  // preconditions it puts on them (shown at the top of every form)
  std::optional<PreconditionReport> preconditions;

  bool has_stats() const { return !stats_path.empty(); }
  // Files in path order, with their counts (only files that have obligations).
  std::map<std::string, FileCounts> counts_by_file() const;
  FileCounts totals() const;
};

// The review of an analysed project. The rewriter plans and instruments
// every module in memory (nothing is written) to tell which checks can be
// inserted, exactly as `gshape instrument` would.
Review review_from_analysis(const Project& project, const gradual::AnalysisResult& result);

// The same review for a tree `gshape instrument` has just written: what
// became of each check is read from `tree` (no second rewrite in memory).
Review review_from_tree(const Project& project, const gradual::AnalysisResult& result, const codegen::TreeResult& tree);

// Marks entries named by `# gshape: ignore` comments as suppressed and gives
// each its tag's configured severity (an `ignore` severity suppresses), as
// `check` applies them to its diagnostics.
void apply_review_settings(Review& review, Suppressions& suppressions, const Settings& settings);

// The review stored in an instrumented tree's gshape-report.json; "" or why not.
std::string review_from_report_json(const Json& report, Review& out);

// Fills each entry's function from the parsed modules of `project` (the
// files of a review read back from a report are parsed for it).
void attach_functions(const Project& project, Review& review);

// Attaches a GSHAPE_STATS document's counters to the entries: a site's runs
// to every obligation at its path, line and column, its failures per tag;
// "" or why the document is not a stats file.
std::string attach_stats(const Json& stats, const std::string& stats_path, Review& review);

}  // namespace gshape::cli
