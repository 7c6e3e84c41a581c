"""help: lines: each case fails at its last line for one of the classic
causes, and gshape's error there carries the help that names the fix
(its expect-help comment names the id). The near misses, errors that must get no help, are
in help_near_bad.py. Running this file fails at each case's last line."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_lstm_input_batch_first():
    lstm = nn.LSTM(16, 32)  # batch_first=False: input (seq, batch, feature)
    x = torch.randn(4, 10, 16)  # (batch, seq, feature)
    h0 = torch.zeros(1, 4, 32)
    c0 = torch.zeros(1, 4, 32)
    # expect-error@+2: lstm_c4  expect-help@+2: batch_first
    # expect-error@+1: lstm_c5  expect-help@+1: batch_first
    lstm(x, (h0, c0))


def case_attention_batch_first():
    attention = nn.MultiheadAttention(32, 4)  # batch_first=False: (seq, batch, embed)
    x = torch.randn(2, 10, 32)  # (batch, seq, embed)
    padding = torch.zeros(2, 10, dtype=torch.bool)  # (batch, seq)
    attention(x, x, x, key_padding_mask=padding)  # expect-error: mha_c8  expect-help: batch_first


def case_reduction_without_keepdim():
    x = torch.randn(4, 8, 16)
    mean = x.mean(dim=1)  # [4, 16]
    x - mean  # expect-error: broadcast_c1  expect-help: keepdim


def case_reduction_result_one_axis_short():
    x = torch.randn(4, 8, 16)
    total = x.sum(dim=2)  # [4, 8]: keepdim would give [4, 8, 1], which does not fit
    y = torch.randn(4, 16, 8)
    y - total  # expect-error: broadcast_c1  expect-help: unsqueeze


def case_cat_along_the_wrong_axis():
    a = torch.randn(4, 3)
    b = torch.randn(4, 5)
    torch.cat([a, b])  # expect-error: cat_c5  expect-help: cat_dim


def case_matmul_transposed_weight():
    x = torch.randn(4, 80)
    w = torch.randn(10, 80)
    x @ w  # expect-error: matmul_c2  expect-help: transposed_weight


def case_linear_transposed_weight():
    x = torch.randn(4, 80)
    w = torch.randn(80, 10)
    F.linear(x, w)  # expect-error: linear_c1  expect-help: transposed_weight


def case_mask_one_axis_short():
    scores = torch.randn(2, 4, 6, 6)  # (batch, heads, query, key)
    mask = torch.ones(2, 6, 6, dtype=torch.bool)  # (batch, query, key)
    scores.masked_fill(mask, 0.0)  # expect-error: masked_fill_c1  expect-help: unsqueeze


def case_view_after_transpose():
    x = torch.randn(2, 3, 4)
    x.transpose(1, 2).view(2, 12)  # expect-error: view_c6  expect-help: contiguous


def case_view_of_a_transpose():
    x = torch.zeros(3, 4)
    x.t().view(12)  # expect-error: view_c6  expect-help: contiguous


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
