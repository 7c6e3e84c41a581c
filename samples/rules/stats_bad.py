"""topk, sort, argsort, var, std, var_mean, std_mean, median, nanmedian, amax,
amin, F.normalize, kthvalue, mode, cummax, cummin, logcumsumexp,
count_nonzero, each constraint violated once."""
import torch
import torch.nn.functional as F


def case_topk_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: topk_c1
    torch.topk(x, 2, dim=2)


def case_topk_k():
    x = torch.zeros(2, 5)
    # expect-error@+1: topk_c2
    x.topk(6)


def case_sort_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: sort_c1
    torch.sort(x, 2)


def case_argsort_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: argsort_c1
    x.argsort(dim=-3)


def case_var_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: var_c1
    torch.var(x, 2)


def case_var_twice():
    x = torch.zeros(2, 5)
    # expect-error@+1: var_c2
    x.var((0, -2))


def case_std_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: std_c1
    x.std(-3)


def case_std_twice():
    x = torch.zeros(2, 5)
    # expect-error@+1: std_c2
    torch.std(x, (1, 1))


def case_var_mean_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: var_mean_c1
    torch.var_mean(x, 2)


def case_std_mean_twice():
    x = torch.zeros(2, 5)
    # expect-error@+1: std_mean_c2
    torch.std_mean(x, (0, 0))


def case_median_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: median_c2
    x.median(2)


def case_median_empty_axis():
    x = torch.zeros(2, 0)
    # expect-error@+1: median_c3
    torch.median(x, 1)


def case_nanmedian_empty_axis():
    x = torch.zeros(0, 3)
    # expect-error@+1: nanmedian_c3
    torch.nanmedian(x, 0)


def case_amax_empty():
    x = torch.zeros(0, 3)
    # expect-error@+1: amax_c1
    torch.amax(x)


def case_amax_dim():
    x = torch.zeros(2, 3)
    # expect-error@+1: amax_c2
    x.amax(2)


def case_amin_twice():
    x = torch.zeros(2, 3)
    # expect-error@+1: amin_c3
    torch.amin(x, (1, -1))


def case_amax_empty_axis():
    x = torch.zeros(0, 3)
    # expect-error@+1: amax_c4
    x.amax(0)


def case_normalize_default_dim():
    x = torch.zeros(8)
    # expect-error@+1: normalize_c1
    F.normalize(x)

def case_kthvalue_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: kthvalue_c1
    torch.kthvalue(x, 1, 2)


def case_kthvalue_k():
    x = torch.zeros(2, 5)
    # expect-error@+1: kthvalue_c2
    x.kthvalue(0)


def case_mode_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: mode_c2
    torch.mode(x, 2)


def case_mode_empty_axis():
    x = torch.zeros(2, 0)
    # expect-error@+1: mode_c3
    x.mode()


def case_cummax_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: cummax_c1
    torch.cummax(x, 2)


def case_cummin_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: cummin_c1
    x.cummin(-3)


def case_logcumsumexp_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: logcumsumexp_c1
    torch.logcumsumexp(x, 2)


def case_count_nonzero_dim():
    x = torch.zeros(2, 5)
    # expect-error@+1: count_nonzero_c1
    torch.count_nonzero(x, 2)


def case_count_nonzero_twice():
    x = torch.zeros(2, 5)
    # expect-error@+1: count_nonzero_c2
    x.count_nonzero((0, -2))

if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
