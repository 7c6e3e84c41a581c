// What `gshape check` prints about the shape analysis: the obligation
// summary line, the JSON document (diagnostics, every obligation, counts),
// `--emit=obligations` and `--show-shapes`.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/report.h"
#include "gradual/analysis.h"

namespace gshape {
class JsonWriter;
}

namespace gshape::cli {

// "12 obligations: 9 proven, 1 refuted, 2 deferred" (", 1 of them a warning" when any).
std::string obligation_summary_line(const gradual::AnalysisResult& result);

// What the analysis did not check statically, one line each (none when
// everything it met had a rule it could apply):
//   not checked: 3 calls of ops without a rule: torch.fft.fft (2), Tensor.unfold (1)
//   checked at run time only: 5 calls of callees the analysis could not resolve
std::vector<std::string> coverage_lines(const gradual::AnalysisResult& result);
// The "coverage" JSON object with the same figures.
void write_coverage_json(JsonWriter& w, const gradual::AnalysisResult& result);

// The JSON report of print_json_report plus "obligations" (id, file, line,
// column, tag, status, outcome, constraint, message, example, slots, ...),
// obligation counts in "summary", analysis statistics in "analysis", and
// "analysis_notes" (where the analysis gave up).
// With `shapes`, "shapes" lists each tensor-valued expression's inferred
// shapes (as --show-shapes prints them).
// When a printed text holds a cut term, "summary" adds "terms_cut" (how many
// texts) and "terms_cut_text" (cut_terms_line); nothing otherwise.
void print_check_json(std::ostream& out, const DiagnosticSink& diags, const CheckSummary& summary,
                      const gradual::AnalysisResult& result, int exit_code, bool shapes = false);

// Printed terms cut at gradual::kMaxPrintedTerm characters (docs/analysis.md,
// "How symbols print"): how many of the texts printed hold a `…` — the
// diagnostics (messages and notes) and, when printed, every obligation's
// static constraint, message and reason (`obligations`) and the shapes
// (`shapes`).
std::size_t count_cut_texts(const DiagnosticSink& diags, const gradual::AnalysisResult& result, bool obligations,
                            bool shapes);
// Said once, after the summary, when any text was cut (none with --full-terms):
// "note: 2 printed texts hold terms cut at 300 characters (…); --full-terms prints them in full"
std::string cut_terms_line(std::size_t texts);

// `--emit=obligations`: one block per obligation, in file and line order.
void print_obligations_text(std::ostream& out, const gradual::AnalysisResult& result);

// `--show-shapes`: each tensor-valued expression with its inferred shape.
void print_shapes_text(std::ostream& out, const gradual::AnalysisResult& result);
// --args=symbolic: the arguments taken as symbols and the preconditions on
// them, as check and report print them (text, JSON, the HTML review).
struct PreconditionReport {
  std::vector<std::string> arguments;  // "--hidden", a positional's dest; a sub-command's: "train --width"
  std::vector<std::string> config_files;  // read for their values (the default paths)
  struct Item {
    std::string condition;  // Python: `hidden % heads == 0`
    bool refuted = false;   // no value of the arguments satisfies it
    std::string path;       // where it comes from ("" when unknown)
    uint32_t line = 0;
    std::string tag, rule, message;
    std::string counterexample;  // a command line that breaks it ("" when none)
    std::string command;         // "" or the sub-command that imposes it
  };
  std::vector<Item> items;
};
PreconditionReport precondition_report(const gradual::AnalysisResult& result);
// "arguments as symbols: ...", then each precondition with its place and counterexample.
void print_preconditions_text(std::ostream& out, const PreconditionReport& report);
// The "preconditions" JSON array (one object per item).
void write_preconditions_json(JsonWriter& w, const PreconditionReport& report);

}  // namespace gshape::cli
