"""The annotated samples (samples/annotated/) against the gradual guarantee.

usage: run_annotated.py GSHAPE ANNOTATED_DIR [--table]

For every sample:
  * removing any subset of its annotations never adds an error (every subset
    for up to 6 annotations, else 64 random ones from a fixed seed): the
    errors of the stripped program are among those of the full one;
  * `gshape run` on it ends as its header says: samples named wrong_* stop
    with a ShapeCheckError of an annotation tag at an annotated line; every
    other one runs to the end;
  * with --table, prints the GraTen-style table of docs/annotations.md:
    obligations proven/deferred without and with annotations, run-time checks
    inserted, and checks executed during the run.
Exits 1 when any sample fails.
"""
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

# one jaxtyping annotation as the samples write it: a parameter's or local's
# `: Float[Tensor, "..."]`, or a return's `-> Float[Tensor, "..."]`
ANNOTATION = re.compile(r'\s*(?::|->)\s*[A-Z][A-Za-z0-9]*\[Tensor, "[^"]*"\]')


def annotations(text):
    return [m.span() for m in ANNOTATION.finditer(text)]


def strip(text, spans):
    for begin, end in sorted(spans, reverse=True):
        removed = text[begin:end]
        # a return annotation goes with its arrow; a parameter's or local's with its colon
        text = text[:begin] + text[end:]
        assert removed
    return text


def check(gshape, path):
    out = subprocess.run([gshape, "check", "--format=json", path], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    errors = {(d["line"], d.get("tag", "")) for d in doc["diagnostics"] if d["severity"] == "error"}
    counts = {"proven": 0, "deferred": 0, "refuted": 0}
    for ob in doc["obligations"]:
        counts[ob["status"]] = counts.get(ob["status"], 0) + 1
    return errors, counts


def subsets(n, rng):
    if n <= 6:
        for k in range(n + 1):
            yield from itertools.combinations(range(n), k)
        return
    for _ in range(64):
        yield tuple(i for i in range(n) if rng.random() < 0.5)


def run(gshape, path, cache, stats):
    env = dict(os.environ, GSHAPE_STATS=stats)
    return subprocess.run([gshape, "run", "--cache-dir", cache, path], capture_output=True, text=True, env=env)


def instrumented_sites(gshape, path, out_dir):
    subprocess.run([gshape, "instrument", path, "-o", out_dir], capture_output=True, text=True)
    with open(os.path.join(out_dir, "gshape-report.json")) as f:
        report = json.load(f)
    return report


def main():
    gshape, folder = sys.argv[1], sys.argv[2]
    table = "--table" in sys.argv
    rng = random.Random(20261124)
    failed = 0
    count = 0
    rows = []
    work = tempfile.mkdtemp(prefix="gshape-annotated-")
    try:
        for name in sorted(f for f in os.listdir(folder) if f.endswith(".py")):
            source = os.path.join(folder, name)
            with open(source) as f:
                text = f.read()
            spans = annotations(text)
            problems = []
            if not spans:
                problems.append("no annotation found")
            full_errors, with_counts = check(gshape, source)
            bare_path = None
            for subset in subsets(len(spans), rng):
                stripped = strip(text, [spans[i] for i in subset])
                sample_dir = os.path.join(work, "strip")
                os.makedirs(sample_dir, exist_ok=True)
                path = os.path.join(sample_dir, name)
                with open(path, "w") as f:
                    f.write(stripped)
                errors, counts = check(gshape, path)
                added = errors - full_errors
                if added:
                    problems.append("removing annotations %s adds errors %s" % (list(subset), sorted(added)))
                if len(subset) == len(spans):
                    without_counts = counts
                    bare_path = path
            stats = os.path.join(work, name + ".stats.json")
            result = run(gshape, source, os.path.join(work, "cache"), stats)
            wrong = name.startswith("wrong_")
            if wrong:
                match = re.search(r"ShapeCheckError: [^:]+:(\d+):\d+: \[(annotation_c\d)\]", result.stderr)
                if result.returncode != 1 or not match:
                    problems.append("expected a ShapeCheckError of an annotation tag, got status %d: %s"
                                    % (result.returncode, result.stderr.strip()[-300:]))
            elif result.returncode != 0:
                problems.append("the run failed: " + result.stderr.strip()[-300:])
            executed = 0
            if os.path.exists(stats):
                with open(stats) as f:
                    executed = sum(site["runs"] for site in json.load(f)["sites"])
            if table:
                with_sites = instrumented_sites(gshape, source, os.path.join(work, "with-" + name))
                shutil.copy(bare_path, os.path.join(work, "bare.py"))
                without_sites = instrumented_sites(gshape, os.path.join(work, "bare.py"), os.path.join(work, "without-" + name))
                rows.append((name, len(spans), without_counts, with_counts, without_sites["summary"]["sites_checked"],
                             with_sites["summary"]["sites_checked"], executed))
            count += 1
            status = "ok" if not problems else "FAILED"
            print("%-32s %s" % (name, status))
            for p in problems:
                print("    " + p)
            failed += bool(problems)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if table:
        print()
        print("| sample | annotations | without: proven / deferred / refuted | with: proven / deferred / refuted "
              "| checks inserted without / with | checks run |")
        print("| --- | --- | --- | --- | --- | --- |")
        for name, n, wo, wi, s_wo, s_wi, executed in rows:
            print("| %s | %d | %d / %d / %d | %d / %d / %d | %s / %s | %d |"
                  % (name, n, wo["proven"], wo["deferred"], wo["refuted"], wi["proven"], wi["deferred"],
                     wi["refuted"], s_wo, s_wi, executed))
    print("%d samples, %d failed" % (count, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
