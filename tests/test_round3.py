"""What a maintainer trying apisurface on a real project meets, round 3 (issue 23): a
baseline like for like, inputs that mean the same in every command, the changelog row for
parameters, the PR comment, SARIF, the Action, the install, and the small things."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

ROOT = Path(__file__).parent.parent

CORE_V5 = '''
"""Core."""


def fetch(url: str, timeout: float = 1.0) -> bytes:
    """Fetch a URL."""
    return b""
'''
INIT = '"""A package."""\n\nfrom pkg.core import fetch\n\n__all__ = ["fetch"]\n'


def releases(tmp_path: Path) -> Repo:
    """main: v4.1.0, v5.0.0, v5.0.1, then v6.0.0 (a break) and v6.1.0; a maintenance
    branch ``maint-5.0`` cut from v5.0.1 is checked out."""
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("4.1.0"), "src/pkg/__init__.py": INIT})
    repo.write({"src/pkg/core.py": CORE_V5.replace(", timeout: float = 1.0", "")})
    repo.commit("4.1", tag="v4.1.0")
    repo.write({"pyproject.toml": pyproject("5.0.0"), "src/pkg/core.py": CORE_V5})
    repo.commit("5.0", tag="v5.0.0")
    repo.write({"pyproject.toml": pyproject("5.0.1")}).commit("5.0.1", tag="v5.0.1")
    repo.write(
        {"pyproject.toml": pyproject("6.0.0"), "src/pkg/core.py": CORE_V5.replace("url", "link")}
    )
    repo.commit("6.0", tag="v6.0.0")
    repo.write({"pyproject.toml": pyproject("6.1.0")}).commit("6.1", tag="v6.1.0")
    repo.git("checkout", "-q", "-b", "maint-5.0", "v5.0.1")
    return repo


# --- 3. the baseline is the latest release reachable from HEAD --------------------------


def test_last_release_on_a_maintenance_branch_is_its_own_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    assert run(capsys, "last-release") == (0, "v5.0.1\n", "")
    repo.write({"pyproject.toml": pyproject("5.0.2")})
    code, out, err = run(capsys, "diff", "--format", "json", "--no-cache")
    assert code == 0, err
    report = json.loads(out)
    assert report["old"] == "v5.0.1"
    assert report["changes"] == []
    assert run(capsys, "check", "--no-cache", "-q")[0] == 1  # no snapshot committed yet
    code, out, _ = run(capsys, "check", "--no-cache")
    assert "PASS version bump sufficient" in out, out
    assert "v6" not in out
    repo.git("checkout", "-q", "-f", "main")
    assert run(capsys, "last-release") == (0, "v6.1.0\n", "")


def _wheel(folder: Path, version: str, files: dict[str, str]) -> Path:
    """A wheel of ``pkg`` holding ``files`` (no docs: a wheel ships none)."""
    wheel = folder / f"pkg-{version}-py3-none-any.whl"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel, "w") as bundle:
        for name, text in files.items():
            bundle.writestr(name, text)
        bundle.writestr(
            f"pkg-{version}.dist-info/METADATA",
            f"Metadata-Version: 2.1\nName: pkg\nVersion: {version}\n\n",
        )
    return wheel


DOCUMENTED_BY_DOCS = {
    "src/pkg/__init__.py": '"""Pkg."""\n\n\ndef query(sql):\n    """Run a query."""\n',
    "src/pkg/sql.py": "def raw(sql):\n    return sql\n\n\ndef cooked(sql):\n    return sql\n",
    "src/pkg/engine.py": '"""Engine."""\n\n\ndef start(x):\n    return x\n',
    "docs/api.rst": "API\n===\n\n.. autofunction:: pkg.sql.raw\n\n.. autofunction:: "
    "pkg.engine.start\n",
}


def test_check_against_the_same_release_as_a_wheel_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wheel ships no docs/: what only the docs sources document is not judged, in
    either direction (not "now documented", not "no longer documented")."""
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), **DOCUMENTED_BY_DOCS}).commit("1.0")
    wheel = _wheel(
        tmp_path / "dist",
        "1.0.0",
        {
            name.removeprefix("src/"): text
            for name, text in DOCUMENTED_BY_DOCS.items()
            if name.startswith("src/")
        },
    )
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q", "--no-cache")[0] == 0
    code, out, _ = run(capsys, "check", "--against", str(wheel), "--no-cache")
    assert code == 0, out
    assert "now documented" not in out
    for old, new in ((str(wheel), "."), (".", str(wheel))):
        code, out, _ = run(capsys, "diff", old, new, "--format", "json", "--no-cache")
        kinds = {change["kind"] for change in json.loads(out)["changes"]}
        assert kinds == {"documentation_unknown"}, (old, new, out)


# --- 4. check and release-check take a git ref as SOURCE, like diff ----------------------


def test_check_a_tag_against_a_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    code, out, err = run(capsys, "check", "v5.0.0", "--against", "v4.1.0", "--no-version")
    assert code == 1, err  # no snapshot was committed at v5.0.0
    assert "no such folder" not in err
    code, out, err = run(capsys, "check", "v5.0.0", "--against", "v4.1.0", "--no-cache")
    assert "PASS version bump sufficient" in out, (out, err)
    code, out, err = run(capsys, "check", "v6.0.0", "--against", "v5.0.1", "--no-cache")
    assert "PASS version bump sufficient" in out, (out, err)
    code, out, err = run(capsys, "release-check", "v6.0.0", "--against", "v5.0.1", "--no-cache")
    assert "no such folder" not in err
    assert "needs" not in out or "6.0.0" in out
    code, _, err = run(capsys, "check", "v9.9.9")
    assert code == 2
    assert "v9.9.9" in err and "no such folder, snapshot or git ref" in err


