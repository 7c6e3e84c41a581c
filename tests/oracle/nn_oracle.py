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
"""
import json
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


def main():
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    with open(sys.argv[1], encoding="utf-8") as cases, open(sys.argv[2], "w", encoding="utf-8") as out:
        for line in cases:
            out.write(run(line).replace("\n", " ") + "\n")


if __name__ == "__main__":
    main()
