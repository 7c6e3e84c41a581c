"""Indexing, assigning into a tensor, unpacking tensors (into names and in
a loop's target), a tensor's truth and its conversion to a number, size
queries and TensorDataset, each constraint violated once."""
import torch
from torch.utils.data import TensorDataset


def case_too_many_indices():
    h = torch.zeros(2, 3)
    # expect-error@+1: getitem_c1
    h[0, 1, 2]


def case_index_out_of_bounds():
    h = torch.zeros(2, 3)
    # expect-error@+1: getitem_c2
    h[1, 3]


def case_size_index():
    x = torch.zeros(2, 3)
    # expect-error@+1: getitem_c3
    x.shape[2]


def case_assign_too_many_indices():
    h = torch.zeros(2, 3)
    # expect-error@+1: setitem_c1
    h[0, 1, 2] = 1.0


def case_assign_index_out_of_bounds():
    h = torch.zeros(2, 3)
    # expect-error@+1: setitem_c2
    h[2] = 1.0


def case_assign_leading_axis():
    pe = torch.zeros(4, 6)
    # expect-error@+1: setitem_c3
    pe[1] = torch.ones(2, 6)


def case_assign_into_a_slice():
    pe = torch.zeros(4, 6)
    # expect-error@+1: setitem_c4
    pe[:, 0::2] = torch.ones(4, 6)


def case_mask_of_other_axes():
    x = torch.zeros(5, 3)
    mask = x[0] > 0
    # expect-error@+1: getitem_c5
    x[mask]


def case_index_tensors_do_not_broadcast():
    x = torch.zeros(5, 3)
    rows = torch.arange(2)
    cols = torch.arange(3)
    # expect-error@+1: getitem_c6
    x[rows, cols]


def case_too_many_advanced_indices():
    x = torch.zeros(5, 3)
    mask = torch.zeros(5, 3, 2) > 0
    # expect-error@+1: getitem_c1
    x[mask]


def case_assign_through_a_wrong_mask():
    x = torch.zeros(5, 3)
    mask = x[0] > 0
    # expect-error@+1: setitem_c5
    x[mask] = 0.0


def case_assign_index_tensors_do_not_broadcast():
    x = torch.zeros(5, 3)
    rows = torch.arange(2)
    cols = torch.arange(3)
    # expect-error@+1: setitem_c6
    x[rows, cols] = 1.0


def case_assign_wrong_value_by_positions():
    x = torch.zeros(5, 3)
    rows = torch.arange(2)
    # expect-error@+1: setitem_c4
    x[rows] = torch.ones(3, 3)


def case_unpack_pieces():
    y = torch.zeros(2, 4)
    # expect-error@+1: unpack_c1
    a, b, c = y.chunk(3, dim=-1)


def case_unpack_scalar():
    # expect-error@+1: unpack_c2
    a, b = torch.tensor(1.0)


def case_size_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: size_c1
    x.size(2)


def case_dataset_scalar():
    # expect-error@+1: tensordataset_c1
    TensorDataset(torch.zeros(4), torch.tensor(1.0))


def case_dataset_mismatch():
    # expect-error@+1: tensordataset_c2
    TensorDataset(torch.zeros(10, 3), torch.zeros(9))


def case_loop_unpack_rows():
    boxes = torch.zeros(5, 4)
    # expect-error@+1: iter_unpack_c1
    for x0, y0, x1 in boxes: pass


def case_loop_over_scalar():
    # expect-error@+1: iter_unpack_c2
    for a, b in torch.tensor(1.0): pass


def case_loop_unpack_scalar_rows():
    # expect-error@+1: iter_unpack_c3
    for a, b in torch.zeros(3): pass


def case_truth_of_several():
    v = torch.zeros(3)
    # expect-error@+1: truth_c1
    if v > 0: pass


def case_item_of_several():
    loss = torch.zeros(4)
    # expect-error@+1: item_c1
    loss.item()


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
