"""A site's check is the operator's own rule, run on the actual operands: a
call finds its rule from the called object (an nn.Module whose forward is a
torch class's, a torch function, a torch class being constructed, a tensor
method); an operator names its rule. What has no rule, or operands the rule
does not know, is never failed."""

import unittest

import numpy
import torch
import torch.nn as nn
import torch.nn.functional as F

import gshape_runtime
from runtime_helpers import FAIL, PASS, SKIP, call_outcome, op_outcome


class Renamed(nn.Linear):
    """A project subclass that keeps nn.Linear's forward."""


class Overridden(nn.Linear):
    """A project subclass with a forward of its own: its sites check it."""

    def forward(self, x):
        return x


class CalleeTests(unittest.TestCase):
    def test_module_calls_use_the_forward_rule_of_the_modules_class(self):
        fc = nn.Linear(80, 10)
        self.assertEqual(call_outcome(fc, torch.empty(4, 80)), PASS)
        self.assertEqual(call_outcome(fc, torch.empty(4, 120)), FAIL)
        conv = nn.Conv2d(3, 8, 3)
        self.assertEqual(call_outcome(conv, torch.empty(2, 3, 9, 9)), PASS)
        self.assertEqual(call_outcome(conv, torch.empty(2, 4, 9, 9)), FAIL)
        self.assertEqual(call_outcome(conv, torch.empty(2, 3, 2, 2)), FAIL)  # kernel larger than the input
        self.assertEqual(call_outcome(Renamed(80, 10), torch.empty(4, 120)), FAIL)
        self.assertEqual(call_outcome(Overridden(80, 10), torch.empty(4, 120)), SKIP)

    def test_torch_functions_and_classes_by_identity(self):
        a, b = torch.empty(2, 3), torch.empty(2, 4)
        self.assertEqual(call_outcome(torch.cat, [a, b], 1), PASS)
        self.assertEqual(call_outcome(torch.cat, [a, b], 0), FAIL)
        self.assertEqual(call_outcome(torch.cat, [a, b], dim=0), FAIL)
        self.assertEqual(call_outcome(F.linear, torch.empty(4, 5), torch.empty(6, 5)), PASS)
        self.assertEqual(call_outcome(F.linear, torch.empty(4, 5), torch.empty(6, 4)), FAIL)
        cat = torch.cat  # an alias is the same object
        self.assertEqual(call_outcome(cat, [a, b], 0), FAIL)
        # construction: checked before the constructor runs
        self.assertEqual(call_outcome(nn.Conv2d, 6, 10, 3, groups=4), FAIL)
        self.assertEqual(call_outcome(nn.Conv2d, 8, 12, 3, groups=4), PASS)
        self.assertEqual(call_outcome(nn.GroupNorm, 3, 8), FAIL)

    def test_operator_functions_and_direct_forward_calls(self):
        # `operator.add(a, b)` is `a + b`; `layer.forward(x)` and
        # `super().forward(x)` are the layer's call without __call__
        import operator
        a, b = torch.empty(2, 3), torch.empty(2, 4)
        self.assertEqual(call_outcome(operator.add, a, a), PASS)
        self.assertEqual(call_outcome(operator.add, a, b), FAIL)
        self.assertEqual(call_outcome(operator.matmul, a, b), FAIL)
        self.assertEqual(call_outcome(operator.matmul, a, torch.empty(3, 4)), PASS)
        lin = nn.Linear(8, 4)
        self.assertEqual(call_outcome(lin.forward, torch.empty(3, 8)), PASS)
        self.assertEqual(call_outcome(lin.forward, torch.empty(3, 6)), FAIL)

        class Scaled(nn.Linear):
            def forward(self, x):
                return super().forward(x) * 2
        scaled = Scaled(8, 4)
        self.assertEqual(call_outcome(super(Scaled, scaled).forward, torch.empty(3, 6)), FAIL)
        self.assertEqual(call_outcome(super(Scaled, scaled).forward, torch.empty(3, 8)), PASS)

    def test_pythons_sum_of_tensors(self):
        a, b, c = torch.empty(2, 3), torch.empty(1, 3), torch.empty(2, 4)
        for items in ([a, b], [a, c], [a, b, c], [b, a]):
            def run(items=items):
                return sum(items)
            expected = FAIL if any(t.shape[-1] == 4 for t in items) else PASS
            with self.subTest(shapes=[tuple(t.shape) for t in items]):
                self.assertEqual(call_outcome(sum, items), expected)
                try:
                    run()
                    python = PASS
                except RuntimeError:
                    python = FAIL
                self.assertEqual(python, expected)
        self.assertNotEqual(call_outcome(sum, [1, 2, 3]), FAIL)  # numbers: Python's own business

    def test_a_forward_set_on_the_instance_is_not_the_class_rule(self):
        # nn.Module.__call__ calls the instance's forward: the Linear rule
        # does not say what it accepts
        lin = nn.Linear(8, 4)
        lin.forward = lambda x: x.sum(-1)
        self.assertEqual(call_outcome(lin, torch.empty(3, 6)), SKIP)
        del lin.forward
        self.assertEqual(call_outcome(lin, torch.empty(3, 6)), FAIL)

    def test_tensor_methods_builtin_and_python(self):
        x = torch.empty(6, 4)
        self.assertEqual(call_outcome(x.view, 3, 8), PASS)
        self.assertEqual(call_outcome(x.view, 5, -1), FAIL)
        self.assertEqual(call_outcome(x.transpose, 0, 2), FAIL)
        self.assertEqual(call_outcome(x.split, 2, 1), PASS)  # a Python method of torch.Tensor
        self.assertEqual(call_outcome(x.split, 2, 3), FAIL)
        self.assertEqual(call_outcome(torch.Tensor.view, x, 5, -1), FAIL)

    def test_what_has_no_rule_is_never_failed(self):
        self.assertEqual(call_outcome(print, "x"), SKIP)
        self.assertEqual(call_outcome([].append, 3), SKIP)
        self.assertEqual(call_outcome(numpy.zeros((2, 3)).reshape, 5, 7), SKIP)  # numpy's, not torch's
        self.assertEqual(call_outcome(lambda t: t, torch.empty(2)), SKIP)
        self.assertEqual(call_outcome(nn.Sequential(nn.Linear(3, 4)), torch.empty(2, 3)), SKIP)

    def test_operands_the_rule_does_not_know_are_never_failed(self):
        # a numpy array or an object where a tensor is expected: nothing is concluded
        self.assertEqual(call_outcome(torch.cat, [numpy.zeros(3), torch.empty(2, 4)], 0), SKIP)
        self.assertEqual(call_outcome(nn.Linear(80, 10), object()), SKIP)

    def test_star_and_double_star_arguments(self):
        table = gshape_runtime.CheckTable("m.py", [(1, 1, None, ["callee", "*", "**"])], enabled=True)
        x = torch.empty(6, 4)
        table.check_values(0, x.view, (3, 8), {})
        with self.assertRaises(gshape_runtime.ShapeCheckError):
            table.check_values(0, torch.cat, ([torch.empty(2, 3), torch.empty(2, 4)],), {"dim": 0})


