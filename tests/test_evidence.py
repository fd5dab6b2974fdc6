"""Evidence on every change (POLICY.md section 3): proven or inferred and why, in every
format; only proven changes count unless strict mode; guesses survive snapshots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run, write

from apisurface.changes import Grade, Level
from apisurface.compare.report import build_report
from apisurface.model import Guess, Surface, Symbol, SymbolKind
from apisurface.output.ci import render_github, render_sarif
from apisurface.output.html import render_html
from apisurface.output.text import render_markdown, render_text, report_to_json, verdict
from apisurface.project.config import Config, parse_config
from apisurface.store.snapshot import dumps, loads
from apisurface.surface.collect import load_surface

# A public module stops importing a vendored helper (public only by the import-only rule),
# and a documented function loses a parameter (proven).
OLD_FILES: dict[str, str | bytes] = {
    "pkg/__init__.py": '"""Pkg."""\n\n\ndef connect(host, timeout=1):\n    """C."""\n',
    "pkg/api.py": '"""Api."""\nfrom pkg._vendor.shutil import which\n',
    "pkg/_vendor/__init__.py": "",
    "pkg/_vendor/shutil.py": 'def which(cmd):\n    """Which."""\n',
}
NEW_FILES: dict[str, str | bytes] = {
    **OLD_FILES,
    "pkg/__init__.py": '"""Pkg."""\n\n\ndef connect(host):\n    """C."""\n',
    "pkg/api.py": '"""Api."""\n',
}


def surfaces(tmp_path: Path, new: dict[str, str | bytes] = NEW_FILES) -> tuple[Surface, Surface]:
    return (
        load_surface(write(tmp_path / "old", OLD_FILES)),
        load_surface(write(tmp_path / "new", new)),
    )


def test_import_only_path_is_a_guess_recorded_on_the_symbol(tmp_path: Path) -> None:
    old, _ = surfaces(tmp_path)
    assert old.symbols["pkg.api.which"].guesses == (Guess.IMPORT_ONLY,)
    assert old.symbols["pkg.connect"].guesses == ()


def test_only_proven_changes_count_and_inferred_ones_are_to_review(tmp_path: Path) -> None:
    old, new = surfaces(tmp_path)
    report = build_report(old, new)
    grades = {(item.change.path, item.change.kind.value): item for item in report.changes}
    removal = grades[("pkg.api.which", "symbol_removed")]
    assert removal.change.evidence.grade is Grade.INFERRED
    assert "import-only rule" in removal.change.evidence.why
    assert removal.to_review and removal.effective_level is Level.IGNORE
    removed = grades[("pkg.connect(timeout)", "parameter_removed")]
    assert removed.change.evidence.grade is Grade.PROVEN
    assert removed.change.evidence.why == (
        "the call pkg.connect(host=_, timeout=_) binds to OLD and not to NEW"
    )
    assert removed.change.evidence.witness is not None
    assert report.level is Level.MAJOR and report.count(Level.MAJOR) == 1
    strict = build_report(old, new, config=Config(strict=True))
    # One entry per removal: "removed without prior deprecation" is a qualifier of it.
    assert strict.count(Level.MAJOR) == 2 and not strict.to_review


def test_major_resting_only_on_inferred_changes_says_so_first(tmp_path: Path) -> None:
    new_files = {**NEW_FILES, "pkg/__init__.py": OLD_FILES["pkg/__init__.py"]}
    old, new = surfaces(tmp_path, new_files)
    report = build_report(old, new)
    assert report.level is Level.PATCH and report.inferred_major
    assert verdict(report).startswith("PATCH (nothing but 1 inferred change to review); MAJOR")
    assert "MAJOR rests only on inferred changes" in render_text(report).splitlines()[0]
    heading = render_markdown(report).splitlines()[1]
    assert "MAJOR only if the inferred changes to review are breaks" in heading
    assert build_report(old, new, config=Config(strict=True)).level is Level.MAJOR


def test_every_format_shows_the_evidence(tmp_path: Path) -> None:
    old, new = surfaces(tmp_path)
    report = build_report(old, new)
    data = report_to_json(report)
    assert data["to_review"] == 1  # the removal, its qualifier on the same entry
    for change in data["changes"]:
        assert change["evidence"]["grade"] in ("proven", "inferred")
        assert change["evidence"]["why"]
    proven = next(c for c in data["changes"] if c["kind"] == "parameter_removed")
    assert proven["evidence"]["witness"].endswith("connect(host=_, timeout=_)")
    # Text: a line per change, the guess of each to review; how each is known with -v.
    text = render_text(report)
    assert "TO REVIEW (1)" in text and "inferred: pkg.api.which is public" in text
    assert "binds to OLD" not in text
    text = render_text(report, verbose=True)
    assert "proven: the call pkg.connect(host=_, timeout=_) binds to OLD and not to NEW" in text
    assert "        from pkg import connect" in text
    # Markdown: those to review with their guess; witnesses are in the full report.
    markdown = render_markdown(report)
    assert "#### To review: inferred, not counted (1)" in markdown
    assert "inferred: `pkg.api.which is public" in markdown
    html = render_html(report, old, new)
    assert "proven: the call pkg.connect(host=_, timeout=_) binds to OLD and not to NEW" in html
    assert '<details class="witness">' in html
    sarif = json.loads(render_sarif(report))
    results = sarif["runs"][0]["results"]
    assert {r["properties"]["evidence"]["grade"] for r in results} == {"proven", "inferred"}
    assert {r["level"] for r in results if not r["properties"]["counted"]} == {"note"}
    github = render_github(report)
    assert "API change to review" in github


def test_strict_on_the_command_line_and_in_the_configuration(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    new_files = {**NEW_FILES, "pkg/__init__.py": OLD_FILES["pkg/__init__.py"]}
    old, new = write(tmp_path / "old", OLD_FILES), write(tmp_path / "new", new_files)
    code, _, _ = run(capsys, "diff", str(old), str(new), "--fail-on", "major")
    assert code == 0
    code, _, _ = run(capsys, "diff", str(old), str(new), "--fail-on", "major", "--strict")
    assert code == 1
    (new / "pyproject.toml").write_text(
        '[project]\nname = "pkg"\n\n[tool.apisurface]\nstrict = true\n', encoding="utf-8"
    )
    code, _, _ = run(capsys, "diff", str(old), str(new), "--fail-on", "major")
    assert code == 1


def test_strict_must_be_a_boolean() -> None:
    assert parse_config({"strict": True}).strict is True
    assert parse_config({}).strict is False
    with pytest.raises(Exception, match="strict must be true or false"):
        parse_config({"strict": "yes"})


def test_guesses_survive_a_snapshot_and_old_snapshots_read_without_them() -> None:
    symbol = Symbol(
        "pkg.X", SymbolKind.ATTRIBUTE, annotation="int", guesses=(Guess.ANNOTATION_FROM_VALUE,)
    )
    surface = Surface("pkg", {"pkg": Symbol("pkg", SymbolKind.MODULE), "pkg.X": symbol})
    text = dumps(surface)
    assert loads(text).symbols["pkg.X"].guesses == (Guess.ANNOTATION_FROM_VALUE,)
    older = json.loads(text)
    older["symbols"] = {
        path: {key: value for key, value in item.items() if key != "guesses"}
        for path, item in older["symbols"].items()
    }
    assert loads(json.dumps(older)).symbols["pkg.X"].guesses == ()


def test_explain_shows_the_evidence_of_its_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "parameter_removed")
    assert code == 0
    assert "Evidence of the example: proven" in out
    assert "witness (works before, fails after):" in out


def test_a_base_is_looked_up_in_the_standard_library_only() -> None:
    """Whether a removed member is still inherited is read from standard-library classes
    alone: a module of the analysed package (or any other) is never imported, nor a
    standard-library module that acts when imported."""
    import sys  # noqa: PLC0415

    from apisurface.compare.evidence import _standard_member  # noqa: PLC0415

    assert _standard_member("io.RawIOBase", "read")
    assert _standard_member("dict", "get")  # a builtin base
    assert not _standard_member("io.RawIOBase", "peek_all")
    assert not _standard_member("Exception", "read")
    assert not _standard_member("pkg.Base", "read")
    assert not _standard_member("antigravity.Fly", "up")
    assert "antigravity" not in sys.modules and "pkg" not in sys.modules
