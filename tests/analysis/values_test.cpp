// The interpreter on straight-line code: symbols from x.shape, view keeping
// them, Linear keeping leading axes, Python int arithmetic on dims, branches
// (pruned by the facts, joined otherwise), asserts as facts, operand slots.
#include <gtest/gtest.h>

#include "analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

TEST(Values, ShapeUnpackingBindsSymbolsAndViewKeepsThem) {
  const std::string src =
      "import torch\n"
      "def f(x):\n"
      "    B, C, H, W = x.shape\n"
      "    y = x.view(B, -1)  # view\n"
      "    z = y.view(B, C, H * W)  # back\n"
      "    return z\n";
  Analysed a(src);
  // the parameter is unknown; unpacking its shape names its four axes
  EXPECT_EQ(a.shape(line_of(src, "# view"), "y"), "[B, C*H*W]");
  EXPECT_EQ(a.shape(line_of(src, "# back"), "z"), "[B, C, H*W]");
  // viewing back to the same number of elements is proven, not deferred
  EXPECT_EQ(a.outcome(line_of(src, "# back"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Values, SizeQueriesOnAnUnknownTensorGiveTheSameSymbol) {
  const std::string src =
      "import torch\n"
      "def f(x):\n"
      "    b = x.size(0)\n"
      "    c = x.shape[0]\n"
      "    y = torch.zeros(b, 4)\n"
      "    return y + torch.zeros(c, 4)  # same\n";
  Analysed a(src);
  // x.size(0) and x.shape[0] are one symbol, so the broadcast is proven
  auto list = a.at(line_of(src, "# same"), "broadcast_c1");
  ASSERT_FALSE(list.empty()) << a.dump();
  for (const auto* ob : list) EXPECT_EQ(ob->outcome, Outcome::Proven) << a.dump();
}

TEST(Values, LinearKeepsLeadingAxesAndAnAssertProvesInFeatures) {
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "fc = nn.Linear(16, 4)\n"
      "def f(x):\n"
      "    B, T, D = x.shape\n"
      "    assert D == 16\n"
      "    y = fc(x)  # fwd\n"
      "    return y\n"
      "def g(x):\n"
      "    B, T, D = x.shape\n"
      "    return fc(x)  # unproven\n";
  Analysed a(src);
  int fwd = line_of(src, "# fwd");
  EXPECT_EQ(a.shape(fwd, "y"), "[B, T, 4]");
  EXPECT_EQ(a.outcome(fwd, "linear_c1"), Outcome::Proven) << a.dump();
  // the note of the proof names the assert
  const auto* ob = a.at(fwd, "linear_c1").front();
  ASSERT_FALSE(ob->ob.core.empty());
  EXPECT_NE(ob->ob.core.front().description.find("assert D == 16"), std::string::npos);
  // without the assert nothing decides it: a run-time check
  EXPECT_EQ(a.outcome(line_of(src, "# unproven"), "linear_c1"), Outcome::Deferred) << a.dump();
}

TEST(Values, IntArithmeticOnDimsAndSequences) {
  const std::string src =
      "import torch\n"
      "n = 4\n"
      "sizes = (2, n * 3)\n"
      "t = torch.zeros(*sizes)  # star\n"
      "u = torch.zeros(sizes[1] // 4, 2 ** 3, max(n, 7) % 5)  # arith\n"
      "v = torch.zeros(len([1, 2, 3]), n - 1)  # len\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# star"), "t"), "[2, 12]");
  EXPECT_EQ(a.shape(line_of(src, "# arith"), "u"), "[3, 8, 2]");
  EXPECT_EQ(a.shape(line_of(src, "# len"), "v"), "[3, 3]");
}

TEST(Values, BranchDecidedByTheFactsRunsOneArm) {
  const std::string src =
      "import torch\n"
      "n = 3\n"
      "if n > 2:\n"
      "    y = torch.zeros(2, 3)\n"
      "else:\n"
      "    y = torch.zeros(3, 3)  # dead\n"
      "z = y @ torch.zeros(3, 4)  # mm\n";
  Analysed a(src);
  EXPECT_TRUE(a.at(line_of(src, "# dead")).empty()) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# mm"), "z"), "[2, 4]");
}

TEST(Values, UndecidedBranchJoinsDifferentSizesIntoASymbol) {
  const std::string src =
      "import torch\n"
      "def f(flag):\n"
      "    if flag:\n"
      "        y = torch.zeros(2, 5)\n"
      "    else:\n"
      "        y = torch.zeros(3, 5)\n"
      "    ok = y @ torch.zeros(5, 1)  # ok\n"
      "    bad = y @ torch.zeros(4, 1)  # bad\n"
      "    return y\n";
  Analysed a(src);
  std::string joined = a.shape(line_of(src, "# ok"), "y");
  ASSERT_FALSE(joined.empty());
  EXPECT_NE(joined, "[2, 5]");
  EXPECT_NE(joined, "[3, 5]");
  EXPECT_EQ(joined.substr(joined.size() - 4), ", 5]") << joined;
  EXPECT_EQ(a.outcome(line_of(src, "# ok"), "matmul_c2"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# bad"), "matmul_c2"), Outcome::Error) << a.dump();
}

TEST(Values, JoinUnderAKnownConditionKeepsTheExactTerm) {
  const std::string src =
      "import torch\n"
      "def f(x):\n"
      "    n = x.size(0)\n"
      "    if n > 8:\n"
      "        k = n\n"
      "    else:\n"
      "        k = 8\n"
      "    y = torch.zeros(k, 2)  # join\n"
      "    assert n == 10\n"
      "    return y @ torch.zeros(2, 3) + torch.zeros(10, 3)  # exact\n";
  Analysed a(src);
  std::string joined = a.shape(line_of(src, "# join"), "y");
  EXPECT_NE(joined.find(" if "), std::string::npos) << joined;
  // with n == 10 the If term is 10: the broadcast against 10 is proven
  auto list = a.at(line_of(src, "# exact"), "broadcast_c1");
  ASSERT_FALSE(list.empty()) << a.dump();
  for (const auto* ob : list) EXPECT_EQ(ob->outcome, Outcome::Proven) << a.dump();
}

TEST(Values, BranchConditionIsAFactInsideItsArm) {
  const std::string src =
      "import torch\n"
      "def f(x):\n"
      "    B, D = x.shape\n"
      "    if D == 7:\n"
      "        return x @ torch.zeros(7, 2)  # inside\n"
      "    return x @ torch.zeros(7, 2)  # outside\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# inside"), "matmul_c2"), Outcome::Proven) << a.dump();
  // after the branch the condition is known false there: D != 7
  EXPECT_EQ(a.outcome(line_of(src, "# outside"), "matmul_c2"), Outcome::Error) << a.dump();
}

