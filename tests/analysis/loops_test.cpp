// Loops: unrolling of known short ranges, fixed points with widening for the
// rest, break/continue, comprehensions, and the DataLoader's full and last
// partial batches (a warning for a failure on the last batch only).
#include <gtest/gtest.h>

#include "analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

TEST(Loops, KnownRangeIsUnrolled) {
  const std::string src =
      "import torch\n"
      "x = torch.zeros(2, 3)\n"
      "for i in range(3):\n"
      "    x = torch.cat([x, x], 0)\n"
      "y = x  # after\n"
      "for i in range(1, 4):\n"
      "    z = torch.zeros(i, 5)  # each\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# after"), "y"), "[16, 3]");
  // every iteration is analysed with its own constant index
  EXPECT_EQ(a.shape(line_of(src, "# each"), "z"), "[1, 5] | [2, 5] | [3, 5]");
}

TEST(Loops, UnknownIterationReachesAFixedPointWithASymbol) {
  const std::string src =
      "import torch\n"
      "def f(lines):\n"
      "    x = torch.zeros(2, 3)\n"
      "    for line in lines:\n"
      "        x = torch.cat([x, x], 0)\n"
      "    ok = x @ torch.zeros(3, 1)  # ok\n"
      "    bad = x @ torch.zeros(4, 1)  # bad\n"
      "    return x\n";
  Analysed a(src);
  std::string after = a.shape(line_of(src, "# ok"), "x");
  ASSERT_FALSE(after.empty());
  EXPECT_NE(after, "[2, 3]");  // the growing axis became a symbol
  EXPECT_EQ(after.substr(after.size() - 4), ", 3]") << after;
  EXPECT_EQ(a.outcome(line_of(src, "# ok"), "matmul_c2"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# bad"), "matmul_c2"), Outcome::Error) << a.dump();
}

TEST(Loops, AnAttributeTheBodySetsIsWidenedAtTheHead) {
  // a memory that grows each step (an outside tester's false proof: the
  // view was proven from the first iteration's shape)
  const std::string src =
      "import torch\n"
      "class Memory:\n"
      "    def __init__(self):\n"
      "        self.mem = torch.zeros(2, 8)\n"
      "    def step(self, x):\n"
      "        y = self.mem.view(16)  # view\n"
      "        z = self.mem @ torch.zeros(8, 1)  # columns\n"
      "        self.mem = torch.cat([self.mem, x], 0)\n"
      "def run(lines):\n"
      "    m = Memory()\n"
      "    for line in lines:\n"
      "        m.step(torch.zeros(1, 8))\n"
      "    return m.mem @ torch.zeros(4, 1)  # after\n"
      "run(open('data.txt'))\n";
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# view"), "view_c5"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# columns"), "matmul_c2"), Outcome::Proven) << a.dump();  // still 8 columns
  EXPECT_EQ(a.worst(line_of(src, "# after"), "matmul_c2"), Outcome::Error) << a.dump();  // 8 columns after it too
  std::string after = a.shape(line_of(src, "# after"), "m.mem");
  EXPECT_NE(after, "[2, 8]") << after;
  EXPECT_EQ(after.substr(after.size() - 4), ", 8]") << after;
}

TEST(Loops, LargeRangeIsNotUnrolledAndItsIndexIsInRange) {
  const std::string src =
      "import torch\n"
      "t = torch.zeros(1000, 4)\n"
      "for i in range(1000):\n"
      "    row = t[i]  # row\n"
      "    u = torch.zeros(i + 1, 2)  # sized\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# row"), "row"), "[4]");
  // one analysis of the body, not a thousand
  auto sized = a.at(line_of(src, "# sized"), "zeros_c1");
  ASSERT_EQ(sized.size(), 1u) << a.dump();
  EXPECT_EQ(sized.front()->contexts, 1);
  // the index is known to be >= 0, so i + 1 is a valid size
  EXPECT_EQ(sized.front()->outcome, Outcome::Proven) << a.dump();
}

TEST(Loops, SymbolicSliceBoundsUseTheLoopFacts) {
  const std::string src =
      "import torch\n"
      "t = torch.zeros(1000, 4)\n"
      "for i in range(0, 999, 7):\n"
      "    seq_len = min(7, 999 - i)\n"
      "    a = t[i:i + seq_len]  # data\n"
      "    b = t[i + 1:i + 1 + seq_len]\n"
      "    c = a + b  # pair\n";
  Analysed a(src);
  // i >= 0 and i < 999 hold in the body, so both bounds normalise: no fresh
  // "slice" symbol, and the two windows provably have the same length
  std::string data = a.shape(line_of(src, "# data"), "a");
  ASSERT_FALSE(data.empty());
  EXPECT_EQ(data.find("slice"), std::string::npos) << data;
  EXPECT_EQ(a.worst(line_of(src, "# pair"), "broadcast_c1"), Outcome::Proven) << a.dump();
}

