"""Pixel shuffle, interpolation and padding where every constraint holds:
no diagnostic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_pixel_shuffle():
    return nn.PixelShuffle(3)(torch.zeros(2, 9, 4, 4)), F.pixel_shuffle(torch.zeros(8, 3, 3), 2)


def case_interpolate():
    x = torch.zeros(2, 3, 4, 5)
    return (nn.Upsample(scale_factor=2, mode="nearest")(x), F.interpolate(x, size=(8, 10), mode="bilinear"),
            F.interpolate(torch.zeros(1, 2, 6), scale_factor=1.5, mode="linear", align_corners=False))


def case_pad():
    x = torch.zeros(2, 3, 4)
    return F.pad(x, (1, 2)), F.pad(x, (0, 0, -1, 1), value=1.0), F.pad(x, (-1, -3))


def case_pad_modes():
    x = torch.zeros(2, 3, 4, 5)
    return (F.pad(x, (3, 3, 2, 0), mode="reflect"), F.pad(torch.zeros(3, 4), (2, 2), mode="reflect"),
            F.pad(torch.zeros(2, 3, 4), (1, 1), mode="replicate"), F.pad(x, (5, 0, -1, -1), mode="replicate"),
            F.pad(torch.zeros(1, 2, 3, 4, 5), (1, 1, 1, 1, 1, 1), mode="circular", value=0.0),
            F.pad(torch.zeros(2, 3, 4), (-2, -2), mode="circular"))


def case_pad_modules():
    x = torch.zeros(2, 3, 4, 5)
    a = nn.ReflectionPad2d(2)(x) + torch.zeros(2, 3, 8, 9)
    b = nn.ReflectionPad1d((3, 0))(torch.zeros(3, 4)) + torch.zeros(3, 7)
    c = nn.ReflectionPad3d(1)(torch.zeros(3, 2, 2, 2)) + torch.zeros(3, 4, 4, 4)
    d = nn.ReplicationPad1d(2)(torch.zeros(2, 3, 1)) + nn.ReplicationPad2d((0, 0, 1, 1))(torch.zeros(1, 1, 5))
    e = nn.ReplicationPad3d((1, 1, 0, 0, 2, 2))(torch.zeros(1, 1, 1, 1, 1)) + torch.zeros(1, 1, 5, 1, 3)
    f = nn.ZeroPad2d((1, 1, 2, 0))(x) + nn.ConstantPad2d(1, 3.5)(torch.zeros(2, 3, 4, 5))
    g = nn.ConstantPad1d((2, -1), 0.0)(torch.zeros(4)) + torch.zeros(5)
    h = nn.ConstantPad3d(1, 1.0)(torch.zeros(2, 2, 2)) + torch.zeros(4, 4, 4)
    return a, b, c, d + torch.zeros(2, 3, 5), e, f + torch.zeros(2, 3, 6, 7), g, h


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
