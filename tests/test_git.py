"""``apisurface diff`` on refs of a real git repository: tags, a branch, a commit id, the
package moving into ``src/`` between releases, the JSON contract, exit codes, and the
promise that the working tree, the index and the branches are left exactly as they were."""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest
from gitrepo import Repo, pyproject

from apisurface.cli import main

V1_0 = '''
    """An HTTP helper."""


    def get(url, timeout=10):
        """Fetch a URL."""


    def old_fetch(url):
        """Fetch a URL the old way."""
'''

V1_1 = '''
    """An HTTP helper."""


    def get(url, timeout=10, *, retries=0):
        """Fetch a URL."""


    def stream(url):
        """Fetch a URL as an iterator of chunks."""
'''

WIP = '''

def wip():
    """Unfinished."""
'''

# The JSON contract (README): these top-level keys, and exactly these keys per change.
CONTRACT = ["bump", "current_version", "next_version", "changes"]
CHANGE_KEYS = [
    "path",
    "kind",
    "bump",
    "message",
    "caller_hint",
    "old",
    "new",
    "also_at",
    "file",
    "line",
    "evidence",
    "counted",
]

EXPECTED = {
    ("pkg.get(retries)", "parameter_added_optional", "minor"),
    ("pkg.old_fetch", "symbol_removed", "major"),
    ("pkg.stream", "symbol_added", "minor"),
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    """v1.0 with a flat layout; v1.1 with the package moved into src/ and changed; a branch
    ``old-api`` at v1.0; then a dirty working tree (a modified and an untracked file)."""
    repository = Repo(tmp_path / "project")
    repository.write({"pyproject.toml": pyproject("1.0.0"), "pkg/__init__.py": V1_0})
    repository.commit("1.0", tag="v1.0")
    repository.git("branch", "old-api")
    repository.remove("pkg/__init__.py")
    repository.write({"pyproject.toml": pyproject("1.1.0"), "src/pkg/__init__.py": V1_1})
    repository.commit("1.1: src layout", tag="v1.1")
    repository.write({"src/pkg/__init__.py": dedent(V1_1) + WIP})
    repository.write({"notes.txt": "untracked\n"})
    monkeypatch.chdir(repository.root)
    return repository


def _state(repo: Repo) -> dict[str, str]:
    """Everything diff must not touch: status, HEAD, index, refs and the working files."""
    return {
        "status": repo.git("status", "--porcelain", "--untracked-files=all"),
        "head": repo.git("rev-parse", "HEAD"),
        "symbolic": repo.git("symbolic-ref", "HEAD"),
        "index": repo.git("ls-files", "--stage"),
        "refs": repo.git("for-each-ref", "--format=%(refname) %(objectname)"),
        "stash": repo.git("stash", "list"),
        "work": (repo.root / "src/pkg/__init__.py").read_text(encoding="utf-8"),
        "untracked": (repo.root / "notes.txt").read_text(encoding="utf-8"),
    }


def _diff_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main(["diff", *argv, "--format", "json", "--quiet"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, object] = json.loads(captured.out)
    return data


def _found(report: dict[str, object]) -> set[tuple[str, str, str]]:
    changes = report["changes"]
    assert isinstance(changes, list)
    return {(item["path"], item["kind"], item["bump"]) for item in changes}


def test_two_tags_with_the_package_moved_into_src(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _diff_json(capsys, "v1.0", "v1.1")
    assert list(report)[:3] == CONTRACT[:3]
    assert set(CONTRACT) <= set(report)
    assert report["bump"] == "major"
    assert report["current_version"] == "1.0.0"
    assert report["next_version"] == "2.0.0"
    changes = report["changes"]
    assert isinstance(changes, list)
    for item in changes:
        # ``qualifiers`` only where a rule holds of the entry too.
        assert [key for key in item if key != "qualifiers"] == CHANGE_KEYS
        assert isinstance(item["message"], str) and item["message"]
        for key in ("old", "new"):
            assert item[key] is None or isinstance(item[key], str)
    assert _found(report) == EXPECTED
    removed = next(item for item in changes if item["kind"] == "symbol_removed")
    assert removed["old"] == "function" and removed["new"] is None
    # Not deprecated first: a property of the one removal entry, not a second change.
    assert removed["qualifiers"] == ["removed_without_deprecation"]
    assert "removed without prior deprecation" in removed["message"]


def test_branch_and_commit_id_name_the_same_releases(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    by_tag = _diff_json(capsys, "v1.0", "v1.1")
    commit = repo.git("rev-parse", "v1.1").strip()
    by_branch_and_commit = _diff_json(capsys, "old-api", commit)
    short = _diff_json(capsys, "old-api", commit[:10])
    for report in (by_branch_and_commit, short):
        assert {key: report[key] for key in CONTRACT} == {key: by_tag[key] for key in CONTRACT}


def test_working_tree_against_a_tag(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    """``.`` is the working tree (with its uncommitted function), not HEAD."""
    report = _diff_json(capsys, "v1.1", ".")
    assert _found(report) == {("pkg.wip", "symbol_added", "minor")}
    assert report["current_version"] == "1.1.0"
    assert report["next_version"] == "1.2.0"


def test_diff_leaves_the_repository_untouched(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _state(repo)
    assert before["status"] != ""  # the fixture left a modified and an untracked file
    for old, new in (("v1.0", "v1.1"), ("old-api", "HEAD"), ("v1.1", ".")):
        _diff_json(capsys, old, new)
    assert main(["diff", "v1.0", "no-such-tag", "--quiet"]) == 2
    capsys.readouterr()
    assert _state(repo) == before


def test_clean_repository_stays_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repository = Repo(tmp_path / "clean")
    repository.write({"pyproject.toml": pyproject("1.0.0"), "pkg/__init__.py": V1_0})
    repository.commit("1.0", tag="v1.0")
    repository.write({"pyproject.toml": pyproject("1.1.0"), "pkg/__init__.py": V1_1})
    repository.commit("1.1", tag="v1.1")
    monkeypatch.chdir(repository.root)
    head = repository.git("rev-parse", "HEAD")
    branches = repository.git("branch", "--list")
    assert main(["diff", "v1.0", "v1.1", "--quiet", "-o", str(tmp_path / "report.txt")]) == 0
    assert repository.git("status", "--porcelain", "--untracked-files=all") == ""
    assert repository.git("rev-parse", "HEAD") == head
    assert repository.git("branch", "--list") == branches


@pytest.mark.parametrize(("fail_on", "code"), [(None, 0), ("major", 1), ("minor", 1), ("patch", 1)])
def test_fail_on_exit_codes(
    repo: Repo, capsys: pytest.CaptureFixture[str], fail_on: str | None, code: int
) -> None:
    argv = ["diff", "v1.0", "v1.1", "--format", "json", "--quiet"]
    if fail_on is not None:
        argv += ["--fail-on", fail_on]
    assert main(argv) == code
    captured = capsys.readouterr()
    assert json.loads(captured.out)["bump"] == "major"  # the report is written either way


def test_fail_on_not_reached_exits_0(repo: Repo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.git("tag", "v1.1-again", "v1.1")
    assert main(["diff", "v1.1", "v1.1-again", "--fail-on", "minor", "--quiet"]) == 0
    assert "PATCH" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["no-such-tag", "v1.1"], ["v1.0", "no-such-tag"]])
def test_unknown_ref_is_one_line_on_stderr_and_exit_2(
    repo: Repo, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(["diff", *argv, "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert "no-such-tag" in lines[0]
    assert lines[0].startswith("apisurface: error:")


def test_version_from_release_tags_when_none_is_declared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without a declared version the OLD tag's name gives it (``release-1.2`` -> 1.2)."""
    repository = Repo(tmp_path / "untagged-version")
    repository.write({"pkg/__init__.py": V1_0})
    repository.commit("1.2", tag="release-1.2")
    repository.write({"pkg/__init__.py": dedent(V1_0) + '\n\ndef extra():\n    """More."""\n'})
    repository.commit("1.3", tag="release-1.3")
    monkeypatch.chdir(repository.root)
    report = _diff_json(capsys, "release-1.2", "release-1.3")
    assert report["bump"] == "minor"
    assert report["current_version"] == "1.2"
    assert report["next_version"] == "1.3.0"
    assert _found(report) == {("pkg.extra", "symbol_added", "minor")}
