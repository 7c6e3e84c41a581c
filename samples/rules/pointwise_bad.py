"""Element-wise ops, each constraint violated once."""
import torch
import torch.nn.functional as F


def case_broadcast():
    x = torch.zeros(2, 3)
    # expect-error@+1: broadcast_c1
    x + torch.zeros(4)


def case_python_sum():
    x = torch.zeros(2, 3)
    # expect-error@+1: broadcast_c1
    sum([x, torch.zeros(2, 4)])


def case_python_pow():
    x = torch.zeros(2, 3)
    # expect-error@+1: broadcast_c1
    pow(x, torch.zeros(2, 4))


def case_inplace():
    x = torch.zeros(3)
    # expect-error@+1: inplace_c1
    x.add_(torch.zeros(2, 3))


def case_dropout1d_rank():
    # expect-error@+1: dropout1d_c1
    F.dropout1d(torch.zeros(2, 3, 4, 5))


def case_feature_dropout_rank():
    # expect-error@+1: feature_dropout_c1
    F.dropout2d(torch.zeros(3))


def case_dropout():
    x = torch.zeros(2, 3)
    # expect-error@+1: dropout_c1
    F.dropout(x, 1.5)


def case_clamp():
    x = torch.zeros(2, 3)
    # expect-error@+1: clamp_c1
    torch.clamp(x)


def case_where():
    x = torch.zeros(2, 3)
    # expect-error@+1: where_c1
    torch.where(torch.zeros(4, dtype=torch.bool), x, x)


def case_masked_fill():
    x = torch.zeros(2, 3)
    # expect-error@+1: masked_fill_c1
    x.masked_fill(torch.zeros(4, dtype=torch.bool), 0.0)


def case_masked_fill_value():
    x = torch.zeros(2, 3)
    # expect-error@+1: masked_fill_c2
    x.masked_fill(torch.zeros(3, dtype=torch.bool), torch.zeros(3))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
