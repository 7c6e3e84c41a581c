"""Awkward Python files for the rewriter: every construct that could trip an
insertion-only rewrite. Each is a complete program printing deterministic
output, so the instrumented copy can be compared with the original.

AWKWARD maps a name to (source bytes, encoding used to strip it).
"""

AWKWARD = {}


def case(name, text, encoding="utf-8"):
    data = text if isinstance(text, bytes) else text.encode(encoding)
    AWKWARD[name] = (data, encoding)


case("future_imports", '''\
"""Module docstring."""
from __future__ import annotations
from __future__ import division
import os
def f(a: list[int]) -> int:
    return len(a) + 1
print(f([1, 2]), __doc__)
''')

case("future_one_line", 'from __future__ import annotations; import sys; print(len(sys.argv) * 2)\n')

case("docstring_then_code_same_line", '"""doc"""; x = [1, 2]; print(x[0] + x[1], __doc__)\n')

case("docstring_multiline_then_class", '''\
"""A docstring
over several lines."""
class A:
    def m(self, v):
        return v * 3
print(A().m(2), __doc__.splitlines()[0])
''')

case("decorators", '''\
import functools
def deco(n):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*a, **k):
            return fn(*a, **k) + n
        return inner
    return wrap
@deco(1 + 1)
@functools.lru_cache(maxsize=None)
def g(x):
    return x * 10
class C:
    @staticmethod
    def s(v): return v - 1
    @property
    def p(self): return self.s(5) * 2
print(g(3), C().p, C.s(1))
''')

case("one_line_compound", '''\
import math
xs = [3, 1, 2]
if xs: y = max(xs) + min(xs)
for v in xs: print(v * 2, end=" ")
while xs: xs.pop(len(xs) - 1)
with open(__file__) as fh: n = len(fh.read().split()) > 0
try: z = 1 // 0
except ZeroDivisionError as e: z = str(e)[0:4]
class K: val = math.floor(2.5) + 1
def f(a): return a + 1
print(y, n, z, K.val, f(f(1)))
''')

case("tabs", "import os\nclass T:\n\tdef m(self, a):\n\t\tif a > 0:\n\t\t\treturn a * 2\n\t\treturn -a\nprint(T().m(4), T().m(-3))\n")

case("crlf", "import sys\r\n\r\ndef f(a, b):\r\n    return a * b + len(sys.argv)\r\n\r\nprint(f(2, 3))\r\nprint([f(i, i) for i in range(3)])\r\n")

case("cr_only", "import sys\rdef f(a):\r    return a + 1\rprint(f(f(1)))\r")

case("encoding_latin1",
     b"# -*- coding: latin-1 -*-\nimport sys\ns = '\xe9t\xe9'\nprint(len(s) * 2, s.upper().encode('utf-8'))\n",
     encoding="latin-1")

case("shebang_and_encoding", '''\
#!/usr/bin/env python3
# -*- coding: utf-8 -*-
class First:
    x = 1
def helper(v):
    return v * 7
print(helper(First.x + 1))
''')

case("shebang_only_then_def", '''\
#!/usr/bin/env python3
def f(v):
    return v + 1
x = f(1) * 2
print(x)
''')

case("first_statement_compound_comment_before", '''\
# a leading comment
if True:
    v = 2 ** 3
print(v + 1)
''')

case("first_statement_class_blank_line_after", '''\
class A:
    n = 4

print(A.n * 2)
''')

case("bom", "\ufeffimport sys\nprint(len([1, 2]) + 1)\n")

case("bom_first_compound", "\ufeff# comment\ndef f(a):\n    return a * 2\nprint(f(21))\n")

case("deeply_nested", "def f(a, b=0):\n    return a + b\nprint(" + "f(" * 60 + "1" + ", 1)" * 60 + ")\n"
     + "print(" + "(" * 50 + "1 + 2" + ") * 2" * 50 + ")\n")

# Chains and nests past the rewriter's nesting budget (codegen/nesting_budget.h):
# every `+` of a chain wraps the chain before it, so an instrumented copy that
# checked them all would pass CPython's 200 nested brackets; the deeper ones
# stay unchecked, and the copy compiles and runs the same.
case("long_operator_chains", "a = 1\nb = 2\nprint(a" + " + b" * 250 + ")\ns = 'x'" + " + 'y'" * 250
     + "\nprint(len(s), " + "abs(" * 150 + "-1" + ")" * 150 + ")\nprint(" + "(" * 120 + "a - b" + ")" * 120 + " * 2)\n"
     + "print(f'{" + "(" * 90 + "a + b" + ")" * 90 + " * 3:>{a + 4}}')\n")

case("lambdas_and_comprehensions", '''\
xs = [1, 2, 3, 4]
sq = lambda v: v * v
print(list(map(lambda v: v + 1, xs)), sq(sq(2)))
print([a * b for a in xs for b in xs if a * 2 > b], {k: k * 2 for k in xs if k % 2}, {v // 2 for v in xs})
print(sum(v * v for v in xs), max((v - 3) ** 2 for v in xs))
print((lambda a, b=len(xs): a * b)(3))
print([[i * j for j in range(i)] for i in range(4)])
''')

case("walrus", '''\
data = [1, 5, 9]
if (n := len(data) * 2) > 3:
    print(n)
print([y for x in data if (y := x * 3) > 4], (z := data[0] + data[1]), z)
while (k := data.pop()) > 4: print(k)
''')

