"""view / reshape / view_as / reshape_as, each constraint violated once."""
import torch


def case_view_two_inferred():
    x = torch.zeros(2, 3)
    # expect-error@+1: view_c1
    x.view(-1, -1)


def case_view_negative_size():
    x = torch.zeros(2, 3)
    # expect-error@+1: view_c2
    x.view(-2, -3)


def case_view_infer_from_zero():
    x = torch.zeros(0, 3)
    # expect-error@+1: view_c3
    x.view(0, -1)


def case_view_not_divisible():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: view_c4
    x.view(5, -1)


def case_view_wrong_numel():
    x = torch.zeros(3, 4)
    # expect-error@+1: view_c5
    x.view(2, 5)


def case_reshape_two_inferred():
    x = torch.zeros(2, 3)
    # expect-error@+1: reshape_c1
    x.reshape(-1, -1)


def case_reshape_negative_size():
    x = torch.zeros(2, 3)
    # expect-error@+1: reshape_c2
    torch.reshape(x, (-3, -2))


def case_reshape_infer_from_zero():
    x = torch.zeros(0, 4)
    # expect-error@+1: reshape_c3
    x.reshape(-1, 0)


def case_reshape_not_divisible():
    x = torch.zeros(2, 5)
    # expect-error@+1: reshape_c4
    x.reshape(3, -1)


def case_reshape_wrong_numel():
    x = torch.zeros(2, 5)
    # expect-error@+1: reshape_c5
    torch.reshape(x, (3, 3))


def case_view_as():
    x = torch.zeros(5)
    # expect-error@+1: view_as_c1
    x.view_as(torch.zeros(3, 2))


def case_reshape_as():
    x = torch.zeros(5)
    # expect-error@+1: reshape_as_c1
    x.reshape_as(torch.zeros(2, 2))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
