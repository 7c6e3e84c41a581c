"""Runs the case_ functions of a rule sample under PyTorch itself.

A `<group>_bad.py` sample ends with

    if __name__ == "__main__":
        import sys
        from rule_cases import expect_each_case_to_fail
        sys.exit(expect_each_case_to_fail(globals()))

so that running it checks what gshape's diagnostics claim: each case fails
with PyTorch's own error, at the case's last line (the line marked
`# expect-error@+1`). tests/samples/run_rule_cases.py runs every sample of
this folder that way in one process.
"""
import inspect
import traceback


def cases(namespace):
    """The case_ functions of a sample's globals, in definition order."""
    return [(name, f) for name, f in list(namespace.items()) if name.startswith("case_") and callable(f)]


def expect_each_case_to_fail(namespace):
    """Calls every case; returns how many did not fail at their last line."""
    wrong = 0
    for name, case in cases(namespace):
        lines, first = inspect.getsourcelines(case)
        last = first + len(lines) - 1
        try:
            case()
            print(f"{name}: no error")
            wrong += 1
        except Exception as e:  # any PyTorch error: the check is where it happens
            at = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.name == name]
            if at != [last]:
                print(f"{name}: failed at line {at}, not {last}: {e}")
                wrong += 1
    return wrong
