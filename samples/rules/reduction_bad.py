"""Reductions and scans, each constraint violated once."""
import torch
import torch.nn.functional as F


def case_sum_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: sum_c1
    x.sum(2)


def case_sum_repeat():
    x = torch.zeros(2, 3)
    # expect-error@+1: sum_c2
    torch.sum(x, (0, -2))


def case_mean_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: mean_c1
    x.mean(-3)


def case_mean_repeat():
    x = torch.zeros(2, 3)
    # expect-error@+1: mean_c2
    torch.mean(x, (1, 1))


def case_norm_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: norm_c1
    torch.norm(x, dim=2)


def case_norm_repeat():
    x = torch.zeros(2, 3)
    # expect-error@+1: norm_c2
    torch.norm(x, dim=(0, 0))


def case_logsumexp_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: logsumexp_c1
    torch.logsumexp(x, 2)


def case_logsumexp_repeat():
    x = torch.zeros(2, 3)
    # expect-error@+1: logsumexp_c2
    torch.logsumexp(x, (1, -1))


def case_prod():
    x = torch.zeros(2, 3)
    # expect-error@+1: prod_c1
    x.prod(2)


def case_any():
    x = torch.zeros(2, 3)
    # expect-error@+1: any_c1
    torch.any(x, 3)


def case_all():
    x = torch.zeros(2, 3)
    # expect-error@+1: all_c1
    x.all(-3)


def case_max_empty():
    x = torch.zeros(0, 3)
    # expect-error@+1: max_c1
    torch.max(x)


def case_max_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: max_c2
    x.max(2)


def case_max_empty_dim():
    x = torch.zeros(2, 0)
    # expect-error@+1: max_c3
    torch.max(x, 1)


def case_max_other():
    x = torch.zeros(2, 3)
    # expect-error@+1: broadcast_c1
    torch.max(x, torch.zeros(4))


def case_min_empty():
    x = torch.zeros(0)
    # expect-error@+1: min_c1
    x.min()


def case_min_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: min_c2
    torch.min(x, -3)


def case_min_empty_dim():
    x = torch.zeros(0, 3)
    # expect-error@+1: min_c3
    x.min(0)


def case_argmax_empty():
    x = torch.zeros(3, 0)
    # expect-error@+1: argmax_c1
    torch.argmax(x)


def case_argmax_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: argmax_c2
    x.argmax(2)


def case_argmax_empty_dim():
    x = torch.zeros(2, 0)
    # expect-error@+1: argmax_c3
    x.argmax(1)


def case_argmin_empty():
    x = torch.zeros(0)
    # expect-error@+1: argmin_c1
    x.argmin()


def case_argmin_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: argmin_c2
    torch.argmin(x, 5)


def case_argmin_empty_dim():
    x = torch.zeros(0, 2)
    # expect-error@+1: argmin_c3
    torch.argmin(x, 0)


def case_softmax():
    x = torch.zeros(2, 3)
    # expect-error@+1: softmax_c1
    F.softmax(x, dim=2)


def case_log_softmax():
    x = torch.zeros(2, 3)
    # expect-error@+1: log_softmax_c1
    torch.log_softmax(x, -3)


def case_cumsum():
    x = torch.zeros(2, 3)
    # expect-error@+1: cumsum_c1
    x.cumsum(2)


def case_cumprod():
    x = torch.zeros(2, 3)
    # expect-error@+1: cumprod_c1
    torch.cumprod(x, -3)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
