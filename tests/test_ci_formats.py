"""The pull-request outputs end to end on a PR-like base/head in a real git repository:
``diff BASE HEAD --format markdown|github|sarif|json``, with accepted changes, level
overrides and ignored paths from [tool.apisurface]. Markdown is parsed with markdown-it-py;
SARIF is validated against the OASIS 2.1.0 schema vendored in tests/data/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from gitrepo import Repo, pyproject
from markdown_it import MarkdownIt

from apisurface.cli import main
from apisurface.compare.report import build_report
from apisurface.model import Location, Signature, Surface, Symbol, SymbolKind
from apisurface.output.ci import render_github
from apisurface.output.text import MARKDOWN_MARKER, render_markdown

SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)

CORE_BASE = '''
"""Core."""


class Client:
    """A client."""

    def get(self, url: str) -> bytes:
        """Get a URL."""
        return b""


def fetch(url: str) -> bytes:
    """Fetch a URL."""
    return b""


def connect(host: str, port: int = 80) -> None:
    """Connect."""
'''

CORE_HEAD = '''
"""Core."""


class Client:
    """A client for servers."""

    def get(self, address: str) -> bytes:
        """Get a URL."""
        return b""


def connect(host: str, port: int = 8080) -> None:
    """Connect."""


def post(url: str, body: bytes = b"") -> None:
    """Post a body."""
'''

INIT = '''
"""A small package."""

from pkg.core import Client, connect, fetch

__all__ = ["Client", "connect", "fetch"]
'''

VENDORED = '''
"""Vendored code."""


def helper(a: int) -> int:
    """Help."""
    return a
'''

CONFIG = """
[tool.apisurface]
ignore = ["pkg.vendored*"]
levels = { parameter_default_changed = "minor" }

[[tool.apisurface.accept]]
path = "pkg.core.Client.get(url)"
rule = "parameter_renamed"
reason = "url was documented as positional only,\\nsee: issue 12"

