"""F.unfold / nn.Unfold and F.fold / nn.Fold (sliding blocks), each
constraint violated once."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_unfold_pair():
    x = torch.zeros(1, 2, 6, 6)
    # expect-error@+1: im2col_c0
    F.unfold(x, (2, 2, 2))


def case_unfold_kernel():
    x = torch.zeros(1, 2, 6, 6)
    # expect-error@+1: im2col_c1
    F.unfold(x, (2, 0))


def case_unfold_dilation():
    x = torch.zeros(1, 2, 6, 6)
    # expect-error@+1: im2col_c2
    F.unfold(x, 2, dilation=0)


def case_unfold_padding():
    x = torch.zeros(1, 2, 6, 6)
    # expect-error@+1: im2col_c3
    F.unfold(x, 2, padding=-1)


def case_unfold_stride():
    x = torch.zeros(1, 2, 6, 6)
    # expect-error@+1: im2col_c4
    F.unfold(x, 2, stride=0)


def case_unfold_rank():
    x = torch.zeros(1, 2, 3, 6, 6)
    # expect-error@+1: im2col_c5
    F.unfold(x, 2)


def case_unfold_empty():
    x = torch.zeros(1, 0, 6, 6)
    # expect-error@+1: im2col_c6
    F.unfold(x, 2)


def case_unfold_blocks():
    unfold = nn.Unfold(3)
    # expect-error@+1: im2col_c7
    unfold(torch.zeros(1, 2, 2, 2))


def case_fold_pair():
    cols = torch.zeros(1, 8, 9)
    # expect-error@+1: col2im_c0
    F.fold(cols, (4, 4, 4), 2)


def case_fold_kernel():
    cols = torch.zeros(1, 8, 9)
    # expect-error@+1: col2im_c1
    F.fold(cols, (4, 4), (2, 0))


def case_fold_dilation():
    cols = torch.zeros(1, 8, 9)
    # expect-error@+1: col2im_c2
    F.fold(cols, (4, 4), 2, dilation=0)


def case_fold_padding():
    cols = torch.zeros(1, 8, 9)
    # expect-error@+1: col2im_c3
    F.fold(cols, (4, 4), 2, padding=-1)


def case_fold_stride():
    cols = torch.zeros(1, 8, 9)
    # expect-error@+1: col2im_c4
    F.fold(cols, (4, 4), 2, stride=0)


def case_fold_rank():
    cols = torch.zeros(1, 1, 8, 9)
    # expect-error@+1: col2im_c5
    F.fold(cols, (4, 4), 2)


def case_fold_empty():
    cols = torch.zeros(1, 0, 9)
    # expect-error@+1: col2im_c6
    F.fold(cols, (4, 4), 2)


def case_fold_columns():
    cols = torch.zeros(1, 7, 9)
    # expect-error@+1: col2im_c7
    F.fold(cols, (4, 4), 2)


def case_fold_length():
    fold = nn.Fold((4, 4), 2)
    # expect-error@+1: col2im_c8
    fold(torch.zeros(1, 8, 10))


def case_fold_blocks():
    # (1 - 4) // 1 + 1 = -2 blocks on each axis: (-2) * (-2) = 4 matches the length
    cols = torch.zeros(1, 16, 4)
    # expect-error@+1: col2im_c9
    F.fold(cols, (1, 1), 4)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
