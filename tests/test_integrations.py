"""The GitHub Action (action.yml) and the pre-commit hooks (.pre-commit-hooks.yaml): their
shape, and their scripts run for real against a PR-like clone (no GitHub needed: the
runner's files and variables are stood in for)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from gitrepo import Repo, pyproject

ROOT = Path(__file__).parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
BIN = str(Path(sys.executable).parent)

CORE = '''
"""Core."""


def fetch(url: str) -> bytes:
    """Fetch a URL."""
    return b""
'''


def step(name: str) -> dict[str, Any]:
    steps: list[dict[str, Any]] = ACTION["runs"]["steps"]
    return next(item for item in steps if item["name"] == name)


def bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_action_is_a_composite_action_without_expression_injection() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["outputs"]) == {"bump", "next-version", "label", "changes"}
    for item in ACTION["runs"]["steps"]:
        if "uses" in item:  # the cache and the report's upload: pinned actions, no script
            assert item["uses"] in ("actions/cache@v4", "actions/upload-artifact@v4"), item["name"]
            continue
        assert item["shell"] == "bash"
        # Inputs reach scripts through env:, never pasted into the script text.
        assert "${{" not in item["run"], item["name"]


@pytest.fixture
def pr_clone(tmp_path: Path) -> Path:
    """A clone of ``upstream`` (main at v1.0.0) with a feature branch checked out."""
    upstream = Repo(tmp_path / "upstream")
    upstream.write(
        {
            "pyproject.toml": pyproject("1.0.0"),
            "src/pkg/__init__.py": '"""Pkg."""\n',
            "src/pkg/core.py": CORE,
        }
    ).commit("base", tag="v1.0.0")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", upstream.root.as_uri(), str(clone)], check=True, capture_output=True
    )
    work = Repo(clone, init=False)
    work.git("checkout", "-q", "-b", "feature")
    work.write({"src/pkg/core.py": CORE.replace("url: str", "address: str")}).commit("break")
    return clone


def test_diff_step_writes_summary_outputs_annotations_and_sarif(
    pr_clone: Path, tmp_path: Path
) -> None:
    runner = tmp_path / "runner"
    runner.mkdir()
    env = {
        "BASE": "",
        "HEAD": ".",
        "PACKAGE": "",
        "BASE_REF": "main",
        "ANNOTATIONS": "true",
        "SARIF": str(runner / "api.sarif"),
        "RUNNER_TEMP": str(runner),
        "GITHUB_STEP_SUMMARY": str(runner / "summary.md"),
        "GITHUB_OUTPUT": str(runner / "output.txt"),
    }
    completed = bash(step("Diff the public API")["run"], pr_clone, env)
    assert completed.returncode == 0, completed.stderr
    assert (
        "::error file=src/pkg/core.py,line=4,title=MAJOR API change (parameter_renamed)"
        "::pkg.core.fetch(url): parameter renamed url -> address"
    ) in completed.stdout
    outputs = dict(line.split("=", 1) for line in (runner / "output.txt").read_text().splitlines())
    assert outputs["bump"] == "major"
    assert outputs["next-version"] == "2.0.0"
    assert outputs["label"] == "semver:major"
    assert int(outputs["changes"]) > 0
    comment = Path(outputs["comment"]).read_text(encoding="utf-8")
    assert comment.startswith("<!-- apisurface-report -->\n")
    assert (runner / "summary.md").read_text(encoding="utf-8") == comment
    assert '"version": "2.1.0"' in (runner / "api.sarif").read_text(encoding="utf-8")


def test_diff_step_outside_a_pull_request_uses_the_latest_tag(
    pr_clone: Path, tmp_path: Path
) -> None:
    env = {
        "BASE": "",
        "HEAD": ".",
        "PACKAGE": "",
        "BASE_REF": "",
        "ANNOTATIONS": "false",
        "SARIF": "",
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
    }
    completed = bash(step("Diff the public API")["run"], pr_clone, env)
    assert completed.returncode == 0, completed.stderr
    assert "bump=major" in (tmp_path / "output.txt").read_text()
    assert "`v1.0.0` -> `working tree`" in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize(
    ("bump", "fail_on", "changes", "code"),
    [
        ("major", "minor", "3", 1),
        ("minor", "minor", "1", 1),
        ("patch", "minor", "1", 0),
        ("minor", "major", "1", 0),
        ("patch", "patch", "1", 1),
        ("patch", "patch", "0", 0),
    ],
)
def test_fail_on_step(tmp_path: Path, bump: str, fail_on: str, changes: str, code: int) -> None:
    """Zero changes reach no --fail-on level, not even patch."""
    completed = bash(
        step("Fail on the required bump")["run"],
        tmp_path,
        {"BUMP": bump, "FAIL_ON": fail_on, "CHANGES": changes},
    )
    assert completed.returncode == code


def test_pre_commit_hooks_run_the_snapshot_check(pr_clone: Path) -> None:
    hooks = {hook["id"]: hook for hook in HOOKS}
    assert set(hooks) == {"apisurface-snapshot", "apisurface-snapshot-update"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["pass_filenames"] is False
    check = hooks["apisurface-snapshot"]["entry"]
    update = hooks["apisurface-snapshot-update"]["entry"]
    first = bash(check, pr_clone, {})
    assert first.returncode == 1
    assert "api_snapshots/pkg.json does not exist" in first.stdout
    assert bash(update, pr_clone, {}).returncode == 0
    assert bash(check, pr_clone, {}).returncode == 0
    (pr_clone / "src/pkg/core.py").write_text(CORE.replace("fetch", "get"), encoding="utf-8")
    stale = bash(check, pr_clone, {})
    assert stale.returncode == 1
    assert "pkg.core.get: function added" in stale.stdout
    assert shlex.split(check)[0] == "apisurface"


FAKE_GH = """#!/usr/bin/env bash
# Stands in for the GitHub CLI: logs each call; the token acts for user GH_USER_ID (the
# bot's, 41898282, by default); lists COMMENTS, or the bot's one comment EXISTING.
echo "gh $*" >> "$GH_LOG"
bot=41898282
case "$1 $2" in
  "api graphql") echo "${GH_USER_ID:-$bot}" ;;
  "api repos/o/r/issues/7/comments")
    if [ -n "${COMMENTS:-}" ]; then printf '%s' "$COMMENTS"
    elif [ -n "${EXISTING:-}" ]; then
      printf '[{"id": %s, "user": {"id": %s}, ' "$EXISTING" "$bot"
      printf '"body": "<!-- apisurface-report --> old"}]'
    else echo "[]"; fi ;;
