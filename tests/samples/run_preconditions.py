"""`gshape check --args=symbolic` on samples/hyper/ against PyTorch itself.

usage: run_preconditions.py GSHAPE HYPER_DIR [GOLDEN_DIR]

For every sample: the preconditions gshape states on its int arguments must
hold exactly when the script runs under PyTorch. Argument combinations: the
counterexample gshape prints for each precondition, the sample's own
launches, and 40 random combinations of small values (each argument's
`choices` when it has them), all run in one /usr/bin/python3 process. With
GOLDEN_DIR, the text report must also equal GOLDEN_DIR/NAME.txt, and `gshape report --args=symbolic` must start with
the same text.
Exits 1 on a disagreement.
"""
import json
import os
import random
import re
import shlex
import subprocess
import sys

PYTHON = "/usr/bin/python3"

# Runs each command line of a script in one process; prints one verdict per line.
RUNNER = r'''
import json, runpy, sys, io, contextlib
script, lines = sys.argv[1], json.loads(sys.stdin.read())
for words in lines:
    sys.argv = [script] + words
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_path(script, run_name="__main__")
        print("ok")
    except SystemExit as e:
        print("ok" if not e.code else "exit")
    except Exception as e:
        print("fail " + type(e).__name__)
'''


def holds_for(condition, values):
    # preconditions are simplified as a set: `hidden % heads == 0` may be
    # evaluated where another one (`0 < heads`) already fails
    try:
        return eval(condition, {"max": max, "min": min}, dict(values))
    except ZeroDivisionError:
        return False


def main():
    gshape, folder = sys.argv[1], sys.argv[2]
    golden = sys.argv[3] if len(sys.argv) > 3 else None
    rng = random.Random(7)
    failed = 0
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".py")):
        script = os.path.join(folder, name)
        problems = []
        out = subprocess.run([gshape, "check", "--format=json", "--args=symbolic", script], capture_output=True, text=True)
        doc = json.loads(out.stdout)
        pres = doc.get("preconditions", [])
        text = subprocess.run([os.path.abspath(gshape), "check", "--args=symbolic", name], capture_output=True,
                              text=True, cwd=folder).stdout
        # `gshape report --args=symbolic` starts with the same lines
        review = subprocess.run([os.path.abspath(gshape), "report", "--args=symbolic", "--color=never", name],
                                capture_output=True, text=True, cwd=folder).stdout
        if not review.startswith(text):
            problems.append("report --args=symbolic does not start with check's preconditions:\n%s" % review[:2000])
        if golden:
            path = os.path.join(golden, name[:-3] + ".txt")
            expected = open(path).read() if os.path.exists(path) else None
            if expected != text:
                problems.append("the report differs from %s:\n%s" % (path, text))
        with open(script) as f:
            source = f.read()
        # the int arguments and their choices, read from the source
        args = re.findall(r'add_argument\("(--[\w-]+)", type=int, default=(\d+)(?:, choices=\[([\d, ]+)\])?', source)
        flags = [a[0] for a in args]
        dests = {a[0]: a[0][2:].replace("-", "_") for a in args}
        choices = {a[0]: [int(c) for c in a[2].split(",")] if a[2] else None for a in args}
        lines = []
        for p in pres:
            if p["counterexample"]:
                lines.append(shlex.split(p["counterexample"]))
        for words in re.findall(r"^# launch-(?:ok|error): (?:[a-z0-9_]+: )?(.*)$", source, re.M):
            # only launches that set int arguments alone: the others (a config
            # file) set values the symbolic report does not take as symbols
            if all(w in flags for w in shlex.split(words)[0::2]):
                lines.append(shlex.split(words))
        for _ in range(40 if flags else 0):
            words = []
            for flag in flags:
                pool = choices[flag] or [1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48]
                words += [flag, str(rng.choice(pool))]
            lines.append(words)
        ran = subprocess.run([PYTHON, "-c", RUNNER, name], input=json.dumps(lines), capture_output=True, text=True,
                             timeout=600, cwd=folder)
        verdicts = ran.stdout.split("\n")
        defaults = {dests[a[0]]: int(a[1]) for a in args}
        for words, verdict in zip(lines, verdicts):
            values = dict(defaults)
            for i in range(0, len(words) - 1, 2):
                values[dests[words[i]]] = int(words[i + 1])
            holds = all(holds_for(p["condition"], values) for p in pres)
            runs = verdict == "ok"
            if holds != runs:
                problems.append("%s: preconditions %s but PyTorch %s" % (" ".join(words), "hold" if holds else "fail",
                                                                         "runs" if runs else verdict))
        failed += bool(problems)
        print("%-22s %-6s %d preconditions, %d command lines" % (name, "ok" if not problems else "FAILED", len(pres),
                                                                  len(lines)))
        for p in problems[:10]:
            print("    " + p)
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
