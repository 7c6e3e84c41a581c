// Printed shapes read like the source (issue 9, "readable symbolic output"):
// sizes are named after what the program wrote, view's -1 case and slices'
// max(0, ...) go once the checks settle them, distinct sizes of one name
// print apart, and a runaway term is cut.
#include <set>

#include <gtest/gtest.h>

#include "tests/analysis/analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

// nanoGPT's attention and MLP (karpathy/nanoGPT model.py, trimmed), with no
// driver: the config's sizes stay symbols.
const std::string kGptBlock =
    "import math\n"
    "import torch\n"
    "import torch.nn as nn\n"
    "from torch.nn import functional as F\n"
    "\n"
    "class CausalSelfAttention(nn.Module):\n"
    "    def __init__(self, config):\n"
    "        super().__init__()\n"
    "        assert config.n_embd % config.n_head == 0\n"
    "        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd)\n"
    "        self.c_proj = nn.Linear(config.n_embd, config.n_embd)\n"
    "        self.n_head = config.n_head\n"
    "        self.n_embd = config.n_embd\n"
    "        b = torch.tril(torch.ones(config.block_size, config.block_size)).view(1, 1, config.block_size, config.block_size)  # bias\n"
    "        self.register_buffer('bias', b)\n"
    "\n"
    "    def forward(self, x):\n"
    "        B, T, C = x.size()\n"
    "        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)  # split\n"
    "        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # heads\n"
    "        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n"
    "        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n"
    "        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))  # scores\n"
    "        mask = self.bias[:, :, :T, :T]  # mask\n"
    "        att = F.softmax(att, dim=-1)\n"
    "        y = att @ v  # mix\n"
    "        y = y.transpose(1, 2).contiguous().view(B, T, C)  # merge\n"
    "        return self.c_proj(y)  # proj\n"
    "\n"
    "class MLP(nn.Module):\n"
    "    def __init__(self, config):\n"
    "        super().__init__()\n"
    "        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd)\n"
    "        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd)\n"
    "\n"
    "    def forward(self, x):\n"
    "        h = self.c_fc(x)  # fc\n"
    "        return self.c_proj(F.gelu(h))  # mlp out\n";

TEST(Printing, AGptBlockReadsInTheNamesOfItsSource) {
  Analysed a(kGptBlock);
  const std::string& s = kGptBlock;
  // no `-1` case in the view: torch.ones' check made block_size a size
  EXPECT_EQ(a.shape(line_of(s, "# bias"), "b"), "[1, 1, config.block_size, config.block_size]") << a.dump();
  EXPECT_EQ(a.shape(line_of(s, "# split"), "q"), "[B, T, config.n_embd]");
  EXPECT_EQ(a.shape(line_of(s, "# split"), "v"), "[B, T, config.n_embd]");
  EXPECT_EQ(a.shape(line_of(s, "# heads"), "k"), "[B, config.n_head, T, C//config.n_head]");
  EXPECT_EQ(a.shape(line_of(s, "# scores"), "att"), "[B, config.n_head, T, T]");
  EXPECT_EQ(a.shape(line_of(s, "# mask"), "mask"), "[1, 1, min(config.block_size, T), min(config.block_size, T)]");
  EXPECT_EQ(a.shape(line_of(s, "# mix"), "y"), "[B, config.n_head, T, C//config.n_head]");
  EXPECT_EQ(a.shape(line_of(s, "# merge"), "y"), "[B, T, C]");
  EXPECT_EQ(a.shape(line_of(s, "# proj"), "self.c_proj(y)"), "[B, T, config.n_embd]");
  EXPECT_EQ(a.shape(line_of(s, "# fc"), "h"), "[*, 4*config.n_embd]");
  EXPECT_EQ(a.shape(line_of(s, "# mlp out"), "self.c_proj(F.gelu(h))"), "[*, config.n_embd]");
}

TEST(Printing, ASizeARuleInventsIsNamedAfterTheArgument) {
  const std::string src =
      "from einops import rearrange\n"
      "def f(mask):\n"
      "    m = rearrange(mask, 'b j -> b 1 1 j')  # m\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# m"), "m"), "[mask.size(0), 1, 1, mask.size(1)]") << a.dump();
}

TEST(Printing, TwoSizesOfOneNamePrintApart) {
  // `m` is rebound between the two rearranges: each invents a size for a
  // different tensor, both named `m.size(0)`, and the sum's shape tells them apart
  const std::string src =
      "from einops import rearrange\n"
      "def f(m, n):\n"
      "    a = rearrange(m, 'b -> b')\n"
      "    m = n\n"
      "    s = a + rearrange(m, 'b -> b')  # s\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# s"), "s"), "[(m.size(0) if m.size(0)#2 == 1 else m.size(0)#2)]") << a.dump();
}

