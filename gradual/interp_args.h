// Reading a call's arguments inside the interpreter (library calls, argparse
// methods): positional and keyword access, and the int or bool a value is.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gradual/interp.h"

namespace gshape::gradual::interp {

// Positional and keyword access to a call's arguments.
struct Args {
  const std::vector<ArgValue>& list;
  std::vector<const ArgValue*> positional;
  bool has_star = false;  // a `*x` or `**x`: the arguments are not all known
  explicit Args(const std::vector<ArgValue>& l) : list(l) {
    for (const ArgValue& a : list) {
      if (a.type == ir::Argument::Type::Positional) positional.push_back(&a);
      if (a.type == ir::Argument::Type::Star || a.type == ir::Argument::Type::DoubleStar) has_star = true;
    }
  }
  const ArgValue* kw(const std::string& name) const {
    for (const ArgValue& a : list)
      if (a.type == ir::Argument::Type::Keyword && a.name == name) return &a;
    return nullptr;
  }
  // Positional `index` or keyword `name`.
  const Value* get(std::size_t index, const std::string& name) const {
    if (const ArgValue* k = kw(name)) return &k->value;
    if (index < positional.size()) return &positional[index]->value;
    return nullptr;
  }
};

// The int a value is (a bool counts as 0 or 1).
inline std::optional<Dim> int_of(const Value* v) {
  if (!v) return std::nullopt;
  if (v->is_int()) return v->as_int();
  if (v->is_bool() && v->as_bool().is_constant()) return Dim(v->as_bool().is_true() ? 1 : 0);
  return std::nullopt;
}

// The truth of a constant bool, int or None.
inline std::optional<bool> bool_of(const Value* v) {
  if (!v) return std::nullopt;
  if (v->is_bool() && v->as_bool().is_constant()) return v->as_bool().is_true();
  if (v->is_int() && v->as_int().is_constant()) return *v->as_int().constant_value() != 0;
  if (v->is_none()) return false;
  return std::nullopt;
}

}  // namespace gshape::gradual::interp
