"""`gshape annotate` against what it promises, on the correct samples.

usage: run_annotate.py GSHAPE SAMPLE_DIR

For every correct sample (not bug_*) directly in SAMPLE_DIR, `gshape
annotate SAMPLE -o COPY` writes an annotated copy; then
  * the copy parses, and `gshape check` on it reports no error the original
    does not have and no more deferred obligations;
  * `gshape run` on the copy succeeds: the annotations hold at run time (a
    wrong one would stop the run at the function's entry check);
  * the diff printed without -o changes only lines that gained annotations
    (plus the import block), and `patch -p1` applied to the original gives
    the -o copy.
Prints one line per sample and the annotation counts; exits 1 on a failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def check(gshape, path):
    out = subprocess.run([gshape, "check", "--format=json", path], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    errors = {(d["line"], d.get("tag", "")) for d in doc["diagnostics"] if d["severity"] == "error"}
    deferred = sum(1 for ob in doc["obligations"] if ob["status"] == "deferred")
    return errors, deferred


def main():
    gshape, folder = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="gshape-annotate-")
    failed = total = written = 0
    try:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".py") or name.startswith("bug_"):
                continue
            total += 1
            source = os.path.join(folder, name)
            problems = []
            diff = subprocess.run([os.path.abspath(gshape), "annotate", name], capture_output=True, text=True,
                                  cwd=folder)
            if diff.returncode != 0:
                problems.append("annotate failed: " + diff.stderr.strip())
            added = [l for l in diff.stdout.splitlines() if l.startswith("+") and not l.startswith("+++")]
            count = sum(l.count("Shaped[Tensor") for l in added)
            written += count
            for line in added:
                if "Shaped[Tensor" not in line and not re.match(
                        r"^\+(from __future__ import annotations|from typing import TYPE_CHECKING|"
                        r"if TYPE_CHECKING:.*|    from jaxtyping import Shaped|    from torch import Tensor|)$", line):
                    problems.append("unexpected added line: " + line)
            copy_dir = os.path.join(work, name[:-3])
            result = subprocess.run([gshape, "annotate", source, "-o", copy_dir], capture_output=True, text=True)
            copy = os.path.join(copy_dir, name)
            if result.returncode != 0 or not os.path.exists(copy):
                problems.append("annotate -o failed: " + result.stderr.strip())
            else:
                before_errors, before_deferred = check(gshape, source)
                after_errors, after_deferred = check(gshape, copy)
                if after_errors - before_errors:
                    problems.append("new errors in the annotated copy: %s" % sorted(after_errors - before_errors))
                if after_deferred > before_deferred:
                    problems.append("deferred obligations %d -> %d" % (before_deferred, after_deferred))
                # the diff, applied with patch, gives the same file as -o
                patched_dir = os.path.join(work, "patched-" + name[:-3])
                os.makedirs(patched_dir)
                shutil.copy(source, os.path.join(patched_dir, name))
                if diff.stdout and shutil.which("patch"):
                    applied = subprocess.run(["patch", "-p1", "-s"], input=diff.stdout, text=True,
                                             capture_output=True, cwd=patched_dir)
                    if applied.returncode != 0:
                        problems.append("the diff does not apply: " + applied.stdout + applied.stderr)
                with open(os.path.join(patched_dir, name)) as f, open(copy) as g:
                    if shutil.which("patch") and f.read() != g.read():
                        problems.append("the patched file differs from the -o copy")
                run = subprocess.run([gshape, "run", "--cache-dir", os.path.join(work, "cache"), copy],
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    problems.append("the annotated copy failed to run: " + run.stderr.strip()[-400:])
            failed += bool(problems)
            print("%-28s %-6s %d annotations" % (name, "ok" if not problems else "FAILED", count))
            for p in problems:
                print("    " + p)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d samples, %d annotations written, %d failed" % (total, written, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
