"""triu, tril, flip, fliplr, flipud, roll, movedim, tile, repeat_interleave,
diagonal, diag, broadcast_to, broadcast_tensors, atleast_*, ravel, unfold
where every constraint holds: no diagnostic."""
import torch


def case_triangles():
    x = torch.zeros(3, 4)
    n = 5
    mask = torch.triu(torch.ones(n, n), diagonal=1) * -1e9   # a causal mask
    return torch.triu(x), x.tril(-1), torch.zeros(2, 3, 3).triu_(1), x.tril_(), torch.tril(torch.zeros(0)), mask


def case_flips():
    x = torch.zeros(2, 3, 4)
    return torch.flip(x, (0, -1)), x.flip(1), torch.fliplr(x), x.flipud(), torch.flip(x, ())


def case_roll():
    x = torch.zeros(2, 3)
    return torch.roll(x, 1), x.roll((1, 2), (0, 1)), torch.roll(x, -1, -2), torch.roll(torch.zeros(0, 3), 1, 5)


def case_movedim():
    x = torch.zeros(2, 3, 4)
    return torch.movedim(x, (0, 1), (2, 0)), x.movedim(-1, 0), torch.moveaxis(x, 0, -1)


def case_tile_repeat_interleave():
    x = torch.zeros(2, 3)
    return (torch.tile(x, (2,)), x.tile(2, 1, 2), torch.tile(torch.zeros(4, 0), (1, 1, -1)),
            torch.repeat_interleave(x, 2), x.repeat_interleave(3, dim=-1), torch.repeat_interleave(x, 0, 0))


def case_diagonals():
    x = torch.zeros(2, 3, 4)
    return (torch.diagonal(x), x.diagonal(1, -1, 0), torch.diagonal(x, -5, 1, 2), torch.diag(torch.zeros(3)),
            torch.zeros(2, 3).diag(3), torch.diag(torch.zeros(3, 3), -1))


def case_broadcast_unfold():
    x = torch.zeros(3)
    a, b = torch.broadcast_tensors(torch.zeros(2, 1), x)
    windows = torch.zeros(2, 7).unfold(1, 3, 2)     # [2, 3, 3]
    return (torch.broadcast_to(x, (2, 3)), x.broadcast_to((4, -1)), a + b, windows.sum(-1),
            torch.atleast_2d(x), torch.atleast_3d(torch.zeros(2, 3)), torch.atleast_1d(torch.tensor(1.0)),
            torch.ravel(torch.zeros(2, 3)), torch.tensor(1.0).unfold(0, 1, 1))



# expect-deferred: 0
if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
