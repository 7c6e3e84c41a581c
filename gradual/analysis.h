// The shape analysis of a project: abstract interpretation of every module
// in the import graph's order (gradual/interp*.cpp), obligations discharged
// with Z3 as the rules emit them, then merged per (call site, tag) over the
// contexts a site was analysed in (two callers, the full and the last batch
// of a DataLoader, unrolled loop iterations).
//
// The merged obligations are the analysis' result: `gshape check` reports
// them, the rewriter (codegen/) turns the deferred and refuted ones into
// runtime checks. See docs/analysis.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/project.h"
#include "gradual/obligation.h"
#include "gradual/solver.h"

namespace gshape::gradual {

struct AnalysisOptions {
  uint64_t solver_rlimit = 500'000;  // Z3 resource units per query (deterministic)
  int max_call_depth = 24;           // deeper project calls give an unknown result
  int max_unroll = 64;               // `for i in range(n)` with a known n up to this is unrolled
  // Work budgets, counted in evaluated statements and expressions: one call
  // of a project function (with everything it calls), and one module's
  // top-level code. Past a budget the call's result is unknown.
  uint64_t function_budget = 200'000;
  uint64_t module_budget = 2'000'000;
  bool record_shapes = false;  // keep each tensor expression's shape (--show-shapes)
  // Infer each function's signature as jaxtyping shapes (`gshape annotate`).
  bool record_signatures = false;
  // A launch's command line (`gshape check SCRIPT -- ARGS`): argparse parsers
  // parse these words instead of giving their defaults; `sys.argv` is
  // [launch_script] + these.
  std::optional<std::vector<std::string>> launch_args;
  std::string launch_script;
  // `gshape check --args=symbolic`: every int argument of an argparse parser
  // is a symbol (constrained by its `choices`), and the result lists the
  // preconditions the script puts on them.
  bool symbolic_args = false;
  // `gshape instrument`: the copy may run with any command line, so an
  // argparse parser's parse_args() gives unknown values, not its defaults
  // (a launch's words win over it).
  bool any_command_line = false;
  // With symbolic_args: analyse as if this sub-command (its first name) ran,
  // its int arguments symbols too. analyse_project sets it, once per
  // sub-command the script's parser declares, and merges the preconditions.
  std::string symbolic_command;
  // Analyse the functions nobody calls once with Dyn parameters.
  bool analyse_uncalled = true;
  // Per-query Z3 resource limit while analysing functions nobody calls (their
  // parameters are Dyn: hard queries there mostly end deferred anyway).
  uint64_t uncalled_rlimit = 15'000;
  // Try concrete witnesses before Z3 (gradual/witness.h); off only to
  // measure what they save (bench-check.sh).
  bool witnesses = true;
  // Analysis units analysed at once, on as many threads (0: the default,
  // GSHAPE_THREADS or the machine's cores; frontend/parallel_for.h). The
  // result is the same for any number.
  unsigned threads = 0;
};

// How a merged obligation is reported.
enum class Outcome : uint8_t {
  Proven,    // holds in every context
  Error,     // refuted in a context that certainly executes
  Warning,   // refuted only on values the program itself produces (the last partial batch), or only inside a try that catches the RuntimeError
  Deferred,  // decided at run time
};
const char* outcome_name(Outcome o);  // "proven", "error", "warning", "deferred"

struct AnalysedObligation {
  // The merged obligation: one per (site, tag, constraint). Its id is its
  // index in AnalysisResult::obligations; slots carry the operand locations.
  // A warning keeps status Deferred (it needs its runtime check).
  Obligation ob;
  Outcome outcome = Outcome::Deferred;
  int contexts = 1;             // how many analyses of the site it merges
  // Deferred only where a function nobody in the project calls was analysed
  // with Dyn parameters: the sizes it needs come from outside the project.
  bool uncalled_only = false;
  // The message for people when it differs from ob's (whose template then
  // reads the operands of every context): the worst context's sizes.
  std::string message_text;
  std::string message() const { return message_text.empty() ? ob.render_message() : message_text; }
  std::string context_note;     // warning: "fails on the last batch of 40 when drop_last=False"
  std::vector<DiagnosticNote> notes;  // errors and warnings: where the shapes came from

