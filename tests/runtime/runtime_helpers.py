"""Helpers shared by the runtime tests: run the check of one call or operator
on given operands and say whether it passed, failed or could not decide."""

import gshape_runtime

PASS, FAIL, SKIP = "pass", "fail", "skip"


def kinds_of(args, kwargs):
    return ["arg"] * len(args) + [name + "=" for name in kwargs]


def call_table(callee_args=(), kwargs=None, path="m.py"):
    """A one-site table for `callee(*args, **kwargs)` at line 3, column 7."""
    kinds = ["callee"] + kinds_of(callee_args, kwargs or {})
    return gshape_runtime.CheckTable(path, [(3, 7, None, kinds)], enabled=True)


def verdict(table):
    counters = table.stats()[0]
    return counters


def outcome_of_table(table, values):
    try:
        table.check_values(0, *values)
    except gshape_runtime.ShapeCheckError:
        failed = True
    else:
        failed = False
    counters = table.stats()[-1]
    if failed:
        assert counters["failures"] >= 1, counters
        return FAIL
    return SKIP if counters["skipped"] or counters["no_rule"] else PASS


def call_outcome(callee, *args, **kwargs):
    """PASS, FAIL or SKIP for the check of `callee(*args, **kwargs)`."""
    table = call_table(args, kwargs)
    return outcome_of_table(table, (callee, *args, *kwargs.values()))


def op_outcome(rule, *operands):
    """PASS, FAIL or SKIP for the check of operator `rule` ("operator.add") on operands."""
    table = gshape_runtime.CheckTable("m.py", [(3, 7, rule, ["arg"] * len(operands))], enabled=True)
    return outcome_of_table(table, operands)


def failure(callee, *args, **kwargs):
    """The ShapeCheckError of `callee(*args, **kwargs)`'s check (or None)."""
    table = call_table(args, kwargs)
    try:
        table.check_values(0, callee, *args, *kwargs.values())
    except gshape_runtime.ShapeCheckError as error:
        return error
    return None
