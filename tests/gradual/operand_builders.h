// Short builders of call-site operands for the rule tests: T(shape, slot) a
// tensor, I(dim, slot) an int, Bool, Str, Tup(items, slot) a tuple whose
// elements keep their own slots.
#pragma once

#include <string>
#include <vector>

#include "gradual/call.h"

namespace gshape::gradual::test_operands {

inline Operand T(const Shape& s, int slot = -1) { return Operand(Value::tensor(s), slot); }
inline Operand I(const Dim& d, int slot = -1) { return Operand(Value::integer(d), slot); }
inline Operand Bool(bool b) { return Operand(Value::boolean(Pred(b))); }
inline Operand Str(const std::string& s) { return Operand(Value::string(s)); }
inline Operand Tup(const std::vector<Operand>& items, int slot = -1) {
  Operand op;
  std::vector<Value> values;
  for (const Operand& o : items) values.push_back(o.value);
  op.value = Value::tuple(values);
  op.elements = items;
  op.slot = slot;
  return op;
}

}  // namespace gshape::gradual::test_operands