TEST(Values, KnownLastAxesOfAnUnknownRankProveLaterChecks) {
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "import torch.nn.functional as F\n"
      "emb = nn.Embedding(100, 32)\n"
      "norm = nn.LayerNorm(32)\n"
      "small = nn.Linear(16, 4)\n"
      "def g(x):\n"
      "    y = small(x)  # lin\n"
      "    b = y + torch.zeros(4)  # add\n"
      "    c = y @ torch.zeros(4, 7)  # mm\n"
      "    v = y @ torch.zeros(4)  # mv\n"
      "    f = F.linear(x, torch.zeros(6, 16))  # flinear\n"
      "    e = F.linear(x, torch.zeros(6, 9))  # flinear9\n"
      "    return y + torch.zeros(5)  # badadd\n"
      "def f(tokens, flag):\n"
      "    h = F.relu(emb(tokens))  # embed\n"
      "    n = norm(h)  # norm\n"
      "    z = torch.zeros(h.shape[-1], h.size(-1))  # sizes\n"
      "    if flag:\n"
      "        h = torch.zeros(5, 32)\n"
      "    k = h  # joined\n"
      "    return small(n)  # wrong\n";
  Analysed a(src);
  // indices of unknown rank: the result's rank is unknown, its last axis is not
  EXPECT_EQ(a.shape(line_of(src, "# embed"), "h"), "[*, 32]");
  EXPECT_EQ(a.shape(line_of(src, "# lin"), "y"), "[*, 4]") << "nn.Linear on an input of unknown rank";
  // broadcasting and matmul check and keep the known last axes
  EXPECT_EQ(a.shape(line_of(src, "# add"), "b"), "[*, 4]");
  EXPECT_EQ(a.outcome(line_of(src, "# add"), "broadcast_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# mm"), "c"), "[*, 7]");
  EXPECT_EQ(a.outcome(line_of(src, "# mm"), "matmul_c2"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# mv"), "v"), "[*]");
  EXPECT_EQ(a.shape(line_of(src, "# flinear"), "f"), "[*, 6]");
  // `small(x)` checked x.size(-1) == 16 on this path: the same size of the
  // same x is 16 for every later rule, which proves one linear and refutes
  // the other
  EXPECT_EQ(a.outcome(line_of(src, "# flinear"), "linear_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# flinear9"), "linear_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# badadd"), "broadcast_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# norm"), "layer_norm_c3"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# sizes"), "z"), "[32, 32]");
  EXPECT_EQ(a.shape(line_of(src, "# joined"), "k"), "[*, 32]") << "a join keeps the last axes both arms know";
  // and a layer that cannot take 32 features is certainly wrong
  EXPECT_EQ(a.outcome(line_of(src, "# wrong"), "linear_c1"), Outcome::Error) << a.dump();
}

TEST(Values, ACheckThatFixesTheRankGivesTheVariableThatRank) {
  // Rearrange's check makes img 4-d at its line (proven, or checked there at
  // run time): afterwards img has four axes, the first the size already read
  const std::string src =
      "from einops.layers.torch import Rearrange\n"
      "from einops import rearrange\n"
      "to_patches = Rearrange('b c h w -> b (h w) c')\n"
      "def f(img, arr):\n"
      "    batch = img.shape[0]\n"
      "    p = to_patches(img)  # patches\n"
      "    s = img  # s\n"
      "    y = img.sum(dim=3)  # sum3\n"
      "    z = img.sum(dim=4)  # sum4\n"
      "    q = rearrange(arr, 'b c -> c b')\n"
      "    u = arr.sum(dim=2)  # arrsum\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# patches"), "einops_c2"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# s"), "s"), "[img.size(0), img.size(1), img.size(2), img.size(3)]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# patches"), "p"), "[img.size(0), img.size(2)*img.size(3), img.size(1)]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# sum3"), "sum_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# sum4"), "sum_c1"), Outcome::Error) << a.dump();
  // einops' functions take numpy arrays too: `arr` is not made a tensor, and
  // nothing about a method of it is certain
  EXPECT_EQ(a.outcome(line_of(src, "# arrsum"), "sum_c1"), Outcome::Deferred) << a.dump();
}

TEST(Values, ChunksOfAKnownLastAxisKeepIt) {
  // `self.to_qkv(x).chunk(3, dim=-1)` with x of unknown rank: the pieces
  // are `[*, 128]`, as chunk gives for any rank
  const std::string src =
      "import torch.nn as nn\n"
      "lin = nn.Linear(16, 384)\n"
      "def f(x):\n"
      "    q, k, v = lin(x).chunk(3, dim=-1)  # qkv\n"
      "    p = lin(x).chunk(5, -1)\n"
      "    fourth = p[3]  # fourth\n"
      "    last = p[4]  # last\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# qkv"), "k"), "[*, 128]") << a.dump();
  // 384 in 5 chunks: four of 77 and one of 76
  EXPECT_EQ(a.shape(line_of(src, "# fourth"), "fourth"), "[*, 77]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# last"), "last"), "[*, 76]") << a.dump();
}

