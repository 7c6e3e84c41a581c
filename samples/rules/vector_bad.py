"""dot, mv, outer, baddbmm, cdist, cosine_similarity, clamp_min, clamp_max_,
trace, addmv, addbmm, cross, tensordot, lerp, addcmul, logaddexp, each
constraint violated once."""
import torch
import torch.nn.functional as F


def case_dot_rank():
    a = torch.zeros(2, 3)
    # expect-error@+1: dot_c1
    torch.dot(a, torch.zeros(3))


def case_dot_length():
    a = torch.zeros(3)
    # expect-error@+1: dot_c2
    a.dot(torch.zeros(4))


def case_mv_rank():
    a = torch.zeros(3)
    # expect-error@+1: mv_c1
    torch.mv(a, torch.zeros(3))


def case_mv_length():
    a = torch.zeros(2, 3)
    # expect-error@+1: mv_c2
    a.mv(torch.zeros(4))


def case_outer_input():
    a = torch.zeros(2, 3)
    # expect-error@+1: outer_c1
    torch.outer(a, torch.zeros(2))


def case_ger_vec2():
    a = torch.zeros(3)
    # expect-error@+1: outer_c2
    a.ger(torch.tensor(1.0))


def case_baddbmm_batch1():
    b1, b2 = torch.zeros(4, 5), torch.zeros(2, 5, 3)
    # expect-error@+1: baddbmm_c1
    torch.baddbmm(torch.zeros(3), b1, b2)


def case_baddbmm_batch2():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(5, 3)
    # expect-error@+1: baddbmm_c2
    torch.baddbmm(torch.zeros(3), b1, b2)


def case_baddbmm_batch_size():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(3, 5, 3)
    # expect-error@+1: baddbmm_c3
    torch.baddbmm(torch.zeros(3), b1, b2)


def case_baddbmm_inner():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(2, 6, 3)
    # expect-error@+1: baddbmm_c4
    torch.zeros(3).baddbmm(b1, b2)


def case_baddbmm_input():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(2, 5, 3)
    # expect-error@+1: baddbmm_c5
    torch.baddbmm(torch.zeros(4, 4), b1, b2)


def case_cdist_x1():
    x1, x2 = torch.zeros(3), torch.zeros(5, 3)
    # expect-error@+1: cdist_c1
    torch.cdist(x1, x2)


def case_cdist_x2():
    x1, x2 = torch.zeros(4, 3), torch.zeros(3)
    # expect-error@+1: cdist_c2
    torch.cdist(x1, x2)


def case_cdist_columns():
    x1, x2 = torch.zeros(4, 3), torch.zeros(5, 4)
    # expect-error@+1: cdist_c3
    torch.cdist(x1, x2)


def case_cdist_p():
    x1, x2 = torch.zeros(4, 3), torch.zeros(5, 3)
    # expect-error@+1: cdist_c4
    torch.cdist(x1, x2, p=-1)


def case_cdist_batch():
    x1, x2 = torch.zeros(2, 4, 3), torch.zeros(3, 5, 3)
    # expect-error@+1: broadcast_c1
    torch.cdist(x1, x2)


def case_cosine_similarity_broadcast():
    a, b = torch.zeros(2, 3), torch.zeros(4)
    # expect-error@+1: broadcast_c1
    F.cosine_similarity(a, b)


def case_cosine_similarity_dim():
    a, b = torch.zeros(8), torch.zeros(8)
    # expect-error@+1: cosine_similarity_c1
    F.cosine_similarity(a, b)


def case_clamp_min_bound():
    x = torch.zeros(2, 3)
    # expect-error@+2: broadcast_c1
    # expect-help@+1: unsqueeze
    torch.clamp_min(x, torch.zeros(2))


def case_clamp_max_in_place():
    x = torch.zeros(3)
    # expect-error@+1: inplace_c1
    x.clamp_max_(torch.zeros(2, 3))

