"""The rewriter on awkward files, with every operation instrumented (auto
plans, checks that always pass): stripping the insertions gives back the
original bytes, the line count is unchanged, the output compiles, and the
instrumented program prints the same output with the same exit code."""

import os
import subprocess
import unittest

import codegen_helpers as h
from awkward_sources import AWKWARD


class AwkwardFiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = h.TempDir()
        cls.dir = cls.tmp.__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def setUp(self):
        h.require_tool(self)

    def instrument(self, name):
        source, encoding = AWKWARD[name]
        directory = os.path.join(self.dir, name)
        out, summary, original, instrumented = h.instrument_bytes(source, directory)
        return source, encoding, out, summary, original, instrumented

    def test_strip_gives_back_the_original(self):
        for name in sorted(AWKWARD):
            with self.subTest(name=name):
                source, encoding, out, summary, _, _ = self.instrument(name)
                self.assertEqual(h.strip(out, encoding), source)
                if summary["sites"] > 0:
                    self.assertNotEqual(out, source)  # something was inserted
                else:
                    self.assertEqual(out, source)     # no check: byte for byte

    def test_line_count_is_unchanged(self):
        for name in sorted(AWKWARD):
            with self.subTest(name=name):
                source, _, out, _, _, _ = self.instrument(name)
                self.assertEqual(h.line_count(out), h.line_count(source))
                self.assertEqual(out.count(b"\n"), source.count(b"\n"))
                self.assertEqual(out.count(b"\r"), source.count(b"\r"))

    def test_output_compiles(self):
        for name in sorted(AWKWARD):
            with self.subTest(name=name):
                _, _, out, _, _, instrumented = self.instrument(name)
                compile(out, instrumented, "exec", dont_inherit=True)

    def test_most_files_get_checks(self):
        # Guards the test itself: an auto plan that wrapped nothing would pass
        # the other tests trivially.
        without = sorted(n for n in AWKWARD if self.instrument(n)[3]["sites"] == 0)
        self.assertEqual(without, ["class_body_runs_checks_first", "comments_only", "empty_file", "if_first_no_place"])

    def test_instrumented_program_behaves_the_same(self):
        for name in sorted(AWKWARD):
            with self.subTest(name=name):
                _, _, _, summary, original, instrumented = self.instrument(name)
                before = h.run_python(original)
                after = h.run_python(instrumented)
                self.assertEqual(after.returncode, before.returncode, after.stderr.decode(errors="replace"))
                self.assertEqual(after.stdout, before.stdout, after.stderr.decode(errors="replace"))
                self.assertEqual(before.returncode, 0, before.stderr)

    def test_places_for_the_runtime_import(self):
        expectations = {
            # file → the line (1-based) the header must be on
            "future_imports": 3,          # after the last __future__ import
            "docstring_then_code_same_line": 1,
            "docstring_multiline_then_class": 2,  # end of the docstring
            "shebang_and_encoding": 7,     # the class and def before it run no check at load time
            "shebang_only_then_def": 4,    # `x = f(1) * 2`: the def before it runs nothing
            "first_statement_compound_comment_before": 1,
            "first_statement_class_blank_line_after": 3,
            "bom": 1,
            "bom_first_compound": 1,
            "crlf": 1,
            "encoding_latin1": 2,
            "def_first_then_simple": 3,
        }
        for name, line in expectations.items():
            with self.subTest(name=name):
                _, encoding, out, _, _, _ = self.instrument(name)
                lines = out.decode(encoding).splitlines()
                where = [i + 1 for i, text in enumerate(lines) if "import gshape_runtime as _gshape_rt" in text]
                self.assertEqual(where, [line])

    def test_shebang_and_encoding_lines_stay_intact(self):
        for name, kept in (("shebang_and_encoding", 2), ("shebang_only_then_def", 1), ("encoding_latin1", 1)):
            with self.subTest(name=name):
                source, _, out, _, _, _ = self.instrument(name)
                self.assertEqual(out.split(b"\n")[:kept], source.split(b"\n")[:kept])

    def test_files_without_a_place_are_copied(self):
        for name in ("class_body_runs_checks_first", "if_first_no_place"):
            with self.subTest(name=name):
                source, _, out, summary, _, _ = self.instrument(name)
                self.assertEqual(out, source)
                self.assertIn("runtime import", summary["problem"])
                self.assertTrue(summary["site_outcomes"])
                self.assertFalse(any(o["instrumented"] for o in summary["site_outcomes"]))
                self.assertTrue(all("runtime import" in o["problem"] for o in summary["site_outcomes"]))

    def test_unwrappable_operands_are_reported(self):
        # a target of `+=` that calls something (`d[key()]`) is read once
        # only: its site is checked without it, and says so
        _, _, _, summary, _, _ = self.instrument("augmented_assignment")
        problems = {o["problem"] for o in summary["site_outcomes"] if o["instrumented"] and o["problem"]}
        self.assertTrue(any("augmented assignment" in p for p in problems), problems)

    def test_sites_nested_past_the_budget_are_left_unchecked_and_say_so(self):
        # the copy compiles (test_output_compiles) and runs the same
        # (test_instrumented_program_behaves_the_same); here: what is unchecked says why
        _, _, out, summary, _, _ = self.instrument("long_operator_chains")
        deep = [o for o in summary["site_outcomes"] if "nested too deep" in o["problem"]]
        self.assertGreater(len(deep), 300)
        self.assertFalse(any(o["instrumented"] for o in deep))
        self.assertTrue(any(o["instrumented"] for o in summary["site_outcomes"]))
        # no line of the copy is deeper than the budget, beyond the program's own brackets
        self.assertLessEqual(h.max_bracket_depth(out.splitlines()[2]), 100)
        self.assertGreater(h.max_bracket_depth(out.splitlines()[2]), 90)
        self.assertEqual(h.max_bracket_depth(out.splitlines()[4]), 151)

    def test_self_documenting_fstring_fields_are_left_alone(self):
        source, encoding, out, _, _, _ = self.instrument("fstrings")
        for field in ("{len(xs)=}", "{f(1) = }"):
            self.assertIn(field.encode(encoding), out)


if __name__ == "__main__":
    unittest.main()
