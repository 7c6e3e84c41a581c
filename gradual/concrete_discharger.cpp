// Deciding obligations whose operands are all concrete.
#include "gradual/concrete_discharger.h"

namespace gshape::gradual {

void ConcreteDischarger::discharge(Obligation& ob) {
  const Pred& c = ob.constraint.pred();
  ob.decided_without_z3 = true;
  if (c.is_true()) {
    ob.status = Status::Proven;
  } else if (c.is_false()) {
    ob.status = Status::Refuted;
  } else {
    ob.status = Status::Deferred;
    ob.reason = "the condition depends on a size the rule cannot know (" + c.str() + ")";
  }
}

std::optional<bool> ConcreteDischarger::query(const Pred& c) {
  if (c.is_true()) return true;
  if (c.is_false()) return false;
  return std::nullopt;
}

}  // namespace gshape::gradual
