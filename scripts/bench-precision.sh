#!/usr/bin/env bash
# Precision on real code (issue 9): per project, how many tensor expressions
# have a shape gshape could not tell (`[*]`), how many obligations are left to
# run time and why, and which ops and callees cost the most precision.
#
# usage: scripts/bench-precision.sh [BUILD_DIR [DIR...]]
#   BUILD_DIR   a build folder holding cli/gshape (default: build)
#   DIR         a project folder (fetched for measurement; never committed).
#               Without DIR: every folder of $GSHAPE_PROJECTS (default
#               /work/projects), if it exists; none: a note, exit 0.
# Prints one table row per project, a total, the deferred obligations of
# called code by where their unknown comes from (the JSON's "origin"), then
# per project the deferred obligations by reason and the top ops without a
# rule and unresolved callees.
# environment:
#   GSHAPE_PRECISION_LIST  an origin ("not traced", "no rule" ...): list the
#                          deferred obligations of called code that have it
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
[ $# -gt 0 ] && shift
GSHAPE="$BUILD/cli/gshape"
[ -x "$GSHAPE" ] || { echo "no gshape binary at $GSHAPE (build the gshape target first)" >&2; exit 2; }
if [ $# -eq 0 ]; then
  PROJECTS=${GSHAPE_PROJECTS:-/work/projects}
  if [ ! -d "$PROJECTS" ] || [ -z "$(ls -A "$PROJECTS")" ]; then
    echo "bench-precision: no projects in $PROJECTS (fetch some into it; see scripts/README.md)"
    exit 0
  fi
  set -- "$PROJECTS"/*/
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
i=0
for dir in "$@"; do
  dir=${dir%/}
  i=$((i + 1))
  "$GSHAPE" check --show-shapes "$dir" > "$TMP/$i.shapes" 2>/dev/null || true
  "$GSHAPE" check --format=json "$dir" > "$TMP/$i.json" 2>/dev/null || true
  echo "$dir" > "$TMP/$i.name"
done

/usr/bin/python3 - "$TMP" "$i" <<'PY'
import collections, json, os, re, sys

tmp, count = sys.argv[1], int(sys.argv[2])

def reason_class(reason):
    """Why a deferred obligation was not decided, in four classes."""
    if reason.startswith("the solver could not decide"):
        return "solver gave up"
    if ".dim()" in reason or "rank" in reason:
        return "rank unknown"
    if re.search(r"\.size\(|\.numel\(\)|\bshape\[|\bsize\[|len\(", reason):
        return "axis unknown"
    if "unknown" in reason or "cannot know" in reason:
        return "hyperparameter unknown"
    return "other"

def origin_class(o):
    """Where the unknown in a deferred obligation of called code comes from,
    as the analysis traced it (the JSON's "origin"): data read when the
    program runs, or a limit of the analysis (an op without a rule, a callee
    not resolved, layers not listed, an earlier error, the solver)."""
    if o.get("origin"):
        return o["origin"]
    return "not traced"

list_origin = os.environ.get("GSHAPE_PRECISION_LIST", "")  # e.g. "not traced": list those obligations
listed = []
rows, details = [], []
total = collections.Counter()
total_origins = collections.Counter()
for k in range(1, count + 1):
    name = os.path.basename(open(os.path.join(tmp, "%d.name" % k)).read().strip())
    exprs = unknown = 0
    for line in open(os.path.join(tmp, "%d.shapes" % k), errors="replace"):
        if " : " not in line:
            continue
        exprs += 1
        shapes = line.rstrip("\n").rsplit(" : ", 1)[1].split(" | ")
        unknown += all(s.strip() == "[*]" for s in shapes)
    try:
        doc = json.load(open(os.path.join(tmp, "%d.json" % k)))
    except ValueError:
        rows.append((name, exprs, unknown, 0, 0, 0, 0, 0))
        continue
    s = doc["summary"]
    deferred_obs = [o for o in doc["obligations"] if o["status"] == "deferred"]
    reasons = collections.Counter(reason_class(o.get("reason", "")) for o in deferred_obs)
    called_reasons = collections.Counter(reason_class(o.get("reason", "")) for o in deferred_obs
                                         if not o.get("uncalled_only"))
    # deferred in code the project itself runs (not only in functions nobody calls)
    called = sum(1 for o in deferred_obs if not o.get("uncalled_only"))
    origins = collections.Counter(origin_class(o) for o in deferred_obs if not o.get("uncalled_only"))
    if list_origin:
        for o in deferred_obs:
            if not o.get("uncalled_only") and origin_class(o) == list_origin:
                listed.append("%s:%s: %s: %s" % (o["file"], o["line"], o["tag"], o.get("reason", "")[:220]))
    for k2, v2 in origins.items():
        total_origins[k2] += v2
    cov = doc.get("coverage", {})
    rows.append((name, exprs, unknown, s["obligations"], s["deferred"], called, s["refuted"], s["files"]))
    for key, v in (("exprs", exprs), ("unknown", unknown), ("obligations", s["obligations"]),
                   ("deferred", s["deferred"]), ("called", called), ("errors", s["refuted"]), ("files", s["files"])):
        total[key] += v
    no_rule = sorted(cov.get("no_rule", {}).items(), key=lambda kv: (-kv[1], kv[0]))[:8]
    callees = sorted(cov.get("unresolved_callees", {}).items(), key=lambda kv: (-kv[1], kv[0]))[:8]
    details.append((name, reasons, called_reasons, no_rule, callees, origins))

def pct(a, b):
    return "%5.1f%%" % (100.0 * a / b) if b else "    -"

print("%-22s %6s %8s %7s %12s %9s %9s %7s" % ("project", "files", "tensors", "[*]", "obligations", "deferred", "(called)", "errors"))
for name, exprs, unknown, obs, deferred, called, errors, files in rows:
    print("%-22s %6d %8d %7s %12d %9s %9s %7d" % (name[:22], files, exprs, pct(unknown, exprs), obs, pct(deferred, obs),
                                              pct(called, obs), errors))
print("%-22s %6d %8d %7s %12d %9s %9s %7d" % ("total", total["files"], total["exprs"], pct(total["unknown"], total["exprs"]),
                                           total["obligations"], pct(total["deferred"], total["obligations"]),
                                           pct(total["called"], total["obligations"]), total["errors"]))
print("(called): deferred outside the functions nobody in the project calls, whose inputs come from outside it")
print("deferred in called code, by where the unknown comes from: " +
      ", ".join("%s %d" % kv for kv in total_origins.most_common()))
if listed:
    print("\ndeferred in called code whose origin is %s:" % list_origin)
    for line in listed:
        print("  " + line)
for name, reasons, called_reasons, no_rule, callees, origins in details:
    print("\n%s" % name)
    print("  deferred by reason: " + (", ".join("%s %d" % kv for kv in reasons.most_common()) or "none"))
    print("    of which in called code: " + (", ".join("%s %d" % kv for kv in called_reasons.most_common()) or "none"))
    print("    in called code, by origin: " + (", ".join("%s %d" % kv for kv in origins.most_common()) or "none"))
    print("  ops without a rule: " + (", ".join("%s (%d)" % kv for kv in no_rule) or "none"))
    print("  callees not resolved: " + (", ".join("%s (%d)" % kv for kv in callees) or "none"))
PY
