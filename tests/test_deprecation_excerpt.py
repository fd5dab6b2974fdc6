"""The deprecation scan reads only the statements that mention a warning, with the same
result as reading the whole module with libcst."""

from __future__ import annotations

import libcst as cst

from apisurface.surface.visit.deprecations import _Visitor, relevant_source, scan_deprecations

MODULE = '''"""Mod."""
import warnings

CONSTANT = 1


def plain():
    """Nothing here."""
    return 1


@decorator(
    "arg",
)
def old_function(x):
    """Old."""
    warnings.warn("use new_function", DeprecationWarning, stacklevel=2)
    return x


class Holder:
    """Holds things."""

    attribute = 3

    def keep(self):
        return 1

    def old_method(self):
        warnings.warn("use keep", DeprecationWarning)

    class Inner:
        """Nested."""

        def older(self):
            warnings.warn("gone soon", FutureWarning)

    def __init__(self):
        pass


if CONSTANT:
    warnings.warn("conditional module warning", DeprecationWarning)


class Untouched:
    """No warning at all."""

    def method(self):
        return 2
'''


def _full_scan(code: str) -> dict[str, str]:
    visitor = _Visitor()
    cst.parse_module(code).visit(visitor)
    return visitor.found


def test_excerpt_gives_the_same_markers() -> None:
    assert scan_deprecations(MODULE) == _full_scan(MODULE)
    assert set(scan_deprecations(MODULE)) >= {
        "old_function",
        "Holder.old_method",
        "Holder.Inner.older",
    }


def test_excerpt_keeps_only_what_mentions_a_warning() -> None:
    excerpt = relevant_source(MODULE)
    assert "def old_function" in excerpt and "@decorator(" in excerpt
    assert "class Holder:" in excerpt and "def old_method" in excerpt
    assert "class Inner:" in excerpt
    assert "def plain" not in excerpt and "def keep" not in excerpt
    assert "class Untouched" not in excerpt and "CONSTANT = 1" not in excerpt
    cst.parse_module(excerpt)  # stands alone


def test_unparsable_text_is_returned_whole() -> None:
    broken = "def f(:\n    warnings.warn('x', DeprecationWarning)\n"
    assert relevant_source(broken) == broken
