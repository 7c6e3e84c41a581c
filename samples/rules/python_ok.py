"""Indexing, size queries and TensorDataset where every constraint holds
(getitem_c1-c2, size_c1, tensordataset_c1-c2): no diagnostic."""
import torch
from torch.utils.data import TensorDataset


def case_indexing():
    h = torch.zeros(2, 3, 5)
    return h[1], h[-1, 2], h[..., 4], h[None, 0, -3], h[1, 2, 4]


def case_sizes():
    x = torch.zeros(2, 3)
    return x.size(1), x.size(-2), x.size()


def case_dataset():
    return TensorDataset(torch.zeros(10, 3), torch.zeros(10), torch.zeros(10, 2, 2))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
