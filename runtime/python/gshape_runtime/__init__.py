"""gshape's runtime shape checks.

Instrumented modules build one ``CheckTable`` at import and route the operands
of every deferred shape obligation through ``table.stash`` / ``table.check``.
A failing check raises ``ShapeCheckError`` (a ``RuntimeError``) at the user's
line. ``GSHAPE_CHECKS=0`` makes every check a no-op; ``GSHAPE_STATS=path``
writes per-check counters to ``path`` (JSON) at exit. See docs/runtime.md.
"""

import atexit as _atexit
import json as _json
import os as _os

# torch must be initialised before the native module recognises tensors;
# _native imports it too, so either import order works for users.
import torch as _torch  # noqa: F401

from ._native import CheckTable, ShapeCheckError, checks_enabled, _all_stats

__all__ = ["CheckTable", "ShapeCheckError", "checks_enabled", "stats", "write_stats"]

STATS_FORMAT = "gshape-runtime-stats"
STATS_VERSION = 1

_COUNTERS = ("runs", "failures", "skipped")


def stats():
    """Per-check counters of every table built in this process.

    Entries of tables built twice for the same file (a reloaded module) are
    summed. Sorted by path, line, col, site, index.
    """
    merged = {}
    for entry in _all_stats():
        key = (entry["path"], entry["line"], entry["col"], entry["tag"],
               entry["site"], entry["index"], entry["constraint"])
        if key in merged:
            for name in _COUNTERS:
                merged[key][name] += entry[name]
        else:
            merged[key] = dict(entry)
    return [merged[k] for k in sorted(merged, key=lambda k: (k[0], k[1], k[2], k[4], k[5]))]


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
        "checks": stats(),
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
