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


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
