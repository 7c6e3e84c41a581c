// A constraint of the runtime's language written for people, in Python
// terms over the operands' names: `(== (size 0 -1) 576)` with slot 0 named
// "input" reads `input.size(-1) == 576`.
#pragma once

#include <string>
#include <vector>

#include "gradual/constraint.h"

namespace gshape::cli {

// `slot_names[K]` names slot K ("input", "tensors[1]"); a slot without a
// name is `operand K`.
std::string readable_constraint(const gradual::CExpr& e, const std::vector<std::string>& slot_names);

// The same from the s-expression text; the text itself when it does not parse.
std::string readable_constraint(const std::string& sexpr, const std::vector<std::string>& slot_names);

}  // namespace gshape::cli
