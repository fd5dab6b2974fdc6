"""`apisurface check` end to end on real git repositories: the snapshot as a golden file,
the declared version against the last release tag, and the bad-input paths."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

CORE_V1 = '''
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


def released(tmp_path: Path, version: str = "1.0.0", *, tag: str | None = "v1.0.0") -> Repo:
    """A repository whose first commit is released (tagged) at ``version``."""
    repo = Repo(tmp_path / "repo")
    repo.write(
        {
            "pyproject.toml": pyproject(version),
            "src/pkg/__init__.py": INIT,
            "src/pkg/core.py": CORE_V1,
        }
    )
    return repo.commit("release", tag=tag)


def snapshot(
    repo: Repo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo.root)
    assert run(capsys, "snapshot", "-q")[0] == 0
    repo.commit("snapshot")


def test_first_release_without_tags_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, tag=None)
    snapshot(repo, capsys, monkeypatch)
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert "PASS snapshot current" in out
    assert "no release tags: treated as the first release" in out
    assert run(capsys, "check", "--quiet") == (0, "", "")


def test_stale_snapshot_shows_changes_and_how_to_update(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    snapshot(repo, capsys, monkeypatch)
    repo.write({"src/pkg/core.py": CORE_V1 + '\n\ndef post(url: str) -> None:\n    """Post."""\n'})
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 1
    assert "FAIL snapshot current: api_snapshots/pkg.json is stale: 1 change not recorded" in out
    assert "pkg.core.post: function added [minor]" in out
    assert "-> run 'apisurface snapshot' and commit api_snapshots/pkg.json" in out
    # The advice works: after it, the check passes.
    assert run(capsys, "snapshot", "-q")[0] == 0
    assert run(capsys, "check", "--no-version")[0] == 0


def test_missing_snapshot_fails_with_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 1
    assert "api_snapshots/pkg.json does not exist" in out
    assert "apisurface snapshot" in out


def test_corrupt_snapshot_is_a_failed_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    repo.write({"api_snapshots/pkg.json": "{not json"})
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "check", "--no-version")
    assert code == 1
    assert "cannot be read" in out


def test_snapshot_advice_names_the_source_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    released(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", "repo", "--no-version")
    assert code == 1
    assert "run 'apisurface snapshot repo'" in out


@pytest.mark.parametrize(
    ("version", "code", "message"),
    [
        ("1.0.0", 1, "needs MINOR: 1 backward-compatible addition, but the version is still 1.0.0"),
        (
            "1.0.1",
            1,
            "needs MINOR: 1 backward-compatible addition, but the version goes 1.0.0 -> 1.0.1",
        ),
        ("1.1.0", 0, "1.0.0 -> 1.1.0 covers MINOR (1 backward-compatible addition since v1.0.0)"),
        ("1.1.0rc1", 0, "1.0.0 -> 1.1.0rc1 covers MINOR"),
        ("2.0.0", 0, "covers MINOR"),
        ("0.9.0", 1, "the version goes backwards: v1.0.0 released 1.0.0"),
    ],
)
def test_minor_change_needs_a_minor_version(
    tmp_path: Path,
    *,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    version: str,
    code: int,
    message: str,
) -> None:
    repo = released(tmp_path)
    repo.write(
        {
            "pyproject.toml": pyproject(version),
            "src/pkg/core.py": CORE_V1 + '\n\ndef post(url: str) -> None:\n    """Post."""\n',
        }
    )
    snapshot(repo, capsys, monkeypatch)
    got, out, _ = run(capsys, "check")
    assert got == code, out
    assert message in out


@pytest.mark.parametrize(
    ("version", "code"),
    [("1.1.0", 1), ("2.0.0", 0), ("2.0.0rc1", 0), ("2.0.0.dev3", 0), ("1.9.9", 1)],
)
def test_breaking_change_needs_a_major_version(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    version: str,
    code: int,
) -> None:
    repo = released(tmp_path)
    repo.write(
        {
            "pyproject.toml": pyproject(version),
            "src/pkg/core.py": CORE_V1.replace(", timeout: float = 1.0", "").replace(
                "def fetch(url: str)", "def fetch(url: str, retries: int)"
            ),
        }
    )
    snapshot(repo, capsys, monkeypatch)
    got, out, _ = run(capsys, "check")
    assert got == code, out
    if code:
        # One change per object: pkg.Client.get and pkg.core.Client.get are one method.
        assert f"needs MAJOR: 2 breaking changes, but the version goes 1.0.0 -> {version}" in out
        assert (
            "pkg.Client.get(timeout) (also at pkg.core.Client.get(timeout)): parameter removed "
            "[parameter_removed, major] src/pkg/core.py:"
        ) in out
        assert "set the version to 2.0.0 or later" in out


def test_nothing_public_changed_needs_no_new_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    repo.write({"src/pkg/core.py": CORE_V1.replace('return b""', "return bytes()")})
    snapshot(repo, capsys, monkeypatch)
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert "1.0.0 is the released version and nothing public changed" in out


def test_accepted_change_no_longer_raises_the_bump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    accept = """
    [[tool.apisurface.accept]]
    path = "pkg.core.Client.get"
    rule = "parameter_removed"
    reason = "timeout never worked"

    [[tool.apisurface.accept]]
    path = "pkg.Client.get(timeout)"
    rule = "parameter_removed"
    reason = "timeout never worked"
    """
    repo.write(
        {
            "pyproject.toml": pyproject("1.0.1", accept),
            "src/pkg/core.py": CORE_V1.replace(", timeout: float = 1.0", ""),
        }
    )
    snapshot(repo, capsys, monkeypatch)
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert "covers PATCH" in out
    # The accepted change still shows in reports, marked accepted.
    code, out, _ = run(capsys, "diff", "v1.0.0", ".", "--format", "json")
    assert '"accepted": "timeout never worked"' in out
    assert '"bump": "patch"' in out
    assert '"stale_accepts": []' in out


def test_latest_tag_is_chosen_by_version_not_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, "1.10.0", tag="v1.10.0")
    # An older line's bug-fix release, tagged later in time.
    repo.git("tag", "v1.9.3", "HEAD")
    repo.git("tag", "nightly", "HEAD")
    repo.write({"src/pkg/core.py": CORE_V1 + '\n\ndef post(url: str) -> None:\n    """Post."""\n'})
    repo.write({"pyproject.toml": pyproject("1.11.0")})
    snapshot(repo, capsys, monkeypatch)
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert "1.10.0 -> 1.11.0 covers MINOR (1 backward-compatible addition since v1.10.0)" in out
    # --against names another release.
    code, out, _ = run(capsys, "check", "--against", "v1.9.3")
    assert "since v1.9.3" in out


def test_against_a_branch_uses_its_declared_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path, tag=None)
    repo.git("branch", "stable")
    repo.write({"pyproject.toml": pyproject("1.0.1")})
    snapshot(repo, capsys, monkeypatch)
    code, out, _ = run(capsys, "check", "--against", "stable")
    assert code == 0, out
    assert "1.0.0 -> 1.0.1 covers PATCH" in out


def shallow_clone(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand in a clone of ``repo`` with one commit and no tags (as CI checkouts are)."""
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", "--no-tags", repo.root.as_uri(), str(clone)],
        check=True,
        capture_output=True,
    )
    monkeypatch.chdir(clone)


