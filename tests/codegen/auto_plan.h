// Plans for tests and the benchmark that do not depend on the analysis: every
// site of a module (codegen::plan_every_site: each call, operator, single
// comparison and augmented assignment, with every operand in a slot), so
// every operand is wrapped. The checks are the real ones (the operator's
// rule, or the callee's at run time), so a correct program must behave
// exactly like the original; the options leave kinds of sites out.
#pragma once

#include <string>
#include <vector>

#include "codegen/plan.h"
#include "frontend/ir.h"

namespace gshape::testing {

struct AutoPlanOptions {
  bool calls = true;
  bool binops = true;       // binary and unary operators, comparisons
  bool aug_assigns = true;
};

codegen::FilePlan plan_every_operation(const ir::Module& module, const AutoPlanOptions& options = {});

}  // namespace gshape::testing
