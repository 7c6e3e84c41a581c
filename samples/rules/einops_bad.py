"""einops, each constraint violated once (einops cannot be installed here:
without it, the stand-in of tests/runtime/fake_einops raises einops' errors)."""
import os
import sys

import torch

_tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "runtime")
sys.path.append(os.path.join(_tests, "fake_einops"))  # after the real einops, when it is installed
sys.path.append(_tests)
from einops import pack, rearrange, unpack  # noqa: E402


def case_pattern():
    # expect-error@+1: einops_c1
    rearrange(torch.zeros(2, 3), "b c -> b")


def case_rank():
    # expect-error@+1: einops_c2
    rearrange(torch.zeros(2, 3, 4), "b c -> c b")


def case_known_length():
    # expect-error@+1: einops_c3
    rearrange(torch.zeros(2, 3), "b c -> c b", c=4)


def case_divisible():
    # expect-error@+1: einops_c4
    rearrange(torch.zeros(2, 30), "b (n p) -> b n p", p=7)


def case_pack_rank():
    # expect-error@+1: einops_pack_c1
    pack([torch.zeros(2, 8), torch.zeros(8)], "b * d")


def case_pack_named_axes():
    # expect-error@+1: einops_pack_c2
    pack([torch.zeros(2, 1, 8), torch.zeros(3, 1, 8)], "b * d")


def case_unpack_rank():
    tokens, ps = pack([torch.zeros(2, 1, 8)], "b * d")
    # expect-error@+1: einops_unpack_c1
    unpack(tokens, ps, "b * n d")


def case_unpack_sizes():
    tokens = torch.zeros(2, 5, 8)
    # expect-error@+1: einops_unpack_c2
    unpack(tokens, [(1,), (3,)], "b * d")


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
