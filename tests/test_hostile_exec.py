"""No code of a pull request runs (issue 39 items 1, 2 and 7; docs/security.md).

The pull request writes the checkout. A folder of it holding ``HEAD``, ``config``,
``objects/`` and ``refs/`` is a bare repository to git, whose configuration can name a
command; a ``multiprocessing.py``, ``json.py``, ``pip.py``, ``encodings/`` or
``sitecustomize.py`` in it is imported by any Python started there with the current folder
on its path. Each test plants such files and shows none of them runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo, pyproject

BASE = '"""Pkg."""\n\n\ndef f(a):\n    """F."""\n\n\ndef g():\n    """G."""\n'
HEAD = '"""Pkg."""\n\n\ndef f(a):\n    """F."""\n'  # g removed: a MAJOR change


def plant_bare_repository(folder: Path, marker: Path) -> None:
    """Make ``folder`` a bare repository to git, as files a pull request can commit: a
    partial clone whose promisor remote's ``uploadpack`` command creates ``marker``, whose
    ``HEAD`` names a commit it does not have (so git fetches it, running the command), and
    whose hooks and fsmonitor would create it too."""
    (folder / "objects" / "info").mkdir(parents=True, exist_ok=True)
    (folder / "objects" / "info" / "keep").write_text("", encoding="utf-8")
    (folder / "refs" / "heads").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / "tags").mkdir(parents=True, exist_ok=True)
    missing = "1" * 40
    (folder / "refs" / "heads" / "main").write_text(missing + "\n", encoding="utf-8")
    (folder / "refs" / "tags" / "v9.0.0").write_text(missing + "\n", encoding="utf-8")
    (folder / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    command = f"touch {marker}"
    (folder / "config").write_text(
        "[core]\n"
        "\trepositoryformatversion = 1\n"
        "\tbare = true\n"
        f"\tfsmonitor = {command}; false\n"
        f"\thooksPath = {folder / 'hooks'}\n"
        "[extensions]\n"
        "\tpartialClone = origin\n"
        '[remote "origin"]\n'
        f"\turl = {folder}\n"
        "\tpromisor = true\n"
        f"\tuploadpack = {command}; git-upload-pack\n",
        encoding="utf-8",
    )
    hooks = folder / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in ("post-checkout", "reference-transaction", "pre-auto-gc"):
        (hooks / hook).write_text(f"#!/bin/sh\n{command}\n", encoding="utf-8")
        (hooks / hook).chmod(0o755)


@pytest.fixture
def monorepo(tmp_path: Path) -> Repo:
    """A repository whose project lives in ``proj/`` (a non-root working directory):
    released as v1.0.0, then ``g`` removed without a version bump; ``proj/`` is also
    planted as a bare repository."""
    repo = Repo(tmp_path / "repo")
    repo.write({"proj/pyproject.toml": pyproject("1.0.0"), "proj/pkg/__init__.py": BASE})
    repo.commit("release", tag="v1.0.0")
    repo.write({"proj/pkg/__init__.py": HEAD}).commit("remove g")
    plant_bare_repository(repo.root / "proj", tmp_path / "pwned")
    repo.commit("plant")
    return repo


def test_git_never_reads_a_bare_repository_planted_in_the_checkout(
    monorepo: Repo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Item 1: run from the planted folder, git took it for the repository (its config: a
    promisor remote whose ``uploadpack`` ran when the missing ``HEAD`` was looked up, and
    its refs: no release, so ``check`` passed the version gate)."""
    monkeypatch.chdir(monorepo.root / "proj")
    code, out, err = run(capsys, "last-release")
    assert not (tmp_path / "pwned").exists()
    assert (code, out.strip()) == (0, "v1.0.0"), err
    code, out, err = run(capsys, "check", "--no-cache")
    assert not (tmp_path / "pwned").exists()
    assert code == 1, out + err
    assert "FAIL version bump sufficient" in out, out
    assert "pkg.g" in out
    code, out, err = run(capsys, "diff", "v1.0.0", ".", "--no-cache", "--format", "json")
    assert not (tmp_path / "pwned").exists()
    assert code == 0, err
    assert '"bump": "major"' in out
    code, out, err = run(capsys, "diff", "v9.0.0", ".", "--no-cache")
    assert not (tmp_path / "pwned").exists()
    assert code == 2 and "v9.0.0" in err  # the planted tag is no ref of the repository


