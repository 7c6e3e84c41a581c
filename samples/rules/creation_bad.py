"""Tensor creation, each constraint violated once."""
import torch


def case_zeros():
    # expect-error@+1: zeros_c1
    torch.zeros(2, -1)


def case_ones():
    # expect-error@+1: ones_c1
    torch.ones((-2, 3))


def case_empty():
    # expect-error@+1: empty_c1
    torch.empty(-1)


def case_rand():
    # expect-error@+1: rand_c1
    torch.rand(3, -3)


def case_randn():
    # expect-error@+1: randn_c1
    torch.randn([-1])


def case_full():
    # expect-error@+1: full_c1
    torch.full((-1, 2), 0.5)


def case_new_zeros():
    x = torch.zeros(2)
    # expect-error@+1: new_zeros_c1
    x.new_zeros(-1)


def case_new_ones():
    x = torch.zeros(2)
    # expect-error@+1: new_ones_c1
    x.new_ones((2, -2))


def case_new_empty():
    x = torch.zeros(2)
    # expect-error@+1: new_empty_c1
    x.new_empty(-3)


def case_new_full():
    x = torch.zeros(2)
    # expect-error@+1: new_full_c1
    x.new_full((-1,), 1.0)


def case_arange_step():
    # a zero step also has no sign: both constraints fail
    # expect-error@+2: arange_c1
    # expect-error@+1: arange_c2
    torch.arange(0, 5, 0)


def case_arange_sign():
    # expect-error@+1: arange_c2
    torch.arange(5, 0, 1)


def case_range_step():
    # expect-error@+2: range_c1
    # expect-error@+1: range_c2
    torch.range(0, 5, 0)


def case_range_sign():
    # expect-error@+1: range_c2
    torch.range(0, 5, -1)


def case_pyrange():
    # expect-error@+1: pyrange_c1
    range(0, 5, 0)


def case_eye_n():
    # expect-error@+1: eye_c1
    torch.eye(-1)


def case_eye_m():
    # expect-error@+1: eye_c2
    torch.eye(2, -3)


def case_randint_bounds():
    # expect-error@+1: randint_c1
    torch.randint(5, 3, (2,))


def case_randint_size():
    # expect-error@+1: randint_c2
    torch.randint(0, 3, (2, -1))



def case_linspace():
    # expect-error@+1: linspace_c1
    torch.linspace(0, 1, -2)


def case_logspace():
    # expect-error@+1: logspace_c1
    torch.logspace(0, 1, -1)


def case_randperm():
    # expect-error@+1: randperm_c1
    torch.randperm(-3)


def case_meshgrid_empty():
    # expect-error@+1: meshgrid_c1
    torch.meshgrid([])


def case_meshgrid_rank():
    # expect-error@+1: meshgrid_c2
    torch.meshgrid(torch.zeros(2, 2), torch.arange(3), indexing="ij")


def case_meshgrid_indexing():
    # expect-error@+1: meshgrid_c3
    torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ji")


def case_multinomial_rank():
    # expect-error@+1: multinomial_c1
    torch.multinomial(torch.ones(2, 3, 4), 1)


def case_multinomial_no_samples():
    probs = torch.ones(3)
    # expect-error@+1: multinomial_c2
    probs.multinomial(0)


def case_multinomial_too_many():
    # expect-error@+1: multinomial_c3
    torch.multinomial(torch.ones(4, 10), 11)


def case_multinomial_categories():
    # expect-error@+1: multinomial_c4
    torch.multinomial(torch.ones(0, 2 ** 24 + 1), 1, replacement=True)


def case_multinomial_no_category():
    # expect-error@+1: multinomial_c5
    torch.multinomial(torch.ones(2, 0), 1, replacement=True)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
