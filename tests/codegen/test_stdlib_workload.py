"""Real code, every operation instrumented: copies of pure-Python standard
library modules (renamed, so they do not shadow the modules torch imports)
with a check at every call, operator, subscript and augmented assignment,
run through `gshape run`, must print exactly what the originals print."""

import os
import shutil
import subprocess
import sys
import unittest

import codegen_helpers as h

MODULES = ["fractions", "statistics", "textwrap", "difflib", "heapq", "bisect", "shlex", "string", "colorsys", "base64"]

WORKLOAD = '''\
import my_fractions as fractions, my_statistics as statistics, my_textwrap as textwrap, my_difflib as difflib
import my_heapq as heapq, my_bisect as bisect, my_shlex as shlex, my_string as string, my_colorsys as colorsys
import my_base64 as base64
Fraction = fractions.Fraction
print(Fraction(3, 4) + Fraction(5, 6), Fraction("1.25") ** 2, Fraction(7, 3).limit_denominator(2))
data = [2.5, 3.25, 5.5, 11.25, 11.75]
print(statistics.mean(data), statistics.median(data), statistics.pstdev(data), statistics.quantiles(data, n=4))
print(textwrap.fill("The quick brown fox jumps over the lazy dog " * 5, width=30))
print(textwrap.dedent("    a\\n      b\\n    c"), textwrap.shorten("Hello  world, hello again", width=15))
print("\\n".join(difflib.unified_diff(["a\\n", "b\\n", "c\\n"], ["a\\n", "x\\n", "c\\n"], "old", "new")))
print(difflib.SequenceMatcher(None, "abcdefgh", "abxdefzh").ratio(), difflib.get_close_matches("appel", ["ape", "apple"]))
h = []
for v in [5, 1, 8, 3, 9, 2]:
    heapq.heappush(h, v)
print([heapq.heappop(h) for _ in range(len(h))], heapq.nlargest(3, [5, 1, 8, 3, 9, 2]), list(heapq.merge([1, 4], [2, 3])))
print(bisect.bisect_left([1, 3, 5, 7], 4), shlex.split('a "b c" d\\\\ e'), shlex.quote("it's"))
print(string.Template("$x and ${y}").substitute(x=1, y=2), string.capwords("hello big world"))
print(colorsys.rgb_to_hsv(0.2, 0.4, 0.6), colorsys.hls_to_rgb(0.5, 0.5, 0.5))
print(base64.b64encode(b"gshape rewriter"), base64.b85decode(base64.b85encode(b"xyz")), base64.b32encode(b"ab"))
'''


class StdlibWorkload(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)

    def test_instrumented_stdlib_modules_behave_the_same(self):
        library = os.path.dirname(os.__file__)
        with h.TempDir() as tmp:
            project = os.path.join(tmp, "proj")
            os.makedirs(project)
            for name in MODULES:
                shutil.copy(os.path.join(library, name + ".py"), os.path.join(project, "my_%s.py" % name))
            script = h.write(os.path.join(project, "main.py"), WORKLOAD)
            before = subprocess.run([h.PYTHON, script], capture_output=True, text=True, timeout=300)
            self.assertEqual(before.returncode, 0, before.stderr)
            log = os.path.join(tmp, "log.json")
            after = subprocess.run([h.TOOL, "run", script, "--cache-home", os.path.join(tmp, "cache"),
                                    "--cache-log", log], capture_output=True, text=True, timeout=600)
            self.assertEqual(after.returncode, 0, after.stderr)
            self.assertEqual(after.stdout, before.stdout)
            checks = 0
            tree = os.path.join(os.path.dirname(log), "cache")
            for folder, _, names in os.walk(tree):
                for name in names:
                    if name.endswith(".py"):
                        with open(os.path.join(folder, name)) as f:
                            checks += f.read().count("_gshape_checks.check(")
            self.assertGreater(checks, 1000)  # the modules really ran instrumented


if __name__ == "__main__":
    unittest.main()
