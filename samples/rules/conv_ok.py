"""Convolutions where every constraint holds: no diagnostic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_modules():
    conv = nn.Conv2d(4, 8, 3, stride=2, padding=1, groups=2)
    same = nn.Conv2d(3, 6, (3, 5), padding="same", dilation=2)
    line = nn.Conv1d(2, 4, 3)
    up = nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1, output_padding=1)
    x = torch.zeros(2, 4, 9, 9)
    return conv(x), same(torch.zeros(3, 7, 7)), line(torch.zeros(2, 5)), up(conv(x), output_size=(10, 10))


def case_functional():
    x = torch.zeros(1, 3, 5, 5)
    w = torch.zeros(6, 3, 3, 3)
    empty_batch = torch.zeros(0, 3, 5, 5)
    return (F.conv2d(x, w, torch.zeros(6), padding=1), F.conv1d(torch.zeros(1, 2, 4), torch.zeros(3, 2, 2)),
            F.conv_transpose2d(x, torch.zeros(3, 2, 2, 2), stride=2), F.conv2d(empty_batch, w))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