def test_git_never_fetches_a_missing_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 1: even the repository's own configuration cannot make git fetch (a partial
    clone's promisor remote, consulted for a commit id it lacks)."""
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), "pkg/__init__.py": BASE}).commit("one")
    marker = tmp_path / "fetched"
    repo.git("config", "extensions.partialClone", "origin")
    repo.git("config", "core.repositoryformatversion", "1")
    repo.git("config", "remote.origin.url", str(repo.root))
    repo.git("config", "remote.origin.promisor", "true")
    repo.git("config", "remote.origin.uploadpack", f"touch {marker}; git-upload-pack")
    monkeypatch.chdir(repo.root)
    code, _, err = run(capsys, "diff", "2" * 40, ".", "--no-cache")
    assert code == 2, err
    assert not marker.exists()


def test_the_repository_is_named_to_git_not_found_by_it(tmp_path: Path) -> None:
    from apisurface.project.git import Repository, find_git_dir  # noqa: PLC0415

    repo = Repo(tmp_path / "repo")
    repo.write({"pkg/__init__.py": BASE}).commit("one", tag="v1")
    plant_bare_repository(repo.root / "pkg", tmp_path / "pwned")
    assert find_git_dir(repo.root / "pkg") == (repo.root.resolve(), repo.root.resolve() / ".git")
    assert find_git_dir(tmp_path) is None
    repository = Repository(repo.root / "pkg")
    assert repository.top() == repo.root.resolve()
    assert repository.prefix() == "pkg/"
    assert repository.tags() == ["v1"]
    assert not (tmp_path / "pwned").exists()
    listing = subprocess.run(
        ["git", "rev-parse", "--git-dir"], cwd=repo.root / "pkg", capture_output=True, check=False
    )
    assert listing.stdout.strip() == b"."  # git alone takes the planted folder


# --- item 2: no interpreter apisurface starts imports from the checkout ------------------

PLANTED_MODULES = ("multiprocessing", "json", "pip", "concurrent", "griffe", "apisurface")


def plant_modules(folder: Path, marker: Path) -> None:
    """Modules in ``folder`` that record in ``marker`` that they ran: shadows of what a
    child interpreter imports first (``multiprocessing``, ``concurrent``), of what the
    Action's Python imports (``json``, ``pip``), of apisurface and griffe, of ``encodings``
    (imported before anything else) and a ``sitecustomize.py`` (imported at start-up)."""
    code = (
        "import os, sys\n"
        f"with open({str(marker)!r}, 'a') as _f:\n"
        "    _f.write(__name__ + ' ' + ' '.join(sys.argv) + '\\n')\n"
    )
    for name in PLANTED_MODULES:
        (folder / f"{name}.py").write_text(code, encoding="utf-8")
    (folder / "sitecustomize.py").write_text(code, encoding="utf-8")
    (folder / "usercustomize.py").write_text(code, encoding="utf-8")
    (folder / "encodings").mkdir(exist_ok=True)
    (folder / "encodings" / "__init__.py").write_text(code, encoding="utf-8")


def test_workers_never_import_from_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 2: a worker was ``python -c ...`` started in the current folder, which it put
    first on its path: the checkout's ``multiprocessing.py`` ran in it."""
    from apisurface.project.sources import SourceFile  # noqa: PLC0415
    from apisurface.surface.collect import surface_from_sources  # noqa: PLC0415

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    marker = tmp_path / "ran"
    plant_modules(checkout, marker)
    monkeypatch.chdir(checkout)
    monkeypatch.delenv("PYTHONSAFEPATH", raising=False)
    files = [
        SourceFile("pkg", "pkg/__init__.py", BASE),
        SourceFile("pkg.a", "pkg/a.py", '"""A."""\n\n\ndef h():\n    """H."""\n'),
    ]
    surface = surface_from_sources("pkg", files, workers=1)
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert {"pkg.f", "pkg.g", "pkg.a.h"} <= set(surface.symbols)
    assert "PYTHONSAFEPATH" not in __import__("os").environ  # the caller's environment back


