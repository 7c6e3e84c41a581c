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


def case_pad_mode():
    # expect-error@+1: pad_c5
    F.pad(torch.zeros(2, 3, 4), (1, 1), mode="wrap")


def case_pad_value():
    # expect-error@+1: pad_c6
    F.pad(torch.zeros(2, 3, 4), (1, 1), mode="replicate", value=1.0)


def case_pad_mode_rank():
    # expect-error@+1: pad_c7
    F.pad(torch.zeros(2, 3, 4, 5, 6), (1, 1, 1, 1), mode="reflect")


def case_reflection_pad2d_rank():
    pad = nn.ReflectionPad2d(1)
    # expect-error@+1: pad_c7
    pad(torch.zeros(4, 4))


def case_circular_unbatched():
    # expect-error@+1: pad_c7
    F.pad(torch.zeros(3, 4), (1, 1), mode="circular")


def case_replication_pad_empty():
    pad = nn.ReplicationPad2d(1)
    # expect-error@+1: pad_c8
    pad(torch.zeros(2, 0, 4, 4))


def case_reflection_pad_too_large():
    pad = nn.ReflectionPad2d(3)
    # expect-error@+1: pad_c9
    pad(torch.zeros(1, 3, 3, 8))


def case_reflection_pad1d_too_large():
    pad = nn.ReflectionPad1d((4, 1))
    # expect-error@+1: pad_c9
    pad(torch.zeros(2, 3, 4))


def case_replication_pad_crops_all():
    pad = nn.ReplicationPad1d((-2, -2))
    # expect-error@+1: pad_c10
    pad(torch.zeros(2, 3, 4))


def case_circular_wraps_twice():
    # expect-error@+1: pad_c11
    F.pad(torch.zeros(1, 2, 4), (5, 0), mode="circular")


def case_circular_negative_size():
    # expect-error@+1: pad_c12
    F.pad(torch.zeros(1, 2, 4), (-3, -2), mode="circular")


def case_constant_pad_module_crop():
    pad = nn.ConstantPad1d((-3, -2), 0.0)
    # expect-error@+1: pad_c3
    pad(torch.zeros(2, 4))


def case_zero_pad_odd():
    pad = nn.ZeroPad2d((1, 1, 1))
    # expect-error@+1: pad_c1
    pad(torch.zeros(2, 3, 4, 4))


def case_constant_pad_too_long():
    pad = nn.ConstantPad3d(1, 0.0)
    # expect-error@+1: pad_c2
    pad(torch.zeros(3, 4))


def case_constant_pad_empty_axis():
    pad = nn.ConstantPad2d((1, 0, 0, 0), 0.0)
    # expect-error@+1: pad_c4
    pad(torch.zeros(0, 2))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