TEST(Values, UnpackingAStarredShapeFixesTheRank) {
  // `b, n, _, h = *x.shape, heads` fails unless x has three axes
  const std::string src =
      "def f(x, heads):\n"
      "    first = x.shape[0]\n"
      "    b, n, _, h = *x.shape, heads\n"
      "    s = x  # s\n"
      "    y = x.sum(dim=2)  # sum2\n"
      "    z = x.sum(dim=3)  # sum3\n"
      "    v = x.view(first, n, -1)  # view\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# s"), "s"), "[x.size(0), n, x.size(2)]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# sum2"), "sum_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# sum3"), "sum_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# view"), "v"), "[x.size(0), n, x.size(2)]") << a.dump();
}

TEST(Values, ACheckedObligationIsAssumedAfterwards) {
  const std::string src =
      "import torch\n"
      "def f(x, w):\n"
      "    B, N = x.shape\n"
      "    M, K = w.shape\n"
      "    y = x @ w  # first\n"
      "    return x @ w  # again\n";
  Analysed a(src);
  // N == M is unknown: the first check is deferred; the run-time check makes
  // it a fact, so the same requirement later is proven
  EXPECT_EQ(a.outcome(line_of(src, "# first"), "matmul_c2"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# again"), "matmul_c2"), Outcome::Proven) << a.dump();
}

TEST(Values, OperandSlotsCarryTheirExpressionRanges) {
  const std::string src =
      "import torch\n"
      "def f(a, b):\n"
      "    B, N = a.shape\n"
      "    M, K = b.shape\n"
      "    return a @ b  # mm\n";
  Analysed a(src);
  auto list = a.at(line_of(src, "# mm"), "matmul_c2");
  ASSERT_EQ(list.size(), 1u) << a.dump();
  const gradual::Obligation& ob = list.front()->ob;
  ASSERT_EQ(ob.slots.size(), 2u);
  const std::string& text = ob.loc.file->text();
  for (const gradual::SlotInfo& s : ob.slots) {
    ASSERT_TRUE(s.loc.valid());
    std::string operand = text.substr(s.loc.begin, s.loc.end - s.loc.begin);
    EXPECT_EQ(operand, s.slot == 0 ? "a" : "b");
  }
  EXPECT_EQ(list.front()->outcome, Outcome::Deferred);
  EXPECT_TRUE(ob.runtime_checkable());
}

TEST(Values, ReceiverAndListElementsGetSlotsInSourceOrder) {
  const std::string src =
      "import torch\n"
      "def f(x, y):\n"
      "    z = torch.cat([x, y], dim=1)  # cat\n"
      "    return z.view(2, -1)  # view\n";
  Analysed a(src);
  for (const auto* ob : a.at(line_of(src, "# cat"))) {
    const std::string& text = ob->ob.loc.file->text();
    for (const gradual::SlotInfo& s : ob->ob.slots) {
      std::string operand = text.substr(s.loc.begin, s.loc.end - s.loc.begin);
      const char* expected[] = {"[x, y]", "x", "y", "1"};
      ASSERT_GE(s.slot, 0);
      ASSERT_LT(s.slot, 4);
      EXPECT_EQ(operand, expected[s.slot]);
    }
  }
  for (const auto* ob : a.at(line_of(src, "# view"))) {
    const std::string& text = ob->ob.loc.file->text();
    for (const gradual::SlotInfo& s : ob->ob.slots) {
      if (s.slot == 0) {
        EXPECT_EQ(text.substr(s.loc.begin, s.loc.end - s.loc.begin), "z");
      }
    }
  }
}

TEST(Values, ErrorsCarryNotesAboutWhereShapesCameFrom) {
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "fc = nn.Linear(80, 10)  # made\n"
      "x = torch.randn(64, 120)  # input\n"
      "y = fc(x)  # call\n";
  Analysed a(src);
  int call = line_of(src, "# call");
  ASSERT_EQ(a.outcome(call, "linear_c1"), Outcome::Error) << a.dump();
  auto diags = gradual::diagnostics_of(a.result());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].tag, "linear_c1");
  EXPECT_EQ(diags[0].message, "nn.Linear(80, 10) expects in_features 80 but the input's last dimension is 120");
  bool shape_note = false, module_note = false;
  for (const DiagnosticNote& n : diags[0].notes) {
    if (n.message == "x has shape [64, 120] from here" && static_cast<int>(n.loc.line) == line_of(src, "# input"))
      shape_note = true;
    if (n.message.find("fc (nn.Linear)") == 0 && static_cast<int>(n.loc.line) == line_of(src, "# made")) module_note = true;
  }
  EXPECT_TRUE(shape_note);
  EXPECT_TRUE(module_note);
}

TEST(Values, NoCascadeAfterARefutedCall) {
  const std::string src =
      "import torch\n"
      "a = torch.zeros(2, 3)\n"
      "b = a @ torch.zeros(4, 5)  # bad\n"
      "c = b @ torch.zeros(9, 9)  # after\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# bad"), "matmul_c2"), Outcome::Error);
  for (const auto* ob : a.at(line_of(src, "# after"))) EXPECT_NE(ob->outcome, Outcome::Error) << a.dump();
}

}  // namespace
}  // namespace gshape::testing

namespace gshape::testing {
namespace {

// Issue 8, item 5: `n or 5` with n unknown is n or 5, never 5 alone (a
// false "proven" and, for n = 7, a false error on a program that runs).
TEST(Values, OrAndAndChooseBetweenTheirOperands) {
  const std::string src =
      "import torch\n"
      "def f(n):\n"
      "    k = n or 5\n"
      "    return torch.zeros(k, 3) + torch.zeros(5, 3)  # unknown\n"
      "def g(x):\n"
      "    m = x.size(0)\n"
      "    k = m or 5\n"
      "    return torch.zeros(k) + torch.zeros(5)  # symbolic\n"
      "def h():\n"
      "    k = 0 or 5\n"
      "    j = 7 or 5\n"
      "    return torch.zeros(k) + torch.zeros(5), torch.zeros(j) + torch.zeros(5)  # constants\n"
      "h()\n";
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# unknown"), "broadcast_c1"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# symbolic"), "broadcast_c1"), Outcome::Deferred) << a.dump();
  // all constants: 0 or 5 is 5 (proven), 7 or 5 is 7 (refuted)
  EXPECT_EQ(a.worst(line_of(src, "# constants"), "broadcast_c1"), Outcome::Error) << a.dump();
  bool proven_first = false;
  for (const auto* ob : a.at(line_of(src, "# constants"), "broadcast_c1"))
    proven_first = proven_first || (ob->outcome == Outcome::Proven && ob->ob.loc.column < 20);
  EXPECT_TRUE(proven_first) << a.dump();
}

}  // namespace
}  // namespace gshape::testing

