"""Indexing, assigning into a tensor, unpacking tensors, size queries and
TensorDataset where every constraint holds (getitem_c1-c6, setitem_c1-c6,
unpack_c1-c2, iter_unpack_c1-c3, truth_c1, item_c1, size_c1,
tensordataset_c1-c2): no diagnostic."""
import torch
from torch.utils.data import TensorDataset


def case_indexing():
    h = torch.zeros(2, 3, 5)
    return h[1], h[-1, 2], h[..., 4], h[None, 0, -3], h[1, 2, 4]


def case_advanced_indexing():
    x = torch.zeros(5, 3, 4)
    idx = torch.randint(0, 3, (2,))
    mask = x[:, 0, 0] > 0
    grid = x[:, :, 0] >= 0
    a = x[idx], x[:, idx], x[idx, :, idx], x[[0, 2]], x[..., [0, 1, 3]]
    b = x[mask], x[grid], x[None, idx], x[idx, idx.view(2, 1)]
    x[mask] = 1.0
    x[idx] = torch.ones(1, 3, 4)
    x[:, idx] = torch.ones(4)
    return a, b


def case_assigning():
    pe = torch.zeros(4, 6)
    pe[:, 0::2] = torch.ones(4, 3)
    pe[:, 1::2] = torch.ones(1, 3)
    pe[1] = torch.ones(1, 6)
    pe[..., -2:] = 0.5
    return pe


def case_unpacking():
    q, k, v = torch.zeros(2, 9).chunk(3, dim=-1)
    h, w = torch.zeros(2, 5)
    return q, k, v, h, w, torch.zeros(2, 3).shape[-1]


def case_loops_truth_and_numbers():
    for x0, y0, x1, y1 in torch.zeros(5, 4): pass
    for a, b in [torch.zeros(2), torch.zeros(2, 3)]: pass
    for a, b in torch.zeros(0): pass  # no rows: nothing is unpacked
    v = torch.zeros(3)
    if v.sum() > 0 or not v[0]: pass
    assert (v >= 0).all()
    return v.sum().item(), float(v[1]), int(v[:1]), bool(v[2])


def case_sizes():
    x = torch.zeros(2, 3)
    return x.size(1), x.size(-2), x.size()


def case_dataset():
    return TensorDataset(torch.zeros(10, 3), torch.zeros(10), torch.zeros(10, 2, 2))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
