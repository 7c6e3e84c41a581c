"""view / reshape / view_as / reshape_as where every constraint holds
(view_c1-c5, reshape_c1-c5, view_as_c1, reshape_as_c1): no diagnostic."""
import torch


def case_view():
    x = torch.zeros(2, 3, 4)
    a = x.view(6, -1)        # one -1, the rest divides 24
    b = x.view(24)           # no -1: the product is 24
    c = x.view(2, 0 + 12)    # sizes non-negative
    return a, b, c


def case_reshape():
    x = torch.zeros(2, 3, 4)
    return x.reshape(-1, 4), torch.reshape(x, (4, 6))


def case_views_the_strides_allow():
    x = torch.zeros(2, 3, 4)
    a = x.transpose(1, 2).contiguous().view(2, 12)  # contiguous again (view_c6)
    q, k = torch.zeros(2, 5, 16).split(8, dim=2)     # non-contiguous halves ...
    b = q.view(2, 5, 2, 4)                            # ... whose last axis is only split (view_c6)
    c = x.transpose(0, 2).view(4, 3, 2)               # no axis merged or split
    return a, b, c


def case_like():
    x = torch.zeros(2, 6)
    return x.view_as(torch.zeros(3, 4)), x.reshape_as(torch.zeros(12))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
