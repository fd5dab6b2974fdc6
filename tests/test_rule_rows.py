"""The rows of the rule table (issue 24): written by keyword, one example case per kind
that ships with the package, and one caller hint per kind that ``diff``, ``impact`` and
``migrate`` all read."""

from __future__ import annotations

import fnmatch
import json
import string
import tomllib
from pathlib import Path

import pytest
from casefile import EXAMPLE_CASES, parse_case
from clirun import run

from apisurface.changes import CallerHint, ChangeKind, Level, Row
from apisurface.compare.rules import RULES
from apisurface.output.explain import example_case, explain_text, rule_doc

ROOT = Path(__file__).resolve().parents[1]
KINDS = list(ChangeKind)


def test_a_positional_row_is_refused() -> None:
    with pytest.raises(TypeError):
        Row("symbol_gone", Level.MAJOR, "{old} gone", "Imports fail.")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        CallerHint("use it")  # type: ignore[call-arg]
    row = Row(id="symbol_gone", level=Level.MAJOR, message="{old} gone", why="Imports fail.")
    assert (row.id, row.level, row.message, row.why) == (
        "symbol_gone",
        Level.MAJOR,
        "{old} gone",
        "Imports fail.",
    )


def test_a_member_that_is_not_a_row_is_refused() -> None:
    # What ChangeKind makes each member with (the enum keeps it once the class is built): a
    # row written as the old positional tuple, or as loose fields, is refused.
    make = ChangeKind._new_member_  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"Row\(id="):
        make(ChangeKind, ("symbol_gone", Level.MAJOR, "{old} gone", "Imports fail."))
    with pytest.raises(TypeError):
        make(ChangeKind, "symbol_gone", Level.MAJOR, "{old} gone", "Imports fail.")
    assert all(kind.rule.kind is kind and kind.value == str(kind) for kind in KINDS)


@pytest.mark.parametrize("kind", KINDS, ids=[kind.value for kind in KINDS])
def test_every_kind_has_an_example_case_that_explain_renders(kind: ChangeKind) -> None:
    path = EXAMPLE_CASES / f"{kind.value}.case"
    assert path.is_file(), f"write the example of {kind.value} as {path.relative_to(ROOT)}"
    assert example_case(kind.value) == path.read_text(encoding="utf-8")
    case = parse_case(path)
    assert any(kind.value in expected.split("+") for _, expected in case.expect)
    doc = rule_doc(kind.value)
    assert (doc.before, doc.after) == (case.old, case.new)
    page = explain_text(kind.value)
    assert f"Example (reported at {doc.reported}):" in page
    assert f"  {case.description}" in page
    assert any(line.startswith(("    -", "    +")) for line in page.splitlines())


def test_the_wheel_ships_every_example_case() -> None:
    """The package data of pyproject.toml covers each file of src/apisurface/cases, so an
    installed apisurface explains as the checkout does."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["apisurface"]
    shipped = ROOT / "src" / "apisurface"
    cases = sorted(EXAMPLE_CASES.glob("*.case"))
    assert len(cases) == len(KINDS)
    for case in cases:
        relative = case.relative_to(shipped).as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative


_PLACEHOLDERS = {"successor", "fix", "name", "message", "position", "path"}


@pytest.mark.parametrize("kind", KINDS, ids=[kind.value for kind in KINDS])
def test_caller_hints_use_known_placeholders(kind: ChangeKind) -> None:
    hint = kind.rule.caller_hint
    for template in (
        hint.use,
        hint.use_successor,
        hint.argument,
        hint.argument_successor,
        hint.override,
    ):
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert names <= _PLACEHOLDERS, (kind.value, template)
    if kind.rule.level is Level.MAJOR:
        assert hint.use, f"{kind.value} is breaking: its row says what callers must do"


def test_the_diff_report_carries_the_caller_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = parse_case(EXAMPLE_CASES / "parameter_renamed.case")
    for side, tree in (("old", case.old), ("new", case.new)):
        for name, text in tree.items():
            (tmp_path / side / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / side / name).write_text(text, encoding="utf-8")
    code, out, err = run(
        capsys, "diff", str(tmp_path / "old"), str(tmp_path / "new"), "--format", "json"
    )
    assert code == 0, err
    (record,) = json.loads(out)["changes"]
    assert record["kind"] == "parameter_renamed"
    assert record["caller_hint"] == ChangeKind.PARAMETER_RENAMED.rule.caller_hint.use


def test_a_rule_still_offers_its_example_and_reported_path() -> None:
    """``Rule.example`` and ``Rule.reported`` were fields before the examples moved to case
    files; they are part of apisurface's public API, so they stay, read from the case."""
    for kind, rule in RULES.items():
        assert rule.example.startswith("--- "), kind
        assert rule.reported.startswith("pkg"), kind
