#!/usr/bin/env bash
# Benchmark (a) of issue #4: the cost of run-time shape checks on a real
# training loop. Instruments samples/ with gshape (as is, and with
# --check-proven: every obligation checked, the worst case), then, in ONE
# Python process, imports samples/cnn_mnist.py as written and as each copy and
# times its train() for a fixed number of CPU steps, interleaving the
# variants (their order alternates) over several repetitions. Only the
# training loop is timed: not torch's import, not data or model
# construction. Prints per-step times, the overhead ratios (median over the
# repetitions of instrumented / original; target at most 1.03) and the
# checks' own cost per step, measured apart from the training's noise.
#   scripts/bench-train.sh BUILD_DIR [--steps N] [--reps R] [--batch-size B] [--threads T]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${1:?usage: scripts/bench-train.sh BUILD_DIR [--steps N] [--reps R] [--batch-size B] [--threads T]}
shift
build_abs=$(cd "$build_dir" 2>/dev/null && pwd) || { echo "bench-train: no build folder $build_dir" >&2; exit 2; }
gshape="$build_abs/cli/gshape"
runtime="$build_abs/runtime/python"
python=/usr/bin/python3
[[ -x "$gshape" ]] || { echo "bench-train: $gshape not found; build the gshape target first" >&2; exit 2; }
compgen -G "$runtime/gshape_runtime/_native*.so" >/dev/null ||
  { echo "bench-train: the runtime is not built (cmake --build $build_dir --target gshape_runtime)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Two instrumented trees: as `gshape instrument` writes it (checks for what
# the analysis could not prove), and with --check-proven (every obligation
# checked: the worst case). Exit 1 only says the bug_*.py samples hold errors.
for variant in default check-proven; do
  flags=(); [[ $variant == check-proven ]] && flags=(--check-proven)
  (cd "$root" && "$gshape" instrument samples -o "$work/$variant" --color=never "${flags[@]}" 2>"$work/$variant.log") ||
    [[ $? -eq 1 ]] || { cat "$work/$variant.log" >&2; echo "bench-train: gshape instrument failed" >&2; exit 1; }
done

echo "== bench-train: samples/cnn_mnist.py train(), original vs instrumented, one process, interleaved"
cd "$root"
PYTHONPATH="$runtime" GSHAPE_CHECKS= GSHAPE_STATS= "$python" - "$root/samples/cnn_mnist.py" \
  "$work/default/cnn_mnist.py" "$work/check-proven/cnn_mnist.py" "$@" <<'PY'
import argparse
import filecmp
import importlib.util
import statistics
import sys
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("original")
parser.add_argument("instrumented")
parser.add_argument("all_checked")
parser.add_argument("--steps", type=int, default=10)
parser.add_argument("--reps", type=int, default=7)
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--threads", type=int, default=1)
args = parser.parse_args()
torch.set_num_threads(args.threads)

import gshape_runtime  # noqa: E402
from torch.nn.modules import module as nn_module  # noqa: E402

# The module hook checks every module call of the process once
# gshape_runtime is imported: it is on while an instrumented variant trains
# and off while the original does.
gshape_runtime._module_hook.remove()


def hook_on(on):
    global hook
    if on:
        hook = nn_module.register_module_forward_pre_hook(gshape_runtime._native.module_pre_hook)
    elif hook is not None:
        hook.remove()
        hook = None


hook = None


def hook_runs():
    return sum(s["runs"] for s in gshape_runtime.stats() if s["path"] == "<module calls>")


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def checks_of(module):
    table = getattr(module, "_gshape_checks", None)
    return table.stats() if table is not None else []


variants = {"original": load("cnn_original", args.original)}
if filecmp.cmp(args.original, args.instrumented, shallow=False):
    print("instrumented: gshape proved every obligation of cnn_mnist.py, so its instrumented copy is the\n"
          "  original byte for byte (no check, no import): overhead 0 by construction; timing the worst case")
else:
    variants["instrumented"] = load("cnn_instrumented", args.instrumented)
variants["all-checked"] = load("cnn_all_checked", args.all_checked)
if not checks_of(variants["all-checked"]):
    sys.exit("bench-train: the --check-proven copy of cnn_mnist.py has no run-time checks to measure")

images = torch.randn(args.steps * args.batch_size, 1, 28, 28, generator=torch.Generator().manual_seed(1))
labels = torch.randint(0, 10, (args.steps * args.batch_size,), generator=torch.Generator().manual_seed(2))


def timed_train(module, instrumented):
    """Seconds per step of module.train() over args.steps batches (set-up untimed)."""
    hook_on(instrumented)
    torch.manual_seed(1)
    loader = DataLoader(TensorDataset(images, labels), batch_size=args.batch_size)
    model = module.Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    start = time.perf_counter()
    loss = module.train(model, loader, optimizer, args.steps)
    elapsed = time.perf_counter() - start
    hook_on(False)
    return elapsed / args.steps, loss


# Warm-up (allocator, kernels), untimed; every variant must train identically.
hook_calls = {}
losses = {}
for name, m in variants.items():
    before = hook_runs()
    losses[name] = timed_train(m, name != "original")[1]
    hook_calls[name] = (hook_runs() - before) / args.steps
if len(set(losses.values())) != 1:
    sys.exit("bench-train: the variants trained differently: %r" % losses)

per_step = {name: [] for name in variants}
order = list(variants)
for rep in range(args.reps):
    for name in (order if rep % 2 == 0 else order[::-1]):
        per_step[name].append(timed_train(variants[name], name != "original")[0])

steps_done = args.steps * (args.reps + 1)
print("config: %d steps x %d reps (+1 warm-up), batch %d, %d thread(s), torch %s, final loss %.4f" % (
    args.steps, args.reps, args.batch_size, args.threads, torch.__version__, losses["original"]))
for name in order:
    checks = checks_of(variants[name])
    runs = sum(c["runs"] for c in checks)
    times = per_step[name]
    print("%-13s %3d sites, %5.1f site checks/step, %4.1f module calls checked by the hook/step; "
          "per step: median %7.2f ms, min %7.2f ms  [%s]" % (
              name, len(checks), runs / steps_done, hook_calls.get(name, 0), 1e3 * statistics.median(times),
              1e3 * min(times), " ".join("%.1f" % (1e3 * t) for t in times)))
# The checks' own cost, measured apart from the noise of training: one
# evaluation of a typical check (a module call whose verdict is cached),
# times the evaluations per step.
table = gshape_runtime.CheckTable("bench.py", [(1, 1, None, ["callee", "arg"])])
layer = torch.nn.Linear(784, 10)
probe = torch.empty(64, 784)
calls = 200000
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    for _ in range(calls):
        table.stash(0, 0, layer)
        table.check(0, 1, probe)
    best = min(best, (time.perf_counter() - start) / calls)
base = statistics.median(per_step["original"])
spread = (max(per_step["original"]) - min(per_step["original"])) / base
print("noise: the original's own per-step times spread over %.1f%% of its median" % (100 * spread))
for name in order[1:]:
    evaluations = sum(c["runs"] for c in checks_of(variants[name])) / steps_done + hook_calls[name]
    print("estimate %-13s: %.1f evaluations/step x %.0f ns = %.2f us/step = %.4f%% of a %.1f ms step" % (
        name, evaluations, 1e9 * best, 1e6 * evaluations * best, 100 * evaluations * best / base, 1e3 * base))
# Each repetition times the variants back to back, so the ratio within a
# repetition cancels slow changes of the machine's load; its median is the figure.
for name in order[1:]:
    paired = statistics.median(i / o for i, o in zip(per_step[name], per_step["original"]))
    print("overhead %-13s / original: %.4f (%+.2f%%; ratio of medians %.4f, of minima %.4f)  target <= 1.03: %s" % (
        name, paired, 100 * (paired - 1), statistics.median(per_step[name]) / base,
        min(per_step[name]) / min(per_step["original"]), "met" if paired <= 1.03 else "NOT met"))
PY
