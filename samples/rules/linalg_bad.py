"""Matrix products, each constraint violated once."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def case_matmul_scalar():
    # expect-error@+1: matmul_c1
    torch.matmul(torch.tensor(1.0), torch.zeros(2, 3))


def case_matmul_inner():
    a, b = torch.zeros(2, 3), torch.zeros(4, 5)
    # expect-error@+1: matmul_c2
    a @ b


def case_matmul_batch():
    a, b = torch.zeros(2, 2, 3), torch.zeros(3, 3, 4)
    # expect-error@+1: matmul_c3
    torch.matmul(a, b)


def case_mm_input():
    # expect-error@+1: mm_c1
    torch.mm(torch.zeros(3), torch.zeros(3, 4))


def case_mm_mat2():
    # expect-error@+1: mm_c2
    torch.mm(torch.zeros(2, 3), torch.zeros(3))


def case_mm_inner():
    # expect-error@+1: mm_c3
    torch.mm(torch.zeros(2, 3), torch.zeros(4, 5))


def case_bmm_input():
    # expect-error@+1: bmm_c1
    torch.bmm(torch.zeros(2, 3), torch.zeros(5, 3, 4))


def case_bmm_mat2():
    # expect-error@+1: bmm_c2
    torch.bmm(torch.zeros(5, 2, 3), torch.zeros(3, 4))


def case_bmm_batch():
    # expect-error@+1: bmm_c3
    torch.bmm(torch.zeros(2, 2, 3), torch.zeros(3, 3, 4))


def case_bmm_inner():
    # expect-error@+1: bmm_c4
    torch.bmm(torch.zeros(2, 2, 3), torch.zeros(2, 5, 4))


def case_addmm_mat1():
    # expect-error@+1: addmm_c1
    torch.addmm(torch.zeros(4), torch.zeros(3), torch.zeros(3, 4))


def case_addmm_mat2():
    # expect-error@+1: addmm_c2
    torch.addmm(torch.zeros(4), torch.zeros(2, 3), torch.zeros(3))


def case_addmm_inner():
    # expect-error@+1: addmm_c3
    torch.addmm(torch.zeros(5), torch.zeros(2, 3), torch.zeros(4, 5))


def case_addmm_bias():
    # expect-error@+1: addmm_c4
    torch.addmm(torch.zeros(3), torch.zeros(2, 3), torch.zeros(3, 5))


def case_linear_features():
    # expect-error@+1: linear_c1
    F.linear(torch.zeros(4, 3), torch.zeros(5, 2))


def case_linear_scalar():
    # expect-error@+1: linear_c2
    F.linear(torch.tensor(1.0), torch.zeros(5, 1))


def case_linear_weight_rank():
    # expect-error@+1: linear_c3
    F.linear(torch.zeros(4, 3), torch.zeros(2, 5, 3))


def case_linear_bias():
    # expect-error@+1: linear_c4
    F.linear(torch.zeros(4, 3), torch.zeros(5, 3), torch.zeros(4))


def case_nn_linear_negative():
    # expect-error@+1: nn_linear_c1
    nn.Linear(-1, 10)


def case_nn_linear_features():
    fc = nn.Linear(80, 10)
    # expect-error@+1: linear_c1
    fc(torch.zeros(64, 120))


def case_einsum_subscript():
    # expect-error@+1: einsum_c1
    torch.einsum("i1,j->ij", torch.zeros(2), torch.zeros(3))


def case_einsum_operands():
    # expect-error@+1: einsum_c2
    torch.einsum("i,j->ij", torch.zeros(2))


def case_einsum_rank():
    # expect-error@+1: einsum_c3
    torch.einsum("ij->j", torch.zeros(2, 3, 4))


def case_einsum_repeated():
    # expect-error@+1: einsum_c4
    torch.einsum("ii->i", torch.zeros(2, 3))


def case_einsum_broadcast():
    # expect-error@+1: einsum_c5
    torch.einsum("ij,jk->ik", torch.zeros(2, 3), torch.zeros(4, 5))


def case_einsum_output():
    # expect-error@+1: einsum_c6
    torch.einsum("ij->k", torch.zeros(2, 3))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
