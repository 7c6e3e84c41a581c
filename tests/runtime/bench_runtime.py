"""Per-call cost of gshape runtime checks against hand-written Python.

Run through scripts/bench-runtime.sh BUILD_DIR (it sets PYTHONPATH). Each
figure is the minimum over --repeat runs of --number calls (timeit), in
nanoseconds per call; every statement reads its names as module globals, the
way instrumented code reads `_gs`.
"""

import argparse
import sys
import timeit

import torch

import gshape_runtime

TARGET_RATIO = 1.5


def per_call_ns(stmt, names, number, repeat):
    timer = timeit.Timer(stmt, globals=names)
    return min(timer.repeat(repeat=repeat, number=number)) / number * 1e9


def identity(value):
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=200_000, help="calls per timing run")
    parser.add_argument("--repeat", type=int, default=7, help="timing runs (the minimum is kept)")
    parser.add_argument("--enforce", action="store_true",
                        help="exit 1 when check() costs more than %.1fx the hand-written assert" % TARGET_RATIO)
    args = parser.parse_args()

    x = torch.empty(64, 784)
    a = torch.empty(64, 120)
    b = torch.empty(120, 10)
    sites = [
        [(1, 1, "bench_c1", "(== (size 0 1) 784)", "expects 784 but got {(size 0 1)}")],
        [(2, 1, "matmul_c1", "(== (size 0 -1) (size 1 -2))", "mat1 {shape 0} and mat2 {shape 1}")],
    ]
    table = gshape_runtime.CheckTable("bench.py", sites, enabled=True)
    disabled = gshape_runtime.CheckTable("bench.py", sites, enabled=False)
    names = {"x": x, "a": a, "b": b, "_gs": table, "_off": disabled, "identity": identity}

    rows = [
        ("hand-written assert x.shape[1] == 784", "assert x.shape[1] == 784"),
        ("pass-through identity(x)", "identity(x)"),
        ("_gs.check(0, 0, x)", "_gs.check(0, 0, x)"),
        ("_gs.check(0, 0, x) with GSHAPE_CHECKS=0", "_off.check(0, 0, x)"),
        ("assert a.shape[-1] == b.shape[-2]", "assert a.shape[-1] == b.shape[-2]"),
        ("_gs.stash(1, 0, a); _gs.check(1, 1, b)", "_gs.stash(1, 0, a); _gs.check(1, 1, b)"),
    ]

    try:
        from gshape_runtime import _bench_variants as variants
    except ImportError:
        variants = None
    if variants is not None:
        names["pybind_table"] = variants.PybindTable("(== (size 0 1) 784)")
        variants.set_op_constraint("(== (size 0 1) 784)")
        names["op_check"] = torch.ops.gshape_bench.check
        rows += [
            ("variant: pybind11 method, py::handle value", "pybind_table.check(0, 0, x)"),
            ("variant: pybind11 method, at::Tensor caster", "pybind_table.check_tensor(0, 0, x)"),
            ("variant: TORCH_LIBRARY op via torch.ops", "op_check(0, 0, x)"),
        ]

    figures = {}
    width = max(len(label) for label, _ in rows)
    print("runtime check cost, min of %d x %d calls, ns per call" % (args.repeat, args.number))
    for label, stmt in rows:
        figures[stmt] = per_call_ns(stmt, names, args.number, args.repeat)
        print("  %-*s %8.1f" % (width, label, figures[stmt]))
    if variants is None:
        print("  (binding variants not built: cmake --build BUILD --target gshape_runtime_bench_variants)")

    assert_ns = figures["assert x.shape[1] == 784"]
    check_ns = figures["_gs.check(0, 0, x)"]
    ratio = check_ns / assert_ns
    print("check / hand-written assert: %.2fx (target <= %.1fx)" % (ratio, TARGET_RATIO))
    print("check / identity:            %.2fx" % (check_ns / figures["identity(x)"]))
    print("disabled check / identity:   %.2fx" % (figures["_off.check(0, 0, x)"] / figures["identity(x)"]))
    two = figures["_gs.stash(1, 0, a); _gs.check(1, 1, b)"] / figures["assert a.shape[-1] == b.shape[-2]"]
    print("two-operand site / assert:   %.2fx" % two)
    if args.enforce and ratio > TARGET_RATIO:
        print("FAILED: check costs %.2fx the hand-written assert" % ratio)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
