"""Normalisation, each constraint violated once."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_bn_negative():
    # expect-error@+1: nn_batch_norm_c1
    nn.BatchNorm2d(-3)


def case_bn_rank():
    bn = nn.BatchNorm2d(3)
    # expect-error@+1: batch_norm_c1
    bn(torch.zeros(2, 3, 4))


def case_bn_channels():
    bn = nn.BatchNorm1d(4)
    # expect-error@+1: batch_norm_c2
    bn(torch.zeros(8, 5))


def case_bn_one_value():
    # a module is in training mode until .eval(): gshape reads the mode at run time,
    # the functional form says it
    # expect-error@+1: batch_norm_c3
    F.batch_norm(torch.zeros(1, 4), None, None, training=True)


def case_bn_eval_without_stats():
    # expect-error@+1: batch_norm_c4
    F.batch_norm(torch.zeros(2, 4), None, None)


def case_ln_negative():
    # expect-error@+1: nn_layer_norm_c1
    nn.LayerNorm(-2)


def case_ln_empty_shape():
    ln = nn.LayerNorm(())
    # expect-error@+1: layer_norm_c1
    ln(torch.zeros(2, 3))


def case_ln_weight():
    # expect-error@+1: layer_norm_c2
    F.layer_norm(torch.zeros(2, 4), (4,), torch.ones(3))


def case_ln_input():
    ln = nn.LayerNorm(10)
    # expect-error@+1: layer_norm_c3
    ln(torch.zeros(2, 3, 4))


def case_gn_divisible():
    # expect-error@+1: nn_group_norm_c1
    nn.GroupNorm(4, 6)


def case_gn_negative():
    # expect-error@+1: nn_group_norm_c2
    nn.GroupNorm(1, -2)


def case_gn_rank():
    # expect-error@+1: group_norm_c1
    F.group_norm(torch.zeros(4), 2)


def case_gn_channels_divisible():
    # expect-error@+1: group_norm_c2
    F.group_norm(torch.zeros(2, 5), 2)


def case_gn_channels():
    gn = nn.GroupNorm(2, 6)
    # expect-error@+1: group_norm_c3
    gn(torch.zeros(2, 4, 3))


def case_gn_one_value():
    gn = nn.GroupNorm(2, 2)
    # expect-error@+1: group_norm_c4
    gn(torch.zeros(1, 2))



def case_in_negative():
    # expect-error@+1: nn_instance_norm_c1
    nn.InstanceNorm2d(-3, affine=True)


def case_in_rank():
    inorm = nn.InstanceNorm2d(3)
    # expect-error@+1: instance_norm_c1
    inorm(torch.zeros(2, 3, 4, 4, 4))


def case_in_one_spatial_element():
    inorm = nn.InstanceNorm2d(3)
    # expect-error@+1: instance_norm_c2
    inorm(torch.zeros(2, 3, 1, 1))


def case_in_channels():
    inorm = nn.InstanceNorm1d(4, affine=True)
    # expect-error@+1: instance_norm_c3
    inorm(torch.zeros(2, 5, 3))


def case_in_empty_batch_with_weight():
    inorm = nn.InstanceNorm2d(3, affine=True)
    # expect-error@+1: instance_norm_c4
    inorm(torch.zeros(0, 3, 4, 4))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