# --- item 7: the comment edited is the bot's own ------------------------------------------

ACTION = Path(__file__).parent.parent / "action.yml"
BOT = 41898282  # github-actions[bot]
MARKER = "<!-- apisurface-report -->"

# Stands in for the GitHub CLI: logs each call; the token acts for GH_USER_ID; lists the
# pages of COMMENTS (an array a page, as --paginate prints them), filtered by --jq with the
# jq program when a step asks for it (as gh does).
FAKE_GH = """#!/usr/bin/env bash
echo "gh $*" >> "$GH_LOG"
case "$1 $2" in
  "api graphql") echo "$GH_USER_ID" ;;
  "api repos/o/r/issues/7/comments")
    filter=""
    while [ $# -gt 0 ]; do [ "$1" = "--jq" ] && filter=$2; shift; done
    if [ -n "$filter" ]; then printf '%s' "$COMMENTS" | jq -r "$filter"
    else printf '%s' "$COMMENTS"; fi ;;
esac
"""


def comment_step(tmp_path: Path, pages: list[list[dict[str, object]]]) -> list[str]:
    import json  # noqa: PLC0415
    import os  # noqa: PLC0415

    import yaml  # noqa: PLC0415

    steps = yaml.safe_load(ACTION.read_text(encoding="utf-8"))["runs"]["steps"]
    script = next(item for item in steps if item["name"] == "Comment on the pull request")["run"]
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "gh").write_text(FAKE_GH, encoding="utf-8")
    (fake / "gh").chmod(0o755)
    body = tmp_path / "comment.md"
    body.write_text(MARKER + "\nbody\n", encoding="utf-8")
    log = tmp_path / "gh.log"
    log.write_text("", encoding="utf-8")
    env = {
        **os.environ,
        "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}",
        "GH_LOG": str(log),
        "GH_USER_ID": str(BOT),
        "GH_TOKEN": "x",
        "GITHUB_REPOSITORY": "o/r",
        "PR": "7",
        "BODY": str(body),
        "PUBLIC": "true",
        "RUNNER_TEMP": str(tmp_path),
        "COMMENTS": "\n".join(json.dumps(page) for page in pages),
    }
    completed = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr
    return [line for line in log.read_text(encoding="utf-8").splitlines() if " -X " in line]


def test_the_comment_edited_is_the_bots_own_not_one_carrying_the_marker(tmp_path: Path) -> None:
    """Item 7: the first comment starting with the marker was edited, whoever wrote it:
    the pull request's author wrote one first, and the verdict went into their comment."""
    authors = [
        {"id": 5, "user": {"id": 777}, "body": MARKER + "\nbump=patch, trust me"},
        {"id": 6, "user": {"id": BOT}, "body": "another bot's note, no marker"},
    ]
    ours = [{"id": 9, "user": {"id": BOT}, "body": MARKER + "\nthe last verdict"}]
    writes = comment_step(tmp_path, [authors, ours])  # the bot's on the second page
    assert writes == [
        f"gh api --silent -X PATCH repos/o/r/issues/comments/9 -F body=@{tmp_path}/comment.md"
    ]
    writes = comment_step(tmp_path, [authors])
    assert writes == [
        f"gh api --silent -X POST repos/o/r/issues/7/comments -F body=@{tmp_path}/comment.md"
    ]


# --- the whole repository: the Action's steps and the commands on a planted checkout ------

OTHER = '"""Other."""\n\n\ndef h():\n    """H."""\n'


