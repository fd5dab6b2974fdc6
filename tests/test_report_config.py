"""How [tool.apisurface] adjusts a report: accepted changes, level overrides, ignored
paths and stale accept entries (parsing is in test_config.py)."""

from __future__ import annotations

from apisurface.changes import ChangeKind
from apisurface.compare.report import build_report
from apisurface.compare.rules import Level
from apisurface.model import (
    ExclusionReason,
    Location,
    Parameter,
    ParamKind,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.output.text import verdict
from apisurface.project.config import Accept, Config

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
    }
    (removal,) = (item for item in report.changes if item.change.kind is K.SYMBOL_REMOVED)
    assert removal.change.qualifiers == (K.REMOVED_WITHOUT_DEPRECATION,)
    assert removal.message == (
        "module removed; removed without prior deprecation (deprecate it in a release first)"
    )
    assert report.count(Level.MAJOR) == 2  # pkg.f(b) and pkg.vendored: one entry each


def _removal(config: Config) -> tuple[Level, str | None, tuple[ChangeKind, ...], tuple[str, ...]]:
    report = build_report(OLD, NEW, config=config)
    (item,) = (item for item in report.changes if item.change.path == "pkg.vendored")
    return item.level, item.accepted, item.change.qualifiers, report.stale_accepts


def test_accepting_either_rule_of_an_undeprecated_removal_accepts_its_one_entry() -> None:
    for rule in (K.SYMBOL_REMOVED, K.REMOVED_WITHOUT_DEPRECATION):
        config = Config(accept=(Accept("pkg.vendored", rule, "vendored"),))
        assert _removal(config) == (
            Level.MAJOR,
            "vendored",
            (K.REMOVED_WITHOUT_DEPRECATION,),
            (),
        )


def test_removed_without_deprecation_is_relevelled_as_its_own_rule() -> None:
    # The entry's level is the higher of its kind's and its qualifier's.
    lowered = {K.SYMBOL_REMOVED: "minor"}
    assert _removal(Config(levels=lowered))[0] is Level.MAJOR
    both = {K.SYMBOL_REMOVED: "minor", K.REMOVED_WITHOUT_DEPRECATION: "minor"}
    assert _removal(Config(levels=both))[0] is Level.MINOR
    # Ignored, the qualifier leaves the entry (and its message).
    ignored = {K.SYMBOL_REMOVED: "patch", K.REMOVED_WITHOUT_DEPRECATION: "ignore"}
    assert _removal(Config(levels=ignored))[:3] == (Level.PATCH, None, ())
    report = build_report(OLD, NEW, config=Config(levels=ignored))
    assert "deprecation" not in " ".join(item.message for item in report.changes)


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
    assert report.stale_accepts == (
        "pkg.f(a) parameter_removed (did you mean pkg.f(b)?)",
        "pkg.f(b) parameter_renamed (did you mean rule parameter_removed?)",
    )
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


def _reexported(params: tuple[str, ...], *, extra: tuple[str, ...] = ()) -> Surface:
    """``pkg.core.Client.get`` defined once, reachable at three public paths."""
    signature = Signature(
        tuple(Parameter(name, ParamKind.POSITIONAL_OR_KEYWORD) for name in params)
    )
    symbols = {"pkg": Symbol("pkg", SymbolKind.MODULE)}
    for path in ("pkg.core.Client.get", "pkg.Client.get", "pkg.api.Client.get", *extra):
        symbols[path] = Symbol(
            path,
            SymbolKind.METHOD,
            target="pkg.core.Client.get",
            signature=signature,
            location=Location("pkg/core.py", 7),
        )
    return Surface("pkg", symbols, version="1.0.0")


def test_one_change_per_object_at_its_shortest_path() -> None:
    report = build_report(_reexported(("self", "url")), _reexported(("self",)))
    (item,) = report.changes
    assert item.change.path == "pkg.Client.get(url)"
    assert report.other_paths(item) == ("pkg.api.Client.get(url)", "pkg.core.Client.get(url)")
    assert report.count(Level.MAJOR) == 1
    assert report.location(item) == Location("pkg/core.py", 7)


def test_equally_short_paths_are_chosen_in_sorting_order() -> None:
    old = _reexported(("self", "url"), extra=("pkg.b.Client.get",))
    new = _reexported(("self",), extra=("pkg.b.Client.get",))
    old.symbols.pop("pkg.Client.get")
    new.symbols.pop("pkg.Client.get")
    (item,) = build_report(old, new).changes
    assert item.change.path == "pkg.b.Client.get(url)"


