#!/usr/bin/env python3
"""Runs samples/rules/ under PyTorch itself, in one process.

Usage: run_rule_cases.py RULES_DIR

The sample runner checks gshape's diagnostics against the samples' marks;
this checks the marks against PyTorch: every case_ of a `*_ok.py` sample
runs without error, and every case_ of any other sample (`*_bad.py`,
training_mode_deferred.py, layout_deferred.py) fails with PyTorch's own error at its last line,
the line its `# expect-error@+1` mark points at. Prints a line per file;
exit status 1 if any case disagrees.
"""
import os
import runpy
import sys
import traceback


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    folder = os.path.abspath(sys.argv[1])
    sys.path.insert(0, folder)  # the samples import rule_cases from their folder
    from rule_cases import cases, expect_each_case_to_fail

    failed = 0
    names = sorted(n for n in os.listdir(folder) if n.endswith(".py") and n != "rule_cases.py")
    for name in names:
        namespace = runpy.run_path(os.path.join(folder, name), run_name="rule_sample")
        found = cases(namespace)
        if not found:
            print(f"FAIL {name}: no case_ functions")
            failed += 1
            continue
        if name.endswith("_ok.py"):
            wrong = 0
            for case_name, case in found:
                try:
                    case()
                except Exception:  # a correct sample must run
                    print(f"{case_name}: {traceback.format_exc().strip().splitlines()[-1]}")
                    wrong += 1
        else:
            wrong = expect_each_case_to_fail(namespace)
        status = "ok  " if wrong == 0 else "FAIL"
        print(f"{status} {name}: {len(found)} cases, {wrong} disagree with PyTorch")
        failed += wrong != 0
    print(f"{len(names) - failed} files agree with PyTorch, {failed} do not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
