"""Facts a newer engine reads are compared only where both surfaces record them.

A snapshot made by an older engine lacks them (it reads every class as hashable, every
``functools.cached_property`` as taking no assignment), so a diff against it must not take
the difference in engines for a change of the code.
"""

from __future__ import annotations

import pytest

from apisurface.compare.diff import diff_surfaces
from apisurface.model import ENGINE, Surface, Symbol, SymbolKind


def _surface(engine: int, *symbols: Symbol) -> Surface:
    module = Symbol("pkg", SymbolKind.MODULE)
    return Surface("pkg", {s.path: s for s in (module, *symbols)}, engine=engine)


def _kinds(old: Surface, new: Surface) -> set[tuple[str, str]]:
    return {(change.path, change.kind.value) for change in diff_surfaces(old, new)}


CLASS = Symbol("pkg.Point", SymbolKind.CLASS)
SETTABLE = Symbol("pkg.Point.x", SymbolKind.PROPERTY, assignable=True)
READ_ONLY = Symbol("pkg.Point.x", SymbolKind.PROPERTY)


@pytest.mark.parametrize(("old_engine", "new_engine"), [(5, ENGINE), (ENGINE, 5)])
def test_a_property_assignment_is_not_compared_across_engines(
    old_engine: int, new_engine: int
) -> None:
    old = _surface(old_engine, CLASS, SETTABLE)
    new = _surface(new_engine, CLASS, READ_ONLY)
    assert _kinds(old, new) == set()


def test_a_property_assignment_is_compared_within_the_engine() -> None:
    old = _surface(ENGINE, CLASS, SETTABLE)
    new = _surface(ENGINE, CLASS, READ_ONLY)
    assert _kinds(old, new) == {("pkg.Point.x", "attribute_made_read_only")}


@pytest.mark.parametrize(("old_engine", "new_engine"), [(5, ENGINE), (ENGINE, 5)])
def test_hashing_is_not_compared_across_engines(old_engine: int, new_engine: int) -> None:
    old = _surface(old_engine, CLASS)
    new = _surface(new_engine, Symbol("pkg.Point", SymbolKind.CLASS, unhashable=True))
    assert _kinds(old, new) == set()


def test_hashing_is_compared_within_the_engine() -> None:
    old = _surface(ENGINE, CLASS)
    new = _surface(ENGINE, Symbol("pkg.Point", SymbolKind.CLASS, unhashable=True))
    assert _kinds(old, new) == {("pkg.Point", "made_unhashable")}
