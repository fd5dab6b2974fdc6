"""Every surface case (tests/surface_cases/*.case): the exact public surface of a tree,
for the rules of POLICY.md section 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from casefile import SURFACE_CASES, Case, parse_case, write_tree

from apisurface.surface.collect import load_surface

CASES = [parse_case(path) for path in SURFACE_CASES]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_surface(case: Case, tmp_path: Path) -> None:
    surface = load_surface(write_tree(tmp_path, case.old), "pkg")
    assert {problem.path or problem.file for problem in surface.problems} == case.unknowns
    found = {(path, symbol.kind.value) for path, symbol in surface.symbols.items()}
    assert found == case.public, case.description
    excluded = {(path, reason.value) for path, reason in surface.excluded.items()}
    assert case.excluded <= excluded, case.description


def test_cases_exist_and_describe_themselves() -> None:
    assert len(CASES) >= 20
    assert all(case.description and case.public for case in CASES)
