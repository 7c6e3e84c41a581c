"""A failed check raises the exception class PyTorch raises for the same
constraint: every case of the rule samples (samples/rules/*_bad.py) is run
under PyTorch, and the builtin class of PyTorch's error must be the builtin
class of gshape_runtime.error_class(tag) for the tag the case is marked with.
So a program that catches IndexError (the sequence protocol of a Dataset
without __len__, `except IndexError: break`) catches the check too, and one
that catches RuntimeError does not catch what PyTorch raises as ValueError."""

import glob
import importlib.util
import inspect
import os
import re
import sys
import unittest
import warnings

import gshape_runtime
from gshape_runtime import _native

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "rules")
MARK = re.compile(r"expect-(?:error|warning)@\+1: *([a-z0-9_, ]+)")


def builtin_class(cls):
    """The first builtin exception class in `cls`'s method resolution order."""
    for base in cls.__mro__:
        if base.__module__ == "builtins":
            return base
    return Exception


def sample_cases():
    """(file, case name, tags, the builtin class PyTorch raises) for each bad case."""
    sys.path.insert(0, SAMPLES)
    out = []
    for path in sorted(glob.glob(os.path.join(SAMPLES, "*_bad.py"))):
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        module = importlib.util.module_from_spec(spec)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spec.loader.exec_module(module)
        for name, case in list(vars(module).items()):
            if not name.startswith("case_") or not callable(case):
                continue
            tags = []
            for found in MARK.findall("".join(inspect.getsourcelines(case)[0])):
                tags += [t for t in found.replace(" ", "").split(",") if t]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    case()
            except Exception as e:  # PyTorch's own error
                out.append((os.path.basename(path), name, tags, builtin_class(type(e))))
    return out


class ErrorClassesAgainstPyTorch(unittest.TestCase):
    def test_every_marked_case_raises_the_class_pytorch_raises(self):
        cases = sample_cases()
        self.assertGreater(len(cases), 400)
        per_tag = {}
        for _, _, tags, cls in cases:
            for tag in tags:
                per_tag.setdefault(tag, set()).add(cls)
        checked = 0
        for tag, classes in sorted(per_tag.items()):
            if len(classes) != 1:
                continue  # PyTorch raises several classes for one constraint (pad_c7): not one to match
            pytorch = next(iter(classes))
            ours = _native.error_class(tag)
            with self.subTest(tag=tag):
                self.assertTrue(issubclass(ours, gshape_runtime.ShapeCheckError))
                self.assertIs(builtin_class(ours), pytorch)
            checked += 1
        self.assertGreater(checked, 400)

    def test_the_classes_are_shape_check_errors_named_alike(self):
        index_error = _native.error_class("getitem_c2")
        self.assertTrue(issubclass(index_error, IndexError))
        self.assertFalse(issubclass(index_error, RuntimeError))
        self.assertEqual(index_error.__name__, "ShapeCheckError")
        self.assertTrue(issubclass(_native.error_class("linear_c1"), RuntimeError))
        self.assertTrue(issubclass(_native.error_class("no_such_tag"), RuntimeError))


if __name__ == "__main__":
    unittest.main()
