// Hand-made plans for tests and the benchmark, built from the IR instead of
// the analysis: a site for every call, binary operator, augmented assignment
// and subscript of a module, with every operand in a slot. By default each
// site gets one check `(true)` that reads all of its slots, so every operand
// is wrapped and every check passes: the instrumented program must behave
// exactly like the original. `Override` replaces that check at one site.
#pragma once

#include <string>
#include <vector>

#include "codegen/plan.h"
#include "frontend/ir.h"

namespace gshape::testing {

struct Override {
  uint32_t line = 0;  // the site's line and column (its expression's start)
  uint32_t col = 0;
  std::string constraint;
  std::string message = "override";
  std::string tag = "test_c1";
  std::vector<std::string> slot_names;  // empty: none
  bool only_slots_read = false;  // the check reads only the slots its constraint names
};

struct AutoPlanOptions {
  bool calls = true;
  bool binops = true;
  bool aug_assigns = true;
  bool subscripts = true;
  std::vector<Override> overrides;
  // Only sites with an override get a check (for failing-check tests).
  bool only_overrides = false;
};

codegen::FilePlan plan_every_operation(const ir::Module& module, const AutoPlanOptions& options = {});

}  // namespace gshape::testing
