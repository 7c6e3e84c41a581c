// Any input is survivable: constructs the IR keeps opaque, deep nesting,
// deep call chains, loops that would explode, large generated projects.
// Unknown things never produce an error; budgets keep the time bounded.
#include <chrono>

#include <gtest/gtest.h>

#include "analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

TEST(Robustness, EveryConstructIsSurvivedWithoutFalseErrors) {
  const std::string src =
      "import torch, asyncio\n"
      "from typing import List\n"
      "x: torch.Tensor = torch.zeros(2, 3)\n"
      "match x.dim():\n"
      "    case 2:\n"
      "        y = x\n"
      "    case _:\n"
      "        y = None\n"
      "async def fetch(u):\n"
      "    await asyncio.sleep(0)\n"
      "    async with lock:\n"
      "        pass\n"
      "    return u\n"
      "def gen(n):\n"
      "    for i in range(n):\n"
      "        yield torch.zeros(i)\n"
      "def kw(*args, scale=1, **kwargs):\n"
      "    return torch.zeros(len(args) * scale, kwargs.get('w', 1))\n"
      "z = kw(1, 2, scale=3, w=4)  # kw\n"
      "f = lambda t: t.t()\n"
      "w = f(torch.zeros(2, 5))  # lam\n"
      "if (n := x.size(0)) > 1:\n"
      "    del n\n"
      "try:\n"
      "    q = 1 / 0\n"
      "except ZeroDivisionError as e:\n"
      "    q = 0\n"
      "finally:\n"
      "    r = 2\n"
      "with open('f') as fh:\n"
      "    data = fh.read()\n"
      "s = {k: v for k, v in zip('ab', [1, 2])}\n"
      "t = {1, 2, 3}\n"
      "u = [*range(3), *[4, 5]]\n"
      "v = x[..., None, 1:]  # idx\n"
      "class Outer:\n"
      "    def make(self):\n"
      "        class Inner:\n"
      "            pass\n"
      "        return Inner()\n"
      "def counter():\n"
      "    c = 0\n"
      "    def inc():\n"
      "        nonlocal c\n"
      "        c += 1\n"
      "        return c\n"
      "    return inc\n"
      "print(f'{x.shape} {y!r:>10}', *gen(3), sep='')\n"
      "raise SystemExit(0)\n";
  Analysed a(src);
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
  EXPECT_EQ(a.count(Outcome::Warning), 0u) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# kw"), "z"), "[6, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# lam"), "w"), "[5, 2]");
  EXPECT_EQ(a.shape(line_of(src, "# idx"), "v"), "[2, 1, 2]");
  EXPECT_EQ(a.result().stats.module_failures, 0u);
}

TEST(Robustness, DeepNestingAndLongChains) {
  std::string src = "import torch\nx = torch.zeros(2, 3)\n";
  for (int i = 0; i < 150; ++i) src += std::string(static_cast<std::size_t>(i), ' ') + "if x.dim() > " + std::to_string(i % 3) + ":\n";
  src += std::string(150, ' ') + "y = x @ torch.zeros(3, 1)\n";
  src += "e = x";
  for (int i = 0; i < 300; ++i) src += " + x";
  src += "\n";
  Analysed a(src);
  EXPECT_EQ(a.count(Outcome::Error), 0u);
  EXPECT_GT(a.result().obligations.size(), 0u);
}

TEST(Robustness, DeepCallChainsStopAtTheDepthBudget) {
  std::string src = "import torch\n";
  for (int i = 0; i < 100; ++i)
    src += "def f" + std::to_string(i) + "(x):\n    return f" + std::to_string(i + 1) + "(x) + x\n";
  src += "def f100(x):\n    return x\n";
  src += "y = f0(torch.zeros(2, 3))\n";
  Analysed a(src);
  EXPECT_EQ(a.count(Outcome::Error), 0u);
}

TEST(Robustness, ExplodingLoopsFinishWithinTheBudget) {
  const std::string src =
      "import torch\n"
      "def step(x):\n"
      "    return torch.cat([x, x], 0)[:2] + 1\n"
      "x = torch.zeros(2, 3)\n"
      "for i in range(64):\n"
      "    for j in range(64):\n"
      "        for k in range(64):\n"
      "            x = step(x) + i + j + k\n";
  auto start = std::chrono::steady_clock::now();
  Analysed a(src);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  EXPECT_EQ(a.count(Outcome::Error), 0u);
}

TEST(Robustness, LargeGeneratedModuleIsAnalysedQuickly) {
  std::string src = "import torch\nimport torch.nn as nn\n";
  for (int i = 0; i < 400; ++i) {
    std::string n = std::to_string(i);
    src += "class Block" + n + "(nn.Module):\n"
           "    def __init__(self, d):\n"
           "        super().__init__()\n"
           "        self.fc = nn.Linear(d, d)\n"
           "    def forward(self, x):\n"
           "        h = self.fc(x)\n"
           "        return h.view(h.size(0), -1) + x\n"
           "def run" + n + "():\n"
           "    b = Block" + n + "(" + std::to_string(8 + i % 5) + ")\n"
           "    return b(torch.randn(4, " + std::to_string(8 + i % 5) + "))\n"
           "run" + n + "()\n";
  }
  auto start = std::chrono::steady_clock::now();
  Analysed a(src);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
  EXPECT_GT(a.result().obligations.size(), 400u * 4);
  EXPECT_EQ(a.count(Outcome::Deferred), 0u);  // every size is a constant
}

TEST(Robustness, OneBadModuleDoesNotStopTheOthers) {
  std::map<std::string, std::string> files = {
      {"a.py", "import torch\nz = torch.zeros(2, 3) @ torch.zeros(4, 5)\n"},
      {"b.py", "import torch\ndef f(:\n    pass\n"},  // a syntax error: not a module
      {"c.py", "import torch\nw = torch.zeros(3) @ torch.zeros(4)\n"},
  };
  Analysed a(files);
  EXPECT_EQ(a.worst(2, "matmul_c2", "a.py"), Outcome::Error);
  EXPECT_EQ(a.worst(2, "matmul_c2", "c.py"), Outcome::Error);
}

}  // namespace
}  // namespace gshape::testing
