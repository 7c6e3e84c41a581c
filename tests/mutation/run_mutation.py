#!/usr/bin/env python3
"""Mutation testing of gshape's gradual guarantee (see README.md here).

For each correct base program, mutate.py replaces one integer literal of a
shape-relevant call; each mutant is run with plain Python and classified.
A mutant that crashes with a PyTorch shape error must be stopped by gshape,
statically (`gshape check` reports an error on a line of the crash's
traceback) and/or at run time (`gshape run` ends with a ShapeCheckError
at such a line). A mutant that still runs must get no static error and no
ShapeCheckError (else it is a false alarm).

usage: run_mutation.py --gshape PATH [--bases FILE...] [--sample N --seed S]
                       [--max-per-base K] [--jobs J] [--timeout SECONDS]
                       [--json OUT] [--exceptions FILE] [--mutants ID...]

Exit status: 0 when every shape crash is stopped, no mutant is a false
alarm and no instrumented run of a mutant that runs fails otherwise (except
mutants listed in the exceptions file), and every base runs cleanly;
1 otherwise; 2 on a usage error.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import mutate  # noqa: E402

PYTHON = "/usr/bin/python3"

# ---------------------------------------------------------------------------
# Classification of a crash (all patterns in one place)

# exception types a PyTorch shape error is raised as; AssertionError only
# when raised inside PyTorch's own code (nn.MultiheadAttention checks its
# inputs with assert), never from the program's own asserts
SHAPE_EXCEPTION_TYPES = {"RuntimeError", "ValueError", "IndexError", "TypeError"}
TORCH_ASSERTION_TYPES = {"AssertionError"}

# a message matching one of these (case-insensitive) is a shape error ...
SHAPE_PATTERNS = [
    r"shape", r"size", r"dimension", r"\bdims?\b", r"mat1 and mat2", r"expected", r"expecting",
    r"must match", r"doesn't match", r"does not match", r"mismatch", r"out of range",
    r"out of bounds", r"invalid", r"channels", r"divisible", r"kernel", r"sizes of tensors",
    r"non-singleton", r"broadcast", r"too small", r"padding", r"stride", r"\brank\b",
    r"number of", r"embed_dim", r"num_heads", r"hidden", r"batch_size", r"\belements\b",
    r"got \d+-?d\b", r"\d+-?d (input|tensor|target)", r"at least", r"greater than",
    r"is not compatible", r"length", r"equal",
    r"could not create a descriptor",   # oneDNN: a convolution whose geometry is invalid (kernel 0)
]
# ... unless it matches one of these: errors of Python itself, and value
# errors that depend on the data rather than on shapes (counted apart, as
# "value crashes")
NOT_SHAPE_PATTERNS = [
    r"^list index out of range", r"^tuple index out of range", r"^string index out of range",
    r"values to unpack", r"^index -?\d+ is out of range$",          # nn.ModuleList / Sequential
    r"unexpected keyword argument", r"positional argument", r"required positional",
    r"object is not (callable|subscriptable|iterable)", r"has no attribute",
    r"unsupported operand", r"can't multiply sequence", r"not supported between",
    r"invalid literal for int", r"does not require grad", r"backward through the graph",
]
VALUE_PATTERNS = [
    r"^Target -?\d+ is out of bounds", r"index out of range in self", r"device-side assert",
    r"Class values must be smaller than num_classes", r"Class values must be non-negative",
    r"all elements of (input|target) should be between",
]


def classify_exception(exc_type, message, last_frame_in_torch):
    """'shape', 'value' or 'other' for a crash's final exception."""
    short = exc_type.rsplit(".", 1)[-1]
    text = message or ""
    if any(re.search(p, text, re.I) for p in VALUE_PATTERNS):
        return "value"
    if short in SHAPE_EXCEPTION_TYPES or (short in TORCH_ASSERTION_TYPES and last_frame_in_torch):
        if any(re.search(p, text, re.I) for p in NOT_SHAPE_PATTERNS):
            return "other"
        if any(re.search(p, text, re.I) for p in SHAPE_PATTERNS):
            return "shape"
    return "other"


# ---------------------------------------------------------------------------
# Tracebacks

FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>.*)$')
EXCEPTION_LINE = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)(?::\s?(?P<msg>.*))?$")
SHAPE_CHECK = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): \[(?P<tag>[^\]]+)\] (?P<msg>.*)$",
                         re.S)


