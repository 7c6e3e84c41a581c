// Values made of objects: a join of two layers (`A if c else B`, a layer or
// None) applied as each, map() over known items, containers a loop of unknown
// trip count fills, list items assigned in place, and the memo of calls under
// the facts of one path.
#include <gtest/gtest.h>

#include "analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

TEST(Objects, AJoinOfTwoLayersIsAppliedAsEach) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "def build(dim, b):\n"
      "    out = nn.Linear(dim, 10) if dim > 3 else nn.Identity()\n"
      "    x = torch.randn(b, dim)\n"
      "    y = out(x)  # call\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# call"), "out(x)"), "[b, (10 if 3 < dim else dim)]") << a.dump();
  // the Linear alternative is checked under its condition
  EXPECT_EQ(a.worst(line_of(src, "# call"), "linear_c1"), Outcome::Proven) << a.dump();
}

TEST(Objects, ALayerOrNoneIsCalledAsTheLayerAndTestedAgainstNone) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "class Head(nn.Module):\n"
      "    def __init__(self, dim, classes):\n"
      "        super().__init__()\n"
      "        self.head = nn.Linear(dim, classes) if classes > 0 else None\n"
      "    def forward(self, x):\n"
      "        if self.head is None:\n"
      "            return x\n"
      "        return self.head(x)  # head\n"
      "y = Head(8, 3)(torch.zeros(2, 8))\n"
      "z = Head(8, 0)(torch.zeros(2, 8))  # none\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# head"), "self.head(x)"), "[2, 3]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# none"), "z"), "[2, 8]") << a.dump();
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
}

TEST(Objects, MapFollowsTheFunctionOnEachItem) {
  const std::string src =
      "import torch\n"
      "x = torch.zeros(2, 12)\n"
      "q, k = map(lambda t: t.view(2, 3, 2), x.chunk(2, dim=-1))  # map\n"
      "bad = list(map(lambda t: t.view(5, -1), [x]))  # bad\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# map"), "q"), "[2, 3, 2]") << a.dump();
  bool refuted = false;
  for (const auto* ob : a.at(line_of(src, "# bad"))) refuted = refuted || ob->outcome == Outcome::Error;
  EXPECT_TRUE(refuted) << a.dump();
}

TEST(Objects, ALoopOfUnknownTripCountAddsUnknownlyManyLayers) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "class Block(nn.Module):\n"
      "    def __init__(self, dim):\n"
      "        super().__init__()\n"
      "        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim))\n"
      "    def forward(self, x):\n"
      "        return self.net(x)\n"
      "def build(dim, depth, b):\n"
      "    layers = nn.ModuleList([])\n"
      "    for _ in range(depth):\n"
      "        layers.append(Block(dim))\n"
      "    x = torch.randn(b, dim)\n"
      "    for f in layers:\n"
      "        x = f(x)  # apply\n"
      "    n = torch.zeros(len(layers))  # len\n";
  Analysed a(src);
  // each layer is one of those the loop made, each built alike
  EXPECT_EQ(a.shape(line_of(src, "# apply"), "f(x)"), "[b, dim]") << a.dump();
  // the number of layers is not the number of passes the analysis made
  std::string len = a.shape(line_of(src, "# len"), "torch.zeros(len(layers))");
  EXPECT_TRUE(len.find("[len") == 0) << len;
}

TEST(Objects, AListItemAssignedInPlaceIsSeenAfterwards) {
  const std::string src =
      "import torch\n"
      "shape = [2, 3]\n"
      "shape[1] = 5\n"
      "x = torch.zeros(*shape)  # item\n"
      "sizes = [-1] * 3\n"
      "sizes[0:2] = [4, 4, 4]\n"
      "y = torch.zeros(len(sizes))  # slice\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# item"), "x"), "[2, 5]") << a.dump();
  EXPECT_NE(a.shape(line_of(src, "# slice"), "y"), "[3]") << a.dump();
}

TEST(Objects, AParameterNobodyPassedComparesAsItsInt) {
  const std::string src =
      "import torch\n"
      "def f(dim, b):\n"
      "    x = torch.zeros(b, dim)\n"
      "    if dim == 6:\n"
      "        return x.view(b, 2, 3)  # view\n"
      "    return x\n";
  Analysed a(src);
  // the branch condition is a fact over dim: the view is proven under it
  auto obligations = a.at(line_of(src, "# view"));
  ASSERT_FALSE(obligations.empty()) << a.dump();
  for (const auto* ob : obligations) EXPECT_EQ(ob->outcome, Outcome::Proven) << ob->ob.tag << "\n" << a.dump();
}

