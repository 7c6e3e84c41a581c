#!/usr/bin/env python3
"""gshape's syntax errors against CPython's own.

Usage: run_syntax_errors.py GSHAPE

Each snippet below is a file that does not compile. CPython (this
interpreter, 3.11) compiles it and raises SyntaxError; `gshape check` on the
same file must report exactly one error, `syntax error: MSG` at LINE:COL,
with CPython's msg, lineno and offset (for an IndentationError, lineno
only: CPython's column points into the indentation). The snippets are written to a
temporary folder (never into samples/, whose runner would check them).
Prints a line per snippet; exit status 1 if any disagrees.
"""
import os
import re
import subprocess
import sys
import tempfile

SNIPPETS = {
    "print_string": 'print "x"\n',
    "print_in_function": 'def f():\n    print "hello", x\n',
    "print_name": 'import torch\nprint x\n',
    "print_before_open_bracket": 'print "x"\nfoo(\n',
    "exec_statement": 'exec "x = 1"\n',
    "def_open_parameters": 'def f(:\n    pass\n',
    "tuple_never_closed": 'x = (1,\n',
    "list_never_closed": 'y = 1\nz = [1, 2\n',
    "dict_never_closed": 'd = {1: 2\n',
    "call_never_closed": 'foo(1, 2\nz = 3\n',
    "never_closed_in_function": 'def f(x):\n    return g(x\n\ndef h():\n    pass\n',
    "operator_at_end_of_file": 'x = (1 +\n',
    "if_without_colon": 'if x\n    pass\n',
    "def_without_colon": 'def f()\n    pass\n',
    "def_arrow_without_colon": 'def f() -> int\n    pass\n',
    "for_without_colon": 'for i in range(3)\n    pass\n',
    "class_without_colon": 'class A\n    pass\n',
    "else_without_colon": 'if x:\n    pass\nelse\n    pass\n',
    "with_without_colon": 'with open(f) as g\n    pass\n',
    "unmatched_close": 'x = )\n',
    "mismatched_close": 'x = (1, 2]\n',
    "mismatched_close_other_line": 'x = (1,\n 2]\n',
    "tokenizer_error_after_parse_error": 'if x\n    pass\ny = )\n',
    "stray_character": 'y = 1\nreturn $\n',
    "two_names": 'a b c\n',
    "two_names_in_header": 'if x y:\n    pass\n',
    "error_before_open_bracket": 'a b\ny = (\n',
    "unterminated_string": 'x = "abc\n',
    "unterminated_triple_quoted": 'x = """abc\ny\n',
    "indented_block_after_def": 'def f():\nreturn 1\n',
    "indented_block_after_if": 'if x:\npass\n',
    "indented_block_after_else": 'if x:\n    pass\nelse:\ny = 1\n',
    "indented_block_after_class": 'class A:\n\nx = 1\n',
    "indented_block_after_for_comment": 'for i in r:\n# c\nx\n',
    "missing_comma_in_call": 'foo(a b)\n',
    "missing_comma_in_tuple": 'x = (1 2 3\n',
    "unexpected_indent": 'x = 1\n    y = 2\n',
    "unindent_between_levels": 'for i in r:\n        a\n    b\n',
}

# CPython's column for an IndentationError points into or past the line's
# whitespace; gshape's points at the statement. The line and the message
# must still agree.
LINE_ONLY = {"unexpected_indent", "unindent_between_levels"}

# Valid Python 3 that tree-sitter-python reads as a Python 2 statement: no error.
VALID = {
    "print_chevron": 'import sys\nprint >>sys.stderr, "x"\n',
    "print_call": 'print("x")\nprint\n',
}

DIAGNOSTIC = re.compile(r"^(?P<path>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


def cpython_error(path):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    try:
        compile(source, path, "exec")
    except SyntaxError as e:
        return e.lineno, e.offset, e.msg
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    gshape = sys.argv[1]
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for name, text in list(SNIPPETS.items()) + list(VALID.items()):
            path = os.path.join(folder, name + ".py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            expected = cpython_error(path)
            run = subprocess.run([gshape, "check", path], capture_output=True, text=True)
            errors = [m for m in map(DIAGNOSTIC.match, run.stderr.splitlines() + run.stdout.splitlines()) if m]
            if name in VALID:
                ok = expected is None and not errors and run.returncode == 0
                got = f"exit {run.returncode}, {len(errors)} errors"
                want = "exit 0, no error (CPython compiles it)" if expected is None else f"CPython: {expected}"
            else:
                if expected is None:
                    print(f"FAIL {name}: CPython compiles it")
                    failed += 1
                    continue
                line, col, msg = expected
                want = f"{line}:{col}: syntax error: {msg}"
                got = "; ".join(f"{m['line']}:{m['col']}: {m['msg']}" for m in errors) or f"no error (exit {run.returncode})"
                if name in LINE_ONLY and len(errors) == 1:
                    want = f"{line}: syntax error: {msg}"
                    got = f"{errors[0]['line']}: {errors[0]['msg']}"
                ok = len(errors) == 1 and got == want and run.returncode == 1
            print(("ok   " if ok else "FAIL ") + f"{name}: {got}" + ("" if ok else f"\n     want {want}"))
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
