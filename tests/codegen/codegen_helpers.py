"""Helpers shared by the codegen Python tests: instrument a text with
gshape_codegen_tool (auto plans: every call, operator, subscript and
augmented assignment is a site whose operands are all wrapped), run Python
programs, and make temporary projects."""

import json
import os
import subprocess
import sys
import tempfile

import strip_instrumentation

PYTHON = "/usr/bin/python3"
TOOL = os.environ.get("GSHAPE_CODEGEN_TOOL", "")
RUNTIME_PATH = os.environ.get("GSHAPE_RUNTIME_PATH", "")
SOURCE_DIR = os.environ.get("GSHAPE_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def require_tool(test):
    if not TOOL or not os.path.exists(TOOL):
        test.fail("GSHAPE_CODEGEN_TOOL is not set to the built gshape_codegen_tool")
    if not RUNTIME_PATH or not os.path.isdir(os.path.join(RUNTIME_PATH, "gshape_runtime")):
        test.fail("GSHAPE_RUNTIME_PATH does not hold the built gshape_runtime package")


def write(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode, **({} if isinstance(data, bytes) else {"encoding": "utf-8", "newline": ""})) as f:
        f.write(data)
    return path


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def instrument_bytes(source, directory, name="prog.py", extra=()):
    """Instruments `source` (bytes) saved as directory/name; returns (output
    bytes, summary dict, original path, instrumented path)."""
    original = write(os.path.join(directory, name), source)
    out = os.path.join(directory, "instrumented", name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    done = subprocess.run([TOOL, "instrument", original, out, "--display", original, *extra],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError("gshape_codegen_tool failed (%d): %s" % (done.returncode, done.stderr))
    return read_bytes(out), json.loads(done.stdout), original, out


def runtime_env(extra_path=None):
    env = dict(os.environ)
    parts = [p for p in (extra_path, RUNTIME_PATH) if p]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    env.pop("GSHAPE_CHECKS", None)
    env.pop("GSHAPE_STATS", None)
    return env


def run_python(path, cwd=None, env=None, stdin=None, args=()):
    return subprocess.run([PYTHON, path, *args], capture_output=True, cwd=cwd,
                          env=env if env is not None else runtime_env(), input=stdin, timeout=300)


def line_count(data):
    """Lines as Python counts them (\\n, \\r\\n and \\r end a line)."""
    return len(data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n"))


def max_bracket_depth(line):
    """The deepest bracket nesting of one line of code (bytes), by Python's own tokenizer."""
    import io
    import tokenize
    depth = deepest = 0
    for token in tokenize.tokenize(io.BytesIO(line + b"\n").readline):
        if token.type == tokenize.OP and token.string in ("(", "[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token.type == tokenize.OP and token.string in (")", "]", "}"):
            depth -= 1
    return deepest


def strip(data, encoding="utf-8"):
    return strip_instrumentation.strip_bytes(data, encoding)


class TempDir:
    def __enter__(self):
        self._dir = tempfile.TemporaryDirectory(prefix="gshape-codegen-")
        return self._dir.name

    def __exit__(self, *exc):
        self._dir.cleanup()
