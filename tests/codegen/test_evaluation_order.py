"""Each original sub-expression is evaluated exactly once and in the original
order: every operand below has a side effect (it logs itself), every
operation is a site with all its operands wrapped, and the instrumented
program must log exactly what the original logs."""

import os
import unittest

import codegen_helpers as h

PROGRAM = '''\
import asyncio
log = []
def t(name, value=None):
    log.append(name)
    return name if value is None else value
class Box:
    def __init__(self): self.items = [0, 1, 2, 3]; self.attr = 5
    def meth(self, *a, **k): log.append("meth"); return self
    def __getitem__(self, i): log.append("get%r" % (i,)); return self.items[i]
    def __setitem__(self, i, v): log.append("set%r" % (i,)); self.items[i] = v
    def __delitem__(self, i): log.append("del%r" % (i,))
    def __matmul__(self, other): log.append("matmul"); return 7
    def __add__(self, other): log.append("add"); return 8
    def __iadd__(self, other): log.append("iadd"); return self
box = Box()
def f(*a, **k): log.append("f"); return (a, k)

t("a", 1) + t("b", 2) * t("c", 3)
t("g", f)(t("x"), t("y"))
t("box", box).meth(t("m1"), k=t("m2"))
t("box2", box)[t("i", 1)] = t("v", 9)
t("box3", box)[t("j", 2)] += t("w", 1)
del t("box4", box)[t("k", 0)]
f(k=t("kw"), *t("star", [1]))
f(t("p"), *t("s1", [1]), t("q"), **t("d", {"z": 1}))
{t("k1"): t("v1"), **t("dd", {"x": 2}), t("k2"): t("v2")}
[t("e", 1) * 2 for i in t("it", range(2)) if t("cond", True)]
t("then") if t("test", 0) else t("else")
t("l", 1) < t("m", 2) < t("n", 3)
t("and1", 1) and t("and2", 0) or t("or", 5)
(z := t("walrus", 4)) + t("after", 1)
sum(t("gen", 1) for i in t("gen_it", range(3)))
(lambda q: t("lam_body", q) * 2)(t("lam_arg", 3))
print(f"{t('fs1', 1) + t('fs2', 2)} {t('fs3')!r}")
t("mm", box) @ t("mm2", box)
acc = t("acc0", box)
acc += t("acc1", 1)
n = t("n0", 1)
n += t("n1", 2) * t("n2", 3)
box.attr += t("attr", 1)
t("chain", box).meth(t("c1")).meth(t("c2"))[t("c3", 0)]
async def coro(v): log.append("coro"); return v
async def main(): return await coro(t("aw", 1)) + await coro(t("aw2", 2))
asyncio.run(main())
def gen():
    got = yield t("y1", 1)
    t("after_yield", got)
g = gen(); next(g)
try: g.send(t("sent", 5))
except StopIteration: pass
print(log)
print(len(log), n, z)
'''


class EvaluationOrder(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)

    def test_every_operand_once_in_order(self):
        with h.TempDir() as tmp:
            out, summary, original, instrumented = h.instrument_bytes(PROGRAM.encode(), tmp)
            # Guards the test: most operations really got wrappers.
            self.assertGreater(summary["sites"], 80)
            self.assertGreater(out.count(b"_gshape_checks.check("), 80)
            before = h.run_python(original)
            after = h.run_python(instrumented)
            self.assertEqual(before.returncode, 0, before.stderr)
            self.assertEqual(after.returncode, 0, after.stderr)
            self.assertEqual(after.stdout, before.stdout)
            # The log is long and ordered: the comparison above is meaningful.
            self.assertIn(b"'kw'", before.stdout)
            self.assertLess(before.stdout.index(b"'star'"), before.stdout.index(b"'kw'"))

    def test_operands_are_not_evaluated_twice_by_the_second_reference(self):
        program = (
            "calls = []\n"
            "def side(v): calls.append(v); return v\n"
            "x = side(1)\n"
            "x += side(2)\n"
            "x -= side(3) * side(4)\n"
            "print(x, calls)\n"
        )
        with h.TempDir() as tmp:
            out, summary, original, instrumented = h.instrument_bytes(program.encode(), tmp)
            self.assertIn(b"(_gshape_checks.stash(", out)  # the second-reference form is used
            before = h.run_python(original)
            after = h.run_python(instrumented)
            self.assertEqual(after.stdout, before.stdout, after.stderr)
            self.assertEqual(before.stdout.strip(), b"-9 [1, 2, 3, 4]")


if __name__ == "__main__":
    unittest.main()
