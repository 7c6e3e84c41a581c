"""triu, tril, flip, fliplr, flipud, roll, movedim, tile, repeat_interleave,
diagonal, diag, broadcast_to, broadcast_tensors, unfold, each constraint
violated once."""
import torch


def case_triu_vector():
    x = torch.zeros(3)
    # expect-error@+1: triu_c1
    torch.triu(x)


def case_tril_scalar():
    x = torch.tensor(1.0)
    # expect-error@+1: tril_c1
    x.tril_(1)


def case_flip_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: flip_c1
    torch.flip(x, (2,))


def case_flip_repeated():
    x = torch.zeros(2, 3)
    # expect-error@+1: flip_c2
    x.flip(0, -2)


def case_fliplr_vector():
    x = torch.zeros(4)
    # expect-error@+1: fliplr_c1
    torch.fliplr(x)


def case_flipud_scalar():
    x = torch.tensor(2.0)
    # expect-error@+1: flipud_c1
    x.flipud()


def case_roll_no_shift():
    x = torch.zeros(2, 3)
    # expect-error@+1: roll_c1
    torch.roll(x, ())


def case_roll_unaligned():
    x = torch.zeros(2, 3)
    # expect-error@+1: roll_c2
    x.roll((1, 2), 0)


def case_roll_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: roll_c3
    torch.roll(x, 1, 2)


def case_movedim_lengths():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: movedim_c1
    torch.movedim(x, (0, 1), 2)


def case_movedim_range():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: movedim_c2
    x.movedim(3, 0)


def case_movedim_source_twice():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: movedim_c3
    torch.movedim(x, (0, -3), (1, 2))


def case_moveaxis_destination_twice():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: movedim_c4
    torch.moveaxis(x, (0, 1), (2, -1))


def case_tile_negative():
    x = torch.zeros(2, 3)
    # expect-error@+1: tile_c1
    x.tile(1, -1)


def case_repeat_interleave_negative():
    x = torch.zeros(2, 3)
    # expect-error@+1: repeat_interleave_c1
    torch.repeat_interleave(x, -1, 1)


def case_repeat_interleave_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: repeat_interleave_c2
    x.repeat_interleave(2, dim=2)


def case_diagonal_dim1():
    x = torch.zeros(2, 3)
    # expect-error@+1: diagonal_c1
    torch.diagonal(x, 0, 2, 1)


def case_diagonal_dim2():
    x = torch.zeros(3)
    # expect-error@+1: diagonal_c2
    x.diagonal()


def case_diagonal_same_dims():
    x = torch.zeros(2, 3)
    # expect-error@+1: diagonal_c3
    torch.diagonal(x, dim1=0, dim2=-2)


def case_diag_rank():
    x = torch.zeros(2, 2, 2)
    # expect-error@+1: diag_c1
    torch.diag(x)


def case_diag_beyond_edge():
    x = torch.zeros(2, 3)
    # expect-error@+1: diag_c2
    x.diag(5)

def case_broadcast_to_too_few():
    x = torch.zeros(2, 3)
    # expect-error@+1: broadcast_to_c1
    torch.broadcast_to(x, (3,))


def case_broadcast_to_leading_negative():
    x = torch.zeros(3)
    # expect-error@+1: broadcast_to_c2
    x.broadcast_to((-1, 3))


def case_broadcast_to_mismatch():
    x = torch.zeros(2, 3)
    # expect-error@+1: broadcast_to_c3
    torch.broadcast_to(x, (2, 4))


def case_broadcast_tensors():
    a, b = torch.zeros(2, 3), torch.zeros(4)
    # expect-error@+1: broadcast_c1
    torch.broadcast_tensors(a, b)


def case_unfold_dim():
    x = torch.zeros(2, 7)
    # expect-error@+1: unfold_c1
    x.unfold(2, 3, 1)


def case_unfold_size():
    x = torch.zeros(2, 7)
    # expect-error@+1: unfold_c2
    x.unfold(1, 8, 1)


def case_unfold_step():
    x = torch.zeros(2, 7)
    # expect-error@+1: unfold_c3
    x.unfold(1, 3, 0)

if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
