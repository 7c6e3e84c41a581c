"""Losses, each constraint violated once."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_reduction():
    x = torch.zeros(4, 3)
    # expect-error@+1: reduction_c1
    F.mse_loss(x, x, reduction="max")


def case_nll_scalar_input():
    # expect-error@+1: nll_loss_c1
    F.nll_loss(torch.tensor(1.0), torch.tensor(0))


def case_nll_target_rank():
    # expect-error@+1: nll_loss_c2
    F.nll_loss(torch.zeros(4, 10), torch.zeros(4, 1, dtype=torch.long))


def case_nll_spatial():
    criterion = nn.NLLLoss()
    # expect-error@+1: nll_loss_c3
    criterion(torch.zeros(4, 7, 12), torch.zeros(4, 7, dtype=torch.long))


def case_nll_batch():
    # expect-error@+1: nll_loss_c4
    F.nll_loss(torch.zeros(4, 10), torch.zeros(3, dtype=torch.long))


def case_nll_weight():
    # expect-error@+1: nll_loss_c5
    F.nll_loss(torch.zeros(4, 10), torch.zeros(4, dtype=torch.long), weight=torch.ones(9))


def case_ce_scalar_input():
    # expect-error@+1: cross_entropy_c1
    F.cross_entropy(torch.tensor(1.0), torch.tensor(1.0))


def case_ce_target_rank():
    # expect-error@+1: cross_entropy_c2
    F.cross_entropy(torch.zeros(4, 10, 3, 3), torch.zeros(4, 3, dtype=torch.long))


def case_ce_spatial():
    # expect-error@+1: cross_entropy_c3
    F.cross_entropy(torch.zeros(4, 10, 5), torch.zeros(4, 6, dtype=torch.long))


def case_ce_batch():
    criterion = nn.CrossEntropyLoss()
    # expect-error@+1: cross_entropy_c4
    criterion(torch.zeros(8, 10), torch.zeros(6, dtype=torch.long))


def case_ce_weight():
    # expect-error@+1: cross_entropy_c5
    F.cross_entropy(torch.zeros(4, 3), torch.zeros(4, 3), weight=torch.ones(4))


def case_ce_label_smoothing():
    # expect-error@+1: cross_entropy_c6
    F.cross_entropy(torch.zeros(4, 3), torch.zeros(4, dtype=torch.long), label_smoothing=1.5)


def case_mse_broadcast():
    # expect-error@+2: broadcast_c1
    # expect-help@+1: unsqueeze
    F.mse_loss(torch.zeros(4, 3), torch.zeros(4))


def case_smooth_l1_beta():
    x = torch.zeros(3)
    # expect-error@+1: smooth_l1_loss_c1
    F.smooth_l1_loss(x, x, beta=-1.0)


def case_huber_delta():
    criterion = nn.HuberLoss(delta=0.0)
    x = torch.zeros(3)
    # expect-error@+1: huber_loss_c1
    criterion(x, x)


def case_bce_size():
    criterion = nn.BCELoss()
    # expect-error@+1: binary_cross_entropy_c1
    criterion(torch.zeros(8), torch.zeros(8, 1))


def case_bce_weight():
    x = torch.zeros(8)
    # expect-error@+1: binary_cross_entropy_c2
    F.binary_cross_entropy(x, x, weight=torch.ones(2, 8))


def case_bce_logits_size():
    # expect-error@+1: binary_cross_entropy_with_logits_c1
    F.binary_cross_entropy_with_logits(torch.zeros(8), torch.zeros(4))


def case_bce_logits_pos_weight():
    criterion = nn.BCEWithLogitsLoss(pos_weight=torch.ones(3))
    x = torch.zeros(2, 4)
    # expect-error@+1: binary_cross_entropy_with_logits_c2
    criterion(x, x)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
