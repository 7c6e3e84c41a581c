"""Runs an instrumented copy of a script as if it were the original.

`gshape run` starts it as a script (not with -m, so that importing it does
not import torch before the program asks for it):

    python3 .../gshape_runtime/launch.py ROOT TREE SCRIPT [ARGS...]

ROOT is the project's folder, TREE the cache folder holding instrumented
copies of ROOT's Python files at the same relative paths (a file without
checks has no copy: the original runs), SCRIPT the script as the user typed
it. The program then sees what `python3 SCRIPT ARGS...` would show it:

- sys.argv == [SCRIPT, *ARGS]; the working directory is untouched;
- sys.path[0] is the script's folder (symlinks resolved, as Python does);
- __name__ == "__main__", __file__ the absolute path of the original;
- modules of ROOT are imported from their instrumented copies but compiled
  with the ORIGINAL file name, so __file__, tracebacks, linecache, inspect
  and warnings name the user's files and lines (both have the same lines);
- PYTHONPATH in os.environ is what the user had (gshape added the runtime's
  folder to find this package; the child processes the program starts see
  the user's value);
- the exit status is the program's: SystemExit codes as Python maps them,
  1 after an uncaught exception, whose traceback is printed without this
  launcher's frames.
"""

import importlib.abc
import importlib.machinery
import os
import sys
import types

_THIS_FILE = os.path.abspath(__file__)


def _restore_environment():
    saved = os.environ.pop("GSHAPE_LAUNCH_PYTHONPATH", None)
    if saved is None:
        return
    if saved == "unset":
        os.environ.pop("PYTHONPATH", None)
    elif saved.startswith("="):
        os.environ["PYTHONPATH"] = saved[1:]


class _InstrumentedLoader(importlib.machinery.SourceFileLoader):
    """Loads a module's instrumented text under its original path."""

    def __init__(self, fullname, original, instrumented):
        super().__init__(fullname, original)
        self._instrumented = instrumented

    def get_data(self, path):
        if path == self.path:
            with open(self._instrumented, "rb") as f:
                return f.read()
        return super().get_data(path)

    def get_code(self, fullname):
        # Never a cached .pyc: one next to the original holds the original code.
        return self.source_to_code(self.get_data(self.path), self.path)


class _InstrumentedFinder(importlib.abc.MetaPathFinder):
    """Finds modules as usual; those of the project with an instrumented copy
    get a loader that reads the copy."""

    def __init__(self, root, tree):
        self._root = os.path.realpath(root)
        self._tree = tree

    def instrumented_copy(self, original):
        real = os.path.realpath(original)
        if os.path.commonpath([real, self._root]) != self._root:
            return None
        copy = os.path.join(self._tree, os.path.relpath(real, self._root))
        return copy if os.path.isfile(copy) else None

    def find_spec(self, fullname, path, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or not spec.has_location or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        copy = self.instrumented_copy(spec.origin)
        if copy is None:
            return None
        spec.loader = _InstrumentedLoader(fullname, spec.origin, copy)
        return spec

    def invalidate_caches(self):
        importlib.machinery.PathFinder.invalidate_caches()


def _without_launcher_frames(tb):
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) == _THIS_FILE:
        tb = tb.tb_next
    return tb


# Where a child process started with multiprocessing's "spawn" (the default
# on macOS and Windows, common with CUDA) finds the instrumented tree: it is
# a fresh interpreter that would import the original files.
_SPAWN_ENV = "GSHAPE_LAUNCH_TREE"


def _instrument_spawned_children(root, tree, original):
    """A spawned child (a DataLoader worker, a multiprocessing.Process) starts
    from preparation data the parent sends: it runs the parent's main file as
    __mp_main__ and imports modules by name. The data names
    gshape_runtime.spawn_main as the main module instead, which installs the
    finder in the child and runs the main file's instrumented copy, so the
    child's code is checked as the parent's is."""
    os.environ[_SPAWN_ENV] = os.pathsep.join([root, tree, original])
    try:
        from multiprocessing import spawn
    except ImportError:
        return
    prepare = spawn.get_preparation_data

    def get_preparation_data(name):
        data = prepare(name)
        if data.get("init_main_from_path") and os.path.abspath(data["init_main_from_path"]) == original:
            del data["init_main_from_path"]
            data["init_main_from_name"] = "gshape_runtime.spawn_main"
        return data

    spawn.get_preparation_data = get_preparation_data


def _install(root, tree):
    finder = _InstrumentedFinder(root, tree)
    sys.meta_path.insert(0, finder)
    return finder


def _run(root, tree, script, args):
    finder = _install(root, tree)
    sys.argv = [script] + list(args)
    sys.path[0] = os.path.dirname(os.path.realpath(script))
    original = os.path.abspath(script)
    copy = finder.instrumented_copy(original) or original
    with open(copy, "rb") as f:
        source = f.read()
    main = types.ModuleType("__main__")
    main.__file__ = original
    main.__cached__ = None
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", original)
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    _instrument_spawned_children(root, tree, original)
    code = compile(source, original, "exec", dont_inherit=True)
    exec(code, main.__dict__)


def main(argv):
    if len(argv) < 4:
        print("usage: launch.py ROOT TREE SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    _restore_environment()
    root, tree, script, args = argv[1], argv[2], argv[3], argv[4:]
    try:
        _run(root, tree, script, args)
    except (SystemExit, KeyboardInterrupt):
        raise  # Python's own exit status for both
    except BaseException as error:  # noqa: B902 -- print it as Python would, minus this file
        error.__traceback__ = _without_launcher_frames(error.__traceback__)
        sys.excepthook(type(error), error, error.__traceback__)
        return 1
    return 0


if __name__ == "__main__":
    status = main(sys.argv)
    if status:
        sys.exit(status)
