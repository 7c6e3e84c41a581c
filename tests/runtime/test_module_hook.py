"""The module hook: importing gshape_runtime installs a forward pre-hook on
every nn.Module, so a module call that no site checked — a layer inside an
nn.Sequential, a call made by library code, a module the analysis lost track
of — is checked with its class's forward rule too, and fails with
ShapeCheckError naming the innermost line of the user's code. A call a site
has just checked is not checked twice."""

import os
import subprocess
import sys
import textwrap
import traceback
import unittest

import torch
import torch.nn as nn

import gshape_runtime
from gshape_runtime import ShapeCheckError


def hook_counters():
    rows = [s for s in gshape_runtime.stats() if s["path"] == "<module calls>"]
    return sum(s["runs"] for s in rows), sum(s["failures"] for s in rows)


class ModuleHookTests(unittest.TestCase):
    def test_a_layer_inside_a_sequential_fails_at_the_users_line(self):
        net = nn.Sequential(nn.Linear(784, 120), nn.ReLU(), nn.Linear(80, 10))
        with self.assertRaises(ShapeCheckError) as caught:
            net(torch.empty(3, 784))  # the line the error names
        error = caught.exception
        self.assertEqual(error.tag, "linear_c1")
        self.assertEqual(os.path.basename(error.path), os.path.basename(__file__))
        with open(__file__, encoding="utf-8") as f:
            line = f.read().splitlines()[error.line - 1]
        self.assertIn("the line the error names", line)
        self.assertIn("nn.Linear(80, 10) expects in_features 80 but the input's last dimension is 120", str(error))
        self.assertIn("raised in net[2] = nn.Linear(80, 10) (line %d), a layer of the nn.Sequential called at this line"
                      % (error.line - 2), str(error))

    def test_a_module_with_its_own_pre_hook_is_not_checked_on_the_input_as_called(self):
        # the pre-hook runs after gshape's and transposes the input (an outside tester's report)
        lin = nn.Linear(4, 2)
        lin.register_forward_pre_hook(lambda m, inp: (inp[0].t(),))
        self.assertEqual(tuple(lin(torch.randn(4, 3)).shape), (3, 2))

    def test_a_lazy_layer_is_checked_once_it_has_its_sizes(self):
        # nn.LazyConv2d has in_channels 0 before its first call: the check
        # waits until it has become an nn.Conv2d (an outside user's report)
        net = nn.Sequential(nn.LazyConv2d(8, 3), nn.ReLU())
        self.assertEqual(tuple(net(torch.randn(2, 3, 12, 12)).shape), (2, 8, 10, 10))
        self.assertIsInstance(net[0], nn.Conv2d)
        with self.assertRaises(ShapeCheckError) as caught:
            net(torch.randn(2, 5, 12, 12))
        self.assertEqual(caught.exception.tag, "conv2d_c2")
        lazy = nn.LazyLinear(4)
        self.assertEqual(tuple(nn.Sequential(lazy)(torch.randn(2, 6)).shape), (2, 4))

    def test_a_failing_layer_of_a_sequential_ends_the_traceback_at_its_line(self):
        net = nn.Sequential(
            nn.Linear(784, 120),
            nn.ReLU(),
            nn.Linear(80, 10),  # the layer that fails
        )
        try:  # (assertRaises drops the traceback)
            net(torch.empty(3, 784))  # the call
        except ShapeCheckError as raised:
            error = raised
        else:
            self.fail("no ShapeCheckError")
        lines = open(__file__, encoding="utf-8").read().splitlines()
        layer = next(i + 1 for i, text in enumerate(lines) if text.endswith("# the layer that fails"))
        self.assertIn("# the call", lines[error.line - 1])
        self.assertIn("raised in net[2] = nn.Linear(80, 10) (line %d), a layer of the nn.Sequential" % layer, str(error))
        last = traceback.extract_tb(error.__traceback__)[-1]
        self.assertEqual((last.filename, last.lineno, last.name), (__file__, layer, "net[2]"))
        self.assertIn("the layer that fails", last.line)
        # an instance made otherwise (here a copy) is named by its index and class
        import copy
        clone = copy.deepcopy(net)
        with self.assertRaises(ShapeCheckError) as caught:
            clone(torch.empty(3, 784))
        self.assertIn("raised in layer [2] (Linear) of an nn.Sequential called at this line", str(caught.exception))
        # a module the user's code calls itself keeps the plain message
        with self.assertRaises(ShapeCheckError) as caught:
            nn.Linear(80, 10)(torch.empty(3, 784))
        self.assertIn("raised in a call of nn.Linear made inside the call at this line", str(caught.exception))

    def test_a_sequential_still_behaves_as_one(self):
        import inspect
        net = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        self.assertEqual(len(net), 2)
        self.assertEqual(nn.Sequential.__init__.__name__, "__init__")
        self.assertIn("args", str(inspect.signature(nn.Sequential.__init__)))
        from collections import OrderedDict
        named = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 3)), ("act", nn.ReLU())]))
        self.assertEqual(list(dict(named.named_children())), ["fc", "act"])
        with self.assertRaises(ShapeCheckError) as caught:
            named(torch.empty(1, 5))
        self.assertIn("named.fc (Linear)", str(caught.exception))

    def test_correct_calls_pass_and_are_counted(self):
        before, failures = hook_counters()
        net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                            nn.Flatten(), nn.Linear(8 * 4 * 4, 10))
        out = net(torch.empty(2, 3, 8, 8))
        self.assertEqual(tuple(out.shape), (2, 10))
        after, failures_after = hook_counters()
        self.assertEqual(after - before, 6)  # every layer; the Sequential itself has no rule
        self.assertEqual(failures_after, failures)

    def test_a_call_a_site_just_checked_is_not_checked_again(self):
        table = gshape_runtime.CheckTable("m.py", [(1, 1, None, ["callee", "arg"])], enabled=True)
        fc = nn.Linear(4, 2)
        before, _ = hook_counters()
        table.stash(0, 0, fc)
        fc(table.check(0, 1, torch.empty(3, 4)))
        after, _ = hook_counters()
        self.assertEqual(after, before)
        fc(torch.empty(3, 4))  # no site: the hook checks it
        self.assertEqual(hook_counters()[0], before + 1)

    def test_keyword_arguments_the_hook_does_not_see_never_fail(self):
        # PyTorch's global pre-hook gets the positional inputs only
        mha = nn.MultiheadAttention(8, 2)
        q = torch.empty(5, 3, 8)
        out, _ = mha(q, q, q, key_padding_mask=torch.zeros(3, 5, dtype=torch.bool))
        self.assertEqual(tuple(out.shape), (5, 3, 8))
        lstm = nn.LSTM(4, 6, batch_first=True)
        out, _ = lstm(input=torch.empty(2, 7, 4))
        self.assertEqual(tuple(out.shape), (2, 7, 6))

    def test_no_hook_without_checks(self):
        code = textwrap.dedent("""
            import torch, gshape_runtime
            net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Linear(5, 6))
            try:
                net(torch.empty(2, 3))
            except RuntimeError as e:
                print(type(e).__name__, gshape_runtime._module_hook)
        """)
        env = dict(os.environ, GSHAPE_CHECKS="0")
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(done.stdout.strip(), "RuntimeError None", done.stderr)


if __name__ == "__main__":
    unittest.main()