  // Set on an obligation read back from the analysis cache (analysis_serial.h):
  // its terms are not rebuilt, so the texts the printers read are kept as
  // they were (ob.constraint then holds the parsed s-expression and a true
  // static condition; message_text the rendered message).
  struct Frozen {
    std::string constraint_sexpr;
    std::string static_constraint;
    std::string message_template;
    bool runtime_checkable = false;
  };
  std::shared_ptr<const Frozen> frozen;
  // What printers read: the live obligation's, or the frozen texts.
  std::string constraint_sexpr() const { return frozen ? frozen->constraint_sexpr : ob.constraint_sexpr(); }
  std::string static_constraint() const { return frozen ? frozen->static_constraint : ob.constraint.pred().str(); }
  std::string message_template() const { return frozen ? frozen->message_template : ob.message_template(); }
  bool runtime_checkable() const { return frozen ? frozen->runtime_checkable : ob.runtime_checkable(); }
};

// One call or operator of the project as the analysis saw it, over every
// visit (every context it was analysed in). The rewriter checks a site at run
// time unless every visit applied rules whose obligations all held, or called
// something that has no rule (a project function, print): a site the
// analysis never reached, or reached without knowing what it calls, keeps
// its run-time check.
struct SiteSummary {
  SourceLoc loc;            // the call or operator; `x += y`: the statement
  int visits = 0;
  int compiled_visits = 0;  // visits inside code TorchScript compiles (no run-time check can run there)
  int partial_visits = 0;   // visits calling a functools.partial of a library function (the runtime cannot check it)
  bool not_analysed = false;  // a statement the analysis does not follow (match): its calls get no check
  int hooked_visits = 0;      // visits calling a module with forward hooks (a check cannot see what they pass on)
  bool unresolved = false;  // a visit could not tell whether a rule applies (an unknown callee or operand)
  bool unmodelled = false;  // a rule applies but a visit could not apply it (arguments it cannot spell out)
  bool not_proven = false;  // an obligation was deferred or refuted in a visit
  // A rule was applied to a value of unknown rank, or to an unknown value:
  // its obligations may not cover the operation (a rule states per-axis
  // requirements only on axes it knows), so the site is checked at run time.
  bool unknown_rank = false;
  std::vector<std::string> rules;  // the rules applied, sorted
  std::vector<std::string> no_rule;  // ops called here that have no rule ("torch.fft.fft"), sorted
  std::string what;         // unresolved: what was unknown ("`self.layers[i]` is not known")
  bool unknown_operand = false;  // unresolved because an operand may be a tensor (else: the callee)

