"""The check-only rules of rules_python.cpp at run time against PyTorch:
indexing a tensor or a torch.Size (getitem_c1 to getitem_c3), assigning into it (setitem_c1
to setitem_c4), unpacking tensors into names (unpack_c1, unpack_c2), x.size(dim) (size_c1) and
TensorDataset (tensordataset_c1, c2) raise exactly when PyTorch raises,
and decide every case of the forms they model."""

import random
import unittest

import torch
from torch.utils.data import TensorDataset

import gshape_runtime
from runtime_helpers import FAIL, PASS, SKIP, call_outcome, op_outcome


def random_index(rng, rank):
    items = []
    ellipsis = False
    for _ in range(rng.randint(1, rank + 2)):
        kind = rng.choice(["int", "int", "int", "slice", "none", "ellipsis"])
        if kind == "int":
            items.append(rng.randint(-4, 4))
        elif kind == "slice":
            items.append(slice(None, rng.randint(0, 3)))
        elif kind == "none":
            items.append(None)
        elif not ellipsis:
            items.append(Ellipsis)
            ellipsis = True
    return items[0] if len(items) == 1 and rng.random() < 0.5 else tuple(items)


class IndexingAgainstPyTorch(unittest.TestCase):
    def test_random_basic_indexing(self):
        rng = random.Random(11)
        errors = 0
        for _ in range(800):
            shape = [rng.randint(0, 3) for _ in range(rng.randint(0, 3))]
            x = torch.zeros(shape)
            index = random_index(rng, len(shape))
            try:
                x[index]
                torch_fails = False
            except IndexError:
                torch_fails = True
            with self.subTest(shape=shape, index=index):
                self.assertEqual(op_outcome("operator.getitem", x, index), FAIL if torch_fails else PASS)
            errors += torch_fails
        self.assertGreater(errors, 100)

    def test_indexing_a_size(self):
        for shape in ([], [2], [2, 3], [1, 2, 3, 4]):
            size = torch.zeros(shape).shape
            for i in range(-6, 6):
                try:
                    size[i]
                    torch_fails = False
                except IndexError:
                    torch_fails = True
                with self.subTest(shape=shape, index=i):
                    self.assertEqual(op_outcome("operator.getitem", size, i), FAIL if torch_fails else PASS)

    def test_advanced_indexing_checks_shapes_not_values(self):
        x = torch.zeros(3, 4)
        self.assertEqual(op_outcome("operator.getitem", x, torch.tensor([0, 2])), PASS)
        self.assertEqual(op_outcome("operator.getitem", x, x[:, 0] > 0), PASS)
        self.assertEqual(op_outcome("operator.getitem", x, (torch.tensor([0, 1]), torch.tensor([0, 1]))), PASS)
        # the mask's shape and the index tensors' broadcast are shapes: checked
        self.assertEqual(op_outcome("operator.getitem", x, torch.zeros(4) > 0), FAIL)
        self.assertEqual(op_outcome("operator.getitem", x, (torch.tensor([0, 1]), torch.tensor([0, 1, 2]))), FAIL)
        # an index out of range is data, not shape: not concluded from sizes
        self.assertEqual(op_outcome("operator.getitem", x, [0, 5]), PASS)
        # a float index tensor is PyTorch's own (dtype) error
        self.assertEqual(op_outcome("operator.getitem", x, torch.tensor([0.5])), SKIP)
        self.assertEqual(op_outcome("operator.getitem", [1, 2], 0), SKIP)  # a list: Python's own indexing


def random_slice(rng):
    def bound():
        return None if rng.random() < 0.3 else rng.randint(-5, 5)
    return slice(bound(), bound(), rng.choice([None, None, 1, 2, 3]))


def random_setitem_index(rng, rank):
    items = []
    ellipsis = False
    for _ in range(rng.randint(1, rank + 1)):
        kind = rng.choice(["int", "slice", "slice", "slice", "none", "ellipsis"])
        if kind == "int":
            items.append(rng.randint(-4, 4))
        elif kind == "slice":
            items.append(random_slice(rng))
        elif kind == "none":
            items.append(None)
        elif not ellipsis:
            items.append(Ellipsis)
            ellipsis = True
    return items[0] if len(items) == 1 and rng.random() < 0.5 else tuple(items)