// A choice met again with one of its alternatives (another path holds `a`
// whatever `p` is) no longer says `p` selects it; and what one alternative's
// call checks is not a fact for the other's.
TEST(Objects, ChoicesKeepNoConditionTheyCannotVouchForAndAlternativesShareNoChecks) {
  const std::string src =
      "import sys\n"
      "import torch\n"
      "from torch import nn\n"
      "p = len(sys.argv) > 1\n"
      "q = len(sys.argv) > 2\n"
      "a = nn.Linear(8, 4)\n"
      "b = nn.Linear(16, 4)\n"
      "if q:\n"
      "    m = a if p else b\n"
      "else:\n"
      "    m = a\n"
      "x = torch.zeros(2, 8) if p else torch.zeros(2, 16)\n"
      "y = m(x)  # call\n";
  Analysed a(src);
  // `a` runs with x of 16 when neither p nor q holds: not proven
  // `b` runs only when p does not hold, with x of 16: not an error
  auto obligations = a.at(line_of(src, "# call"), "linear_c1");
  ASSERT_EQ(obligations.size(), 2u) << a.dump();
  for (const auto* ob : obligations) EXPECT_EQ(ob->outcome, Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
}

// nanoGPT / minGPT: `self.transformer = nn.ModuleDict(dict(wte=..., h=nn.ModuleList(
// [Block(config) for _ in range(config.n_layer)])))`; its entries are read as
// attributes and by key, and a ModuleList of unknown length applies its
// blocks (each built alike) to a fixed point.
TEST(Objects, AModuleDictsEntriesAreItsAttributes) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "class Block(nn.Module):\n"
      "    def __init__(self, d):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(d, d)\n"
      "    def forward(self, x):\n"
      "        return x + self.fc(x)\n"
      "def build(vocab, d, n_layer, b, t):\n"
      "    tr = nn.ModuleDict(dict(wte=nn.Embedding(vocab, d), h=nn.ModuleList([Block(d) for _ in range(n_layer)])))\n"
      "    x = tr.wte(torch.zeros(b, t, dtype=torch.long))  # wte\n"
      "    for block in tr.h:\n"
      "        x = block(x)  # block\n"
      "    y = tr['wte'](torch.zeros(t, b, dtype=torch.long))  # key\n"
      "    pairs = nn.ModuleDict([('head', nn.Linear(d, 3))])\n"
      "    z = pairs.head(x)  # pairs\n"
      "    w = pairs.head(torch.zeros(b, d + 1))  # bad\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# wte"), "x"), "[b, t, d]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# block"), "block(x)"), "[b, t, d]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# key"), "y"), "[t, b, d]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# pairs"), "z"), "[b, t, 3]") << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# bad"), "linear_c1"), Outcome::Error) << a.dump();
}

// A class used by a later one is analysed in its caller's context when the
// caller has no caller either: Block.forward sees x of GPT's shape, not an
// unknown x of its own (which would make every shape in it [*]).
TEST(Objects, AnUncalledCallerIsVisitedBeforeItsCallee) {
  const std::string src =
      "import torch\n"
      "from torch import nn\n"
      "class Block(nn.Module):\n"
      "    def __init__(self, d):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(d, d)\n"
      "    def forward(self, x):\n"
      "        y = x + self.fc(x)  # residual\n"
      "        return y\n"
      "class GPT(nn.Module):\n"
      "    def __init__(self, d):\n"
      "        super().__init__()\n"
      "        self.block = Block(d)\n"
      "    def forward(self, idx):\n"
      "        b, t = idx.size()\n"
      "        x = torch.zeros(b, t, self.block.fc.in_features)\n"
      "        return self.block(x)\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# residual"), "y"), "[b, t, d]") << a.dump();
}

TEST(Objects, AnErrorOnlyAnUncalledFunctionReachesSaysSo) {
  // pytorch-cifar's model files end with a `test()` nobody calls: an error
  // its input causes is certain, but the run that works never meets it
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "class Net(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(8, 2)\n"
      "    def forward(self, x):\n"
      "        return self.fc(x)  # model\n"
      "def test():\n"
      "    Net()(torch.randn(4, 6))\n"
      "Net()(torch.randn(4, 8))\n";
  Analysed a(src);
  auto list = a.at(line_of(src, "# model"), "linear_c1");
  ASSERT_FALSE(list.empty()) << a.dump();
  bool said = false;
  for (const auto* ob : list)
    for (const DiagnosticNote& n : ob->notes)
      said = said || n.message.find("this fails when `test` runs, which nothing in the project calls") != std::string::npos;
  EXPECT_TRUE(said) << a.dump();
}

