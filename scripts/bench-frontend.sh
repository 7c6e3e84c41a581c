#!/usr/bin/env bash
# `make bench`: front-end speed. Generates a tree of at least 60,000 lines of
# PyTorch-style Python in a temporary directory and times load + parse + IR
# (+ import graph) over it, on one thread and on the default thread count
# (GSHAPE_THREADS, else the cores); prints
#   frontend, 1 thread:  N files, L lines, T s, X lines/s
#   frontend, K threads: N files, L lines, T s, X lines/s (S x one thread)
#   scripts/bench-frontend.sh BUILD_DIR [--lines N] [--runs R] [--keep DIR]
set -euo pipefail

build_dir=${1:?usage: scripts/bench-frontend.sh BUILD_DIR [--lines N] [--runs R] [--keep DIR]}
shift
bench="$build_dir/tests/bench/gshape_bench_frontend"
if [[ ! -x "$bench" ]]; then
  echo "bench-frontend: $bench not found; build with tests enabled first (make build)" >&2
  exit 2
fi
echo "== bench-frontend: load + parse + IR over generated PyTorch-style code (best of --runs runs, default 3; one thread, then $(nproc) or GSHAPE_THREADS)"
"$bench" "$@"
