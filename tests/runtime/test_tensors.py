"""Checks read sizes only: they work on tensors without data (meta), on
tensors that require grad, on Parameters and Tensor subclasses, and they
neither change nor copy the value they pass through."""

import threading
import unittest

import torch

import gshape_runtime
from runtime_helpers import FAIL, PASS, SKIP, outcome


class Subclass(torch.Tensor):
    pass


class SizeOnlyTests(unittest.TestCase):
    def test_meta_tensors_have_no_data_and_still_check(self):
        meta = torch.empty(64, 784, device="meta")
        self.assertEqual(outcome("(== (size 0 1) 784)", meta), PASS)
        self.assertEqual(outcome("(== (size 0 1) 785)", meta), FAIL)
        self.assertEqual(outcome("(== (numel 0) 50176)", meta), PASS)
        huge = torch.empty(2 ** 20, 2 ** 20, 2 ** 10, device="meta")  # 2^50 elements: nothing allocated
        self.assertEqual(outcome("(== (numel 0) 1125899906842624)", huge), PASS)

    def test_tensors_that_require_grad(self):
        w = torch.empty(10, 80, requires_grad=True)
        y = w * 2  # a non-leaf with a grad_fn
        for value in (w, y):
            self.assertEqual(outcome("(== (size 0 -1) 80)", value), PASS)
            self.assertEqual(outcome("(== (size 0 -1) 81)", value), FAIL)
        table = gshape_runtime.CheckTable("m.py", [[(1, 1, "t", "(== (size 0 0) 10)", "m")]], enabled=True)
        out = table.check(0, 0, y)
        self.assertIs(out, y)
        self.assertIs(out.grad_fn, y.grad_fn)
        out.sum().backward()  # the graph is intact
        self.assertEqual(w.grad.shape, (10, 80))

    def test_parameters_subclasses_and_views(self):
        self.assertEqual(outcome("(== (size 0 0) 3)", torch.nn.Parameter(torch.empty(3, 4))), PASS)
        sub = torch.empty(3, 4).as_subclass(Subclass)
        self.assertEqual(outcome("(== (size 0 1) 4)", sub), PASS)
        self.assertEqual(outcome("(== (size 0 1) 5)", sub), FAIL)
        view = torch.empty(6, 4).t()[1:]
        self.assertEqual(outcome("(and (== (size 0 0) 3) (== (size 0 1) 6))", view), PASS)

    def test_integer_tensors_are_shapes_not_ints(self):
        scalar = torch.tensor(5)
        self.assertEqual(outcome("(== (int 0) 5)", scalar), SKIP)
        self.assertEqual(outcome("(== (dim 0) 0)", scalar), PASS)
        self.assertEqual(outcome("(== (size 0 0) 1)", torch.tensor([7])), PASS)

    def test_threads_do_not_mix_operands(self):
        table = gshape_runtime.CheckTable("m.py", [[(1, 1, "t", "(== (size 0 1) (size 1 0))", "m")]], enabled=True)
        errors = []

        def worker(inner):
            try:
                for _ in range(2000):
                    a = torch.empty(2, inner)
                    table.stash(0, 0, a)
                    table.check(0, 1, torch.empty(inner, 3))
            except Exception as error:  # a false alarm would land here
                errors.append(error)

        threads = [threading.Thread(target=worker, args=(n,)) for n in (4, 5, 6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        counters = table.stats()[0]
        self.assertEqual(counters["runs"], 6000)
        self.assertEqual(counters["failures"], 0)


if __name__ == "__main__":
    unittest.main()