  bool needs_check() const { return visits == 0 || unresolved || unmodelled || not_proven || unknown_rank; }
};

// One tensor-valued expression and the shapes it had (`[B, 10]`; several
// when its contexts disagree).
struct ShapeRecord {
  SourceLoc loc;
  std::vector<std::string> shapes;
};

// A function's parameters and result as jaxtyping dimension strings, joined
// over every context the analysis called it in (signature_inference.h).
struct InferredSignature {
  const ir::FunctionDef* def = nullptr;  // owned by the project
  std::vector<std::optional<std::string>> params;  // per def->params: the dims, or nothing to write
  std::optional<std::string> returns;
};

struct AnalysisStats {
  uint64_t raw_obligations = 0;      // before merging
  uint64_t decided_without_z3 = 0;   // raw obligations decided by simplification alone
  uint64_t decided_by_witness = 0;   // raw obligations deferred by concrete witnesses, no Z3 check
  uint64_t z3_checks = 0;
  uint64_t z3_unknown = 0;           // checks Z3 could not decide (timeouts, nonlinear)
  double z3_seconds = 0;
  uint64_t solver_cache_hits = 0;    // queries answered by an earlier identical query (same goal, same facts)
  uint64_t functions_analysed = 0;   // function bodies interpreted (memo misses)
  uint64_t memo_hits = 0;
  uint64_t budget_exhausted = 0;     // calls or modules cut short by a work budget
  uint64_t module_failures = 0;      // modules whose analysis stopped on an internal error
  uint64_t steps = 0;                // statements and expressions evaluated
  double seconds = 0;
  // Analysis units (weakly connected components of the import graph, each
  // analysed alone): how many, how many were analysed, how many came from the
  // analysis cache. Not in the JSON (a cached run prints what a cold one does).
  uint64_t units = 0;
  uint64_t units_analysed = 0;
  uint64_t units_cached = 0;
  // Z3's time per file (path; "" for time outside any file's statements), in
  // the units analysed in this run: what `check --verbose` prints. Not in
  // the JSON nor in the cache (timings).
  struct FileSolverTime {
    double seconds = 0;
    uint64_t checks = 0;
  };
  std::map<std::string, FileSolverTime> z3_by_file;
  // Z3's checks by outcome and resource units spent, in the units analysed
  // in this run (`check --verbose`; not in the JSON nor in the cache).
  Z3Profile z3_profile;
};

struct AnalysisResult {
  std::vector<AnalysedObligation> obligations;  // sorted by file, line, column, tag
  std::vector<ShapeRecord> shapes;              // with record_shapes, sorted by position
  std::vector<SiteSummary> sites;               // every call and operator reached, sorted by position
  // What the analysis could not check statically, from the sites.
  struct Coverage {
    std::map<std::string, int> no_rule;  // op → sites calling it: no rule, so never checked
    int unresolved_calls = 0;            // sites whose callee was not known: checked at run time only
    std::map<std::string, int> unresolved_callees;  // their callee's source text ("self.layers[i]") → sites
    int unknown_operands = 0;            // operators on values not known to be tensors: run time only
    int unmodelled = 0;                  // sites whose rule could not be applied: run time only
    int unknown_ranks = 0;               // sites with an operand of unknown rank: run time only
    int torchscript = 0;                 // sites needing a check in code TorchScript compiles: not checked
    int through_partial = 0;             // sites needing a check that call a functools.partial: not checked
    int not_analysed = 0;                // statements not analysed (match): their calls are not checked
    int hooked = 0;                      // sites calling a module with forward hooks: not checked
  } coverage;
  std::vector<Diagnostic> internal;             // notes about analysis failures (never errors)
  // Shape annotations that look like jaxtyping's but cannot be used
  // (warnings, part of diagnostics_of): unreadable, or no place for an entry check.
  std::vector<Diagnostic> annotation_problems;
  std::vector<InferredSignature> signatures;
  std::vector<Diagnostic> launch_errors;  // errors of the launch's command line (part of diagnostics_of)
  // Warnings that are no obligation (part of diagnostics_of): calls PyTorch
  // runs but that certainly compute something else than meant (a loss whose
  // input and target broadcast to a larger shape: loss_broadcast_c1).
  std::vector<Diagnostic> advice;
  // A launch's int arguments: their symbols and values (messages print the values).
  std::vector<std::pair<Dim, int64_t>> launch_values;
  // The config files the launch read (paths as opened): gshape run's cache
  // analyses again when one changes.
  std::vector<std::string> launch_inputs;
  // With symbolic_args: the arguments that are symbols, and each requirement
  // over them alone that the analysis could not prove (a precondition the
  // script puts on its command line) or refuted (no command line passes).
  struct ArgumentSymbol {
    Dim symbol;
    std::string dest;  // also the symbol's name
    std::string flag;  // "--hidden", or the dest of a positional
    SourceLoc loc;     // its add_argument call
    Pred declared;     // what the parser declares of it (its choices), else true
    std::string command;    // the sub-command whose parser declares it ("" for the script's parser)
    bool required = false;  // required=True (a counterexample must give it)
  };
  std::vector<ArgumentSymbol> argument_symbols;
  struct Precondition {
    std::string condition;  // Python: `hidden % heads == 0`
    SourceLoc loc;          // the call or operator that requires it
    std::string tag;
    std::string rule;
    std::string message;
    bool refuted = false;   // no value of the arguments satisfies it
    std::string counterexample;  // arguments that break it: `--hidden 1 --heads 2`
    Pred pred;                   // the condition as a term
    std::string command;         // "" or the sub-command that imposes it (it holds when that one runs)
    std::string raw;             // the condition as the analysis read it (before simplification)
  };
  std::vector<Precondition> preconditions;  // in source order; then each sub-command's
  std::vector<Precondition> raw_preconditions;  // the same before simplification
  std::vector<std::string> symbolic_commands;  // the sub-commands analysed one by one
  // The config files read for their values (paths as opened): with
  // symbolic_args the preconditions hold with these files' values.
  std::vector<std::string> symbolic_inputs;
  AnalysisStats stats;

