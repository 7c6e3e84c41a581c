"""flatten, unflatten, permute, transpose, t, squeeze, unsqueeze, expand,
expand_as, repeat, each constraint violated once."""
import torch


def case_flatten_start():
    x = torch.zeros(2, 3)
    # expect-error@+1: flatten_c1
    torch.flatten(x, -3, -1)


def case_flatten_end():
    x = torch.zeros(2, 3)
    # expect-error@+1: flatten_c2
    x.flatten(0, 3)


def case_flatten_order():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: flatten_c3
    x.flatten(2, 1)


def case_unflatten_scalar():
    x = torch.tensor(3.0)
    # expect-error@+1: unflatten_c0
    x.unflatten(0, (1, 1))


def case_unflatten_dim():
    x = torch.zeros(2, 6)
    # expect-error@+1: unflatten_c1
    x.unflatten(2, (2, 3))


def case_unflatten_empty_sizes():
    x = torch.zeros(2, 6)
    # expect-error@+1: unflatten_c2
    x.unflatten(1, ())


def case_unflatten_two_inferred():
    x = torch.zeros(2, 6)
    # expect-error@+1: unflatten_c3
    x.unflatten(1, (-1, -1))


def case_unflatten_negative():
    x = torch.zeros(2, 6)
    # expect-error@+1: unflatten_c4
    x.unflatten(1, (-2, -3))


def case_unflatten_infer_zero():
    x = torch.zeros(2, 0)
    # expect-error@+1: unflatten_c5
    x.unflatten(1, (0, -1))


def case_unflatten_not_divisible():
    x = torch.zeros(2, 6)
    # expect-error@+1: unflatten_c6
    x.unflatten(1, (4, -1))


def case_unflatten_wrong_product():
    x = torch.zeros(3)
    # expect-error@+1: unflatten_c7
    x.unflatten(0, (2, 2))


def case_permute_length():
    x = torch.zeros(2, 3)
    # expect-error@+1: permute_c1
    x.permute(0, 1, 2)


def case_permute_range():
    x = torch.zeros(2, 3)
    # expect-error@+1: permute_c2
    x.permute(0, 2)


def case_permute_repeat():
    x = torch.zeros(2, 3)
    # expect-error@+1: permute_c3
    torch.permute(x, (1, 1))


def case_transpose_dim0():
    x = torch.zeros(2, 3)
    # expect-error@+1: transpose_c1
    torch.transpose(x, 2, 0)


def case_transpose_dim1():
    x = torch.zeros(2, 3)
    # expect-error@+1: transpose_c2
    x.transpose(0, -3)


def case_t():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: t_c1
    x.t()


def case_t_in_place():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: t_c1
    x.t_()


def case_unsqueeze_in_place():
    x = torch.zeros(2, 3)
    # expect-error@+1: unsqueeze_c1
    x.unsqueeze_(4)


def case_transpose_in_place():
    x = torch.zeros(2, 3)
    # expect-error@+1: transpose_c1
    x.swapaxes_(2, 0)


def case_matrix_transpose():
    x = torch.zeros(4)
    # expect-error@+1: mt_c1
    x.mT


def case_adjoint():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: adjoint_c1
    x.H


def case_squeeze():
    x = torch.zeros(2, 1)
    # expect-error@+1: squeeze_c1
    x.squeeze(2)


def case_unsqueeze():
    x = torch.zeros(2, 3)
    # expect-error@+1: unsqueeze_c1
    x.unsqueeze(3)


def case_expand_too_few():
    x = torch.zeros(2, 3)
    # expect-error@+1: expand_c1
    x.expand(3)


def case_expand_new_negative():
    x = torch.zeros(3)
    # expect-error@+1: expand_c2
    x.expand(-1, 3)


def case_expand_mismatch():
    x = torch.zeros(2, 3)
    # expect-error@+1: expand_c3
    x.expand(2, 4)


def case_expand_as_too_few():
    x = torch.zeros(2, 3)
    # expect-error@+1: expand_as_c1
    x.expand_as(torch.zeros(3))


def case_expand_as_mismatch():
    x = torch.zeros(2, 3)
    # expect-error@+1: expand_as_c3
    x.expand_as(torch.zeros(2, 4))


def case_repeat_too_few():
    x = torch.zeros(2, 3)
    # expect-error@+1: repeat_c1
    x.repeat(2)


def case_repeat_negative():
    x = torch.zeros(3)
    # expect-error@+1: repeat_c2
    x.repeat(-1)


def case_view_as_complex_last_axis():
    x = torch.zeros(4, 3)
    # expect-error@+1: view_as_complex_c2
    torch.view_as_complex(x)


def case_view_as_complex_scalar():
    x = torch.tensor(1.0)
    # expect-error@+1: view_as_complex_c1
    torch.view_as_complex(x)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