namespace gshape::testing {
namespace {

// Issue 8, item 3: an operand of unknown rank (a tensor decoded from JSON)
// may give no obligation at all; the site is still checked at run time,
// and the coverage says so.
TEST(Values, AnOperandOfUnknownRankKeepsTheRunTimeCheck) {
  const std::string src =
      "import json\n"
      "import torch\n"
      "def f(text):\n"
      "    t = torch.tensor(json.loads(text))\n"
      "    return t + torch.zeros(3, 4)  # site\n";
  Analysed a(src);
  int line = line_of(src, "# site");
  const gradual::SiteSummary* site = nullptr;
  for (const gradual::SiteSummary& s : a.result().sites)
    if (static_cast<int>(s.loc.line) == line && s.loc.column == 12) site = &s;  // the `+`
  ASSERT_NE(site, nullptr) << a.dump();
  EXPECT_TRUE(site->unknown_rank);
  EXPECT_TRUE(site->needs_check());
  EXPECT_GE(a.result().coverage.unknown_ranks + a.result().coverage.unknown_operands, 1);
}

// isinstance is decided for values of known kind (vit-pytorch's pair()):
// the sizes survive the helper instead of becoming fresh symbols.
TEST(Values, IsinstanceOfAKnownKindIsDecided) {
  const std::string src =
      "import torch\n"
      "def pair(t):\n"
      "    return t if isinstance(t, tuple) else (t, t)\n"
      "h, w = pair(32)\n"
      "ph, pw = pair((8, 4))\n"
      "s = torch.zeros(2).shape\n"
      "a = isinstance(s, (list, tuple))\n"
      "b = isinstance(3, (list, str))\n"
      "y = torch.zeros(h // ph, w // pw)  # y\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# y"), "y"), "[4, 8]");
  EXPECT_EQ(a.shape(line_of(src, "# y"), "torch.zeros(h // ph, w // pw)"), "[4, 8]");
}

// A flag that changes no shape (bias=) keeps the module when it is unknown.
TEST(Values, AModuleWithAnUnknownBiasFlagIsKept) {
  const std::string src =
      "import sys\n"
      "import torch\n"
      "from torch import nn\n"
      "flag = len(sys.argv) > 3\n"
      "m = nn.Linear(4, 5, bias=flag)\n"
      "c = nn.Conv2d(3, 8, 3, bias=flag)\n"
      "y = m(torch.randn(2, 4))  # y\n"
      "z = c(torch.randn(1, 3, 8, 8))  # z\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# y"), "y"), "[2, 5]");
  EXPECT_EQ(a.shape(line_of(src, "# z"), "z"), "[1, 8, 6, 6]");
  EXPECT_EQ(a.count(Outcome::Deferred), 0u) << a.dump();
}

// Convolutions and pools of an input of unknown rank still know the
// channel and spatial axes they compute (item 7 of issue 9).
TEST(Values, ConvAndPoolKeepTheAxesTheyKnowOfAnInputOfUnknownRank) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "def f(x):\n"
      "    y = nn.Conv2d(3, 8, 3)(x)  # conv\n"
      "    z = nn.MaxPool2d(2)(y)  # pool\n"
      "    w = nn.AdaptiveAvgPool2d((4, 4))(x)  # adaptive\n"
      "    return nn.Linear(4, 2)(w)  # linear\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# conv"), "y"), "[*, 8, x.size(-2) - 2, x.size(-1) - 2]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# pool"), "z"), "[*, 8, (x.size(-2) - 4)//2 + 1, (x.size(-1) - 4)//2 + 1]");
  EXPECT_EQ(a.shape(line_of(src, "# adaptive"), "w"), "[*, 4, 4]");
  // the last axis is known: the Linear after it is proven
  EXPECT_EQ(a.outcome(line_of(src, "# linear"), "linear_c1"), Outcome::Proven) << a.dump();
}

// A LayerNorm of an input of unknown rank ends in its normalized shape, so
// the Linear after it is proven (vit-pytorch's `nn.LayerNorm(dim)` then
// `nn.Linear(dim, ...)` in functions nobody calls).
TEST(Values, LayerNormOfAnInputOfUnknownRankEndsInItsNormalizedShape) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "def f(x, dim):\n"
      "    y = nn.LayerNorm(dim)(x)  # norm\n"
      "    return nn.Linear(dim, 2 * dim)(y)  # linear\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# norm"), "y"), "[*, dim]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# linear"), "linear_c1"), Outcome::Proven) << a.dump();
}


// vit-pytorch's `ff(x) + x` in functions nobody calls: once nn.Linear(dim, dim)
// accepted x, x is a tensor (of unknown rank) whose last axis is dim, so the
// residual sum ends in dim too, whichever side x is on.
TEST(Values, AResidualSumOfAnInputOfUnknownRankKeepsTheLastAxis) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "def f(x, dim):\n"
      "    net = nn.Linear(dim, dim)\n"
      "    y = net(x) + x  # right\n"
      "    z = x + net(x)  # left\n"
      "    return nn.Linear(dim, 3)(z)  # after\n"
      "def g(x, dim):\n"
      "    y = nn.Identity()(x)\n"
      "    return x + y  # identity\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# right"), "y"), "[*, dim]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# left"), "z"), "[*, dim]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# after"), "linear_c1"), Outcome::Proven) << a.dump();
  // nn.Identity takes anything: x is not known to be a tensor after it
  EXPECT_EQ(a.shape(line_of(src, "# identity"), "x"), "") << a.dump();
}

