"""Every change case through a snapshot (issue 24): ``snapshot OLD`` to a file, then the
diff of that snapshot against NEW, must give the report of the direct diff OLD vs NEW.

A snapshot holds every field of a symbol but its location and the digest of its docstring
(the file and line and the prose, which only cache entries keep; targets are recorded since
format 9, because a diff against a snapshot reported a protobuf enum value's removal twice
and a narrowed return type through a private base as MAJOR without them), so the report
from the snapshot must equal, byte for byte, the direct report with those fields of OLD
cleared, and what the report decides (bump, entries, grades) must equal the direct
report's, but for the docstring notes and renames paired by docstring text.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields, replace
from pathlib import Path
from typing import Any

import pytest
from casefile import CHANGE_CASES, Case, parse_case, reexported, write_tree

from apisurface.compare.report import build_report
from apisurface.model import Surface, Symbol
from apisurface.output.text import render_json
from apisurface.store.codec import NOT_IN_SNAPSHOT
from apisurface.store.snapshot import read_snapshot, write_snapshot
from apisurface.surface.collect import load_surface

CASES = [parse_case(path) for path in CHANGE_CASES]
VARIANTS = [(case, False) for case in CASES] + [
    (case, True)
    for case in CASES
    if case.reexport and reexported(case.old) and reexported(case.new)
]
IDS = [f"{case.name}{'-reexported' if again else ''}" for case, again in VARIANTS]

_UNRECORDED = {
    item.name: item.default
    for item in fields(Symbol)
    if item.name in {"location", *NOT_IN_SNAPSHOT} and item.default is not MISSING
}


def _recorded(surface: Surface) -> Surface:
    """``surface`` as a snapshot records it: what it does not record at its default."""
    symbols = {path: replace(symbol, **_UNRECORDED) for path, symbol in surface.symbols.items()}
    return replace(surface, symbols=symbols)


def _sides(case: Case, again: bool, tmp_path: Path) -> tuple[Surface, Surface, Surface]:
    """OLD, OLD read back from its snapshot file, and NEW."""
    old_files, new_files = (
        (reexported(case.old), reexported(case.new))
        if again
        else (
            case.old,
            case.new,
        )
    )
    assert old_files is not None and new_files is not None
    old = load_surface(write_tree(tmp_path / "old", old_files))
    new = load_surface(write_tree(tmp_path / "new", new_files))
    write_snapshot(old, tmp_path / "old.json")
    return old, read_snapshot(tmp_path / "old.json"), new


def _decisions(report_json: str, *, prose: bool = False) -> dict[str, Any]:
    """What a report decides, without where things are defined (which a snapshot does not
    record, so neither the file and line of a removed symbol nor its witness), and without
    the notes on docstring wording (a snapshot records whether a symbol is documented, not
    its prose: format 14). A report from two trees (``prose``) may pair a removal and an
    addition under another name as a rename by their docstrings' text; a snapshot has no
    text to pair them by, so it reports the removal (naming the guess) and the addition."""
    data = json.loads(report_json)
    entries = []
    for item in data["changes"]:
        if item["kind"] == "docstring_changed":
            continue
        evidence = item["evidence"]["grade"]
        if prose and item["kind"] == "symbol_renamed":
            new_path = item["new"]
            entries.append((new_path, "symbol_added", "minor", (), True, "proven"))
            item = {**item, "kind": "symbol_removed"}  # noqa: PLW2901
        entries.append(
            (
                item["path"],
                item["kind"],
                item["bump"],
                tuple(item["also_at"]),
                item["counted"],
                evidence,
            )
        )
    entries.sort()
    counts = {level: sum(1 for entry in entries if entry[2] == level) for level in data["counts"]}
    return {"bump": data["bump"], "counts": counts, "entries": entries}


@pytest.mark.parametrize(("case", "again"), VARIANTS, ids=IDS)
def test_snapshot_of_old_reports_as_the_tree(case: Case, again: bool, tmp_path: Path) -> None:
    old, snapshot, new = _sides(case, again, tmp_path)
    from_snapshot = render_json(build_report(snapshot, new))
    assert from_snapshot == render_json(build_report(_recorded(old), new)), case.description
    report = render_json(build_report(old, new))
    direct, found = _decisions(report, prose=True), _decisions(from_snapshot)
    if '"kind": "symbol_renamed"' not in report:
        assert found == direct, case.description
        return
    # Without the rename, annotations naming the renamed class change too.
    assert found["bump"] == direct["bump"], case.description
    assert set(direct["entries"]) <= set(found["entries"]), case.description
    extra = set(found["entries"]) - set(direct["entries"])
    assert all("annotation" in kind for _, kind, *_ in extra), case.description
