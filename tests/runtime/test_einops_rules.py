"""gshape's einops rules against einops' semantics, written as a chain of
PyTorch operations (einops_reference.py): on random patterns, lengths and
input shapes, (1) the run-time check of the rule fails exactly when the
reference raises, and (2) the static analysis, on a file holding every case
with a constant input shape, reports an error at exactly the cases the
reference rejects and infers the reference's result shape for the others."""

import os
import random
import re
import subprocess
import tempfile
import unittest

import torch

import einops_reference as ref
import gshape_runtime

NAMES = "abcdefg"
CASES = 300


def random_case(rng):
    """(op, input shape, pattern, reduction, lengths) of one call."""
    op = rng.choice(["rearrange", "rearrange", "repeat", "reduce"])
    names = rng.sample(NAMES, rng.randint(2, 5))
    true = {n: rng.randint(1, 4) for n in names}
    left, i = [], 0
    while i < len(names):
        width = rng.choice([1, 1, 2]) if i + 1 < len(names) else 1
        left.append(names[i:i + width])
        i += width
    dots = rng.random() < 0.25
    unit = rng.random() < 0.15
    right_names = list(names)
    rng.shuffle(right_names)
    if op == "reduce":
        right_names = right_names[:rng.randint(0, len(right_names))]
    extra = {}
    if op == "repeat":
        new = rng.choice([n for n in NAMES if n not in names])
        extra[new] = rng.randint(1, 3)
        right_names.insert(rng.randrange(len(right_names) + 1), new)
    right, i = [], 0
    while i < len(right_names):
        width = rng.choice([1, 1, 2, 3])
        right.append(right_names[i:i + width])
        i += width
    if rng.random() < 0.05 and op == "rearrange" and right:  # an identifier on one side only
        right[-1] = right[-1][:-1] or ["z"]

    def side(elements, dots_at):
        parts = []
        for k, e in enumerate(elements):
            if dots and k == dots_at:
                parts.append("...")
            parts.append(e[0] if len(e) == 1 else "(" + " ".join(e) + ")")
        if dots and dots_at >= len(elements):
            parts.append("...")
        return " ".join(parts)

    at = rng.randint(0, len(left))
    pattern = side(left, at) + (" 1" if unit else "") + " -> " + side(right, rng.randint(0, len(right))) + \
        (" 1" if unit and op != "reduce" else "")
    shape = [1] * (at if dots else 0)
    shape = []
    for k, e in enumerate(left):
        if dots and k == at:
            shape += [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
        size = 1
        for n in e:
            size *= true[n]
        shape.append(size)
    if dots and at >= len(left):
        shape += [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
    if unit:
        shape.append(1)
    lengths = dict(extra)
    for n in names:
        if rng.random() < 0.35:
            lengths[n] = true[n]
    roll = rng.random()
    if roll < 0.2:  # a size that does not fit
        k = rng.randrange(len(shape))
        shape[k] += rng.choice([1, 2])
    elif roll < 0.28:  # an axis too many or too few
        shape = shape + [2] if rng.random() < 0.5 or len(shape) < 2 else shape[:-1]
    elif roll < 0.35 and lengths:  # a wrong given length
        n = rng.choice(sorted(lengths))
        lengths[n] += 1
    reduction = rng.choice(["sum", "mean"]) if op == "reduce" else None
    return op, shape, pattern, reduction, lengths


def reference_outcome(case):
    op, shape, pattern, reduction, lengths = case
    args = (torch.zeros(shape), pattern) + ((reduction,) if op == "reduce" else ())
    try:
        return list(getattr(ref, op)(*args, **lengths).shape)
    except (ref.EinopsError, RuntimeError):
        return None


def call_text(case, name):
    op, shape, pattern, reduction, lengths = case
    args = ["torch.zeros(%s)" % ", ".join(map(str, shape)) if shape else "torch.zeros(())", repr(pattern)]
    if op == "reduce":
        args.append(repr(reduction))
    args += ["%s=%d" % kv for kv in sorted(lengths.items())]
    return "%s = %s(%s)" % (name, op, ", ".join(args))


def run_time_verdict(rule, kinds, values):
    """'fail', 'pass' or 'skip' (undecided, or no rule found) for the
    run-time check of `rule` on `values`."""
    table = gshape_runtime.CheckTable("m.py", [(1, 1, rule, kinds)], enabled=True)
    try:
        table.check_values(0, *values)
    except gshape_runtime.ShapeCheckError:
        return "fail"
    counters = table.stats()[0]
    return "skip" if counters["skipped"] or counters["no_rule"] else "pass"


def check_lines(test, lines):
    """`gshape check --show-shapes` of a file holding `lines`: (lines with an
    error, stdout, stderr); skips the test when GSHAPE_BINARY is not set."""
    binary = os.environ.get("GSHAPE_BINARY")
    if not binary:
        test.skipTest("GSHAPE_BINARY is not set")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.py")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        run = subprocess.run([binary, "check", "--show-shapes", "--color=never", path],
                             capture_output=True, text=True, timeout=300)
    errors = {int(m.group(1)) for m in re.finditer(r"cases\.py:(\d+):\d+: error: ", run.stderr)}
    return errors, run.stdout, run.stderr


class EinopsRulesAgainstTheReference(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rng = random.Random(20261124)
        cls.cases = [random_case(rng) for _ in range(CASES)]
        cls.outcomes = [reference_outcome(c) for c in cls.cases]

    def test_the_cases_exercise_both_outcomes(self):
        failing = sum(o is None for o in self.outcomes)
        self.assertGreater(failing, CASES // 10)
        self.assertGreater(CASES - failing, CASES // 3)

    def test_run_time_check_fails_exactly_when_the_reference_does(self):
        disagreements = []
        for case, expected in zip(self.cases, self.outcomes):
            op, shape, pattern, reduction, lengths = case
            values = [torch.zeros(shape), pattern] + ([reduction] if op == "reduce" else []) + list(lengths.values())
            kinds = ["arg"] * (3 if op == "reduce" else 2) + [n + "=" for n in lengths]
            got = run_time_verdict("einops." + op, kinds, values)
            want = "fail" if expected is None else "pass"
            if got != want:
                disagreements.append("%s: check %s, reference %s" % (call_text(case, "y"), got, expected))
        self.assertEqual(disagreements, [])

    def test_static_verdicts_and_shapes_match_the_reference(self):
        lines = ["import torch", "from einops import rearrange, repeat, reduce"]
        first = len(lines) + 1
        lines += [call_text(c, "y%d" % i) for i, c in enumerate(self.cases)]
        errors, stdout, stderr = check_lines(self, lines)
        shapes = {}
        for m in re.finditer(r"cases\.py:(\d+):\d+: y\d+ : (.*)", stdout):
            shapes[int(m.group(1))] = m.group(2)
        disagreements = []
        for i, (case, expected) in enumerate(zip(self.cases, self.outcomes)):
            line = first + i
            if expected is None:
                if line not in errors:
                    disagreements.append("%s: no static error, the reference raises" % call_text(case, "y"))
            elif line in errors:
                disagreements.append("%s: static error, the reference gives %s" % (call_text(case, "y"), expected))
            elif shapes.get(line) != str(expected).replace("'", ""):
                disagreements.append("%s: inferred %s, the reference gives %s" % (call_text(case, "y"), shapes.get(line), expected))
        self.assertEqual(disagreements, [], stderr[-2000:])


def random_pack(rng):
    """(shapes, pattern) of a pack call."""
    before, after = rng.randint(0, 2), rng.randint(0, 2)
    names = rng.sample(NAMES, before + after)
    pattern = " ".join(names[:before] + ["*"] + names[before:])
    named = [rng.randint(1, 3) for _ in names]
    shapes = []
    for _ in range(rng.randint(1, 3)):
        star = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
        shape = named[:before] + star + named[before:]
        roll = rng.random()
        if roll < 0.15 and named:
            k = rng.randrange(len(named))
            shape[k if k < before else len(shape) - (len(named) - k)] += 1
        elif roll < 0.22 and len(shape) > 0:
            shape = shape[:-1]
        shapes.append(shape)
    return shapes, pattern


def pack_outcome(shapes, pattern):
    try:
        packed, ps = ref.pack([torch.zeros(s) for s in shapes], pattern)
    except (ref.EinopsError, RuntimeError):
        return None
    return list(packed.shape)


class EinopsPackAgainstTheReference(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rng = random.Random(7)
        cls.cases = [random_pack(rng) for _ in range(150)]
        cls.outcomes = [pack_outcome(*c) for c in cls.cases]

    def test_both_outcomes_occur(self):
        self.assertGreater(sum(o is None for o in self.outcomes), 10)
        self.assertGreater(sum(o is not None for o in self.outcomes), 50)

    def test_run_time_check_fails_exactly_when_the_reference_does(self):
        disagreements = []
        for (shapes, pattern), expected in zip(self.cases, self.outcomes):
            got = run_time_verdict("einops.pack", ["arg", "arg"], [[torch.zeros(s) for s in shapes], pattern])
            if got != ("fail" if expected is None else "pass"):
                disagreements.append("pack(%s, %r): check %s, reference %s" % (shapes, pattern, got, expected))
        self.assertEqual(disagreements, [])

    def test_static_verdicts_shapes_and_unpack_match_the_reference(self):
        lines = ["import torch", "from einops import pack, unpack"]
        first = len(lines) + 1
        for i, (shapes, pattern) in enumerate(self.cases):
            tensors = ", ".join("torch.zeros(%s)" % ", ".join(map(str, s)) if s else "torch.zeros(())" for s in shapes)
            names = ", ".join("u%d_%d" % (i, k) for k in range(len(shapes)))
            # the pack, and an unpack of its result back into as many tensors
            lines.append("p%d, ps%d = pack([%s], %r); %s, = unpack(p%d, ps%d, %r)" %
                         (i, i, tensors, pattern, names, i, i, pattern))
        errors, stdout, stderr = check_lines(self, lines)
        shapes_at = {}
        for m in re.finditer(r"cases\.py:(\d+):\d+: (p\d+|u\d+_\d+) : (.*)", stdout):
            shapes_at[(int(m.group(1)), m.group(2))] = m.group(3)
        disagreements = []
        for i, ((shapes, pattern), expected) in enumerate(zip(self.cases, self.outcomes)):
            line = first + i
            if expected is None:
                if line not in errors:
                    disagreements.append("pack(%s, %r): no static error, the reference raises" % (shapes, pattern))
                continue
            if line in errors:
                disagreements.append("pack(%s, %r): static error, the reference gives %s" % (shapes, pattern, expected))
            elif shapes_at.get((line, "p%d" % i)) != str(expected):
                disagreements.append("pack(%s, %r): inferred %s, the reference %s" %
                                     (shapes, pattern, shapes_at.get((line, "p%d" % i)), expected))
            for k, s in enumerate(shapes):  # unpack gives back each tensor's shape
                if shapes_at.get((line, "u%d_%d" % (i, k))) != str(s):
                    disagreements.append("unpack of pack(%s, %r): tensor %d inferred %s" %
                                         (shapes, pattern, k, shapes_at.get((line, "u%d_%d" % (i, k)))))
        self.assertEqual(disagreements, [], stderr[-2000:])


class EinopsCallsAreResolvedAtRunTime(unittest.TestCase):
    def test_an_installed_einops_function_is_checked_by_its_rule(self):
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.pathsep.join([os.path.join(here, "fake_einops"), here, os.environ.get("PYTHONPATH", "")])
        program = (
            "import torch, einops, gshape_runtime\n"
            "t = gshape_runtime.CheckTable('m.py', [(3, 7, None, ['callee', 'arg', 'arg', 'p='])], enabled=True)\n"
            "x = torch.zeros(2, 30)\n"
            "t.check_values(0, einops.rearrange, x, 'b (n p) -> b n p', 6)\n"
            "try:\n"
            "    t.check_values(0, einops.rearrange, x, 'b (n p) -> b n p', 7)\n"
            "except gshape_runtime.ShapeCheckError as e:\n"
            "    print(e.tag)\n")
        run = subprocess.run(["/usr/bin/python3", "-c", program], capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, PYTHONPATH=path))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout.strip(), "einops_c4")


if __name__ == "__main__":
    unittest.main()