def test_accepting_any_path_of_an_object_accepts_its_change() -> None:
    config = Config(accept=(Accept("pkg.core.Client.get", K.PARAMETER_REMOVED, "unused"),))
    report = build_report(_reexported(("self", "url")), _reexported(("self",)), config=config)
    (item,) = report.changes
    assert item.accepted == "unused"
    assert report.stale_accepts == ()
    assert not report.reaches(Level.PATCH)


def test_zero_changes_reach_no_level() -> None:
    report = build_report(OLD, OLD)
    assert report.changes == ()
    assert report.level is Level.PATCH
    assert report.next_version == "1.2.4"
    assert not report.reaches(Level.PATCH)
    assert build_report(OLD, NEW).reaches(Level.MAJOR)


def test_a_report_of_accepted_changes_only_says_so() -> None:
    config = Config(
        accept=(
            Accept("pkg.f", K.PARAMETER_REMOVED, "b was unused"),
            Accept("pkg.f", K.DOCSTRING_CHANGED, "typo"),
            Accept("pkg.vendored", K.REMOVED_WITHOUT_DEPRECATION, "vendored"),
        )
    )
    report = build_report(OLD, NEW, config=config)
    assert verdict(report) == "PATCH (nothing but 3 accepted changes): 1.2.3 -> 1.2.4"
    assert verdict(build_report(OLD, OLD)) == "PATCH (no public API change): 1.2.3 -> 1.2.4"
    assert not report.reaches(Level.PATCH)


def _helper_at(*paths: str, documented: bool) -> Surface:
    symbols = {
        "pkg": Symbol("pkg", SymbolKind.MODULE, location=Location("pkg/__init__.py", 0)),
        "pkg.core": Symbol("pkg.core", SymbolKind.MODULE, location=Location("pkg/core.py", 0)),
        "pkg.common": Symbol(
            "pkg.common", SymbolKind.MODULE, location=Location("pkg/common.py", 0)
        ),
    }
    excluded = {}
    for path in paths:
        if documented:
            symbols[path] = Symbol(
                path, SymbolKind.FUNCTION, target="pkg.util.helper", signature=Signature()
            )
        else:
            excluded[path] = ExclusionReason.UNDOCUMENTED
    return Surface("pkg", symbols, excluded)


def test_a_change_naming_its_own_path_is_one_change_per_object() -> None:
    # "no longer documented" names the path that left the surface as its new value: the
    # same fact at each path of the object, reported once.
    paths = ("pkg.core.helper", "pkg.common.helper")
    report = build_report(_helper_at(*paths, documented=True), _helper_at(*paths, documented=False))
    (item,) = report.changes
    assert (item.change.path, item.change.kind) == (
        "pkg.core.helper",
        K.SYMBOL_NO_LONGER_DOCUMENTED,
    )
    assert item.change.qualifiers == (K.REMOVED_WITHOUT_DEPRECATION,)
    assert report.other_paths(item) == ("pkg.common.helper",)
    # Losing only its documentation is inferred (no code observes it): to review, not counted.
    assert report.count(Level.MAJOR) == 0 and len(report.to_review) == 1


def _typed_at(annotation: str) -> Surface:
    parameter = Parameter("x", ParamKind.POSITIONAL_OR_KEYWORD, annotation=annotation)
    symbols = {
        "pkg": Symbol("pkg", SymbolKind.MODULE, location=Location("pkg/__init__.py", 0)),
        "pkg.core": Symbol("pkg.core", SymbolKind.MODULE, location=Location("pkg/core.py", 0)),
        "pkg.Thing": Symbol("pkg.Thing", SymbolKind.CLASS, target="pkg.core.Thing"),
    }
    for path in ("pkg.f", "pkg.core.f"):
        symbols[path] = Symbol(
            path, SymbolKind.FUNCTION, target="pkg.core.f", signature=Signature((parameter,))
        )
    return Surface("pkg", symbols)


def test_an_annotation_naming_the_package_is_the_same_value_at_every_path() -> None:
    # Only path-valued kinds are compared relative to their path: the type pkg.Thing is
    # the same at pkg.f and pkg.core.f.
    (item,) = build_report(_typed_at("str"), _typed_at("pkg.Thing")).changes
    assert (item.change.path, item.change.kind) == ("pkg.f(x)", K.PARAMETER_ANNOTATION_CHANGED)
    assert build_report(_typed_at("str"), _typed_at("pkg.Thing")).other_paths(item) == (
        "pkg.core.f(x)",
    )