TEST(Values, AssigningIntoASliceChecksTheValueAgainstTheSlicesShape) {
  const std::string src =
      "import math\n"
      "import torch\n"
      "pe = torch.zeros(50, 16)\n"
      "pe[:, 0::2] = torch.ones(50, 16)  # too wide\n"
      "pe[:, 1::2] = torch.ones(50, 8)  # fits\n"
      "pe[3] = torch.ones(1, 16)  # leading one\n"
      "pe[3] = torch.ones(2, 16)  # leading two\n"
      "pe[60] = 1.0  # out of range\n"
      "pe[:, -4:] = torch.ones(4)  # broadcast\n"
      "def f(d_model, max_len):\n"
      "    pe = torch.zeros(max_len, d_model)\n"
      "    position = torch.arange(0, max_len).unsqueeze(1)\n"
      "    div_term = torch.exp(torch.arange(0, d_model, 2).float())\n"
      "    pe[:, 0::2] = torch.sin(position * div_term)  # symbolic\n"
      "    pe[:, 1::2] = torch.ones(max_len, d_model)  # only at one\n"
      "    return pe\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# too wide"), "setitem_c4"), Outcome::Error) << a.dump();
  for (const auto* ob : a.at(line_of(src, "# fits"), "setitem_c4")) EXPECT_EQ(ob->outcome, Outcome::Proven) << a.dump();
  EXPECT_FALSE(a.at(line_of(src, "# fits"), "setitem_c4").empty()) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# leading one"), "setitem_c3"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# leading two"), "setitem_c3"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# out of range"), "setitem_c2"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# broadcast"), "setitem_c4"), Outcome::Proven) << a.dump();
  // the slice of every other column is as long as arange(0, d_model, 2)
  EXPECT_EQ(a.worst(line_of(src, "# symbolic"), "setitem_c4"), Outcome::Proven) << a.dump();
  // a full-width value fits every other column only when d_model is 0 or 1
  EXPECT_EQ(a.worst(line_of(src, "# only at one"), "setitem_c4"), Outcome::Deferred) << a.dump();
}

TEST(Values, IndexingATorchSizePastItsLengthIsAnError) {
  const std::string src =
      "import torch\n"
      "x = torch.zeros(2, 3, 4, 5)\n"
      "a = x.shape[3]  # last\n"
      "b = x.shape[4]  # past\n"
      "c = x.size()[-5]  # before\n"
      "def f(y):\n"
      "    return y.shape[4]  # unknown rank\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# last"), "getitem_c3"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# past"), "getitem_c3"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# before"), "getitem_c3"), Outcome::Error) << a.dump();
  // y's rank is not known: nothing is stated, the site is checked at run time
  EXPECT_TRUE(a.at(line_of(src, "# unknown rank"), "getitem_c3").empty()) << a.dump();
  bool checked = false;
  for (const auto& site : a.result().sites)
    if (static_cast<int>(site.loc.line) == line_of(src, "# unknown rank") && site.needs_check()) checked = true;
  EXPECT_TRUE(checked);
}

TEST(Values, ChunksOfASymbolicAxisAreEqualOnlyWhenTheCountDividesIt) {
  // 8 in 3 chunks is 3, 3, 2: the pieces of an axis the count may not
  // divide are not one shape (a + c fails at run time), so nothing is proven
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "def f(n):\n"
      "    a, b, c = torch.zeros(2, n).chunk(3, dim=-1)\n"
      "    return a + c  # maybe unequal\n"
      "def g(n):\n"
      "    y = nn.Linear(n, 3 * n)(torch.zeros(4, n))\n"
      "    q, k, v = y.chunk(3, dim=-1)  # thirds\n"
      "    return q + v  # equal\n";
  Analysed a(src);
  for (const auto* ob : a.at(line_of(src, "# maybe unequal"), "broadcast_c1"))
    EXPECT_NE(ob->outcome, Outcome::Proven) << a.dump();
  bool checked = false;
  for (const auto& site : a.result().sites)
    if (static_cast<int>(site.loc.line) == line_of(src, "# maybe unequal") && site.needs_check()) checked = true;
  EXPECT_TRUE(checked);
  EXPECT_EQ(a.shape(line_of(src, "# thirds"), "q"), "[4, n]");
  EXPECT_EQ(a.shape(line_of(src, "# thirds"), "v"), "[4, n]");
  EXPECT_EQ(a.worst(line_of(src, "# equal"), "broadcast_c1"), Outcome::Proven) << a.dump();
}

TEST(Values, TwoItemsOfAListOfUnknownLengthDoNotShareTheirSizes) {
  // one element stands for every item of `[zeros(i + 2) for i in range(n)]`;
  // l[0] is [2] and l[1] is [3], so l[0] + l[1] must not be proven
  const std::string src =
      "import torch\n"
      "def f(n):\n"
      "    l = [torch.zeros(i + 2) for i in range(n)]\n"
      "    s = l[0] + l[1]  # indexed\n"
      "    a, b = l[:2]\n"
      "    t = a + b  # unpacked\n"
      "def g(x, n):\n"
      "    pieces = torch.zeros(n, 4).unbind(0)\n"
      "    u = pieces[0] + pieces[1]  # unbind\n";
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# indexed"), "broadcast_c1"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# unpacked"), "broadcast_c1"), Outcome::Deferred) << a.dump();
  // unbind's slices are all one shape
  EXPECT_EQ(a.worst(line_of(src, "# unbind"), "broadcast_c1"), Outcome::Proven) << a.dump();
}

TEST(Values, UnpackingTensorsIntoTheWrongNumberOfNamesIsChecked) {
  // 4 in 3 chunks is 2 pieces: `a, b, c = ...` raises a ValueError
  const std::string src =
      "import torch\n"
      "y = torch.zeros(2, 4)\n"
      "a, b, c = y.chunk(3, dim=-1)  # two pieces\n"
      "h, w = torch.zeros(2, 5)  # rows\n"
      "m, n = 3, 4  # numbers\n"
      "def f(n):\n"
      "    q, k, v = torch.zeros(2, n).chunk(3, dim=-1)  # symbolic\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# two pieces"), "unpack_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# rows"), "unpack_c1"), Outcome::Proven) << a.dump();
  EXPECT_TRUE(a.at(line_of(src, "# numbers"), "unpack_c1").empty()) << a.dump();  // Python's own values
  EXPECT_EQ(a.outcome(line_of(src, "# symbolic"), "unpack_c1"), Outcome::Deferred) << a.dump();
}