def parse_traceback(stderr):
    """(frames [(file, line)], exception type, message) of the last traceback
    in stderr; (None, None, None) when there is none."""
    lines = stderr.splitlines()
    start = None
    for i, text in enumerate(lines):
        if text.startswith("Traceback (most recent call last):"):
            start = i
    if start is None:
        return None, None, None
    frames = []
    i = start + 1
    while i < len(lines):
        m = FRAME.match(lines[i])
        if m:
            frames.append((m.group("file"), int(m.group("line"))))
            i += 1
            continue
        if lines[i].startswith(" ") or lines[i] == "":
            i += 1          # source line, carets, "[Previous line repeated N more times]"
            continue
        break
    if i >= len(lines):
        return frames, None, None
    m = EXCEPTION_LINE.match(lines[i])
    if not m:
        return frames, lines[i], ""
    message = "\n".join([m.group("msg") or ""] + lines[i + 1:]).strip()
    return frames, m.group("type"), message


def run(cmd, cwd, timeout, env=None):
    """(returncode or None on timeout, stdout, stderr, seconds)."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=env, errors="replace")
        return p.returncode, p.stdout, p.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return None, out, err, time.monotonic() - start


def child_env():
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = "1"
    env["MKL_NUM_THREADS"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"
    env.pop("GSHAPE_STATS", None)
    env.pop("GSHAPE_CHECKS", None)
    return env


# ---------------------------------------------------------------------------
# One mutant

class Job:
    def __init__(self, base_path, mutant):
        self.base_path = base_path
        self.mutant = mutant            # None: the base itself, unmutated

    @property
    def id(self):
        return self.mutant.id if self.mutant else f"{os.path.basename(self.base_path)}:base"


def last_line(text, limit=200):
    first = (text or "").strip().splitlines()
    line = first[0] if first else ""
    return line if len(line) <= limit else line[:limit - 3] + "..."


def evaluate(job, args):
    name = os.path.basename(job.base_path)
    with open(job.base_path, "rb") as f:
        data = f.read()
    source = mutate.apply(data, job.mutant) if job.mutant else data
    tmp = tempfile.mkdtemp(prefix="gshape-mutant-")
    rec = {"id": job.id, "base": name}
    if job.mutant:
        m = job.mutant
        rec.update(line=m.line, col=m.col, old=m.old, new=m.new, kind=m.kind, site=m.site)
    try:
        proj = os.path.join(tmp, "proj")
        os.mkdir(proj)
        path = os.path.join(proj, name)
        with open(path, "wb") as f:
            f.write(source)
        mutant_real = os.path.realpath(path)
        env = child_env()

        # 1. plain Python
        code, out, err, secs = run([PYTHON, name], proj, args.timeout, env)
        py = {"exit": code, "seconds": round(secs, 2)}
        if code is None:
            rec["outcome"] = "timeout"
            rec["python"] = py
            return rec
        frames, exc_type, message = parse_traceback(err) if code != 0 else (None, None, None)
        if code == 0:
            rec["outcome"] = "runs"
        else:
            py["exception"] = exc_type
            py["message"] = message
            frames = frames or []
            in_file = [ln for f, ln in frames
                       if os.path.realpath(os.path.join(proj, f)) == mutant_real]
            py["crash_lines"] = sorted(set(in_file))
            py["innermost_line"] = in_file[-1] if in_file else None
            last_in_torch = bool(frames) and "/torch/" in frames[-1][0]
            kind = classify_exception(exc_type or "", message or "", last_in_torch) if exc_type else "other"
            rec["outcome"] = {"shape": "shape_crash", "value": "value_crash"}.get(kind, "other_crash")
            if not exc_type:
                py["stderr_tail"] = err[-500:]
        rec["python"] = py
        if rec["outcome"] not in ("runs", "shape_crash"):
            return rec

        # 2. gshape check
        code, out, err, secs = run([args.gshape, "check", "--format=json", name], proj, args.timeout, env)
        chk = {"exit": code, "seconds": round(secs, 2), "errors": [], "warnings": []}
        report = None
        if code in (0, 1):
            try:
                report = json.loads(out)
            except ValueError:
                chk["problem"] = "no JSON on stdout"
        else:
            chk["problem"] = "timeout" if code is None else last_line(err)
        if report:
            for d in report.get("diagnostics", []):
                if d.get("severity") in ("error", "warning") and os.path.basename(d.get("file", "")) == name:
                    item = {"line": d.get("line"), "col": d.get("column"), "tag": d.get("tag"),
                            "message": d.get("message")}
                    chk["errors" if d["severity"] == "error" else "warnings"].append(item)
        rec["check"] = chk

        # 3. gshape run
        cache = os.path.join(tmp, "cache")
        code, out, err, secs = run([args.gshape, "run", "--cache-dir", cache, name], proj,
                                   args.timeout + 30, env)
        grun = {"exit": code, "seconds": round(secs, 2), "shape_check_error": None}
        if code is None:
            grun["problem"] = "timeout"
        elif code != 0:
            frames, exc_type, message = parse_traceback(err)
            grun["exception"] = exc_type
            grun["message"] = message
            if exc_type and exc_type.endswith("ShapeCheckError") and message:
                m = SHAPE_CHECK.match(message)
                if m:
                    grun["shape_check_error"] = {"path": m.group("path"), "line": int(m.group("line")),
                                                 "col": int(m.group("col")), "tag": m.group("tag"),
                                                 "message": m.group("msg").strip()}
            if not exc_type:
                grun["stderr_tail"] = err[-500:]
        rec["run"] = grun

        # 4. verdict
        sce = grun["shape_check_error"]
        if rec["outcome"] == "shape_crash":
            lines = set(py["crash_lines"])
            rec["stopped_runtime"] = bool(sce) and sce["line"] in lines
            rec["reported_static"] = any(e["line"] in lines for e in chk["errors"])
            rec["stopped"] = rec["stopped_runtime"] or rec["reported_static"]
            if not rec["stopped_runtime"]:
                rec["cause"], rec["diagnosis"] = diagnose(rec, report, name, proj, tmp, args, env)
        else:
            rec["false_alarm"] = bool(chk["errors"]) or bool(sce)
            if code not in (0, None) and not sce:
                rec["instrumented_run_failed"] = True   # not a false alarm, but worth a look
        return rec
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


def diagnose(rec, report, name, proj, tmp, args, env):
    """Why a shape crash was not stopped at run time: (cause, detail). The
    cause is one of CAUSES; the detail names lines and tags. Read from the
    obligations on the crash lines (innermost first) and from `gshape
    instrument`'s report (whether each got a run-time check)."""
    py, grun, chk = rec["python"], rec["run"], rec["check"]
    inner = py.get("innermost_line")
    sce = grun.get("shape_check_error")
    if chk.get("problem"):
        return "gshape failed", f"gshape check: {chk['problem']}"
    if grun.get("problem"):
        return "gshape failed", f"gshape run: {grun['problem']}"
    if sce:
        return "wrong line", (f"ShapeCheckError at line {sce['line']} [{sce['tag']}], "
                              f"crash lines {py['crash_lines']}")
    if grun.get("exit") != 0 and (grun.get("exception") != py.get("exception")
                                  or last_line(grun.get("message")) != last_line(py.get("message"))):
        return "instrumented run failed differently", (
            f"{grun.get('exception')}: {last_line(grun.get('message') or grun.get('stderr_tail'), 150)}")
    if inner is None:
        return "no frame in the program", ""
    lines = py["crash_lines"]
    obligations = [o for o in (report or {}).get("obligations", [])
                   if o.get("line") in lines and os.path.basename(o.get("file", "")) == name]
    status = {}
    out_dir = os.path.join(tmp, "instrumented")
    run([args.gshape, "instrument", name, "-o", out_dir], proj, args.timeout, env)
    try:
        with open(os.path.join(out_dir, "gshape-report.json")) as f:
            inst = json.load(f)
        for o in inst.get("obligations", []):
            status[o.get("obligation", {}).get("id")] = (o.get("runtime_check"), o.get("reason", ""))
    except (OSError, ValueError):
        pass
    inner_obligations = [o for o in obligations if o.get("line") == inner]
    errors_elsewhere = ", ".join(f"{e['line']} [{e['tag']}]" for e in chk["errors"])
    suffix = f"; static errors: {errors_elsewhere}" if errors_elsewhere else ""

    def tags(items):
        return ", ".join(sorted({f"{o.get('line')} {o.get('tag')}" for o in items}))

    open_ = [o for o in obligations if o.get("status") in ("refuted", "deferred")]
    not_inst = [o for o in open_ if status.get(o.get("id"), (None, ""))[0] == "not_instrumentable"]
    refuted = [o for o in open_ if o.get("status") == "refuted" and o not in not_inst]
    deferred = [o for o in open_ if o.get("status") == "deferred" and o not in not_inst]
    if not_inst:
        reasons = sorted({status[o.get("id")][1] for o in not_inst})
        return "refuted/deferred but not instrumentable", f"{tags(not_inst)}: {'; '.join(reasons)}{suffix}"
    if refuted:
        return "refuted, check inserted, no ShapeCheckError", tags(refuted) + suffix
    if not inner_obligations:
        return "no obligation on the crash line", f"line {inner}{suffix}"
    if deferred:
        return "deferred check passed at run time", tags(deferred) + suffix
    return "proven, yet PyTorch fails", tags(inner_obligations) + suffix


