"""`apisurface release-check` end to end: the release manager's checklist on real git
repositories, one scenario per outcome."""

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

    def get(self, url: str) -> bytes:
        """Get a URL."""
        return b""


def fetch(url: str) -> bytes:
    """Fetch a URL."""
    return b""


def old_helper() -> None:
    """Help, the old way.

    .. deprecated:: 1.0
       Use fetch.
    """
'''

INIT = '''
"""A small package."""

from pkg.core import Client, fetch, old_helper

__all__ = ["Client", "fetch", "old_helper"]
'''

CHANGELOG_V1 = """
# Changelog

## 1.0.0

- First release: `fetch`, `Client.get` and `old_helper`.
"""


def released(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, changelog: bool = True) -> Repo:
    repo = Repo(tmp_path / "repo")
    files = {
        "pyproject.toml": pyproject("1.0.0"),
        "src/pkg/__init__.py": INIT,
        "src/pkg/core.py": CORE,
    }
    if changelog:
        files["CHANGELOG.md"] = CHANGELOG_V1
    repo.write(files).commit("release 1.0.0", tag="v1.0.0")
    monkeypatch.chdir(repo.root)
    return repo


def snapshot_and_commit(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "snapshot", "-q")[0] == 0
    repo.commit("next")


def statuses(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, dict[str, object]]]:
    code, out, _ = run(capsys, "release-check", "--format", "json")
    data = json.loads(out)
    assert data["passed"] is (code == 0)
    return code, {check["name"]: check for check in data["checks"]}


def without(text: str, name: str) -> str:
    """``text`` without the function ``name`` (to the next blank-line-separated def)."""
    start = text.index(f"def {name}(")
    end = text.find("\n\n\ndef ", start)
    return text[:start] + (text[end + 3 :] if end != -1 else "")


def test_major_release_removing_a_deprecated_symbol_is_ready(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, monkeypatch)
    repo.write(
        {
            "pyproject.toml": pyproject("2.0.0"),
            "src/pkg/core.py": without(CORE, "old_helper"),
            "src/pkg/__init__.py": INIT.replace(", old_helper", "").replace(', "old_helper"', ""),
            "CHANGELOG.md": "# Changelog\n\n## 2.0.0\n\n- Removed `old_helper` (deprecated "
            "since 1.0).\n" + CHANGELOG_V1.replace("# Changelog\n", ""),
        }
    )
    snapshot_and_commit(repo, capsys)
    code, checks = statuses(capsys)
    assert code == 0, checks
    assert {name: check["status"] for name, check in checks.items()} == {
        "snapshot current": "pass",
        "surface complete": "pass",
        "version bump sufficient": "pass",
        "breaking changes accepted or major": "pass",
        "removals were deprecated first": "pass",
        "changelog names removals": "pass",
        "no experimental re-exports": "pass",
        "accept entries current": "pass",
    }
    assert checks["changelog names removals"]["summary"] == (
        "CHANGELOG.md names all 1 removed or renamed symbol"  # one object at two paths
    )
    code, out, _ = run(capsys, "release-check")
    assert code == 0
    assert "Release checklist: pkg 2.0.0" in out
    assert "Ready to release" in out


def test_minor_release_breaking_the_policy_fails_each_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, monkeypatch)
    stale = """
    [[tool.apisurface.accept]]
    path = "pkg.Client.get(timeout)"
    rule = "parameter_removed"
    reason = "released in 1.0.0 already"
    """
    repo.write(
        {
            "pyproject.toml": pyproject("1.1.0", stale),
            "src/pkg/core.py": without(without(CORE, "old_helper"), "fetch"),
            "src/pkg/__init__.py": (
                '"""A small package."""\n\nfrom pkg.core import Client\n'
                "from pkg.experimental import turbo\n\n"
                '__all__ = ["Client", "turbo"]\n'
            ),
            "src/pkg/experimental.py": '"""Unstable."""\n\n\ndef turbo() -> None:\n'
            '    """Go fast."""\n',
            # The 1.0.0 section mentions fetch; only the part above it counts.
            "CHANGELOG.md": "# Changelog\n\n## Unreleased\n\n- Faster.\n"
            + CHANGELOG_V1.replace("# Changelog\n", ""),
        }
    )
    snapshot_and_commit(repo, capsys)
    code, checks = statuses(capsys)
    assert code == 1
    assert {name: check["status"] for name, check in checks.items()} == {
        "snapshot current": "pass",
        "surface complete": "pass",
        "version bump sufficient": "fail",
        "breaking changes accepted or major": "fail",
        "removals were deprecated first": "fail",
        "changelog names removals": "fail",
        "no experimental re-exports": "fail",
        "accept entries current": "warn",
    }
    assert checks["version bump sufficient"]["summary"].startswith(
        "needs MAJOR: 2 breaking changes, but the version goes 1.0.0 -> 1.1.0"
    )
    breaking = checks["breaking changes accepted or major"]
    assert breaking["advice"] == (
        "release 2.0.0, or accept each in [tool.apisurface] with a reason (example in the details)"
    )
    assert "  [[tool.apisurface.accept]]" in breaking["details"]
    assert checks["removals were deprecated first"]["details"] == [
        "pkg.fetch (also at pkg.core.fetch): removed without being deprecated in v1.0.0 first",
        "pkg.old_helper (also at pkg.core.old_helper): deprecated in v1.0.0, but removed in a "
        "release that is not major (1.0.0 -> 1.1.0)",
    ]
    changelog = checks["changelog names removals"]
    assert changelog["summary"] == (
        "2 of 2 removed or renamed symbols not named in CHANGELOG.md (above the 1.0.0 heading)"
    )
    assert checks["no experimental re-exports"]["details"] == [
        "pkg.turbo is pkg.experimental.turbo"
    ]
    assert checks["accept entries current"]["details"] == [
        "pkg.Client.get(timeout) parameter_removed"
    ]
    code, out, _ = run(capsys, "release-check")
    assert code == 1
    assert "Not ready to release: 5 of 8 failed" in out


def test_accepted_breaking_change_passes_in_a_minor_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, monkeypatch)
    accept = """
    [[tool.apisurface.accept]]
    path = "pkg.Client.get"
    rule = "parameter_renamed"
    reason = "url was documented as positional only"

    [[tool.apisurface.accept]]
    path = "pkg.core.Client.get"
    rule = "parameter_renamed"
    reason = "url was documented as positional only"
    """
    repo.write(
        {
            "pyproject.toml": pyproject("1.0.1", accept),
            "src/pkg/core.py": CORE.replace("get(self, url: str)", "get(self, address: str)"),
        }
    )
    snapshot_and_commit(repo, capsys)
    code, checks = statuses(capsys)
    assert code == 0, checks
    assert checks["breaking changes accepted or major"]["summary"] == (
        "1 breaking change, all accepted"
    )
    assert checks["accept entries current"]["summary"] == "all 2 accept entries match a change"
    assert checks["version bump sufficient"]["summary"].startswith("1.0.0 -> 1.0.1 covers PATCH")


def test_no_changelog_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, monkeypatch, changelog=False)
    repo.write({"pyproject.toml": pyproject("1.0.1")})
    snapshot_and_commit(repo, capsys)
    code, checks = statuses(capsys)
    assert code == 0
    assert checks["changelog names removals"]["status"] == "warn"
    assert checks["changelog names removals"]["summary"].startswith("no changelog found in")


def test_changelog_in_docs_with_rst_headings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, monkeypatch, changelog=False)
    repo.write(
        {
            "pyproject.toml": pyproject("2.0.0"),
            "src/pkg/core.py": CORE.replace("class Client:", "class Session:"),
            "src/pkg/__init__.py": INIT.replace("Client", "Session"),
            "docs/changelog.rst": "Changes\n=======\n\n2.0.0\n-----\n\n* ``Client`` is now "
            "``Session``.\n\n1.0.0\n-----\n\n* First.\n",
        }
    )
    snapshot_and_commit(repo, capsys)
    code, checks = statuses(capsys)
    assert checks["changelog names removals"]["status"] == "pass", checks
    assert checks["changelog names removals"]["summary"].startswith("changelog.rst names all")
    # Removing Client without deprecating it first still breaks the deprecation rule.
    assert checks["removals were deprecated first"]["status"] == "fail"
    assert code == 1


def test_first_release_has_nothing_to_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write(
        {
            "pyproject.toml": pyproject("0.1.0"),
            "src/pkg/__init__.py": INIT,
            "src/pkg/core.py": CORE,
            "NEWS.md": "# News\n",
        }
    ).commit()
    monkeypatch.chdir(repo.root)
    snapshot_and_commit(repo, capsys)
    code, checks = statuses(capsys)
    assert code == 0, checks
    assert checks["version bump sufficient"]["summary"] == (
        "no release tags: treated as the first release"
    )
    assert all(check["status"] == "pass" for check in checks.values())
