"""dot, mv, outer, ger, baddbmm, cdist, cosine_similarity, clamp_min,
clamp_max, trace, addmv, addbmm, kron, cross, tensordot, lerp, addcmul,
logaddexp, hypot where every constraint holds: no diagnostic."""
import torch
import torch.nn.functional as F


def case_vector_products():
    a, b = torch.zeros(3), torch.zeros(3)
    m = torch.zeros(2, 3)
    return torch.dot(a, b), a.dot(b), torch.mv(m, a), m.mv(b), torch.outer(a, torch.zeros(4)), a.ger(b)


def case_baddbmm():
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(2, 5, 3)
    return torch.baddbmm(torch.zeros(3), b1, b2), torch.zeros(2, 4, 3).baddbmm(b1, b2), torch.baddbmm(torch.zeros(4, 1), b1, b2)


def case_distances():
    x1, x2 = torch.zeros(2, 4, 3), torch.zeros(5, 3)
    a, b = torch.zeros(8, 16), torch.zeros(16)
    return (torch.cdist(x1, x2), torch.cdist(x1, x2, p=1), F.cosine_similarity(a, b), F.cosine_similarity(a, a, dim=0),
            torch.cosine_similarity(torch.zeros(8), torch.zeros(8), 0))


def case_clamp_bounds():
    x = torch.zeros(2, 3)
    return torch.clamp_min(x, 0.0), x.clamp_max(1.0), torch.clamp_min(torch.zeros(3), x), x.clamp_min_(torch.zeros(3)), x.clamp_max_(0.5)


def case_more_products():
    m, v = torch.zeros(2, 3), torch.zeros(3)
    b1, b2 = torch.zeros(2, 4, 5), torch.zeros(2, 5, 3)
    a = torch.zeros(4, 3)
    return (torch.trace(m), torch.addmv(torch.zeros(2), m, v), torch.zeros(1).addmv(m, v), torch.addbmm(torch.zeros(3), b1, b2),
            torch.kron(m, v), torch.cross(a, a), a.cross(torch.zeros(1, 3), 1), torch.tensordot(b1, b2, ([0, 2], [0, 1])),
            torch.tensordot(m, torch.zeros(3, 4), 1), torch.lerp(m, v, 0.5), torch.addcmul(v, m, torch.zeros(4, 1, 1)),
            torch.logaddexp(m, v), torch.hypot(m, v))



# expect-deferred: 0
if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
