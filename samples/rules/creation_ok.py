"""Tensor creation where every constraint holds: no diagnostic."""
import torch


def case_sizes():
    x = torch.zeros(2, 3)
    return (torch.zeros(2, 3), torch.ones((0, 4)), torch.empty([2]), torch.rand(1, 1), torch.randn(3),
            torch.full((2, 2), 1.5), x.new_zeros(2), x.new_ones((1, 3)), x.new_empty(4), x.new_full((2,), 7.0))


def case_ranges():
    return (torch.arange(5), torch.arange(5, 1, -2), torch.range(0, 4), list(range(0, 10, 3)), torch.eye(3, 2),
            torch.randint(0, 5, (2, 3)))


def case_grids_and_permutations():
    ys, xs = torch.meshgrid(torch.arange(4), torch.arange(6), indexing="ij")
    a, b = torch.meshgrid([torch.arange(4), torch.tensor(2)], indexing="xy")
    grid = torch.stack((ys, xs), dim=-1) + torch.zeros(4, 6, 2)
    steps = torch.linspace(0, 1, 10) + torch.logspace(0, 2, 10) + torch.zeros(10)
    order = torch.randperm(7) + torch.zeros(7, dtype=torch.long)
    return grid, a + torch.zeros(1, 4), b, steps, order


def case_multinomial():
    probs = torch.ones(4, 10)
    one = torch.multinomial(probs, 3) + torch.zeros(4, 3, dtype=torch.long)
    many = probs.multinomial(20, replacement=True) + torch.zeros(4, 20, dtype=torch.long)
    flat = torch.multinomial(torch.ones(5), 5) + torch.zeros(5, dtype=torch.long)
    return one, many, flat, torch.multinomial(torch.ones(0, 0), 2, True)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
