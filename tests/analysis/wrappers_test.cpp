// nn.DataParallel and DistributedDataParallel (gradual/interp_wrappers.cpp):
// the wrapped module runs on a chunk of the batch (DataParallel) or on the
// inputs as given (DDP); `.module` is the module.
#include <gtest/gtest.h>

#include "analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

const std::string kNet =
    "import torch\n"
    "import torch.nn as nn\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(10, 20)\n"
    "    def forward(self, x):\n"
    "        h = self.fc(x)  # h\n"
    "        return h\n";

TEST(Wrappers, DataParallelRunsTheModuleOnAChunkAndGathersTheBatch) {
  const std::string src = kNet +
                          "net = Net()\n"
                          "model = nn.DataParallel(net).to('cpu')\n"
                          "x = torch.randn(64, 10)\n"
                          "out = model(x)  # out\n"
                          "inner = model.module(x)  # inner\n";
  Analysed a(src);
  // inside forward the batch axis is a chunk of 64, not 64 (the second
  // context: `model.module(x)` on the whole batch); handing net to the
  // wrapper is no escape (the wrapper is known), so forward is not also
  // analysed with unknown inputs
  EXPECT_EQ(a.shape(line_of(src, "# h"), "x"), "[chunk(64), 10] | [64, 10]");
  EXPECT_EQ(a.shape(line_of(src, "# out"), "out"), "[64, 20]");
  EXPECT_EQ(a.shape(line_of(src, "# inner"), "inner"), "[64, 20]");
  EXPECT_EQ(a.outcome(line_of(src, "# h"), "linear_c1"), Outcome::Proven) << a.dump();
}

TEST(Wrappers, ARequirementOnTheWholeBatchInsideForwardIsNotProven) {
  // `x.view(64, -1)` holds when forward sees the whole batch of 64 (one
  // device, or none), not on a chunk of it (several devices)
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "class Net(nn.Module):\n"
      "    def forward(self, x):\n"
      "        y = x + torch.zeros(64, 10)  # add\n"
      "        return y\n"
      "model = nn.DataParallel(Net())\n"
      "x = torch.randn(64, 10)\n"
      "out = model(x)  # out\n";
  Analysed a(src);
  int add = line_of(src, "# add");
  EXPECT_EQ(a.shape(add, "x").rfind("[chunk(64), 10]", 0), 0u) << a.shape(add, "x");
  // axis 1 (10 against 10) is proven, axis 0 (a chunk against 64) is not
  bool deferred_on_the_chunk = false;
  for (const auto* ob : a.at(add, "broadcast_c1")) {
    if (ob->static_constraint() == "chunk(64) == 64 or chunk(64) == 1") {
      EXPECT_EQ(ob->outcome, Outcome::Deferred) << a.dump();
      deferred_on_the_chunk = true;
    }
  }
  EXPECT_TRUE(deferred_on_the_chunk) << a.dump();
  // the output has 64 rows or fails: not the chunk itself, so a fresh size
  EXPECT_EQ(a.shape(line_of(src, "# out"), "out"), "[model(x).size(0), 10]");
}

TEST(Wrappers, AnOutputWhoseBatchAxisIsNotTheChunkGathersToAFreshSize) {
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "class Pool(nn.Module):\n"
      "    def forward(self, x):\n"
      "        return x.sum(0, keepdim=True), x.t(), x.sum()\n"
      "model = nn.DataParallel(Pool())\n"
      "x = torch.randn(64, 10)\n"
      "s, t, total = model(x)  # out\n";
  Analysed a(src);
  int out = line_of(src, "# out");
  // one row per replica; the transposed chunk's axis 1 differs between replicas
  EXPECT_EQ(a.shape(out, "s"), "[model(x).size(0), 10]");
  EXPECT_EQ(a.shape(out, "t"), "[model(x).size(0), model(x).size(1)]");
  EXPECT_EQ(a.shape(out, "total"), "[*]");  // [] without devices, one element per device with them
}

TEST(Wrappers, ASymbolicBatchIsChunkedAndGatheredBack) {
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "def run(b: int):\n"
      "    x = torch.randn(b, 10)\n"
      "    y = nn.DataParallel(nn.Linear(10, 3))(x)  # y\n"
      "    return y\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# y"), "y"), "[b, 3]");
}

TEST(Wrappers, DistributedDataParallelCallsTheModuleOnTheWholeInput) {
  const std::string src = kNet +
                          "net = Net()\n"
                          "model = torch.nn.parallel.DistributedDataParallel(net, device_ids=[0])\n"
                          "x = torch.randn(64, 10)\n"
                          "out = model(x)  # out\n"
                          "fc = model.module.fc  # fc\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# h"), "x").rfind("[64, 10]", 0), 0u) << a.shape(line_of(src, "# h"), "x");
  EXPECT_EQ(a.shape(line_of(src, "# out"), "out"), "[64, 20]");
  EXPECT_TRUE(a.result().coverage.no_rule.empty()) << a.result().coverage.no_rule.begin()->first;
}

}  // namespace
}  // namespace gshape::testing
