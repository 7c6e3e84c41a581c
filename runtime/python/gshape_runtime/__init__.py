"""gshape's runtime shape checks.

Instrumented modules build one ``CheckTable`` at import and route the operands
of every call and operator the analysis could not prove through
``table.stash`` / ``table.check``, which run the operator's own rule on the
actual sizes. Importing the package also installs a forward pre-hook on every
``nn.Module``, so module calls no site checked (the layers inside an
``nn.Sequential``, calls made by library code) are checked too. A failing
check raises ``ShapeCheckError`` at the user's line, as the builtin exception
class PyTorch raises for that constraint (a ``RuntimeError`` for most).
``GSHAPE_CHECKS=0`` makes every check a no-op and installs no hook;
``GSHAPE_STATS=path`` writes per-site counters to ``path`` (JSON) at exit.
See docs/runtime.md.
"""

import atexit as _atexit
import json as _json
import os as _os

# torch must be initialised before the native module recognises tensors;
# _native imports it too, so either import order works for users.
import torch as _torch  # noqa: F401

from . import _native
from ._native import CheckTable, ShapeCheckError, checks_enabled, _all_stats

__all__ = ["CheckTable", "ShapeCheckError", "checks_enabled", "stats", "write_stats"]


class _ShapeCheckErrorType(type):
    """The type of the classes a failed check raises: ShapeCheckError and the
    builtin class PyTorch raises for that constraint (IndexError, ...). Each
    is named ShapeCheckError, as a traceback should read, so pickle cannot
    find one by name; this type pickles it by the builtin class it extends,
    so that a DataLoader worker (or any child process) can send its failure
    to the main process."""


def _error_class(builtin_name):
    return _ERROR_CLASSES[builtin_name]


def _make_error_classes():
    import builtins
    import copyreg

    classes = {}
    for name in ("RuntimeError", "IndexError", "ValueError", "TypeError", "AssertionError",
                 "NotImplementedError", "ZeroDivisionError"):
        cls = _ShapeCheckErrorType("ShapeCheckError", (ShapeCheckError, getattr(builtins, name)),
                                   {"__module__": __name__, "_builtin_name": name})
        classes[name] = cls
    copyreg.pickle(_ShapeCheckErrorType, lambda cls: (_error_class, (cls._builtin_name,)))
    return classes


_ERROR_CLASSES = _make_error_classes()
_native.use_error_classes(_ERROR_CLASSES)

STATS_FORMAT = "gshape-runtime-stats"
STATS_VERSION = 2

class _Index:
    """``index[a:b, i]`` is the key Python passes to ``__getitem__`` for
    ``x[a:b, i]``: how an instrumented subscript reads an index holding a
    slice, which is not an expression of its own."""

    __slots__ = ()

    def __getitem__(self, key):
        return key


index = _Index()

_COUNTERS = ("runs", "failures", "skipped", "no_rule", "cached")
_COUNTER_MAPS = ("failed_tags", "rules_run")


def stats():
    """Per-site counters of every table built in this process.

    Entries of tables built twice for the same file (a reloaded module) are
    summed; module calls checked by the hook are under the path
    ``<module calls>``. Sorted by path, line, col, site.
    """
    merged = {}
    for entry in _all_stats():
        key = (entry["path"], entry["line"], entry["col"], entry["site"], entry["rule"])
        if key in merged:
            target = merged[key]
            for name in _COUNTERS:
                target[name] += entry[name]
            for name in _COUNTER_MAPS:
                for k, n in entry[name].items():
                    target[name][k] = target[name].get(k, 0) + n
        else:
            merged[key] = dict(entry)
    return [merged[k] for k in sorted(merged, key=lambda k: (k[0], k[1], k[2], k[3], k[4]))]


def write_stats(path):
    """Writes the stats file (format in docs/runtime.md) atomically.

    ``{pid}`` in ``path`` is replaced by the process id, for runs that start
    several processes.
    """
    path = path.replace("{pid}", str(_os.getpid()))
    document = {
        "format": STATS_FORMAT,
        "version": STATS_VERSION,
        "checks_enabled": checks_enabled,
        "pid": _os.getpid(),
        "sites": stats(),
    }
    directory = _os.path.dirname(_os.path.abspath(path))
    _os.makedirs(directory, exist_ok=True)
    temporary = "%s.tmp.%d" % (path, _os.getpid())
    with open(temporary, "w", encoding="utf-8") as out:
        _json.dump(document, out, indent=1)
        out.write("\n")
    _os.replace(temporary, path)
    return path


def _write_stats_at_exit(path):
    try:
        write_stats(path)
    except OSError as error:  # never turn a finished run into a crash
        import sys
        print("gshape_runtime: cannot write stats to %s: %s" % (path, error), file=sys.stderr)


_stats_path = _os.environ.get("GSHAPE_STATS")
if _stats_path:
    _atexit.register(_write_stats_at_exit, _stats_path)


_library_dirs = ()


def _in_library(filename):
    return not filename or filename.startswith("<") or filename.startswith(_library_dirs)


# Where each nn.Sequential was built: id -> (weak reference, file, line). Read
# only when a check of one of its layers fails (the hook's message and the
# last frame of the traceback name the layer as the user wrote it).
_built_at = {}


def _forget(key):
    return lambda _ref: _built_at.pop(key, None)


