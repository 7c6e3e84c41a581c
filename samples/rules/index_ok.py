"""narrow, select, index_select, gather, scatter, scatter_add, masked_select,
nonzero, F.one_hot, take_along_dim where every constraint holds: no
diagnostic."""
import torch
import torch.nn.functional as F


def case_narrow_select():
    x = torch.zeros(4, 5)
    return (x.narrow(1, 1, 3), torch.narrow(x, 0, -2, 2), x.narrow(1, 5, 0), torch.zeros(0).narrow(0, -1, 0),
            x.select(1, -5), torch.select(x, 0, 3), x[:, 2])


def case_index_select():
    x = torch.zeros(4, 5)
    idx = torch.zeros(3, dtype=torch.long)
    return (torch.index_select(x, 1, idx), x.index_select(-2, torch.tensor(0)),
            torch.zeros(0, 5).index_select(0, torch.zeros(0, dtype=torch.long)))


def case_gather_scatter():
    x = torch.zeros(3, 4)
    idx = torch.zeros(2, 5, dtype=torch.long)   # larger than x on dim 1 only: fine
    src = torch.zeros(2, 6)
    return (torch.gather(x, 1, idx), x.gather(0, torch.zeros(3, 4, dtype=torch.long)),
            torch.scatter(x, 1, idx, src), x.scatter(1, idx, 2.5), torch.scatter_add(x, 1, idx, src),
            torch.zeros(3, 0).scatter_(1, torch.zeros(0, 3, dtype=torch.long), src),
            x.clone().scatter_add_(0, torch.zeros(1, 4, dtype=torch.long), torch.ones(1, 4)))


def case_data_sized():
    x = torch.randn(3, 4)
    kept = torch.masked_select(x, x > 0)           # [n]
    rows = x.masked_select(torch.ones(4, dtype=torch.bool))
    nz = torch.nonzero(x)                          # [n, 2]
    r, c = torch.nonzero(x, as_tuple=True)
    return kept.sum(), rows.view(3, 4), nz[:, 1], r + c, torch.argwhere(x)


def case_one_hot():
    labels = torch.tensor([0, 2, 1])
    return F.one_hot(labels, 4).sum(0), F.one_hot(labels), F.one_hot(torch.zeros(0, dtype=torch.long), 3)


def case_take_along_dim():
    x = torch.zeros(2, 3)
    best = x.argmax(dim=1, keepdim=True)                       # [2, 1]
    return torch.take_along_dim(x, best, 1), x.take_along_dim(torch.zeros(1, 3, dtype=torch.long), 0), torch.take_along_dim(x, best)


def case_bucketize_searchsorted():
    values = torch.randn(2, 7)
    edges = torch.linspace(-1, 1, 5)
    buckets = torch.bucketize(values, edges)             # [2, 7], int64
    one = torch.bucketize(0.5, edges)                    # 0-d
    rows = torch.zeros(2, 4)
    where = torch.searchsorted(rows, values)             # [2, 7]: one sequence per row
    flat = torch.searchsorted(edges, values, side="right")
    order = torch.argsort(torch.randn(5))
    sorted_by = torch.searchsorted(torch.randn(5), values, sorter=order)
    scalar = torch.searchsorted(edges, 0.25, right=True, side="right")
    return buckets.view(14), one.view(1), where.view(14), flat.view(14), sorted_by.view(14), scalar.view(1)


# expect-deferred: 1 (rows.view(3, 4): masked_select's length is data, so view_c5 is a run-time check)
if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
