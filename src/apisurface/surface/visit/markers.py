"""Deprecation markers of one file, read inside its visit (:mod:`apisurface.surface.visit.modules`).

Only files whose text mentions a deprecation warning are read
(:mod:`apisurface.surface.visit.deprecations`), from the visit's own ``ast`` tree of the file.
The markers travel with the file's summary
(:class:`apisurface.surface.visit.facts.ModuleFacts`), cached and computed in worker processes
with the rest of the visit.
"""

from __future__ import annotations

import ast

from apisurface.surface.visit.deprecations import scan_deprecations
from apisurface.surface.visit.mentions import mentions_warning
from apisurface.surface.visit.workers import WORKERS_ENV, worker_count

__all__ = ["WORKERS_ENV", "scan_text", "worker_count"]


def scan_text(text: str, *, tree: ast.Module | None = None) -> dict[str, str]:
    """One file's markers; none when it does not mention a warning or does not parse
    (griffe reports it). ``tree``: ``text`` already parsed with ``ast``."""
    if not mentions_warning(text):
        return {}
    try:
        return scan_deprecations(text, tree=tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
