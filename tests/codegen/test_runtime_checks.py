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


if __name__ == "__main__":
    unittest.main()
