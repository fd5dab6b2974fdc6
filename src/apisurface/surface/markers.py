"""Deprecation markers of a whole package: cached per file, parsed in parallel.

Only files whose text mentions a deprecation warning are parsed with libcst
(:mod:`apisurface.surface.deprecations`), and each file's markers are cached by a hash of its
text. When many such files remain, they are parsed in worker processes while the caller
goes on with griffe (:func:`start`, then :meth:`MarkerScan.result`). Results are merged in
the order of the files, so the outcome is the same whether workers ran or not.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context

from apisurface.store.cache import SurfaceCache, inputs_key

__all__ = ["WORKERS_ENV", "MarkerScan", "start", "worker_count"]

WORKERS_ENV = "APISURFACE_WORKERS"
_PARALLEL_MIN_BYTES = 400_000
"""Below this much text to parse, starting a worker costs more than it saves."""


def worker_count(pending_bytes: int, requested: int | None = None) -> int:
    """How many worker processes to use: ``requested`` (or ``$APISURFACE_WORKERS``) when
    given, else one per spare core when there is enough text to parse, else none."""
    if requested is None:
        configured = os.environ.get(WORKERS_ENV, "")
        requested = int(configured) if configured.isdigit() else None
    if requested is not None:
        return max(requested, 0)
    if pending_bytes < _PARALLEL_MIN_BYTES:
        return 0
    return max((os.cpu_count() or 1) - 1, 0)


def scan_text(text: str) -> dict[str, str]:
    """One file's markers; no markers when libcst cannot parse it (griffe reports it)."""
    from apisurface.surface.deprecations import scan_deprecations  # noqa: PLC0415 - libcst is slow to import

    try:
        return scan_deprecations(text)
    except Exception:  # noqa: BLE001 - libcst raises many types; the file is reported by griffe
        return {}


@dataclass(slots=True)
class MarkerScan:
    """Markers being computed: cached ones known, the others parsed here or in workers."""

    modules: list[str]
    known: list[dict[str, str] | None]
    texts: list[str]
    keys: list[str]
    cache: SurfaceCache | None
    pool: ProcessPoolExecutor | None = None
    futures: dict[int, Future[dict[str, str]]] = field(default_factory=dict)

    def result(self) -> dict[str, str]:
        """Every marker of the package, keyed by dotted path (waits for the workers)."""
        markers: dict[str, str] = {}
        try:
            for index, module in enumerate(self.modules):
                found = self.known[index]
                if found is None:
                    found = _collect(self.futures.get(index), self.texts[index])
                    if self.cache is not None:
                        self.cache.put_markers(self.keys[index], found)
                for qualname, message in found.items():
                    markers[f"{module}.{qualname}" if qualname else module] = message
        finally:
            if self.pool is not None:
                self.pool.shutdown(wait=True, cancel_futures=True)
        return markers


def _collect(future: Future[dict[str, str]] | None, text: str) -> dict[str, str]:
    if future is not None:
        try:
            return future.result()
        except Exception:  # noqa: BLE001 - a worker that died: parse the file here
            pass
    return scan_text(text)


def start(
    files: Sequence[tuple[str, str]],
    *,
    cache: SurfaceCache | None = None,
    workers: int | None = None,
) -> MarkerScan:
    """Begin scanning ``files`` (module name, text): look up the cache, and hand the rest to
    worker processes when that pays off. Call :meth:`MarkerScan.result` to collect."""
    from apisurface.surface.deprecations import mentions_warning  # noqa: PLC0415 - as in scan_text

    scan = MarkerScan([], [], [], [], cache)
    pending: list[int] = []
    for module, text in files:
        if not mentions_warning(text):
            continue
        key = inputs_key(["markers", text]) if cache is not None else ""
        known = cache.get_markers(key) if cache is not None else None
        if known is None:
            pending.append(len(scan.modules))
        scan.modules.append(module)
        scan.known.append(known)
        scan.texts.append(text)
        scan.keys.append(key)
    count = min(worker_count(sum(len(scan.texts[i]) for i in pending), workers), len(pending))
    if count > 0:
        try:
            scan.pool = ProcessPoolExecutor(max_workers=count, mp_context=get_context("spawn"))
            # Largest files first, so the workers finish together.
            for index in sorted(pending, key=lambda i: -len(scan.texts[i])):
                scan.futures[index] = scan.pool.submit(scan_text, scan.texts[index])
        except (OSError, RuntimeError, ValueError):
            # No processes on this system (or a sandbox forbids them): parse here instead.
            if scan.pool is not None:
                scan.pool.shutdown(wait=False, cancel_futures=True)
            scan.pool = None
            scan.futures.clear()
    return scan