def action_step(name: str) -> dict[str, object]:
    import yaml  # noqa: PLC0415

    steps: list[dict[str, object]] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))["runs"][
        "steps"
    ]
    return next(item for item in steps if item["name"] == name)


def test_nothing_of_the_pull_request_runs_in_the_action_or_the_commands(tmp_path: Path) -> None:
    """Issue 39, done when: every file above planted in a checkout (at its root and in the
    project folder the Action works in), the Action's steps run as scripts, then ``diff``,
    ``check`` and ``migrate`` (with a worker process each), and nothing planted runs."""
    import os  # noqa: PLC0415
    import sys  # noqa: PLC0415

    upstream = Repo(tmp_path / "upstream")
    upstream.write(
        {
            "proj/pyproject.toml": pyproject("1.0.0"),
            "proj/pkg/__init__.py": BASE,
            "proj/pkg/other.py": OTHER,
        }
    ).commit("release", tag="v1.0.0")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", upstream.root.as_uri(), str(clone)], check=True, capture_output=True
    )
    work = Repo(clone, init=False)
    work.git("checkout", "-q", "-b", "feature")
    work.write({"proj/pkg/__init__.py": HEAD, "users/use.py": "from pkg import g\n\ng()\n"})
    marker = tmp_path / "ran"
    project = clone / "proj"
    for folder in (clone, project, clone / "users"):
        plant_modules(folder, marker)
    plant_bare_repository(project, marker)
    work.commit("the pull request")

    runner = tmp_path / "runner"
    runner.mkdir()
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "RUNNER_TEMP": str(runner),
        "GITHUB_WORKSPACE": str(clone),
        "GITHUB_ACTION_PATH": str(ACTION.parent),
        "GITHUB_STEP_SUMMARY": str(runner / "summary.md"),
        "GITHUB_OUTPUT": str(runner / "output.txt"),
        "APISURFACE_CACHE_DIR": str(runner / "cache"),
        "APISURFACE_WORKERS": "1",
        "PYTHONPATH": ".",  # a workflow's setting: the checkout, for a Python that reads it
        "INSTALL": "--help",  # pip runs, installs nothing
        "BASE": "",
        "HEAD": ".",
        "PACKAGE": "",
        "BASE_REF": "main",
        "ANNOTATIONS": "true",
        "SARIF": "",
    }

    def bash(step: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        script = str(action_step(step)["run"])
        return subprocess.run(
            ["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, check=False
        )

    def planted() -> str:
        return marker.read_text(encoding="utf-8") if marker.exists() else ""

    installed = bash("Install apisurface", clone)
    assert installed.returncode == 0, installed.stderr
    assert planted() == "", "install: " + planted()
    diffed = bash("Diff the public API", project)
    assert diffed.returncode == 0, diffed.stderr
    assert planted() == "", "diff step: " + planted()
    outputs = dict(
        line.split("=", 1)
        for line in (runner / "output.txt").read_text(encoding="utf-8").splitlines()
    )
    assert outputs["bump"] == "major"  # g removed, against the real base
    checked = bash("Check the snapshot and the version", project)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "FAIL version bump sufficient" in checked.stdout
    assert planted() == "", "check step: " + planted()

    def apisurface(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(Path(sys.executable).parent / "apisurface"), *args],
            cwd=project,
            env={**env, "PYTHONPATH": ""},
            capture_output=True,
            text=True,
            check=False,
        )

    diff = apisurface("diff", "v1.0.0", ".", "--format", "json", "--no-cache")
    assert diff.returncode == 0, diff.stderr
    assert '"bump": "major"' in diff.stdout
    check = apisurface("check", "--no-cache")
    assert check.returncode == 1 and "FAIL version bump sufficient" in check.stdout
    migrate = apisurface("migrate", "v1.0.0", ".", str(clone / "users"), "--no-cache")
    assert migrate.returncode == 1, migrate.stderr  # the use of g is left, and said
    assert "pkg.g" in migrate.stdout + migrate.stderr
    assert planted() == "", "commands: " + planted()
