// The instrumentation plan: the rewriter's input, independent of how the
// analysis computes it. Per file, the sites whose checks must run at run
// time; per site, the operands the checks read (slot + byte range in the
// original text) and the checks themselves (deferred or refuted obligations;
// proven ones never reach a plan).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gradual/obligation.h"

namespace gshape::codegen {

// One operand of a site: the source expression the rewriter routes through
// `stash`/`check` so the runtime sees its value.
struct OperandPlan {
  int slot = -1;
  uint32_t begin = 0;  // byte range [begin, end) of the operand's expression
  uint32_t end = 0;    // in the original text
  std::string description;  // "input", "mat2" (for messages and the report)
  // Known by the planner to be impossible to wrap (an assignment target, a
  // value the runtime cannot reach ...): the checks reading it are not
  // instrumented. The rewriter finds most such cases itself from the IR.
  bool wrappable = true;
  std::string not_wrappable_reason;
};

enum class CheckStatus : uint8_t { Deferred, Refuted };
const char* check_status_name(CheckStatus s);  // "deferred", "refuted"

// One runtime check: a row of the module's check table.
struct CheckPlan {
  uint32_t line = 0;  // where the diagnostic points (1-based; col in code points)
  uint32_t col = 0;
  std::string tag;         // "linear_c1"
  std::string constraint;  // s-expression of the runtime's constraint language
  std::string message;     // message template with `{...}` holes
  // Per slot (index = slot number), the name shown after the message, or
  // nullopt to leave that slot out. May be shorter than the largest slot.
  std::vector<std::optional<std::string>> slot_names;
  std::vector<int> slots;  // slots the constraint and the message read (sorted)
  int obligation_id = -1;
  CheckStatus status = CheckStatus::Deferred;
};

// One call or operator whose operands the checks read.
struct SitePlan {
  uint32_t begin = 0;  // the site's own expression (for ordering and the report)
  uint32_t end = 0;
  uint32_t line = 0;
  uint32_t col = 0;
  std::vector<OperandPlan> operands;  // one per slot read by some check
  std::vector<CheckPlan> checks;
};

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

// Groups the deferred and refuted obligations by file and call site into
// plans, one per file that has any, sorted by path; sites sorted by position.
// An obligation the runtime cannot evaluate, or whose operands have no known
// source range, is listed in `rejected` with the reason.
std::vector<FilePlan> build_plans(const std::vector<gradual::Obligation>& obligations);

// Where an obligation's operand expression is (`SlotInfo::loc`), or nullopt
// when no expression reaches it.
std::optional<SourceLoc> operand_location(const gradual::SlotInfo& slot);

}  // namespace gshape::codegen
