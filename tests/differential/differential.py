"""Differential tests: every runnable sample (samples/*.py) run as written
and as `gshape instrument` rewrote it, with /usr/bin/python3.

    differential.py prepare          gshape instrument samples -o OUT/default
                                     gshape instrument --check-proven samples -o OUT/all-checked
    differential.py sample NAME.py   run one sample each way and compare

Correct programs must print the same stdout and exit with the same status,
instrumented as gshape does by default and with every obligation checked
(--check-proven: a proof the analysis got wrong would fail there); a copy
that is byte for byte the original (no check in the file) is not run again.
Buggy programs (bug_*.py) must fail, as written, with PyTorch's own error,
and instrumented with ShapeCheckError at the line their `# expect-error` /
`# expect-warning` comment names (the traceback's last frame), carrying the
tag; the instrumentation report must show a refuted or deferred obligation
with an inserted check there. A bug the analysis leaves without a check at
that line fails the test and says so (EXPECTED_FAILURES lists the known ones
with the reason; when one starts to pass, the test fails until it is removed
from the list).

ctest sets GSHAPE_BINARY, GSHAPE_RUNTIME_PATH, GSHAPE_SOURCE_DIR and
GSHAPE_DIFFERENTIAL_OUT (the folder of the instrumented trees, written by `prepare`)."""

import json
import os
import re
import subprocess
import sys
import tempfile

PYTHON = "/usr/bin/python3"
BINARY = os.environ.get("GSHAPE_BINARY", "")
RUNTIME_PATH = os.environ.get("GSHAPE_RUNTIME_PATH", "")
SOURCE_DIR = os.environ.get("GSHAPE_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.environ.get("GSHAPE_DIFFERENTIAL_OUT", "")
TIMEOUT = 300

# Bug samples whose check is known to be missing, with the reason. Empty
# means every bug sample must stop at its line.
EXPECTED_FAILURES = {
    "bug_sequential_layer_sizes.py": "the check of a layer inside an nn.Sequential runs in a forward pre-hook: "
                                     "ShapeCheckError names samples/...:22 and the tag, but the last traceback "
                                     "frame is torch's module.py, not the user's line",
}

EXPECT = re.compile(r"#\s*expect-(error|warning)(?:@\+(\d+))?:\s*([A-Za-z0-9_]+)")
FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)', re.M)


class Failure(Exception):
    pass


def expectations(path):
    """[(line, tag)] the sample's expect-error / expect-warning comments name."""
    found = []
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            m = EXPECT.search(text)
            if m:
                found.append((number + int(m.group(2) or 0), m.group(3)))
    return found


def environment(stats_path=None):
    env = dict(os.environ)
    # The same seed for both runs: a sitecustomize (tests/differential/seeded)
    # seeds torch at start-up, since some samples draw weights unseeded.
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(SOURCE_DIR, "tests", "differential", "seeded"), RUNTIME_PATH])
    env["OMP_NUM_THREADS"] = "1"  # the same kernel partitioning in both runs, and a quieter shared machine
    env.pop("GSHAPE_CHECKS", None)
    env.pop("GSHAPE_STATS", None)
    if stats_path:
        env["GSHAPE_STATS"] = stats_path
    return env


def run(script, cwd, stats_path=None):
    return subprocess.run([PYTHON, script], cwd=cwd, env=environment(stats_path), capture_output=True,
                          text=True, timeout=TIMEOUT)


def tail(text, lines=12):
    return "\n".join(text.rstrip("\n").split("\n")[-lines:])


VARIANTS = {"default": [], "all-checked": ["--check-proven"]}


def prepare():
    if not BINARY or not os.path.exists(BINARY):
        raise Failure("GSHAPE_BINARY is not the built gshape")
    if not OUT:
        raise Failure("GSHAPE_DIFFERENTIAL_OUT is not set")
    for variant, flags in VARIANTS.items():
        out = os.path.join(OUT, variant)
        done = subprocess.run([BINARY, "instrument", "samples", "-o", out, "--color=never", *flags],
                              cwd=SOURCE_DIR, capture_output=True, text=True, timeout=TIMEOUT)
        sys.stdout.write(done.stderr)
        # 1: the bug samples hold static errors, which is expected; their checks are in OUT.
        if done.returncode not in (0, 1):
            raise Failure("gshape instrument %s exited %d" % (" ".join(flags), done.returncode))
        if not os.path.exists(os.path.join(out, "gshape-report.json")):
            raise Failure("gshape instrument wrote no gshape-report.json into %s" % out)
        print("differential: instrumented samples/ into %s" % out)


def report_entries(name):
    with open(os.path.join(OUT, "default", "gshape-report.json"), encoding="utf-8") as f:
        report = json.load(f)
    return [o for o in report["obligations"] if os.path.basename(o["obligation"]["path"]) == name
            and os.path.dirname(os.path.normpath(o["obligation"]["path"])) == "samples"]


def stats_summary(stats_path):
    """(sites that ran, total runs, failures) from a GSHAPE_STATS file; the
    module hook's counters (path `<module calls>`) count as sites too."""
    if not os.path.exists(stats_path):
        return None
    with open(stats_path, encoding="utf-8") as f:
        sites = json.load(f)["sites"]
    return (sum(1 for c in sites if c["runs"] > 0), sum(c["runs"] for c in sites),
            sum(c["failures"] for c in sites))


