"""Issue 37: what a maintainer meets on a real project (round 4). One section per item of
the issue; each test fails on the main branch the issue was filed against.

1. bad input is an error, never a finding; 2. the snapshot holds the contract, not the
prose; 3. reports people read; 4. one entry per change; 5. annotations where the change is;
6. the smaller items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

CORE = '''
"""Core."""


class Client:
    """A client."""

    def get(self, url: str, timeout: float = 1.0) -> bytes:
        """Get a URL."""
        return b""


def fetch(url: str) -> bytes:
    """Fetch a URL."""
    return b""
'''

INIT = '''
"""A small package."""

from pkg.core import Client, fetch

__all__ = ["Client", "fetch"]
'''


def project(tmp_path: Path, version: str = "1.0.0", *, tag: str | None = "v1.0.0") -> Repo:
    """A repository with package ``pkg`` (src layout), committed (and tagged)."""
    repo = Repo(tmp_path / "repo")
    repo.write(
        {"pyproject.toml": pyproject(version), "src/pkg/__init__.py": INIT, "src/pkg/core.py": CORE}
    )
    return repo.commit("release", tag=tag)


def snapshot_committed(
    repo: Repo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Path:
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    repo.commit("snapshot")
    return repo.root / "api_snapshots" / "pkg.json"


# --- 2. the snapshot holds the contract, not the prose ----------------------------------


def test_snapshot_records_documented_not_a_digest_of_the_docstring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    text = snapshot_committed(repo, capsys, monkeypatch).read_text("utf-8")
    line = next(line for line in text.splitlines() if line.startswith('    "pkg.fetch":'))
    assert '"documented": true' in line
    assert '"docstring"' not in text
    versions = json.loads(text)["versions"]
    assert versions["producer"] >= 14
    assert versions["min_consumer"] == 4


def test_a_docstring_edit_leaves_the_snapshot_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    snapshot_committed(repo, capsys, monkeypatch)
    repo.write({"src/pkg/core.py": CORE.replace('"""Fetch a URL."""', '"""Fetch one URL."""')})
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 0, out
    assert "PASS snapshot current" in out
    code, out, _ = run(capsys, "snapshot", "--if-stale")
    assert code == 0
    # Between two trees, the wording is still a note (PATCH), never a public API change.
    code, out, _ = run(capsys, "diff", "v1.0.0", ".", "--format", "json")
    report = json.loads(out)
    assert [(c["path"], c["kind"], c.get("note")) for c in report["changes"]] == [
        ("pkg.fetch", "docstring_changed", True)
    ]
    assert report["bump"] == "patch"


def test_a_snapshot_of_format_12_is_read_and_current(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file written before format 14 holds a digest per docstring: read as documented,
    and current when the source has the same surface."""
    repo = project(tmp_path)
    path = snapshot_committed(repo, capsys, monkeypatch)
    data = json.loads(path.read_text("utf-8"))
    data["versions"] = {"producer": 12, "min_consumer": 1, "bad_consumers": []}
    for value in data["symbols"].values():
        if value.pop("documented", False):
            value["docstring"] = "963b9cdf" * 8
    path.write_text(json.dumps(data, indent=2), "utf-8")
    from apisurface.store.snapshot import read_snapshot  # noqa: PLC0415

    assert read_snapshot(path).symbols["pkg.fetch"].documented
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 0, out
    code, out, _ = run(capsys, "diff", str(path), ".", "--format", "json")
    assert json.loads(out)["changes"] == []


# --- 1. bad input is an error, never a finding ----------------------------------------------

# One ':' removed from a function definition of a module the package re-exports from.
BROKEN_CORE = CORE.replace("def fetch(url: str) -> bytes:", "def fetch(url: str) -> bytes")
BROKEN_AT = "src/pkg/core.py:12:29: syntax error: expected ':'"


def broken_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Repo:
    """A released project with its snapshot committed, then core.py broken in the tree."""
    repo = project(tmp_path)
    snapshot_committed(repo, capsys, monkeypatch)
    assert BROKEN_CORE.lstrip("\n").splitlines()[11].startswith("def fetch")
    return repo.write({"src/pkg/core.py": BROKEN_CORE})


