// A normal form of size terms that decides some conditions without Z3.
//
// Terms are read as polynomials with integer coefficients over atoms
// (symbols, and the floor divisions, remainders, minima and maxima the
// polynomials cannot express), products of sums multiplied out:
// `(H - K)//K + 1` and `H//K` are one polynomial, since
// `(X + Q*B)//B == X//B + Q` for an integer polynomial Q, and
// `(X + Q*B) % B == X % B`. A monomial whose factors all occur an even
// number of times, or are sizes, is >= 0. A condition then reads as true,
// false or undecided (three-valued: `a or b` is true when one side is).
// Like the simplifier (dim.h), it takes a divisor that is not a constant
// to be non-zero (rules check divisors before dividing).
//
// Nothing here builds a term: the polynomials live in the NormalForm object
// (one per solver), so the terms the analysis builds, and their creation
// order (which orders sums and products), are the same with it or without.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gradual/dim.h"

namespace gshape::gradual {

class NormalForm {
 public:
  NormalForm();
  ~NormalForm();
  NormalForm(const NormalForm&) = delete;
  NormalForm& operator=(const NormalForm&) = delete;

  // true: `c` holds for every value of its symbols (sizes >= 0); false:
  // for none; nullopt: the normal form does not tell.
  std::optional<bool> decide(const Pred& c);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gshape::gradual
