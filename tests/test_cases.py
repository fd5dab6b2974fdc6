"""Every change case (tests/cases/*.case) against the rule table, run as written and
re-exported through ``__init__`` with ``__all__``; old-vs-old and new-vs-new report nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from casefile import CHANGE_CASES, Case, parse_case, reexported, write_tree

from apisurface.changes import Change, ChangeKind
from apisurface.compare.bump import required_level
from apisurface.compare.diff import diff_surfaces
from apisurface.compare.report import build_report
from apisurface.compare.rules import RULES, classify
from apisurface.surface.collect import load_surface

CASES = [parse_case(path) for path in CHANGE_CASES]


def _report(
    tmp_path: Path, old: dict[str, str], new: dict[str, str], unknowns: set[str] | None = None
) -> tuple[set[tuple[str, str]], str, set[tuple[str, str]]]:
    """The changes found, the required bump (proven changes count) and the changes graded
    inferred; the paths of their unknowns (the object or module each problem concerns) must
    be exactly ``unknowns`` (None: no unknown)."""
    old_surface = load_surface(write_tree(tmp_path / "old", old))
    new_surface = load_surface(write_tree(tmp_path / "new", new))
    found_unknowns = {
        problem.path or problem.file for problem in (*old_surface.problems, *new_surface.problems)
    }
    assert found_unknowns == (unknowns or set())
    classified = classify(diff_surfaces(old_surface, new_surface))
    found = {(item.change.path, _entry_kind(item.change)) for item in classified}
    inferred = {
        (item.change.path, _entry_kind(item.change))
        for item in classified
        if not item.change.evidence.proven
    }
    assert all(item.change.evidence.why for item in classified)
    return found, str(required_level(classified)), inferred


def _entry_kind(change: Change) -> str:
    """The kind of one entry as a case writes it: ``symbol_removed+removed_without_deprecation``
    for a removal that carries the qualifier (one entry, not two)."""
    return "+".join(kind.value for kind in (change.kind, *change.qualifiers))


def _rules(kind: str) -> list[str]:
    return kind.split("+")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case_as_written(case: Case, tmp_path: Path) -> None:
    found, bump, inferred = _report(tmp_path, case.old, case.new, case.unknowns)
    assert found == case.expect, case.description
    assert inferred == case.inferred, "the changes graded inferred (# inferred: lines)"
    assert bump == case.bump


ENTRY_CASES = [case for case in CASES if case.entries]


@pytest.mark.parametrize("case", ENTRY_CASES, ids=[case.name for case in ENTRY_CASES])
def test_case_entries(case: Case, tmp_path: Path) -> None:
    """``# entry:`` lines: the report's entries, one per object (its other paths beside
    it), each at the file and line of its definition."""
    old = load_surface(write_tree(tmp_path / "old", case.old))
    new = load_surface(write_tree(tmp_path / "new", case.new))
    report = build_report(old, new)
    found = set()
    for item in report.changes:
        location = report.location(item)
        at = f"{location.file}:{location.line}" if location is not None else ""
        kind = _entry_kind(item.change)
        found.add((item.change.path, kind, report.other_paths(item), at))
    assert found == case.entries, case.description


REEXPORTED = [
    case for case in CASES if case.reexport and reexported(case.old) and reexported(case.new)
]


@pytest.mark.parametrize("case", REEXPORTED, ids=[case.name for case in REEXPORTED])
def test_case_reexported(case: Case, tmp_path: Path) -> None:
    old, new = reexported(case.old), reexported(case.new)
    assert old is not None and new is not None
    found, bump, inferred = _report(tmp_path, old, new)
    assert found == case.expect, case.description
    assert inferred == case.inferred
    assert bump == case.bump


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_same_tree_reports_nothing(case: Case, tmp_path: Path) -> None:
    for side, files in (("old", case.old), ("new", case.new)):
        surface = load_surface(write_tree(tmp_path / side / "tree", files))
        unknowns = {problem.path or problem.file for problem in surface.problems}
        assert unknowns <= case.unknowns
        found, bump, _ = _report(tmp_path / side, files, files, unknowns)
        assert found == set(), f"{side} vs {side}"
        assert bump == "patch"


def test_every_rule_has_a_case() -> None:
    covered = {rule for case in CASES for _, kind in case.expect for rule in _rules(kind)}
    missing = sorted(kind.value for kind in ChangeKind if kind.value not in covered)
    assert missing == []


def test_every_case_names_known_rules() -> None:
    known = {kind.value for kind in ChangeKind}
    named = {rule for case in CASES for _, kind in case.expect for rule in _rules(kind)}
    unknown = sorted(named - known)
    assert unknown == []


def test_rule_table_matches_change_kinds() -> None:
    assert set(RULES) == set(ChangeKind)
    for kind, rule in RULES.items():
        assert rule.kind is kind
        assert rule.template.strip()


def test_cases_state_their_bump() -> None:
    assert all(case.bump in ("major", "minor", "patch") for case in CASES)
    assert all(case.description for case in CASES)
