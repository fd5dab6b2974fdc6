"""The evidence of changes read from code (issue 22): each case of tests/cases that shows
one is run, and every change it expects must carry the grade listed here (POLICY.md
section 3: a type inferred from an unannotated value, a keyword read from ``**kwargs``, a
return type read from the ``return`` statements, default expressions not comparable as
values are guesses: inferred)."""

from __future__ import annotations

from pathlib import Path

import pytest
from casefile import case_path, parse_case, reexported, write_tree

from apisurface.changes import Grade
from apisurface.compare.diff import diff_surfaces
from apisurface.surface.collect import load_surface

GRADES: dict[str, dict[tuple[str, str], Grade]] = {
    "attribute_annotation_changed__value_type_inferred": {
        ("pkg.TAGS", "attribute_annotation_changed"): Grade.INFERRED,
        ("pkg.PATTERN", "attribute_annotation_changed"): Grade.INFERRED,
    },
    "parameter_default_changed__read_from_kwargs": {
        ("pkg.Timer.__init__(repeat)", "parameter_default_changed"): Grade.INFERRED,
    },
    "parameter_removed__read_from_kwargs": {
        ("pkg.start(repeat)", "parameter_removed"): Grade.INFERRED,
    },
    "parameter_absorbed__read_from_kwargs_forwarded": {
        ("pkg.Timer.__init__(repeat)", "parameter_absorbed"): Grade.INFERRED,
    },
    "return_annotation_changed__read_from_returns": {
        ("pkg.tags", "return_annotation_changed"): Grade.INFERRED,
        ("pkg.lookup", "return_annotation_widened"): Grade.INFERRED,
    },
    "parameter_default_changed__named_constant_branches": {
        ("pkg.load(use_mmap)", "parameter_default_changed"): Grade.INFERRED,
    },
    "symbol_deprecated__through_helper": {
        ("pkg.old_parse", "symbol_deprecated"): Grade.INFERRED,
    },
    # Written facts stay proven: a literal default changed.
    "parameter_default_changed": {
        ("pkg.connect(timeout)", "parameter_default_changed"): Grade.PROVEN,
    },
}


def _grades(
    tmp_path: Path, old: dict[str, str], new: dict[str, str]
) -> dict[tuple[str, str], Grade]:
    changes = diff_surfaces(
        load_surface(write_tree(tmp_path / "old", old)),
        load_surface(write_tree(tmp_path / "new", new)),
    )
    return {(change.path, change.kind.value): change.evidence.grade for change in changes}


@pytest.mark.parametrize("name", sorted(GRADES))
def test_grades(name: str, tmp_path: Path) -> None:
    case = parse_case(case_path(name))
    assert set(GRADES[name]) == case.expect
    assert _grades(tmp_path / "written", case.old, case.new) == GRADES[name]
    old, new = reexported(case.old), reexported(case.new)
    assert old is not None and new is not None
    assert _grades(tmp_path / "reexported", old, new) == GRADES[name]
