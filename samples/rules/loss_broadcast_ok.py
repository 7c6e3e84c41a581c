"""loss_broadcast_c1: an element-wise loss whose input and target broadcast
to a shape larger than the input ([N, 1] against [N] gives [N, N]) compares
every prediction with every target. PyTorch only warns ("Using a target
size ... that is different to the input size") and returns a wrong loss, so
gshape gives a warning (no error, no run-time check) when it is certain.
Every case runs under PyTorch; the near misses at the end get nothing."""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="Using a target size")


def case_mse_column_against_vector():
    prediction = torch.randn(8, 1)
    target = torch.randn(8)
    F.mse_loss(prediction, target)  # expect-warning: loss_broadcast_c1


def case_l1_module():
    criterion = nn.L1Loss()
    criterion(torch.randn(8, 1), torch.randn(8))  # expect-warning: loss_broadcast_c1


def case_smooth_l1_extra_target_axis():
    F.smooth_l1_loss(torch.randn(4), torch.randn(3, 4))  # expect-warning: loss_broadcast_c1


def case_huber_module():
    criterion = nn.HuberLoss()
    criterion(torch.randn(16, 1), torch.randn(16))  # expect-warning: loss_broadcast_c1


def case_mse_module_in_a_model():
    model = nn.Linear(5, 1)
    x = torch.randn(32, 5)
    y = torch.randn(32)
    criterion = nn.MSELoss()
    criterion(model(x), y)  # expect-warning: loss_broadcast_c1


# near misses: no warning


def case_same_shapes():
    F.mse_loss(torch.randn(8, 1), torch.randn(8, 1))


def case_target_broadcast_to_the_input():
    F.mse_loss(torch.randn(8, 3), torch.randn(3))  # the result has the input's shape


def case_squeezed_prediction():
    model = nn.Linear(5, 1)
    criterion = nn.MSELoss()
    criterion(model(torch.randn(32, 5)).squeeze(-1), torch.randn(32))


def mse_of_unknown_sizes(prediction, target):
    # analysed without callers: sizes unknown, so nothing is certain
    return F.mse_loss(prediction.view(-1, 1), target.view(-1))


# loss_broadcast_c2: an element-wise op of an [N, 1] and an [N] tensor gives
# [N, N], larger than both; when that result feeds a mean, a sum or a loss
# (directly or through ops of it alone: ** 2, abs, a scale), the warning is
# at the op, with the squeeze help


def case_hand_written_mse_of_a_column_prediction():
    model = nn.Linear(5, 1)
    prediction = model(torch.randn(32, 5))
    target = torch.randn(32)
    error = prediction - target  # expect-warning: loss_broadcast_c2  expect-help: squeeze
    (error ** 2).mean()


def case_in_one_expression():
    prediction = torch.randn(16, 1)
    target = torch.randn(16)
    ((prediction - target).pow(2)).mean()  # expect-warning: loss_broadcast_c2  expect-help: squeeze


def case_scaled_then_summed():
    prediction = torch.randn(16, 1)
    target = torch.randn(16)
    half = 0.5 * (target - prediction) ** 2  # expect-warning: loss_broadcast_c2  expect-help: squeeze
    half.sum()


def case_fed_to_a_loss():
    prediction = torch.randn(8, 1)
    target = torch.randn(8)
    F.l1_loss(prediction * target, torch.zeros(8, 8))  # expect-warning: loss_broadcast_c2  expect-help: squeeze


# near misses of loss_broadcast_c2: no warning


def case_pairwise_differences_are_meant():
    x = torch.randn(8)
    (x[:, None] - x).pow(2).mean()
    column = x.unsqueeze(1)
    (column - x).abs().sum()


def case_broadcast_not_reduced():
    prediction = torch.randn(8, 1)
    target = torch.randn(8)
    table = prediction - target
    table.mean(dim=1)


def case_equal_shapes():
    prediction = torch.randn(8, 1).squeeze(1)
    ((prediction - torch.randn(8)) ** 2).mean()


def case_a_column_against_a_single_value():
    ((torch.randn(8, 1) - torch.randn(1)) ** 2).mean()
