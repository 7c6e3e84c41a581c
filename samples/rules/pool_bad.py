"""Pooling, each constraint violated once."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_max_rank():
    pool = nn.MaxPool2d(2)
    # expect-error@+1: max_pool2d_c1
    pool(torch.zeros(4, 4))


def case_max_stride():
    # expect-error@+1: max_pool2d_c2
    F.max_pool2d(torch.zeros(1, 3, 4, 4), 2, stride=0)


def case_max_padding():
    pool = nn.MaxPool2d(2, padding=2)
    # expect-error@+1: max_pool2d_c3
    pool(torch.zeros(1, 3, 8, 8))


def case_max_empty():
    pool = nn.MaxPool2d(2)
    # expect-error@+1: max_pool2d_c4
    pool(torch.zeros(1, 0, 4, 4))


def case_max_too_small():
    # expect-error@+1: max_pool2d_c5
    F.max_pool2d(torch.zeros(1, 3, 1, 5), 2)


def case_avg_rank():
    # expect-error@+1: avg_pool2d_c1
    F.avg_pool2d(torch.zeros(1, 1, 3, 4, 4), 2)


def case_avg_kernel():
    pool = nn.AvgPool2d(0, stride=1)
    # expect-error@+1: avg_pool2d_c2
    pool(torch.zeros(1, 3, 4, 4))


def case_avg_padding():
    # expect-error@+1: avg_pool2d_c3
    F.avg_pool2d(torch.zeros(1, 3, 8, 8), 3, padding=2)


def case_avg_empty():
    # expect-error@+1: avg_pool2d_c4
    F.avg_pool2d(torch.zeros(3, 0, 4), 2)


def case_avg_too_small():
    pool = nn.AvgPool2d(3)
    # expect-error@+1: avg_pool2d_c5
    pool(torch.zeros(1, 3, 2, 9))


def case_avg_divisor():
    # expect-error@+1: avg_pool2d_c6
    F.avg_pool2d(torch.zeros(1, 3, 4, 4), 2, divisor_override=0)


def case_adaptive_rank():
    pool = nn.AdaptiveAvgPool2d(2)
    # expect-error@+1: adaptive_avg_pool2d_c1
    pool(torch.zeros(5, 5))


def case_adaptive_negative():
    # expect-error@+1: adaptive_avg_pool2d_c2
    F.adaptive_avg_pool2d(torch.zeros(1, 3, 5, 5), -1)


def case_adaptive_empty():
    pool = nn.AdaptiveAvgPool2d((2, 2))
    # expect-error@+1: adaptive_avg_pool2d_c3
    pool(torch.zeros(1, 3, 0, 5))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
