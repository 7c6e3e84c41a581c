"""Every sample program, with every operation instrumented: stripping gives
back the original, the line count is the same, and the output compiles."""

import glob
import os
import unittest

import codegen_helpers as h


class Samples(unittest.TestCase):
    def setUp(self):
        h.require_tool(self)

    def test_samples_round_trip_and_compile(self):
        samples = sorted(glob.glob(os.path.join(h.SOURCE_DIR, "samples", "*.py")))
        self.assertGreater(len(samples), 10)
        with h.TempDir() as tmp:
            for path in samples:
                with self.subTest(sample=os.path.basename(path)):
                    source = h.read_bytes(path)
                    out, summary, _, instrumented = h.instrument_bytes(source, tmp, os.path.basename(path))
                    self.assertGreater(summary["sites"], 0)
                    self.assertEqual(h.strip(out), source)
                    self.assertEqual(h.line_count(out), h.line_count(source))
                    compile(out, instrumented, "exec", dont_inherit=True)


if __name__ == "__main__":
    unittest.main()
