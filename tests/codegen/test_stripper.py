"""The test stripper itself: it undoes each wrapper form exactly and notices
text that is not a wrapper (so the round-trip tests can fail)."""

import unittest

import strip_instrumentation as s

HEADER = "import gshape_runtime as _gshape_rt; _gshape_checks = _gshape_rt.CheckTable('m.py', [[(1, 1, 't', '(true)', 'a (b) [c')]])"


class Stripper(unittest.TestCase):
    def test_wrapper_forms(self):
        cases = {
            "y = _gshape_checks.stash(0, 0, a) @ _gshape_checks.check(0, 1, b)\n": "y = a @ b\n",
            "f(_gshape_checks.check(0, 0, ((a, b))))\n": "f((a, b))\n",
            "for t in  _gshape_checks.check(0, 0, (a, b)): pass\n": "for t in a, b: pass\n",
            "for t in _gshape_checks.check(0, 0, ((a, b))): pass\n": "for t in(a, b): pass\n",
            "s = sum (_gshape_checks.check(0, 0, (x for x in y),))\n": "s = sum(x for x in y)\n",
            "x += (_gshape_checks.stash(0, 0, x,), _gshape_checks.check(0, 1, y))[1]\n": "x += y\n",
            "g(_gshape_checks.check(0, 0, (x for x in y)))\n": "g((x for x in y))\n",
            "h(_gshape_checks.check(0, 0, \"(\" + ')'))  # )\n": "h(\"(\" + ')')  # )\n",
            "f(_gshape_checks.check(0, 0, (lambda: 1)))\n": "f(lambda: 1)\n",
            "f(_gshape_checks.check(0, 0, (a)))\n": "f((a))\n",
        }
        for instrumented, original in cases.items():
            with self.subTest(instrumented=instrumented):
                self.assertEqual(s.strip(instrumented), original)

    def test_header_forms(self):
        self.assertEqual(s.strip(HEADER + "; import torch\n"), "import torch\n")
        self.assertEqual(s.strip('"""doc"""; ' + HEADER + "\nx = 1\n"), '"""doc"""\nx = 1\n')
        self.assertEqual(s.strip(HEADER + "  # comment\n"), "# comment\n")
        self.assertEqual(s.strip(HEADER + "\n"), "\n")
        self.assertEqual(s.strip(HEADER + "    # indented comment\n"), "  # indented comment\n")

    def test_anything_else_survives(self):
        # An extra character the rewriter never inserts stays, so comparing
        # with the original fails as it should.
        self.assertEqual(s.strip("y = _gshape_checks.check(0, 0, a)+1\n"), "y = a+1\n")
        self.assertNotEqual(s.strip("y = _gshape_checks.check(0, 0, a )\n"), "y = a\n")
        with self.assertRaises(s.StripError):
            s.strip("y = _gshape_checks.check(0, 0, a\n")


if __name__ == "__main__":
    unittest.main()
