// The gradual guarantee end to end (issue 8): for each way it used to fail,
// a program that crashes inside PyTorch when run as written is stopped by
// `gshape run` with ShapeCheckError at the crashing line, with the sizes
// that failed, and runs exactly like the original when it does not crash.
// Needs the runtime (GSHAPE_WITH_TORCH=ON); skipped without it.
#include <gtest/gtest.h>

#include <regex>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

const char* kPython = "/usr/bin/python3";

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

class Guarantee : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef GSHAPE_TEST_HAS_RUNTIME
    GTEST_SKIP() << "gshape was built without its runtime (GSHAPE_WITH_TORCH=OFF)";
#endif
  }
  // Runs `source` as written with `arg` (must succeed with "ok"), then the
  // failing `bad` argument as written (PyTorch must fail) and through gshape
  // run: returns gshape run's stderr, which must end with a ShapeCheckError.
  std::string stopped(const std::string& name, const std::string& source, const std::string& good,
                      const std::string& bad) {
    std::string script = dir_.write(name, source);
    ProcessResult plain_good = run_process(kPython, {script, good}, {}, 180);
    EXPECT_EQ(plain_good.exit_code, 0) << plain_good.err;
    ProcessResult checked_good = gshape_run(script, good);
    EXPECT_EQ(checked_good.exit_code, 0) << checked_good.err;
    EXPECT_EQ(checked_good.out, plain_good.out);
    ProcessResult plain_bad = run_process(kPython, {script, bad}, {}, 180);
    EXPECT_NE(plain_bad.exit_code, 0) << "the program must crash as written";
    EXPECT_FALSE(contains(plain_bad.err, "ShapeCheckError"));
    ProcessResult checked_bad = gshape_run(script, bad);
    EXPECT_EQ(checked_bad.exit_code, 1) << checked_bad.err;
    EXPECT_TRUE(contains(checked_bad.err, "gshape_runtime.ShapeCheckError: ")) << checked_bad.err;
    return checked_bad.err;
  }
  ProcessResult gshape_run(const std::string& script, const std::string& arg) {
    return run_process(GSHAPE_BINARY, {"run", "--color=never", "--cache-dir", cache_.str(), script, "--", arg},
                       dir_.str(), 180);
  }
  // The `path:LINE:COL: [TAG]` of the ShapeCheckError in `err`.
  static std::smatch failure(const std::string& err) {
    std::smatch m;
    std::regex_search(err, m, std::regex("ShapeCheckError: [^:\n]*:([0-9]+):([0-9]+): \\[([a-z0-9_]+)\\] ([^\n]*)"));
    return m;
  }
  TempDir dir_;
  TempDir cache_;
};

// Item 1: a site reached in several contexts (a residual block built with
// stride 1 and 2) used to get a merged check that could not fail.
TEST_F(Guarantee, ASiteOfSeveralContextsChecksTheValuesOfEachRun) {
  std::string err = stopped("blocks.py",
                            "import sys\n"
                            "import torch\n"
                            "import torch.nn as nn\n"
                            "class Block(nn.Module):\n"
                            "    def __init__(self, cin, cout, stride, short_stride):\n"
                            "        super().__init__()\n"
                            "        self.conv = nn.Conv2d(cin, cout, 3, stride, 1)\n"
                            "        self.short = nn.Conv2d(cin, cout, 1, short_stride)\n"
                            "    def forward(self, x):\n"
                            "        return self.conv(x) + self.short(x)  # the site of both blocks\n"
                            "def main(s):\n"
                            "    layers = [Block(8, 8, 1, 1), Block(8, 16, 2, s)]\n"
                            "    x = torch.zeros(2, 8, 16, 16)\n"
                            "    for layer in layers:\n"
                            "        x = layer(x)\n"
                            "    print('ok', tuple(x.shape))\n"
                            "main(int(sys.argv[1]))\n",
                            "2", "1");
  std::smatch m = failure(err);
  ASSERT_FALSE(m.empty()) << err;
  EXPECT_EQ(m[1], "10");
  EXPECT_EQ(m[3], "broadcast_c1");
  EXPECT_TRUE(contains(m[4], "the size of tensor a (8) must match the size of tensor b (16)")) << m[4];
}

// Item 2: the message is computed from the values that failed (the last
// batch of 40 against a state of 64), verbatim.
TEST_F(Guarantee, TheMessageNamesTheSizesThatFailed) {
  std::string err = stopped("last.py",
                            "import sys\n"
                            "import torch\n"
                            "state = torch.zeros(64, 128)\n"
                            "for n in (64, int(sys.argv[1])):\n"
                            "    h = torch.ones(n, 128) + state\n"
                            "print('ok')\n",
                            "64", "40");
  EXPECT_TRUE(contains(err, ":5:9: [broadcast_c1] the size of tensor a (40) must match the size of tensor b (64) at "
                            "non-singleton dimension 0 (input shape [40, 128], other shape [64, 128])\n"))
      << err;
}

