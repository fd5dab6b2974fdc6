"""Deprecation markers of one file, read inside its visit (:mod:`apisurface.surface.visit.modules`).

Only files whose text mentions a deprecation warning are read with libcst
(:mod:`apisurface.surface.visit.deprecations`), and only the excerpt of the statements that mention
one; the visit's own ``ast`` tree of the file finds that excerpt. The markers travel with the
file's summary (:class:`apisurface.surface.visit.facts.ModuleFacts`), cached and computed in worker
processes with the rest of the visit.
"""

from __future__ import annotations

import ast

from apisurface.surface.visit.workers import WORKERS_ENV, worker_count

__all__ = ["WORKERS_ENV", "scan_text", "worker_count"]


def scan_text(text: str, *, tree: ast.Module | None = None) -> dict[str, str]:
    """One file's markers; no markers when libcst cannot parse it (griffe reports it).
    ``tree``: ``text`` already parsed with ``ast``."""
    from apisurface.surface.visit.deprecations import scan_deprecations  # noqa: PLC0415 - libcst is slow to import

    try:
        return scan_deprecations(text, tree=tree)
    except Exception:  # noqa: BLE001 - libcst raises many types; the file is reported by griffe
        return {}
