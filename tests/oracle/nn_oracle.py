#!/usr/bin/env python3
"""The PyTorch side of the nn oracle (tests/oracle/nn_oracle_test.cpp).

Reads cases, one per line: TARGET <tab> INIT <tab> CALL, where TARGET is a
module class (`nn.Conv2d`) or a function (`F.conv2d`), and INIT / CALL are
Python argument lists written with T(2, 3) (a float tensor of zeros),
LT(2, 3) (an int64 tensor of zeros), BT(2, 3) (a bool tensor). A module case
constructs TARGET(INIT) and calls it on CALL (in training mode, the default);
a function case calls TARGET(CALL). Writes one line per case: `ok` and the
JSON list of result shapes (nested results flattened in order, None as null),
or `err` and the exception's first line.

The modules' own Python code runs (constructor checks, RNN hidden-state
checks, F.multi_head_attention_forward, F.interpolate), then libtorch's ops.

With GSHAPE_RUNTIME_ORACLE_OUT=FILE (and gshape_runtime importable), the run
also checks the run-time check of gshape (the same rule, run by the runtime
on the real module object's attributes and the actual arguments) against
PyTorch on every case, and writes one line per case to FILE: `agree`, or
`disagree: ...` when the check raises where PyTorch does not, passes where
PyTorch raises, or cannot decide a case PyTorch accepts.
"""
import json
import os
import re
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F


def T(*shape):
    return torch.zeros(shape)


def LT(*shape):
    return torch.zeros(shape, dtype=torch.long)


def BT(*shape):
    return torch.zeros(shape, dtype=torch.bool)


def flatten(result, out):
    if isinstance(result, torch.Tensor):
        out.append(list(result.shape))
    elif result is None:
        out.append(None)
    elif isinstance(result, (tuple, list)):
        for item in result:
            flatten(item, out)
    else:
        raise TypeError("unexpected result type " + type(result).__name__)


def run(line):
    target, init, call = line.rstrip("\n").split("\t")
    scope = {"nn": nn, "F": F, "T": T, "LT": LT, "BT": BT, "torch": torch}
    try:
        if target.startswith("nn."):
            module = eval(f"{target}({init})", scope)
            scope["module"] = module
            result = eval(f"module({call})", scope)
        else:
            result = eval(f"{target}({call})", scope)
        shapes = []
        flatten(result, shapes)
        return "ok " + json.dumps(shapes)
    except Exception as e:  # every failure is an outcome, whatever its class
        text = (str(e).strip().splitlines() or [""])[0]
        return "err " + type(e).__name__ + ": " + text


def _arguments(*args, **kwargs):
    return args, kwargs


def runtime_check(runtime, callee, args, kwargs):
    """Runs gshape's run-time check of `callee(*args, **kwargs)`: ('failed',
    its message), ('passed', None), or ('skipped', None) (the rule could not
    decide, or found none)."""
    kinds = ["callee"] + ["arg"] * len(args) + [k + "=" for k in kwargs]
    table = runtime.CheckTable("<oracle>", [(1, 1, None, kinds)], enabled=True)
    try:
        table.check_values(0, callee, *args, *kwargs.values())
    except runtime.ShapeCheckError as error:  # every requirement that failed, not only the first
        return "failed", " ".join((str(error),) + tuple(error.also_failed))
    stats = table.stats()[0]
    return ("skipped" if stats["skipped"] or stats["no_rule"] else "passed"), None


def sizes_missing(torch_message, message):
    """The sizes PyTorch's error names that gshape's message does not.
    Numbers below 2 are flags more than sizes, negative ones and those after
    "dimension" are axis indices; a rank counts as named when gshape prints a shape of that rank."""
    number = r"(?<![\w.])-?\d+(?![\w.])"
    if "Dimension out of range" in torch_message:
        return []  # its numbers are axis indices, not sizes
    torch_message = re.sub(r"dimension \d+", "", torch_message)  # an axis index, too
    theirs = {int(n) for n in re.findall(number, torch_message)}
    ours = {int(n) for n in re.findall(number, message)}
    for listed in re.findall(r"[\[(]([-\d, ]*)[\])]", message):
        ours.add(len([item for item in listed.split(",") if item.strip()]))
    return sorted(n for n in theirs if n >= 2 and n not in ours)


def runtime_verdict(runtime, line):
    target, init, call = line.rstrip("\n").split("\t")
    scope = {"nn": nn, "F": F, "T": T, "LT": LT, "BT": BT, "torch": torch, "_arguments": _arguments}
    steps = []
    try:
        if target.startswith("nn."):
            steps.append(("construction", eval(target, scope), eval(f"_arguments({init})", scope)))
        else:
            steps.append(("call", eval(target, scope), eval(f"_arguments({call})", scope)))
    except Exception:  # noqa: BLE001 - the arguments themselves cannot be built: no call to check
        return "agree"
    for i, (what, callee, (args, kwargs)) in enumerate(steps):
        verdict, message = runtime_check(runtime, callee, args, kwargs)
        try:
            result = callee(*args, **kwargs)
            error = None
        except Exception as e:  # noqa: BLE001 - every failure is an outcome
            error = type(e).__name__ + ": " + (str(e).strip().splitlines() or [""])[0]
        if error and verdict != "failed":
            return "disagree: %s %s, PyTorch raises %s" % (what, verdict, error)
        if not error and verdict == "failed":
            return "disagree: %s fails the check, PyTorch accepts it" % what
        if not error and verdict == "skipped":
            return "disagree: %s skipped by the check, PyTorch accepts it" % what
        if error:
            missing = sizes_missing(error, message)
            if missing:  # the sizes a user reads should be the ones PyTorch names
                return "agree; sizes %s missing: PyTorch: %s | gshape: %s" % (missing, error, message)
            return "agree"
        if what == "construction":  # then the forward, on the module PyTorch built
            try:
                steps.append(("forward", result, eval(f"_arguments({call})", scope)))
            except Exception:  # noqa: BLE001
                return "agree"
    return "agree"


def main():
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    runtime_out = os.environ.get("GSHAPE_RUNTIME_ORACLE_OUT")
    runtime = None
    if runtime_out:
        import gshape_runtime as runtime
        runtime._module_hook.remove()  # PyTorch's own outcome is the reference
    with open(sys.argv[1], encoding="utf-8") as cases, open(sys.argv[2], "w", encoding="utf-8") as out:
        lines = cases.readlines()
        for line in lines:
            out.write(run(line).replace("\n", " ") + "\n")
    if runtime:
        with open(runtime_out, "w", encoding="utf-8") as out:
            for line in lines:
                try:
                    verdict = runtime_verdict(runtime, line)
                except Exception as e:  # noqa: BLE001
                    verdict = "disagree: the oracle itself failed: %s: %s" % (type(e).__name__, e)
                out.write(verdict.replace("\n", " ") + "\n")


if __name__ == "__main__":
    main()
