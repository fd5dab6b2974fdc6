"""Every change case (tests/cases/*.case) against the rule table, run as written and
re-exported through ``__init__`` with ``__all__``; old-vs-old and new-vs-new report nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from casefile import CHANGE_CASES, Case, parse_case, reexported, write_tree

from apisurface.changes import ChangeKind
from apisurface.compare.bump import required_level
from apisurface.compare.diff import diff_surfaces
from apisurface.compare.rules import RULES, classify
from apisurface.surface.collect import load_surface

CASES = [parse_case(path) for path in CHANGE_CASES]


def _report(
    tmp_path: Path, old: dict[str, str], new: dict[str, str]
) -> tuple[set[tuple[str, str]], str, set[tuple[str, str]]]:
    """The changes found, the required bump (proven changes count) and the changes
    graded inferred."""
    old_surface = load_surface(write_tree(tmp_path / "old", old))
    new_surface = load_surface(write_tree(tmp_path / "new", new))
    assert not old_surface.problems and not new_surface.problems
    classified = classify(diff_surfaces(old_surface, new_surface))
    found = {(item.change.path, item.change.kind.value) for item in classified}
    inferred = {
        (item.change.path, item.change.kind.value)
        for item in classified
        if not item.change.evidence.proven
    }
    assert all(item.change.evidence.why for item in classified)
    return found, str(required_level(classified)), inferred


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case_as_written(case: Case, tmp_path: Path) -> None:
    found, bump, inferred = _report(tmp_path, case.old, case.new)
    assert found == case.expect, case.description
    assert inferred == case.inferred, "the changes graded inferred (# inferred: lines)"
    assert bump == case.bump


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
        found, bump, _ = _report(tmp_path / side, files, files)
        assert found == set(), f"{side} vs {side}"
        assert bump == "patch"


def test_every_rule_has_a_case() -> None:
    covered = {kind for case in CASES for _, kind in case.expect}
    missing = sorted(kind.value for kind in ChangeKind if kind.value not in covered)
    assert missing == []


def test_every_case_names_known_rules() -> None:
    known = {kind.value for kind in ChangeKind}
    unknown = sorted({kind for case in CASES for _, kind in case.expect} - known)
    assert unknown == []


def test_rule_table_matches_change_kinds() -> None:
    assert set(RULES) == set(ChangeKind)
    for kind, rule in RULES.items():
        assert rule.kind is kind
        assert rule.template.strip()


def test_cases_state_their_bump() -> None:
    assert all(case.bump in ("major", "minor", "patch") for case in CASES)
    assert all(case.description for case in CASES)