TEST(Objects, IsinstanceOfAProjectInstanceIsDecidedByItsBases) {
  // vit-pytorch's VAAT: `if isinstance(vit, dict): vit = ViT(**vit)` given a
  // ViT; before, both arms ran and ViT(**unknown) made its sizes unknown
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "from collections import OrderedDict\n"
      "class A(nn.Module):\n"
      "    def __init__(self, dim):\n"
      "        super().__init__()\n"
      "        self.dim = dim\n"
      "class D(OrderedDict):\n"
      "    pass\n"
      "a = A(4)\n"
      "k1 = 1 if isinstance(a, dict) else 2  # dict\n"
      "k2 = 1 if isinstance(a, nn.Module) else 2  # module\n"
      "k3 = 1 if isinstance(a, A) else 2  # own\n"
      "k4 = 1 if isinstance(3, A) else 2  # int\n"
      "k5 = 1 if isinstance(D(), dict) else 2  # library base\n"
      "x = torch.zeros(k1, k2, k3, k4, k5)  # shape\n";
  Analysed a(src);
  // a library base other than torch.nn's may be a dict: not decided (a join)
  std::string shape = a.shape(line_of(src, "# shape"), "x");
  EXPECT_EQ(shape.rfind("[2, 1, 1, 2, ", 0), 0u) << shape;
  EXPECT_NE(shape, "[2, 1, 1, 2, 2]") << shape;
  EXPECT_NE(shape, "[2, 1, 1, 2, 1]") << shape;
}

TEST(Objects, AProjectSubclassOfALibraryModuleHasItsWeightsAndForward) {
  // examples/mnist_forward_forward: `class Layer(nn.Linear)` builds itself
  // with super().__init__ and reads self.weight; a subclass without
  // __init__ or forward is the library module
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "class Layer(nn.Linear):\n"
      "    def __init__(self, i, o):\n"
      "        super().__init__(i, o)\n"
      "    def forward(self, x):\n"
      "        return torch.mm(x, self.weight.T) + self.bias.unsqueeze(0)  # mm\n"
      "class Plain(nn.Conv2d):\n"
      "    pass\n"
      "y = Layer(4, 3)(torch.zeros(2, 4))  # layer\n"
      "q = Plain(3, 8, 3)(torch.zeros(1, 3, 10, 10))  # plain\n"
      "r = Plain(3, 8, 3)(torch.zeros(1, 4, 10, 10))  # bad\n"
      "s = sum([torch.zeros(2, 3), torch.ones(2, 3)])  # sum\n"
      "n = sum([1, 2], 10)\n"
      "t = torch.zeros(n)  # start\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# layer"), "y"), "[2, 3]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# plain"), "q"), "[1, 8, 8, 8]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# bad"), "conv2d_c2"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# sum"), "s"), "[2, 3]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# start"), "t"), "[13]") << a.dump();
}

TEST(Objects, AnUncalledFunctionsStarArgsAreNotEmpty) {
  // a caller the analysis does not see may pass any number of them: cat of
  // them is no certain error (it was, with *xs taken as ())
  const std::string src =
      "import torch\n"
      "def join(forward_fn, chunk_size, chunk_dim, *input_tensors):\n"
      "    if chunk_size > 0:\n"
      "        num_chunks = input_tensors[0].shape[chunk_dim] // chunk_size\n"
      "        chunks = tuple(t.chunk(num_chunks, dim=chunk_dim) for t in input_tensors)\n"
      "        outs = tuple(forward_fn(*c) for c in zip(*chunks))\n"
      "        return torch.cat(outs, dim=chunk_dim)  # cat\n"
      "    return forward_fn(*input_tensors)\n";
  Analysed a(src);
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
}

TEST(Objects, ALayersReplacedWeightGivesItsSizes) {
  // found by an outside user: a resized weight made a false error, a tied
  // one (word_language_model without its nhid == ninp guard) a false proof
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "lin = nn.Linear(5, 3)\n"
      "lin.weight = nn.Parameter(torch.randn(3, 7))\n"
      "y = lin(torch.randn(2, 7))  # resized\n"
      "enc = nn.Embedding(50, 16)\n"
      "dec = nn.Linear(32, 50)\n"
      "dec.weight = enc.weight\n"
      "z = dec(torch.randn(2, 32))  # tied\n"
      "w = dec(torch.randn(2, 16))  # fits\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# resized"), "linear_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# tied"), "linear_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# fits"), "w"), "[2, 50]") << a.dump();
}