def test_help_says_what_source_may_be(capsys: pytest.CaptureFixture[str]) -> None:
    from apisurface.cli import _parser  # noqa: PLC0415

    top = _parser().format_help()
    assert "git ref" in top
    for command in ("check", "release-check"):
        with pytest.raises(SystemExit):
            run(capsys, command, "--help")
        text = capsys.readouterr().out
        assert "git ref" in text, command


# --- 5. release-check's changelog row checks parameters too ------------------------------

PARAMS_OLD = '''
"""Core."""


def fetch(url: str, timeout: float = 1.0, retries: int = 0) -> bytes:
    """Fetch a URL."""
    return b""
'''
PARAMS_NEW = PARAMS_OLD.replace("url: str, timeout: float = 1.0", "address: str, wait: float = 1.0")


def _changelog_row(tmp_path: Path, capsys: pytest.CaptureFixture[str], changelog: str) -> dict:
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "src/pkg/__init__.py": INIT})
    repo.write({"src/pkg/core.py": PARAMS_OLD}).commit("1.0", tag="v1.0.0")
    repo.write({"pyproject.toml": pyproject("2.0.0"), "src/pkg/core.py": PARAMS_NEW})
    repo.write({"CHANGELOG.md": changelog})
    _, out, _ = run(capsys, "release-check", str(repo.root), "--format", "json", "--no-cache")
    checks = {check["name"]: check for check in json.loads(out)["checks"]}
    row: dict = checks["changelog names removals"]
    return row


def test_changelog_row_names_renamed_parameters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    row = _changelog_row(tmp_path / "a", capsys, "# Changelog\n\n## 2.0.0\n\n- Faster.\n")
    assert row["status"] == "fail", row
    assert row["summary"] == (
        "2 of 2 removed or renamed parameters not named in CHANGELOG.md (whole file)"
    )
    assert row["details"] == [
        "pkg.fetch(timeout) (also pkg.core.fetch(timeout))",
        "pkg.fetch(url) (also pkg.core.fetch(url))",
    ]
    # A parameter is named with its callable, in one entry.
    half = "# Changelog\n\n## 2.0.0\n\n- `fetch`: `url` is now `address`.\n\n- `timeout` went.\n"
    row = _changelog_row(tmp_path / "b", capsys, half)
    assert row["status"] == "fail", row
    assert row["details"] == ["pkg.fetch(timeout) (also pkg.core.fetch(timeout))"]
    full = half + "- `fetch(timeout)` is now `wait`.\n"
    row = _changelog_row(tmp_path / "c", capsys, full)
    assert row["status"] == "pass", row
    assert row["summary"] == "CHANGELOG.md names all 2 removed or renamed parameters"


# --- 8. small things ---------------------------------------------------------------------


def test_quiet_check_prints_only_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pre-commit hook's command: nothing on PASS, and only the failing rows on FAIL."""
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    hook = ["check", "--no-version", "--quiet", "--no-cache"]
    assert run(capsys, "snapshot", "-q", "--no-cache")[0] == 0
    assert run(capsys, *hook) == (0, "", "")
    repo.write({"src/pkg/core.py": CORE_V5 + '\n\ndef post(url):\n    """Post."""\n'})
    code, out, _ = run(capsys, *hook)
    assert code == 1
    assert out.startswith("FAIL snapshot current:")
    assert "PASS" not in out


def test_a_mistyped_accept_entry_gets_a_did_you_mean(tmp_path: Path) -> None:
    from apisurface.compare.report import build_report  # noqa: PLC0415
    from apisurface.errors import ConfigError  # noqa: PLC0415
    from apisurface.project.config import Accept, Config, load_config  # noqa: PLC0415
    from apisurface.release.inputs import load_input  # noqa: PLC0415

    old, new = tmp_path / "old", tmp_path / "new"
    for folder, body in ((old, PARAMS_OLD), (new, PARAMS_NEW)):
        (folder / "pkg").mkdir(parents=True)
        (folder / "pkg" / "__init__.py").write_text(body, encoding="utf-8")
    from apisurface.changes import ChangeKind  # noqa: PLC0415

    config = Config(
        accept=(
            Accept("pkg.fetch(ulr)", ChangeKind.PARAMETER_RENAMED, "typo in the path"),
            Accept("pkg.fetch(url)", ChangeKind.PARAMETER_REMOVED, "the wrong rule"),
            Accept("pkg.elsewhere", ChangeKind.SYMBOL_REMOVED, "nothing like it"),
        )
    )
    report = build_report(load_input(str(old)).surface, load_input(str(new)).surface, config=config)
    assert report.stale_accepts == (
        "pkg.fetch(ulr) parameter_renamed (did you mean pkg.fetch(url)?)",
        "pkg.fetch(url) parameter_removed (did you mean rule parameter_renamed?)",
        "pkg.elsewhere symbol_removed",
    )
    (tmp_path / "pyproject.toml").write_text(
        '[[tool.apisurface.accept]]\npath = "pkg.f"\nrule = "parameter_renmed"\nreason = "r"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="did you mean 'parameter_renamed'"):
        load_config(tmp_path)


def test_the_working_tree_is_named_so_in_headers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = releases(tmp_path)
    monkeypatch.chdir(repo.root)
    _, out, _ = run(capsys, "diff", "v5.0.0", "--no-cache", "--no-color")
    assert out.startswith("apisurface: v5.0.0 -> working tree\n")
    _, out, _ = run(capsys, "diff", "v5.0.0", "--format", "json", "--no-cache")
    assert json.loads(out)["new"] == "working tree"
    _, out, _ = run(capsys, "diff", "v5.0.0", "--format", "markdown", "--no-cache")
    assert "`v5.0.0` -> `working tree`" in out
