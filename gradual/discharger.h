// What a rule's obligations are decided by. Statically that is the Z3
// Solver (solver.h), under the facts of the program point; at run time it is
// the ConcreteDischarger (concrete_discharger.h): every operand is a real
// size, so each condition folds to a constant and needs no solver. Rules see
// only this interface, so one rule serves both the analysis and the runtime.
#pragma once

#include <optional>
#include <string>

#include "gradual/dim.h"
#include "gradual/obligation.h"

namespace gshape::gradual {

class Discharger {
 public:
  virtual ~Discharger() = default;
  // Decides the obligation: fills status, reason, example and core.
  virtual void discharge(Obligation& ob) = 0;
  // Assumes `fact` from here on (a fact a rule learnt from an operand's form).
  virtual void add_fact(const Pred& fact, const SourceLoc& loc, std::string description) = 0;
  // True when `c` certainly holds, false when it cannot hold, nullopt otherwise.
  virtual std::optional<bool> query(const Pred& c) = 0;
  // The same question asked to simplify a result shape (`n if n == -1 ...`
  // when the checks so far exclude n == -1): it may give up sooner.
  virtual std::optional<bool> settle(const Pred& c) { return query(c); }
};

}  // namespace gshape::gradual
