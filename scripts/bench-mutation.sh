#!/usr/bin/env bash
# Mutation testing of the gradual guarantee over every correct sample
# (tests/mutation/README.md): mutants of one integer literal of a
# shape-relevant call, run with plain Python; every PyTorch shape crash must
# be stopped by gshape (statically or at run time, at a line of the crash's
# traceback) and no mutant that still runs may get a false alarm. Prints the
# summary table and the list of mutants that were not stopped.
#
# usage: scripts/bench-mutation.sh BUILD_DIR [MAX_PER_BASE] [JOBS]
#   BUILD_DIR     a build folder holding cli/gshape and the runtime
#   MAX_PER_BASE  at most this many mutants per base, a deterministic random
#                 subset (default 30: 518 mutants; about 17 minutes on an
#                 idle 2-core machine, 41 on a busy one; 0 = every mutant)
#   JOBS          mutants run side by side (default: the number of cores)
# The classification of every mutant is written to BUILD_DIR/mutation.json.
set -euo pipefail

BUILD_DIR=${1:?usage: scripts/bench-mutation.sh BUILD_DIR [MAX_PER_BASE] [JOBS]}
MAX_PER_BASE=${2:-30}
JOBS=${3:-$(nproc)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GSHAPE="$BUILD_DIR/cli/gshape"
PY=/usr/bin/python3
[ -x "$GSHAPE" ] || { echo "no gshape binary at $GSHAPE (build the gshape target first)" >&2; exit 2; }

start=$(date +%s)
status=0
"$PY" "$ROOT/tests/mutation/run_mutation.py" --gshape "$GSHAPE" --max-per-base "$MAX_PER_BASE" \
  --jobs "$JOBS" --json "$BUILD_DIR/mutation.json" \
  --exceptions "$ROOT/tests/mutation/known_exceptions.txt" || status=$?
echo "wall time of the mutation run: $(( $(date +%s) - start )) s (max $MAX_PER_BASE mutants per base, $JOBS jobs)"
exit $status
