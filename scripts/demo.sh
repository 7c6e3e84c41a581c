#!/usr/bin/env bash
# `make demo`: the three workflows of gshape on samples/, checking that each
# behaves as expected:
#   1. install the runtime for /usr/bin/python3 (scripts/install-runtime.sh)
#   2. gshape check samples/            static errors (the bug_*.py samples: exit 1)
#   3. gshape instrument samples -o OUT  the instrumented copy
#   4. /usr/bin/python3 OUT/iris_training.py   an instrumented training run, to completion
#   5. gshape run samples/bug_last_batch.py, then bug_flatten_in_features.py:
#      stop with ShapeCheckError at the sample's line
#   6. gshape report --summary samples/*.py   the review table (with the counters of step 5)
# Exits 0 when everything behaved as expected, 1 otherwise (2: not built).
#   scripts/demo.sh BUILD_DIR
# GSHAPE_DEMO_NO_INSTALL=1 (ctest samples.make_demo): skip step 1 and use
# the build's runtime through PYTHONPATH.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:-build}
build_abs=$(cd "$build_dir" 2>/dev/null && pwd) || { echo "demo: no build folder $build_dir; build first (make build)" >&2; exit 2; }
gshape="$build_abs/cli/gshape"
python=/usr/bin/python3
if [[ ! -x "$gshape" ]]; then
  echo "demo: $build_dir/cli/gshape not found; build first (make build)" >&2
  exit 2
fi
out="$build_abs/demo/instrumented"
cache="$build_abs/demo/run-cache"
stats="$build_abs/demo/run-stats.json"
log="$build_abs/demo/log"
mkdir -p "$build_abs/demo" "$log"
failures=0
step() { printf '\n== demo: %s\n' "$*"; }
ok() { echo "== demo: ok: $*"; }
bad() { echo "== demo: UNEXPECTED: $*" >&2; failures=$((failures + 1)); }

cd "$root"  # so gshape names files samples/… rather than absolute paths

if [[ -n "${GSHAPE_DEMO_NO_INSTALL:-}" ]]; then
  # ctest's run of the demo: the runtime from this build, the user's Python untouched
  export PYTHONPATH="$build_abs/runtime/python${PYTHONPATH:+:$PYTHONPATH}"
else
  step "install the runtime for $python"
  bash scripts/install-runtime.sh "$build_abs" "$python" || bad "install-runtime.sh failed"
fi

step "gshape check samples/  ($("$gshape" --version))"
"$gshape" check samples/
status=$?
case $status in
  1) ok "gshape exited 1: it found errors (the bug_*.py samples are buggy on purpose)" ;;
  0) bad "gshape check found no error in samples/, whose bug_*.py samples hold some" ;;
  *) bad "gshape check exited $status (2 = usage or I/O error, >128 = crash)" ;;
esac

step "gshape instrument samples -o $out"
rm -rf "$out"
"$gshape" instrument samples -o "$out" 2>"$log/instrument.txt"
status=$?
grep -v '^ \|^samples/' "$log/instrument.txt"  # the summary lines (check printed the diagnostics above)
if [[ $status -eq 1 && -f "$out/gshape-report.json" && -f "$out/cnn_mnist.py" ]]; then
  ok "instrumented copy and gshape-report.json written (exit 1: the static errors' checks are in it)"
else
  bad "gshape instrument exited $status; see $log/instrument.txt"
fi

# iris_training.py trains on data decoded from JSON at run time, so its
# copy holds run-time checks (the analysis proves every obligation of the
# other training samples, whose copies are the originals byte for byte);
# the run's counters show the checks ran at every step and passed.
train_stats="$build_abs/demo/train-stats.json"
step "$python $out/iris_training.py   (an instrumented training run)"
rm -f "$train_stats"
GSHAPE_STATS="$train_stats" "$python" "$out/iris_training.py" | tee "$log/iris_training.txt"
status=${PIPESTATUS[0]}
counters=$("$python" -c 'import json, sys
checks = json.load(open(sys.argv[1]))["sites"]
print(len(checks), sum(c["runs"] for c in checks), sum(c["failures"] for c in checks))' "$train_stats" 2>/dev/null)
read -r checks runs failed <<<"${counters:-0 0 0}"
if [[ $status -eq 0 ]] && grep -q '^iris loss [0-9.]*$' "$log/iris_training.txt" && [[ $runs -gt 0 && $failed -eq 0 ]]; then
  ok "trained to completion; its $checks run-time checks ran $runs times, none failed"
else
  bad "the instrumented iris_training.py exited $status (checks: ${counters:-no stats file})"
fi

# A buggy script run through `gshape run` must stop with ShapeCheckError at
# the line its expect comment names, before PyTorch's own error.
run_bug() {
  local sample=$1 tag=$2 line
  line=$(awk -v tag="$tag" '/# expect-(error|warning)@\+1: / && $0 ~ tag { print NR + 1; exit }' "samples/$sample")
  step "gshape run samples/$sample   (expected: ShapeCheckError [$tag] at line $line)"
  GSHAPE_STATS="$stats" "$gshape" run --cache-dir "$cache" "samples/$sample" 2>&1 | tee "$log/$sample.txt" | tail -n 4
  local status=${PIPESTATUS[0]}
  local last
  last=$(tail -n 1 "$log/$sample.txt")
  if [[ $status -eq 1 && $last == *"ShapeCheckError: samples/$sample:$line:"*"[$tag]"* ]]; then
    ok "stopped with ShapeCheckError at samples/$sample:$line"
    return 0
  fi
  echo "== demo: (exit $status; last line: $last)" >&2
  return 1
}
# bug_last_batch.py is the classic (it fails on the last, partial batch
# only); bug_flatten_in_features.py fails on its first batch. Either one
# stopped by its check shows the mechanism; the differential tests require both.
stopped=0
if run_bug bug_last_batch.py broadcast_c1; then
  stopped=1
else
  echo "== demo: note: bug_last_batch.py was not stopped by a check (see tests/differential/)"
fi
if run_bug bug_flatten_in_features.py linear_c1; then
  stopped=1
else
  bad "bug_flatten_in_features.py did not stop with ShapeCheckError at its line"
fi
[[ $stopped -eq 1 ]] || bad "no buggy script stopped with ShapeCheckError"

# The sample programs (samples/rules/ holds one-rule snippets, not programs).
step "gshape report --summary --stats $stats samples/*.py   (the review summary)"
"$gshape" report --summary --stats "$stats" samples/*.py
status=$?
if [[ $status -eq 1 ]]; then
  ok "report printed (exit 1: refuted obligations, and the checks that failed in the run)"
else
  bad "gshape report exited $status"
fi

echo
if [[ $failures -eq 0 ]]; then
  echo "== demo: everything behaved as expected"
  exit 0
fi
echo "== demo: FAILED: $failures unexpected result(s)" >&2
exit 1
