"""Checks read sizes only: they work on tensors without data (meta), on
tensors that require grad, on Parameters and Tensor subclasses, and they
neither change nor copy the value they pass through."""

import threading
import unittest

import torch

import gshape_runtime
from runtime_helpers import FAIL, PASS, SKIP, call_outcome, op_outcome


class Subclass(torch.Tensor):
    pass


def linear(n):
    return torch.nn.Linear(n, 2)


class SizeOnlyTests(unittest.TestCase):
    def test_meta_tensors_have_no_data_and_still_check(self):
        meta = torch.empty(64, 784, device="meta")
        self.assertEqual(call_outcome(linear(784), meta), PASS)
        self.assertEqual(call_outcome(linear(785), meta), FAIL)
        huge = torch.empty(2 ** 20, 2 ** 20, 2 ** 10, device="meta")  # 2^50 elements: nothing allocated
        self.assertEqual(call_outcome(huge.view, 2 ** 40, -1), PASS)
        self.assertEqual(call_outcome(huge.view, 3, -1), FAIL)

    def test_tensors_that_require_grad(self):
        w = torch.empty(10, 80, requires_grad=True)
        y = w * 2  # a non-leaf with a grad_fn
        for value in (w, y):
            self.assertEqual(call_outcome(linear(80), value), PASS)
            self.assertEqual(call_outcome(linear(81), value), FAIL)
        table = gshape_runtime.CheckTable("m.py", [(1, 1, "operator.mul", ["arg", "arg"])], enabled=True)
        out = table.check_values(0, y, torch.empty(10, 80))
        self.assertIsNone(out)
        self.assertIs(table.check(0, 1, y), y)
        y.sum().backward()  # the graph is intact
        self.assertEqual(w.grad.shape, (10, 80))

    def test_parameters_subclasses_and_views(self):
        self.assertEqual(op_outcome("operator.add", torch.nn.Parameter(torch.empty(3, 4)), torch.empty(4)), PASS)
        self.assertEqual(op_outcome("operator.add", torch.nn.Parameter(torch.empty(3, 4)), torch.empty(3)), FAIL)
        sub = torch.empty(3, 4).as_subclass(Subclass)
        self.assertEqual(call_outcome(linear(4), sub), PASS)
        self.assertEqual(call_outcome(linear(5), sub), FAIL)
        view = torch.empty(6, 4).t()[1:]
        self.assertEqual(call_outcome(linear(6), view), PASS)

    def test_a_zero_d_integer_tensor_is_a_tensor_not_an_int(self):
        scalar = torch.tensor(5)
        # its value is data (reading it could synchronise a GPU): never read as a size
        self.assertEqual(call_outcome(torch.empty(10).view, scalar), SKIP)
        self.assertEqual(call_outcome(torch.empty(10).view, 5, -1), PASS)

    def test_threads_do_not_mix_operands(self):
        table = gshape_runtime.CheckTable("m.py", [(1, 1, "operator.matmul", ["arg", "arg"])], enabled=True)
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
