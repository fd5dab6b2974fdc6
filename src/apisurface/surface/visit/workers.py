"""One pool of worker processes for a surface, started only when there is enough to do.

The deprecation-marker scan and the visit of files hand work to the same pool, so a
two-core machine runs one worker beside the main process, not one per stage. Work is handed
over as plain data only (texts in; dicts of strings, or module trees as JSON bytes from
:mod:`apisurface.surface.visit.summary`, out), which the main process checks as it checks a cache
entry, and the outcome never depends on how many workers ran.

A worker is a new interpreter (the ``spawn`` start method), started in the current folder,
which may be a pull request's checkout. ``python -c`` puts that folder first on
``sys.path``, so a ``multiprocessing.py`` there would run in the worker before any of
apisurface does. Workers are started with ``PYTHONSAFEPATH=1`` (the ``-P`` flag: no folder
of the command line on the path) or, under ``python -I``, with ``-I``; an interpreter that
ignores the environment without either (``python -E``) starts no workers at all
(docs/security.md, "Child interpreters").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["WORKERS_ENV", "Workers", "children_can_start_safely", "idle_cores", "worker_count"]

WORKERS_ENV = "APISURFACE_WORKERS"
_PARALLEL_MIN_BYTES = 16_000_000
"""Below this much text to parse, starting a worker costs more than it saves. Measured on
the 2-core development machine (``python bench/targets.py --pool``, docs/benchmarks.md): a
worker made ``snapshot --no-cache`` 1.07-2.1x slower at every size up to django's 5.7 MB of
source (starting it, importing griffe there, and reading its answers back as JSON here);
only sympy's 26 MB gained in an earlier run with the second core idle."""


def worker_count(pending_bytes: int, requested: int | None = None) -> int:
    """How many worker processes to use: ``requested`` (or ``$APISURFACE_WORKERS``) when
    given, else one per idle spare core when there is enough text to parse, else none."""
    if requested is None:
        configured = os.environ.get(WORKERS_ENV, "")
        requested = int(configured) if configured.isascii() and configured.isdigit() else None
    if requested is not None:
        return max(requested, 0)
    if pending_bytes < _PARALLEL_MIN_BYTES:
        return 0
    return idle_cores()


def idle_cores() -> int:
    """The cores beside this process that no other process keeps busy, by the rounded
    one-minute load average. A busy core is not spare: with the load average at 3-5 times
    the core count, a worker made even sympy 1.10x slower (same measurement). This process
    is one of the runnable ones the load average counts."""
    cores = os.cpu_count() or 1
    spare = cores - max(_load(), 1.0)
    return max(min(cores - 1, round(spare)), 0)


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every system
        return 0.0


def children_can_start_safely() -> bool:
    """Whether an interpreter started from this one keeps the current folder off its path:
    it inherits ``-I`` or ``-P`` (``multiprocessing`` passes this one's flags on), or reads
    ``PYTHONSAFEPATH`` from the environment (it does unless told ``-E``)."""
    return bool(sys.flags.isolated or sys.flags.safe_path or not sys.flags.ignore_environment)


@contextmanager
def _safe_path_for_children() -> Iterator[None]:
    """``PYTHONSAFEPATH=1`` in the environment the children started in this block inherit;
    the caller's value back afterwards."""
    previous = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if previous is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = previous


class Workers:
    """A process pool shared by the stages of one surface, started on first need."""

    def __init__(self, requested: int | None = None) -> None:
        self.requested = requested
        self.count = 0
        self._pool: ProcessPoolExecutor | None = None
        self._failed = False

    def pool(self, pending_bytes: int) -> ProcessPoolExecutor | None:
        """The pool, started now when ``pending_bytes`` of text make it worth it; None when
        work is better done here (or processes cannot be started on this system)."""
        if self._pool is None and not self._failed:
            count = worker_count(pending_bytes, self.requested)
            if count > 0 and children_can_start_safely():
                self._start(count)
        return self._pool

    def _start(self, count: int) -> None:
        # Imported here: a small package never starts a pool (7 ms of start-up).
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415
        from multiprocessing import get_context  # noqa: PLC0415

        pool: ProcessPoolExecutor | None = None
        try:
            with _safe_path_for_children():
                pool = ProcessPoolExecutor(max_workers=count, mp_context=get_context("spawn"))
                # Every worker is started now, in this block: the pool starts one per task
                # submitted while none is idle, and never another once all are running.
                for _ in range(count):
                    pool.submit(os.getpid)
        except (OSError, RuntimeError, ValueError):
            # No processes on this system (or a sandbox forbids them).
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            self._failed = True
            return
        self._pool = pool
        self.count = count

    def broken(self) -> None:
        """Submitting failed: do the rest here."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._failed = True

    def shutdown(self) -> None:
        """Stop the workers (work not started is cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
