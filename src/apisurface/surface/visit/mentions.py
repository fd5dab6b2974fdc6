"""Which files mention a deprecation warning: a text search, without libcst.

Only those files are parsed for deprecation markers (:mod:`apisurface.surface.visit.deprecations`,
which imports libcst: a third of a second). Kept apart so that a package none of whose files
mentions a warning never imports libcst at all.
"""

from __future__ import annotations

import re

__all__ = ["WARNING_NAMES", "WARNING_PATTERN", "mentions_warning"]

WARNING_NAMES = frozenset({"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"})
WARNING_PATTERN = re.compile(r"\b(?:Pending)?DeprecationWarning\b|\bFutureWarning\b")


def mentions_warning(text: str) -> bool:
    """Whether a file is worth a concrete-syntax-tree parse for deprecation markers."""
    # A substring search first: the pattern alone tries a word boundary at every position
    # of every file (0.7 s for sympy, where 11 files of 1,516 match).
    if "DeprecationWarning" not in text and "FutureWarning" not in text:
        return False
    return WARNING_PATTERN.search(text) is not None