TEST(Objects, AnUpdateOfAnInstancesDictSetsItsAttributes) {
  // minGPT's CfgNode.merge_from_dict (`self.__dict__.update(d)`) was ignored:
  // the old values proved a view that fails (an outside tester's report)
  const std::string src =
      "import sys\n"
      "import torch\n"
      "class CfgNode:\n"
      "    def __init__(self, **kwargs):\n"
      "        self.__dict__.update(kwargs)\n"
      "    def merge_from_dict(self, d):\n"
      "        self.__dict__.update(d)\n"
      "C = CfgNode(n_embd=48, n_head=3)\n"
      "C.merge_from_dict({'n_embd': 64})\n"
      "x = torch.zeros(2, 48).view(2, C.n_head, C.n_embd // C.n_head)  # merged\n"
      "vars(C).update(n_head=4)\n"
      "y = torch.zeros(2, 64).view(2, C.n_head, C.n_embd // C.n_head)  # vars\n"
      "C.__dict__.update(eval(sys.argv[1]))\n"
      "z = torch.zeros(2, 64).view(2, C.n_head, C.n_embd // C.n_head)  # unknown\n"
      "D = CfgNode(n_embd=48)\n"
      "D.__dict__['n_embd'] = 12\n"
      "w = torch.zeros(2, 48).view(2, D.n_embd)  # item\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# merged"), "view_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# vars"), "view_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# unknown"), "view_c5"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# item"), "view_c5"), Outcome::Error) << a.dump();
}

TEST(Objects, WritesThroughGlobalsAndExecReachTheGlobals) {
  // nanoGPT's `exec(open('configurator.py').read())` overrides its config
  // globals from the command line: they were kept at their defaults and a
  // view was proven from them (an outside tester's report)
  const std::string src =
      "import torch\n"
      "n_embd = 64\n"
      "n_head = 4\n"
      "globals()['n_embd'] = 48\n"
      "a = torch.zeros(2, 48).view(2, n_head, n_embd // n_head)  # item\n"
      "globals().update({'n_head': 3})\n"
      "b = torch.zeros(2, 48).view(2, n_head, n_embd // n_head)  # update\n"
      "ns = {'k': 2}\n"
      "exec('k = 5', ns)\n"
      "d = torch.zeros(2, 48).view(2, n_head, 16)  # own namespace\n"
      "exec(open('configurator.py').read())\n"
      "c = torch.zeros(2, 48).view(2, n_head, 16)  # exec\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# item"), "view_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# item"), "a"), "[2, 4, 12]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# update"), "b"), "[2, 3, 16]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# own namespace"), "view_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# exec"), "view_c5"), Outcome::Deferred) << a.dump();
}

TEST(Objects, SurgeryThroughModulesLoopsReachesTheLayers) {
  // an outside tester's report: writes through the loop variable of
  // modules()/named_children() and into _modules were not seen
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "class Head(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(32, 10)\n"
      "    def forward(self, x):\n"
      "        return self.fc(x)\n"
      "class Net(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.a = nn.Linear(16, 32)\n"
      "        self.head = Head()\n"
      "    def forward(self, x):\n"
      "        return self.head(self.a(x))\n"
      "net = Net()\n"
      "for m in net.modules():\n"
      "    if isinstance(m, Head):\n"
      "        m.fc = nn.Linear(32, 3)\n"
      "a = net(torch.randn(4, 16))  # modules\n"
      "for name, m in net.named_children():\n"
      "    if name == 'a':\n"
      "        setattr(net, name, nn.Linear(8, 32))\n"
      "b = net(torch.randn(4, 8))  # named\n"
      "seq = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10))\n"
      "seq._modules['2'] = nn.Linear(32, 5)\n"
      "c = seq(torch.randn(4, 16))  # _modules\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# modules"), "a"), "[4, 3]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# named"), "b"), "[4, 3]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# _modules"), "c"), "[4, 5]") << a.dump();
}