# ---------------------------------------------------------------------------
# Selection, exceptions, report

def default_bases():
    folder = os.path.join(ROOT, "samples")
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder))
            if n.endswith(".py") and not n.startswith("bug_")]


def read_exceptions(path):
    result = {}
    if not path:
        return result
    with open(path, encoding="utf-8") as f:
        for text in f:
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            ident, _, reason = text.partition(" #")
            result[ident.strip()] = reason.strip()
    return result


def select(bases, args):
    jobs = []
    for path in bases:
        ms = mutate.mutants_of_file(path)
        if args.max_per_base and len(ms) > args.max_per_base:
            rng = random.Random(f"{args.seed}:{os.path.basename(path)}")
            keep = set(rng.sample(range(len(ms)), args.max_per_base))
            ms = [m for i, m in enumerate(ms) if i in keep]
        jobs += [Job(path, m) for m in ms]
    if args.mutants:
        wanted = set(args.mutants)
        jobs = [j for j in jobs if j.id in wanted]
    if args.sample and args.sample < len(jobs):
        keep = set(random.Random(args.seed).sample(range(len(jobs)), args.sample))
        jobs = [j for i, j in enumerate(jobs) if i in keep]
    return jobs


def base_clean(rec):
    return rec["outcome"] == "runs" and not rec.get("false_alarm") and not rec.get("instrumented_run_failed")