// Item 3: operands of unknown rank or not known to be tensors, a recurrent
// layer's hidden state, a stack of data-dependent slices, a module the
// analysis lost track of: each used to get no check at all.
TEST_F(Guarantee, ValuesTheAnalysisDoesNotKnowAreCheckedAtRunTime) {
  const std::string program =
      "import json\n"
      "import sys\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "case, size = sys.argv[1].split(':')\n"
      "n = int(size)\n"
      "if case == 'json':\n"
      "    t = torch.tensor(json.loads(json.dumps([[1.0] * n] * 3)))\n"
      "    y = t + torch.zeros(3, 4)\n"
      "elif case == 'hidden':\n"
      "    rnn = nn.GRU(4, 6, num_layers=2)\n"
      "    h0 = torch.zeros(n, 3, 6)\n"
      "    out, h = rnn(torch.zeros(5, 3, 4), h0)\n"
      "elif case == 'stack':\n"
      "    data = torch.zeros(10, 4)\n"
      "    parts = [data[i:i + (2 if i else n)] for i in range(0, 6, 2)]\n"
      "    s = torch.stack(parts)\n"
      "elif case == 'config':\n"
      "    config = json.loads('{\"sizes\": [4, 8, 3]}')\n"
      "    layers = [nn.Linear(a, b) for a, b in zip(config['sizes'], config['sizes'][1:])]\n"
      "    mlp = nn.Sequential(*layers)\n"
      "    out = mlp(torch.zeros(2, n))\n"
      "print('ok')\n";
  std::smatch m = failure(stopped("unknown.py", program, "json:4", "json:5"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "9");
  EXPECT_EQ(m[3], "broadcast_c1");
  m = failure(stopped("unknown.py", program, "hidden:2", "hidden:1"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "13");
  m = failure(stopped("unknown.py", program, "stack:2", "stack:3"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "17");
  m = failure(stopped("unknown.py", program, "config:4", "config:5"));  // inside the nn.Sequential
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "22");
  EXPECT_EQ(m[3], "linear_c1");
}

// Item 4: a mismatch inside nn.Sequential, and constructor arguments PyTorch
// rejects, used to be found statically but left to PyTorch at run time.
TEST_F(Guarantee, ErrorsFoundStaticallyStopTheRunToo) {
  const std::string program =
      "import sys\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "case = sys.argv[1]\n"
      "if case in ('ok', 'sequential'):\n"
      "    hidden = 120 if case == 'ok' else 80\n"
      "    net = nn.Sequential(nn.Linear(784, 120), nn.ReLU(), nn.Linear(hidden, 10))\n"
      "    y = net(torch.zeros(3, 784))\n"
      "if case == 'groups':\n"
      "    conv = nn.Conv2d(6, 10, 3, groups=4)\n"
      "if case == 'groupnorm':\n"
      "    norm = nn.GroupNorm(3, 8)\n"
      "print('ok')\n";
  std::string err = stopped("static.py", program, "ok", "sequential");
  std::smatch m = failure(err);
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "8");
  EXPECT_EQ(m[3], "linear_c1");
  EXPECT_TRUE(contains(err, "nn.Linear(80, 10) expects in_features 80 but the input's last dimension is 120")) << err;
  m = failure(stopped("static.py", program, "ok", "groups"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "10");
  EXPECT_EQ(m[3], "nn_conv2d_c2");
  m = failure(stopped("static.py", program, "ok", "groupnorm"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "12");
}

// Item 5: `n or 5` with n unknown, and an nn.Parameter operand, used to give
// false proofs (the classic ViT positional embedding one short).
TEST_F(Guarantee, NoFalseProofs) {
  std::smatch m = failure(stopped("vit.py",
                                  "import sys\n"
                                  "import torch\n"
                                  "import torch.nn as nn\n"
                                  "class ViT(nn.Module):\n"
                                  "    def __init__(self, num_patches, dim=8):\n"
                                  "        super().__init__()\n"
                                  "        self.pos = nn.Parameter(torch.zeros(1, num_patches, dim))\n"
                                  "    def forward(self, x):\n"
                                  "        return x + self.pos\n"
                                  "tokens = torch.zeros(2, 17, 8)  # 16 patches and a class token\n"
                                  "y = ViT(int(sys.argv[1]))(tokens)\n"
                                  "print('ok')\n",
                                  "17", "16"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "9");
  EXPECT_EQ(m[3], "broadcast_c1");
  m = failure(stopped("or.py",
                      "import sys\n"
                      "import torch\n"
                      "def f(n):\n"
                      "    k = n or 5\n"
                      "    return torch.zeros(k) + torch.zeros(5)\n"
                      "f(int(sys.argv[1]))\n"
                      "print('ok')\n",
                      "0", "7"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "5");
  EXPECT_EQ(m[3], "broadcast_c1");
}

// Item 7: a view the input's strides do not allow, after a transpose.
TEST_F(Guarantee, AViewAfterATransposeIsChecked) {
  std::smatch m = failure(stopped("strides.py",
                                  "import sys\n"
                                  "import torch\n"
                                  "x = torch.zeros(4, 6)\n"
                                  "y = x.t().contiguous() if sys.argv[1] == 'copy' else x.t()\n"
                                  "z = y.view(24)\n"
                                  "print('ok')\n",
                                  "copy", "view"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "5");
  EXPECT_EQ(m[3], "view_c6");
}

// A convolution's forward reads its weight's sizes: a grayscale stem made of
// an RGB one runs under `gshape run` (the run-time snapshot read the stale
// in_channels: a false ShapeCheckError), and an RGB input to it is stopped.
TEST_F(Guarantee, AReplacedConvWeightIsCheckedWithItsOwnSizes) {
  std::smatch m = failure(stopped("stem.py",
                                  "import sys\n"
                                  "import torch\n"
                                  "import torch.nn as nn\n"
                                  "conv = nn.Conv2d(3, 16, 3, padding=1)\n"
                                  "conv.weight = nn.Parameter(conv.weight.sum(1, keepdim=True))\n"
                                  "c = 1 if sys.argv[1] == 'gray' else 3\n"
                                  "y = conv(torch.randn(2, c, 8, 8))\n"
                                  "print('ok', tuple(y.shape))\n",
                                  "gray", "rgb"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "7");
  EXPECT_EQ(m[3], "conv2d_c2");
}

// A channels-last tensor is not contiguous: the flattening view after a conv
// stack converted to that format was proven (an outside tester's report).
TEST_F(Guarantee, AViewOfAChannelsLastTensorIsChecked) {
  std::smatch m = failure(stopped("channels_last.py",
                                  "import sys\n"
                                  "import torch\n"
                                  "import torch.nn as nn\n"
                                  "conv = nn.Conv2d(3, 8, 3, padding=1)\n"
                                  "if sys.argv[1] == 'fast':\n"
                                  "    conv = conv.to(memory_format=torch.channels_last)\n"
                                  "h = conv(torch.randn(2, 3, 4, 4))\n"
                                  "y = h.view(2, -1)\n"
                                  "print('ok')\n",
                                  "plain", "fast"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "8");
  EXPECT_EQ(m[3], "view_c6");
  m = failure(stopped("channels_last_input.py",
                      "import sys\n"
                      "import torch\n"
                      "x = torch.randn(2, 3, 4, 4)\n"
                      "fmt = torch.channels_last if sys.argv[1] == 'fast' else torch.contiguous_format\n"
                      "y = torch.relu(x.contiguous(memory_format=fmt)).view(2, -1)\n"
                      "print('ok')\n",
                      "plain", "fast"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "5");
  EXPECT_EQ(m[3], "view_c6");
}

// A tensor reshaped in place (`x.t_()`) used to keep its old shape, so the
// layer after it was proven for the shape it no longer had.
TEST_F(Guarantee, ATensorReshapedInPlaceIsCheckedWithItsNewShape) {
  std::smatch m = failure(stopped("inplace.py",
                                  "import sys\n"
                                  "import torch\n"
                                  "import torch.nn as nn\n"
                                  "x = torch.zeros(2, 5)\n"
                                  "for _ in range(int(sys.argv[1])):\n"
                                  "    x.t_()\n"
                                  "y = nn.Linear(5, 3)(x)\n"
                                  "print('ok')\n",
                                  "2", "1"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "7");
  EXPECT_EQ(m[3], "linear_c1");
}

// A function called twice with the same arguments on the two arms of a
// branch was analysed once, under the first arm's condition: what it proved
// there was taken for the other arm too.
TEST_F(Guarantee, ACallOnTwoPathsIsNotProvenByTheConditionOfOne) {
  std::smatch m = failure(stopped("paths.py",
                                  "import sys\n"
                                  "import torch\n"
                                  "import torch.nn as nn\n"
                                  "def head(x, k):\n"
                                  "    return nn.Linear(k, 3)(x)\n"
                                  "def main(x, k):\n"
                                  "    if x.size(-1) == k:\n"
                                  "        return head(x, k)\n"
                                  "    return head(x, k)\n"
                                  "main(torch.zeros(2, len(sys.argv[1])), 4)\n"
                                  "print('ok')\n",
                                  "abcd", "abc"));
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m[1], "5");
  EXPECT_EQ(m[3], "linear_c1");
}

}  // namespace
}  // namespace gshape::testing
