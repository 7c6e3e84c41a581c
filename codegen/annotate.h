// `gshape annotate`: a module's inferred signatures written into its source
// as jaxtyping annotations (`x: Shaped[Tensor, "b 784"]`, `-> Shaped[...]`),
// with the imports that make them importable without jaxtyping
// (`from __future__ import annotations`, and jaxtyping under
// `if TYPE_CHECKING:`), and a unified diff of the change. `Shaped` because
// gshape infers shapes, not dtypes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontend/ir.h"
#include "gradual/analysis.h"

namespace gshape::codegen {

struct AnnotatedSource {
  std::string text;
  int annotations = 0;  // parameter and return annotations written
};

// `signatures` are those of functions defined in `module` (others ignored).
AnnotatedSource annotate_source(std::string_view text, const ir::Module& module,
                                const std::vector<gradual::InferredSignature>& signatures);

// `diff -u` of two texts, with `a/PATH` and `b/PATH` headers ("" when equal).
std::string unified_diff(const std::string& path, std::string_view before, std::string_view after);

}  // namespace gshape::codegen
