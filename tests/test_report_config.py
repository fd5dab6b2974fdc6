"""How [tool.apisurface] adjusts a report: accepted changes, level overrides, ignored
paths and stale accept entries (parsing is in test_config.py)."""

from __future__ import annotations

from apisurface.changes import ChangeKind
from apisurface.config import Accept, Config
from apisurface.model import Location, Parameter, ParamKind, Signature, Surface, Symbol, SymbolKind
from apisurface.report import build_report
from apisurface.rules import Level

K = ChangeKind


def surface(f_params: tuple[str, ...], *, doc: str = "a", vendored: bool = True) -> Surface:
    params = tuple(Parameter(name, ParamKind.POSITIONAL_OR_KEYWORD) for name in f_params)
    symbols = {
        "pkg": Symbol("pkg", SymbolKind.MODULE, location=Location("pkg/__init__.py", 0)),
        "pkg.f": Symbol(
            "pkg.f",
            SymbolKind.FUNCTION,
            signature=Signature(params),
            docstring_hash=doc,
            location=Location("pkg/__init__.py", 3),
        ),
    }
    if vendored:
        symbols["pkg.vendored"] = Symbol(
            "pkg.vendored", SymbolKind.MODULE, location=Location("pkg/vendored.py", 0)
        )
    return Surface("pkg", symbols, version="1.2.3")


OLD = surface(("a", "b"))
NEW = surface(("a",), doc="b", vendored=False)


def kinds(config: Config) -> dict[tuple[str, ChangeKind], tuple[Level, str | None]]:
    report = build_report(OLD, NEW, config=config)
    return {(c.change.path, c.change.kind): (c.level, c.accepted) for c in report.changes}


def test_defaults() -> None:
    report = build_report(OLD, NEW)
    assert report.level is Level.MAJOR
    assert report.next_version == "2.0.0"
    assert set(kinds(Config())) == {
        ("pkg.f(b)", K.PARAMETER_REMOVED),
        ("pkg.f", K.DOCSTRING_CHANGED),
        ("pkg.vendored", K.SYMBOL_REMOVED),
        ("pkg.vendored", K.REMOVED_WITHOUT_DEPRECATION),
    }


def test_accept_by_symbol_covers_its_parameters_and_is_not_stale() -> None:
    config = Config(
        accept=(Accept("pkg.f", K.PARAMETER_REMOVED, "b was unused"),),
        ignore=("pkg.vendored*",),
    )
    report = build_report(OLD, NEW, config=config)
    assert kinds(config)[("pkg.f(b)", K.PARAMETER_REMOVED)] == (Level.MAJOR, "b was unused")
    assert report.level is Level.PATCH  # the docstring change is all that counts
    assert report.count(Level.MAJOR) == 0
    assert [item.change.path for item in report.accepted] == ["pkg.f(b)"]
    assert report.stale_accepts == ()
    assert report.next_version == "1.2.4"


def test_accept_that_matches_nothing_is_stale() -> None:
    config = Config(
        accept=(
            Accept("pkg.f(a)", K.PARAMETER_REMOVED, "wrong parameter"),
            Accept("pkg.f(b)", K.PARAMETER_RENAMED, "wrong rule"),
        )
    )
    report = build_report(OLD, NEW, config=config)
    assert report.stale_accepts == ("pkg.f(a) parameter_removed", "pkg.f(b) parameter_renamed")
    assert report.level is Level.MAJOR


def test_level_overrides_and_ignore_rule() -> None:
    config = Config(
        levels={K.PARAMETER_REMOVED: "minor", K.DOCSTRING_CHANGED: "ignore"},
        ignore=("pkg.vendored",),
    )
    found = kinds(config)
    assert found == {("pkg.f(b)", K.PARAMETER_REMOVED): (Level.MINOR, None)}
    assert build_report(OLD, NEW, config=config).level is Level.MINOR


def test_locations_point_at_new_source_or_old_for_removals() -> None:
    report = build_report(OLD, NEW, old_root="old/src", new_root="src")
    assert report.locations["pkg.f"] == Location("src/pkg/__init__.py", 3)
    assert report.locations["pkg.vendored"] == Location("old/src/pkg/vendored.py", 0)
