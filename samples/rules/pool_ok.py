"""Pooling where every constraint holds: no diagnostic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_pool():
    x = torch.zeros(2, 3, 7, 7)
    return (nn.MaxPool2d(2)(x), nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)(x),
            nn.AvgPool2d((2, 3), divisor_override=2)(torch.zeros(3, 6, 6)), F.max_pool2d(x, 2, return_indices=True),
            F.avg_pool2d(torch.zeros(0, 3, 4, 4), 2))


def case_adaptive():
    x = torch.zeros(2, 3, 7, 7)
    return nn.AdaptiveAvgPool2d((1, None))(x), F.adaptive_avg_pool2d(x, 5), F.adaptive_avg_pool2d(torch.zeros(4, 5), 1)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
