// Python protocols that change state behind an ordinary-looking statement:
// a context manager's __enter__/__exit__, a class's own __setattr__, data
// descriptors, `type(self).x = v`, nonlocal writes of a closure, a library
// function replaced by the project (`F.pad = my_pad`), process-wide module
// hooks and `model.apply(fn)`. Each was a false "proven" found by an outside
// tester (tester6): the view below each change was proven with the value
// before it, and PyTorch's error got past `gshape run`.
#include <gtest/gtest.h>

#include "analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

// x is [2, 8]: `x.view(2, w)` holds only for w = 8 (view_c5 refutes a known other width)
constexpr const char* kHeader =
    "import torch\n"
    "import torch.nn as nn\n"
    "x = torch.randn(2, 8)\n";

TEST(Protocols, AContextManagersEnterAndExitRun) {
  const std::string src = std::string(kHeader) +
                          "class Cfg:\n"
                          "    width = 8\n"
                          "class Override:\n"
                          "    def __init__(self, cfg, w):\n"
                          "        self.cfg, self.w = cfg, w\n"
                          "    def __enter__(self):\n"
                          "        self.old = self.cfg.width\n"
                          "        self.cfg.width = self.w\n"
                          "        return self.w\n"
                          "    def __exit__(self, *exc):\n"
                          "        self.cfg.width = self.old\n"
                          "cfg = Cfg()\n"
                          "with Override(cfg, 6) as w:\n"
                          "    a = x.view(2, cfg.width)  # inside\n"
                          "    b = x.view(2, w)  # as\n"
                          "c = x.view(2, cfg.width)  # after\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# inside"), "view_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# as"), "view_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# after"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Protocols, OwnSetattrAndDataDescriptorsDecideWhatIsStored) {
  const std::string src = std::string(kHeader) +
                          "class Cfg:\n"
                          "    def __setattr__(self, name, value):\n"
                          "        object.__setattr__(self, name, (value + 7) // 8 * 8)\n"
                          "cfg = Cfg()\n"
                          "cfg.dim = 12\n"
                          "a = x.view(2, cfg.dim)  # setattr\n"
                          "class Doubled:\n"
                          "    def __get__(self, obj, owner=None):\n"
                          "        return obj._h * 2\n"
                          "    def __set__(self, obj, v):\n"
                          "        obj._h = v\n"
                          "class Block:\n"
                          "    hidden = Doubled()\n"
                          "    def __init__(self, d):\n"
                          "        self.hidden = d\n"
                          "b = x.view(2, Block(8).hidden)  # descriptor\n";
  Analysed a(src);
  EXPECT_NE(a.outcome(line_of(src, "# setattr"), "view_c5"), Outcome::Proven) << a.dump();
  EXPECT_NE(a.outcome(line_of(src, "# descriptor"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Protocols, AClassAttributeWrittenThroughTypeOfSelf) {
  const std::string src = std::string(kHeader) +
                          "class Head:\n"
                          "    dim = 8\n"
                          "    def shrink(self):\n"
                          "        type(self).dim = 6\n"
                          "    def grow(self):\n"
                          "        self.__class__.dim = 4\n"
                          "h = Head()\n"
                          "Head().shrink()\n"
                          "a = x.view(2, h.dim)  # type\n"
                          "Head().grow()\n"
                          "b = x.view(2, h.dim)  # dunder class\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# type"), "view_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# dunder class"), "view_c5"), Outcome::Error) << a.dump();
}

TEST(Protocols, ANonlocalWriteChangesWhatEveryInnerFunctionReads) {
  const std::string src = std::string(kHeader) +
                          "def make():\n"
                          "    d = 8\n"
                          "    def head(t):\n"
                          "        return t.view(2, d)  # sibling\n"
                          "    def shrink():\n"
                          "        nonlocal d\n"
                          "        d = 6\n"
                          "    return head, shrink\n"
                          "head, shrink = make()\n"
                          "shrink()\n"
                          "head(x)\n"
                          "def stream():\n"
                          "    width = 8\n"
                          "    def step(t):\n"
                          "        nonlocal width\n"
                          "        y = t.view(2, width)  # stateful\n"
                          "        width = width // 2\n"
                          "        return y\n"
                          "    return step\n"
                          "step = stream()\n"
                          "step(x)\n"
                          "step(x)\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# sibling"), "view_c5"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# stateful"), "view_c5"), Outcome::Deferred) << a.dump();
}

TEST(Protocols, ALibraryFunctionTheProjectReplacedIsTheOneCalled) {
  const std::string src = std::string(kHeader) +
                          "import torch.nn.functional as F\n"
                          "def my_pad(t, pad, mode='constant', value=0.0):\n"
                          "    return torch.cat([t, t], 1)\n"
                          "F.pad = my_pad\n"
                          "y = F.pad(x, (0, 2))\n"
                          "a = y.view(2, 10)  # patched\n";
  Analysed a(src);
  // my_pad doubles the width: 16, not the pad rule's 10
  EXPECT_EQ(a.outcome(line_of(src, "# patched"), "view_c5"), Outcome::Error) << a.dump();
}

