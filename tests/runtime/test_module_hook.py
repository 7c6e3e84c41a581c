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
        self.assertIn("raised in a call of nn.Linear made inside the call at this line", str(error))

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