def check_correct(name, variant, original, instrumented, stats):
    if instrumented.returncode != original.returncode:
        raise Failure("%s: exit status %d instrumented, %d original\ninstrumented stderr:\n%s"
                      % (variant, instrumented.returncode, original.returncode, tail(instrumented.stderr)))
    if original.returncode != 0:
        raise Failure("the correct sample fails as written (status %d):\n%s"
                      % (original.returncode, tail(original.stderr)))
    if instrumented.stdout != original.stdout:
        raise Failure("%s: stdout differs\n--- original\n%s--- instrumented\n%s"
                      % (variant, original.stdout, instrumented.stdout))
    if not original.stdout.strip():
        raise Failure("the sample printed nothing: the comparison would prove nothing")
    ran = stats_summary(stats)
    if ran and ran[2]:
        raise Failure("%s: %d check failures recorded in a passing run" % (variant, ran[2]))
    print("%s (%s): same stdout (%d lines) and status %d; run-time checks: %d sites ran %d times" % (
        name, variant, original.stdout.count("\n"), original.returncode, *(ran[:2] if ran else (0, 0))))


def check_bug(name, source, original, instrumented, copy):
    expected = expectations(source)
    if not expected:
        raise Failure("a bug sample without an expect-error/expect-warning comment")
    # As written: PyTorch's own error, not ours.
    if original.returncode == 0:
        raise Failure("the buggy sample runs without error as written")
    if "ShapeCheckError" in original.stderr:
        raise Failure("the original run raised ShapeCheckError: it is not running the original")
    # The analysis must have left a check at the expected line.
    entries = report_entries(name)
    problems = []
    for line, tag in expected:
        at_line = [o for o in entries if o["obligation"]["line"] == line and o["obligation"]["tag"] == tag]
        checked = [o for o in at_line if o["obligation"]["status"] in ("refuted", "deferred")
                   and o["runtime_check"] == "inserted"]
        if not checked:
            if not at_line:
                problems.append("no %s obligation at line %d: the analysis neither refuted nor deferred it, so no "
                                "check stops the run there" % (tag, line))
            else:
                problems.append("the %s obligation at line %d is %s with run-time check '%s' (%s)" % (
                    tag, line, at_line[0]["obligation"]["status"], at_line[0]["runtime_check"],
                    at_line[0].get("reason", "")))
    if problems:
        raise Failure("; ".join(problems))
    # Instrumented: ShapeCheckError at that line, naming the tag.
    if instrumented.returncode != 1:
        raise Failure("instrumented run exited %d, expected 1 (ShapeCheckError)\n%s"
                      % (instrumented.returncode, tail(instrumented.stderr)))
    last = instrumented.stderr.rstrip("\n").split("\n")[-1]
    if "ShapeCheckError: " not in last:
        raise Failure("instrumented run did not end with ShapeCheckError:\n%s" % tail(instrumented.stderr))
    frames = FRAME.findall(instrumented.stderr)
    if not frames:
        raise Failure("no traceback frames in:\n%s" % tail(instrumented.stderr))
    frame_file, frame_line = frames[-1][0], int(frames[-1][1])
    wanted = {line for line, _ in expected}
    if os.path.realpath(frame_file) != os.path.realpath(copy) or frame_line not in wanted:
        raise Failure("the last traceback frame is %s:%d, expected %s line %s\n%s"
                      % (frame_file, frame_line, copy, sorted(wanted), tail(instrumented.stderr)))
    tags = [tag for line, tag in expected if line == frame_line]
    if not any("[%s]" % tag in last for tag in tags):
        raise Failure("the ShapeCheckError does not name %s: %s" % (" or ".join(tags), last))
    if "samples/%s:%d:" % (name, frame_line) not in last:
        raise Failure("the ShapeCheckError does not name samples/%s:%d: %s" % (name, frame_line, last))
    if instrumented.stdout != original.stdout:
        raise Failure("stdout before the failure differs\n--- original\n%s--- instrumented\n%s"
                      % (original.stdout, instrumented.stdout))
    print("%s: PyTorch fails as written (%s); instrumented stops at line %d:\n  %s" % (
        name, tail(original.stderr, 1)[:100], frame_line, last))


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def sample(name):
    if not RUNTIME_PATH or not os.path.isdir(os.path.join(RUNTIME_PATH, "gshape_runtime")):
        raise Failure("GSHAPE_RUNTIME_PATH does not hold the built gshape_runtime package")
    source = os.path.join(SOURCE_DIR, "samples", name)
    copies = {variant: os.path.join(OUT, variant, name) for variant in VARIANTS}
    for copy in copies.values():
        if not os.path.exists(copy):
            raise Failure("%s is missing: run 'differential.py prepare' first" % copy)
    with tempfile.TemporaryDirectory(prefix="gshape-differential-") as cwd:
        original = run(source, cwd)
        if name.startswith("bug_"):
            stats = os.path.join(cwd, "stats.json")
            check_bug(name, source, original, run(copies["default"], cwd, stats), copies["default"])
            return
        previous = source
        for variant, copy in copies.items():
            if same_bytes(copy, previous):
                print("%s (%s): the copy is byte for byte the %s (no check to add): not run again" % (
                    name, variant, "original" if previous == source else "previous copy"))
                continue
            stats = os.path.join(cwd, variant + "-stats.json")
            check_correct(name, variant, original, run(copy, cwd, stats), stats)
            previous = copy


def main(argv):
    if len(argv) == 2 and argv[1] == "prepare":
        action, label = prepare, "prepare"
    elif len(argv) == 3 and argv[1] == "sample":
        action, label = (lambda: sample(argv[2])), argv[2]
    else:
        print(__doc__)
        return 2
    reason = EXPECTED_FAILURES.get(label)
    try:
        action()
    except Failure as failure:
        if reason:
            print("%s: expected failure (%s):\n%s" % (label, reason, failure))
            return 0
        print("%s: FAILED: %s" % (label, failure))
        return 1
    if reason:
        print("%s: passes although it is listed in EXPECTED_FAILURES (%s): remove it from the list" % (label, reason))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