def describe_gshape(rec):
    chk, grun = rec.get("check", {}), rec.get("run", {})
    parts = []
    errs = chk.get("errors", [])
    parts.append("check: " + (", ".join(f"error {e['line']} [{e['tag']}]" for e in errs) if errs else "no error"))
    warns = chk.get("warnings", [])
    if warns:
        parts.append(", ".join(f"warning {w['line']} [{w['tag']}]" for w in warns))
    sce = grun.get("shape_check_error")
    if sce:
        parts.append(f"run: ShapeCheckError {sce['line']}:{sce['col']} [{sce['tag']}] {sce['message'][:120]}")
    elif grun.get("problem"):
        parts.append(f"run: {grun['problem']}")
    elif grun.get("exit") not in (0, None):
        parts.append(f"run: {grun.get('exception')}: {last_line(grun.get('message'), 100)}")
    else:
        parts.append("run: exit 0")
    return "; ".join(parts)


def print_report(records, bases_recs, exceptions, elapsed, out):
    def p(s=""):
        print(s, file=out)

    muts = [r for r in records]
    count = lambda pred: sum(1 for r in muts if pred(r))  # noqa: E731
    crashes = [r for r in muts if r["outcome"] == "shape_crash"]
    runs = [r for r in muts if r["outcome"] == "runs"]
    not_stopped = [r for r in crashes if not r.get("stopped")]
    false_alarms = [r for r in runs if r.get("false_alarm")]
    base_names = sorted({r["base"] for r in muts} | {r["base"] for r in bases_recs})

    p("gshape mutation testing: the gradual guarantee")
    rows = [
        ("bases", len(base_names)),
        ("mutants", len(muts)),
        ("runs (exit 0)", len(runs)),
        ("shape crashes", len(crashes)),
        ("  stopped at run time", count(lambda r: r.get("stopped_runtime"))),
        ("  reported statically", count(lambda r: r.get("reported_static"))),
        ("  stopped by either", count(lambda r: r.get("stopped"))),
        ("  NOT stopped", len(not_stopped)),
        ("false alarms (of runs)", len(false_alarms)),
        ("instrumented run failed (of runs)", count(lambda r: r.get("instrumented_run_failed"))),
        ("value crashes (index/target out of bounds; not counted)", count(lambda r: r["outcome"] == "value_crash")),
        ("other crashes", count(lambda r: r["outcome"] == "other_crash")),
        ("timeouts", count(lambda r: r["outcome"] == "timeout")),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        p(f"  {k:<{width}}  {v:>6}")
    if crashes:
        p(f"  {'stopped / shape crashes':<{width}}  {100.0 * (len(crashes) - len(not_stopped)) / len(crashes):5.1f}%")
    p(f"  {'wall time':<{width}}  {elapsed:6.0f} s")
    p()
    p("per base: mutants, runs, shape crashes, stopped at run time, reported statically, NOT stopped, false alarms")
    for b in base_names:
        rs = [r for r in muts if r["base"] == b]
        sc = [r for r in rs if r["outcome"] == "shape_crash"]
        p(f"  {b:<26} {len(rs):4} {sum(r['outcome'] == 'runs' for r in rs):5} {len(sc):5}"
          f" {sum(bool(r.get('stopped_runtime')) for r in sc):5} {sum(bool(r.get('reported_static')) for r in sc):5}"
          f" {sum(not r.get('stopped') for r in sc):5} {sum(bool(r.get('false_alarm')) for r in rs):5}")
    bad_bases = [r for r in bases_recs if not base_clean(r)]
    if bad_bases:
        p()
        p("BASES THAT ARE NOT CLEAN (a base must run, as written and instrumented, with no static error):")
        for r in bad_bases:
            p(f"  {r['base']}: {r['outcome']}; {describe_gshape(r) if r['outcome'] == 'runs' else last_line(r['python'].get('message'))}")
    if not_stopped:
        p()
        p("NOT stopped (shape crash under PyTorch, gshape did not stop it at a line of the traceback):")
        for r in not_stopped:
            tag = "  [known] " if r["id"] in exceptions else "  "
            p(f"{tag}{r['base']}:{r['line']}:{r['col']} {r['old']}→{r['new']} ({r['kind']} {r['site']})")
            p(f"      PyTorch: {r['python']['exception']}: {last_line(r['python']['message'])}  (lines {r['python']['crash_lines']})")
            p(f"      gshape:  {describe_gshape(r)}")
            p(f"      why:     {r.get('cause', '')}: {r.get('diagnosis', '')}")
    missed_rt = [r for r in crashes if not r.get("stopped_runtime")]
    if missed_rt:
        p()
        p("shape crashes NOT stopped at run time, by cause (reported statically / not):")
        causes = {}
        for r in missed_rt:
            c = causes.setdefault(r.get("cause", "?"), [0, 0])
            c[0 if r.get("reported_static") else 1] += 1
        for cause, (st, nst) in sorted(causes.items(), key=lambda kv: -sum(kv[1])):
            p(f"  {st + nst:4}  {cause} ({st} / {nst})")
    if false_alarms:
        p()
        p("false alarms (the mutant runs under PyTorch, gshape reports an error or a ShapeCheckError):")
        for r in false_alarms:
            tag = "  [known] " if r["id"] in exceptions else "  "
            p(f"{tag}{r['base']}:{r['line']}:{r['col']} {r['old']}→{r['new']} ({r['kind']} {r['site']})")
            p(f"      gshape:  {describe_gshape(r)}")
    odd = [r for r in runs if r.get("instrumented_run_failed")]
    if odd:
        p()
        p("runs under PyTorch, but the instrumented run failed without ShapeCheckError (fails the run too):")
        for r in odd:
            tag = "  [known] " if r["id"] in exceptions else "  "
            p(f"{tag}{r['id']}: {describe_gshape(r)}")
    warned = [r for r in runs if r.get("check", {}).get("warnings") and not r.get("false_alarm")]
    if warned:
        p()
        p(f"runs, with a static warning (not counted as false alarms): {len(warned)}")
        for r in warned:
            p(f"  {r['id']}: {describe_gshape(r)}")
    others = {}
    for r in muts:
        if r["outcome"] in ("other_crash", "value_crash"):
            key = f"{r['python'].get('exception')}: {re.sub(r'[0-9]+', 'N', last_line(r['python'].get('message'), 90))}"
            others[key] = others.get(key, 0) + 1
    if others:
        p()
        p("other and value crashes by message:")
        for k, v in sorted(others.items(), key=lambda kv: (-kv[1], kv[0])):
            p(f"  {v:4}  {k}")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gshape", required=True, help="the gshape binary")
    ap.add_argument("--bases", nargs="+", help="base programs (default: samples/*.py but bug_*)")
    ap.add_argument("--sample", type=int, default=0, help="run a deterministic random subset of N mutants")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-per-base", type=int, default=0,
                    help="at most K mutants per base (a deterministic random subset)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--json", help="write every mutant's classification to this file")
    ap.add_argument("--exceptions", default=os.path.join(HERE, "known_exceptions.txt"))
    ap.add_argument("--mutants", nargs="+", help="only these mutant ids")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folders")
    ap.add_argument("--verbose", action="store_true", help="one line per mutant as it finishes")
    args = ap.parse_args(argv[1:])
    args.gshape = os.path.abspath(args.gshape)
    if not os.access(args.gshape, os.X_OK):
        print(f"run_mutation.py: no gshape binary at {args.gshape}", file=sys.stderr)
        return 2
    bases = [os.path.abspath(b) for b in (args.bases or default_bases())]
    exceptions = read_exceptions(args.exceptions) if os.path.exists(args.exceptions) else {}

    start = time.monotonic()
    jobs = select(bases, args)
    used = sorted({j.base_path for j in jobs}, key=bases.index)
    base_jobs = [Job(b, None) for b in used]
    all_jobs = base_jobs + jobs
    print(f"{len(jobs)} mutants of {len(used)} bases (+ the {len(used)} bases themselves), "
          f"{args.jobs} jobs", file=sys.stderr, flush=True)

    results = [None] * len(all_jobs)
    done = [0]
    lock = threading.Lock()

    def work(i):
        try:
            rec = evaluate(all_jobs[i], args)
        except Exception as e:  # a harness failure is a result too, not a crash of the run
            rec = {"id": all_jobs[i].id, "base": os.path.basename(all_jobs[i].base_path),
                   "outcome": "harness_error", "error": repr(e)}
        results[i] = rec
        with lock:
            done[0] += 1
            if args.verbose:
                extra = ""
                if rec["outcome"] == "shape_crash":
                    extra = " stopped" if rec.get("stopped") else " NOT STOPPED"
                elif rec.get("false_alarm"):
                    extra = " FALSE ALARM"
                print(f"[{done[0]}/{len(all_jobs)}] {rec['id']}: {rec['outcome']}{extra}",
                      file=sys.stderr, flush=True)
            elif done[0] % 25 == 0:
                print(f"  {done[0]}/{len(all_jobs)} done, {time.monotonic() - start:.0f} s",
                      file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(work, range(len(all_jobs))))
    elapsed = time.monotonic() - start

    base_recs = results[:len(base_jobs)]
    records = results[len(base_jobs):]
    harness_errors = [r for r in results if r["outcome"] == "harness_error"]
    print_report([r for r in records if r["outcome"] != "harness_error"],
                 [r for r in base_recs if r["outcome"] != "harness_error"], exceptions, elapsed, sys.stdout)
    for r in harness_errors:
        print(f"HARNESS ERROR {r['id']}: {r['error']}")

    failing = []
    for r in records:
        if r["outcome"] == "shape_crash" and not r.get("stopped") and r["id"] not in exceptions:
            failing.append(r["id"])
        if r.get("false_alarm") and r["id"] not in exceptions:
            failing.append(r["id"])
        if r.get("instrumented_run_failed") and r["id"] not in exceptions:
            failing.append(r["id"])
    bad_bases = [r["id"] for r in base_recs if not base_clean(r)]
    stale = [r["id"] for r in records if r["id"] in exceptions and (
        (r["outcome"] == "shape_crash" and r.get("stopped")) or (r["outcome"] == "runs" and not r.get("false_alarm")))]
    for ident in stale:
        print(f"note: {ident} is listed in the exceptions file but passes now; remove it")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"format": "gshape-mutation", "version": 1, "gshape": args.gshape,
                       "seconds": round(elapsed, 1), "bases": base_recs, "mutants": records},
                      f, indent=1)
    failing = sorted(set(failing))
    status = 1 if (failing or bad_bases or harness_errors) else 0
    print(f"\nresult: {'FAIL' if status else 'PASS'} ({len(failing)} unexpected failures, "
          f"{len(bad_bases)} unclean bases, {len(harness_errors)} harness errors)")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