TEST(Objects, AClassWithAMetaclassCallGivesAnUnknownObject) {
  // a project metaclass's __call__ set an attribute after __init__ (an
  // outside tester's false proof); abc.ABCMeta changes nothing
  const std::string src =
      "import abc\n"
      "import torch\n"
      "class Meta(type):\n"
      "    def __call__(cls, *a, **k):\n"
      "        obj = super().__call__(*a, **k)\n"
      "        obj.d = 6\n"
      "        return obj\n"
      "class C(metaclass=Meta):\n"
      "    def __init__(self):\n"
      "        self.d = 8\n"
      "class D(C):\n"
      "    pass\n"
      "class E(metaclass=abc.ABCMeta):\n"
      "    def __init__(self):\n"
      "        self.d = 8\n"
      "x = torch.zeros(8).view(C().d)  # meta\n"
      "y = torch.zeros(8).view(D().d)  # inherited\n"
      "z = torch.zeros(8).view(E().d)  # abc\n";
  Analysed a(src);
  for (const char* mark : {"# meta", "# inherited"})
    for (const auto* o : a.at(line_of(src, mark), "view_c5")) EXPECT_NE(o->outcome, Outcome::Proven) << mark << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# abc"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Objects, SetattrWithAComputedNameSetsThatAttribute) {
  // `setattr(self, f"fc{i}", ...)` replaced fc0 unseen (a false proof), and a
  // name the analysis cannot compute may be any attribute
  const std::string src =
      "import sys\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc0 = nn.Linear(4, 4)\n"
      "        for i in range(2):\n"
      "            setattr(self, f\"fc{i}\", nn.Linear(8, 8))\n"
      "m = M()\n"
      "y = m.fc1(torch.randn(3, 8))  # set\n"
      "z = m.fc0(torch.randn(3, 4))  # replaced\n"
      "class N(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc0 = nn.Linear(4, 4)\n"
      "        setattr(self, sys.argv[1], nn.Linear(8, 8))\n"
      "n = N()\n"
      "w = n.fc0(torch.randn(3, 4))  # unknown name\n"
      "s = f'{1}x{{2}}' + 'y'\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# set"), "y"), "[3, 8]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# replaced"), "linear_c1"), Outcome::Error) << a.dump();
  for (const auto* o : a.at(line_of(src, "# unknown name"), "linear_c1"))
    EXPECT_NE(o->outcome, Outcome::Proven) << a.dump();
}

TEST(Objects, CopiesAndModuleListingsAsPythonDoesThem) {
  // an outside tester's reports on this session's modelling: copy.copy of a
  // module shares only its layer dicts; deepcopy rebinds the copy's bound
  // methods and a class's own __deepcopy__ may return the object itself;
  // children() lists a module once, in registration order; a library layer
  // is no instance of another torch.nn class
  const std::string src =
      "import copy\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "class Net(nn.Module):\n"
      "    def make_head(self):\n"
      "        self.head = nn.Linear(8, 2)\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.body = nn.Linear(4, 8)\n"
      "        self.same = self.body\n"
      "        self.make_head()\n"
      "net = Net()\n"
      "kids = list(net.children())\n"
      "n = len(kids)\n"
      "a = torch.zeros(n)  # children\n"
      "b = kids[-1](torch.randn(3, 8))  # last\n"
      "probe = copy.copy(net)\n"
      "probe.heads = 2\n"
      "c = net.body(torch.randn(3, 4))  # shallow\n"
      "class Cfg:\n"
      "    def __init__(self, d):\n"
      "        self.d = d\n"
      "    def __deepcopy__(self, memo):\n"
      "        return self\n"
      "base = Cfg(8)\n"
      "copy.deepcopy(base).d = 16\n"
      "d = torch.zeros(2, 8).view(2, base.d)  # own deepcopy\n"
      "x = torch.zeros(2, 3, 4)\n"
      "x.swapdims_(0, 1)\n"
      "e = x.view(12, 2)  # swapdims_\n"
      "relu_is_linear = isinstance(nn.ReLU(), nn.Linear)\n"
      "f = torch.zeros(1 if relu_is_linear else 2)  # isinstance\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# children"), "a"), "[2]") << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# last"), "b"), "[3, 2]") << a.dump();
  for (const char* mark : {"# shallow", "# own deepcopy"})
    for (const auto* o : a.at(line_of(src, mark))) EXPECT_NE(o->outcome, Outcome::Error) << mark << a.dump();
  EXPECT_NE(a.shape(line_of(src, "# shallow"), "c"), "[3, 8]") << "copy.copy may have changed net" << a.dump();
  for (const auto* o : a.at(line_of(src, "# own deepcopy"), "view_c5")) EXPECT_NE(o->outcome, Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# swapdims_"), "view_c6"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# isinstance"), "f"), "[2]") << a.dump();
}

