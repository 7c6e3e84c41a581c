"""`gshape run` (run_script + launch.py) runs the instrumented project as if
it were the original: argv, working directory, __file__, __name__, stdin,
sys.path[0], PYTHONPATH, linecache/inspect, data files next to the script,
and exit codes; and it re-instruments only what changed."""

import json
import os
import signal
import subprocess
import unittest

import codegen_helpers as h

MAIN = '''\
import inspect, json, linecache, os, signal, sys
from pkg import util
with open(os.path.join(os.path.dirname(__file__), "data.txt")) as f:
    data = f.read().strip()
report = {
    "argv": sys.argv, "cwd": os.getcwd(), "file": __file__, "name": __name__, "path0": sys.path[0],
    "stdin": sys.stdin.read(), "pythonpath": os.environ.get("PYTHONPATH"),
    "util_file": util.__file__, "util_checked": util.CHECKED, "main_checked": "_gshape_checks" in globals(),
    "line1": linecache.getline(util.__file__, 3), "source": inspect.getsource(util.twice),
    "data": data, "value": util.twice(21),
    "env_marker": "GSHAPE_LAUNCH_PYTHONPATH" in os.environ,
}
print(json.dumps(report))
if __name__ == "__main__" and len(sys.argv) > 1:
    action = sys.argv[1]
    if action == "exit": sys.exit(int(sys.argv[2]))
    if action == "exit-text": sys.exit("bye")
    if action == "raise": util.fail()
    if action == "os-exit": sys.stdout.flush(); os._exit(9)
    if action == "signal": os.kill(os.getpid(), signal.SIGTERM)
    if action == "interrupt": raise KeyboardInterrupt
'''

UTIL = '''\
import math

def twice(v):
    return v * 2


CHECKED = "_gshape_checks" in globals()


def fail():
    raise ValueError("failed at %d" % twice(3))
'''


class Launcher(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)
        self.tmp = h.TempDir()
        self.dir = self.tmp.__enter__()
        self.project = os.path.join(self.dir, "proj")
        self.script = h.write(os.path.join(self.project, "main.py"), MAIN)
        h.write(os.path.join(self.project, "pkg", "__init__.py"), "")
        h.write(os.path.join(self.project, "pkg", "util.py"), UTIL)
        h.write(os.path.join(self.project, "data.txt"), "payload\n")
        self.cache = os.path.join(self.dir, "cache")
        self.log = os.path.join(self.dir, "cache-log.json")

    def tearDown(self):
        self.tmp.__exit__(None, None, None)

    def run_tool(self, *args, script=None, cwd=None, stdin=b"", env=None):
        command = [h.TOOL, "run", script or self.script, "--cache-home", self.cache, "--cache-log", self.log, "--", *args]
        return subprocess.run(command, capture_output=True, cwd=cwd or self.dir, input=stdin, env=env, timeout=300)

    def run_original(self, *args, script=None, cwd=None, stdin=b"", env=None):
        return subprocess.run([h.PYTHON, script or self.script, *args], capture_output=True, cwd=cwd or self.dir,
                              input=stdin, env=env, timeout=300)

    def cache_log(self):
        with open(self.log) as f:
            return json.load(f)

    def test_behaves_like_the_original(self):
        env = dict(os.environ, PYTHONPATH="/nonexistent/user/path")
        relative = os.path.relpath(self.script, self.project)
        for script, cwd in ((self.script, self.dir), (relative, self.project)):
            with self.subTest(script=script):
                before = self.run_original("a b", "--flag", script=script, cwd=cwd, stdin=b"input text", env=env)
                after = self.run_tool("a b", "--flag", script=script, cwd=cwd, stdin=b"input text", env=env)
                self.assertEqual(after.returncode, 0, after.stderr)
                got, want = json.loads(after.stdout), json.loads(before.stdout)
                self.assertTrue(got.pop("util_checked") and got.pop("main_checked"))  # instrumented copies ran
                self.assertFalse(want.pop("util_checked") or want.pop("main_checked"))
                self.assertEqual(got, want)
                self.assertEqual(got["argv"], [script, "a b", "--flag"])
                self.assertEqual(got["name"], "__main__")
                self.assertEqual(got["line1"], "def twice(v):\n")
                self.assertEqual(got["pythonpath"], "/nonexistent/user/path")

    def test_exit_codes(self):
        cases = [(["exit", "3"], 3), (["exit", "0"], 0), (["exit-text"], 1), (["raise"], 1), (["os-exit"], 9)]
        for args, code in cases:
            with self.subTest(args=args):
                before = self.run_original(*args)
                after = self.run_tool(*args)
                self.assertEqual(before.returncode, code)
                self.assertEqual(after.returncode, code, after.stderr)
                self.assertEqual(after.stderr.splitlines()[-1:], before.stderr.splitlines()[-1:])
        # Killed by a signal: Python reports -15, a shell (and gshape) 128 + 15.
        self.assertEqual(self.run_original("signal").returncode, -signal.SIGTERM)
        self.assertEqual(self.run_tool("signal").returncode, 128 + signal.SIGTERM)
        self.assertEqual(self.run_original("interrupt").returncode, -signal.SIGINT)
        self.assertEqual(self.run_tool("interrupt").returncode, 128 + signal.SIGINT)

    def test_uncaught_exception_traceback_is_the_originals(self):
        before = self.run_original("raise")
        after = self.run_tool("raise")
        self.assertEqual(after.returncode, 1)
        self.assertIn(b"ValueError: failed at 6", after.stderr)
        self.assertNotIn(b"launch.py", after.stderr)
        frames = [l for l in after.stderr.decode().splitlines() if l.strip().startswith("File ")]
        want = [l for l in before.stderr.decode().splitlines() if l.strip().startswith("File ")]
        self.assertEqual(frames, want)
        self.assertIn('File "%s", line 11, in fail' % os.path.join(self.project, "pkg", "util.py"), frames[-1])

    def test_reinstruments_only_what_changed(self):
        self.assertEqual(self.run_tool().returncode, 0)
        first = self.cache_log()
        self.assertTrue(first["analysed"])
        self.assertEqual(sorted(first["rewritten"]), ["main.py", "pkg/util.py"])
        self.assertEqual(self.run_tool().returncode, 0)
        second = self.cache_log()
        self.assertFalse(second["analysed"])
        self.assertEqual(second["rewritten"], [])
        h.write(os.path.join(self.project, "pkg", "util.py"), UTIL.replace("v * 2", "v + v"))
        done = self.run_tool()
        self.assertEqual(done.returncode, 0, done.stderr)
        third = self.cache_log()
        self.assertEqual(third["rewritten"], ["pkg/util.py"])
        self.assertEqual(json.loads(done.stdout)["source"], "def twice(v):\n    return v + v\n")

    def test_script_inside_a_package_uses_the_project_root(self):
        h.write(os.path.join(self.project, "pkg", "tool.py"),
                "import sys, json\nfrom pkg import util\nprint(json.dumps([sys.path[0], util.CHECKED, util.twice(2)]))\n")
        tool = os.path.join(self.project, "pkg", "tool.py")
        env = dict(os.environ, PYTHONPATH=self.project)  # so `from pkg import util` resolves, as for the original
        before = self.run_original(script=tool, env=env)
        after = self.run_tool(script=tool, env=env)
        self.assertEqual(after.returncode, 0, after.stderr)
        self.assertEqual(self.cache_log()["project_root"], self.project)
        got, want = json.loads(after.stdout), json.loads(before.stdout)
        self.assertEqual(got[0], want[0])
        self.assertEqual(got[1:], [True, 4])


if __name__ == "__main__":
    unittest.main()
