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
