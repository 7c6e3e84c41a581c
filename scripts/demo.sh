#!/usr/bin/env bash
# `make demo`: runs `gshape check samples/`. The bug_*.py samples hold
# deliberate shape errors, so gshape exiting 1 (errors found) is the expected
# outcome; exit 2 (usage or I/O error) or a crash fails the demo.
#   scripts/demo.sh BUILD_DIR
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:-build}
gshape="$(cd "$build_dir" 2>/dev/null && pwd)/cli/gshape"
if [[ ! -x "$gshape" ]]; then
  echo "demo: $build_dir/cli/gshape not found; build first (make build)" >&2
  exit 2
fi

cd "$root"  # so diagnostics name samples/… rather than absolute paths
echo "== demo: gshape check samples/  ($("$gshape" --version))"
"$gshape" check samples/
status=$?
case $status in
  0) echo "== demo: gshape exited 0 (no errors found)" ;;
  1) echo "== demo: gshape exited 1 (it found errors: the bug_*.py samples are buggy on purpose)" ;;
  *)
    echo "== demo: FAILED: gshape exited with status $status (2 = usage or I/O error, >128 = crash)" >&2
    exit 1
    ;;
esac
exit 0
