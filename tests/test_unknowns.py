"""Unknowns are scoped (POLICY.md section 3, "Unknowns"): a part of the surface a static
reader cannot know blocks ``--fail-on``, ``check`` and ``release-check`` only where it could
hide a change (what it concerns differs between OLD and NEW, or is on one side only);
elsewhere it is a note, and every report says which parts could not be verified and why."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from clirun import run, write
from gitrepo import Repo, pyproject

from apisurface.compare.report import build_report, scope_unknowns
from apisurface.model import Problem, Surface, Symbol, SymbolKind
from apisurface.store.snapshot import dumps, loads
from apisurface.surface.collect import load_surface

# A package with one unknown of each origin: a file that does not parse (a private module no
# public one imports, so an unknown rather than bad input: issue 37), names `__all__`
# lists but the module binds at run time, an expression griffe gives up on (too deeply
# nested), and a module whose `__all__` is computed.
DEEP = "+".join(["1"] * 500)
UNKNOWN_PARTS = {
    "pkg/__init__.py": '"""Pkg."""\nfrom pkg.api import fetch\n\n__all__ = ["fetch", "VERSION"]\n'
    'globals()["VERSION"] = "1.0"\n',
    "pkg/api.py": '"""Api."""\n\n\ndef fetch(url, timeout=1.0):\n    """Fetch."""\n',
    "pkg/_legacy.py": '"""Python 2."""\nprint "hello"\n',
    "pkg/tables.py": f'"""Tables."""\n\nTABLE = {{"deep": {DEEP}}}\n\n\n'
    'def lookup(key):\n    """Look up."""\n',
    "pkg/dyn.py": '"""Dyn."""\n__all__ = [n for n in dir() if not n.startswith("_")]\n',
}


def _tree(root: Path, files: dict[str, str]) -> Path:
    return write(root, files)  # type: ignore[arg-type]


def test_the_fixture_has_unknowns_of_every_origin(tmp_path: Path) -> None:
    surface = load_surface(_tree(tmp_path, UNKNOWN_PARTS), "pkg")
    concerned = {problem.path or problem.file for problem in surface.problems}
    assert concerned == {"pkg", "pkg/_legacy.py", "pkg.tables.TABLE", "pkg.dyn"}
    assert all(problem.digest for problem in surface.problems)
    assert surface.symbols["pkg.VERSION"].kind is SymbolKind.UNKNOWN


def test_a_release_against_itself_passes_the_gate_with_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _tree(tmp_path / "old", UNKNOWN_PARTS)
    new = tmp_path / "new"
    shutil.copytree(old, new)
    code, out, err = run(capsys, "diff", str(old), str(new), "--fail-on", "major")
    assert code == 0, out + err
    assert "note: 4 not verified, unchanged between the sides" in out
    assert "pkg/_legacy.py:2:1: syntax error" in out
    code, out, _ = run(capsys, "diff", str(old), str(new), "--fail-on", "patch", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["complete"] is True
    assert report["unknowns"]["blocking"] == []
    notes = report["unknowns"]["notes"]
    assert {(note["file"], note["path"]) for note in notes} == {
        ("pkg/__init__.py", "pkg"),
        ("pkg/_legacy.py", None),
        ("pkg/tables.py", "pkg.tables.TABLE"),
        ("pkg/dyn.py", "pkg.dyn"),
    }
    assert all(note["reason"] == "unchanged between the sides" for note in notes)
    for fmt in ("markdown", "github", "sarif", "html"):
        code, out, _ = run(
            capsys, "diff", str(old), str(new), "--fail-on", "major", "--format", fmt
        )
        assert code == 0, fmt
        assert "_legacy.py" in out, fmt


def test_a_break_planted_in_a_file_with_unknowns_fails_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _tree(tmp_path / "old", UNKNOWN_PARTS)
    # A real break in the file whose `__all__` names are bound at run time, and in the file
    # griffe gives up on: both the changes and the now-differing unknowns block.
    broken = {
        **UNKNOWN_PARTS,
        "pkg/__init__.py": UNKNOWN_PARTS["pkg/__init__.py"]
        .replace('"fetch", ', "")
        .replace("from pkg.api import fetch\n", ""),
        "pkg/tables.py": UNKNOWN_PARTS["pkg/tables.py"].replace("lookup(key)", "lookup()"),
    }
    new = _tree(tmp_path / "new", broken)
    code, out, _ = run(capsys, "diff", str(old), str(new), "--fail-on", "major", "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert {(c["path"], c["kind"]) for c in report["changes"] if c["bump"] == "major"} >= {
        ("pkg.fetch", "reexport_removed"),
        ("pkg.tables.lookup(key)", "parameter_removed"),
    }
    blocking = report["unknowns"]["blocking"]
    assert {(item["side"], item["path"]) for item in blocking} == {("old", "pkg"), ("new", "pkg")}
    assert all("differs between the sides" in item["reason"] for item in blocking)
    # The unknown of the dict griffe gave up on concerns its object, not its file: the
    # function changed beside it, the dict did not.
    assert {note["path"] for note in report["unknowns"]["notes"]} == {
        "pkg.tables.TABLE",
        None,
        "pkg.dyn",
    }


def test_a_change_hidden_in_an_unknown_part_fails_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _tree(tmp_path / "old", UNKNOWN_PARTS)
    edited = {**UNKNOWN_PARTS, "pkg/_legacy.py": '"""Python 2."""\nprint "hello, world"\n'}
    new = _tree(tmp_path / "new", edited)
    code, out, err = run(capsys, "diff", str(old), str(new), "--fail-on", "major")
    assert code == 1
    assert "could hide a change" in out
    assert "old: pkg/_legacy.py:2:1: syntax error" in out
    assert "its file differs between the sides" in out
    assert "not verified where OLD and NEW differ" in err
    # Without a gate the diff itself succeeds and says what it could not verify.
    assert run(capsys, "diff", str(old), str(new))[0] == 0


def test_an_unknown_on_one_side_only_blocks(tmp_path: Path) -> None:
    files = {name: text for name, text in UNKNOWN_PARTS.items() if name != "pkg/_legacy.py"}
    old = load_surface(_tree(tmp_path / "old", files), "pkg")
    new = load_surface(_tree(tmp_path / "new", UNKNOWN_PARTS), "pkg")
    report = build_report(old, new)
    (only,) = report.blocking_unknowns
    assert (only.side, only.problem.file) == ("new", "pkg/_legacy.py")
    assert only.reason == "not in OLD: what it concerns changed"
    assert len(report.unknown_notes) == 3


def test_an_unknown_without_a_recorded_digest_blocks() -> None:
    """A snapshot written before unknowns were scoped has problems as text only."""
    legacy = Surface("pkg", {"pkg": Symbol("pkg", SymbolKind.MODULE)}, problems=(Problem("", "x"),))
    report = build_report(legacy, legacy)
    assert len(report.blocking_unknowns) == 2
    assert "not recorded" in report.blocking_unknowns[0].reason


def test_snapshots_keep_the_digests_and_old_snapshots_still_read(tmp_path: Path) -> None:
    surface = load_surface(_tree(tmp_path, UNKNOWN_PARTS), "pkg")
    text = dumps(surface)
    document = json.loads(text)
    # Older readers keep reading the problems as text; a kind they do not know asks for
    # a newer reader (format 14 asks for a reader of format 4 anyway: ``documented``).
    assert document["problems"] == [str(problem) for problem in surface.problems]
    assert document["versions"]["min_consumer"] == 4
    assert loads(text) == surface
    assert build_report(loads(text), surface).blocking_unknowns == ()
    del document["unknowns"]
    document["versions"] = {"producer": 3, "min_consumer": 1, "bad_consumers": []}
    older = loads(json.dumps(document))
    assert [str(problem) for problem in older.problems] == document["problems"]
    assert all(problem.digest is None for problem in older.problems)
    plain = Surface("pkg", {"pkg": Symbol("pkg", SymbolKind.MODULE)})
    assert json.loads(dumps(plain))["versions"]["min_consumer"] == 4


# --- check and release-check -----------------------------------------------------------

UNKNOWN_REPO = {
    "pkg/__init__.py": '"""Pkg."""\nfrom pkg.api import fetch\n\n__all__ = ["fetch"]\n',
    "pkg/api.py": '"""Api."""\n\n\ndef fetch(url, timeout=1.0):\n    """Fetch."""\n',
    "pkg/_legacy.py": '"""Python 2."""\nprint "hello"\n',
}


def _released(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0")})
    repo.write({f"src/{name}": text for name, text in UNKNOWN_REPO.items()})
    repo.commit("release", tag="v1.0.0")
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    repo.commit("snapshot")
    return repo


def test_check_passes_unknowns_unchanged_since_the_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _released(tmp_path, monkeypatch, capsys)
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert "PASS surface complete: 1 part not verified, unchanged since v1.0.0 (notes)" in out
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 0, out
    assert "unchanged since api_snapshots/pkg.json" in out
    code, out, _ = run(capsys, "release-check", "--format", "json")
    (complete,) = [item for item in json.loads(out)["checks"] if item["name"] == "surface complete"]
    assert complete["status"] == "pass", complete
    assert "not verified, unchanged since v1.0.0" in complete["summary"]
    # The unknown file edited since the release: a change there would go unseen.
    repo.write({"src/pkg/_legacy.py": '"""Python 2."""\nprint "bye"\n'})
    assert run(capsys, "snapshot", "-q")[0] == 0
    code, out, _ = run(capsys, "check")
    assert code == 1
    # Both sides' reading of the file: the release's and the working tree's.
    assert "FAIL surface complete: 2 parts not verified where the working tree differs" in out
    assert "v1.0.0: src/pkg/_legacy.py" in out or "v1.0.0: pkg/_legacy.py" in out
    code, out, _ = run(capsys, "release-check", "--format", "json")
    assert code == 1
    (complete,) = [item for item in json.loads(out)["checks"] if item["name"] == "surface complete"]
    assert complete["status"] == "fail"
    assert "not verified where the working tree differs from v1.0.0" in complete["summary"]


def test_a_decision_is_a_note_that_never_blocks() -> None:
    """A declaration the build's generated API modules did not export is a decision read
    from files read whole, not an unknown: even where its file differs it is a note."""
    decided = Problem("pkg/ops.py", "2 paths declared but not exported; not API", decided=True)
    changed = Problem("pkg/ops.py", "3 paths declared but not exported; not API", decided=True)
    unknown = Problem("pkg/odd.py", "syntax error", digest="0" * 64)
    old = Surface("pkg", {}, problems=(decided, unknown))
    new = Surface("pkg", {}, problems=(changed, replace(unknown, digest="1" * 64)))
    scoped = scope_unknowns(old, new)
    assert [(item.problem.message, item.blocking) for item in scoped if item.problem.decided] == [
        ("2 paths declared but not exported; not API", False),
        ("3 paths declared but not exported; not API", False),
    ]
    assert [item.problem.file for item in scoped if item.blocking] == ["pkg/odd.py"] * 2
    again = loads(dumps(old), "snapshot")
    assert [problem.decided for problem in again.problems] == [True, False]