def test_shallow_clone_without_tags_says_how_to_fetch_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    snapshot(repo, capsys, monkeypatch)
    shallow_clone(repo, tmp_path, monkeypatch)
    code, out, _ = run(capsys, "check")
    assert code == 1
    assert "no release tags in this shallow clone" in out
    assert "git fetch --tags --unshallow" in out


def test_outside_git_the_version_check_has_nothing_to_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "plain"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "__init__.py").write_text('"""Pkg."""\n', encoding="utf-8")
    monkeypatch.chdir(project)
    assert run(capsys, "snapshot", "-q")[0] == 0
    code, out, _ = run(capsys, "check")
    assert code == 0, out
    assert "not a git repository" in out


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("[tool.apisurface]\nrequire_docstring = true\n", "unknown key 'require_docstring'"),
        (
            '[[tool.apisurface.accept]]\npath = "pkg.f"\nrule = "parameter_removed"\n',
            "'reason' is required",
        ),
        (
            '[[tool.apisurface.accept]]\npath = "pkg.f"\nrule = "param_gone"\nreason = "x"\n',
            "unknown rule 'param_gone'",
        ),
        ('[tool.apisurface]\nlevels = { nope = "minor" }\n', "unknown rule 'nope'"),
        (
            '[tool.apisurface]\nlevels = { parameter_removed = "tiny" }\n',
            "levels.parameter_removed must be one of",
        ),
    ],
)
@pytest.mark.parametrize("command", ["check", "release-check"])
def test_invalid_config_is_bad_input_naming_key_and_file(
    tmp_path: Path,
    *,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    table: str,
    message: str,
    command: str,
) -> None:
    repo = released(tmp_path)
    repo.write({"pyproject.toml": pyproject("1.0.0") + table})
    monkeypatch.chdir(repo.root)
    code, out, err = run(capsys, command)
    assert code == 2, out
    assert err.count("\n") == 1
    assert "pyproject.toml" in err
    assert message in err


def test_invalid_config_in_diff_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    repo.write({"pyproject.toml": pyproject("1.0.0", "[tool.apisurface]\nbogus = 1\n")})
    monkeypatch.chdir(repo.root)
    code, _, err = run(capsys, "diff", "v1.0.0", ".")
    assert code == 2
    assert "unknown key 'bogus'" in err
    assert "pyproject.toml" in err


def test_unknown_against_ref_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    snapshot(repo, capsys, monkeypatch)
    code, _, err = run(capsys, "check", "--against", "v9.9.9")
    assert code == 2
    assert "'v9.9.9': no such folder, snapshot or git ref" in err
    assert err.count("\n") == 1


def test_release_check_in_a_shallow_clone_fails_the_release_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = released(tmp_path)
    snapshot(repo, capsys, monkeypatch)
    shallow_clone(repo, tmp_path, monkeypatch)
    code, out, _ = run(capsys, "release-check", "--format", "json")
    assert code == 1
    statuses = {check["name"]: check["status"] for check in json.loads(out)["checks"]}
    assert statuses["snapshot current"] == "pass"
    assert statuses["version bump sufficient"] == "fail"
    assert statuses["breaking changes accepted or major"] == "fail"
    assert statuses["accept entries current"] == "pass"