TEST(Values, ForTargetsUnpackEveryItemOfTheIterable) {
  // the rows of [5, 4] hold 4 values: `for a, b, c in boxes` raises a ValueError
  // (one function per case: a certain error ends the path)
  const std::string src =
      "import torch\n"
      "def rows_of_four():\n"
      "    for x0, y0, x1 in torch.zeros(5, 4):  # rows of 4\n"
      "        pass\n"
      "def rows():\n"
      "    for x0, y0, x1, y1 in torch.zeros(5, 4):  # rows fit\n"
      "        pass\n"
      "def pieces():\n"
      "    for a, b in [torch.zeros(2), torch.zeros(3)]:  # list\n"
      "        pass\n"
      "def numbers():\n"
      "    for i, j in [(1, 2), (3, 4)]:  # numbers\n"
      "        pass\n"
      "def no_rows():\n"
      "    for a, b in torch.zeros(0):  # no rows\n"
      "        pass\n"
      "def f(n):\n"
      "    for q, k in torch.zeros(3, n):  # symbolic\n"
      "        pass\n"
      "rows_of_four(); rows(); pieces(); numbers(); no_rows()\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# rows of 4"), "iter_unpack_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# rows fit"), "iter_unpack_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# list"), "iter_unpack_c1"), Outcome::Error) << a.dump();
  EXPECT_TRUE(a.at(line_of(src, "# numbers"), "iter_unpack_c1").empty()) << a.dump();  // Python's own values
  EXPECT_EQ(a.outcome(line_of(src, "# no rows"), "iter_unpack_c3"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# symbolic"), "iter_unpack_c1"), Outcome::Deferred) << a.dump();
}

TEST(Values, ATensorsTruthAndScalarNeedExactlyOneElement) {
  // bool(), float(), int(), .item() of a tensor of several elements raise
  // (one function per case: a certain error ends the path)
  const std::string src =
      "import torch\n"
      "v = torch.zeros(3)\n"
      "def test_if():\n"
      "    if v > 0:  # if\n"
      "        pass\n"
      "def test_reduced():\n"
      "    if v.sum() > 0:  # reduced\n"
      "        pass\n"
      "def test_item():\n"
      "    return v.item()  # item\n"
      "def test_element():\n"
      "    return float(v[0])  # element\n"
      "def test_ternary():\n"
      "    return 1 if v else 2  # ternary\n"
      "def test_not():\n"
      "    return not v  # not\n"
      "def test_any():\n"
      "    assert v.any()  # any\n"
      "def test_int():\n"
      "    return int(v)  # int\n"
      "test_if(); test_reduced(); test_item(); test_element(); test_ternary(); test_not(); test_any(); test_int()\n"
      "import sys\n"
      "while torch.zeros(len(sys.argv)) > 0:  # symbolic\n"
      "    pass\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# if"), "truth_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# reduced"), "truth_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# item"), "item_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# element"), "item_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# ternary"), "truth_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# not"), "truth_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# any"), "truth_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# int"), "item_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# symbolic"), "truth_c1"), Outcome::Deferred) << a.dump();
}

TEST(Values, PythonsSumOfTensorsBroadcastsThem) {
  // sum([t1, t2, t3]) is 0 + t1 + t2 + t3 (an outside tester's unchecked crash)
  const std::string src =
      "import torch\n"
      "def bad():\n"
      "    return sum([torch.zeros(2, 3), torch.zeros(2, 4)])  # bad\n"
      "def good():\n"
      "    return sum([torch.zeros(2, 3), torch.zeros(1, 3)])  # good\n"
      "bad(); good()\n"
      "n = sum([1, 2, 3])  # numbers\n";
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# bad"), "broadcast_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# good"), "broadcast_c1"), Outcome::Proven) << a.dump();
  EXPECT_TRUE(a.at(line_of(src, "# numbers"), "broadcast_c1").empty()) << a.dump();
}

TEST(Values, TypeWithADtypeConvertsAndWithoutOneNamesTheType) {
  // vit-pytorch's posemb helpers end with `return pe.type(dtype)`
  const std::string src =
      "import torch\n"
      "x = torch.zeros(3, 4)\n"
      "y = x.type(torch.float16)  # convert\n"
      "s = x.type()  # name\n"
      "z = y @ torch.zeros(5, 2)  # mm\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# convert"), "y"), "[3, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# name"), "s"), "");  // a string, not a tensor
  EXPECT_EQ(a.outcome(line_of(src, "# mm"), "matmul_c2"), Outcome::Error) << a.dump();
}

TEST(Values, RoundAndIsTensorAreDecidedForKnownKinds) {
  // vit-pytorch: `round(p * n_freqs)` sizes a tensor; `if is_tensor(x):` picks a branch
  const std::string src =
      "import torch\n"
      "from torch import is_tensor\n"
      "def f(x, p, n):\n"
      "    k = round(p * n)\n"
      "    z = torch.zeros(k, 2)  # fresh\n"
      "    y = x.split((1, 3), dim=0) if is_tensor(x) else x\n"
      "    return torch.cat(y, dim=0)\n"
      "a = round(2.5)\n"
      "b = round(3.5)\n"
      "t = torch.zeros(a, b)  # banker\n"
      "c = f(torch.zeros(4, 2), 0.5, 8)  # cat\n"
      "d = f([torch.zeros(1, 2), torch.zeros(3, 2)], 0.25, 8)  # list\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# banker"), "t"), "[2, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# cat"), "c"), "[4, 2]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# list"), "d"), "[4, 2]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# fresh"), "z"), "[4, 2] | [2, 2]") << a.dump();
}

