"""`gshape check --args=symbolic` on samples/hyper/ against PyTorch itself.

usage: run_preconditions.py GSHAPE HYPER_DIR [GOLDEN_DIR]

For every sample: the preconditions gshape states on its int arguments must
hold exactly when the script runs under PyTorch. Argument combinations: the
counterexample gshape prints for each precondition, the sample's own
launches, and 40 random combinations of small values (each argument's
`choices` when it has them; a random sub-command and its options when the
script has sub-commands), all run in one /usr/bin/python3 process, which
records the Namespace argparse gives and the sub-command it picks: a
precondition stated for a sub-command ("command") is evaluated when that
one runs, and a command line argparse rejects is not compared. With
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
import argparse, json, runpy, sys, io, contextlib
script, lines = sys.argv[1], json.loads(sys.stdin.read())
seen = {}
parse_known = argparse.ArgumentParser.parse_known_args
def record(self, *a, **k):
    ns, rest = parse_known(self, *a, **k)
    if not seen.get("nested"):
        seen["values"] = {n: v for n, v in vars(ns).items() if isinstance(v, int) and not isinstance(v, bool)}
    return ns, rest
argparse.ArgumentParser.parse_known_args = record
call = argparse._SubParsersAction.__call__
def chosen(self, parser, namespace, values, option_string=None):
    sub = self._name_parser_map.get(values[0])
    seen["command"] = next((n for n, p in self._name_parser_map.items() if p is sub), values[0])
    seen["nested"] = True
    try:
        return call(self, parser, namespace, values, option_string)
    finally:
        seen["nested"] = False
argparse._SubParsersAction.__call__ = chosen
for words in lines:
    sys.argv = [script] + words
    seen.clear()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            runpy.run_path(script, run_name="__main__")
        verdict = "ok"
    except SystemExit as e:
        verdict = "ok" if not e.code else "exit"
    except Exception as e:
        verdict = "fail " + type(e).__name__
    print(json.dumps([verdict, seen.get("values"), seen.get("command", "(no sub-command)")]))
'''


def holds_for(condition, values):
    # preconditions are simplified as a set: `hidden % heads == 0` may be
    # evaluated where another one (`0 < heads`) already fails
    try:
        return eval(condition, {"max": max, "min": min}, dict(values))
    except ZeroDivisionError:
        return False
    except NameError:
        return None  # an argument the Namespace does not hold: reported


def main():
    gshape, folder = sys.argv[1], sys.argv[2]
    golden = sys.argv[3] if len(sys.argv) > 3 else None
    rng = random.Random(7)
    failed = 0
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".py")):
        script = os.path.join(folder, name)
        problems = []
        # from the sample's folder, as the script runs: config files are named relative to it
        out = subprocess.run([os.path.abspath(gshape), "check", "--format=json", "--args=symbolic", name],
                             capture_output=True, text=True, cwd=folder)
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
        # the int options of each parser and sub-command, read from the source
        commands = dict(re.findall(r'^\s*(\w+) = \w+\.add_parser\("([\w-]+)"', source, re.M))  # var -> name
        flags = {}  # command ("" for the script's parser) -> [(flag, choices)]
        for var, flag, rest in re.findall(r'^\s*(\w+)\.add_argument\("(--[\w-]+)"(.*)\)$', source, re.M):
            if "type=int" not in rest:
                continue
            c = re.search(r"choices=\[([\d, ]+)\]", rest)
            flags.setdefault(commands.get(var, ""), []).append(
                (flag, [int(x) for x in c.group(1).split(",")] if c else None))
        int_flags = {f for fs in flags.values() for f, _ in fs}
        lines = []
        for p in pres:
            if p["counterexample"]:
                lines.append(shlex.split(p["counterexample"]))
        for words in re.findall(r"^# launch-(?:ok|error): (?:[a-z0-9_]+: )?(.*)$", source, re.M):
            # only launches that set int arguments (and pick sub-commands): the
            # others (a config file, a flag) set values the symbolic report
            # keeps at their defaults
            ws = shlex.split(words)
            if all(w in int_flags if w.startswith("-") else (w.isdigit() or w in commands.values()) for w in ws):
                lines.append(ws)
        def random_words(command):
            words = []
            for flag, pool in flags.get(command, []):
                words += [flag, str(rng.choice(pool or [1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48]))]
            return words
        for _ in range(40 if flags else 0):
            words = random_words("")
            if commands:
                command = rng.choice(sorted(set(commands.values())))
                words += [command] + random_words(command)
            lines.append(words)
        ran = subprocess.run([PYTHON, "-c", RUNNER, name], input=json.dumps(lines), capture_output=True, text=True,
                             timeout=600, cwd=folder)
        verdicts = [json.loads(v) for v in ran.stdout.split("\n") if v.strip()]
        if len(verdicts) != len(lines):
            problems.append("the runner answered %d of %d command lines: %s" % (len(verdicts), len(lines),
                                                                               ran.stderr[-500:]))
        for words, (verdict, values, command) in zip(lines, verdicts):
            if values is None:
                continue  # argparse rejected it: no shape precondition speaks of that
            verdicts_of = [holds_for(p["condition"], values) for p in pres if p.get("command", "") in ("", command)]
            if None in verdicts_of:
                problems.append("%s: a precondition names an argument the Namespace does not hold: %s" %
                                (" ".join(words), sorted(values)))
                continue
            holds = all(verdicts_of)
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
