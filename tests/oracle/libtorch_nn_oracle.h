// The libtorch nn oracle's vocabulary (no libtorch header here): the nn
// rules' functional forms (and the recurrent modules) run through the real
// ATen/libtorch C++ operators that PyTorch's Python layer ends in. Cases are
// the nn oracle's (nn_oracle.h): an NCase with Python-like arguments; the
// runner does what the Python wrapper does to its arguments before it calls
// the C++ operator (an int expanded per axis, None replaced by the input's
// size, a reduction name turned into its enum, inputs broadcast, an unbatched
// input unsqueezed), then calls the operator.
#pragma once

#include <string>
#include <vector>

#include "nn_oracle.h"

namespace gshape::oracle::nn {

// What the C++ operator did. `python_only`: the case reaches a check that
// only PyTorch's Python layer makes (it raises there and the C++ operator
// would not, or the argument has no C++ counterpart), so the C++ operator
// cannot be the reference for it; the Python nn oracle covers it.
struct AtenOutcome {
  NOutcome outcome;
  bool python_only = false;
  std::string why;  // the Python-only check
};

// Runs `target` (`F.conv2d`, `nn.LSTM`: construction + call) on `c` through
// libtorch (libtorch_nn_aten.cpp, the only file that includes libtorch
// headers). Throws std::invalid_argument for a target it does not know.
AtenOutcome run_aten(const std::string& target, const NCase& c);

// The suites run through libtorch (libtorch_nn_suites.cpp): the nn
// oracle's functional generators where the C++ operator is their reference,
// plus generators of its own (F.linear, interpolate as the C++ upsample ops
// take it, the recurrent modules with valid hyperparameters).
std::vector<NSuite> aten_suites();

}  // namespace gshape::oracle::nn
