// The rule side of both nn oracles (nn_oracle_test.cpp against PyTorch's
// Python layer, libtorch_nn_test.cpp against the ATen operators): a case's
// arguments become constant operands, the suite's rules run (the function's
// rule, or construction then forward on the module object), and the
// outcome is compared with what the reference did. No libtorch header here.
#pragma once

#include <string>

#include "nn_oracle.h"

namespace gshape::gradual {
class Solver;
}

namespace gshape::oracle::nn {

// The reference implementation, as a disagreement names it.
struct Reference {
  std::string name;   // "PyTorch", "libtorch"
  std::string fails;  // how it reports an error: "raises", "throws"
};

// Runs the suite's rules on `c` and compares them with `reference`: the
// rule must refute an obligation iff the reference failed, and otherwise be
// modelled, defer nothing (every input is a constant) and give the same
// result shapes. Empty when they agree, otherwise what differs.
std::string rule_disagreement(const NSuite& suite, const NCase& c, const NOutcome& reference, const Reference& who,
                              gradual::Solver& solver);

// The case as Python: `nn.Conv2d(16, 32, 3)(T(2, 16, 8, 8))`, `F.pad(T(3), (1, 1))`.
std::string case_text(const NSuite& suite, const NCase& c);

// A GoogleTest parameter name for the suite: its rule key, `_` for the rest.
std::string test_name(const NSuite& suite);

}  // namespace gshape::oracle::nn
