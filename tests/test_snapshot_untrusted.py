"""Snapshots are untrusted data (issue 6): anything that is not a snapshot this apisurface
can read is refused with one line naming the rule that failed and what to do (POLICY.md
section 4), exit 2, and nothing is written anywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import apisurface.store.snapshot as snapshot_module
from apisurface.cli import main
from apisurface.model import Surface, Symbol, SymbolKind
from apisurface.store.snapshot import CONSUMER, dumps

REGENERATE = "; regenerate it with 'apisurface snapshot'"


def valid() -> dict[str, object]:
    surface = Surface("pkg", {"pkg": Symbol("pkg", SymbolKind.MODULE)}, version="1.0")
    document = json.loads(dumps(surface))
    assert isinstance(document, dict)
    return document


def with_(**changes: object) -> str:
    return json.dumps({**valid(), **changes})


def versions(**changes: object) -> str:
    header = {"producer": 1, "min_consumer": 1, "bad_consumers": [], **changes}
    return with_(versions=header)


NOT_SNAPSHOTS: dict[str, tuple[str | bytes, str]] = {
    "not_json": ("{this is not json", "not valid JSON (Expecting property name"),
    "binary": (b"\xff\xfe\x00\x01garbage", "not valid JSON"),
    "empty": ("", "not valid JSON"),
    "a_list": ("[1, 2]", "not an apisurface snapshot (not a JSON object)"),
    "no_header": ("{}", "not an apisurface snapshot (no 'versions' header)"),
    "header_not_object": (with_(versions=[1]), "not an apisurface snapshot (no 'versions'"),
    "producer_as_text": (versions(producer="1"), "invalid 'versions' header"),
    "producer_huge": (versions(producer=10**400), "invalid 'versions' header"),
    "producer_float": (versions(producer=1e308), "invalid 'versions' header"),
    "producer_bool": (versions(producer=True), "invalid 'versions' header"),
    "producer_nan": (versions().replace('"producer": 1', '"producer": NaN'), "invalid"),
    "negative": (versions(min_consumer=-1), "invalid 'versions' header"),
    "bad_consumers_not_list": (versions(bad_consumers=1), "invalid 'versions' header"),
    "deeply_nested": ("[" * 200_000 + "]" * 200_000, "nested too deeply to be a snapshot"),
    "deep_inside_symbol": (
        with_(symbols={"pkg": {"kind": "function", "signature": [[[[[]]]]]}}),
        "symbol 'pkg': a signature must be an object with 'parameters'",
    ),
    "symbols_a_list": (with_(symbols=[]), "'symbols' and 'excluded' must be objects"),
    "unknown_kind": (with_(symbols={"pkg": {"kind": "rocket"}}), "unknown kind 'rocket'"),
    "unknown_parameter_kind": (
        with_(symbols={"pkg.f": {"kind": "function", "signature": {"parameters": [{}]}}}),
        "unknown parameter kind None",
    ),
    "annotation_not_text": (
        with_(symbols={"pkg.X": {"kind": "attribute", "annotation": {"a": 1}}}),
        "annotation must be a string",
    ),
    "huge_string": (
        with_(symbols={"pkg.X": {"kind": "attribute", "annotation": "x" * 200_000}}),
        "annotation must be a string",
    ),
    "assignable_not_a_flag": (
        with_(symbols={"pkg.X": {"kind": "attribute", "assignable": "no"}}),
        "assignable must be true or false",
    ),
    "unknown_reason": (with_(excluded={"pkg._x": "because"}), "unknown exclusion reason"),
    "problems_not_list": (with_(problems="all good"), "'problems' must be a list"),
    "package_is_a_path": (with_(package="../../evil"), "'package' is not a Python package"),
    "package_missing": (with_(package=None), "'package' must be a string"),
}


@pytest.mark.parametrize("name", sorted(NOT_SNAPSHOTS))
@pytest.mark.parametrize("command", ["show", "diff"])
def test_refused_with_one_line_and_exit_2(
    name: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content, expected = NOT_SNAPSHOTS[name]
    bad = tmp_path / "bad.json"
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content, encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(valid()), encoding="utf-8")
    argv = ["show", str(bad)] if command == "show" else ["diff", str(good), str(bad)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"apisurface: error: {bad}")
    assert expected in captured.err
    assert captured.err.count("\n") == 1
    assert captured.err.rstrip().endswith(("upgrade apisurface", REGENERATE))


@pytest.mark.parametrize(
    ("header", "rule", "advice"),
    [
        (
            {"producer": 7, "min_consumer": 5},
            "written by a newer apisurface (format 7, needs a reader of format >= 5, "
            f"this one reads {CONSUMER})",
            "upgrade apisurface",
        ),
        (
            {"producer": 0, "min_consumer": 0},
            "written by an apisurface too old to read (format 0 < 1)",
            "regenerate it with 'apisurface snapshot'",
        ),
        (
            {"producer": 2, "min_consumer": 1, "bad_consumers": [CONSUMER]},
            f"its producer marks this reader (format {CONSUMER}) as unable to read it",
            "upgrade apisurface or regenerate the snapshot",
        ),
    ],
)
def test_version_rules_name_the_rule_and_the_fix(
    header: dict[str, object],
    rule: str,
    advice: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "pkg.json"
    path.write_text(with_(versions={"bad_consumers": [], **header}), encoding="utf-8")
    assert main(["show", str(path)]) == 2
    assert capsys.readouterr().err == f"apisurface: error: {path}: {rule}; {advice}\n"


def test_newer_producer_readable_by_us_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pkg.json"
    path.write_text(versions(producer=9, min_consumer=1), encoding="utf-8")
    assert main(["show", str(path)]) == 0
    assert "pkg" in capsys.readouterr().out


def test_snapshot_never_writes_outside_the_intended_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    evil = work / "evil.json"
    evil.write_text(with_(package="../../escaped"), encoding="utf-8")
    assert main(["snapshot", str(evil)]) == 2
    assert "'package' is not a Python package name" in capsys.readouterr().err
    assert sorted(path.name for path in tmp_path.rglob("*")) == ["evil.json", "work"]


def test_oversized_file_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "pkg.json"
    path.write_text(json.dumps(valid()), encoding="utf-8")
    monkeypatch.setattr(snapshot_module, "_MAX_BYTES", 10)
    assert main(["show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"apisurface: error: {path}: too large (0 MiB) to be a snapshot{REGENERATE}\n"


def test_a_folder_named_like_a_snapshot_is_not_read_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pkg.json"
    folder.mkdir()
    assert main(["show", str(folder)]) == 2
    assert capsys.readouterr().err.startswith("apisurface: error: ")
