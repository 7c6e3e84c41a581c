// The instrumentation plan: the rewriter's input. Per file, the sites that
// get a run-time check; per site, the operator's rule (or none: the callee
// decides at run time) and the operands the check reads, each a source
// expression routed through `stash`/`check` with the way the call passes it.
//
// A site is a call, a binary or unary operator, a single comparison of
// values, or an augmented assignment. Every site gets a check unless the
// analysis proved it safe in every visit (gradual::SiteSummary::needs_check):
// its rules' obligations all held, or it calls something with no rule. So a
// site the analysis never reached, or reached without knowing what it calls,
// is checked by its operator's rule on the actual values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/project.h"
#include "gradual/analysis.h"
#include "gradual/annotation_syntax.h"
#include "gradual/obligation.h"

namespace gshape::codegen {

// One operand of a site: the source expression the rewriter routes through
// `stash`/`check` so the runtime sees its value.
struct OperandPlan {
  int slot = -1;
  uint32_t begin = 0;  // byte range [begin, end) of the operand's expression
  uint32_t end = 0;    // in the original text
  // How the call passes it, in the runtime's words: 'callee', 'arg', '*',
  // '**', or 'NAME=' for a keyword argument (docs/runtime.md).
  std::string kind = "arg";
  // Operands that are no source expression: a parameter the entry check of an
  // annotated function reads by name, or (from_entry) a parameter's value at
  // entry that a `return` or annotated assignment reads from `_gshape_entry`.
  std::string name;
  bool from_entry = false;
};

enum class CheckStatus : uint8_t { Deferred, Refuted };
const char* check_status_name(CheckStatus s);  // "deferred", "refuted"

// One call or operator whose operands the check reads.
struct SitePlan {
  uint32_t begin = 0;  // the site's own expression (for ordering and the report)
  uint32_t end = 0;
  uint32_t line = 0;  // where failures point (1-based; col in code points)
  uint32_t col = 0;
  // The rule that checks it ("operator.add"); empty for a call, whose callee
  // (its 'callee' operand) is resolved to a rule at run time.
  std::string rule;
  std::vector<OperandPlan> operands;  // in slot order
  std::vector<int> obligations;       // ids of the analysis' obligations at this site
  CheckStatus status = CheckStatus::Deferred;  // Refuted: an obligation here is a static error
  std::string reason;  // why it is checked at run time (for the report)

  // The entry check of an annotated function (gradual/annotation_syntax.h):
  // its operands are the annotated parameters, read by name, before the
  // first statement (Statement, at entry_begin) or around the first
  // expression it evaluates (Expression, [entry_begin, entry_end)).
  gradual::EntryPlacement::Form entry_form = gradual::EntryPlacement::Form::None;
  uint32_t entry_begin = 0;
  uint32_t entry_end = 0;
  // Links an entry check (its key) with the returns and annotated
  // assignments of the same function (reads_entry_of): the def's offset.
  int64_t entry_key = -1;
  int64_t reads_entry_of = -1;
};

// Why a site in code TorchScript compiles gets no check.
inline constexpr const char* kCompiledByTorchScript =
    "in code compiled by TorchScript (torch.jit.script/trace), which runs without Python: no run-time check can run "
    "there";
// ... and the same site is also reached from plain Python calls, which a
// check would cover, but TorchScript would not compile the checked source.
inline constexpr const char* kCompiledByTorchScriptAndPython =
    "in code compiled by TorchScript (torch.jit.script/trace) and also called from Python: a check would stop "
    "TorchScript compiling it, so the Python calls are not checked either";

// Why a call of a functools.partial of a library function gets no check.
inline constexpr const char* kCalledThroughPartial =
    "the callee is a functools.partial of a library function: the run-time check sees the partial object, not "
    "the function and the arguments it binds";

// Why a call of a module with forward hooks gets no check.
inline constexpr const char* kCallsAHookedModule =
    "the module called has forward hooks (its own or one for every module): a check cannot see the input they pass "
    "on";

// An obligation that needs a run-time check but cannot get one, and why
// (read by the report as "not instrumentable").
struct NotInstrumentable {
  int obligation_id = -1;
  std::string reason;
};

struct FilePlan {
  std::string path;  // the file as gshape displays it (and as CheckTable names it)
  std::vector<SitePlan> sites;
  std::vector<NotInstrumentable> rejected;  // decided while planning
};

struct PlanOptions {
  // Check every site, proven ones too (`gshape instrument --check-proven`).
  bool check_proven = false;
};

// The plans of every module of `project` that has a site to check, sorted by
// path; sites sorted by position. `obligations` are the analysis' (merged)
// obligations, `sites` its site summaries; a deferred or refuted obligation
// that is at no site is listed in `rejected`.
std::vector<FilePlan> build_plans(const Project& project, const std::vector<gradual::Obligation>& obligations,
                                  const std::vector<gradual::SiteSummary>& sites, const PlanOptions& options = {});

// The sites of one module, planned alone (all of them, as if nothing were
// proven): for tests and tools.
FilePlan plan_every_site(const std::string& path, const ir::Module& module);

}  // namespace gshape::codegen
