"""OLD and NEW loaded side by side: the second core warms the cache with OLD's surface.

A diff loads two surfaces, and a cold load of each is almost all of a cold diff (a PR
bot's fresh machine). Where the cache is on, a process forked here loads OLD into the
cache while this one loads NEW; this one then loads OLD as before, from the cache. The
forked process hands nothing back but the cache entries it writes (written atomically,
as every entry is; an entry both processes write has the same content), so the result,
the errors and their order are those of loading OLD then NEW here: an error of OLD's is
still raised first. It is started only where it can pay: ``os.fork`` exists (a fork
shares the imports already made, unlike the worker pool's spawn), a second core is idle
by the load average, the cache is on but holds no surface yet (a fresh machine, where
every load is cold; in a cache in use OLD's load is likely warm, and a second warm load
beside this one costs more than it saves), and OLD is not a snapshot file.
``APISURFACE_WORKERS=0`` turns it off; any other number forces it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from apisurface.errors import ApisurfaceError
from apisurface.progress import ProgressCallback
from apisurface.release.inputs import Loaded, load_input
from apisurface.store import index
from apisurface.store.cache import SurfaceCache
from apisurface.store.snapshot import is_snapshot_file
from apisurface.surface.visit.workers import WORKERS_ENV, idle_cores

__all__ = ["load_pair"]


def load_pair(
    old_spec: str,
    new_spec: str,
    *,
    package: str | None = None,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> tuple[Loaded, Loaded]:
    """OLD and NEW loaded (as :func:`load_input` loads each), OLD's load begun in a forked
    process where that pays (see the module docstring)."""
    child = _fork() if _pays(old_spec, cache) else None
    if child == 0:
        # The forked process. It calls load_input from this very frame, as this process
        # does below: a file griffe gives up on for the depth of the stack (a RecursionError)
        # is then given up on alike on both sides.
        status = 1
        try:
            _quiet()
            load_input(old_spec, package=package, cache=cache, progress=None)
            status = 0
        finally:
            os._exit(status)
    new_error: ApisurfaceError | None = None
    try:
        new = load_input(new_spec, package=package, cache=cache, progress=progress)
    except ApisurfaceError as error:
        new_error = error
    finally:
        if child is not None:
            _reap(child)
    old = load_input(old_spec, package=package, cache=cache, progress=progress)
    if new_error is not None:
        raise new_error
    return old, new


def _pays(old_spec: str, cache: SurfaceCache | None) -> bool:
    if cache is None or not hasattr(os, "fork"):
        return False
    configured = os.environ.get(WORKERS_ENV, "")
    if configured.isascii() and configured.isdigit():
        return int(configured) > 0
    if index.parse(old_spec) is not None:
        return False  # a release on the package index: fetched once, here
    if cache.holds_surfaces():
        # A cache in use: OLD's load is likely warm, and a second warm load beside this
        # one costs more than it saves (django's warm diff: 0.64 -> 0.72 s).
        return False
    with contextlib.suppress(OSError):
        if is_snapshot_file(Path(old_spec)):
            return False
    return idle_cores() >= 1


def _fork() -> int | None:
    """``os.fork``: 0 in the forked process, its pid here; None when it failed."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        return os.fork()
    except OSError:
        return None


def _quiet() -> None:
    """The forked process writes nothing on the terminal. (Logging stays on: griffe's
    records are how the visit learns of what it gave up on, and they become problems of
    the surface; a handler writing to the terminal writes to the null device.)"""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def _reap(pid: int) -> None:
    """Wait for the forked process (its outcome does not matter: OLD is loaded again)."""
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, 0)
