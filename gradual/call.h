// A call site as the interpreter hands it to a rule: the qualified name the
// op is called as, and its arguments as abstract values with operand slots.
//
// Operand slots are how the runtime reaches a value: the rewriter routes the
// source expression of each slotted operand through `_gs.stash/check(site,
// slot, value)`, and constraints read them as `(size K D)`, `(int K)`, ...
// Convention: slot numbers are 0, 1, 2, ... in source order of the call's
// expressions (the receiver of a method call first); the elements of a list
// or tuple display written in the call (`torch.cat([a, b], 1)`) may get their
// own slots (`elements`). A value with no slot (a default, a `*args`
// expansion) is known statically only.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/source.h"
#include "gradual/value.h"

namespace gshape::gradual {

// The sizes invented so far for a variable whose shape is not known (its
// rank is unknown): `x.size(0)` read by the program and a rule's
// `x.size(0)` or `x.dim()` for the same value are the same symbol, so a
// relation one of them established holds for the others. Keyed by the axis
// as written (`-1` and `3` are kept apart: the rank is unknown).
struct UnknownShapeMemo {
  std::map<int64_t, Dim> sizes;
  std::optional<Dim> rank;
  void clear() {
    sizes.clear();
    rank.reset();
  }
};

struct Operand {
  Value value;
  int slot = -1;                  // -1: the runtime cannot reach this value
  std::vector<Operand> elements;  // a literal list/tuple: its element operands
  SourceLoc loc;
  // The argument as written when it is a name or an attribute (`mask`,
  // `self.w`): a size the rule must invent for it is named after it
  // (`mask.size(0)`), not after the rule's parameter (`tensor.size(0)`).
  std::string text;
  // A variable of unknown rank as written: the sizes already invented for
  // it (owned by the interpreter's binding, alive for the call).
  UnknownShapeMemo* memo = nullptr;

  Operand() = default;
  Operand(Value v, int s = -1) : value(std::move(v)), slot(s) {}  // NOLINT
};

struct CallSite {
  std::string name;  // "Tensor.view", "torch.matmul", "torch.nn.Linear.forward"
  SourceLoc loc;
  std::vector<Operand> positional;  // receiver first for methods and module calls
  std::vector<std::pair<std::string, Operand>> keywords;
};

}  // namespace gshape::gradual
