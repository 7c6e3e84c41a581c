"""nn.MultiheadAttention, each constraint violated once."""
import torch
import torch.nn as nn


def case_heads_divide():
    # expect-error@+1: nn_mha_c1
    nn.MultiheadAttention(10, 3)


def case_embed_positive():
    # expect-error@+1: nn_mha_c2
    nn.MultiheadAttention(0, 1)


def case_kdim():
    # expect-error@+1: nn_mha_c3
    nn.MultiheadAttention(8, 2, kdim=-1)


def case_query_rank():
    mha = nn.MultiheadAttention(8, 2)
    x = torch.zeros(1, 3, 2, 8)
    # expect-error@+1: mha_c1
    mha(x, x, x)


def case_key_rank():
    mha = nn.MultiheadAttention(8, 2)
    q = torch.zeros(3, 2, 8)
    # expect-error@+1: mha_c2
    mha(q, torch.zeros(5, 8), torch.zeros(5, 8))


def case_embed_dim():
    mha = nn.MultiheadAttention(8, 2)
    kv = torch.zeros(5, 2, 8)
    # expect-error@+1: mha_c3
    mha(torch.zeros(3, 2, 6), kv, kv)


def case_key_value():
    mha = nn.MultiheadAttention(8, 2)
    q = torch.zeros(3, 2, 8)
    # expect-error@+1: mha_c4
    mha(q, torch.zeros(5, 2, 8), torch.zeros(4, 2, 8))


def case_kdim_mismatch():
    mha = nn.MultiheadAttention(8, 2, kdim=6, vdim=6)
    q = torch.zeros(3, 2, 8)
    # expect-error@+1: mha_c5
    mha(q, torch.zeros(5, 2, 8), torch.zeros(5, 2, 6))


def case_batch():
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    # expect-error@+1: mha_c6
    mha(torch.zeros(2, 3, 8), torch.zeros(4, 5, 8), torch.zeros(4, 5, 8))


def case_negative_heads():
    mha = nn.MultiheadAttention(8, -2)
    q = torch.zeros(3, 2, 8)
    # expect-error@+1: mha_c7
    mha(q, q, q)


def case_mask():
    mha = nn.MultiheadAttention(8, 2)
    q = torch.zeros(3, 2, 8)
    # expect-error@+1: mha_c8
    mha(q, q, q, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))


# mha_c9 (dropout > 1 fails only in training mode) is a run-time check: see
# training_mode_deferred.py

if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
