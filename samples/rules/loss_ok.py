"""Losses where every constraint holds: no diagnostic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_class_losses():
    logits = torch.zeros(4, 10)
    target = torch.zeros(4, dtype=torch.long)
    seq = torch.zeros(4, 10, 7)
    seq_target = torch.zeros(4, 7, dtype=torch.long)
    return (F.cross_entropy(logits, target), nn.CrossEntropyLoss(weight=torch.ones(10))(logits, target),
            F.cross_entropy(logits, torch.zeros(4, 10), label_smoothing=0.1), F.nll_loss(seq, seq_target, reduction="none"),
            nn.NLLLoss()(torch.zeros(10), torch.tensor(3)))


def case_regression_losses():
    x, y = torch.zeros(8, 3), torch.zeros(8, 3)
    return (F.mse_loss(x, y), nn.L1Loss(reduction="sum")(x, y), F.smooth_l1_loss(x, y, beta=0.5),
            nn.HuberLoss(delta=2.0)(x, y), F.kl_div(x, y, reduction="batchmean"))


def case_binary_losses():
    p, t = torch.zeros(8), torch.zeros(8)
    return (nn.BCELoss()(p, t), F.binary_cross_entropy(p, t, weight=torch.ones(1)),
            nn.BCEWithLogitsLoss(pos_weight=torch.ones(8))(p, t))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
