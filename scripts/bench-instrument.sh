#!/usr/bin/env bash
# Instrumentation speed (benchmark (c) of issue #4). Generates a project of at
# least 20,000 lines of PyTorch-style Python in a temporary directory, plans a
# check at every call, operator, subscript and augmented assignment (far denser
# than real analysis output), and times parsing, rewriting and writing the
# instrumented tree; prints lines/s for each step (best of --runs, default 3).
#   scripts/bench-instrument.sh BUILD_DIR [--lines N] [--runs R] [--keep DIR]
set -euo pipefail

build_dir=${1:?usage: scripts/bench-instrument.sh BUILD_DIR [--lines N] [--runs R] [--keep DIR]}
shift
bench="$build_dir/tests/codegen/gshape_bench_instrument"
if [[ ! -x "$bench" ]]; then
  echo "bench-instrument: $bench not found; build it first (cmake --build $build_dir --target gshape_bench_instrument)" >&2
  exit 2
fi
echo "== bench-instrument: parse + plan + rewrite + write a generated project (one thread)"
"$bench" "$@"
