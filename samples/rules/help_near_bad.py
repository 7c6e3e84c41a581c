"""Near misses of help_bad.py: each case fails at its last line with the
same constraint as a case there, but the fix a help would suggest does not
fix it, so gshape gives the error and no help (the sample runner fails on a
help no `# expect-help` asks for). Running this file fails at each case's
last line."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_lstm_hidden_fits_no_layout():
    lstm = nn.LSTM(16, 32)
    x = torch.randn(4, 10, 16)
    h0 = torch.zeros(1, 3, 32)  # neither 4 nor 10
    c0 = torch.zeros(1, 3, 32)
    # expect-error@+2: lstm_c4
    # expect-error@+1: lstm_c5
    lstm(x, (h0, c0))


def case_lstm_wrong_input_size():
    lstm = nn.LSTM(16, 32, batch_first=True)
    x = torch.randn(4, 10, 20)
    lstm(x)  # expect-error: lstm_c2


def case_attention_padding_fits_no_layout():
    attention = nn.MultiheadAttention(32, 4)
    x = torch.randn(2, 10, 32)
    padding = torch.zeros(3, 10, dtype=torch.bool)
    attention(x, x, x, key_padding_mask=padding)  # expect-error: mha_c8


def case_same_rank_no_keepdim_help():
    x = torch.randn(4, 8, 16)
    mean = x.mean(dim=1, keepdim=True)  # [4, 1, 16]
    x.transpose(1, 2) - mean  # expect-error: broadcast_c1


def case_reduction_fits_nowhere():
    x = torch.randn(4, 8, 16)
    total = x.sum(dim=2)  # [4, 8]: with an axis of size 1 anywhere, still not against [3, 16, 8]
    y = torch.randn(3, 16, 8)
    y - total  # expect-error: broadcast_c1


def case_cat_no_axis_fits():
    a = torch.randn(4, 3)
    b = torch.randn(5, 6)
    torch.cat([a, b])  # expect-error: cat_c5


def case_matmul_sizes_differ():
    x = torch.randn(4, 80)
    w = torch.randn(10, 81)
    x @ w  # expect-error: matmul_c2


def case_linear_sizes_differ():
    x = torch.randn(4, 80)
    w = torch.randn(81, 10)
    F.linear(x, w)  # expect-error: linear_c1


def case_mask_batch_differs():
    scores = torch.randn(2, 4, 6, 6)
    mask = torch.ones(3, 6, 6, dtype=torch.bool)
    scores.masked_fill(mask, 0.0)  # expect-error: masked_fill_c1


def case_view_after_transpose_wrong_size():
    x = torch.randn(2, 3, 4)
    x.transpose(1, 2).view(2, 13)  # expect-error: view_c5


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
