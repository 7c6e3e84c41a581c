"""Constraints that hold only in training mode: attention dropout (mha_c9)
and one value per channel in a batch-norm module (batch_norm_c3). gshape
does not follow model.train() / model.eval(), so it reads the module's mode
at run time: each is a deferred check here, never a static error. Running
this file fails at each case's last line (a new module is in training
mode)."""
import torch
import torch.nn as nn


def case_attention_dropout():
    mha = nn.MultiheadAttention(8, 2, dropout=1.5)
    q = torch.zeros(3, 2, 8)
    mha(q, q, q)  # mha_c9, deferred


def case_batch_norm_single_value():
    bn = nn.BatchNorm1d(4)
    bn(torch.zeros(1, 4))  # batch_norm_c3, deferred


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import inspect
    import sys
    import traceback

    wrong = 0
    for name, case in list(globals().items()):
        if not name.startswith("case_"):
            continue
        lines, first = inspect.getsourcelines(case)
        last = first + len(lines) - 1
        try:
            case()
            print(f"{name}: no error")
            wrong += 1
        except Exception as e:  # any PyTorch error: the check is where it happens
            at = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.name == name]
            if at != [last]:
                print(f"{name}: failed at line {at}, not {last}: {e}")
                wrong += 1
    sys.exit(1 if wrong else 0)
# expect-deferred: 2