  std::size_t count(Outcome o) const;
  // The merged obligations as the rewriter takes them.
  std::vector<Obligation> plain_obligations() const;
};

// AnalysisOptions::symbolic_command for "no sub-command given" (sub-parsers
// that are not required).
inline constexpr const char* kNoSubcommand = "(no sub-command)";

// Where analysis units' results are kept between runs (codegen/analysis_cache.h
// keeps them on disk). `key` is the unit's whole input as text (unit_key):
// a result is stored under it and only ever returned for the same key.
class UnitCache {
 public:
  virtual ~UnitCache() = default;
  // The result stored under `key`, its locations pointing into `unit`'s
  // files; nullopt when there is none (or it cannot be read: never trusted).
  virtual std::optional<AnalysisResult> load(const std::string& key, const Project& unit) = 0;
  virtual void store(const std::string& key, const AnalysisResult& result) = 0;
};

// The analysis units of `project`: its modules grouped into weakly connected
// components of the import graph (modules of one name — the same dotted
// name under two roots, two lone files of one stem — join each other too:
// the interpreter resolves imports by name). Each unit's module indices are sorted; units are ordered
// by their first module. A unit's analysis reads only its own modules.
std::vector<std::vector<std::size_t>> analysis_units(const Project& project);

// Whether `options` analyse unit by unit (and may use a UnitCache): not for a
// launch (`check SCRIPT -- ARGS`), --args=symbolic or signature inference,
// which analyse the project as one.
bool splits_into_units(const AnalysisOptions& options);

// Analyses every module of `project` (dependencies first), each analysis
// unit with its own interpreter and solver (so a unit's result never depends
// on the other units), and merges the units' results in their order. With a
// `cache`, a unit whose key is stored is read back instead of analysed, and
// an analysed one is stored. Never throws: a module whose analysis fails is
// reported in `internal` and skipped.
AnalysisResult analyse_project(const Project& project, const AnalysisOptions& options = {}, UnitCache* cache = nullptr);

// The preconditions as the report states them (interp_argparse.cpp): each
// conjunct that the arguments' declarations and the other preconditions
// imply is dropped (a precondition left with none is dropped), so that the
// conjunction of all of them is unchanged but each says only what it adds.
std::vector<AnalysisResult::Precondition> simplify_preconditions(std::vector<AnalysisResult::Precondition> pres,
                                                                 const std::vector<AnalysisResult::ArgumentSymbol>& args);

// A command line of the example values `example` (dest → value) of the
// arguments `args`: the script's options, then `command` and its options;
// a required argument the example does not give gets 1.
std::string counterexample_words(const std::vector<std::pair<std::string, int64_t>>& example,
                                 const std::vector<AnalysisResult::ArgumentSymbol>& args, const std::string& command);

// Errors and warnings in compiler form (message, tag, notes), one per
// refuted or warned obligation.
std::vector<Diagnostic> diagnostics_of(const AnalysisResult& result);

}  // namespace gshape::gradual