TEST(Protocols, AHookForEveryModuleStopsFollowingModuleCalls) {
  const std::string src = std::string(kHeader) +
                          "class Net(nn.Module):\n"
                          "    def forward(self, t):\n"
                          "        return t.view(2, 2, 4)  # forward\n"
                          "def crop(mod, inputs):\n"
                          "    return (inputs[0][:, :4],)\n"
                          "nn.modules.module.register_module_forward_pre_hook(crop)\n"
                          "y = Net()(x)\n";
  Analysed a(src);
  EXPECT_NE(a.outcome(line_of(src, "# forward"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Protocols, ModelApplyRunsTheFunctionOnEverySubmodule) {
  const std::string src = std::string(kHeader) +
                          "class Attn(nn.Module):\n"
                          "    def __init__(self):\n"
                          "        super().__init__()\n"
                          "        self.width = 8\n"
                          "    def forward(self, t):\n"
                          "        return t.view(2, self.width)  # attn\n"
                          "class Net(nn.Module):\n"
                          "    def __init__(self):\n"
                          "        super().__init__()\n"
                          "        self.attn = Attn()\n"
                          "    def forward(self, t):\n"
                          "        return self.attn(t)\n"
                          "def narrow(m):\n"
                          "    if isinstance(m, Attn):\n"
                          "        m.width = 6\n"
                          "net = Net()\n"
                          "net.apply(narrow)\n"
                          "y = net(x)\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# attn"), "view_c5"), Outcome::Error) << a.dump();
}

TEST(Protocols, WhatAGeneratorWritesIsUnknownAfterItIsMade) {
  // its body runs when it is iterated: a @contextmanager's restore in its
  // `finally` had already run inside the with body (a false proof) and a
  // false error after it (tester6/12)
  const std::string src = std::string(kHeader) +
                          "import contextlib\n"
                          "class Cfg:\n"
                          "    width = 8\n"
                          "@contextlib.contextmanager\n"
                          "def override(cfg, w):\n"
                          "    old = cfg.width\n"
                          "    cfg.width = w\n"
                          "    try:\n"
                          "        yield cfg\n"
                          "    finally:\n"
                          "        cfg.width = old\n"
                          "cfg = Cfg()\n"
                          "with override(cfg, 6):\n"
                          "    a = x.view(2, cfg.width)  # inside\n"
                          "dims = [8]\n"
                          "def shrinker():\n"
                          "    dims[0] = 6\n"
                          "    yield 1\n"
                          "g = shrinker()\n"
                          "b = x.view(2, dims[0])  # list\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# inside"), "view_c5"), Outcome::Deferred) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# list"), "view_c5"), Outcome::Deferred) << a.dump();
}

TEST(Protocols, SuperFollowsTheInstancesMethodResolutionOrder) {
  // cooperative multiple inheritance: Left's super() is Right in Both's MRO
  // (before, Base: a false proof; tester6/02)
  const std::string src = std::string(kHeader) +
                          "class Base:\n"
                          "    def width(self):\n"
                          "        return 8\n"
                          "class Left(Base):\n"
                          "    def width(self):\n"
                          "        return super().width()\n"
                          "class Right(Base):\n"
                          "    def width(self):\n"
                          "        return 6\n"
                          "class Both(Left, Right):\n"
                          "    pass\n"
                          "a = x.view(2, Both().width())  # diamond\n"
                          "b = x.view(2, Left().width())  # single\n"
                          "class Layer(nn.Linear):\n"
                          "    def forward(self, t):\n"
                          "        return super().forward(t)\n"
                          "c = Layer(8, 3)(x).view(2, 3)  # library base\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# diamond"), "view_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# single"), "view_c5"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# library base"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Protocols, ASequentialsChildReplacedBySetattrOrAddModule) {
  // tester7/02: the old layer was called, the next Linear proven
  const std::string src = std::string(kHeader) +
                          "body = nn.Sequential(nn.Linear(8, 8), nn.ReLU())\n"
                          "body.add_module('0', nn.Linear(8, 6))\n"
                          "a = nn.Linear(8, 4)(body(x))  # add_module\n"
                          "seq = nn.Sequential(nn.Linear(8, 8), nn.ReLU())\n"
                          "setattr(seq, '0', nn.Linear(8, 6))\n"
                          "b = nn.Linear(8, 4)(seq(x))  # setattr\n"
                          "more = nn.Sequential(nn.Linear(8, 8))\n"
                          "more.add_module('extra', nn.Linear(8, 6))\n"
                          "c = nn.Linear(8, 4)(more(x))  # appended\n";
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# add_module"), "linear_c1"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.worst(line_of(src, "# setattr"), "linear_c1"), Outcome::Error) << a.dump();
  EXPECT_NE(a.worst(line_of(src, "# appended"), "linear_c1"), Outcome::Proven) << a.dump();
}

