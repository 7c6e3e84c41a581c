"""einops where every constraint holds: no diagnostic. einops cannot be
installed here: without it, the stand-in of tests/runtime/fake_einops (its
semantics as a chain of PyTorch operations) is imported instead."""
import os
import sys

import torch

_tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "runtime")
sys.path.append(os.path.join(_tests, "fake_einops"))  # after the real einops, when it is installed
sys.path.append(_tests)
from einops import pack, rearrange, reduce, repeat, unpack  # noqa: E402


def case_rearrange():
    img = torch.zeros(2, 3, 32, 32)
    patches = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=8, p2=8)
    return patches + torch.zeros(2, 16, 192), rearrange(img, "b c ... -> b (c ...)") + torch.zeros(2, 3072)


def case_repeat_and_reduce():
    cls = repeat(torch.zeros(1, 1, 8), "1 n d -> b n d", b=4)
    mean = reduce(torch.zeros(4, 5, 8), "b n d -> b d", "mean")
    return cls + torch.zeros(4, 1, 8), mean + torch.zeros(4, 8)


def case_pack_and_unpack():
    tokens, ps = pack([torch.zeros(2, 1, 8), torch.zeros(2, 3, 4, 8)], "b * d")
    cls, rest = unpack(tokens, ps, "b * d")
    return tokens + torch.zeros(2, 13, 8), cls + torch.zeros(2, 1, 8), rest + torch.zeros(2, 3, 4, 8)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