case("chained_calls", '''\
class B:
    def __init__(self): self.v = []
    def add(self, x): self.v.append(x); return self
    def get(self): return self.v
print(B().add(1).add(2 + 3).add(len("abc")).get())
print(" a,b ".strip().split(",")[1].upper())
''')

case("fstrings", '''\
def f(x): return x * 2
xs = [1, 2, 3]
w = 6
print(f"{f(2)} {xs[0] + xs[1]!r} {f(f(1)):>{w}} {len(xs)=} {xs[1:2]}")
print(f"{'nested ' + f'{f(3)}'}", f"{{literal}} {sum(v * 2 for v in xs)}")
print(f"""{f(
    4)} multi""")
print(f"{f(1) = }")
''')

case("starred", '''\
def f(*a, **k): return len(a) * 10 + len(k)
xs = [1, 2]
d = {"a": 1}
print(f(*xs, *[3], **d, **{"b": 2}), [*xs, *range(2)], {*xs}, (*xs, 5))
a, *rest = [f(1), f(2), f(3)]
print(a, rest, f(k=1, *xs))
''')

case("keyword_before_star", '''\
log = []
def t(n): log.append(n); return [n]
def f(*a, **k): return (a, k)
print(f(k=t(1), *t(2)), log)
''')

case("augmented_assignment", '''\
class O: pass
o = O(); o.a = 1
x = 2
x += 3 * 2
x **= 2
o.a += x
lst = [1, 2, 3]
lst[1] *= 10
lst += [4]
s = "a"
s += "b" if x else "c"
d = {"k": 1}
def key(): return "k"
d[key()] += 1
print(x, o.a, lst, s, d)
''')

case("assignment_targets_and_del", '''\
d = {}
d["k"] = len("abc") + 1
lst = [0, 1, 2, 3]
lst[1:3] = [9, 9]
del lst[0], d["k"]
a, (b, c) = 1, (2 + 1, 3)
for i, j in zip(range(2), range(2, 4)): pass
print(d, lst, a, b, c, i, j)
''')

case("keyword_adjacent", '''\
xs = [1, 2]
print(1 if(xs) else 2, [v for v in(xs)], 3 in[3], not(xs[0] - 1), 2 in(1, 2))
def g():
    return(xs[0] + 5)
print(g(), 1if xs else 0)
''')

case("generators_and_yield", '''\
def gen(n):
    total = 0
    for i in range(n):
        got = yield i * 2
        total += got if got else 0
    yield total
g = gen(3)
print(next(g), g.send(5), g.send(7), list(g))
def deleg(): yield from gen(2)
print(list(deleg()))
def h():
    x = len((yield 1, 2))
    yield x
hh = h(); print(next(hh), hh.send([1, 2, 3]))
''')

case("async_await", '''\
import asyncio
async def val(x): return x * 2
async def main():
    a = await val(3) + await val(4)
    return [await val(i) for i in range(3)], a
print(asyncio.run(main()))
''')

case("class_bodies_and_scopes", '''\
import sys
def outer():
    n = 1
    def inner():
        nonlocal n
        n += 2
        return n * 3
    return inner() + inner()
class M:
    base = 3
    table = [base * 2]
    sq = [i * i for i in range(3)]
    def m(self): return self.base + len(self.table)
G = 5
def glob():
    global G
    G = G * 2
    return G
print(outer(), M().m(), M.sq, glob())
''')

case("continuations_and_semicolons", '''\
x = 1 + \\
    2 * \\
    3
y = (x
     + 4  # a comment
     * 5); z = x - y
print(x, y, z, max(x,
                   y,
                   z))
''')

case("strings_and_comments", '''\
s = "a(b" 'c)' """d["""  # f(x) in a comment
t = r"\\(" + 'it\\'s' + b"x)".decode()
print(len(s) + len(t), s.count("("), t)  # ) unbalanced in comment (
''')

case("match_statement", '''\
def kind(v):
    match v:
        case [a, b]: return a + b
        case {"k": w} if w > len("ab"): return w * 2
        case _: return -1
print(kind([1, 2]), kind({"k": 5}), kind(3))
''')

case("conditional_and_boolean", '''\
a, b = 3, 0
print(a if b else a * 2, b or a + 1, a and b - 1, not a - 3, 1 < a + 1 < 5 > b)
''')

case("slices_and_subscripts", '''\
m = [[1, 2, 3], [4, 5, 6]]
print(m[1][2], m[0][::-1], m[-1][1:], m[0][:len(m)], m[::2], "abcdef"[1:5:2])
print({"a": 1}["a"] + m[1][0])
class S:
    def __getitem__(self, k): return k
print(S()[1:2, ::3, 4], S()[:, len(m)], S()[..., 1], S()[m[0][1]:])
''')

case("empty_file", "")

case("comments_only", "# nothing but a comment\n\n# another\n")

case("no_trailing_newline", "def f(a):\n    return a * 2\nprint(f(4))")

case("unicode_names", 'def dobbel(x):\n    return x * 2\nprint(dobbel(3), "ünïcode", len("日本"))\n')

case("def_first_then_simple", '''\
def f(a):
    return a * 2
print(f(5))
''')

case("class_body_runs_checks_first", '''\
class A:
    x = len("ab") * 2
print(A.x)
''')

case("if_first_no_place", '''\
if True:
    print(len("abc") * 2)
''')

case("global_statements", "print(1 + 2)\nx = [1][0]; y = x * 3\nprint(y)\n")
