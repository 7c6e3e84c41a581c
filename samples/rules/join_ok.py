"""cat, stack, split, chunk, unbind where every constraint holds: no diagnostic."""
import torch


def case_cat_stack():
    a, b = torch.zeros(2, 3), torch.zeros(4, 3)
    legacy_empty = torch.zeros(0)  # a 1-d empty tensor is skipped by cat
    return torch.cat([a, b], 0), torch.cat([a, legacy_empty]), torch.concat([a, a], dim=-1), torch.stack([a, a], 2)


def case_split_chunk():
    x = torch.zeros(10, 4)
    return torch.split(x, 3), x.split([3, 7], 0), torch.chunk(x, 3, 1), x.chunk(2), torch.unbind(x, 1)


def case_split_empty():
    x = torch.zeros(0, 2)
    return x.split(0)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