class OperatorTests(unittest.TestCase):
    def test_broadcasting_operators(self):
        self.assertEqual(op_outcome("operator.add", torch.empty(40, 128), torch.empty(40, 128)), PASS)
        self.assertEqual(op_outcome("operator.add", torch.empty(40, 128), torch.empty(64, 128)), FAIL)
        self.assertEqual(op_outcome("operator.mul", torch.empty(3, 1), torch.empty(1, 4)), PASS)
        self.assertEqual(op_outcome("operator.matmul", torch.empty(2, 3), torch.empty(4, 5)), FAIL)
        self.assertEqual(op_outcome("operator.lt", torch.empty(3), torch.empty(4)), FAIL)
        self.assertEqual(op_outcome("operator.iadd", torch.empty(3, 4), torch.empty(5, 1, 4)), FAIL)

    def test_operators_on_numbers_and_strings_are_python_s(self):
        self.assertEqual(op_outcome("operator.add", 2, 3), SKIP)
        self.assertEqual(op_outcome("operator.add", "a", "b"), SKIP)
        self.assertEqual(op_outcome("operator.mul", [0], 3), SKIP)
        self.assertEqual(op_outcome("operator.add", torch.empty(3, 4), 2.5), PASS)

    def test_an_unknown_rule_name_is_a_malformed_table(self):
        with self.assertRaisesRegex(ValueError, "no rule named 'operator.nothing'"):
            gshape_runtime.CheckTable("m.py", [(1, 1, "operator.nothing", ["arg"])])
        with self.assertRaisesRegex(ValueError, "needs a callee operand"):
            gshape_runtime.CheckTable("m.py", [(1, 1, None, ["arg"])])
        with self.assertRaisesRegex(ValueError, "operand kind 'x'"):
            gshape_runtime.CheckTable("m.py", [(1, 1, None, ["callee", "x"])])
        with self.assertRaisesRegex(TypeError, "4 fields"):
            gshape_runtime.CheckTable("m.py", [(1, 1, None)])


class CacheTests(unittest.TestCase):
    def test_verdicts_come_from_the_cache_only_for_the_same_operands(self):
        fc = nn.Linear(80, 10)
        table = gshape_runtime.CheckTable("m.py", [(1, 1, None, ["callee", "arg"])], enabled=True)
        for _ in range(5):
            table.check_values(0, fc, torch.empty(4, 80))
        self.assertEqual(table.stats()[0]["cached"], 4)
        with self.assertRaises(gshape_runtime.ShapeCheckError):
            table.check_values(0, fc, torch.empty(4, 81))

    def test_a_changed_module_is_read_again(self):
        fc = nn.Linear(80, 10)
        table = gshape_runtime.CheckTable("m.py", [(1, 1, None, ["callee", "arg"])], enabled=True)
        table.check_values(0, fc, torch.empty(4, 80))
        fc.weight.data = torch.empty(10, 81)  # the same Parameter, other data: F.linear sees [10, 81]
        with self.assertRaises(gshape_runtime.ShapeCheckError):
            table.check_values(0, fc, torch.empty(4, 80))
        fc.weight = nn.Parameter(torch.empty(10, 80))  # a new Parameter
        table.check_values(0, fc, torch.empty(4, 80))
        pool = nn.MaxPool2d(2)
        table.check_values(0, pool, torch.empty(1, 1, 4, 4))
        pool.kernel_size = 5  # a hyperparameter rebound: max_pool2d reads it at every call
        with self.assertRaises(gshape_runtime.ShapeCheckError):
            table.check_values(0, pool, torch.empty(1, 1, 4, 4))


class ActivationTests(unittest.TestCase):
    def test_operands_of_another_activation_are_not_mixed_in(self):
        # stash in one frame, check in another (a recursive call between
        # them): the check sees its own operands only and concludes nothing
        table = gshape_runtime.CheckTable("m.py", [(1, 1, "operator.add", ["arg", "arg"])], enabled=True)

        def inner():
            table.check(0, 1, torch.empty(64, 128))

        table.stash(0, 0, torch.empty(40, 128))
        inner()
        counters = table.stats()[0]
        self.assertEqual((counters["runs"], counters["failures"]), (1, 0))


if __name__ == "__main__":
    unittest.main()