TEST(Printing, TheReasonAndExampleNameTwoSizesOfOneNameApart) {
  // one helper unpacks the shapes of two loaded tensors: the broadcast's
  // reason said "batch, batch are unknown" (an outside user's report)
  const std::string src =
      "import sys, torch\n"
      "def tokens(img):\n"
      "    batch, n, d = img.shape\n"
      "    return img.reshape(batch, n, d)\n"
      "a = tokens(torch.load(sys.argv[1]))\n"
      "b = tokens(torch.load(sys.argv[2]))\n"
      "c = a + b  # sum\n";
  Analysed a(src);
  bool seen = false;
  for (const auto* ob : a.at(line_of(src, "# sum"), "broadcast_c1")) {
    if (ob->ob.reason.find("batch") == std::string::npos) continue;
    seen = true;
    EXPECT_NE(ob->ob.reason.find("batch, batch#2 are unknown"), std::string::npos) << ob->ob.reason;
    std::set<std::string> names;
    for (const auto& [name, value] : ob->ob.example) names.insert(name);
    EXPECT_EQ(names, (std::set<std::string>{"batch", "batch#2"}));
  }
  EXPECT_TRUE(seen) << a.dump();
}

TEST(Printing, OneVariableOfUnknownRankHasOneSizePerAxis) {
  // the same `m` twice: every rule and `m.shape[0]` name the same size, so
  // the sum needs no case split and its checks hold
  const std::string src =
      "from einops import rearrange\n"
      "def f(m):\n"
      "    b = m.shape[0]\n"
      "    s = rearrange(m, 'b -> b') + rearrange(m, 'b -> b')  # s\n"
      "    t = s.view(b)  # t\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# s"), "s"), "[m.size(0)]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# s"), "broadcast_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# t"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Printing, AJoinWhoseArmsAgreeWheneverTheyDifferIsOneSize) {
  // vit-pytorch's Attention: without the output projection the width is
  // heads*dim_head, which is dim exactly when the projection is skipped
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "def f(dim: int, heads: int, dim_head: int, flag: bool):\n"
      "    inner = heads * dim_head\n"
      "    project_out = not (heads == 1 and dim_head == dim)\n"
      "    out = nn.Linear(inner, dim) if project_out else nn.Identity()\n"
      "    y = out(torch.randn(2, inner))  # y\n"
      "    other = nn.Linear(inner, dim) if heads > 2 else nn.Identity()\n"
      "    z = other(torch.randn(2, inner))  # z\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# y"), "y"), "[2, dim]") << a.dump();
  // a condition that says nothing of the sizes keeps both cases
  EXPECT_EQ(a.shape(line_of(src, "# z"), "z"), "[2, (dim if 2 < heads else heads*dim_head)]") << a.dump();
}

TEST(Printing, SplitPiecesOfAnAxisThatMayBeEmptyAreNotClaimedWhole) {
  // s divides k*s, but when k is 0 the axis is empty and its one piece is
  // empty too (torch.empty(0).split(3) is one tensor of size 0), not s long
  const std::string src =
      "import torch\n"
      "def f(k: int, s: int):\n"
      "    x = torch.randn(k * s, 4)\n"
      "    p = x.split(s)[0]  # p\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# p"), "p"), "[min(s, k*s), 4]") << a.dump();
}

TEST(Printing, ACeilingPrintsAsACeiling) {
  // arange(0, n, 2) has ceil(n/2) elements: -(-n//2) in Python, not --n//2
  const std::string src =
      "import torch\n"
      "def f(n: int):\n"
      "    r = torch.arange(0, n, 2)  # r\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# r"), "r"), "[-(-n//2)]") << a.dump();
}

TEST(Printing, ALongChainOfBroadcastsIsCut) {
  // every `+ y_i` of an unrelated size nests one more case split: printed as a
  // tree the term would double per step
  std::string src = "from einops import rearrange\ndef f(m, n):\n    out = rearrange(m, 'b -> b')\n";
  for (int i = 0; i < 24; ++i) src += "    m = n\n    out = out + rearrange(m, 'b -> b')\n";
  src += "    last = out  # last\n";
  Analysed a(src);
  const std::string text = a.shape(line_of(src, "# last"), "last");
  EXPECT_NE(text.find("\u2026"), std::string::npos) << text;
  EXPECT_LE(text.size(), 3 * gradual::kMaxPrintedTerm) << text;
}

TEST(Printing, WithFullTermsTheChainPrintsWholeWithItsSharedPartsNamed) {
  std::string src = "from einops import rearrange\ndef f(m, n):\n    out = rearrange(m, 'b -> b')\n";
  for (int i = 0; i < 24; ++i)
    src += "    m = n\n    out = out + rearrange(m, 'b -> b')  # step " + std::to_string(i) + "\n";
  src += "    last = out  # last\n";
  gradual::set_full_terms(true);
  Analysed a(src);
  gradual::set_full_terms(false);
  const std::string text = a.shape(line_of(src, "# last"), "last");
  EXPECT_FALSE(gradual::has_cut_term(text)) << text;
  EXPECT_NE(text.find(" where _1 = "), std::string::npos) << text;
  EXPECT_LE(text.size(), 24 * 200u) << text;  // linear in the steps
  // a shape within the cap prints as it does without the option
  Analysed capped(src);
  EXPECT_EQ(a.shape(line_of(src, "# step 1"), "out"), capped.shape(line_of(src, "# step 1"), "out"));
  EXPECT_EQ(a.shape(line_of(src, "# step 1"), "out").find("where"), std::string::npos);
}

}  // namespace
}  // namespace gshape::testing
