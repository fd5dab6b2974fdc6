"""Deprecation markers of a whole package: cached per file, parsed in parallel.

Only files whose text mentions a deprecation warning are parsed with libcst
(:mod:`apisurface.surface.deprecations`), and each file's markers are cached by a hash of its
text. When many such files remain, they are parsed in worker processes while the caller
goes on with griffe (:func:`start`, then :meth:`MarkerScan.result`). Results are merged in
the order of the files, so the outcome is the same whether workers ran or not.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field

from apisurface.store.cache import SurfaceCache, inputs_key
from apisurface.surface.mentions import mentions_warning
from apisurface.surface.workers import WORKERS_ENV, Workers, worker_count

__all__ = ["WORKERS_ENV", "MarkerScan", "start", "worker_count"]


def scan_text(text: str, *, tree: ast.Module | None = None) -> dict[str, str]:
    """One file's markers; no markers when libcst cannot parse it (griffe reports it).
    ``tree``: ``text`` already parsed with ``ast``."""
    from apisurface.surface.deprecations import scan_deprecations  # noqa: PLC0415 - libcst is slow to import

    try:
        return scan_deprecations(text, tree=tree)
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
    owned: Workers | None = None
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
            if self.owned is not None:
                self.owned.shutdown()
        return markers


def _collect(future: Future[dict[str, str]] | None, text: str) -> dict[str, str]:
    if future is not None:
        try:
            found = future.result()
        except Exception:  # noqa: BLE001 - a worker that died: parse the file here
            found = None
        # Plain data from the worker, checked like a cache entry before it is used.
        if isinstance(found, dict) and all(
            type(name) is str and type(message) is str for name, message in found.items()
        ):
            return found
    return scan_text(text)


def start(
    files: Sequence[tuple[str, str]],
    *,
    cache: SurfaceCache | None = None,
    workers: int | None = None,
    pool: Workers | None = None,
) -> MarkerScan:
    """Begin scanning ``files`` (module name, text): look up the cache, and hand the rest to
    worker processes when that pays off (those of ``pool`` when given, which the caller
    then shuts down). Call :meth:`MarkerScan.result` to collect."""

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
    if not pending:
        return scan
    if pool is None:
        pool = scan.owned = Workers(workers)
    executor = pool.pool(sum(len(scan.texts[i]) for i in pending))
    if executor is not None:
        try:
            # Largest files first, so the workers finish together.
            for index in sorted(pending, key=lambda i: -len(scan.texts[i])):
                scan.futures[index] = executor.submit(scan_text, scan.texts[index])
        except (OSError, RuntimeError, ValueError):
            # No processes on this system (or a sandbox forbids them): parse here instead.
            pool.broken()
            scan.futures.clear()
    return scan
