"""cat, stack, split, chunk, unbind, each constraint violated once."""
import torch


def case_cat_empty_list():
    # expect-error@+1: cat_c1
    torch.cat([])


def case_cat_scalar():
    a = torch.tensor(1.0)
    # expect-error@+1: cat_c2
    torch.cat([a])


def case_cat_dim():
    a = torch.zeros(2, 3)
    # expect-error@+1: cat_c3
    torch.cat([a, a], 2)


def case_cat_ranks():
    a, b = torch.zeros(2, 3), torch.zeros(2, 3, 1)
    # expect-error@+1: cat_c4
    torch.cat([a, b])


def case_cat_sizes():
    a, b = torch.zeros(2, 3), torch.zeros(2, 4)
    # expect-error@+2: cat_c5
    # expect-help@+1: cat_dim
    torch.cat([a, b], 0)


def case_stack_empty_list():
    # expect-error@+1: stack_c1
    torch.stack([])


def case_stack_dim():
    a = torch.zeros(2, 3)
    # expect-error@+1: stack_c2
    torch.stack([a, a], 3)


def case_stack_sizes():
    a, b = torch.zeros(2, 3), torch.zeros(2, 4)
    # expect-error@+1: stack_c3
    torch.stack([a, b])


def case_split_scalar():
    x = torch.tensor(1.0)
    # expect-error@+1: split_c1
    torch.split(x, 1)


def case_split_dim():
    x = torch.zeros(4, 2)
    # expect-error@+1: split_c2
    x.split(2, 2)


def case_split_negative_size():
    x = torch.zeros(0)
    # expect-error@+1: split_c3
    torch.split(x, -1)


def case_split_zero_size():
    x = torch.zeros(5)
    # expect-error@+1: split_c4
    x.split(0)


def case_split_negative_section():
    x = torch.zeros(2)
    # expect-error@+1: split_c5
    torch.split(x, [3, -1])


def case_split_sections_sum():
    x = torch.zeros(10)
    # expect-error@+1: split_c6
    x.split([3, 8])


def case_chunk_scalar():
    x = torch.tensor(1.0)
    # expect-error@+1: chunk_c1
    torch.chunk(x, 2)


def case_chunk_zero():
    x = torch.zeros(4)
    # expect-error@+1: chunk_c2
    x.chunk(0)


def case_chunk_dim():
    x = torch.zeros(4)
    # expect-error@+1: chunk_c3
    torch.chunk(x, 2, 1)


def case_unbind():
    x = torch.zeros(4, 2)
    # expect-error@+1: unbind_c1
    torch.unbind(x, 2)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
