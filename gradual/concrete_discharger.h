// The discharger of the run-time path: operands are actual sizes, so an
// obligation's condition is a constant after simplification. A condition that
// is still symbolic (a rule made up a size it cannot know, such as the length
// of nonzero's result) is left deferred: the runtime skips it, never fails it.
#pragma once

#include "gradual/discharger.h"

namespace gshape::gradual {

class ConcreteDischarger final : public Discharger {
 public:
  void discharge(Obligation& ob) override;
  std::optional<bool> query(const Pred& c) override;
  // Facts are not needed: every condition is decided by its operands alone.
  void add_fact(const Pred&, const SourceLoc&, std::string) override {}
};

}  // namespace gshape::gradual
