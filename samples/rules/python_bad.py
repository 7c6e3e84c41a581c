"""Indexing, size queries and TensorDataset, each constraint violated once."""
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


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
