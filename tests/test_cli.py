"""The command line end to end on the bundled demo pair: contracts, exit codes, errors."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run

from apisurface import cli
from apisurface._cli_parser import COMMANDS, build_parser, subparser
from apisurface.compare.report import build_report
from apisurface.errors import ApisurfaceError
from apisurface.output.ci import render_github, render_sarif
from apisurface.output.formats import (
    FORMATS,
    IMPACT_FORMATS,
    REPORT_FORMATS,
    render_impact,
    render_report,
)
from apisurface.output.html import render_html
from apisurface.output.text import render_json, render_markdown, render_text
from apisurface.store.snapshot import dumps
from apisurface.surface.collect import load_surface

ROOT = Path(__file__).parent.parent
OLD = str(ROOT / "fixtures" / "demo" / "old")
NEW = str(ROOT / "fixtures" / "demo" / "new")


def test_diff_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", OLD, NEW, "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["bump"] == "major"
    assert report["current_version"] == "1.4.2"
    assert report["next_version"] == "2.0.0"
    changes = report["changes"]
    assert changes == sorted(changes, key=lambda change: (change["path"], change["kind"]))
    for change in changes:
        assert {"path", "kind", "bump", "message", "old", "new"} <= set(change)
        assert change["bump"] in ("major", "minor", "patch")
    found = {(change["path"], change["kind"]) for change in changes}
    assert ("tinyhttp.Client.get(params)", "parameter_renamed") in found
    assert ("tinyhttp.TimeoutError", "reexport_removed") in found
    assert ("tinyhttp.post(data)", "parameter_annotation_narrowed") in found
    assert ("tinyhttp.stream", "symbol_added") in found
    assert ("tinyhttp.Client.close", "symbol_deprecated") in found


def test_diff_text_puts_the_recommendation_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", OLD, NEW, "--no-color")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith("Recommended bump: MAJOR")
    assert "1.4.2 -> 2.0.0" in lines[1]
    assert "tinyhttp.Client.get(params): parameter renamed params -> query" in out


def test_current_version_and_zero_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", OLD, NEW, "--format", "json", "--current-version", "v0.4.2")
    assert code == 0
    assert json.loads(out)["next_version"] == "0.5.0"


def test_same_tree_is_patch(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", NEW, NEW, "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["bump"] == "patch"
    assert report["changes"] == []
    assert report["next_version"] == "1.5.1"


@pytest.mark.parametrize(("level", "expected"), [("major", 1), ("minor", 1), ("patch", 1)])
def test_fail_on(capsys: pytest.CaptureFixture[str], level: str, expected: int) -> None:
    code, _, _ = run(capsys, "diff", OLD, NEW, "--fail-on", level, "--format", "json")
    assert code == expected


def test_fail_on_not_reached(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "diff", NEW, NEW, "--fail-on", "minor")
    assert code == 0


@pytest.mark.parametrize("level", ["major", "minor", "patch"])
def test_no_public_api_change_reaches_no_fail_on_level(
    capsys: pytest.CaptureFixture[str], level: str
) -> None:
    """Zero changes still recommend a PATCH release, but reach no --fail-on threshold."""
    code, out, _ = run(capsys, "diff", NEW, NEW, "--fail-on", level, "--no-color")
    assert code == 0
    assert out.splitlines()[1] == "Recommended bump: PATCH (no public API change): 1.5.0 -> 1.5.1"


def test_text_names_each_object_once_with_its_location(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "diff", OLD, NEW, "--no-color")
    assert code == 0
    lines = [line for line in out.splitlines() if "major enum_member_removed" in line]
    assert len(lines) == 1
    # FILE:LINE first, as compilers and linters write findings; a removal points at the old
    # definition.
    assert lines[0].endswith(
        "demo/old/src/tinyhttp/models.py:14: major enum_member_removed tinyhttp.Method.TRACE "
        "(also at tinyhttp.models.Method.TRACE): enum member removed;"
        " removed without prior deprecation (deprecate it in a release first)"
    )


def test_snapshot_to_stdout_then_diff_against_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "snapshot", OLD, "-o", "-")
    assert code == 0
    stored = tmp_path / "tinyhttp.json"
    stored.write_text(out, encoding="utf-8")
    code, text, _ = run(capsys, "diff", str(stored), OLD, "--format", "json")
    assert code == 0
    assert json.loads(text)["changes"] == []
    code, text, _ = run(capsys, "diff", str(stored), NEW, "--format", "json")
    assert json.loads(text)["bump"] == "major"


def test_snapshot_default_location(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "__init__.py").write_text('"""Pkg."""\n', encoding="utf-8")
    code, _, err = run(capsys, "snapshot", str(project))
    assert code == 0
    assert (project / "api_snapshots" / "pkg.json").is_file()
    assert "1 public paths" in err


def test_show_lists_stubs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", NEW, "--no-color")
    assert code == 0
    assert "def stream(url: str, chunk_size: int = 65536) -> collections.abc.Iterator[bytes]" in out


def test_rules_json_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--format", "json")
    assert code == 0
    ids = {rule["id"] for rule in json.loads(out)}
    assert {"parameter_removed", "symbol_added", "docstring_changed"} <= ids


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["diff", "/no/such/dir/x", NEW], "no such folder"),
        (["diff", "missing.json", NEW], "no such snapshot file"),
        (["show", "--package", "nope", NEW], "no package 'nope'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("apisurface: error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_different_packages_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for name in ("alpha", "beta"):
        (tmp_path / name / name).mkdir(parents=True)
        (tmp_path / name / name / "__init__.py").write_text('"""M."""\n', encoding="utf-8")
    code, _, err = run(capsys, "diff", str(tmp_path / "alpha"), str(tmp_path / "beta"))
    assert code == 2
    assert "--package" in err


def test_own_snapshot_is_current() -> None:
    committed = (ROOT / "api_snapshots" / "apisurface.json").read_text(encoding="utf-8")
    assert dumps(load_surface(ROOT)) == committed, "run 'apisurface snapshot' and commit it"


def test_snapshots_diff_like_their_sources(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Snapshot files carry no definition paths; the report must not depend on that."""
    files = []
    for name, source in (("old", OLD), ("new", NEW)):
        code, out, _ = run(capsys, "snapshot", source, "-o", "-")
        assert code == 0
        files.append(tmp_path / f"{name}.json")
        files[-1].write_text(out, encoding="utf-8")
    _, from_sources, _ = run(capsys, "diff", OLD, NEW, "--format", "json")
    _, from_snapshots, _ = run(capsys, "diff", str(files[0]), str(files[1]), "--format", "json")
    assert _facts(from_snapshots) == _facts(from_sources)