TEST(Objects, AMultiheadAttentionsNewOutProjGivesTheOutputWidth) {
  // `mha.out_proj = nn.Linear(8, 4)`: the output is 4 wide (an outside
  // tester's false proof of a broadcast with embed_dim)
  const std::string src =
      "import torch\n"
      "import torch.nn as nn\n"
      "mha = nn.MultiheadAttention(8, 2)\n"
      "mha.out_proj = nn.Linear(8, 4)\n"
      "x = torch.randn(5, 2, 8)\n"
      "out, _ = mha(x, x, x)  # replaced\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# replaced"), "out"), "[5, 2, 4]") << a.dump();
}

TEST(Objects, ADeepCopyIsANewObject) {
  // an outside tester's report: copy.deepcopy was the same object, so a
  // fine-tuned copy's new layer was the original's too (false proof) and an
  // EMA copy took the model's later head (false error)
  const std::string src =
      "import copy\n"
      "import dataclasses\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "class Net(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.body = nn.Linear(32, 16)\n"
      "    def forward(self, x):\n"
      "        return self.body(x)  # forward\n"
      "base = Net()\n"
      "ft = copy.deepcopy(base)\n"
      "ft.body = nn.Linear(48, 16)\n"
      "a = ft(torch.randn(4, 48))  # copy\n"
      "b = base(torch.randn(4, 48))  # original\n"
      "@dataclasses.dataclass\n"
      "class Cfg:\n"
      "    n_embd: int = 64\n"
      "cfg = Cfg()\n"
      "big = copy.deepcopy(cfg)\n"
      "big.n_embd = 128\n"
      "c = torch.zeros(2, 64).view(2, cfg.n_embd)  # config\n"
      "state = {'h': torch.zeros(2, 8)}\n"
      "snap = copy.deepcopy(state)\n"
      "state['h'] = torch.zeros(2, 16)\n"
      "d = snap['h'] @ torch.randn(8, 3)  # dict\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# copy"), "a"), "[4, 16]") << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# forward"), "linear_c1"), Outcome::Error) << a.dump();  // base: 32
  EXPECT_EQ(a.outcome(line_of(src, "# config"), "view_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# dict"), "matmul_c2"), Outcome::Proven) << a.dump();
}

TEST(Objects, AConvsOrNormsReplacedParametersGiveItsSizes) {
  // an outside tester's report: the forward reads the weight's sizes, not
  // the constructor's (a grayscale stem made of an RGB one: false error; a
  // replaced weight of another size: false proof)
  const std::string src =
      "import sys\n"
      "import torch\n"
      "import torch.nn as nn\n"
      "conv = nn.Conv2d(3, 16, 3, padding=1)\n"
      "conv.weight = nn.Parameter(conv.weight.sum(1, keepdim=True))\n"
      "a = conv(torch.randn(2, 1, 8, 8))  # grayscale\n"
      "b = conv(torch.randn(2, 3, 8, 8))  # rgb\n"
      "k = int(sys.argv[1])\n"
      "wide = nn.Conv2d(3, 16, 3)\n"
      "wide.weight = nn.Parameter(torch.randn(16, k, 5, 5))\n"
      "c = wide(torch.randn(2, 3, 8, 8))  # symbolic\n"
      "bn = nn.BatchNorm2d(16)\n"
      "bn.weight = nn.Parameter(torch.ones(8))\n"
      "bn.bias = nn.Parameter(torch.zeros(8))\n"
      "bn.running_mean = torch.zeros(8)\n"
      "bn.running_var = torch.ones(8)\n"
      "bn.eval()\n"
      "d = bn(torch.randn(2, 8, 4, 4))  # bn\n"
      "bn.running_var = torch.ones(16)\n"
      "e = bn(torch.randn(2, 8, 4, 4))  # mixed\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# grayscale"), "conv2d_c2"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# grayscale"), "a"), "[2, 16, 8, 8]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# rgb"), "conv2d_c2"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# symbolic"), "conv2d_c2"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# symbolic"), "c"), "[2, 16, 4, 4]") << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# bn"), "batch_norm_c2"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# mixed"), "batch_norm_c2"), Outcome::Error) << a.dump();  // running_var: 16
}

}  // namespace
}  // namespace gshape::testing
