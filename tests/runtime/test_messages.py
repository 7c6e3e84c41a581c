"""What a failing check raises: ShapeCheckError (a RuntimeError) whose text
is `path:line:col: [tag] message (operand shapes)`, with its holes filled,
its attributes set, and the user's line as the innermost traceback frame."""

import traceback
import unittest

import torch

import gshape_runtime
from gshape_runtime import ShapeCheckError
from runtime_helpers import one_check_table

LINEAR_MESSAGE = "nn.Linear(80, 10) expects in_features 80 but the input's last dimension is {(size 0 -1)}"


def failure_text(constraint, message, *operands, slot_names=None, tag="t_c1"):
    table = one_check_table(constraint, message, tag=tag, slot_names=slot_names)
    try:
        table.check_values(0, *operands)
    except ShapeCheckError as error:
        return str(error)
    raise AssertionError("the check did not fail")


class MessageTests(unittest.TestCase):
    def test_the_brief_example(self):
        table = gshape_runtime.CheckTable(
            "train.py", [[(42, 13, "linear_c1", "(== (size 0 -1) 80)", LINEAR_MESSAGE, ["input"])]])
        with self.assertRaises(ShapeCheckError) as caught:
            table.check(0, 0, torch.empty(64, 120))
        self.assertEqual(str(caught.exception),
                         "train.py:42:13: [linear_c1] nn.Linear(80, 10) expects in_features 80 but the "
                         "input's last dimension is 120 (input shape [64, 120])")

    def test_holes_hold_any_expression(self):
        text = failure_text("(== (numel 0) 10)", "got {(numel 0)} = {(size 0 0)}*{(size 0 1)}, {(// (size 0 1) 2)}"
                            " {(< 1 2)} {(> 1 2)} {7}", torch.empty(3, 4))
        self.assertEqual(text, "m.py:3:7: [t_c1] got 12 = 3*4, 2 true false 7 (operand 0 shape [3, 4])")

    def test_shape_holes_and_literal_braces(self):
        text = failure_text("(== (size 0 1) (size 1 0))", "mat1 {shape 0} and mat2 {shape 1} {{not a hole}} {shape 2}",
                            torch.empty(2, 3), torch.empty(4, 5), 6)
        self.assertEqual(text, "m.py:3:7: [t_c1] mat1 [2, 3] and mat2 [4, 5] {not a hole} 6 "
                               "(operand 0 shape [2, 3], operand 1 shape [4, 5])")

    def test_holes_that_cannot_be_evaluated_print_a_question_mark(self):
        text = failure_text("(== (dim 0) 3)", "dim 2 is {(size 0 2)}, {(// 1 0)}, {shape 1} {(int 0)}",
                            torch.empty(2, 3), None)
        self.assertEqual(text, "m.py:3:7: [t_c1] dim 2 is ?, ?, ? ? (operand 0 shape [2, 3])")

    def test_shapes_of_zero_d_tensors_and_sequences(self):
        text = failure_text("(== (dim 0) 1)", "{shape 0} {shape 1} {shape 2}", torch.tensor(1.0), torch.Size([5]), (1, 2))
        self.assertEqual(text, "m.py:3:7: [t_c1] [] [5] [1, 2] (operand 0 shape [])")

    def test_slot_names_choose_what_is_described(self):
        text = failure_text("(== (size 0 1) (int 1))", "bad", torch.empty(2, 3), 4, (3, 3), [1, 2], True, None, (7,),
                            slot_names=["input", "groups", "kernel_size", "padding", "bias", "other", "stride", "unset"])
        self.assertEqual(text, "m.py:3:7: [t_c1] bad (input shape [2, 3], groups = 4, kernel_size = (3, 3), "
                               "padding = [1, 2], bias = True, other is not a tensor, int or sequence, "
                               "stride = (7,), unset has no recorded value)")
        text = failure_text("(== (size 0 1) (size 1 0))", "bad", torch.empty(2, 3), torch.empty(4, 5),
                            slot_names=[None, "mat2"])
        self.assertEqual(text, "m.py:3:7: [t_c1] bad (mat2 shape [4, 5])")
        self.assertEqual(failure_text("(false)", "bad", slot_names=[]), "m.py:3:7: [t_c1] bad")

    def test_an_empty_tag_is_left_out(self):
        self.assertEqual(failure_text("(false)", "always", tag=""), "m.py:3:7: always")

    def test_non_ascii_text_survives(self):
        table = gshape_runtime.CheckTable("données/é.py", [[(1, 2, "τ_c1", "(false)", "attendu ≠ {(+ 1 1)}")]])
        with self.assertRaises(ShapeCheckError) as caught:
            table.check_values(0)
        self.assertEqual(str(caught.exception), "données/é.py:1:2: [τ_c1] attendu ≠ 2")


class ExceptionTests(unittest.TestCase):
    def make_table(self):
        return gshape_runtime.CheckTable("pkg/model.py", [
            [],
            [(10, 5, "a_c1", "(== (size 0 0) 1)", "first {(size 0 0)}", ["x"]),
             (10, 5, "a_c2", "(== (size 0 1) 784)", "second"),
             (10, 9, "a_c3", "(== (dim 0) 2)", "third")],
        ])

    def test_type_and_attributes(self):
        self.assertTrue(issubclass(ShapeCheckError, RuntimeError))
        self.assertIs(gshape_runtime.ShapeCheckError, gshape_runtime._native.ShapeCheckError)
        self.assertEqual(ShapeCheckError.__module__, "gshape_runtime")
        table = self.make_table()
        with self.assertRaises(RuntimeError) as caught:
            table.check(1, 0, torch.empty(64, 10))
        error = caught.exception
        self.assertIsInstance(error, ShapeCheckError)
        self.assertEqual((error.path, error.line, error.col, error.tag), ("pkg/model.py", 10, 5, "a_c1"))
        self.assertEqual((error.site, error.check), (1, 0))
        self.assertEqual(error.constraint, "(== (size 0 0) 1)")
        self.assertEqual(error.detail, "first 64")
        self.assertEqual(error.also_failed, ("pkg/model.py:10:5: [a_c2] second (operand 0 shape [64, 10])",))

    def test_every_check_of_the_site_runs_and_is_counted(self):
        table = self.make_table()
        with self.assertRaises(ShapeCheckError):
            table.check(1, 0, torch.empty(64, 10))
        counts = [(s["runs"], s["failures"], s["skipped"]) for s in table.stats()]
        self.assertEqual(counts, [(1, 1, 0), (1, 1, 0), (1, 0, 0)])
        self.assertIs(table.check(1, 0, torch.empty(1, 784)).__class__, torch.Tensor)

    def test_innermost_traceback_frame_is_the_callers_line(self):
        table = self.make_table()
        x = torch.empty(64, 10)
        try:
            y = table.check(1, 0, x)  # the line the traceback must end on
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
        x = torch.empty(1, 784)
        self.assertIs(table.check(1, 0, x), x)
        self.assertIsNone(table.check_values(1, x))

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
        self.assertEqual(table.check(0, 99, 5), 5)  # a slot no check reads is ignored


if __name__ == "__main__":
    unittest.main()
