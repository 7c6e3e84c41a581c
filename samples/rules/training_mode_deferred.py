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
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
# expect-deferred: 2
