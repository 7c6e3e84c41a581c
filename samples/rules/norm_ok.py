"""Normalisation where every constraint holds: no diagnostic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_batch_norm():
    bn1, bn2 = nn.BatchNorm1d(4), nn.BatchNorm2d(3)
    stats = torch.zeros(4), torch.ones(4)
    return (bn1(torch.zeros(8, 4)), bn1(torch.zeros(2, 4, 5)), bn2(torch.zeros(2, 3, 4, 4)),
            F.batch_norm(torch.zeros(2, 4), *stats), F.batch_norm(torch.zeros(3, 4, 2), None, None, training=True))


def case_layer_norm():
    ln = nn.LayerNorm((3, 4))
    return ln(torch.zeros(2, 3, 4)), F.layer_norm(torch.zeros(5, 6), (6,), torch.ones(6), torch.zeros(6))


def case_group_norm():
    gn = nn.GroupNorm(2, 6)
    return gn(torch.zeros(2, 6, 5)), F.group_norm(torch.zeros(3, 4), 2, torch.ones(4))



def case_instance_norm():
    inorm, affine, tracked = nn.InstanceNorm2d(3), nn.InstanceNorm1d(4, affine=True), nn.InstanceNorm3d(2, track_running_stats=True)
    # without parameters or statistics another channel count is accepted; a
    # sample without a batch axis is a batch of one; an empty batch is fine
    return (inorm(torch.zeros(2, 3, 4, 4)), inorm(torch.zeros(3, 4, 4)), inorm(torch.zeros(2, 5, 4, 4)),
            affine(torch.zeros(2, 4, 5)), affine(torch.zeros(4, 5)), tracked(torch.zeros(1, 2, 2, 2, 2)),
            tracked(torch.zeros(0, 2, 2, 2, 2)))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
