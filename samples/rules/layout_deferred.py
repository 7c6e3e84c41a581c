"""view_c6: a view must be expressible with the input's strides. A tensor
transposed, expanded or sliced (or one of unknown origin) may not be laid
out contiguously. gshape knows the strides of a transpose or permute of a
contiguous tensor of constant sizes (a view of it is an error: help_bad.py),
but follows them no further, so the views below are run-time checks
(deferred), never static errors, unless they only split axes (always
possible). Running this file fails at each case's last line."""
import torch


def case_view_of_an_elementwise_result_of_a_permute():
    x = torch.zeros(2, 3, 4)
    y = x.permute(2, 0, 1) * 2  # element-wise ops keep their input's strides
    y.view(24)  # view_c6, deferred


def case_view_of_an_expand():
    x = torch.zeros(3, 1)
    x.expand(3, 5).view(15)  # view_c6, deferred


def case_view_of_a_column_slice():
    x = torch.zeros(4, 6)
    x[:, 1:4].view(12)  # view_c6, deferred


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
# expect-deferred: 3
