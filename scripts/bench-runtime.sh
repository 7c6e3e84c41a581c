#!/usr/bin/env bash
# Per-call cost of run-time checks (a module call site, an operator site, a
# tensor method site, the module hook) versus a hand-written assert and a
# pass-through function.   scripts/bench-runtime.sh [BUILD_DIR] [-- bench_runtime.py options]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
shift || true
[[ "${1:-}" == "--" ]] && shift
python=$(sed -n 's/^GSHAPE_PYTHON:FILEPATH=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
python=${python:-/usr/bin/python3}

cmake --build "$build" -j "$(nproc)" --target gshape_runtime >/dev/null
PYTHONPATH="$build/runtime/python" GSHAPE_CHECKS= "$python" "$root/tests/runtime/bench_runtime.py" "$@"
