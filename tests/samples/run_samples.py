#!/usr/bin/env python3
"""Sample runner: checks each sample's inline expectations against gshape.

Usage: run_samples.py GSHAPE_BINARY SAMPLE_DIR [SAMPLE_DIR ...]

For every .py file it runs `gshape check --format=json FILE` and compares
 - the errors and warnings (file line and constraint tag) with the file's
   `# expect-error…` / `# expect-warning…` comments, failing on missing and on
   unexpected diagnostics (MLIR's expected-error discipline);
 - the help lines (the id of each `help` note of an error or warning, with
   its diagnostic's line) with `# expect-help: ID` comments, placed as the
   expect-error comments are: missing and unexpected help lines both fail;
 - the number of deferred obligations with `# expect-deferred: N` when given.
Prints one line per sample and a closing "N passed, M failed" line.
"""
import json
import os
import re
import subprocess
import sys

EXPECT = re.compile(r"#\s*expect-(error|warning)(?:@([+-]\d+))?\s*:\s*([A-Za-z0-9_]+)")
EXPECT_DEFERRED = re.compile(r"#\s*expect-deferred\s*:\s*(\d+)")


def target_line(number, text, offset):
    if offset is not None:
        return number + int(offset)
    if text.strip().startswith("#"):
        return number + 1  # a comment on its own line speaks of the next line
    return number


def expectations(path):
    """Returns (multiset of (severity, line, tag), expected deferred count or None)."""
    expected = []
    deferred = None
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            for m in EXPECT.finditer(text):
                severity, offset, tag = m.group(1), m.group(2), m.group(3)
                expected.append((severity, target_line(number, text, offset), tag))
            for m in re.finditer(r"expect-help(?:@([+-]\d+))?\s*:\s*([A-Za-z0-9_]+)", text):
                if "#" in text[:m.start()]:
                    expected.append(("help", target_line(number, text, m.group(1)), m.group(2)))
            m = EXPECT_DEFERRED.search(text)
            if m:
                deferred = int(m.group(1))
    return sorted(expected), deferred


def actual(binary, path):
    proc = subprocess.run([binary, "check", "--format=json", path], capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"gshape exited {proc.returncode}: {proc.stderr.strip()}")
    report = json.loads(proc.stdout)
    found = []
    for d in report.get("diagnostics", []):
        if d.get("severity") in ("error", "warning"):
            found.append((d["severity"], d.get("line") or 0, d.get("tag") or "<no tag: " + d.get("message", "") + ">"))
            for n in d.get("notes", []):
                if n.get("kind") == "help":
                    found.append(("help", d.get("line") or 0, n.get("id", "")))
    deferred = sum(1 for o in report.get("obligations", []) if o.get("status") == "deferred")
    return sorted(found), deferred


def check_sample(binary, path):
    """Returns a list of problems (empty when the sample meets its expectations)."""
    want, want_deferred = expectations(path)
    got, got_deferred = actual(binary, path)
    problems = []
    remaining = list(got)
    for item in want:
        if item in remaining:
            remaining.remove(item)
        else:
            problems.append("missing %s at line %d: %s" % item)
    for item in remaining:
        problems.append("unexpected %s at line %d: %s" % item)
    if want_deferred is not None and want_deferred != got_deferred:
        problems.append(f"expected {want_deferred} deferred obligations, got {got_deferred}")
    return problems


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary = argv[1]
    files = []
    for directory in argv[2:]:
        for root, dirs, names in os.walk(directory):
            dirs.sort()
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".py")]
    passed = failed = 0
    for path in files:
        try:
            problems = check_sample(binary, path)
        except Exception as e:  # a crash or bad JSON is a failure of this sample
            problems = [f"runner error: {e}"]
        if problems:
            failed += 1
            print(f"FAIL {path}")
            for p in problems:
                print(f"    {p}")
        else:
            passed += 1
            print(f"ok   {path}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