TEST(Values, ABuiltinGivenStarredKnownItemsGetsThemAsArguments) {
  // pytorch-cifar's EfficientNet: `for expansion, out_channels, ... in zip(*cfg)`
  const std::string src =
      "import torch\n"
      "cfg = [[1, 6], [16, 24]]\n"
      "layers = []\n"
      "for expansion, out in zip(*cfg):\n"
      "    layers.append(torch.zeros(expansion, out))\n"
      "a = layers[1]  # second\n"
      "m = max(*[3, 7, 5])\n"
      "b = torch.zeros(m)  # max\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# second"), "a"), "[6, 24]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# max"), "b"), "[7]") << a.dump();
}

TEST(Values, PartialCallsItsFunctionWithItsArgumentsFirst) {
  // vit-pytorch: `list(map(partial(cast_tuple, length = n), hyper))`
  const std::string src =
      "import torch\n"
      "from functools import partial\n"
      "def make(a, b, c=1):\n"
      "    return torch.zeros(a, b, c)\n"
      "f = partial(make, 2, c=5)\n"
      "x = f(3)  # partial\n"
      "y = f(3, c=7)  # override\n"
      "arange = partial(torch.arange, dtype=torch.long)\n"
      "z = arange(6)  # library\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# partial"), "x"), "[2, 3, 5]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# override"), "y"), "[2, 3, 7]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# library"), "z"), "[6]") << a.dump();
}

TEST(Values, AnUnknownItemUnpackedIntoANameIsOneSizeInItsUses) {
  // each use of `d` as a size is the same size: the grouped conv is proven
  const std::string src =
      "import torch.nn as nn\n"
      "def build(dims, heads):\n"
      "    for d, h in zip(dims, heads):\n"
      "        nn.Conv2d(d, d, 3, groups=d)  # conv\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# conv"), "nn_conv2d_c2"), Outcome::Proven) << a.dump();
}

TEST(Values, IndexingByOneListOfIntsGivesTheListsLengthWhereItStands) {
  // nanoGPT: `self.lm_head(x[:, [-1], :])`; the shapes are PyTorch 1.13's
  // (150 random indices of this kind agreed with it when this was written):
  // an int beside the list selects first, so the list's axis never moves
  const std::string src =
      "import torch\n"
      "x = torch.zeros(5, 3, 4, 6)\n"
      "a = x[:, [-1], :]  # last\n"
      "b = x[0, :, [1, 2]]  # int apart\n"
      "c = x[[0, 1], :, 0]  # list first\n"
      "d = x[..., [0, 1, 1]]  # ellipsis\n"
      "e = x[None, [1]]  # new axis\n"
      "f = x[[True, False, True, True, False]]  # mask\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# last"), "a"), "[5, 1, 4, 6]");
  EXPECT_EQ(a.shape(line_of(src, "# int apart"), "b"), "[3, 2, 6]");
  EXPECT_EQ(a.shape(line_of(src, "# list first"), "c"), "[2, 3, 6]");
  EXPECT_EQ(a.shape(line_of(src, "# ellipsis"), "d"), "[5, 3, 4, 3]");
  EXPECT_EQ(a.shape(line_of(src, "# new axis"), "e"), "[1, 1, 3, 4, 6]");
  // a list of bools is a mask: its count of true elements is data
  EXPECT_EQ(a.shape(line_of(src, "# mask"), "f"), "[mask_count, 3, 4, 6]");
}

TEST(Values, StringsStayStringsAndTheirCharactersMakeAListOfInts) {
  // minGPT's adder: render = f'%0{n}d' % a + ... ; dix = [int(s) for s in render]
  const std::string src =
      "import torch\n"
      "def encode(a, n):\n"
      "    astr = f'%0{n}d' % a\n"
      "    cstr = (f'%0{n + 1}d' % a)[::-1]\n"
      "    dix = [int(s) for s in astr + cstr]\n"
      "    return torch.tensor(dix[:-1], dtype=torch.long)\n"
      "x = encode(None, 2)  # digits\n"
      "y = torch.zeros(int(2.7), int('3'))  # ints\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# digits"), "x"), "[len]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# ints"), "y"), "[2, 3]") << a.dump();
}

}  // namespace
}  // namespace gshape::testing

namespace gshape::testing {
namespace {

TEST(Values, SortedConstantsKeepEachTheirOwnValue) {
  // all items of sorted([32, 8, 16]) were one size, `item`: layers[1] on
  // [2, 8] was proven, Linear(16, 16) on [2, 16] an error (an outside tester's)
  const std::string src =
      "import torch, torch.nn as nn\n"
      "dims = sorted([32, 8, 16])\n"
      "layers = [nn.Linear(d, d) for d in dims]\n"
      "x = torch.randn(2, 8)\n"
      "a = layers[0](x)  # first\n"
      "b = layers[1](x)  # second\n"
      "c = layers[2](torch.randn(2, 32))  # third\n"
      "r = sorted([3, 1, 2], reverse=True)\n"
      "z = torch.zeros(r[0], r[2]).view(3)  # reverse\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# first"), "linear_c1"), gradual::Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# second"), "linear_c1"), gradual::Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# third"), "linear_c1"), gradual::Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# reverse"), "view_c5"), gradual::Outcome::Proven) << a.dump();
}

TEST(Values, APopTakesThatItem) {
  // an outside tester's report: every U-Net decoder with three levels or
  // more was refuted (popped items shared one symbol, so the sizes learnt
  // from one pop were applied to the next)
  const std::string src =
      "import sys\n"
      "import torch\n"
      "skips = []\n"
      "x = torch.zeros(1, 4, 32, 32)\n"
      "for _ in range(3):\n"
      "    skips.append(x)\n"
      "    x = x[:, :, ::2, ::2]\n"
      "a = skips.pop()  # last\n"
      "b = skips.pop(0)  # first\n"
      "n = int(sys.argv[1])\n"
      "many = [torch.zeros(1, 4, 2 ** i, 2 ** i) for i in range(n)]\n"
      "p = many.pop()\n"
      "q = many.pop()\n"
      "y = torch.cat([torch.zeros(1, 4, 8, 8), p], 1)\n"
      "z = torch.cat([torch.zeros(1, 4, 16, 16), q], 1)  # unknown items\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# last"), "a"), "[1, 4, 8, 8]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# first"), "b"), "[1, 4, 32, 32]") << a.dump();
  for (const auto* o : a.at(line_of(src, "# unknown items"), "cat_c5"))
    EXPECT_NE(o->outcome, gradual::Outcome::Error) << a.dump();
}

