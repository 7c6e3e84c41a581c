"""Runs every tests/runtime/test_*.py with unittest and ends with one
closing line `runtime: N passed, N failed, N skipped`; exits 1 when any
test failed or errored (ctest reads the exit status)."""

import os
import sys
import unittest


def main():
    # The switches are read when gshape_runtime is imported: the tests set
    # them themselves (in subprocesses), whatever the caller's environment.
    for name in ("GSHAPE_CHECKS", "GSHAPE_STATS"):
        os.environ.pop(name, None)
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    print("runtime: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
