"""Runs every tests/codegen/test_*.py with unittest and ends with one closing
line `codegen: N passed, N failed, N skipped`; exits 1 when any test failed
or errored (ctest reads the exit status). Needs GSHAPE_CODEGEN_TOOL (the
built gshape_codegen_tool) and GSHAPE_RUNTIME_PATH (the built runtime
package's parent folder); ctest sets both."""

import os
import sys
import unittest


def main():
    for name in ("GSHAPE_CHECKS", "GSHAPE_STATS"):
        os.environ.pop(name, None)
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    print("codegen: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
