// `gshape annotate` from the command line: what the written signatures say.
#include <string>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(AnnotateCli, AModulesBatchAxisIsNamedNotTheSizeOneCallUsed) {
  // one call with a batch of 3: "3 4" -> "3 2" made every other batch size
  // an error (an outside user's report); the feature sizes stay integers
  TempDir dir;
  dir.write("a3.py",
            "import torch\n"
            "import torch.nn as nn\n"
            "class M(nn.Module):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.fc = nn.Linear(4, 2)\n"
            "    def forward(self, x):\n"
            "        return self.fc(x)\n"
            "def scale(v):\n"
            "    return v * 2\n"
            "m = M()\n"
            "y = m(torch.randn(3, 4))\n"
            "z = scale(torch.randn(3, 4))\n");
  ProcessResult r = gshape({"annotate", dir / "a3.py"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "def forward(self, x: Shaped[Tensor, \"batch 4\"]) -> Shaped[Tensor, \"batch 2\"]:"))
      << r.out;
  // a plain function's sizes are what its calls used
  EXPECT_TRUE(contains(r.out, "def scale(v: Shaped[Tensor, \"3 4\"]) -> Shaped[Tensor, \"3 4\"]:")) << r.out;
}

}  // namespace
}  // namespace gshape::testing
