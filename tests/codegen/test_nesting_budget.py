"""The nesting budget (codegen/nesting_budget.h) from outside: deeply nested
programs of random shape (calls, operators, subscripts, displays, lambdas,
comprehensions, conditionals, keyword and starred arguments, nested 60 to
380 levels) are instrumented with every operation checked; whenever CPython
compiles the original, it compiles the instrumented copy too, and no line of
the copy is deeper than the budget beyond the program's own brackets."""

import os
import random
import unittest

import codegen_helpers as h

PRELUDE = "x = 1\ny = [1, 2]\ndef f(a): return a\ndef g(a=0): return a\n"


def expression(rng, depth):
    if depth <= 0:
        return rng.choice(["x", "1", "y[0]", "f(x)", "'s'"])
    inner = expression(rng, depth - 1)
    return rng.choice([
        "f(%s)", "(%s + x)", "x + %s", "%s + x", "[%s]", "{1: %s}", "y[%s]", "-%s", "(lambda q: %s)",
        "(%s)", "(%s if x else 1)", "g(a=%s)", "[v for v in (%s,)]", "f(*(%s,))", "not %s",
    ]) % inner


def compiles(data):
    try:
        compile(data, "prog", "exec", dont_inherit=True)
        return True
    except (SyntaxError, RecursionError, MemoryError):
        return False


class DeepRandomPrograms(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)

    def test_every_copy_of_a_program_that_compiles_compiles(self):
        rng = random.Random(20240229)
        compiled = 0
        with h.TempDir() as tmp:
            for n in range(60):
                depth = rng.choice([60, 90, 120, 160, 200, 380])
                source = (PRELUDE + "z = " + expression(rng, depth) + "\n").encode()
                if not compiles(source):
                    continue  # deeper than CPython takes even unchecked
                compiled += 1
                with self.subTest(n=n, depth=depth):
                    out, summary, _, _ = h.instrument_bytes(source, os.path.join(tmp, str(n)))
                    self.assertTrue(compiles(out), summary)
                    original = h.max_bracket_depth(source.splitlines()[-1])
                    self.assertLessEqual(h.max_bracket_depth(out.splitlines()[-1]), max(original, 100))
                    self.assertEqual(h.strip(out), source)
        self.assertGreater(compiled, 15)  # the test tests something


if __name__ == "__main__":
    unittest.main()
