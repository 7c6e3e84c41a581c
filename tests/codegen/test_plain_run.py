"""An instrumented tree runs with plain `/usr/bin/python3 OUT/script.py` once
scripts/install-runtime.sh has put a .pth file in that Python's user
site-packages (here a temporary PYTHONUSERBASE, so the machine is untouched);
the tree holds every file, and gshape-report.json describes it."""

import json
import os
import subprocess
import unittest

import codegen_helpers as h

SCRIPT = '''\
import os
import torch
from helpers import scale
with open(os.path.join(os.path.dirname(__file__), "config", "size.txt")) as f:
    n = int(f.read())
x = torch.ones(n, 3)
print(tuple(scale(x, 2).shape), float(scale(x, 2).sum()), "_gshape_checks" in globals())
'''
HELPERS = "import torch\n\n\ndef scale(t, k):\n    return t * k\n"


def tree_snapshot(root):
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            files[os.path.relpath(path, root)] = h.read_bytes(path)
    return files


class PlainRun(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)

    def test_instrumented_tree_runs_with_plain_python(self):
        with h.TempDir() as tmp:
            project = os.path.join(tmp, "project")
            h.write(os.path.join(project, "train.py"), SCRIPT)
            h.write(os.path.join(project, "helpers.py"), HELPERS)
            h.write(os.path.join(project, "config", "size.txt"), "4\n")
            h.write(os.path.join(project, "broken.py"), "def (:\n")
            before = tree_snapshot(project)
            out = os.path.join(tmp, "out")
            done = subprocess.run([h.TOOL, "tree", project, out], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertEqual(tree_snapshot(project), before)  # the source tree is untouched

            mirrored = tree_snapshot(out)
            self.assertEqual(sorted(mirrored), ["broken.py", "config/size.txt", "gshape-report.json",
                                                "helpers.py", "train.py"])
            self.assertEqual(mirrored["broken.py"], before["broken.py"])
            with open(os.path.join(out, "gshape-report.json")) as f:
                report = json.load(f)
            self.assertEqual(report["format"], "gshape-instrument-report")
            self.assertEqual(report["not_parsed"], [os.path.join(project, "broken.py")])
            self.assertEqual(report["summary"]["instrumented_files"], 2)
            self.assertGreater(report["summary"]["sites_checked"], 5)

            # The install script, into a private user base.
            userbase = os.path.join(tmp, "userbase")
            env = dict(os.environ, PYTHONUSERBASE=userbase)
            env.pop("PYTHONPATH", None)
            install = os.path.join(h.SOURCE_DIR, "scripts", "install-runtime.sh")
            build = os.path.dirname(os.path.dirname(h.RUNTIME_PATH))
            first = subprocess.run(["bash", install, build], capture_output=True, text=True, env=env)
            self.assertEqual(first.returncode, 0, first.stderr)
            second = subprocess.run(["bash", install, build], capture_output=True, text=True, env=env)
            self.assertIn("already points", second.stdout)  # idempotent

            ran = subprocess.run([h.PYTHON, os.path.join(out, "train.py")], capture_output=True, text=True,
                                 env=env, cwd=tmp, timeout=300)
            self.assertEqual(ran.returncode, 0, ran.stderr)
            self.assertEqual(ran.stdout, "(4, 3) 24.0 True\n")
            original = subprocess.run([h.PYTHON, os.path.join(project, "train.py")], capture_output=True,
                                      text=True, env=env, cwd=tmp, timeout=300)
            self.assertEqual(original.stdout, "(4, 3) 24.0 False\n")

            # Without the .pth (another user base), the import fails: the file is what made it work.
            env["PYTHONUSERBASE"] = os.path.join(tmp, "empty")
            missing = subprocess.run([h.PYTHON, os.path.join(out, "train.py")], capture_output=True, text=True,
                                     env=env, cwd=tmp, timeout=300)
            self.assertNotEqual(missing.returncode, 0)
            self.assertIn("No module named 'gshape_runtime'", missing.stderr)


if __name__ == "__main__":
    unittest.main()
