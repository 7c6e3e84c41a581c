"""The main module of a child process that multiprocessing started with
"spawn" under `gshape run` (launch.py names it in the preparation data).

The child runs it as __mp_main__, as it would run the parent's main file:
it installs the finder of instrumented copies, then runs the main file's
instrumented copy in this module's namespace under the original file name,
so that the objects the parent pickled (classes of __main__, functions of the
project's modules) resolve to instrumented code and the child's shape
requirements are checked too. Without `gshape run` it does nothing.
"""

import os
import sys


def _main_namespace():
    spec = os.environ.get("GSHAPE_LAUNCH_TREE", "")
    parts = spec.split(os.pathsep)
    if len(parts) != 3:
        return
    root, tree, original = parts
    from gshape_runtime import launch

    finder = launch._install(root, tree)
    copy = finder.instrumented_copy(original) or original
    with open(copy, "rb") as f:
        source = f.read()
    namespace = sys.modules[__name__].__dict__
    namespace["__file__"] = original
    exec(compile(source, original, "exec", dont_inherit=True), namespace)


if __name__ == "__mp_main__":
    _main_namespace()
