// `gshape annotate`'s writer: annotations at the right places, the import
// block after a docstring and __future__ imports, and a diff `patch` takes.
#include <gtest/gtest.h>

#include "codegen/annotate.h"
#include "plan_builders.h"

namespace gshape::codegen {
namespace {

using gshape::testing::parse;

const ir::FunctionDef* def_named(const ir::Module& m, const std::string& name) {
  for (const ir::Stmt* s : m.body)
    if (const auto* f = ir::dyn_cast<ir::FunctionDef>(s); f && f->name == name) return f;
  return nullptr;
}

TEST(Annotate, WritesParametersDefaultsAndReturns) {
  auto p = parse("\"\"\"Doc.\"\"\"\nfrom __future__ import division\nimport torch\n\n\ndef f(x, y=None, *rest, z: int = 1):  # note\n    return x\n");
  gradual::InferredSignature sig;
  sig.def = def_named(*p.module, "f");
  ASSERT_TRUE(sig.def);
  sig.params = {std::string("B 3"), std::string("B"), std::string("9"), std::nullopt};
  sig.returns = std::string("B 3");
  AnnotatedSource a = annotate_source(p.text(), *p.module, {sig});
  EXPECT_EQ(a.annotations, 3);  // *rest is never annotated, z has its own annotation
  EXPECT_EQ(a.text,
            "\"\"\"Doc.\"\"\"\nfrom __future__ import division\nfrom __future__ import annotations\n"
            "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:  # written by gshape annotate\n"
            "    from jaxtyping import Shaped\n    from torch import Tensor\n\nimport torch\n\n\n"
            "def f(x: Shaped[Tensor, \"B 3\"], y: Shaped[Tensor, \"B\"] = None, *rest, z: int = 1) -> "
            "Shaped[Tensor, \"B 3\"]:  # note\n    return x\n");
  // the result parses
  auto again = parse(a.text);
  EXPECT_TRUE(again.module);
}

TEST(Annotate, NothingToWriteLeavesTheTextAlone) {
  auto p = parse("def f(x):\n    return x\n");
  AnnotatedSource a = annotate_source(p.text(), *p.module, {});
  EXPECT_EQ(a.annotations, 0);
  EXPECT_EQ(a.text, p.text());
  EXPECT_EQ(unified_diff("m.py", p.text(), a.text), "");
}

TEST(Annotate, DiffHasHunksWithContext) {
  std::string before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
  std::string after = "NEW\na\nb\nc\nd\ne\nf\ng\nH\ni\nj\n";
  EXPECT_EQ(unified_diff("m.py", before, after),
            "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,4 @@\n+NEW\n a\n b\n c\n@@ -5,6 +6,6 @@\n e\n f\n g\n-h\n+H\n i\n j\n");  // as diff -u
}

}  // namespace
}  // namespace gshape::codegen
