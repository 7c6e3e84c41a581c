"""F.unfold / nn.Unfold and F.fold / nn.Fold where every constraint holds
(im2col_c0-c7, col2im_c0-c9): no diagnostic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_unfold():
    x = torch.zeros(2, 3, 8, 8)
    cols = F.unfold(x, 3)
    spaced = nn.Unfold((2, 3), dilation=2, padding=1, stride=(2, 1))(x)
    unbatched = F.unfold(torch.zeros(3, 4, 4), 2)
    return cols, spaced, unbatched


def case_fold():
    cols = F.unfold(torch.zeros(2, 3, 8, 8), 3)
    image = F.fold(cols, (8, 8), 3)
    patches = nn.Fold((4, 4), 2, stride=2)(torch.zeros(1, 8, 4))
    return image, patches, F.fold(torch.zeros(8, 9), (4, 4), 2)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