TEST(Values, InsertReverseAndClearOfAKnownListKeepItKnown) {
  // a U-Net collecting its skips with insert(0, x) lost every size (and its
  // loop's silent passes were reported as "unknown because of the error" of
  // a check that reported none; an outside tester's report)
  const std::string src =
      "import torch\n"
      "skips = []\n"
      "x = torch.zeros(1, 4, 32, 32)\n"
      "for _ in range(3):\n"
      "    skips.insert(0, x)\n"
      "    x = x[:, :, ::2, ::2]\n"
      "a = skips[0]  # first\n"
      "skips.reverse()\n"
      "b = skips[0]  # reversed\n"
      "skips.clear()\n"
      "n = len(skips)\n"
      "c = torch.zeros(n + 2)  # cleared\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# first"), "a"), "[1, 4, 8, 8]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# reversed"), "b"), "[1, 4, 32, 32]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# cleared"), "c"), "[2]") << a.dump();
}

TEST(Values, AListRepeatedAnUnknownNumberOfTimesHasAnUnknownLength) {
  // `[3] * n` was taken as `[3, 3]`: a false proof of x.mT for n == 1
  const std::string src =
      "import sys\n"
      "import torch\n"
      "n = int(sys.argv[1])\n"
      "v = torch.zeros(2, 3).view(*([6] + [1] * n))\n"
      "w = v.mT  # repeated\n"
      "u = torch.zeros(6).view([6] + [1] * 2).mT  # twice\n";
  Analysed a(src);
  EXPECT_NE(a.shape(line_of(src, "# repeated"), "v"), "[6, 1, 1]") << a.dump();
  for (const auto* o : a.at(line_of(src, "# repeated"), "mt_c1"))
    EXPECT_NE(o->outcome, gradual::Outcome::Proven) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# twice"), "u"), "[6, 1, 1]") << a.dump();
}


TEST(Values, AdvancedIndexingHasPyTorchsShapes) {
  // numpy-style advanced indexing as PyTorch 1.13 does it: index tensors
  // broadcast, their axes where the first stands when adjacent, else in
  // front; ints select first; a mask gives one axis of its count
  const std::string src =
      "import torch\n"
      "x = torch.zeros(5, 3, 4)\n"
      "i = torch.randint(0, 3, (2,))\n"
      "j = torch.arange(6).view(2, 3)\n"
      "m = x[:, 0, 0] > 0\n"
      "m2 = torch.zeros(5, 3) > 1\n"
      "a = x[i]  # one\n"
      "b = x[:, i]  # second axis\n"
      "c = x[i, :, j[0, :2]]  # apart\n"
      "d = x[:, j]  # two-d\n"
      "e = x[[0, 2]]  # list\n"
      "f = x[..., [0, 1, 3]]  # ellipsis\n"
      "g = x[0, :, [1, 2]]  # int first\n"
      "h = x[m]  # mask\n"
      "k = x[m2]  # two-d mask\n"
      "l = x[None, i]  # new axis\n"
      "n = x[i, i.view(2, 1)]  # broadcast\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# one"), "a"), "[2, 3, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# second axis"), "b"), "[5, 2, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# apart"), "c"), "[2, 3]");
  EXPECT_EQ(a.shape(line_of(src, "# two-d"), "d"), "[5, 2, 3, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# list"), "e"), "[2, 3, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# ellipsis"), "f"), "[5, 3, 3]");
  EXPECT_EQ(a.shape(line_of(src, "# int first"), "g"), "[3, 2]");
  EXPECT_EQ(a.shape(line_of(src, "# new axis"), "l"), "[1, 2, 3, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# broadcast"), "n"), "[2, 2, 4]");
  // a mask's count is a fresh size, known only at run time
  std::string h = a.shape(line_of(src, "# mask"), "h");
  EXPECT_EQ(h, "[mask_count, 3, 4]");
  EXPECT_EQ(a.shape(line_of(src, "# two-d mask"), "k"), "[mask_count, 4]");
  EXPECT_EQ(a.outcome(line_of(src, "# mask"), "getitem_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# two-d mask"), "getitem_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
}

TEST(Values, AdvancedIndexingErrorsAreFound) {
  const std::string src =
      "import torch\n"
      "x = torch.zeros(5, 3, 4)\n"
      "m = torch.zeros(3) > 0\n"
      "i = torch.arange(2)\n"
      "j = torch.arange(3)\n"
      "a = x[m]  # wrong mask\n"
      "b = x[i, :, j]  # no broadcast\n"
      "c = x[i, i, i, i]  # too many\n"
      "x[m] = 1.0  # wrong mask set\n"
      "x[i] = torch.zeros(3, 3, 4)  # wrong value\n"
      "x[i] = torch.zeros(1, 3, 4)  # value fits\n"
      "def f(t, idx):\n"
      "    return t[idx]  # unknown dtype\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# wrong mask"), "getitem_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# no broadcast"), "getitem_c6"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# too many"), "getitem_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# wrong mask set"), "setitem_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# wrong value"), "setitem_c4"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# value fits"), "setitem_c4"), Outcome::Proven) << a.dump();
  // an index of unknown dtype (a mask or positions) is checked at run time
  bool checked = false;
  for (const auto& site : a.result().sites)
    if (static_cast<int>(site.loc.line) == line_of(src, "# unknown dtype") && site.needs_check()) checked = true;
  EXPECT_TRUE(checked);
}

}  // namespace
}  // namespace gshape::testing
