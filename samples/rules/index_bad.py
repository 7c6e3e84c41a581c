"""narrow, select, index_select, gather, scatter, scatter_add, masked_select,
F.one_hot, take_along_dim, each constraint violated once."""
import torch
import torch.nn.functional as F


def case_narrow_scalar():
    x = torch.tensor(1.0)
    # expect-error@+1: narrow_c1
    x.narrow(0, 0, 1)


def case_narrow_dim():
    x = torch.zeros(4, 5)
    # expect-error@+1: narrow_c2
    torch.narrow(x, 2, 0, 1)


def case_narrow_start():
    x = torch.zeros(4, 5)
    # expect-error@+1: narrow_c3
    x.narrow(1, 6, 0)


def case_narrow_length():
    x = torch.zeros(4, 5)
    # expect-error@+1: narrow_c4
    x.narrow(1, -2, 3)


def case_select_scalar():
    x = torch.tensor(1.0)
    # expect-error@+1: select_c1
    x.select(0, 0)


def case_select_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: select_c2
    x.select(-3, 0)


def case_select_index():
    x = torch.zeros(2, 3)
    # expect-error@+1: select_c3
    torch.select(x, 1, 3)


def case_index_select_matrix_index():
    x = torch.zeros(4, 5)
    idx = torch.zeros(2, 2, dtype=torch.long)
    # expect-error@+1: index_select_c1
    torch.index_select(x, 0, idx)


def case_index_select_dim():
    x = torch.zeros(4, 5)
    idx = torch.zeros(2, dtype=torch.long)
    # expect-error@+1: index_select_c2
    x.index_select(2, idx)


def case_index_select_empty_axis():
    x = torch.zeros(0, 5)
    idx = torch.zeros(2, dtype=torch.long)
    # expect-error@+1: index_select_c3
    x.index_select(0, idx)


def case_gather_dim():
    x = torch.zeros(3, 4)
    idx = torch.zeros(3, 4, dtype=torch.long)
    # expect-error@+1: gather_c1
    torch.gather(x, 2, idx)


def case_gather_rank():
    x = torch.zeros(3, 4)
    idx = torch.zeros(4, dtype=torch.long)
    # expect-error@+1: gather_c2
    x.gather(1, idx)


def case_gather_larger_index():
    x = torch.zeros(3, 4)
    idx = torch.zeros(2, 5, dtype=torch.long)
    # expect-error@+1: gather_c3
    torch.gather(x, 0, idx)


def case_gather_empty_axis():
    x = torch.zeros(3, 0)
    idx = torch.zeros(3, 1, dtype=torch.long)
    # expect-error@+1: gather_c4
    torch.gather(x, 1, idx)


def case_scatter_dim():
    x = torch.zeros(3, 4)
    idx = torch.zeros(2, 2, dtype=torch.long)
    # expect-error@+1: scatter_c1
    torch.scatter(x, -3, idx, 1.5)


def case_scatter_src_rank():
    x = torch.zeros(3, 4)
    idx = torch.zeros(2, 2, dtype=torch.long)
    # expect-error@+1: scatter_c2
    x.scatter_(1, idx, torch.zeros(2, 2, 2))


def case_scatter_small_src():
    x = torch.zeros(3, 4)
    idx = torch.zeros(2, 4, dtype=torch.long)
    # expect-error@+1: scatter_c3
    torch.scatter(x, 1, idx, torch.zeros(2, 3))


def case_scatter_empty_axis():
    x = torch.zeros(3, 0)
    idx = torch.zeros(2, 1, dtype=torch.long)
    # expect-error@+1: scatter_c4
    x.scatter(1, idx, torch.zeros(2, 3))


def case_scatter_add_dim():
    x = torch.zeros(3, 4)
    idx = torch.zeros(2, 2, dtype=torch.long)
    # expect-error@+1: scatter_add_c1
    torch.scatter_add(x, 2, idx, torch.zeros(2, 2))


def case_scatter_add_rank():
    x = torch.zeros(3, 4)
    idx = torch.zeros(2, dtype=torch.long)
    # expect-error@+1: scatter_add_c2
    x.scatter_add_(0, idx, torch.zeros(2))


def case_scatter_add_larger_index():
    x = torch.zeros(3, 4)
    idx = torch.zeros(4, 2, dtype=torch.long)
    # expect-error@+1: scatter_add_c3
    torch.scatter_add(x, 1, idx, torch.zeros(4, 2))


def case_scatter_add_empty_axis():
    x = torch.zeros(0, 4)
    idx = torch.zeros(1, 4, dtype=torch.long)
    # expect-error@+1: scatter_add_c4
    x.scatter_add(0, idx, torch.zeros(1, 4))


def case_masked_select_mask():
    x = torch.zeros(2, 3)
    mask = torch.zeros(2, dtype=torch.bool)
    # expect-error@+2: broadcast_c1
    # expect-help@+1: unsqueeze
    torch.masked_select(x, mask)


def case_one_hot_empty():
    labels = torch.zeros(0, dtype=torch.long)
    # expect-error@+1: one_hot_c1
    F.one_hot(labels)


def case_one_hot_zero_classes():
    labels = torch.zeros(4, dtype=torch.long)
    # expect-error@+1: one_hot_c1
    F.one_hot(labels, 0)

def case_take_along_dim_rank():
    x = torch.zeros(2, 3)
    idx = torch.zeros(2, dtype=torch.long)
    # expect-error@+1: take_along_dim_c1
    torch.take_along_dim(x, idx, 1)


def case_take_along_dim_dim():
    x = torch.zeros(2, 3)
    idx = torch.zeros(2, 1, dtype=torch.long)
    # expect-error@+1: take_along_dim_c2
    x.take_along_dim(idx, 2)


def case_take_along_dim_broadcast():
    x = torch.zeros(2, 3)
    idx = torch.zeros(3, 1, dtype=torch.long)
    # expect-error@+1: broadcast_c1
    torch.take_along_dim(x, idx, 1)


def case_take_along_dim_empty_axis():
    x = torch.zeros(2, 0)
    idx = torch.zeros(2, 1, dtype=torch.long)
    # expect-error@+1: take_along_dim_c3
    torch.take_along_dim(x, idx, 1)


def case_bucketize_boundaries():
    x = torch.zeros(2, 5)
    edges = torch.zeros(2, 3)
    # expect-error@+1: bucketize_c1
    torch.bucketize(x, edges)


def case_searchsorted_side():
    seq = torch.zeros(5)
    x = torch.zeros(3)
    # expect-error@+1: searchsorted_c1
    torch.searchsorted(seq, x, right=True, side="left")


def case_searchsorted_sorter():
    seq = torch.zeros(5)
    x = torch.zeros(3)
    order = torch.zeros(4, dtype=torch.long)
    # expect-error@+1: searchsorted_c2
    torch.searchsorted(seq, x, sorter=order)


def case_searchsorted_scalar():
    seq = torch.zeros(2, 5)
    x = torch.zeros(())
    # expect-error@+2: searchsorted_c3
    # expect-error@+1: searchsorted_c5
    torch.searchsorted(seq, x)


def case_searchsorted_no_axis():
    seq = torch.zeros(())
    x = torch.zeros(3)
    # expect-error@+2: searchsorted_c4
    # expect-error@+1: searchsorted_c5
    torch.searchsorted(seq, x)


def case_searchsorted_leading():
    seq = torch.zeros(2, 5)
    x = torch.zeros(3, 4)
    # expect-error@+1: searchsorted_c5
    torch.searchsorted(seq, x)

if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
