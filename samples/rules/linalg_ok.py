"""Matrix products where every constraint holds: no diagnostic."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_products():
    a, b = torch.zeros(2, 3), torch.zeros(3, 4)
    return (a @ b, torch.matmul(torch.zeros(5, 2, 3), torch.zeros(3)), torch.mm(a, b),
            torch.bmm(torch.zeros(5, 2, 3), torch.zeros(5, 3, 4)), torch.addmm(torch.zeros(4), a, b))


def case_linear():
    x = torch.zeros(8, 3)
    fc = nn.Linear(3, 5)
    return fc(x), F.linear(x, torch.zeros(5, 3), torch.zeros(5))


def case_einsum():
    a, b = torch.zeros(2, 3), torch.zeros(3, 4)
    return torch.einsum("ij,jk->ik", a, b), torch.einsum("...j,jk", torch.zeros(5, 2, 3), b)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