TEST(Loops, BreakAndContinueJoinTheirStates) {
  const std::string src =
      "import torch\n"
      "def f(items):\n"
      "    x = torch.zeros(2)\n"
      "    for it in items:\n"
      "        if it:\n"
      "            x = torch.zeros(5)\n"
      "            break\n"
      "        continue\n"
      "    return x @ torch.zeros(7)  # after\n";
  Analysed a(src);
  // x is [2] or [5] after the loop: the check is deferred, never an error
  EXPECT_EQ(a.outcome(line_of(src, "# after"), "matmul_c2"), Outcome::Deferred) << a.dump();
}

TEST(Loops, ComprehensionsOverKnownSequences) {
  const std::string src =
      "import torch\n"
      "sizes = [2, 3, 4]\n"
      "ts = [torch.zeros(s, 8) for s in sizes]\n"
      "y = torch.cat(ts, 0)  # cat\n"
      "pairs = tuple(t.sum(0) for t in ts)\n"
      "z = pairs[1]  # pick\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# cat"), "y"), "[9, 8]");
  EXPECT_EQ(a.shape(line_of(src, "# pick"), "z"), "[8]");
}

const char* kLoader =
    "import torch\n"
    "import torch.nn as nn\n"
    "from torch.utils.data import DataLoader, TensorDataset\n"
    "\n"
    "class Acc(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(20, 128)\n"
    "        self.state = torch.zeros(64, 128)\n"
    "    def forward(self, x):\n"
    "        return self.fc(x) + self.state  # add\n"
    "\n"
    "features = torch.randn(1000, 20)\n"
    "targets = torch.randn(1000)\n"
    "loader = DataLoader(TensorDataset(features, targets), batch_size=64DROP)  # loader\n"
    "model = Acc()\n"
    "for x, y in loader:\n"
    "    out = model(x)  # call\n";

std::string loader_program(const std::string& drop) {
  std::string src = kLoader;
  src.replace(src.find("DROP"), 4, drop);
  return src;
}

TEST(Loops, LastPartialBatchFailureIsAWarning) {
  std::string src = loader_program("");
  Analysed a(src);
  int add = line_of(src, "# add");
  EXPECT_EQ(a.outcome(add, "broadcast_c1"), Outcome::Warning) << a.dump();
  const auto* ob = a.at(add, "broadcast_c1").front();
  EXPECT_EQ(ob->context_note, "fails on the last batch of 40 when drop_last=False");
  EXPECT_EQ(ob->contexts, 2);  // full and last batch
  // still checked at run time: the site's check is the broadcast rule on the
  // operands of each run, which fails on the last batch only
  EXPECT_EQ(ob->ob.status, gradual::Status::Deferred);
  // while people read the failing batch's sizes
  EXPECT_EQ(ob->message(), "the size of tensor a (40) must match the size of tensor b (64) at non-singleton dimension 0");
  auto diags = gradual::diagnostics_of(a.result());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].severity, Severity::Warning);
  EXPECT_NE(diags[0].message.find("fails on the last batch of 40 when drop_last=False"), std::string::npos);
  bool loader_note = false;
  for (const DiagnosticNote& n : diags[0].notes)
    if (static_cast<int>(n.loc.line) == line_of(src, "# loader") && n.message.find("40 samples") != std::string::npos)
      loader_note = true;
  EXPECT_TRUE(loader_note);
  // the batch shapes the body saw
  EXPECT_EQ(a.shape(line_of(src, "# call"), "x"), "[64, 20] | [40, 20]");
}

TEST(Loops, DropLastTrueHasNoPartialBatch) {
  std::string src = loader_program(", drop_last=True");
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# add"), "broadcast_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.count(Outcome::Warning), 0u);
  EXPECT_EQ(a.shape(line_of(src, "# call"), "x"), "[64, 20]");
}

TEST(Loops, DatasetSmallerThanABatchFailsForCertain) {
  std::string src = loader_program("");
  src.replace(src.find("randn(1000, 20)"), 15, "randn(40, 20)");
  src.replace(src.find("randn(1000)"), 11, "randn(40)");
  Analysed a(src);
  // the only batch is the partial one: it certainly runs, so this is an error
  EXPECT_EQ(a.worst(line_of(src, "# add"), "broadcast_c1"), Outcome::Error) << a.dump();
}

TEST(Loops, EnumerateOverALoaderKeepsBothBatches) {
  const std::string src =
      "import torch\n"
      "from torch.utils.data import DataLoader, TensorDataset\n"
      "ds = TensorDataset(torch.randn(100, 3), torch.randn(100))\n"
      "for step, (xb, yb) in enumerate(DataLoader(ds, batch_size=32)):\n"
      "    z = xb  # batch\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# batch"), "z"), "[32, 3] | [4, 3]");
}