def _recording_sequential_init(init):
    import functools
    import sys
    import weakref

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        try:
            frame = sys._getframe(1)
            while frame is not None and _in_library(frame.f_code.co_filename):
                frame = frame.f_back
            if frame is not None:
                key = id(self)
                # the layers as the call wrote them: a layer inserted or popped
                # later must not be described by another's text
                layers = tuple(weakref.ref(m) for m in self._modules.values())
                _built_at[key] = (weakref.ref(self, _forget(key)), frame.f_code.co_filename, frame.f_lineno, layers)
        except Exception:  # noqa: BLE001 -- recording where it was built never changes the program
            pass

    __init__._gshape_records = True
    return __init__


def _layer_construction(filename, line, key):
    """The layer `key` of the nn.Sequential(...) call written at filename:line:
    (the layer's line, its text, the name the Sequential is assigned to), each
    None when the source does not say (layers passed with *, a dict)."""
    import ast
    import linecache
    source = "".join(linecache.getlines(filename))
    if not source:
        return None, None, None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None, None, None
    target_of = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            target_of[id(node.value)] = ast.get_source_segment(source, target)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.lineno != line:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in ("Sequential", "__init__"):
            continue
        if not key.isdigit() or any(isinstance(a, ast.Starred) for a in node.args[: int(key) + 1]):
            return None, None, target_of.get(id(node))
        if int(key) >= len(node.args):
            return None, None, target_of.get(id(node))
        arg = node.args[int(key)]
        text = ast.get_source_segment(source, arg)
        if text is not None and ("\n" in text or len(text) > 60):
            text = None
        return arg.lineno, text, target_of.get(id(node))
    return None, None, None


def _locate_layer(module):
    """Called by the module hook when a check of `module` failed: when the
    module runs as a layer of an nn.Sequential (the nearest
    Sequential.forward between the hook and the user's code holds it), the
    message's ending and where the traceback's last frame points:
    (suffix, file, line, frame name), or None."""
    import sys
    sequential_forward = _torch.nn.Sequential.forward.__code__
    frame = sys._getframe(1)
    while frame is not None and _in_library(frame.f_code.co_filename):
        if frame.f_code is sequential_forward:
            seq = frame.f_locals.get("self")
            children = getattr(seq, "_modules", None) or {}
            key = next((k for k, m in children.items() if m is module), None)
            if key is not None:
                break
        frame = frame.f_back
    else:
        return None
    cls = type(module).__name__
    index = "[%s]" % key if key.isdigit() else ".%s" % key
    built = _built_at.get(id(seq))
    if built is None or built[0]() is not seq:
        return ("; raised in layer %s (%s) of an nn.Sequential called at this line" % (index, cls), None, 0, "")
    filename, line, layers = built[1], built[2], built[3]
    # its place in the constructor's call (not its index now: a layer may have
    # been inserted or popped since); None when it was added later
    written = next((str(i) for i, ref in enumerate(layers) if ref() is module), None)
    if not key.isdigit() and written is not None:
        written = key  # a named layer (an OrderedDict): the source does not list it by position
    layer_line, text, target = _layer_construction(filename, line, written or "?")
    name = (target or "nn.Sequential") + index
    if written is None:
        suffix = ("; raised in %s (%s), added to the nn.Sequential built at line %d, called at this line"
                  % (name, cls, line))
        return (suffix, filename, line, name)
    layer = "%s = %s" % (name, text) if text else "%s (%s)" % (name, cls)
    at = layer_line or line
    suffix = "; raised in %s (line %d), a layer of the nn.Sequential called at this line" % (layer, at)
    return (suffix, filename, at, name)


def _traceback_at(error, filename, line, name):
    """A traceback entry for filename:line in a frame called `name`, for the
    module hook's error to end at the user's layer rather than inside torch
    (as jinja2 points template errors at the template's line)."""
    import linecache
    text = linecache.getline(filename, line).rstrip()
    indent = len(text) - len(text.lstrip())
    # the raise spans the line's text, so a traceback with column ranges
    # underlines none of it
    statement = "raise(e" + " " * max(0, len(text) - indent - 8) + ")"
    if line > 1 and indent > 0:
        source = "\n" * (line - 2) + "if 1:\n" + " " * indent + statement + "\n"
    else:
        source = "\n" * (line - 1) + statement + "\n"
    code = compile(source, filename, "exec", dont_inherit=True)
    code = code.replace(co_name=name)
    try:
        exec(code, {"e": error, "__name__": "__gshape_layer__"})
    except BaseException as raised:  # noqa: B902 -- it is `error`
        tb = raised.__traceback__
    else:
        return None
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    error.__traceback__ = None
    return tb


def _install_module_hook():
    """Checks every nn.Module call with its forward rule (docs/runtime.md)."""
    global _library_dirs
    from torch.nn.modules import module as _module
    here = _os.path.dirname(_os.path.abspath(__file__)) + _os.sep
    torch_dir = _os.path.dirname(_os.path.abspath(_torch.__file__)) + _os.sep
    _library_dirs = (torch_dir, here)
    _native.set_library_dirs([torch_dir, here])
    _native.set_layer_locator(_locate_layer, _traceback_at)
    sequential = _torch.nn.Sequential
    if not getattr(sequential.__init__, "_gshape_records", False):
        sequential.__init__ = _recording_sequential_init(sequential.__init__)
    return _module.register_module_forward_pre_hook(_native.module_pre_hook)


_module_hook = _install_module_hook() if checks_enabled else None
