"""The constraint language: every operator passes and fails where Python
would say true and false; operands the check cannot read are not evaluable
(skipped, never a false alarm); malformed constraints are refused at table
construction with a ValueError naming path:line:col."""

import unittest

import torch

import gshape_runtime
from runtime_helpers import FAIL, PASS, SKIP, one_check_table, outcome

X = torch.empty(64, 784)  # the usual operand: a [64, 784] tensor


class OperatorTests(unittest.TestCase):
    def assertOutcomes(self, cases):
        for constraint, operands, expected in cases:
            with self.subTest(constraint=constraint, operands=operands):
                self.assertEqual(outcome(constraint, *operands), expected)

    def test_literals_and_constants(self):
        self.assertOutcomes([
            ("(true)", (), PASS), ("(false)", (), FAIL),
            ("(== 3 3)", (), PASS), ("(== 3 4)", (), FAIL),
            ("(== -5 (neg 5))", (), PASS), ("(== 9223372036854775807 9223372036854775807)", (), PASS),
        ])

    def test_size_reads_a_dimension_python_style(self):
        self.assertOutcomes([
            ("(== (size 0 1) 784)", (X,), PASS), ("(== (size 0 1) 785)", (X,), FAIL),
            ("(== (size 0 0) 64)", (X,), PASS), ("(== (size 0 -1) 784)", (X,), PASS),
            ("(== (size 0 -2) 64)", (X,), PASS), ("(== (size 0 -2) 65)", (X,), FAIL),
            ("(== (size 1 0) 784)", (X, X), FAIL), ("(== (size 1 1) (size 0 1))", (X, X), PASS),
        ])

    def test_size_dim_numel_accept_shapes_as_sequences(self):
        self.assertOutcomes([
            ("(== (size 0 1) 3)", (torch.Size([2, 3]),), PASS),
            ("(== (size 0 1) 3)", ((2, 3),), PASS), ("(== (size 0 1) 4)", ([2, 3],), FAIL),
            ("(== (dim 0) 2)", (torch.Size([2, 3]),), PASS),
            ("(== (numel 0) 6)", ((2, 3),), PASS), ("(== (numel 0) 7)", ((2, 3),), FAIL),
        ])

    def test_dim_and_numel(self):
        self.assertOutcomes([
            ("(== (dim 0) 2)", (X,), PASS), ("(== (dim 0) 3)", (X,), FAIL),
            ("(== (dim 0) 0)", (torch.tensor(5.0),), PASS),
            ("(== (numel 0) 50176)", (X,), PASS), ("(== (numel 0) 50000)", (X,), FAIL),
            ("(== (numel 0) 1)", (torch.tensor(5.0),), PASS),
            ("(== (numel 0) 0)", (torch.empty(0, 3),), PASS),
        ])

    def test_int_len_item(self):
        self.assertOutcomes([
            ("(== (int 0) 7)", (7,), PASS), ("(== (int 0) 7)", (8,), FAIL),
            ("(== (int 0) 1)", (True,), PASS), ("(== (int 0) -3)", (-3,), PASS),
            ("(== (len 0) 3)", ((1, 2, 3),), PASS), ("(== (len 0) 2)", ([1, 2, 3],), FAIL),
            ("(== (len 0) 64)", (X,), PASS), ("(== (len 0) 2)", (torch.Size([5, 6]),), PASS),
            ("(== (len 0) 2)", (("a", None),), PASS),
            ("(== (item 0 1) 5)", ((4, 5),), PASS), ("(== (item 0 -1) 5)", ([4, 6],), FAIL),
            ("(== (item 0 0) 3)", ((3, "x"),), PASS),
        ])

    def test_attr_reads_an_int_attribute_of_the_operand(self):
        linear = torch.nn.Linear(80, 10)
        self.assertOutcomes([
            ("(== (size 1 -1) (attr 0 in_features))", (linear, torch.empty(4, 80)), PASS),
            ("(== (size 1 -1) (attr 0 in_features))", (linear, torch.empty(4, 81)), FAIL),
            ("(== (attr 0 out_features) 10)", (linear,), PASS),
            # a missing or non-int attribute is not evaluable: no false alarm
            ("(== (attr 0 no_such_attribute) 1)", (linear,), SKIP),
            ("(== (attr 0 weight) 1)", (linear,), SKIP),
        ])

    def test_attr_in_a_message_hole(self):
        table = one_check_table("(== (size 1 -1) (attr 0 in_features))",
                                message="expects in_features {(attr 0 in_features)} but got {(size 1 -1)}")
        linear = torch.nn.Linear(80, 10)
        table.stash(0, 0, linear)
        with self.assertRaises(gshape_runtime.ShapeCheckError) as caught:
            table.check(0, 1, torch.empty(4, 81))
        self.assertIn("expects in_features 80 but got 81", str(caught.exception))

    def test_arithmetic(self):
        self.assertOutcomes([
            ("(== (+ (size 0 0) 1) 65)", (X,), PASS), ("(== (+ 2 2) 5)", (), FAIL),
            ("(== (- 2 5) -3)", (), PASS), ("(== (- 5 2) -3)", (), FAIL),
            ("(== (* (size 0 0) (size 0 1)) 50176)", (X,), PASS), ("(== (* 3 3) 10)", (), FAIL),
            ("(== (min 3 -4) -4)", (), PASS), ("(== (min 3 4) 4)", (), FAIL),
            ("(== (max 3 -4) 3)", (), PASS), ("(== (max 3 4) 3)", (), FAIL),
            ("(== (neg 7) -7)", (), PASS), ("(== (neg -7) -7)", (), FAIL),
            ("(== (abs -7) 7)", (), PASS), ("(== (abs 7) -7)", (), FAIL),
        ])

    def test_floor_division_and_modulo_follow_python(self):
        cases = []
        for a in (-7, -6, -1, 0, 1, 6, 7):
            for b in (-3, -2, 2, 3):
                cases.append(("(== (// %d %d) %d)" % (a, b, a // b), (), PASS))
                cases.append(("(== (%% %d %d) %d)" % (a, b, a % b), (), PASS))
                cases.append(("(== (// %d %d) %d)" % (a, b, a // b + 1), (), FAIL))
                cases.append(("(== (%% %d %d) %d)" % (a, b, a % b + 1), (), FAIL))
        self.assertOutcomes(cases)

    def test_comparisons(self):
        self.assertOutcomes([
            ("(!= 1 2)", (), PASS), ("(!= 2 2)", (), FAIL),
            ("(< 1 2)", (), PASS), ("(< 2 2)", (), FAIL),
            ("(<= 2 2)", (), PASS), ("(<= 3 2)", (), FAIL),
            ("(> 3 2)", (), PASS), ("(> 2 2)", (), FAIL),
            ("(>= 2 2)", (), PASS), ("(>= 1 2)", (), FAIL),
            ("(== (< 1 2) (true))", (), PASS), ("(== (< 1 2) (false))", (), FAIL),
        ])

    def test_logic(self):
        self.assertOutcomes([
            ("(and (true) (true) (true))", (), PASS), ("(and (true) (false))", (), FAIL),
            ("(and)", (), PASS), ("(or)", (), FAIL),
            ("(or (false) (true))", (), PASS), ("(or (false) (false))", (), FAIL),
            ("(not (false))", (), PASS), ("(not (true))", (), FAIL),
            ("(ite (> (size 0 0) 0) (== (size 0 1) 784) (false))", (X,), PASS),
            ("(ite (< (size 0 0) 0) (true) (== (size 0 1) 1))", (X,), FAIL),
            ("(== (ite (true) 4 5) 4)", (), PASS), ("(== (ite (false) 4 5) 4)", (), FAIL),
        ])


class NotEvaluableTests(unittest.TestCase):
    """The gradual guarantee at run time: an operand that is not what the
    check expects never turns into a failure by a wrong guess."""

    def test_wrong_kind_of_operand_skips_the_whole_check(self):
        for operand in (None, 3.5, "abc", 784, (64, "x"), {"a": 1}, object()):
            with self.subTest(operand=operand):
                self.assertEqual(outcome("(== (size 0 1) 784)", operand), SKIP)
        # A 0-d integer tensor is not an int: reading it would read data.
        self.assertEqual(outcome("(== (int 0) 5)", torch.tensor(4)), SKIP)
        self.assertEqual(outcome("(== (int 0) 5)", X), SKIP)
        self.assertEqual(outcome("(== (item 0 0) 64)", X), SKIP)
        self.assertEqual(outcome("(== (int 0) 5)", 2 ** 70), SKIP)  # beyond 64 bits
        # Even a decidable part does not fail a check whose operand is of the wrong kind.
        self.assertEqual(outcome("(and (== (int 1) 3) (== (size 0 1) 784))", None, 4), SKIP)

    def test_dimension_out_of_range_fails_only_when_the_rank_is_stated(self):
        one_d = torch.empty(784)
        self.assertEqual(outcome("(== (size 0 1) 784)", one_d), SKIP)
        self.assertEqual(outcome("(== (size 0 -3) 784)", X), SKIP)
        self.assertEqual(outcome("(and (== (dim 0) 2) (== (size 0 1) 784))", one_d), FAIL)
        self.assertEqual(outcome("(and (== (dim 0) 2) (== (size 0 1) 784))", X), PASS)

    def test_unsafe_arithmetic_is_not_evaluable(self):
        self.assertEqual(outcome("(== (// (size 0 0) 0) 1)", X), SKIP)
        self.assertEqual(outcome("(== (% 5 0) 1)"), SKIP)
        self.assertEqual(outcome("(> (* 9223372036854775807 2) 0)"), SKIP)
        self.assertEqual(outcome("(> (+ 9223372036854775807 1) 0)"), SKIP)
        self.assertEqual(outcome("(> (neg (- -9223372036854775807 1)) 0)"), SKIP)
        self.assertEqual(outcome("(== (// (- -9223372036854775807 1) -1) 0)"), SKIP)
        self.assertEqual(outcome("(== (% (- -9223372036854775807 1) -1) 0)"), PASS)

    def test_out_of_range_items_and_lengths(self):
        self.assertEqual(outcome("(== (item 0 5) 1)", (1, 2)), SKIP)
        self.assertEqual(outcome("(== (item 0 1) 1)", (1, "two")), SKIP)
        self.assertEqual(outcome("(== (len 0) 0)", torch.tensor(1.0)), SKIP)
        long_list = list(range(100))
        self.assertEqual(outcome("(== (len 0) 100)", long_list), PASS)
        self.assertEqual(outcome("(== (item 0 99) 99)", long_list), SKIP)  # items past 64 not kept
        self.assertEqual(outcome("(== (item 0 10) 10)", long_list), PASS)

    def test_kleene_logic_decides_when_it_can(self):
        one_d = torch.empty(5)
        unknown = "(== (size 0 3) 1)"  # dim 3 of a 1-d tensor
        self.assertEqual(outcome("(and (false) %s)" % unknown, one_d), FAIL)
        self.assertEqual(outcome("(and (true) %s)" % unknown, one_d), SKIP)
        self.assertEqual(outcome("(or (true) %s)" % unknown, one_d), PASS)
        self.assertEqual(outcome("(or (false) %s)" % unknown, one_d), SKIP)
        self.assertEqual(outcome("(not %s)" % unknown, one_d), SKIP)
        self.assertEqual(outcome("(ite %s (true) (true))" % unknown, one_d), PASS)
        self.assertEqual(outcome("(ite %s (true) (false))" % unknown, one_d), SKIP)
        self.assertEqual(outcome("(< (size 0 3) 1)", one_d), SKIP)

    def test_a_slot_never_recorded_is_not_evaluable(self):
        table = one_check_table("(== (size 0 1) (size 1 0))")
        table.check(0, 1, X)  # slot 0 was never stashed
        self.assertEqual(table.stats()[0]["skipped"], 1)

    def test_operands_do_not_leak_into_the_next_evaluation(self):
        table = one_check_table("(== (size 0 1) (size 1 0))")
        table.stash(0, 0, torch.empty(2, 3))
        table.check(0, 1, torch.empty(3, 4))  # passes, then forgets slot 0
        table.check(0, 1, torch.empty(5, 4))  # slot 0 is empty now: skipped, not failed
        counters = table.stats()[0]
        self.assertEqual((counters["runs"], counters["failures"], counters["skipped"]), (2, 0, 1))

    def test_a_recursive_call_between_stash_and_check_is_no_false_alarm(self):
        table = one_check_table("(== (size 0 -1) (size 1 -2))")

        def matmul(a, b, depth):
            # Like `_gs.stash(0, 0, a) @ _gs.check(0, 1, inner(b))` with the
            # inner call running the same site on other operands first.
            stashed = table.stash(0, 0, a)
            if depth > 0:
                matmul(torch.empty(2, 9), torch.empty(9, 2), depth - 1)
            return stashed, table.check(0, 1, b)

        matmul(torch.empty(3, 4), torch.empty(4, 5), 1)
        counters = table.stats()[0]
        self.assertEqual(counters["failures"], 0)
        self.assertEqual(counters["runs"], 2)
        with self.assertRaises(gshape_runtime.ShapeCheckError):
            matmul(torch.empty(3, 4), torch.empty(5, 5), 0)


class MalformedConstraintTests(unittest.TestCase):
    BAD = [
        "", "   ", "(", ")", "(== 1 2))", "(== 1)", "(== 1 2 3)", "(size 0)", "(size 0 1 2)",
        "(size x 1)", "(size (int 0) 1)", "(size -1 0)", "(dim 256)", "(foo 1 2)", "size",
        "()", "(== (size 0 1) (< 1 2))", "(+ 1 2)", "(and 1)", "(not 3)", "(ite 1 (true) (false))",
        "(ite (true) 1 (false))", "(== 99999999999999999999 1)", "(== 1.5 1)", "(== 0x10 16)",
        "(true 1)", "(< (true) 1)", "(" * 500 + "true" + ")" * 500,
    ]

    def test_malformed_constraints_raise_value_error_naming_the_place(self):
        for text in self.BAD:
            with self.subTest(constraint=text[:40]):
                with self.assertRaises(ValueError) as caught:
                    gshape_runtime.CheckTable("pkg/train.py", [[], [(12, 5, "x_c1", text, "m")]])
                message = str(caught.exception)
                self.assertTrue(message.startswith("pkg/train.py:12:5: malformed constraint"), message)
                self.assertIn("site 1, check 0", message)

    def test_the_error_says_what_is_wrong(self):
        with self.assertRaisesRegex(ValueError, r"unknown operator 'foo'"):
            one_check_table("(foo 1 2)")
        with self.assertRaisesRegex(ValueError, r"integer, not a condition"):
            one_check_table("(+ 1 2)")
        with self.assertRaisesRegex(ValueError, r"missing its dimension"):
            one_check_table("(== (size 0) 1)")
        with self.assertRaisesRegex(ValueError, r"needs an attribute name"):
            one_check_table("(== (attr 0 (size 0 0)) 1)")
        with self.assertRaisesRegex(ValueError, r"needs an attribute name"):
            one_check_table("(== (attr 0 9lives) 1)")

    def test_malformed_messages_raise_value_error(self):
        for message in ["{", "}", "a } b", "{}", "{(size 0)}", "{shape x}", "{shape 999}", "{(foo)}", "{size 0 1}"]:
            with self.subTest(message=message):
                with self.assertRaisesRegex(ValueError, r"^m\.py:3:7: malformed message template"):
                    one_check_table("(true)", message)

    def test_malformed_table_structure_raises_type_error(self):
        for sites in ([[(1, 2, "t", "(true)")]], [[(1, 2, 3, "(true)", "m")]], [["not a tuple"]], [5],
                      [[("1", 2, "t", "(true)", "m")]], [[(1, 2, "t", "(true)", "m", [3])]]):
            with self.subTest(sites=sites):
                with self.assertRaises(TypeError):
                    gshape_runtime.CheckTable("m.py", sites)
        with self.assertRaises(TypeError):
            gshape_runtime.CheckTable("m.py", 5)

    def test_well_formed_tables_accept_none_sites_and_blanks(self):
        table = gshape_runtime.CheckTable("m.py", [None, [], [(1, 1, "", "  ( ==  ( size 0 1 )\n 784 ) ", "m")]])
        self.assertEqual((table.site_count, table.check_count), (3, 1))
        self.assertIs(table.check(0, 0, X), X)
        self.assertIs(table.check(2, 0, X), X)


if __name__ == "__main__":
    unittest.main()
