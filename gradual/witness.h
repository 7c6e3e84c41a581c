// Concrete witnesses: integer values for symbols that make a set of
// conditions true, found by evaluating the terms on a few candidate
// assignments (no Z3).
//
// Most obligations a project defers are over sizes nothing constrains
// (`x.size(1) == in_features` in a function nobody called), and Z3 spends
// two checks (and, on nonlinear terms, two timeouts) to learn that both the
// condition and its negation are satisfiable. A witness found here is exact
// evidence of satisfiability (every term is evaluated with the Z3
// translation's semantics: Python floor division and modulo, checked int64
// arithmetic; an assignment that divides by zero or overflows is not a
// witness), so the solver can skip those checks. Not finding one proves
// nothing: the solver then asks Z3.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gradual/dim.h"

namespace gshape::gradual {

// Symbol nodes with their values.
using Assignment = std::vector<std::pair<const TermNode*, int64_t>>;

// The value of an integer term (or 0/1 for a condition) under `values`;
// nullopt when a symbol has no value, a divisor is zero or int64 overflows.
std::optional<int64_t> evaluate(const TermNode* term, const Assignment& values);

// Values for every symbol of `conditions` under which all of them are true,
// by a min-conflicts local search over candidate values, stopping after
// about `budget` evaluations of a condition (deterministic: the same
// conditions and seed give the same witness). Size symbols (`nonneg`) only
// get values >= 0. The search starts from `seed`'s values where it has
// one (an earlier witness of most of the same facts), else from 1.
std::optional<Assignment> find_witness(const std::vector<const TermNode*>& conditions, unsigned budget = 400,
                                       const std::unordered_map<const TermNode*, int64_t>* seed = nullptr);

}  // namespace gshape::gradual
