"""gshape's runtime shape checks.

Instrumented modules build one ``CheckTable`` at import and route the operands
of every call and operator the analysis could not prove through
``table.stash`` / ``table.check``, which run the operator's own rule on the
actual sizes. Importing the package also installs a forward pre-hook on every
``nn.Module``, so module calls no site checked (the layers inside an
``nn.Sequential``, calls made by library code) are checked too. A failing
check raises ``ShapeCheckError`` (a ``RuntimeError``) at the user's line.
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

STATS_FORMAT = "gshape-runtime-stats"
STATS_VERSION = 2

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


def _install_module_hook():
    """Checks every nn.Module call with its forward rule (docs/runtime.md)."""
    from torch.nn.modules import module as _module
    here = _os.path.dirname(_os.path.abspath(__file__)) + _os.sep
    torch_dir = _os.path.dirname(_os.path.abspath(_torch.__file__)) + _os.sep
    _native.set_library_dirs([torch_dir, here])
    return _module.register_module_forward_pre_hook(_native.module_pre_hook)


_module_hook = _install_module_hook() if checks_enabled else None