[[tool.apisurface.accept]]
path = "pkg.gone"
rule = "symbol_removed"
reason = "an old entry"
"""


@pytest.fixture
def pull_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    """``main`` at v1.0.0 and a ``feature`` branch that changes the API."""
    repo = Repo(tmp_path / "repo")
    repo.write(
        {
            "pyproject.toml": pyproject("1.0.0"),
            "src/pkg/__init__.py": INIT,
            "src/pkg/core.py": CORE_BASE,
            "src/pkg/vendored.py": VENDORED,
        }
    ).commit("base", tag="v1.0.0")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write(
        {
            "pyproject.toml": pyproject("1.0.0", CONFIG),
            "src/pkg/__init__.py": INIT.replace(", fetch", "").replace(', "fetch"', "")
            + 'from pkg.core import post\n\n__all__ += ["post"]\n',
            "src/pkg/core.py": CORE_HEAD,
            "src/pkg/vendored.py": VENDORED.replace("a: int", "a: str"),
        }
    ).commit("feature")
    monkeypatch.chdir(repo.root)
    return repo


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def line_of(text: str, needle: str) -> int:
    return text.lstrip("\n").splitlines().index(needle) + 1


def test_json_has_label_accepted_and_stale(
    pull_request: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(run(capsys, "diff", "main", "feature", "--format", "json"))
    assert data["bump"] == "major"
    assert data["label"] == "semver:major"
    assert data["next_version"] == "2.0.0"
    kinds = {(change["path"], change["kind"]): change for change in data["changes"]}
    # One change per object, at its shortest path, the others beside it: the accept entry
    # names the object at its other path and accepts the one change.
    renamed = kinds[("pkg.Client.get(url)", "parameter_renamed")]
    assert renamed["accepted"].startswith("url was documented")
    assert renamed["also_at"] == ["pkg.core.Client.get(url)"]
    assert ("pkg.core.Client.get(url)", "parameter_renamed") not in kinds
    assert data["counts"] == {"major": 1, "minor": 2, "patch": 0}  # one entry per removal
    # A docstring change is a note: listed, but no public API change, counted apart.
    assert data["notes"] == 1
    assert kinds[("pkg.Client", "docstring_changed")]["note"] is True
    # Every change names the file and line of its definition (the old one for a removal).
    get_line = line_of(CORE_HEAD, "    def get(self, address: str) -> bytes:")
    fetch_line = line_of(CORE_BASE, "def fetch(url: str) -> bytes:")
    assert (renamed["file"], renamed["line"]) == ("src/pkg/core.py", get_line)
    removed = kinds[("pkg.fetch", "symbol_removed")]
    assert (removed["file"], removed["line"]) == ("src/pkg/core.py", fetch_line)
    assert all(isinstance(change["line"], int) for change in data["changes"])
    # The level override makes the default change minor; ignored paths are not reported.
    assert kinds[("pkg.connect(port)", "parameter_default_changed")]["bump"] == "minor"
    assert not any(change["path"].startswith("pkg.vendored") for change in data["changes"])
    assert data["stale_accepts"] == ["pkg.gone symbol_removed"]


def test_github_annotations_point_at_the_source(
    pull_request: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run(capsys, "diff", "main", "feature", "--format", "github")
    lines = out.splitlines()
    assert lines[0] == (
        "::notice title=API surface::apisurface: MAJOR (1 breaking change): 1.0.0 -> 2.0.0"
    )
    pattern = re.compile(r"^::(error|warning|notice)( [a-zA-Z]+=[^,:]*(,[a-zA-Z]+=[^,:]*)*)?::.+$")
    assert all(pattern.match(line) for line in lines), lines
    get_line = line_of(CORE_HEAD, "    def get(self, address: str) -> bytes:")
    fetch_line = line_of(CORE_BASE, "def fetch(url: str) -> bytes:")
    post_line = line_of(CORE_HEAD, 'def post(url: str, body: bytes = b"") -> None:')
    # A removal is annotated in NEW, at the file of the module that defined it (no line: the
    # old line is of another file); one annotation per object, its other public paths named
    # in the message.
    assert (
        "::error file=src/pkg/core.py,title=MAJOR API change "
        "(symbol_removed)::pkg.fetch (also at pkg.core.fetch): function removed; removed without"
        " prior deprecation (deprecate it in a release first) "
        "[proven: OLD defines pkg.fetch at pkg/core.py:"
        f"{fetch_line}; NEW has no pkg.fetch]"
    ) in lines
    assert sum("(symbol_removed)" in line for line in lines) == 1
    assert (
        f"::warning file=src/pkg/core.py,line={post_line},title=MINOR API change "
        "(symbol_added)::pkg.post (also at pkg.core.post): function added "
        f"[proven: NEW defines pkg.post at pkg/core.py:{post_line}; OLD has no public pkg.post]"
    ) in lines
    # An accepted change is a notice; its reason is escaped onto one line.
    assert (
        f"::notice file=src/pkg/core.py,line={get_line},title=MAJOR change accepted "
        "(parameter_renamed)::pkg.Client.get(url) (also at pkg.core.Client.get(url)): "
        "parameter renamed url -> address. "
        "Accepted: url was documented as positional only,%0Asee: issue 12 "
        "[proven: the call pkg.Client.get(url=_) binds to OLD and not to NEW]"
    ) in lines
    assert "::warning title=Stale accept entry in [tool.apisurface]::" in out
    # Patch-level changes (the docstring) are not annotated.
    assert "docstring" not in out
    # Errors first, then warnings, then notices of accepted changes.
    order = [line.split(" ", 1)[0] for line in lines[1:] if "Stale" not in line]
    assert order == sorted(order, key=["::error", "::warning", "::notice"].index)


def test_github_paths_are_relative_to_the_repository_from_a_subfolder(
    pull_request: Repo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(pull_request.root / "src")
    out = run(capsys, "diff", "main", "feature", "--format", "github")
    assert "file=src/pkg/core.py," in out
    # A working-tree folder works the same way.
    out = run(capsys, "diff", "main", ".", "--format", "github")
    assert "file=src/pkg/core.py," in out
    assert "file=pkg/" not in out


def test_snapshot_inputs_give_annotations_without_locations(
    pull_request: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "snapshot", "main", "-o", "base.json", "-q")
    run(capsys, "snapshot", "feature", "-o", "head.json", "-q")
    out = run(capsys, "diff", "base.json", "head.json", "--format", "github")
    # The snapshot records targets, so the removal is one entry at its two paths, as
    # between two trees; it records no source, so no file.
    assert (
        "::error title=MAJOR API change (symbol_removed)::pkg.fetch (also at pkg.core.fetch): "
        "function removed;"
    ) in out


def test_sarif_is_valid_and_complete(
    pull_request: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    log = json.loads(run(capsys, "diff", "main", "feature", "--format", "sarif"))
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    errors = sorted(
        jsonschema.Draft4Validator(SCHEMA).iter_errors(log), key=lambda error: error.path
    )
    assert not errors, [error.message for error in errors]
    data = json.loads(run(capsys, "diff", "main", "feature", "--format", "json"))
    (sarif_run,) = log["runs"]
    results = sarif_run["results"]
    # Docstring changes and patch-level changes are no code-scanning results.
    assert len(results) == len([item for item in data["changes"] if item["bump"] != "patch"])
    rules = sarif_run["tool"]["driver"]["rules"]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]
        uri = location["physicalLocation"]["artifactLocation"]["uri"]
        assert uri in {"src/pkg/core.py", "src/pkg/__init__.py"}, uri
        if "region" in location["physicalLocation"]:  # a removal: the file that lost it
            assert location["physicalLocation"]["region"]["startLine"] >= 1
    suppressed = [result for result in results if "suppressions" in result]
    assert [
        [logical["fullyQualifiedName"] for logical in result["locations"][0]["logicalLocations"]]
        for result in suppressed
    ] == [["pkg.Client.get(url)", "pkg.core.Client.get(url)"]]
    assert suppressed[0]["suppressions"][0]["justification"].startswith("url was documented")
    levels = {result["ruleId"]: result["level"] for result in results}
    assert levels["symbol_removed"] == "error"
    assert levels["symbol_added"] == "note"  # an addition is no warning
    assert "docstring_changed" not in levels
    assert sarif_run["properties"]["label"] == "semver:major"
    fingerprints = [result["partialFingerprints"]["apisurfaceChange/v1"] for result in results]
    assert len(set(fingerprints)) == len(fingerprints)


def test_markdown_comment_renders_with_verdict_first(
    pull_request: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    body = run(capsys, "diff", "main", "feature", "--format", "markdown")
    assert body.splitlines()[0] == MARKDOWN_MARKER
    # Stable: the same input gives the same comment, so a bot can update it in place.
    assert run(capsys, "diff", "main", "feature", "--format", "markdown") == body
    tokens = MarkdownIt("commonmark").enable("table").parse(body)
    headings = [
        tokens[index + 1].content
        for index, token in enumerate(tokens)
        if token.type == "heading_open"
    ]
    assert headings == [
        "API surface: **MAJOR** bump required",
        "MAJOR (1)",
        "MINOR (2)",
        "Accepted (1)",
    ]
    tables = [index for index, token in enumerate(tokens) if token.type == "table_open"]
    assert len(tables) == 3
    first_paragraph = next(
        token for token in tokens if token.type == "inline" and "Suggested" in token.content
    )
    assert "**Suggested version: 2.0.0** (from `1.0.0`)" in first_paragraph.content
    assert "label `semver:major`" in first_paragraph.content
    assert tokens.index(first_paragraph) < tables[0]
    cells = [token.content for token in tokens if token.type == "inline"]
    # Rows are grouped by module and name the symbol relative to it.
    assert "**`pkg`**" in cells
    assert "`connect` (also in `pkg.core`)" in cells
    assert "`src/pkg/core.py:16`" in cells
    # No witnesses and no evidence column: the full report (HTML, JSON) has them.
    assert "Witnesses" not in body
    assert cells[cells.index("where") + 1] == "**`pkg`**"
    # The escaped pipe stays inside its cell: each row has as many cells as the header.
    html = MarkdownIt("commonmark").enable("table").render(body)
    assert html.count("<table>") == 3
    assert "<details><summary>Notes: docstrings and documentation</summary>" in html
    assert "docstring changed in <code>pkg</code>: <code>Client</code>" in html
    assert "None" not in body
    assert "Stale accept entries" in html
    assert "url was documented as positional only,\\nsee" not in html


def test_markdown_without_changes(pull_request: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    body = run(capsys, "diff", "main", "main", "--format", "markdown")
    assert "### API surface: no public API change (**PATCH**)" in body
    assert "Suggested version: 1.0.1" in body
    assert "No differences." in body
    html = MarkdownIt("commonmark").enable("table").render(body)
    assert "<table>" not in html


DEMO = Path(__file__).parent.parent / "fixtures" / "demo"
DEMO_ACCEPT = """
[[tool.apisurface.accept]]
path = "tinyhttp.Client.get(params)"
rule = "parameter_renamed"
reason = "params was documented as positional only"
"""
DEMO_CHANGELOG = """# Changelog