class AssignmentAgainstPyTorch(unittest.TestCase):
    def test_random_basic_assignment(self):
        # the value is the indexed part's shape, or a near miss of it: an axis
        # changed, made 1, dropped, or a leading axis added
        rng = random.Random(12)
        errors = passes = 0
        for _ in range(1500):
            shape = [rng.randint(0, 5) for _ in range(rng.randint(1, 3))]
            x = torch.zeros(shape)
            index = random_setitem_index(rng, len(shape))
            try:
                part = list(x[index].shape)
            except IndexError:
                part = [rng.randint(0, 3) for _ in range(rng.randint(0, 2))]
            value_shape = list(part)
            change = rng.choice(["same", "axis", "one", "drop", "lead1", "lead2"])
            if change == "axis" and value_shape:
                value_shape[rng.randrange(len(value_shape))] = rng.randint(0, 5)
            elif change == "one" and value_shape:
                value_shape[rng.randrange(len(value_shape))] = 1
            elif change == "drop" and value_shape:
                value_shape.pop(0)
            elif change == "lead1":
                value_shape.insert(0, 1)
            elif change == "lead2":
                value_shape.insert(0, 2)
            value = torch.ones(value_shape)
            try:
                x[index] = value
                torch_fails = False
            except (IndexError, RuntimeError):
                torch_fails = True
            with self.subTest(shape=shape, index=index, value=value_shape):
                self.assertEqual(op_outcome("operator.setitem", x, index, value), FAIL if torch_fails else PASS)
            errors += torch_fails
            passes += not torch_fails
        self.assertGreater(errors, 300)
        self.assertGreater(passes, 300)

    def test_a_number_fills_and_advanced_indexing_is_checked(self):
        x = torch.zeros(3, 4)
        self.assertEqual(op_outcome("operator.setitem", x, (slice(None), 1), 2.5), PASS)
        self.assertEqual(op_outcome("operator.setitem", x, 5, 2.5), FAIL)
        self.assertEqual(op_outcome("operator.setitem", x, torch.tensor([0, 2]), torch.ones(2, 4)), PASS)
        self.assertEqual(op_outcome("operator.setitem", x, torch.tensor([0, 2]), torch.ones(3, 4)), FAIL)
        self.assertEqual(op_outcome("operator.setitem", x, x > 0, 1.0), PASS)
        self.assertEqual(op_outcome("operator.setitem", x, torch.zeros(4) > 0, 1.0), FAIL)
        # a value through a mask meets its count of true elements: data, not concluded
        self.assertEqual(op_outcome("operator.setitem", x, x > 0, torch.ones(5)), SKIP)


class UnpackingAgainstPyTorch(unittest.TestCase):
    def test_chunks_and_rows(self):
        cases = 0
        for size in range(0, 9):
            x = torch.zeros(2, size)
            for chunks in range(1, 5):
                pieces = x.chunk(chunks, dim=-1)
                for names in range(1, 5):
                    fails = len(pieces) != names
                    with self.subTest(size=size, chunks=chunks, names=names):
                        self.assertEqual(op_outcome("operator.unpack%d" % names, pieces), FAIL if fails else PASS)
                    cases += 1
            for names in range(1, 4):
                with self.subTest(rows=size, names=names):
                    self.assertEqual(op_outcome("operator.unpack%d" % names, torch.zeros(size, 2)),
                                     FAIL if size != names else PASS)
        self.assertGreater(cases, 100)
        # a 0-d tensor cannot be iterated; numbers are Python's own business
        self.assertEqual(op_outcome("operator.unpack2", torch.zeros(())), FAIL)
        self.assertEqual(op_outcome("operator.unpack2", (1, 2, 3)), SKIP)

    def test_an_iterator_is_read_as_python_reads_it(self):
        # `q, k, v = map(f, qkv)`: the check reads names + 1 items, as Python's
        # unpacking does, and hands the unpacking a tuple of them
        table = gshape_runtime.CheckTable("m.py", [(3, 7, "operator.unpack3", ["arg"])], enabled=True)
        pieces = torch.zeros(2, 6).chunk(3, dim=-1)
        q, k, v = table.check(0, 0, map(lambda t: t * 2, pieces))
        self.assertEqual([t.shape for t in (q, k, v)], [torch.Size([2, 2])] * 3)
        for count in (2, 4):
            with self.subTest(pieces=count):
                with self.assertRaises(gshape_runtime.ShapeCheckError):
                    table.check(0, 0, iter(torch.zeros(2, 8).chunk(count, dim=-1)))
        # an endless iterator stops at names + 1 items, as Python's unpacking does
        endless = (torch.zeros(1) for _ in iter(int, 1))
        with self.assertRaises(gshape_runtime.ShapeCheckError):
            table.check(0, 0, endless)
        # an iterator of numbers: counted by Python (ValueError), not the check
        items = table.check(0, 0, iter([1, 2, 3, 4]))
        with self.assertRaises(ValueError):
            a, b, c = items
        # iter() first, once, as the unpacking calls it: an iterator may set
        # itself up in __iter__ (tester9/07)
        class Batches:
            def __init__(self):
                self.calls = 0
            def __iter__(self):
                self.calls += 1
                self.i = 0
                return self
            def __next__(self):
                self.i += 1
                if self.i > 3:
                    raise StopIteration
                return torch.zeros(2)
        batches = Batches()
        q, k, v = table.check(0, 0, batches)
        self.assertEqual(batches.calls, 1)
        # the iterator's own error comes out unchanged
        def broken():
            yield torch.zeros(1)
            raise KeyError("broken")
        with self.assertRaises(KeyError):
            table.check(0, 0, broken())


