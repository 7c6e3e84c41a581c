"""The real pipeline: gshape's analysis (gradual::analyse_project) plans the
checks, the rewriter inserts them, the launcher runs them. On every sample
the output round-trips and compiles; the LeNet sample whose flatten size was
computed by hand stops at the user's line with the analysis' message before
PyTorch fails; its fixed version runs exactly like the original."""

import glob
import os
import subprocess
import unittest

import codegen_helpers as h

SAMPLE = os.path.join(h.SOURCE_DIR, "samples", "bug_flatten_in_features.py")


class EndToEnd(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)

    def run_tool(self, script, cache, cwd):
        return subprocess.run([h.TOOL, "run", script, "--analysis", "--cache-home", cache], capture_output=True,
                              text=True, cwd=cwd, timeout=600)

    def test_samples_with_the_analysis_plans(self):
        samples = sorted(glob.glob(os.path.join(h.SOURCE_DIR, "samples", "*.py")))
        # Programs whose bug or input shape cannot be settled without running
        # them must carry checks; correct programs whose shapes the analysis
        # proves need none, so their count is not a measure of anything.
        must_check = [p for p in samples if os.path.basename(p).startswith(("bug_", "deferred_"))]
        self.assertGreaterEqual(len(must_check), 7)
        with h.TempDir() as tmp:
            for path in samples:
                with self.subTest(sample=os.path.basename(path)):
                    source = h.read_bytes(path)
                    out, summary, _, instrumented = h.instrument_bytes(source, tmp, os.path.basename(path),
                                                                       extra=["--analysis"])
                    if path in must_check:
                        self.assertGreater(summary["sites"], 0, "no run-time check in " + path)
                    self.assertEqual(h.strip(out), source)
                    self.assertEqual(h.line_count(out), h.line_count(source))
                    compile(out, instrumented, "exec", dont_inherit=True)

    def test_hand_computed_flatten_size_fails_at_the_users_line(self):
        with h.TempDir() as tmp:
            done = self.run_tool(SAMPLE, os.path.join(tmp, "cache"), h.SOURCE_DIR)
            self.assertEqual(done.returncode, 1, done.stderr)
            self.assertIn("ShapeCheckError: %s:27:20: [linear_c1] nn.Linear(576, 120) expects in_features 576 "
                          "but the input's last dimension is 400 (input shape [4, 400])" % SAMPLE, done.stderr)
            frames = [l.strip() for l in done.stderr.splitlines() if l.strip().startswith("File ")]
            self.assertEqual(frames[-1], 'File "%s", line 27, in forward' % SAMPLE)
            self.assertNotIn("mat1 and mat2", done.stderr)
            # Named relatively, the message names the file as the user typed it.
            relative = self.run_tool(os.path.join("samples", os.path.basename(SAMPLE)), os.path.join(tmp, "cache"),
                                     h.SOURCE_DIR)
            self.assertIn("ShapeCheckError: samples/bug_flatten_in_features.py:27:20: [linear_c1]", relative.stderr)

    def test_fixed_program_runs_like_the_original(self):
        with open(SAMPLE) as f:
            fixed = f.read().replace("nn.Linear(16 * 6 * 6, 120)", "nn.Linear(16 * 5 * 5, 120)")
        self.assertIn("16 * 5 * 5", fixed)
        with h.TempDir() as tmp:
            script = h.write(os.path.join(tmp, "proj", "lenet.py"), fixed)
            before = subprocess.run([h.PYTHON, script], capture_output=True, text=True, timeout=300)
            after = self.run_tool(script, os.path.join(tmp, "cache"), tmp)
            self.assertEqual(before.returncode, 0, before.stderr)
            self.assertEqual(after.returncode, 0, after.stderr)
            self.assertEqual(after.stdout, before.stdout)
            self.assertEqual(after.stdout, "torch.Size([4, 10])\n")


if __name__ == "__main__":
    unittest.main()
