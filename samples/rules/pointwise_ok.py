"""Element-wise ops where every constraint holds (broadcasting, in-place,
dropout, clamp, where, masked_fill): no diagnostic."""
import torch
import torch.nn.functional as F


def case_broadcast():
    x = torch.zeros(2, 3)
    y = x + torch.zeros(3)
    y += torch.zeros(1, 3)
    z = torch.where(torch.zeros(2, 1, dtype=torch.bool), x, torch.zeros(3))
    return y, z, x * 2, torch.maximum(x, torch.zeros(2, 1)), sum([x, torch.zeros(1, 3), torch.zeros(3)]), pow(x, torch.zeros(3))


def case_dropout_clamp_mask():
    x = torch.zeros(2, 3)
    mask = torch.zeros(3, dtype=torch.bool)
    return (F.dropout(x, 0.5), F.dropout1d(x), F.dropout1d(x.unsqueeze(0), training=False), torch.clamp(x, min=0.0), x.clamp_(max=torch.zeros(3)),
            x.masked_fill(mask, 0.0), x.masked_fill_(mask, torch.tensor(1.0)))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
