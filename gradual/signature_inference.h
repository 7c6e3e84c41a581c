// `gshape annotate`'s inference: a function's parameters and result as
// jaxtyping dimension strings, joined over every call the analysis followed
// into it. An axis with the same size in every call is written as that
// integer; axes whose sizes agree in every call share one name (so the
// relations the analysis found are stated), taken from the code when the
// function names it (`B, T, C = x.size()`, `n = x.shape[0]`), else `d0`,
// `d1`, ... A parameter or result is written only when it is a tensor of the
// same rank in every call, and a function only when every call of it was
// followed (one the analysis could not follow may pass anything).
#pragma once

#include <map>
#include <vector>

#include "frontend/ir.h"
#include "gradual/analysis.h"
#include "gradual/value.h"

namespace gshape::gradual {

struct SignatureSample {
  std::vector<Value> params;  // per def->params
  Value result;
};

InferredSignature infer_signature(const ir::FunctionDef& def, const std::vector<SignatureSample>& samples);

}  // namespace gshape::gradual
