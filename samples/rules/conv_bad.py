"""Convolutions, each constraint violated once (construction: nn_conv*;
the call: conv1d_, conv2d_, conv_transpose2d_)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_groups_positive():
    # expect-error@+1: nn_conv2d_c1
    nn.Conv2d(4, 8, 3, groups=0)


def case_in_channels_groups():
    # expect-error@+1: nn_conv2d_c2
    nn.Conv2d(3, 8, 3, groups=2)


def case_out_channels_groups():
    # expect-error@+1: nn_conv2d_c3
    nn.Conv2d(4, 6, 3, groups=4)


def case_negative_size():
    # expect-error@+1: nn_conv2d_c4
    nn.Conv2d(3, 8, -1)


def case_same_strided():
    # expect-error@+1: nn_conv2d_c5
    nn.Conv2d(3, 8, 3, stride=2, padding="same")


def case_conv1d_construction():
    # expect-error@+1: nn_conv1d_c2
    nn.Conv1d(3, 4, 3, groups=2)


def case_transposed_construction():
    # expect-error@+1: nn_conv_transpose2d_c3
    nn.ConvTranspose2d(4, 6, 3, groups=4)


def case_rank():
    conv = nn.Conv2d(3, 8, 3)
    # expect-error@+1: conv2d_c1
    conv(torch.zeros(3, 8))


def case_channels():
    conv = nn.Conv2d(16, 32, 5)
    # expect-error@+1: conv2d_c2
    conv(torch.zeros(2, 8, 12, 12))


def case_stride_zero():
    conv = nn.Conv2d(3, 8, 3, stride=0)
    # expect-error@+1: conv2d_c3
    conv(torch.zeros(1, 3, 8, 8))


def case_kernel_too_large():
    conv = nn.Conv2d(16, 32, 5)
    # expect-error@+1: conv2d_c4
    conv(torch.zeros(2, 16, 3, 3))


def case_no_filters():
    conv = nn.Conv2d(3, 0, 3)
    # expect-error@+1: conv2d_c5
    conv(torch.zeros(1, 3, 8, 8))


def case_functional_bias():
    x, w = torch.zeros(1, 3, 5, 5), torch.zeros(4, 3, 3, 3)
    # expect-error@+1: conv2d_c6
    F.conv2d(x, w, torch.zeros(5))


def case_empty_spatial():
    conv = nn.Conv2d(3, 8, 1, padding=1)
    # expect-error@+1: conv2d_c10
    conv(torch.zeros(1, 3, 0, 4))


def case_conv1d_channels():
    conv = nn.Conv1d(2, 4, 3)
    # expect-error@+1: conv1d_c2
    conv(torch.zeros(1, 3, 10))


def case_transposed_output_padding():
    up = nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=2)
    # expect-error@+1: conv_transpose2d_c7
    up(torch.zeros(1, 4, 5, 5))


def case_transposed_too_small():
    up = nn.ConvTranspose2d(4, 2, 1, padding=1)
    # expect-error@+1: conv_transpose2d_c8
    up(torch.zeros(1, 4, 2, 2))


def case_transposed_output_size():
    up = nn.ConvTranspose2d(4, 2, 3, stride=2)
    # expect-error@+1: conv_transpose2d_c9
    up(torch.zeros(1, 4, 5, 5), output_size=(20, 20))


def case_transposed_channels():
    up = nn.ConvTranspose2d(4, 2, 3)
    # expect-error@+1: conv_transpose2d_c2
    up(torch.zeros(1, 3, 5, 5))


def case_conv1d_groups():
    # expect-error@+1: nn_conv1d_c1
    nn.Conv1d(4, 4, 3, groups=-1)


def case_conv1d_out_groups():
    # expect-error@+1: nn_conv1d_c3
    nn.Conv1d(4, 3, 3, groups=2)


def case_conv1d_negative():
    # expect-error@+1: nn_conv1d_c4
    nn.Conv1d(-2, 4, 3)


def case_conv1d_same_strided():
    # expect-error@+1: nn_conv1d_c5
    nn.Conv1d(2, 4, 3, stride=2, padding="same")


def case_conv1d_rank():
    conv = nn.Conv1d(2, 4, 3)
    # expect-error@+1: conv1d_c1
    conv(torch.zeros(5))


def case_conv1d_dilation():
    conv = nn.Conv1d(2, 4, 3, dilation=0)
    # expect-error@+1: conv1d_c3
    conv(torch.zeros(1, 2, 8))


def case_conv1d_kernel_too_large():
    conv = nn.Conv1d(2, 4, 5, padding=1)
    # expect-error@+1: conv1d_c4
    conv(torch.zeros(1, 2, 2))


def case_conv1d_no_filters():
    # expect-error@+1: conv1d_c5
    F.conv1d(torch.zeros(1, 2, 5), torch.zeros(0, 2, 3))


def case_conv1d_bias():
    # expect-error@+1: conv1d_c6
    F.conv1d(torch.zeros(1, 2, 5), torch.zeros(3, 2, 3), torch.zeros(2))


def case_conv1d_empty():
    conv = nn.Conv1d(2, 4, 1, padding=1)
    # expect-error@+1: conv1d_c10
    conv(torch.zeros(1, 2, 0))


def case_transposed_groups():
    # expect-error@+1: nn_conv_transpose2d_c1
    nn.ConvTranspose2d(4, 4, 3, groups=0)


def case_transposed_in_groups():
    # expect-error@+1: nn_conv_transpose2d_c2
    nn.ConvTranspose2d(3, 4, 3, groups=2)


def case_transposed_negative():
    # expect-error@+1: nn_conv_transpose2d_c4
    nn.ConvTranspose2d(4, 2, -3)


def case_transposed_padding_mode():
    # expect-error@+1: nn_conv_transpose2d_c5
    nn.ConvTranspose2d(4, 2, 3, padding_mode="reflect")


def case_transposed_rank():
    up = nn.ConvTranspose2d(4, 2, 3)
    # expect-error@+1: conv_transpose2d_c1
    up(torch.zeros(4, 5))


def case_transposed_stride():
    up = nn.ConvTranspose2d(4, 2, 3, stride=0)
    # expect-error@+1: conv_transpose2d_c3
    up(torch.zeros(1, 4, 5, 5))


def case_transposed_empty_weight():
    # expect-error@+1: conv_transpose2d_c5
    F.conv_transpose2d(torch.zeros(1, 4, 5, 5), torch.zeros(4, 0, 3, 3))


def case_transposed_bias():
    # expect-error@+1: conv_transpose2d_c6
    F.conv_transpose2d(torch.zeros(1, 4, 5, 5), torch.zeros(4, 2, 3, 3), torch.zeros(3))


def case_transposed_empty_spatial():
    up = nn.ConvTranspose2d(4, 2, 3)
    # expect-error@+1: conv_transpose2d_c10
    up(torch.zeros(1, 4, 0, 5))

if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
