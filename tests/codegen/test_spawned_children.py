"""`gshape run` checks the code of child processes too: a DataLoader worker
started with multiprocessing's "spawn" (the default on macOS and Windows,
common with CUDA) is a fresh interpreter that imported the original files,
so its shape errors went unchecked (an outside user's report); and with
any start method, a worker's ShapeCheckError must reach the main process
(its class, named ShapeCheckError like the base, could not be pickled)."""

import os
import subprocess
import unittest

import codegen_helpers as h

DATASET = '''\
import torch
from torch.utils.data import Dataset


class DS(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        x = torch.randn(3, 4)
        return x @ torch.randn(5, 2)
'''

MAIN = '''\
import sys
import torch.multiprocessing as mp
from torch.utils.data import DataLoader
from ds import DS

if __name__ == "__main__":
    mp.set_start_method(sys.argv[1])
    for b in DataLoader(DS(), batch_size=4, num_workers=2):
        print(tuple(b.shape))
'''


class SpawnedChildren(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)
        self.tmp = h.TempDir()
        self.dir = self.tmp.__enter__()
        self.script = h.write(os.path.join(self.dir, "main.py"), MAIN)
        h.write(os.path.join(self.dir, "ds.py"), DATASET)
        self.cache = os.path.join(self.dir, "cache")

    def tearDown(self):
        self.tmp.__exit__(None, None, None)

    def run_with(self, method):
        command = [h.TOOL, "run", self.script, "--cache-home", self.cache, "--", method]
        return subprocess.run(command, capture_output=True, text=True, cwd=self.dir, timeout=300)

    def test_a_worker_fails_with_shape_check_error_under_each_start_method(self):
        for method in ("spawn", "fork"):
            with self.subTest(method=method):
                done = self.run_with(method)
                self.assertEqual(done.returncode, 1, done.stderr)
                self.assertIn("gshape_runtime.ShapeCheckError: Caught ShapeCheckError in DataLoader worker", done.stderr)
                self.assertIn("ds.py:11:16: [matmul_c2] matmul:", done.stderr)
                self.assertNotIn("mat1 and mat2 shapes cannot be multiplied", done.stderr)
                self.assertNotIn("PicklingError", done.stderr)


if __name__ == "__main__":
    unittest.main()