esac
"""


@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        ("", "gh api --silent -X POST repos/o/r/issues/7/comments -F body=@"),
        ("991", "gh api --silent -X PATCH repos/o/r/issues/comments/991 -F body=@"),
    ],
)
def test_comment_step_updates_one_comment_in_place(
    tmp_path: Path, existing: str, expected: str
) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "gh").write_text(FAKE_GH, encoding="utf-8")
    (fake / "gh").chmod(0o755)
    body = tmp_path / "comment.md"
    body.write_text("<!-- apisurface-report -->\nbody\n", encoding="utf-8")
    log = tmp_path / "gh.log"
    env = {
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
        "GH_LOG": str(log),
        "GH_TOKEN": "x",
        "GITHUB_REPOSITORY": "o/r",
        "PR": "7",
        "BODY": str(body),
        "EXISTING": existing,
    }
    completed = subprocess.run(
        ["bash", "-c", step("Comment on the pull request")["run"]],
        cwd=tmp_path,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert calls[0].startswith("gh api graphql")
    assert calls[1] == "gh api repos/o/r/issues/7/comments --paginate"
    assert calls[2] == expected + str(body)
    assert len(calls) == 3


def test_label_step_replaces_the_other_semver_labels(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "gh").write_text(FAKE_GH, encoding="utf-8")
    (fake / "gh").chmod(0o755)
    log = tmp_path / "gh.log"
    env = {
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
        "GH_LOG": str(log),
        "GITHUB_REPOSITORY": "o/r",
        "PR": "7",
        "LABEL": "semver:minor",
    }
    completed = subprocess.run(
        ["bash", "-c", step("Label the pull request")["run"]],
        cwd=tmp_path,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert "gh pr edit 7 --repo o/r --remove-label semver:major" in calls
    assert "gh pr edit 7 --repo o/r --remove-label semver:patch" in calls
    assert calls[-1] == "gh pr edit 7 --repo o/r --add-label semver:minor"


@pytest.mark.parametrize(("fork", "warned"), [("true", True), ("false", False)])
def test_verify_is_refused_on_pull_requests_from_forks(
    pr_clone: Path, tmp_path: Path, fork: str, warned: bool
) -> None:
    """A fork's tree could turn verification on ([tool.apisurface] verify): the step sets
    APISURFACE_VERIFY=0 for it, which refuses verification whatever asks for it."""
    runner = tmp_path / "runner"
    runner.mkdir()
    env = {
        "BASE": "",
        "HEAD": ".",
        "PACKAGE": "",
        "BASE_REF": "main",
        "ANNOTATIONS": "false",
        "SARIF": "",
        "VERIFY": "true",
        "FORK": fork,
        "RUNNER_TEMP": str(runner),
        "GITHUB_STEP_SUMMARY": str(runner / "summary.md"),
        "GITHUB_OUTPUT": str(runner / "output.txt"),
    }
    script = step("Diff the public API")["run"].replace(
        'python -I -m apisurface diff "${args[@]}"',
        'echo "APISURFACE_VERIFY=$APISURFACE_VERIFY"; exit 0',
    )
    completed = bash(script, pr_clone, env)
    assert completed.returncode == 0, completed.stderr
    refused = "::warning title=apisurface::verify refused: this pull request comes from a fork"
    assert (refused in completed.stdout) is warned
    assert f"APISURFACE_VERIFY={'0' if warned else '1'}" in completed.stdout
    assert ACTION["inputs"]["verify"]["default"] == "false"
