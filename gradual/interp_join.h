// Joining abstract values where control flow meets: after the two arms of a
// branch (a dimension that differs becomes the exact `a if cond else b` term
// when the condition is known, else a fresh symbol) and at a loop head
// (widening: a dimension that changes becomes a symbol, the same one on every
// pass, so the fixed point is reached). Also structural equality and the
// memo key of values.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "gradual/interp_objects.h"

namespace gshape::gradual::interp {

struct JoinOptions {
  std::optional<Pred> condition;  // branch join: true selects the first value
  bool widen = false;             // loop head: changed dims become cached symbols
  std::map<std::string, Dim>* widen_cache = nullptr;
  // Decides a condition under the facts (a small budget; false when not
  // proven): a branch join whose two sizes are equal whenever the second
  // arm is taken keeps the first, `dim if c else heads*dim_head` with
  // c = not (heads == 1 and dim_head == dim) is `dim`.
  std::function<bool(const Pred&)> proves;
};

// `path` names the place ("x", "x.size(1)", "t[0]") for fresh symbols.
Value join_values(const Value& a, const Value& b, const JoinOptions& options, const std::string& path);
Dim join_dims(const Dim& a, const Dim& b, const JoinOptions& options, const std::string& path);
// Variables of both: joined; of one only: kept as they are.
Vars join_vars(const Vars& a, const Vars& b, const JoinOptions& options);

bool same_value(const Value& a, const Value& b);
// Equal, or objects built alike (same class, attributes and children alike):
// what a join of the two may keep one of.
bool similar_values(const Value& a, const Value& b, int depth = 0);
bool same_vars(const Vars& a, const Vars& b);

// A structural key (dims by term identity, objects by identity and version).
std::string value_key(const Value& v);

}  // namespace gshape::gradual::interp
