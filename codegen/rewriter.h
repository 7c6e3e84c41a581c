// The rewriter: one file's plan → the instrumented text, by insertions into
// the original text only (the AST is never re-printed). Every operand a check
// reads is routed through `_gshape_checks.stash(S, K, <expr>)`, the one
// evaluated last through `_gshape_checks.check(S, K, <expr>)`, and the module
// gets a one-line runtime header. Inserted text never holds a line break, so
// every original line keeps its number. docs/instrumentation.md has the rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codegen/plan.h"
#include "frontend/ir.h"

namespace gshape::codegen {

// Names the instrumented code binds: chosen so that they cannot collide with
// user names in practice (and are private: `from m import *` skips them).
inline constexpr const char* kRuntimeModule = "gshape_runtime";
inline constexpr const char* kRuntimeAlias = "_gshape_rt";
inline constexpr const char* kTableName = "_gshape_checks";

// What became of one obligation at a planned site (or one the plan rejected).
struct CheckOutcome {
  int obligation_id = -1;
  CheckStatus status = CheckStatus::Deferred;
  bool instrumented = false;
  int runtime_site = -1;  // the site's index in the module's check table
  uint32_t line = 0;
  uint32_t col = 0;
  std::string reason;     // not instrumented: why
};

// What became of one planned site.
struct SiteOutcome {
  uint32_t line = 0;
  uint32_t col = 0;
  std::string rule;       // empty: the callee decides at run time
  bool instrumented = false;
  int runtime_site = -1;
  std::string why;        // why it is checked (SitePlan::reason)
  std::string problem;    // not instrumented: why; instrumented: operands it cannot read, if any
  std::size_t obligations = 0;
  // Not instrumented because its check would nest too deep (codegen/nesting_budget.h).
  bool nested_too_deep = false;
};

struct InstrumentedSource {
  std::string text;      // in the file's own encoding (see instrument_source)
  bool changed = false;  // false: `text` is the original, byte for byte
  int sites = 0;         // sites in the check table
  std::vector<SiteOutcome> site_outcomes;  // every site of the plan, in plan order
  std::vector<CheckOutcome> outcomes;      // every obligation of the plan's sites, then its rejected ones
  std::string problem;   // why nothing could be instrumented in this file, if so
};

// `text` is the file's original text (SourceFile::text(), UTF-8) and
// `module` its IR (built from that text); `plan.path` names the file in the
// check table. The result's `text` is in the encoding the file was read from
// (SourceFile::encoding(): a latin-1 file is written back in latin-1, byte
// for byte the original outside the insertions).
InstrumentedSource instrument_source(std::string_view text, const ir::Module& module, const FilePlan& plan);

// The runtime header for a table literal: `import gshape_runtime as
// _gshape_rt; _gshape_checks = _gshape_rt.CheckTable('<path>', <sites>)`.
std::string runtime_header(const std::string& display_path, const std::string& sites_literal);

}  // namespace gshape::codegen
