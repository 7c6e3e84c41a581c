"""Pixel shuffle, interpolation and padding, each constraint violated once."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_shuffle_rank():
    shuffle = nn.PixelShuffle(2)
    # expect-error@+1: pixel_shuffle_c1
    shuffle(torch.zeros(4, 4))


def case_shuffle_factor():
    # expect-error@+1: pixel_shuffle_c2
    F.pixel_shuffle(torch.zeros(1, 4, 2, 2), 0)


def case_shuffle_channels():
    shuffle = nn.PixelShuffle(3)
    # expect-error@+1: pixel_shuffle_c3
    shuffle(torch.zeros(1, 8, 4, 4))


def case_interpolate_both():
    x = torch.zeros(1, 3, 4, 4)
    # expect-error@+1: interpolate_c1
    F.interpolate(x, size=8, scale_factor=2)


def case_interpolate_lengths():
    x = torch.zeros(1, 3, 4, 4)
    # expect-error@+1: interpolate_c2
    F.interpolate(x, size=(8, 8, 8))


def case_interpolate_mode():
    up = nn.Upsample(scale_factor=2, mode="bilinear")
    # expect-error@+1: interpolate_c3
    up(torch.zeros(1, 3, 4))


def case_interpolate_zero():
    x = torch.zeros(1, 3, 4, 4)
    # expect-error@+1: interpolate_c4
    F.interpolate(x, scale_factor=0.1)


def case_pad_odd():
    # expect-error@+1: pad_c1
    F.pad(torch.zeros(2, 3), (1, 1, 1))


def case_pad_too_long():
    # expect-error@+1: pad_c2
    F.pad(torch.zeros(3), (1, 1, 1, 1))


def case_pad_crop():
    # expect-error@+1: pad_c3
    F.pad(torch.zeros(2, 3), (-2, -2))


def case_pad_empty_axis():
    # expect-error@+1: pad_c4
    F.pad(torch.zeros(0, 3), (1, 1, 0, 0))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