TEST(Loops, WhileLoopReachesAFixedPoint) {
  const std::string src =
      "import torch\n"
      "def f(n):\n"
      "    x = torch.zeros(1, 4)\n"
      "    while n > 0:\n"
      "        x = torch.cat([x, torch.zeros(1, 4)], 0)\n"
      "        n = n - 1\n"
      "    return x @ torch.zeros(4, 2)  # after\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# after"), "matmul_c2"), Outcome::Proven) << a.dump();
}

TEST(Loops, AnIteratorUsedBeforeMayGiveThePartialBatch) {
  // next(it) in a training loop, and the items of a zip of loaders, may be
  // the last batch of 40: proving view(64, 5) there was a false proof;
  // next(iter(loader)) is the first batch, always 64
  const std::string src =
      "import torch\n"
      "from torch.utils.data import DataLoader, TensorDataset\n"
      "ds = TensorDataset(torch.zeros(1000, 5))\n"
      "loader = DataLoader(ds, batch_size=64)\n"
      "(x0,) = next(iter(loader))\n"
      "a = x0.view(64, 5)  # first\n"
      "it = iter(loader)\n"
      "for step in range(100):\n"
      "    (x,) = next(it)\n"
      "    b = x.view(64, 5)  # later\n"
      "for (y,), (z,) in zip(loader, loader):\n"
      "    c = y.view(64, 5)  # zipped\n"
      "full = DataLoader(ds, batch_size=50)\n"
      "it2 = iter(full)\n"
      "(w,) = next(it2)\n"
      "d = w.view(50, 5)  # all full\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# first"), "view_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# later"), "view_c5"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# zipped"), "view_c5"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# all full"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Loops, ADropLastTheAnalysisDoesNotKnowMayKeepThePartialBatch) {
  // drop_last=flag: the last batch of 40 may come; its failure is a warning
  // and a run-time check, never proven away
  const std::string src =
      "import sys\n"
      "import torch\n"
      "from torch.utils.data import DataLoader, TensorDataset\n"
      "ds = TensorDataset(torch.zeros(1000, 5))\n"
      "loader = DataLoader(ds, batch_size=64, drop_last=len(sys.argv) > 1)\n"
      "for (x,) in loader:\n"
      "    b = x.view(64, 5)  # view\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# view"), "view_c5"), Outcome::Warning) << a.dump();
}

TEST(Loops, ADictComprehensionIsAnalysedPerEntry) {
  // an outside tester's report: its values' calls had no obligation at all
  const std::string src =
      "import sys\n"
      "import torch\n"
      "feats = {'a': torch.randn(4, 8), 'b': torch.randn(4, 6)}\n"
      "w = torch.randn(8, 2)\n"
      "out = {k: v @ w for k, v in feats.items()}  # comp\n"
      "y = out['a'].view(8)  # entry\n"
      "n = int(sys.argv[1])\n"
      "some = {i: torch.zeros(i + 1) for i in range(n)}\n"
      "z = some[0].view(1)  # unknown\n";
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# comp"), "matmul_c2"), gradual::Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# entry"), "view_c5"), gradual::Outcome::Proven) << a.dump();
  for (const auto* o : a.at(line_of(src, "# unknown"), "view_c5"))
    EXPECT_NE(o->outcome, gradual::Outcome::Proven) << a.dump();
}

TEST(Loops, ADataLoaderOfSamplesThatMayDifferInShapeIsListed) {
  // the default collate stacks a batch: samples of different lengths fail
  // inside the DataLoader ("stack expects each tensor to be equal size"),
  // which no rule checks; rows of one tensor cannot differ
  const std::string src =
      "import torch\n"
      "from torch.utils.data import Dataset, DataLoader\n"
      "class Ragged(Dataset):\n"
      "    def __len__(self):\n"
      "        return 8\n"
      "    def __getitem__(self, i):\n"
      "        return torch.randn(3 + i % 2)\n"
      "class Rows(Dataset):\n"
      "    def __init__(self):\n"
      "        self.x = torch.randn(8, 3)\n"
      "    def __len__(self):\n"
      "        return 8\n"
      "    def __getitem__(self, i):\n"
      "        return self.x[i], i\n"
      "for b in DataLoader(Ragged(), batch_size=4):\n"
      "    pass\n"
      "for r, i in DataLoader(Rows(), batch_size=4):\n"
      "    pass\n"
      "for b in DataLoader(Ragged(), batch_size=1):\n"
      "    pass\n";
  Analysed a(src);
  const auto& no_rule = a.result().coverage.no_rule;
  auto it = no_rule.find("torch.utils.data.DataLoader collating samples that may differ in shape");
  ASSERT_NE(it, no_rule.end()) << a.dump();
  EXPECT_EQ(it->second, 1) << a.dump();  // the ragged loader of batches of 4 only
}

}  // namespace
}  // namespace gshape::testing
