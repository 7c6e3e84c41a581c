"""A failing check stops the program at the user's line with ShapeCheckError,
before PyTorch's own error, both when the instrumented file is run directly
and through the launcher (`gshape run`); a passing one changes nothing. Every
site is checked (auto plans): the check of `self.fc(x)` is nn.Linear's rule,
found at run time from the called module."""

import os
import subprocess
import unittest

import codegen_helpers as h

PROGRAM = '''\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(80, 10)

    def forward(self, x):
        return self.fc(x)


net = Net()
print("before", flush=True)
y = net(torch.zeros(64, int(__import__("sys").argv[1])))
print("after", tuple(y.shape))
'''
# self.fc(x) is at line 11, column 16: slot 0 is the callee `self.fc`, slot 1 is `x`.


def last_frame(stderr):
    frames = [line.strip() for line in stderr.splitlines() if line.strip().startswith("File ")]
    return frames[-1] if frames else ""


class RuntimeChecks(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)

    def test_failing_check_names_the_users_line_before_pytorch_fails(self):
        with h.TempDir() as tmp:
            out, summary, original, instrumented = h.instrument_bytes(PROGRAM.encode(), tmp)
            self.assertGreater(summary["sites"], 5)
            self.assertRegex(out, rb"return +_gshape_checks\.stash\((\d+), 0, self\.fc\)\(_gshape_checks\.check\(\1, 1, x\)\)\n")
            done = h.run_python(instrumented, args=["120"])
            stderr = done.stderr.decode()
            self.assertEqual(done.returncode, 1, stderr)
            self.assertEqual(done.stdout.decode(), "before\n")
            self.assertIn("gshape_runtime.ShapeCheckError: %s:11:16: [linear_c1] nn.Linear(80, 10) expects "
                          "in_features 80 but the input's last dimension is 120 (input shape [64, 120])"
                          % original, stderr)
            self.assertEqual(last_frame(stderr), 'File "%s", line 11, in forward' % instrumented)
            self.assertNotIn("mat1 and mat2", stderr)

    def test_passing_check_changes_nothing(self):
        with h.TempDir() as tmp:
            _, _, original, instrumented = h.instrument_bytes(PROGRAM.encode(), tmp)
            before = h.run_python(original, args=["80"])
            after = h.run_python(instrumented, args=["80"])
            self.assertEqual(after.returncode, 0, after.stderr)
            self.assertEqual(after.stdout, before.stdout)
            self.assertEqual(after.stdout.decode(), "before\nafter (64, 10)\n")

    def test_without_the_check_pytorch_fails_instead(self):
        # The same run with checks disabled: proves the check above is what
        # stopped the program, one step before PyTorch would have.
        with h.TempDir() as tmp:
            _, _, _, instrumented = h.instrument_bytes(PROGRAM.encode(), tmp)
            env = h.runtime_env()
            env["GSHAPE_CHECKS"] = "0"
            done = h.run_python(instrumented, env=env, args=["120"])
            self.assertEqual(done.returncode, 1)
            self.assertIn(b"mat1 and mat2 shapes cannot be multiplied", done.stderr)

    def test_through_the_launcher_the_traceback_names_the_original(self):
        with h.TempDir() as tmp:
            script = h.write(os.path.join(tmp, "proj", "train.py"), PROGRAM)
            done = subprocess.run([h.TOOL, "run", script, "--cache-home", os.path.join(tmp, "cache"),
                                   "--", "120"], capture_output=True, text=True, timeout=300)
            self.assertEqual(done.returncode, 1, done.stderr)
            self.assertEqual(done.stdout, "before\n")
            self.assertIn("ShapeCheckError: %s:11:16: [linear_c1]" % script, done.stderr)
            self.assertEqual(last_frame(done.stderr), 'File "%s", line 11, in forward' % script)
            self.assertIn("\n    return self.fc(x)\n", done.stderr)  # the user's line, as written
            self.assertNotIn("launch.py", done.stderr)
            self.assertNotIn("_gshape_checks", done.stderr)


SLICES = '''\
import sys
import torch
n = int(sys.argv[1])
pe = torch.zeros(50, n)
x = torch.randn(3, n)
col = x[:, 2]
pe[:, 0::2] = torch.ones(50, 8)
mask = (torch.ones(n, n)
        .view(1, 1, n, n))
print("done", tuple(col.shape), tuple(mask.shape))
'''


class SlicesAssignmentsAndMethodChains(unittest.TestCase):
    """A subscript holding a slice, an assignment into a slice and a method
    chain continued on the next line are checked at the line PyTorch's
    error would name."""

    def setUp(self):
        h.require_tool(self)

    def run_with(self, n):
        with h.TempDir() as tmp:
            out, _, original, instrumented = h.instrument_bytes(SLICES.encode(), tmp)
            self.assertIn(b"_gshape_rt.index[:, 0::2]", out)
            checked = h.run_python(instrumented, args=[str(n)])
            env = h.runtime_env()
            env["GSHAPE_CHECKS"] = "0"
            plain = h.run_python(instrumented, env=env, args=[str(n)])
            return original, checked, plain

    def test_a_fitting_value_passes(self):
        _, checked, plain = self.run_with(16)
        self.assertEqual(checked.returncode, 0, checked.stderr)
        self.assertEqual(checked.stdout, b"done (3,) (1, 1, 16, 16)\n")
        self.assertEqual(plain.stdout, checked.stdout)

    def test_an_index_out_of_range_under_a_slice_is_stopped(self):
        original, checked, plain = self.run_with(2)
        self.assertIn("ShapeCheckError: %s:6:7: [getitem_c2] index 2 is out of bounds for dimension 1 with size 2"
                      % original, checked.stderr.decode())
        self.assertIn(b"IndexError", plain.stderr)  # PyTorch's own error, unchecked

    def test_a_value_wider_than_the_slice_is_stopped(self):
        original, checked, plain = self.run_with(17)
        self.assertIn("ShapeCheckError: %s:7:1: [setitem_c4] shape mismatch: value tensor of shape [50, 8] cannot be "
                      "broadcast to indexing result of shape [50, 9]" % original, checked.stderr.decode())
        self.assertIn(b"must match the existing size", plain.stderr)

    def test_a_continued_method_call_is_named_at_its_methods_line(self):
        with h.TempDir() as tmp:
            source = SLICES.replace(".view(1, 1, n, n)", ".view(2, 1, n, n)")
            _, _, original, instrumented = h.instrument_bytes(source.encode(), tmp)
            checked = h.run_python(instrumented, args=["16"])
            self.assertIn("ShapeCheckError: %s:9:10: [view_c5]" % original, checked.stderr.decode())
            self.assertEqual(last_frame(checked.stderr.decode()), 'File "%s", line 9, in <module>' % instrumented)


if __name__ == "__main__":
    unittest.main()
