"""flatten, unflatten, permute, transpose, t, squeeze, unsqueeze, expand,
expand_as, repeat where every constraint holds: no diagnostic."""
import torch


def case_flatten():
    x = torch.zeros(2, 3, 4)
    return torch.flatten(x, 1, -1), x.flatten(0, 1)


def case_unflatten():
    x = torch.zeros(2, 12)
    return x.unflatten(1, (3, 4)), x.unflatten(-1, (2, -1))


def case_permute_transpose():
    x = torch.zeros(2, 3, 4)
    return x.permute(2, 0, 1), torch.transpose(x, 0, 2), torch.zeros(3, 4).t(), x.swapaxes(1, 2)


def case_squeeze_unsqueeze():
    x = torch.zeros(2, 1, 3)
    return x.squeeze(1), torch.unsqueeze(x, 3), x.unsqueeze(-4)


def case_in_place():
    x = torch.zeros(2, 1, 3)
    x.squeeze_(1)
    x.unsqueeze_(0)
    x.transpose_(0, 2)
    x.t_() if x.dim() <= 2 else x.swapdims_(1, 2)
    return x


def case_matrix_transpose():
    x = torch.zeros(2, 3, 4)
    return x.mT, x.mH, torch.zeros(3, 4).H, torch.tensor(1.0).mT


def case_complex_views():
    z = torch.view_as_complex(torch.zeros(4, 3, 2))
    return z, torch.view_as_real(z)


def case_expand_repeat():
    x = torch.zeros(3, 1)
    return x.expand(2, 3, 4), x.expand(-1, 5), x.expand_as(torch.zeros(2, 3, 4)), x.repeat(2, 2, 3)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