def _facts(report: str) -> set[tuple[str, str, str, str]]:
    """Each change at each of its paths: without definition paths a snapshot cannot tell
    that two public paths are one object, so its report may group less, never differ."""
    return {
        (path, change["kind"], change["bump"], change["message"])
        for change in json.loads(report)["changes"]
        for path in (change["path"], *change["also_at"])
    }


def test_snapshot_diff_relates_package_types(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Annotations naming the package's own classes keep their meaning in snapshot files."""
    template = '"""P."""\n\n\nclass A:\n    """A."""\n\n\ndef f(x: {}) -> None:\n    """F."""\n'
    texts = {"old": template.format("A"), "new": template.format("A | None")}
    snapshots = []
    for name, text in texts.items():
        (tmp_path / name / "pkg").mkdir(parents=True)
        (tmp_path / name / "pkg" / "__init__.py").write_text(text, encoding="utf-8")
        code, out, _ = run(capsys, "snapshot", str(tmp_path / name), "-o", "-")
        assert code == 0
        snapshots.append(tmp_path / f"{name}.json")
        snapshots[-1].write_text(out, encoding="utf-8")
    _, out, _ = run(capsys, "diff", str(snapshots[0]), str(snapshots[1]), "--format", "json")
    changes = [(c["path"], c["kind"]) for c in json.loads(out)["changes"]]
    assert changes == [("pkg.f(x)", "parameter_annotation_widened")]


# --- the command line's tables: subcommands (_cli_parser) and formats (output/formats) ---


def _choices(parser: argparse.ArgumentParser, command: str, dest: str) -> tuple[str, ...]:
    sub = subparser(parser, command)
    assert sub is not None
    action = next(action for action in sub._actions if action.dest == dest)
    assert action.choices is not None
    return tuple(action.choices)


def test_format_choices_come_from_the_format_table() -> None:
    parser = cli._parser()
    assert _choices(parser, "diff", "format") == REPORT_FORMATS
    assert _choices(parser, "impact", "format") == IMPACT_FORMATS
    assert [fmt.name for fmt in FORMATS] == list(REPORT_FORMATS)
    assert set(IMPACT_FORMATS) == {fmt.name for fmt in FORMATS if fmt.impact is not None}


def test_every_format_renders_the_report_as_its_renderer_does() -> None:
    old, new = load_surface(Path(OLD)), load_surface(Path(NEW))
    report = build_report(old, new, old_label="old", new_label="new")
    direct = {
        "text": render_text(report),
        "json": render_json(report),
        "markdown": render_markdown(report),
        "github": render_github(report, per_level=10),
        "sarif": render_sarif(report),
        "html": render_html(report, old, new),
    }
    assert set(direct) == set(REPORT_FORMATS)
    for fmt in REPORT_FORMATS:
        assert render_report(report, fmt, old=old, new=new) == direct[fmt], fmt


def test_an_unknown_format_is_an_error_naming_the_choices() -> None:
    report = build_report(
        load_surface(Path(OLD)), load_surface(Path(OLD)), old_label="a", new_label="b"
    )
    with pytest.raises(ApisurfaceError, match=r"unknown format 'xml'; give one of text, json"):
        render_report(report, "xml")
    with pytest.raises(ApisurfaceError, match="unknown format 'html'"):
        render_impact(None, "html")  # type: ignore[arg-type]  # refused before it is read


def test_a_subcommand_without_a_handler_fails_every_command() -> None:
    with pytest.raises(AssertionError, match="handlers for"):
        build_parser([command.name for command in COMMANDS][1:])
    with pytest.raises(AssertionError, match="handlers for"):
        build_parser([*(command.name for command in COMMANDS), "frobnicate"])


def test_machine_formats_and_the_library_load_no_console_and_no_http() -> None:
    """rich is imported by the formats that draw a console, urllib.request by a download:
    a JSON diff of two folders loads neither (start-up time of a PR bot's run)."""
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from apisurface.compare.report import build_report\n"
        "from apisurface.output.formats import render_report\n"
        "from apisurface.release.inputs import load_input\n"
        f"old, new = (load_input(str(Path({OLD!r}))), load_input(str(Path({NEW!r}))))\n"
        "report = build_report(old.surface, new.surface, old_label='a', new_label='b')\n"
        "for fmt in ('json', 'markdown', 'github', 'sarif', 'html'):\n"
        "    render_report(report, fmt, old=old.surface, new=new.surface)\n"
        "heavy = sorted(m for m in ('rich', 'urllib.request', 'tarfile') if m in sys.modules)\n"
        "print('LOADED', heavy, file=sys.stderr)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert "LOADED []" in completed.stderr, completed.stderr
