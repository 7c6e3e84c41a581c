"""Small modules, each constraint violated once."""
import json

import torch
import torch.nn as nn
import torch.nn.functional as F


def case_hardtanh():
    # expect-error@+1: nn_hardtanh_c1
    nn.Hardtanh(1.0, -1.0)


def case_dropout():
    # expect-error@+1: nn_dropout_c1
    nn.Dropout(1.5)


def case_prelu_negative():
    # expect-error@+1: nn_prelu_c1
    nn.PReLU(-1)


def case_prelu_channels():
    act = nn.PReLU(3)
    # expect-error@+1: prelu_c1
    act(torch.zeros(2, 4))


def case_softmax():
    sm = nn.Softmax(dim=2)
    # expect-error@+1: softmax_c1
    sm(torch.zeros(2, 3))


def case_log_softmax():
    sm = nn.LogSoftmax(dim=-3)
    # expect-error@+1: log_softmax_c1
    sm(torch.zeros(2, 3))


def case_flatten_start():
    flat = nn.Flatten(-3)
    # expect-error@+1: flatten_c1
    flat(torch.zeros(2, 3))


def case_flatten_end():
    flat = nn.Flatten(0, 3)
    # expect-error@+1: flatten_c2
    flat(torch.zeros(2, 3))


def case_flatten_order():
    flat = nn.Flatten(2, 1)
    # expect-error@+1: flatten_c3
    flat(torch.zeros(2, 3, 4))


def case_bilinear_negative():
    # expect-error@+1: nn_bilinear_c1
    nn.Bilinear(3, -1, 2)


def case_bilinear_zero():
    # expect-error@+1: nn_bilinear_c2
    nn.Bilinear(0, 3, 2)


def case_bilinear_ranks():
    bil = nn.Bilinear(3, 4, 5)
    # expect-error@+1: bilinear_c1
    bil(torch.zeros(6, 3), torch.zeros(2, 6, 4))


def case_bilinear_batch():
    bil = nn.Bilinear(3, 4, 5)
    # expect-error@+1: bilinear_c2
    bil(torch.zeros(6, 3), torch.zeros(7, 4))


def case_bilinear_features():
    bil = nn.Bilinear(3, 4, 5)
    # expect-error@+1: bilinear_c3
    bil(torch.zeros(6, 3), torch.zeros(6, 5))


def case_bilinear_bias():
    # expect-error@+1: bilinear_c4
    F.bilinear(torch.zeros(2, 3), torch.zeros(2, 4), torch.zeros(5, 3, 4), torch.zeros(4))


def case_bilinear_no_features():
    bil = nn.Bilinear(3, 0, 5)
    # expect-error@+1: bilinear_c5
    bil(torch.zeros(6, 3), torch.zeros(6, 0))


def case_embedding_negative():
    # expect-error@+1: nn_embedding_c1
    nn.Embedding(-1, 4)


def case_embedding_padding():
    # expect-error@+1: nn_embedding_c2
    nn.Embedding(10, 4, padding_idx=10)


def case_embedding_empty_table():
    emb = nn.Embedding(0, 4)
    # expect-error@+1: embedding_c1
    emb(torch.zeros(3, dtype=torch.long))


def case_embedding_weight_rank():
    # expect-error@+1: embedding_c2
    F.embedding(torch.zeros(3, dtype=torch.long), torch.zeros(10))


def case_embedding_padding_functional():
    # expect-error@+1: embedding_c3
    F.embedding(torch.zeros(3, dtype=torch.long), torch.zeros(10, 4), padding_idx=-11)


def case_linear_after_embedding_of_unknown_rank():
    # the indices' rank is unknown, the embedding's last axis (8) is not
    tokens = torch.tensor(json.loads("[[1, 2, 3]]"))
    h = nn.Embedding(10, 8)(tokens)
    # expect-error@+1: linear_c1
    nn.Linear(16, 4)(h)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