## Unreleased

- `Client.get`: `params` is now `query`.
- `Method.TRACE` removed.

## 1.4.2

- Fixes.
"""


def _tree(source: Path) -> dict[str, str]:
    return {
        str(path.relative_to(source)): path.read_text(encoding="utf-8")
        for path in sorted(source.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_docs_outputs_show_current_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/outputs.md shows what this version prints for the demo pull request."""
    repo = Repo(tmp_path / "demo")
    for name, text in _tree(DEMO / "old").items():
        (repo.root / name).parent.mkdir(parents=True, exist_ok=True)
        (repo.root / name).write_text(text, encoding="utf-8")
    repo.commit("1.4.2", tag="v1.4.2")
    repo.git("checkout", "-q", "-b", "feature")
    repo.git("rm", "-q", "-r", "src")
    for name, text in _tree(DEMO / "new").items():
        (repo.root / name).parent.mkdir(parents=True, exist_ok=True)
        (repo.root / name).write_text(text, encoding="utf-8")
    with (repo.root / "pyproject.toml").open("a", encoding="utf-8") as file:
        file.write(DEMO_ACCEPT)
    (repo.root / "CHANGELOG.md").write_text(DEMO_CHANGELOG, encoding="utf-8")
    repo.commit("feature")
    monkeypatch.chdir(repo.root)
    docs = (Path(__file__).parent.parent / "docs" / "outputs.md").read_text(encoding="utf-8")
    for fmt in ("markdown", "github"):
        out = run(capsys, "diff", "v1.4.2", "HEAD", "--format", fmt)
        assert out in docs, f"docs/outputs.md is out of date for --format {fmt}"


