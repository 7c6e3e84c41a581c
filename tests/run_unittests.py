"""Runs every test_*.py of a tests/ folder with unittest (there is no pytest
on the machine) and ends with one closing line `LABEL: N passed, N failed,
N skipped`; exits 1 when any test failed or errored, or none ran (ctest
reads the exit status).

Usage: run_unittests.py FOLDER LABEL
"""

import os
import sys
import unittest


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    folder, label = os.path.abspath(sys.argv[1]), sys.argv[2]
    # The runtime reads these switches when gshape_runtime is imported: the
    # tests set them themselves (in subprocesses), whatever the caller's
    # environment.
    for name in ("GSHAPE_CHECKS", "GSHAPE_STATS"):
        os.environ.pop(name, None)
    sys.path.insert(0, folder)
    suite = unittest.defaultTestLoader.discover(folder, pattern="test_*.py", top_level_dir=folder)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    print("%s: %d passed, %d failed, %d skipped" % (label, passed, failed, skipped))
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
