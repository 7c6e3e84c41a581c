#include "auto_plan.h"

#include <algorithm>

namespace gshape::testing {

codegen::FilePlan plan_every_operation(const ir::Module& module, const AutoPlanOptions& options) {
  codegen::FilePlan plan = codegen::plan_every_site(module.file().path(), module);
  std::erase_if(plan.sites, [&](const codegen::SitePlan& s) {
    bool call = !s.operands.empty() && s.operands.front().kind == "callee";
    bool aug = !call && s.rule.rfind("operator.i", 0) == 0 && s.rule != "operator.invert";
    if (call) return !options.calls;
    if (aug) return !options.aug_assigns;
    return !options.binops;
  });
  return plan;
}

}  // namespace gshape::testing