TEST(Protocols, APatchedLibraryMethodIsNotCheckedByItsRule) {
  // tester7/09: false errors on correct programs
  const std::string src = std::string(kHeader) +
                          "_view = torch.Tensor.view\n"
                          "def safe_view(self, *shape):\n"
                          "    return _view(self.contiguous(), *shape)\n"
                          "torch.Tensor.view = safe_view\n"
                          "y = torch.randn(4, 3).t().view(12)  # patched view\n";
  Analysed a(src);
  // the call is not checked by view's rule (before: a false view_c6 error)
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
}

TEST(Protocols, ATryBodyThatStopsEarlyLeavesAnyValueItHadInBetween) {
  // tester7/01: what the body wrote after the raising statement was kept
  // (an attribute, and a variable: `width = 6; load(); width = 8`)
  const std::string src = std::string(kHeader) +
                          "import contextlib\n"
                          "def load():\n"
                          "    raise ValueError('x')\n"
                          "class Cfg:\n"
                          "    width = 8\n"
                          "cfg = Cfg()\n"
                          "try:\n"
                          "    cfg.width = 6\n"
                          "    load()\n"
                          "    cfg.width = 8\n"
                          "except ValueError:\n"
                          "    pass\n"
                          "a = x.view(2, cfg.width)  # attribute\n"
                          "width = 8\n"
                          "try:\n"
                          "    width = 6\n"
                          "    load()\n"
                          "    width = 8\n"
                          "except ValueError:\n"
                          "    pass\n"
                          "b = x.view(2, width)  # variable\n"
                          "other = Cfg()\n"
                          "with contextlib.suppress(ValueError):\n"
                          "    other.width = 6\n"
                          "    load()\n"
                          "    other.width = 8\n"
                          "c = x.view(2, other.width)  # suppress\n";
  Analysed a(src);
  for (const char* at : {"# attribute", "# variable", "# suppress"})
    EXPECT_EQ(a.outcome(line_of(src, at), "view_c5"), Outcome::Deferred) << at << "\n" << a.dump();
}

TEST(Protocols, AContextManagerEnteredThroughAnExitStack) {
  // tester7/07: its __enter__ never ran, so its write was lost
  const std::string src = std::string(kHeader) +
                          "import contextlib\n"
                          "class Cfg:\n"
                          "    width = 8\n"
                          "class Override:\n"
                          "    def __init__(self, cfg, w):\n"
                          "        self.cfg, self.w = cfg, w\n"
                          "    def __enter__(self):\n"
                          "        self.old = self.cfg.width\n"
                          "        self.cfg.width = self.w\n"
                          "        return self\n"
                          "    def __exit__(self, *exc):\n"
                          "        self.cfg.width = self.old\n"
                          "cfg = Cfg()\n"
                          "with contextlib.ExitStack() as stack:\n"
                          "    stack.enter_context(Override(cfg, 6))\n"
                          "    y = x.view(2, cfg.width)  # entered\n";
  Analysed a(src);
  EXPECT_NE(a.outcome(line_of(src, "# entered"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Protocols, AContextDecoratorRunsItsEnterAndExitAroundEachCall) {
  // tester7/07: `@Override(cfg, 6)` of a contextlib.ContextDecorator subclass
  // ran the body without __enter__, so the view inside was proven with width 8
  const std::string src = std::string(kHeader) +
                          "import contextlib\n"
                          "class Cfg:\n"
                          "    width = 8\n"
                          "class Override(contextlib.ContextDecorator):\n"
                          "    def __init__(self, cfg, w):\n"
                          "        self.cfg, self.w = cfg, w\n"
                          "    def __enter__(self):\n"
                          "        self.old = self.cfg.width\n"
                          "        self.cfg.width = self.w\n"
                          "        return self\n"
                          "    def __exit__(self, *exc):\n"
                          "        self.cfg.width = self.old\n"
                          "cfg = Cfg()\n"
                          "@Override(cfg, 6)\n"
                          "def step(t):\n"
                          "    return t.view(2, cfg.width)  # decorated\n"
                          "y = step(x)\n"
                          "z = x.view(2, cfg.width)  # after\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# decorated"), "view_c5"), Outcome::Error) << a.dump();
  EXPECT_EQ(a.outcome(line_of(src, "# after"), "view_c5"), Outcome::Proven) << a.dump();
}

TEST(Protocols, AnInstanceDecoratorWithItsOwnCallWrapsTheFunction) {
  // an instance of a project class with __call__ was taken to keep the
  // function: the wrapper's reshape was never seen (a false error here)
  const std::string src = std::string(kHeader) +
                          "class Reshaped:\n"
                          "    def __init__(self, k):\n"
                          "        self.k = k\n"
                          "    def __call__(self, f):\n"
                          "        def g(t):\n"
                          "            return f(t).reshape(self.k, -1)\n"
                          "        return g\n"
                          "@Reshaped(4)\n"
                          "def h(t):\n"
                          "    return t\n"
                          "y = nn.Linear(4, 3)(h(x))  # wrapped\n";
  Analysed a(src);
  EXPECT_EQ(a.outcome(line_of(src, "# wrapped"), "linear_c1"), Outcome::Proven) << a.dump();
}

}  // namespace
}  // namespace gshape::testing
