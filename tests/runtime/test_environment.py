"""Process-level behaviour, each in a fresh interpreter: GSHAPE_CHECKS=0
turns checks into no-ops (and installs no module hook), GSHAPE_STATS=path
writes per-site counters at exit (also when a check killed the program),
and gshape_runtime imports before or after torch."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT_PRELUDE = textwrap.dedent("""
    import torch
    import gshape_runtime
    fc = torch.nn.Linear(80, 2)
    _gs = gshape_runtime.CheckTable("train.py", [
        (5, 9, None, ["callee", "arg"]),
        (7, 3, "operator.matmul", ["arg", "arg"]),
    ])
""")


def run_python(code, **env_changes):
    env = dict(os.environ)
    for name in ("GSHAPE_CHECKS", "GSHAPE_STATS"):
        env.pop(name, None)
    env.update(env_changes)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


class ChecksSwitchTests(unittest.TestCase):
    def test_checks_are_on_by_default(self):
        result = run_python(SCRIPT_PRELUDE + "print(gshape_runtime.checks_enabled, _gs.enabled)\n"
                                             "_gs.check_values(0, fc, torch.empty(2, 81))\n")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("True True", result.stdout)
        self.assertIn("gshape_runtime.ShapeCheckError: train.py:5:9: [linear_c1] nn.Linear(80, 2) expects in_features "
                      "80 but the input's last dimension is 81 (input shape [2, 81])", result.stderr)

    def test_gshape_checks_0_makes_every_check_a_no_op(self):
        for value in ("0", "false", "OFF", "no"):
            code = SCRIPT_PRELUDE + textwrap.dedent("""
                x = torch.empty(2, 81)
                assert _gs.stash(0, 0, fc) is fc and _gs.check(0, 1, x) is x
                assert _gs.stash(1, 0, x) is x and _gs.check(1, 1, 5) == 5
                assert _gs.check_values(0, fc, x) is None
                seq = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Linear(5, 6))
                try:
                    seq(torch.empty(2, 3))  # PyTorch's own error: no module hook
                except RuntimeError as e:
                    assert not isinstance(e, gshape_runtime.ShapeCheckError), e
                print(gshape_runtime.checks_enabled, _gs.enabled, [s["runs"] for s in _gs.stats()])
            """)
            with self.subTest(GSHAPE_CHECKS=value):
                result = run_python(code, GSHAPE_CHECKS=value)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(result.stdout.strip(), "False False [0, 0]")

    def test_other_values_keep_checks_on(self):
        for value in ("1", "", "yes"):
            with self.subTest(GSHAPE_CHECKS=value):
                result = run_python(SCRIPT_PRELUDE + "_gs.check_values(0, fc, torch.empty(2, 81))\n", GSHAPE_CHECKS=value)
                self.assertIn("ShapeCheckError", result.stderr)


class StatsFileTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def read(self, path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    def test_counts_per_site_for_every_table(self):
        path = os.path.join(self.directory.name, "sub", "stats.json")
        code = SCRIPT_PRELUDE + textwrap.dedent("""
            for n in (80, 80, 81):
                try:
                    _gs.check_values(0, fc, torch.empty(3, n))
                except gshape_runtime.ShapeCheckError:
                    pass
            _gs.check_values(0, print, 1)                      # no rule
            _gs.stash(1, 0, torch.empty(2, 3)); _gs.check(1, 1, torch.empty(3, 4))
            other = gshape_runtime.CheckTable("util.py", [(1, 1, "operator.add", ["arg", "arg"])])
            other.check_values(0, 1, 2)                        # no tensor: Python's own addition
            torch.nn.Sequential(torch.nn.Linear(3, 4))(torch.empty(2, 3))  # the module hook
        """)
        result = run_python(code, GSHAPE_STATS=path)
        self.assertEqual(result.returncode, 0, result.stderr)
        document = self.read(path)
        self.assertEqual((document["format"], document["version"], document["checks_enabled"]),
                         ("gshape-runtime-stats", 2, True))
        rows = {(c["path"], c["line"], c["col"], c["rule"]): (c["runs"], c["failures"], c["skipped"], c["no_rule"],
                                                            c["cached"])
                for c in document["sites"]}
        self.assertEqual(rows[("train.py", 5, 9, "")], (4, 1, 0, 1, 1))
        self.assertEqual(rows[("train.py", 7, 3, "operator.matmul")], (1, 0, 0, 0, 0))
        self.assertEqual(rows[("util.py", 1, 1, "operator.add")], (1, 0, 1, 0, 0))
        self.assertEqual(rows[("<module calls>", 0, 0, "torch.nn.Linear.forward")][:2], (1, 0))
        first = next(c for c in document["sites"] if c["path"] == "train.py")
        self.assertEqual(set(first), {"path", "line", "col", "rule", "site", "runs", "failures", "skipped", "no_rule",
                                      "cached", "failed_tags", "rules_run"})
        self.assertEqual(first["failed_tags"], {"linear_c1": 1})
        self.assertEqual(first["rules_run"], {"torch.nn.Linear.forward": 3})

    def test_stats_are_written_when_a_check_ends_the_program(self):
        path = os.path.join(self.directory.name, "crash.json")
        result = run_python(SCRIPT_PRELUDE + "_gs.check_values(0, fc, torch.empty(2, 81))\n", GSHAPE_STATS=path)
        self.assertNotEqual(result.returncode, 0)
        counts = [(c["failed_tags"], c["runs"], c["failures"]) for c in self.read(path)["sites"] if c["path"] == "train.py"]
        self.assertEqual(counts[0], ({"linear_c1": 1}, 1, 1))

    def test_pid_placeholder_and_disabled_runs(self):
        pattern = os.path.join(self.directory.name, "run-{pid}.json")
        code = SCRIPT_PRELUDE + "import os; print(os.getpid()); _gs.check_values(0, fc, torch.empty(2, 81))\n"
        result = run_python(code, GSHAPE_STATS=pattern, GSHAPE_CHECKS="0")
        self.assertEqual(result.returncode, 0, result.stderr)
        path = pattern.replace("{pid}", result.stdout.strip())
        document = self.read(path)
        self.assertFalse(document["checks_enabled"])
        self.assertTrue(all(c["runs"] == 0 for c in document["sites"]))

    def test_no_file_without_the_variable(self):
        result = run_python(SCRIPT_PRELUDE, )
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(os.listdir(self.directory.name), [])

    def test_an_unwritable_path_warns_without_failing_the_run(self):
        path = os.path.join(self.directory.name, "file")
        open(path, "w").close()
        result = run_python(SCRIPT_PRELUDE, GSHAPE_STATS=os.path.join(path, "stats.json"))
        self.assertEqual(result.returncode, 0)
        self.assertIn("cannot write stats", result.stderr)


class ImportTests(unittest.TestCase):
    CODE = textwrap.dedent("""
        t = gshape_runtime.CheckTable("m.py", [(1, 1, "operator.add", ["arg", "arg"])])
        x = torch.empty(2, 784)
        assert t.check_values(0, x, x) is None
        try:
            t.check_values(0, x, torch.empty(2, 3))
        except gshape_runtime.ShapeCheckError:
            print("ok")
    """)

    def test_import_before_or_after_torch(self):
        for imports in ("import gshape_runtime\nimport torch\n", "import torch\nimport gshape_runtime\n",
                        "from gshape_runtime import _native\nimport gshape_runtime, torch\n"):
            with self.subTest(imports=imports):
                result = run_python(imports + self.CODE)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(result.stdout.strip(), "ok")


if __name__ == "__main__":
    unittest.main()