@pytest.mark.parametrize(
    "argv",
    [
        ("diff", "v1.0.0", "."),
        ("diff", "v1.0.0", ".", "--fail-on", "major"),
        ("diff", "v1.0.0", ".", "--format", "json"),
        ("show", "."),
        ("check",),
        ("check", "--no-version"),
        ("release-check",),
        ("snapshot",),
        ("snapshot", "--quiet", "--if-stale"),
        ("impact", "v1.0.0", ".", "user.py"),
    ],
)
def test_a_syntax_error_is_an_error_in_every_command(
    argv: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = broken_tree(tmp_path, capsys, monkeypatch)
    (repo.root / "user.py").write_text("import pkg\n", "utf-8")
    snapshot = repo.root / "api_snapshots" / "pkg.json"
    before = snapshot.read_bytes()
    code, out, err = run(capsys, *argv)
    assert code == 2, out + err
    assert out == ""  # no report of changes, no table
    lines = err.splitlines()
    assert lines[0] == BROKEN_AT  # as ruff and mypy say it, first
    assert lines[-1].startswith("apisurface: error: ")
    assert "--allow-incomplete" in lines[-1]
    assert snapshot.read_bytes() == before  # no snapshot written


def test_a_syntax_error_in_a_release_is_named_at_its_ref(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = broken_tree(tmp_path, capsys, monkeypatch)
    repo.commit("broken", tag="v1.0.1")
    repo.write({"src/pkg/core.py": CORE})
    code, _, err = run(capsys, "diff", "v1.0.1", ".")
    assert code == 2
    assert err.splitlines()[0] == f"v1.0.1:{BROKEN_AT}"


def test_allow_incomplete_reports_but_proves_nothing_resting_on_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = broken_tree(tmp_path, capsys, monkeypatch)
    code, out, _ = run(capsys, "diff", "v1.0.0", ".", "--format", "json", "--allow-incomplete")
    assert code == 0
    report = json.loads(out)
    assert report["changes"], "the partial result is reported"
    assert all(change["evidence"]["grade"] == "inferred" for change in report["changes"])
    resting = {c["path"] for c in report["changes"] if "pkg/core.py" in c["evidence"]["why"]}
    assert resting == {"pkg.Client", "pkg.fetch"}
    assert report["counts"]["major"] == 0  # nothing proven: MAJOR only to review
    assert "pkg/core.py" in [item["file"] for item in report["unknowns"]["blocking"]]
    # The gate never passes on it.
    argv = ("diff", "v1.0.0", ".", "--fail-on", "major", "--allow-incomplete")
    assert run(capsys, *argv)[0] == 1
    # A snapshot with the file missing is never written over the committed one ...
    snapshot = repo.root / "api_snapshots" / "pkg.json"
    before = snapshot.read_bytes()
    code, _, err = run(capsys, "snapshot", "--allow-incomplete")
    assert code == 2
    assert "not written over" in err
    assert snapshot.read_bytes() == before
    # ... only to a file of its own.
    code, _, _ = run(capsys, "snapshot", "--allow-incomplete", "-o", "partial.json", "-q")
    assert code == 0
    assert json.loads((repo.root / "partial.json").read_text("utf-8"))["complete"] is False


@pytest.mark.parametrize(
    ("name", "content", "where"),
    [
        ("private module imported by the package", "_core", "src/pkg/_core.py:1:1"),
        ("not UTF-8", b'"""Caf\xe9."""\n', "src/pkg/core.py:1:7"),
        ("NUL bytes", b'"""Core."""\x00\n', "src/pkg/core.py:1:12"),
    ],
)
def test_unreadable_files_the_surface_reaches_are_errors(
    name: str,
    content: str | bytes,
    where: str,
    *,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    if content == "_core":  # core.py renamed _core.py, imported by __init__, and broken
        (repo.root / "src/pkg/core.py").unlink()
        repo.write(
            {
                "src/pkg/_core.py": "print 'py2'\n" + CORE,
                "src/pkg/__init__.py": INIT.replace("pkg.core", "pkg._core"),
            }
        )
    else:
        assert isinstance(content, bytes)
        (repo.root / "src/pkg/core.py").write_bytes(content)
    code, out, err = run(capsys, "snapshot", "-o", "-")
    assert (code, out) == (2, ""), name
    assert err.splitlines()[0].startswith(where + ": "), err


def test_files_nothing_public_reaches_stay_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vendored Python 2 module no public module imports, and test code, are no input of
    the public surface: as issue 18 scoped them, unknowns (notes when unchanged)."""
    repo = project(tmp_path)
    repo.write(
        {
            "src/pkg/_vendor/__init__.py": "",
            "src/pkg/_vendor/six.py": 'print "py2"\n',
            "src/pkg/tests/__init__.py": "",
            "src/pkg/tests/test_core.py": "from pkg._vendor import six\nprint 'x'\n",
        }
    ).commit("vendored")
    monkeypatch.chdir(repo.root)
    code, out, err = run(capsys, "snapshot", "-o", "-")
    assert code == 0, err
    problems = json.loads(out)["problems"]
    assert problems == [
        "pkg/_vendor/six.py:1:1: syntax error: Missing parentheses in call to 'print'. "
        "Did you mean print(...)?"
    ]
    assert run(capsys, "diff", "HEAD", ".", "--fail-on", "major")[0] == 0


def test_problem_fields_and_the_summary_schema_agree() -> None:
    from dataclasses import fields  # noqa: PLC0415

    from apisurface.model import Problem  # noqa: PLC0415
    from apisurface.surface.visit import summary  # noqa: PLC0415

    assert set(summary._PROBLEM_TYPES) == {item.name for item in fields(Problem)}


# --- 4. one entry per change -----------------------------------------------------------------

SIGNATURE_OLD = '''
"""Net."""


def connect(host, port, timeout=1.0, retries=3):
    """Connect."""
'''
SIGNATURE_NEW = '''
"""Net."""


def connect(host, *, port, timeout=2.0, retries=3):
    """Connect."""
'''

PARSERS_OLD = '''
"""Parsers."""


class Parser:
    """A parser."""

    def parse_cookies(self, request):
        """Cookies."""

    def parse_form(self, request):
        """Form."""


class FlaskParser(Parser):
    """Flask."""

    def parse_cookies(self, request):
        """Cookies from Flask."""

    def parse_form(self, request):
        """Form from Flask."""


class DjangoParser(Parser):
    """Django."""

    def parse_cookies(self, request):
        """Cookies from Django."""
'''
PARSERS_NEW = '''
"""Parsers."""


class Parser:
    """A parser."""

    def load_cookies(self, request):
        """Cookies."""


class FlaskParser(Parser):
    """Flask."""

    def load_cookies(self, request):
        """Cookies from Flask."""


class DjangoParser(Parser):
    """Django."""

    def load_cookies(self, request):
        """Cookies from Django."""
'''


def _two_trees(tmp_path: Path, old: str, new: str) -> tuple[Path, Path]:
    from clirun import write  # noqa: PLC0415

    return (
        write(tmp_path / "old", {"pkg/__init__.py": old.lstrip("\n")}),
        write(tmp_path / "new", {"pkg/__init__.py": new.lstrip("\n")}),
    )


def test_one_edit_to_one_signature_is_one_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = _two_trees(tmp_path, SIGNATURE_OLD, SIGNATURE_NEW)
    code, out, _ = run(capsys, "diff", str(old), str(new), "--format", "json")
    assert code == 0
    report = json.loads(out)
    (entry,) = report["changes"]
    assert entry["path"] == "pkg.connect(port, timeout, retries)"
    assert entry["bump"] == "major" and report["bump"] == "major"  # a MAJOR stays MAJOR
    assert report["counts"] == {"major": 1, "minor": 0, "patch": 0}
    assert entry["message"].startswith(
        "port, timeout, retries: parameter kind narrowed: positional-or-keyword -> keyword-only"
    )
    assert "timeout: default changed: 1.0 -> 2.0" in entry["message"]
    parts = {(part["path"], part["kind"]) for part in entry["parts"]}
    assert parts == {
        ("pkg.connect(port)", "parameter_kind_narrowed"),
        ("pkg.connect(timeout)", "parameter_kind_narrowed"),
        ("pkg.connect(retries)", "parameter_kind_narrowed"),
        ("pkg.connect(timeout)", "parameter_default_changed"),
    }
    assert entry["evidence"]["grade"] == "proven" and entry["evidence"]["witness"]


def test_a_member_and_its_overrides_are_one_entry_at_the_defining_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = _two_trees(tmp_path, PARSERS_OLD, PARSERS_NEW)
    _, out, _ = run(capsys, "diff", str(old), str(new), "--format", "json")
    removed = {change["path"]: change["also_at"] for change in json.loads(out)["changes"]}
    assert removed == {
        "pkg.Parser.parse_cookies": [
            "pkg.DjangoParser.parse_cookies",
            "pkg.FlaskParser.parse_cookies",
        ],
        "pkg.Parser.parse_form": ["pkg.FlaskParser.parse_form"],
    }


def test_release_check_counts_objects_not_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "pkg/__init__.py": PARSERS_OLD})
    repo.commit("release", tag="v1.0.0")
    changelog = "# Changelog\n\n## 2.0.0\n\n- `Parser.parse_cookies` is now `load_cookies`.\n"
    repo.write({"pyproject.toml": pyproject("2.0.0"), "pkg/__init__.py": PARSERS_NEW})
    repo.write({"CHANGELOG.md": changelog})
    monkeypatch.chdir(repo.root)
    _, out, _ = run(capsys, "release-check", "--format", "json")
    rows = {row["name"]: row for row in json.loads(out)["checks"]}
    row = rows["changelog names removals"]
    assert (
        row["summary"] == "1 of 2 removed or renamed symbols not named in CHANGELOG.md (whole file)"
    )
    assert row["details"] == ["pkg.Parser.parse_form (also pkg.FlaskParser.parse_form)"]


# --- 3. reports people read ------------------------------------------------------------------

DEMO = Path(__file__).parent.parent / "fixtures" / "demo"


def test_text_report_is_a_summary_then_one_line_per_change(
    capsys: pytest.CaptureFixture[str],
) -> None:
    old, new = str(DEMO / "old"), str(DEMO / "new")
    code, out, _ = run(capsys, "diff", old, new, "--no-color")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "Recommended bump: MAJOR (5 breaking changes): 1.4.2 -> 2.0.0"
    assert lines[2] == "  5 major, 7 minor, 0 patch"
    assert lines[3].startswith("  major: 1 enum_member_removed, ")
    assert lines[4].startswith("  minor: 4 symbol_added, ")
    assert lines[6] == "tinyhttp"  # grouped by module
    changes = [line for line in lines if line.startswith("  ") and ".py:" in line]
    assert len(changes) == 12  # one line each, FILE:LINE: level kind path: message
    assert changes[0].startswith("  ")
    assert changes[0].endswith(
        "demo/new/src/tinyhttp/_client.py:16: major parameter_kind_narrowed "
        "tinyhttp.Client.__init__(timeout, retries): timeout, retries: parameter kind "
        "narrowed: positional-or-keyword -> keyword-only"
    )
    assert "witness (works on OLD" not in out and "binds to OLD" not in out
    assert len(lines) < 25
    # The evidence and the witness of each break on request (JSON and HTML always have them).
    for flag in ("-v", "--witnesses"):
        _, verbose, _ = run(capsys, "diff", old, new, "--no-color", flag)
        proven = "      proven: the call tinyhttp.Client(_, _, _) binds to OLD and not to NEW"
        assert proven in verbose
        assert "      witness (works on OLD, fails on NEW):" in verbose


def _many_changes(count: int) -> Report:
    """A synthetic report of ``count`` breaking changes of several kinds in many modules,
    with long names, and as many additions."""
    from apisurface.compare.report import build_report  # noqa: PLC0415
    from apisurface.model import Location, Parameter, ParamKind, Signature, Surface, Symbol  # noqa: PLC0415
    from apisurface.model import SymbolKind as K  # noqa: PLC0415

    old: dict[str, Symbol] = {"pkg": Symbol("pkg", K.MODULE)}
    new: dict[str, Symbol] = {"pkg": Symbol("pkg", K.MODULE)}
    for number in range(count):
        module = f"pkg.subpackage_{number % 40:02d}.a_module_with_a_long_name"
        for side in (old, new):
            side[module.rsplit(".", 1)[0]] = Symbol(module.rsplit(".", 1)[0], K.MODULE)
            side[module] = Symbol(module, K.MODULE)
        name = f"{module}.function_with_a_rather_long_name_{number:05d}"
        where = Location(module.replace(".", "/") + ".py", number + 1)
        before = Parameter("timeout_in_seconds", ParamKind.POSITIONAL_OR_KEYWORD, "30.0", "float")
        after = Parameter("timeout_in_seconds", ParamKind.KEYWORD_ONLY, "6" * 300, "float")
        if number % 3 == 0:  # removed
            old[name] = Symbol(name, K.FUNCTION, signature=Signature(), location=where)
        else:  # default changed and made keyword-only, or added
            old[name] = Symbol(name, K.FUNCTION, signature=Signature((before,)), location=where)
            new[name] = Symbol(name, K.FUNCTION, signature=Signature((after,)), location=where)
        added = f"{module}.added_function_{number:05d}"
        new[added] = Symbol(added, K.FUNCTION, signature=Signature(), location=where)
    return build_report(Surface("pkg", old, version="1.0.0"), Surface("pkg", new, version="1.1.0"))


Report = object  # (the annotation above, without importing the library at collection)


@pytest.mark.parametrize("count", [3, 40, 400, 4000])
def test_the_pr_comment_stays_below_githubs_limit_by_design(count: int) -> None:
    from apisurface.output.text import MARKDOWN_LIMIT, render_markdown  # noqa: PLC0415

    report = _many_changes(count)
    body = render_markdown(report, link="https://github.com/o/r/actions/runs/1#artifacts")
    assert len(body) < MARKDOWN_LIMIT == 65_536
    assert body.count("<details>") == body.count("</details>")
    assert "[The full report](https://github.com/o/r/actions/runs/1#artifacts)" in body
    assert "| evidence |" not in body and "Witnesses" not in body
    assert f"#### MAJOR ({count})" in body
    if count <= 40:  # every MAJOR change by name
        names = body.replace("`<wbr>`", "")
        assert names.count("function_with_a_rather_long_name_") == count
    # MINOR is collapsed below the MAJOR table.
    assert body.index("#### MAJOR") < body.index("#### MINOR") < body.rindex("Show them")


def _longest_run(cell: str) -> int:
    """The longest run of characters a browser cannot break in a cell of the comment's
    Markdown: breaks at spaces and at <wbr>; code-span backticks take no room."""
    runs = cell.replace("<wbr>", " ").replace("`", "").replace("**", "").split(" ")
    return max(map(len, runs), default=0)


@pytest.mark.parametrize("count", [12, 400])
def test_no_column_of_the_pr_comment_runs_off_a_780_px_box(count: int) -> None:
    """By construction: 3 columns of at most 28 unbreakable characters (12 px monospace,
    about 7.2 px a character, and the cells' padding) fit GitHub's 780 px comment."""
    from apisurface.output.text import render_markdown  # noqa: PLC0415

    body = render_markdown(_many_changes(count))
    rows = [line for line in body.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        widths = [_longest_run(cell) for cell in cells]
        assert max(widths) <= 28, (widths, row[:300])
        assert sum(widths) <= 3 * 28 + 28, (widths, row[:300])


def _chromium() -> str | None:
    import shutil  # noqa: PLC0415

    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.browser
def test_the_html_report_fits_a_780_px_box_in_chromium(tmp_path: Path) -> None:
    import re  # noqa: PLC0415
    import subprocess  # noqa: PLC0415

    from apisurface.output.html import render_html  # noqa: PLC0415

    chromium = _chromium()
    assert chromium is not None, "install Chromium with 'make browser'"
    page = render_html(_many_changes(30))  # type: ignore[arg-type]
    # The page's policy runs only its own script: a copy without it measures the layout.
    page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
    probe = (
        "<script>document.body.setAttribute('data-width', "
        "String(document.documentElement.scrollWidth));</script></body>"
    )
    (tmp_path / "report.html").write_text(page.replace("</body>", probe), "utf-8")
    completed = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--window-size=780,1000",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom",
            (tmp_path / "report.html").as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    width = re.search(r'data-width="(\d+)"', completed.stdout)
    assert width is not None, completed.stdout[-500:]
    assert int(width.group(1)) <= 780


def test_the_action_uploads_the_full_report_and_the_comment_links_it(tmp_path: Path) -> None:
    from test_round3 import (  # noqa: PLC0415  # noqa: PLC0415
        HOSTILE_DEFAULTS_NEW,
        HOSTILE_DEFAULTS_OLD,
        _diff_step,
        _pull_request,
        _step,
    )

    clone = _pull_request(tmp_path, HOSTILE_DEFAULTS_OLD, HOSTILE_DEFAULTS_NEW)
    runner = tmp_path / "runner"
    env = {"REPORT": "true", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "7"}
    completed, outputs = _diff_step(clone, runner, **env)
    assert completed.returncode == 0, completed.stderr
    report = Path(outputs["report"])
    assert report.read_text("utf-8").startswith("<!DOCTYPE html>")
    comment = Path(outputs["comment"]).read_text("utf-8")
    assert "[The full report](https://github.com/o/r/actions/runs/7#artifacts)" in comment
    upload = _step("Upload the full report")
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["with"]["path"] == "${{ steps.diff.outputs.report }}"


def test_a_report_link_must_be_an_https_address(capsys: pytest.CaptureFixture[str]) -> None:
    old, new = str(DEMO / "old"), str(DEMO / "new")
    code, _, err = run(capsys, "diff", old, new, "--format", "markdown", "--report-link", "x)")
    assert code == 2
    assert err.startswith("apisurface: error: --report-link 'x)': give an https:// address")


# --- 5. annotations where the change is -----------------------------------------------------

ANNOTATED_INIT = '''"""Pkg."""

from pkg.core import *  # noqa

__all__ = [NAMES]
'''
ANNOTATED_OLD = {
    "pkg/__init__.py": ANNOTATED_INIT.replace("NAMES", '"a", "b", "gone", "Box"'),
    "pkg/core.py": '''"""Core."""

__all__ = ["a", "b", "gone", "Box"]


def a(x):
    """A."""


def b():
    """B."""


class Box:
    """Box."""

    def open(self):
        """Open."""

    def close(self):
        """Close."""


# a long comment
# a long comment


def gone():
    """Gone."""
''',
}
ANNOTATED_NEW = {
    "pkg/__init__.py": ANNOTATED_INIT.replace("NAMES", '"a", "b", "Box"'),
    "pkg/core.py": '''"""Core."""

import warnings

__all__ = ["a", "b", "Box"]


def a():
    """A.

    .. deprecated:: 2.0
    """


def b():
    """B."""


class Box:
    """Box."""

    def open(self):
        """Open."""
''',
}


def _annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[str]:
    from clirun import write  # noqa: PLC0415

    old = write(tmp_path / "old", ANNOTATED_OLD)  # type: ignore[arg-type]
    new = write(tmp_path / "new", ANNOTATED_NEW)  # type: ignore[arg-type]
    _, out, _ = run(capsys, "diff", str(old), str(new), "--format", "github", *extra)
    return out.splitlines()


def test_annotations_are_where_the_change_is_in_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _annotations(tmp_path, capsys)
    gone = next(line for line in lines if "::pkg.gone (also at pkg.core.gone):" in line)
    close = next(line for line in lines if "::pkg.Box.close (also at pkg.core.Box.close)" in line)
    # A removed function: the NEW file of the module that lost it, with no line (its old
    # line 30 would be another line of the new file).
    assert gone.startswith("::error file=") and ",line=" not in gone.partition("::")[2]
    assert gone.partition(",")[0].endswith("/new/pkg/core.py")
    # A removed method: the class that lost it, at the class's line in NEW.
    assert close.partition(",")[0].endswith("/new/pkg/core.py")
    assert close.split(",")[1] == "line=19"
    assert ANNOTATED_NEW["pkg/core.py"].splitlines()[18] == "class Box:"


def test_one_annotation_per_line_ordered_by_severity_then_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _annotations(tmp_path, capsys)
    places = [
        (
            line.split(" ")[0],
            line.partition("file=")[2].split(",")[0],
            line.partition("line=")[2].split(",")[0],
        )
        for line in lines[1:]
    ]
    located = [(file, line) for _, file, line in places if line]
    assert len(located) == len(set(located))  # at most one annotation per line
    # pkg.a lost its parameter (MAJOR) and was deprecated (MINOR) at one line: one error.
    (both,) = [line for line in lines if "2 API changes here" in line]
    assert both.startswith("::error ") and "pkg.a(x) (also at pkg.core.a(x)): parameter" in both
    assert "%0A- pkg.a (also at pkg.core.a): deprecated" in both
    severity = {"::error": 0, "::warning": 1, "::notice": 2}
    ranks = [(severity[kind], file, int(line or 0)) for kind, file, line in places]
    assert [rank[0] for rank in ranks] == sorted(rank[0] for rank in ranks)


def test_the_annotation_cap_is_stated_in_the_summary() -> None:
    from apisurface.compare.report import build_report  # noqa: PLC0415
    from apisurface.output.ci import render_github  # noqa: PLC0415

    report = build_report(_surface_of(0), _surface_of(30))  # type: ignore[arg-type]
    lines = render_github(report, per_level=10).splitlines()
    assert lines[0].endswith(
        "Annotations: 10 of 30 shown, the most severe first (GitHub shows 10 of each level "
        "per step); the markdown report lists every change"
    )
    assert sum(line.startswith("::warning") for line in lines) == 10
    # Removals from one module, annotated at its file (no line), are one annotation there.
    report = build_report(_surface_of(30), _surface_of(0))  # type: ignore[arg-type]
    (error,) = [line for line in render_github(report).splitlines() if line.startswith("::error")]
    assert error.startswith("::error file=pkg/__init__.py,title=30 API changes here")


def _surface_of(count: int) -> object:
    from apisurface.model import Location, Signature, Surface, Symbol, SymbolKind  # noqa: PLC0415

    symbols = {"pkg": Symbol("pkg", SymbolKind.MODULE, location=Location("pkg/__init__.py", 0))}
    for number in range(count):
        path = f"pkg.f{number:02d}"
        where = Location(f"pkg/m{number:02d}.py", number + 1)
        symbols[path] = Symbol(path, SymbolKind.FUNCTION, signature=Signature(), location=where)
    return Surface("pkg", symbols, version="1.0.0")


# --- 6. the smaller items ---------------------------------------------------------------------


def test_output_never_creates_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = str(DEMO / "old"), str(DEMO / "new")
    target = tmp_path / "nonexistent" / "x.json"
    code, out, err = run(capsys, "diff", old, new, "--format", "json", "-o", str(target))
    assert (code, out) == (2, "")
    assert err == (
        f"apisurface: error: {target.parent}: does not exist; create the folder first, or "
        "name a file in one that exists\n"
    )
    assert not target.parent.exists()
    code, _, _ = run(capsys, "snapshot", old, "-o", str(target))
    assert code == 2 and not target.parent.exists()
    code, _, _ = run(capsys, "diff", old, new, "--also", f"sarif={target}")
    assert code == 2 and not target.parent.exists()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("dif", "a", "b"), "apisurface: error: unknown command 'dif'; did you mean 'diff'?"),
        (
            ("diff", "--fromat", "json"),
            "apisurface diff: error: unknown option '--fromat'; did you mean '--format'?",
        ),
        (
            ("diff", "--format", "mardown"),
            "apisurface diff: error: unknown value for --format 'mardown'; did you mean "
            "'markdown'?",
        ),
    ],
)
def test_a_typo_is_one_line_with_the_closest_word(
    argv: tuple[str, ...], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        run(capsys, *argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(expected)


def test_a_near_miss_tag_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path, tag="v8.4.0")
    monkeypatch.chdir(repo.root)
    code, _, err = run(capsys, "diff", "v8.4", ".")
    assert code == 2
    assert err == (
        "apisurface: error: 'v8.4': no such folder, snapshot or git ref; did you mean the tag "
        "'v8.4.0'?\n"
    )


def test_quiet_release_check_prints_only_what_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "release-check", "-q")
    assert code == 1
    assert out.startswith("FAIL snapshot current:")
    assert "PASS" not in out and "┃" not in out
    snapshot_committed(repo, capsys, monkeypatch)
    code, out, err = run(capsys, "release-check", "--quiet")
    assert (code, out, err) == (0, "", "")


def test_table_cells_are_never_cut(tmp_path: Path) -> None:
    from apisurface.output.ci import render_checklist  # noqa: PLC0415
    from apisurface.release.checks import CheckResult  # noqa: PLC0415

    long = "breaking changes accepted or released as a major version"
    result = CheckResult(long, False, "x" * 90, advice="z" * 70)
    text = render_checklist([result], title="Release checklist: pkg 1.0", width=60)
    assert "…" not in text
    assert (text.count("x"), text.count("z")) == (90, 70)  # every character kept, folded


def test_advice_for_a_tag_is_for_the_branch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path, tag="v1.0.0")
    repo.write({"src/pkg/core.py": CORE.replace("def fetch(url: str)", "def fetch(link: str)")})
    repo.commit("break", tag="v1.1.0")
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "check", "v1.1.0", "--against", "v1.0.0", "--no-color")
    assert code == 1
    advice = [line for line in out.splitlines() if line.startswith("     -> ")]
    assert advice
    for line in advice:
        assert "v1.1.0 is committed and cannot change; on the branch you release from:" in line
        assert "v1.1.0:" not in line  # no file to commit inside a tag
    assert "run 'apisurface snapshot' and commit api_snapshots/pkg.json" in out


def test_impact_says_what_its_count_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from clirun import write  # noqa: PLC0415

    user = write(tmp_path / "user", {"app.py": "import tinyhttp\n\ntinyhttp.get('x')\n"})
    old, new = str(DEMO / "old"), str(DEMO / "new")
    code, out, _ = run(capsys, "impact", old, new, str(user))
    assert code == 0
    assert out.splitlines()[-1] == (
        f"no use of tinyhttp that the change from {old} to {new} breaks or touches (1 file read)"
    )


def test_check_prints_in_colour_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    snapshot_committed(repo, capsys, monkeypatch)
    _, out, _ = run(capsys, "check", "--no-version", "--color", "always")
    assert out.startswith("\x1b[32mPASS\x1b[0m snapshot current")
    _, out, _ = run(capsys, "check", "--no-version", "--no-color")
    assert out.startswith("PASS snapshot current")


def test_if_stale_says_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = project(tmp_path)
    snapshot_committed(repo, capsys, monkeypatch)
    repo.write({"src/pkg/core.py": CORE + '\n\ndef post(url: str) -> None:\n    """Post."""\n'})
    code, out, err = run(capsys, "snapshot", "--quiet", "--if-stale")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "api_snapshots/pkg.json: updated, 1 change",
        "  pkg.core.post: function added [minor]",
    ]
    assert run(capsys, "snapshot", "--quiet", "--if-stale") == (0, "", "")


def test_advice_in_an_empty_folder_and_at_a_monorepo_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from clirun import write  # noqa: PLC0415

    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "show", str(tmp_path / "empty"))
    assert code == 2
    assert "no package folder, module or pyproject.toml here" in err
    assert "--package" not in err
    mono = write(
        tmp_path / "mono",
        {
            "packages/a/pyproject.toml": '[project]\nname = "alpha"\n',
            "packages/a/src/alpha/__init__.py": '"""A."""\n',
            "packages/b/pyproject.toml": '[project]\nname = "beta"\n',
            "packages/b/beta/__init__.py": '"""B."""\n',
        },
    )
    code, _, err = run(capsys, "show", str(mono))
    assert code == 2
    assert "projects below it: packages/a (alpha), packages/b (beta)" in err


@pytest.mark.parametrize(
    ("pyproject_extra", "files"),
    [
        (
            '[tool.setuptools.dynamic]\nversion = {attr = "pkg.VERSION_STRING"}\n',
            {"src/pkg/__init__.py": '"""P."""\n__version__ = "1.4.6"\nVERSION_STRING = "2.3.1"\n'},
        ),
        (
            '[tool.setuptools.dynamic]\nversion = {attr = "pkg.about.VERSION"}\n',
            {
                "src/pkg/__init__.py": '"""P."""\n__version__ = "1.4.6"\n',
                "src/pkg/about.py": 'VERSION = "2.3.1"\n',
            },
        ),
        (
            '[tool.setuptools.dynamic]\nversion = {file = "VERSION"}\n',
            {"src/pkg/__init__.py": '"""P."""\n__version__ = "1.4.6"\n', "VERSION": "2.3.1\n"},
        ),
        (
            '[tool.hatch.version]\npath = "src/pkg/__about__.py"\n',
            {
                "src/pkg/__init__.py": '"""P."""\n__version__ = "1.4.6"\n',
                "src/pkg/__about__.py": '__version__ = "2.3.1"\n',
            },
        ),
        (
            '[tool.pdm.version]\nsource = "file"\npath = "src/pkg/_v.py"\n',
            {
                "src/pkg/__init__.py": '"""P."""\n__version__ = "1.4.6"\n',
                "src/pkg/_v.py": '__version__ = "2.3.1"\n',
            },
        ),
    ],
)
def test_the_version_comes_from_pyprojects_dynamic_source(
    pyproject_extra: str, files: dict[str, str], tmp_path: Path
) -> None:
    from clirun import write  # noqa: PLC0415

    from apisurface.project.project import Project  # noqa: PLC0415

    root = write(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "pkg"\ndynamic = ["version"]\n\n'
            + pyproject_extra,
            **files,
        },
    )
    assert Project.load(root).version == "2.3.1"


def test_a_class_named_like_its_builtin_base_is_no_cycle(tmp_path: Path) -> None:
    from clirun import write  # noqa: PLC0415

    from apisurface.surface.collect import load_surface  # noqa: PLC0415

    source = '"""Pkg."""\n\n\nclass Base(Exception):\n    """Base."""\n\n\n'
    source += 'class Warning(Warning, Base):\n    """A warning of pkg."""\n'
    surface = load_surface(write(tmp_path, {"pkg/__init__.py": source}), "pkg")
    assert surface.problems == ()
    assert surface.symbols["pkg.Warning"].bases == ("Warning", "pkg.Base")


def test_a_wheel_and_its_source_tree_are_compared_like_for_like(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The wheel ships no docs/: what only the docs sources document is not judged, in
    either direction (no 'now documented', no 'no longer documented')."""
    from clirun import write  # noqa: PLC0415

    code = {
        "pkg/__init__.py": '"""Pkg."""\nfrom pkg.util import helper\n',
        "pkg/util.py": "def helper(x):\n    return x\n\n\nclass Thing:\n    def method(self):\n"
        "        pass\n",
    }
    docs = ".. automodule:: pkg.util\n   :members:\n   :undoc-members:\n\n"
    docs += ".. autofunction:: pkg.helper\n"
    tree = write(
        tmp_path / "tree",
        {
            **code,
            "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
            "docs/api.rst": docs,
        },
    )
    wheel = write(
        tmp_path / "wheel",
        {**code, "pkg-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n"},
    )
    for old, new in ((wheel, tree), (tree, wheel)):
        _, out, _ = run(capsys, "diff", str(old), str(new), "--format", "json")
        report = json.loads(out)
        assert report["bump"] == "patch" and report["counts"]["minor"] == 0, out
        assert {change["kind"] for change in report["changes"]} == {"documentation_unknown"}


def test_an_accept_entry_may_name_the_parameters_of_one_entry(tmp_path: Path) -> None:
    """The report names one edit as ``pkg.connect(port, timeout, retries)``: an accept entry
    copied from it accepts each parameter's change of its rule, and is not stale."""
    from clirun import write  # noqa: PLC0415

    from apisurface.compare.report import build_report  # noqa: PLC0415
    from apisurface.project.config import load_config  # noqa: PLC0415
    from apisurface.surface.collect import load_surface  # noqa: PLC0415

    old = load_surface(write(tmp_path / "old", {"pkg/__init__.py": SIGNATURE_OLD}), "pkg")
    accept = (
        '[project]\nname = "pkg"\n\n[[tool.apisurface.accept]]\n'
        'path = "pkg.connect(port, timeout, retries)"\nrule = "parameter_kind_narrowed"\n'
        'reason = "documented as keyword arguments"\n'
    )
    root = write(tmp_path / "new", {"pkg/__init__.py": SIGNATURE_NEW, "pyproject.toml": accept})
    report = build_report(old, load_surface(root, "pkg"), config=load_config(root))
    assert report.stale_accepts == ()
    accepted = {part.change.path for item in report.accepted for part in item.each}
    assert accepted == {"pkg.connect(port)", "pkg.connect(timeout)", "pkg.connect(retries)"}
    # The default change was not accepted: an entry of its own, still MAJOR.
    assert [item.change.path for item in report.changes if item.accepted is None] == [
        "pkg.connect(timeout)"
    ]


@pytest.mark.parametrize(
    "check",
    ["PY3", "not PY2", "sys.version_info[0] >= 3", "sys.version_info >= (3,)", "six.PY3"],
)
def test_a_python2_module_imported_only_under_python2_stays_a_note(
    check: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """gevent 1.2.2's idiom: ``if PY3: def reraise ... else: from ._util_py2 import
    reraise``. Only Python 2 imports the file, so no Python 3 user reaches it."""
    from clirun import write  # noqa: PLC0415

    compat = (
        '"""Compat."""\nimport sys\n\nimport six\n\nPY3 = sys.version_info[0] >= 3\n'
        "PY2 = sys.version_info[0] == 2\n\n"
        f"if {check}:\n    def reraise(t, value, tb=None):\n        raise value\n"
        "else:\n    from pkg._util_py2 import reraise\n"
    )
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": '"""Pkg."""\nfrom pkg.compat import reraise\n',
            "pkg/compat.py": compat,
            "pkg/_util_py2.py": "def reraise(type, value, tb):\n    raise type, value, tb\n",
        },
    )
    code, out, err = run(capsys, "snapshot", str(root), "-o", "-")
    assert code == 0, err
    assert "pkg/_util_py2.py:2:15: syntax error: invalid syntax" in json.loads(out)["problems"]
    assert run(capsys, "diff", str(root), str(root), "--fail-on", "major")[0] == 0
