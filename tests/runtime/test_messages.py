"""What a failing check raises: ShapeCheckError (of PyTorch's class for the constraint) whose text
is `path:line:col: [tag] message (operands)`, the message computed by the
rule from the values that failed, its attributes set, and the user's line
as the innermost traceback frame."""

import traceback
import unittest

import torch
import torch.nn as nn

import gshape_runtime
from gshape_runtime import ShapeCheckError
from runtime_helpers import failure


class MessageTests(unittest.TestCase):
    def test_the_brief_example(self):
        table = gshape_runtime.CheckTable("train.py", [(42, 13, None, ["callee", "arg"])])
        with self.assertRaises(ShapeCheckError) as caught:
            table.check_values(0, nn.Linear(80, 10), torch.empty(64, 120))
        self.assertEqual(str(caught.exception),
                         "train.py:42:13: [linear_c1] nn.Linear(80, 10) expects in_features 80 but the "
                         "input's last dimension is 120 (input shape [64, 120])")

    def test_the_message_names_the_sizes_that_failed(self):
        # bug_last_batch.py: the last batch of 40 against a state of 64
        table = gshape_runtime.CheckTable("bug_last_batch.py", [(23, 13, "operator.add", ["arg", "arg"])])
        table.check_values(0, torch.empty(64, 128), torch.empty(64, 128))
        with self.assertRaises(ShapeCheckError) as caught:
            table.check_values(0, torch.empty(40, 128), torch.empty(64, 128))
        self.assertEqual(str(caught.exception),
                         "bug_last_batch.py:23:13: [broadcast_c1] the size of tensor a (40) must match the size of "
                         "tensor b (64) at non-singleton dimension 0 (input shape [40, 128], other shape [64, 128])")

    def test_shapes_the_message_prints_are_not_repeated(self):
        error = failure(torch.matmul, torch.empty(2, 3), torch.empty(4, 5))
        self.assertIsNotNone(error)
        text = str(error)
        self.assertIn("[2, 3]", text)
        self.assertEqual(text.count("[2, 3]"), 1, text)

    def test_arguments_are_described_by_their_parameter_names(self):
        error = failure(nn.Conv2d, 6, 10, 3, groups=4)
        self.assertEqual(str(error), "m.py:3:7: [nn_conv2d_c2] nn.Conv2d(6, 10, kernel_size=(3, 3)): in_channels 6 "
                                     "must be divisible by groups 4")
        error = failure(torch.cat, [torch.empty(2, 3), torch.empty(2, 4)], 0)
        self.assertIn("[cat_c5] sizes of tensors must match except in dimension 0. expected size 3 but got size 4 "
                      "for tensor number 1 in the list", str(error))

    def test_non_ascii_path_survives(self):
        table = gshape_runtime.CheckTable("données/é.py", [(1, 2, "operator.add", ["arg", "arg"])])
        with self.assertRaises(ShapeCheckError) as caught:
            table.check_values(0, torch.empty(2), torch.empty(3))
        self.assertTrue(str(caught.exception).startswith("données/é.py:1:2: [broadcast_c1] "))


class ExceptionTests(unittest.TestCase):
    def make_table(self):
        return gshape_runtime.CheckTable("pkg/model.py", [
            (10, 5, None, ["callee", "arg"]),
            (12, 9, "operator.matmul", ["arg", "arg"]),
        ])

    def test_type_and_attributes(self):
        # what a failure raises is a ShapeCheckError and PyTorch's class for it
        self.assertTrue(issubclass(gshape_runtime._native.error_class("matmul_c2"), ShapeCheckError))
        self.assertTrue(issubclass(gshape_runtime._native.error_class("matmul_c2"), RuntimeError))
        self.assertIs(gshape_runtime.ShapeCheckError, gshape_runtime._native.ShapeCheckError)
        self.assertEqual(ShapeCheckError.__module__, "gshape_runtime")
        table = self.make_table()
        table.stash(0, 0, nn.Linear(80, 10))
        with self.assertRaises(RuntimeError) as caught:
            table.check(0, 1, torch.empty(64, 10))
        error = caught.exception
        self.assertIsInstance(error, ShapeCheckError)
        self.assertEqual((error.path, error.line, error.col, error.tag), ("pkg/model.py", 10, 5, "linear_c1"))
        self.assertEqual(error.site, 0)
        self.assertEqual(error.constraint, "(== (size 1 -1) 80)")
        self.assertEqual(error.detail, "nn.Linear(80, 10) expects in_features 80 but the input's last dimension is 10")
        self.assertEqual(error.also_failed, ())

    def test_every_failed_requirement_is_reported(self):
        table = self.make_table()
        with self.assertRaises(ShapeCheckError) as caught:
            table.check_values(1, torch.empty(2, 3, 4), torch.empty(5, 6, 7))
        # the batch axes and the inner sizes both fail
        self.assertGreaterEqual(len(caught.exception.also_failed), 1)
        counters = table.stats()[1]
        self.assertEqual((counters["runs"], counters["failures"]), (1, 1))
        self.assertGreaterEqual(sum(counters["failed_tags"].values()), 2)

    def test_innermost_traceback_frame_is_the_callers_line(self):
        table = self.make_table()
        x = torch.empty(64, 10)
        table.stash(0, 0, nn.Linear(80, 10))
        try:
            y = table.check(0, 1, x)  # the line the traceback must end on
        except ShapeCheckError as error:
            frames = traceback.extract_tb(error.__traceback__)
        else:
            self.fail("no ShapeCheckError (y=%r)" % (y,))
        innermost = frames[-1]
        self.assertEqual(innermost.filename, __file__)
        self.assertEqual(innermost.name, "test_innermost_traceback_frame_is_the_callers_line")
        self.assertIn("the line the traceback must end on", innermost.line)

    def test_returns_the_very_object_it_was_given(self):
        table = self.make_table()
        for value in (torch.empty(1, 784), 3, None, "text", (1, 2), [torch.empty(2)]):
            self.assertIs(table.stash(1, 1, value), value)
            self.assertIs(table.stash(0, 0, value), value)
        x = torch.empty(3, 784)
        self.assertIs(table.check(1, 0, x), x)
        self.assertIsNone(table.check_values(1, x, torch.empty(784, 2)))

    def test_misuse_is_reported(self):
        table = self.make_table()
        with self.assertRaises(TypeError):
            table.check(1, 0)
        with self.assertRaises(TypeError):
            table.stash(1, 0, 1, 2)
        with self.assertRaises(TypeError):
            table.check("1", 0, 1)
        with self.assertRaises(TypeError):
            table.check_values()
        with self.assertRaisesRegex(IndexError, "has 2 sites; site 2 does not exist"):
            table.check(2, 0, 1)
        with self.assertRaises(IndexError):
            table.check(-1, 0, 1)
        with self.assertRaises(IndexError):
            table.stash(1, -1, 1)
        self.assertEqual(table.check(1, 99, 5), 5)  # a slot the site does not have is ignored


if __name__ == "__main__":
    unittest.main()