def case_trace_rank():
    x = torch.zeros(2, 3, 4)
    # expect-error@+1: trace_c1
    torch.trace(x)


def case_addmv_rank():
    m, v = torch.zeros(2, 3), torch.zeros(3)
    # expect-error@+1: addmv_c1
    torch.addmv(torch.zeros(1, 2), m, v)


def case_addmv_columns():
    m, v = torch.zeros(2, 3), torch.zeros(4)
    # expect-error@+1: addmv_c2
    torch.addmv(torch.zeros(2), m, v)


def case_addmv_input():
    m, v = torch.zeros(2, 3), torch.zeros(3)
    # expect-error@+1: addmv_c3
    torch.zeros(3).addmv(m, v)


def case_addbmm_batch1():
    b1, b2 = torch.zeros(4, 5), torch.zeros(2, 5, 3)
    # expect-error@+1: addbmm_c1
    torch.addbmm(torch.zeros(4, 3), b1, b2)


def case_addbmm_batch2():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(5, 3)
    # expect-error@+1: addbmm_c2
    torch.addbmm(torch.zeros(4, 3), b1, b2)


def case_addbmm_batches():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(3, 5, 3)
    # expect-error@+1: addbmm_c3
    torch.addbmm(torch.zeros(4, 3), b1, b2)


def case_addbmm_inner():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(2, 6, 3)
    # expect-error@+1: addbmm_c4
    torch.addbmm(torch.zeros(4, 3), b1, b2)


def case_addbmm_input():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(2, 5, 3)
    # expect-error@+1: addbmm_c5
    torch.zeros(4, 4).addbmm(b1, b2)


def case_cross_no_three():
    a = torch.zeros(4, 2)
    # expect-error@+1: cross_c1
    torch.cross(a, a)


def case_cross_rank():
    a, b = torch.zeros(3), torch.zeros(2, 3)
    # expect-error@+1: cross_c2
    torch.cross(a, b, 0)


def case_cross_dim():
    a = torch.zeros(2, 3)
    # expect-error@+1: cross_c3
    a.cross(a, 2)


def case_cross_length():
    a = torch.zeros(4, 3)
    # expect-error@+1: cross_c4
    torch.cross(a, a, 0)


def case_cross_broadcast():
    a, b = torch.zeros(2, 3), torch.zeros(4, 3)
    # expect-error@+1: broadcast_c1
    torch.cross(a, b, 1)


def case_tensordot_negative():
    a, b = torch.zeros(2, 3), torch.zeros(3, 4)
    # expect-error@+1: tensordot_c1
    torch.tensordot(a, b, -1)


def case_tensordot_lists():
    a, b = torch.zeros(2, 3), torch.zeros(3, 4)
    # expect-error@+1: tensordot_c2
    torch.tensordot(a, b, ([1], [0, 1]))


def case_tensordot_range():
    a, b = torch.zeros(2, 3), torch.zeros(3, 4)
    # expect-error@+1: tensordot_c3
    torch.tensordot(a, b, 3)


def case_tensordot_sizes():
    a, b = torch.zeros(2, 3), torch.zeros(4, 3)
    # expect-error@+1: tensordot_c4
    torch.tensordot(a, b, 1)


def case_lerp_weight():
    a, b = torch.zeros(2, 3), torch.zeros(3)
    # expect-error@+2: broadcast_c1
    # expect-help@+1: unsqueeze
    torch.lerp(a, b, torch.zeros(2))


def case_addcmul():
    x = torch.zeros(2, 3)
    # expect-error@+2: broadcast_c1
    # expect-help@+1: unsqueeze
    torch.addcmul(x, torch.zeros(4, 1, 1), torch.zeros(2))


def case_logaddexp():
    x = torch.zeros(2, 3)
    # expect-error@+2: broadcast_c1
    # expect-help@+1: unsqueeze
    torch.logaddexp(x, torch.zeros(2))

if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