def _surface(names: list[str], file: str = "src/pkg/__init__.py") -> Surface:
    symbols = {"pkg": Symbol("pkg", SymbolKind.MODULE, location=Location(file, 0))}
    for number, name in enumerate(names, start=1):
        path = f"pkg.{name}"
        symbols[path] = Symbol(
            path, SymbolKind.FUNCTION, signature=Signature(), location=Location(file, number)
        )
    return Surface("pkg", symbols, version="1.0.0")


def test_markdown_fits_a_comment_by_design() -> None:
    """Thousands of additions: the table that fits (a count per kind and module)."""
    names = [f"function_with_a_rather_long_name_{number:04d}" for number in range(3000)]
    report = build_report(_surface([]), _surface(names))
    body = render_markdown(report)
    assert len(body) < 65_536
    assert "| 3000 changes | `symbol_added` |" in body


def test_github_escapes_properties_and_data() -> None:
    report = build_report(_surface([]), _surface(["f"], file="src/a,b:c%.py"))
    out = render_github(report)
    assert (
        "::warning file=src/a%2Cb%3Ac%25.py,line=1,title=MINOR API change (symbol_added)::" in out
    )


def test_sarif_without_source_locations_is_valid(
    pull_request: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "snapshot", "main", "-o", "base.json", "-q")
    run(capsys, "snapshot", "feature", "-o", "head.json", "-q")
    log = json.loads(run(capsys, "diff", "base.json", "head.json", "--format", "sarif"))
    assert not list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))
    for result in log["runs"][0]["results"]:
        assert "physicalLocation" not in result["locations"][0]
