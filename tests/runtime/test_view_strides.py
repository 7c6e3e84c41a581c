"""view_c6 at run time against PyTorch: on tensors laid out every which way
(transposed, permuted, sliced, expanded, element-wise results of those), a
view's check fails exactly when PyTorch's view raises, and never stays
undecided (the strides are known at run time)."""

import random
import unittest

import torch

import gshape_runtime
from runtime_helpers import FAIL, PASS, call_outcome


def laid_out(rng):
    """A tensor with a random shape and a random layout, and how it was made."""
    rank = rng.randint(1, 4)
    shape = [rng.randint(1, 4) for _ in range(rank)]
    x = torch.zeros(*shape)
    how = "zeros%s" % (tuple(shape),)
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["transpose", "permute", "slice", "expand", "mul", "contiguous"])
        if op == "transpose" and x.dim() >= 2:
            a, b = rng.sample(range(x.dim()), 2)
            x, how = x.transpose(a, b), how + ".transpose(%d, %d)" % (a, b)
        elif op == "permute":
            order = list(range(x.dim()))
            rng.shuffle(order)
            x, how = x.permute(*order), how + ".permute%s" % (tuple(order),)
        elif op == "slice":
            d = rng.randrange(x.dim())
            if x.size(d) >= 2:
                start = rng.randrange(x.size(d) - 1)
                index = [slice(None)] * d + [slice(start, x.size(d))]
                x, how = x[tuple(index)], how + "[%s%d:]" % (":, " * d, start)
        elif op == "expand":
            ones = [i for i in range(x.dim()) if x.size(i) == 1]
            if ones:
                sizes = list(x.shape)
                sizes[rng.choice(ones)] = rng.randint(2, 3)
                x, how = x.expand(*sizes), how + ".expand%s" % (tuple(sizes),)
        elif op == "mul":
            x, how = x * 2, how + " * 2"
        else:
            x, how = x.contiguous(), how + ".contiguous()"
    return x, how


def factorizations(n, rng, parts):
    sizes = []
    for _ in range(parts - 1):
        divisors = [d for d in range(1, n + 1) if n % d == 0]
        d = rng.choice(divisors)
        sizes.append(d)
        n //= d
    return sizes + [n]


class ViewStridesAgainstPyTorch(unittest.TestCase):
    def test_random_layouts_and_views(self):
        rng = random.Random(7)
        cases = failures = 0
        for _ in range(600):
            x, how = laid_out(rng)
            target = factorizations(x.numel(), rng, rng.randint(1, 4)) if x.numel() else [0]
            try:
                x.view(*target)
                torch_fails = False
            except RuntimeError:
                torch_fails = True
            verdict = call_outcome(x.view, *target)
            with self.subTest(case="%s.view%s" % (how, tuple(target))):
                self.assertEqual(verdict, FAIL if torch_fails else PASS)
            cases += 1
            failures += torch_fails
        self.assertGreater(failures, 30)  # the layouts reach the error often enough
        self.assertGreater(cases - failures, 100)


if __name__ == "__main__":
    unittest.main()
