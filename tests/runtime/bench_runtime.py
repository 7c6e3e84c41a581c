"""Per-call cost of gshape's run-time checks against hand-written Python.

Run through scripts/bench-runtime.sh BUILD_DIR (it sets PYTHONPATH). Each
figure is the minimum over --repeat runs of --number calls (timeit), in
nanoseconds per call; every statement reads its names as module globals, the
way instrumented code reads `_gs`. A site's check runs the operator's rule
once per distinct operand summary and answers from its verdict cache after:
the figures are that cached path, the one a training loop takes.
"""

import argparse
import sys
import timeit

import torch
import torch.nn as nn
from torch.nn.modules import module as nn_module

import gshape_runtime


def per_call_ns(stmt, names, number, repeat):
    timer = timeit.Timer(stmt, globals=names)
    return min(timer.repeat(repeat=repeat, number=number)) / number * 1e9


def identity(value):
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=200_000, help="calls per timing run")
    parser.add_argument("--repeat", type=int, default=7, help="timing runs (the minimum is kept)")
    args = parser.parse_args()

    x = torch.empty(64, 784)
    a = torch.empty(64, 120)
    b = torch.empty(120, 10)
    fc = nn.Linear(784, 10)
    conv = nn.Conv2d(3, 16, 3, padding=1)
    img = torch.empty(8, 3, 32, 32)
    sites = [
        (1, 1, None, ["callee", "arg"]),                # fc(x), conv(img)
        (2, 1, "operator.matmul", ["arg", "arg"]),      # a @ b
        (3, 1, None, ["callee", "arg", "arg"]),         # x.view(64, -1)
    ]
    table = gshape_runtime.CheckTable("bench.py", sites, enabled=True)
    disabled = gshape_runtime.CheckTable("bench.py", sites, enabled=False)
    names = {"x": x, "a": a, "b": b, "fc": fc, "conv": conv, "img": img, "_gs": table, "_off": disabled,
             "identity": identity}

    rows = [
        ("hand-written assert x.shape[1] == 784", "assert x.shape[1] == 784"),
        ("pass-through identity(x)", "identity(x)"),
        ("nn.Linear call site: stash(fc); check(x)", "_gs.stash(0, 0, fc); _gs.check(0, 1, x)"),
        ("nn.Conv2d call site: stash(conv); check(img)", "_gs.stash(0, 0, conv); _gs.check(0, 1, img)"),
        ("the same with GSHAPE_CHECKS=0", "_off.stash(0, 0, fc); _off.check(0, 1, x)"),
        ("assert a.shape[-1] == b.shape[-2]", "assert a.shape[-1] == b.shape[-2]"),
        ("a @ b site: stash(a); check(b)", "_gs.stash(1, 0, a); _gs.check(1, 1, b)"),
        ("x.view(64, -1) site", "_gs.stash(2, 0, x.view); _gs.stash(2, 1, 64); _gs.check(2, 2, -1)"),
        ("x.view alone (the bound method)", "x.view"),
    ]
    figures = {}
    width = max(len(label) for label, _ in rows)
    print("runtime check cost, min of %d x %d calls, ns per call" % (args.repeat, args.number))
    for label, stmt in rows:
        figures[label] = per_call_ns(stmt, names, args.number, args.repeat)
        print("  %-*s %8.1f" % (width, label, figures[label]))

    # The module hook: every nn.Module call pays it once gshape_runtime is
    # imported (a call a site just checked pays only a pointer comparison).
    module_calls = max(args.number // 20, 1000)
    with_hook = per_call_ns("fc(x)", names, module_calls, args.repeat)
    gshape_runtime._module_hook.remove()
    without_hook = per_call_ns("fc(x)", names, module_calls, args.repeat)
    nn_module.register_module_forward_pre_hook(gshape_runtime._native.module_pre_hook)
    print("  %-*s %8.1f" % (width, "fc(x) with the module hook", with_hook))
    print("  %-*s %8.1f" % (width, "fc(x) without it", without_hook))
    print("module call site / hand-written assert: %.2fx" % (
        figures["nn.Linear call site: stash(fc); check(x)"] / figures["hand-written assert x.shape[1] == 784"]))
    print("two-operand site / assert:              %.2fx" % (
        figures["a @ b site: stash(a); check(b)"] / figures["assert a.shape[-1] == b.shape[-2]"]))
    print("module hook per module call:            %+.0f ns (%.1f%% of the call)" % (
        with_hook - without_hook, 100 * (with_hook - without_hook) / without_hook))
    return 0


if __name__ == "__main__":
    sys.exit(main())