def python_outcome(action):
    """PASS or FAIL: whether PyTorch (Python) raises doing `action()`."""
    try:
        action()
    except (ValueError, TypeError, RuntimeError):
        return FAIL
    return PASS


class TruthScalarsAndLoopUnpackingAgainstPyTorch(unittest.TestCase):
    SHAPES = ([], [0], [1], [3], [1, 1], [2, 1], [0, 3], [1, 0], [5, 4], [5, 3], [2, 3, 4], [4, 2, 2])

    def test_truth(self):
        for shape in self.SHAPES:
            x = torch.zeros(shape)
            with self.subTest(shape=shape):
                self.assertEqual(op_outcome("operator.truth", x), python_outcome(lambda: bool(x)))
                self.assertEqual(call_outcome(bool, x), python_outcome(lambda: bool(x)))
        # other values are Python's own business
        self.assertEqual(op_outcome("operator.truth", [1, 2]), SKIP)

    def test_scalars(self):
        for shape in self.SHAPES:
            x = torch.zeros(shape)
            for convert in (float, int):
                with self.subTest(shape=shape, convert=convert.__name__):
                    self.assertEqual(call_outcome(convert, x), python_outcome(lambda: convert(x)))
            with self.subTest(shape=shape, convert="item"):
                self.assertEqual(call_outcome(x.item), python_outcome(x.item))
        self.assertEqual(call_outcome(int, "12", 8), PASS)

    def test_loop_unpacking(self):
        def loop(items, names):  # the loop itself, as Python runs it
            targets = ", ".join("v%d" % i for i in range(names)) + ("," if names == 1 else "")
            code = "for %s in items:\n    pass\n" % targets
            return lambda: exec(code, {"items": items})
        cases = 0
        for shape in self.SHAPES:
            for names in range(1, 5):
                x = torch.zeros(shape)
                with self.subTest(shape=shape, names=names):
                    self.assertEqual(op_outcome("operator.iter_unpack%d" % names, x), python_outcome(loop(x, names)))
                pieces = [torch.zeros(shape), torch.zeros(3)]
                with self.subTest(pieces=shape, names=names):
                    self.assertEqual(op_outcome("operator.iter_unpack%d" % names, pieces),
                                     python_outcome(loop(pieces, names)))
                cases += 2
        self.assertGreater(cases, 80)
        # tuples of numbers and iterators are Python's own business (an
        # iterator is not read: the loop reads it)
        self.assertEqual(op_outcome("operator.iter_unpack2", [(1, 2, 3)]), SKIP)
        table = gshape_runtime.CheckTable("m.py", [(3, 7, "operator.iter_unpack2", ["arg"])], enabled=True)
        items = table.check(0, 0, iter([torch.zeros(2), torch.zeros(2)]))
        self.assertEqual(len(list(items)), 2)


class SizeAndDatasetAgainstPyTorch(unittest.TestCase):
    def test_size_dims(self):
        for shape in ([], [2], [2, 3], [1, 2, 3]):
            x = torch.zeros(shape)
            for dim in range(-4, 4):
                try:
                    x.size(dim)
                    torch_fails = False
                except IndexError:
                    torch_fails = True
                with self.subTest(shape=shape, dim=dim):
                    self.assertEqual(call_outcome(x.size, dim), FAIL if torch_fails else PASS)

    def test_tensor_dataset(self):
        for shapes in ([[3], [3, 2]], [[3], [4]], [[], [3]], [[5, 1], [5], [5, 2, 2]], [[5, 1], [5], [6]]):
            tensors = [torch.zeros(s) for s in shapes]
            try:
                TensorDataset(*tensors)
                torch_fails = False
            except (AssertionError, IndexError):
                torch_fails = True
            with self.subTest(shapes=shapes):
                self.assertEqual(call_outcome(TensorDataset, *tensors), FAIL if torch_fails else PASS)


if __name__ == "__main__":
    unittest.main()
