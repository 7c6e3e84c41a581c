"""Helpers shared by the runtime tests: evaluate one constraint on given
operands and say whether it passed, failed or was not evaluable."""

import gshape_runtime

PASS, FAIL, SKIP = "pass", "fail", "skip"


def one_check_table(constraint, message="check failed", tag="t_c1", slot_names=None, path="m.py"):
    check = (3, 7, tag, constraint, message)
    if slot_names is not None:
        check = check + (slot_names,)
    return gshape_runtime.CheckTable(path, [[check]], enabled=True)


def outcome(constraint, *operands):
    """PASS, FAIL or SKIP for `constraint` with slot i holding operands[i],
    read from the exception and the table's own counters."""
    table = one_check_table(constraint)
    try:
        table.check_values(0, *operands)
    except gshape_runtime.ShapeCheckError:
        failed = True
    else:
        failed = False
    counters = table.stats()[0]
    assert counters["runs"] == 1, counters
    if failed:
        assert counters["failures"] == 1 and counters["skipped"] == 0, counters
        return FAIL
    assert counters["failures"] == 0, counters
    return SKIP if counters["skipped"] == 1 else PASS
