"""topk, sort, argsort, var, std, var_mean, std_mean, median, nanmedian, amax,
amin, F.normalize, kthvalue, mode, cummax, cummin, logcumsumexp,
count_nonzero where every constraint holds: no diagnostic."""
import torch
import torch.nn.functional as F


def case_order():
    x = torch.zeros(2, 5)
    values, indices = torch.topk(x, 3)
    top = x.topk(0, dim=0)
    s, order = torch.sort(x, dim=0, descending=True)
    return values + indices, top, s.gather(1, order), x.argsort(), torch.topk(torch.tensor(1.0), 1)


def case_spread():
    x = torch.zeros(2, 5)
    return (torch.var(x, 1, keepdim=True), x.std(), torch.std(x, (0, 1)), x.var(False), torch.var_mean(x, 0),
            torch.std_mean(x, -1), torch.var(torch.zeros(0, 3), 0))


def case_median_extrema():
    x = torch.zeros(2, 5)
    m, i = torch.median(x, 1)
    return (m + i, x.median(), torch.median(torch.zeros(0, 3)), torch.nanmedian(x, 0, True),
            torch.amax(x), x.amin((0, 1), True), torch.amax(torch.zeros(0, 3), 1), x.amax(-1))


def case_normalize():
    x = torch.zeros(4, 8)
    return F.normalize(x), F.normalize(x, dim=-1), F.normalize(torch.zeros(8), dim=0)


def case_kth_mode_cumulative():
    x = torch.zeros(2, 5)
    v, i = torch.kthvalue(x, 5)
    m, j = x.mode(0, keepdim=True)
    return (v + i, m + j, torch.cummax(x, 1)[0], x.cummin(-1)[1], torch.logcumsumexp(x, 0), torch.cummax(torch.zeros(0, 2), 5),
            torch.count_nonzero(x), x.count_nonzero((0, 1)), torch.count_nonzero(x, 1))



# expect-deferred: 0
if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
