"""Reductions and scans where every constraint holds: no diagnostic."""
import torch
import torch.nn.functional as F


def case_reduce():
    x = torch.zeros(2, 3, 4)
    return (x.sum((0, 2)), torch.mean(x, -1, True), torch.norm(x, dim=(1, 2)), torch.logsumexp(x, 1),
            x.prod(2), torch.any(x, 0), x.all(-1))


def case_max_min():
    x = torch.zeros(2, 3)
    return torch.max(x), x.max(1), torch.min(x, 0), torch.max(x, torch.zeros(3)), x.argmax(), torch.argmin(x, 1)


def case_along_dim():
    x = torch.zeros(2, 3)
    return F.softmax(x, dim=1), torch.log_softmax(x, -1), x.cumsum(0), torch.cumprod(x, 1)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
