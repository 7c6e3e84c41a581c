"""Shape truth: the shapes `gshape check --show-shapes` infers for the names a
sample assigns must be the shapes those names hold when the sample runs.

For each correct sample (samples/*.py but bug_*), the sample runs under a
tracer that, after each line of the sample executes, records the shape of
every tensor held by a name the analysis gave a shape on that line. Every
recorded shape must match one of the inferred ones: same rank and equal
constant sizes (a symbolic size or `[*]` matches any value; `[*, 64]`
matches a shape ending in 64). A concrete size that disagrees with the run
is a false inference: precision work must never buy one.

    shape_truth.py [SAMPLE.py ...]     (default: every correct sample)

Needs GSHAPE_BINARY; run by ctest as `shape_truth` (label differential)."""

import json
import os
import re
import subprocess
import sys

PYTHON = "/usr/bin/python3"
BINARY = os.environ.get("GSHAPE_BINARY", "")
SOURCE_DIR = os.environ.get("GSHAPE_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TIMEOUT = 600
ENTRY = re.compile(r"^(.*):(\d+):(\d+): ([A-Za-z_][A-Za-z_0-9]*) : (.*)$")

# The tracer, run inside the sample's process: after each line of the sample
# file, the shapes of the watched names (line -> names), written as JSON.
TRACER = r'''
import json, runpy, sys
path, watch_file, out_file = sys.argv[1], sys.argv[2], sys.argv[3]
watch = {int(k): v for k, v in json.load(open(watch_file)).items()}
seen = {}
import torch

def record(frame, line):
    for name in watch.get(line, ()):
        value = frame.f_locals.get(name, None)
        if isinstance(value, torch.Tensor):
            seen.setdefault("%d:%s" % (line, name), set()).add(tuple(value.shape))

def local_tracer(frame, event, arg):
    prev = previous.get(id(frame))
    if prev is not None and event in ("line", "return"):
        record(frame, prev)
    previous[id(frame)] = frame.f_lineno if event == "line" else None
    return local_tracer

previous = {}

def global_tracer(frame, event, arg):
    if frame.f_code.co_filename == path:
        previous[id(frame)] = None  # a new frame (ids are reused)
        return local_tracer
    return None

sys.argv = [path]
sys.settrace(global_tracer)
try:
    runpy.run_path(path, run_name="__main__")
finally:
    sys.settrace(None)
    json.dump({k: sorted(list(s)) for k, s in seen.items()}, open(out_file, "w"))
'''


def assignment_column(text):
    """The 1-based column of a line's assignment `=` (not `==`, `<=`, a
    keyword argument's or an annotation's), or None."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "#":
            return None
        elif ch == ":" and depth == 0:
            return None  # an annotation, a block header, a lambda
        elif ch == "=" and depth == 0:
            before = text[i - 1] if i else ""
            after = text[i + 1] if i + 1 < len(text) else ""
            if before not in "=<>!+-*/%&|^@" and after != "=":
                return i + 1
    return None


def inferred_shapes(sample):
    """{(line, name): [shape text, ...]} for the names a line assigns (left of
    its `=`) that the analysis gives a shape."""
    run = subprocess.run([BINARY, "check", "--show-shapes", "--color=never", sample],
                         capture_output=True, text=True, timeout=TIMEOUT)
    with open(sample, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = {}
    for line in run.stdout.splitlines():
        m = ENTRY.match(line)
        if not m or os.path.abspath(m.group(1)) != os.path.abspath(sample):
            continue
        number, column = int(m.group(2)), int(m.group(3))
        equals = assignment_column(lines[number - 1])
        if equals is not None and column < equals:
            out[(number, m.group(4))] = [s.strip() for s in m.group(5).split(" | ")]
    return out


def split_dims(text):
    """'[2, a*(b+1), 3]' -> ['2', 'a*(b+1)', '3'] (commas inside brackets kept)."""
    inner = text.strip()[1:-1]
    dims, depth, current = [], 0, ""
    for ch in inner:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            dims.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        dims.append(current.strip())
    return dims


def matches(observed, text):
    """Whether the run's shape `observed` is one the inferred `text` allows."""
    dims = split_dims(text)
    if dims and dims[0] == "*":  # unknown rank, known last axes
        suffix = dims[1:]
        if len(observed) < len(suffix):
            return False
        tail = observed[len(observed) - len(suffix):] if suffix else ()
        return all(not d.lstrip("-").isdigit() or int(d) == o for d, o in zip(suffix, tail))
    if len(dims) != len(observed):
        return False
    return all(not d.lstrip("-").isdigit() or int(d) == o for d, o in zip(dims, observed))


def check(sample):
    """The disagreements of one sample (empty when every shape holds)."""
    inferred = inferred_shapes(sample)
    watch = {}
    for (line, name) in inferred:
        watch.setdefault(line, []).append(name)
    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "shape_truth_%d" % os.getpid())
    os.makedirs(tmp, exist_ok=True)
    watch_file, out_file = os.path.join(tmp, "watch.json"), os.path.join(tmp, "seen.json")
    with open(watch_file, "w") as f:
        json.dump(watch, f)
    run = subprocess.run([PYTHON, "-c", TRACER, os.path.abspath(sample), watch_file, out_file],
                         capture_output=True, text=True, timeout=TIMEOUT, cwd=os.path.dirname(sample))
    if run.returncode != 0 or not os.path.exists(out_file):
        return ["the sample did not run: " + run.stderr[-500:]], 0
    seen = json.load(open(out_file))
    problems, compared = [], 0
    for key, shapes in sorted(seen.items()):
        line, name = key.split(":", 1)
        allowed = inferred[(int(line), name)]
        for shape in shapes:
            compared += 1
            if not any(matches(tuple(shape), text) for text in allowed):
                problems.append("%s:%s: %s holds %s but gshape inferred %s" %
                                (os.path.basename(sample), line, name, list(shape), " | ".join(allowed)))
    return problems, compared


def self_test():
    """The matcher itself: a wrong constant is caught, symbols and [*] match."""
    assert matches((2, 3), "[2, 3]") and matches((2, 3), "[B, 3]") and matches((2, 3), "[*]")
    assert matches((5, 2, 3), "[*, 3]") and not matches((5, 2, 4), "[*, 3]")
    assert not matches((2, 3), "[2, 4]") and not matches((2, 3), "[2, 3, 1]")
    assert matches((6,), "[a*(b+1)]") and split_dims("[max(0, min(a, b)), 3]") == ["max(0, min(a, b))", "3"]
    assert assignment_column("    x, y = f(a=1)") == 10 and assignment_column("    if a == b:") is None


def main(argv):
    self_test()
    if not BINARY:
        print("shape_truth: GSHAPE_BINARY is not set")
        return 2
    samples = argv or sorted(os.path.join(SOURCE_DIR, "samples", f) for f in os.listdir(os.path.join(SOURCE_DIR, "samples"))
                             if f.endswith(".py") and not f.startswith("bug_"))
    failed, total = 0, 0
    for sample in samples:
        problems, compared = check(sample)
        total += compared
        print("%-28s %5d shapes compared, %d disagree" % (os.path.basename(sample), compared, len(problems)))
        for p in problems[:10]:
            print("    " + p)
        failed += len(problems)
    print("shape truth: %d observed shapes compared, %d disagree with the inferred ones" % (total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
