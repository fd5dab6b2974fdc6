"""The project object and the git wrapper every command goes through (project/)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from clirun import run
from gitrepo import Repo, pyproject

from apisurface.errors import ConfigError, GitRefError, SourceError
from apisurface.project import git
from apisurface.project.config import Config
from apisurface.project.git import Repository, cat_file_batch, checked_ref, copy_blob
from apisurface.project.project import Project

INIT = '"""Pkg."""\n\n__version__ = "0.3.0"\n\n\ndef f():\n    """F."""\n'


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return (
        Repo(tmp_path / "repo")
        .write({"pkg/__init__.py": INIT, "pyproject.toml": pyproject("1.0.0")})
        .commit("one", tag="v1.0.0")
    )


def _count_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []
    original = git.run

    def counting(args: list[str], cwd: Path, **options: Any) -> bytes:
        calls.append(list(args))
        return original(args, cwd, **options)

    monkeypatch.setattr(git, "run", counting)
    return calls


def test_project_reads_package_config_and_version_once_without_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "__init__.py").write_text(INIT, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        pyproject("2.1.0", '[tool.apisurface]\nexclude = ["pkg.f"]\n'), encoding="utf-8"
    )
    calls = _count_runs(monkeypatch)
    project = Project.load(tmp_path)
    assert (project.package, project.path, project.root) == (
        "pkg",
        tmp_path / "src" / "pkg",
        tmp_path,
    )
    assert project.config.exclude == ("pkg.f",)
    assert project.config.source == "pyproject.toml [tool.apisurface]"
    assert project.version == "2.1.0"  # pyproject.toml wins over __version__
    assert calls == []  # git is asked only when a command needs the repository


def test_project_takes_a_given_configuration_and_raises_one_line_errors(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(INIT, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.apisurface]\nnope = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown key 'nope'"):
        Project.load(tmp_path, "pkg")
    given = Project.load(tmp_path, "pkg", config=Config(exclude=("pkg.f",)))
    assert given.config.exclude == ("pkg.f",)
    assert given.version == "0.3.0"
    with pytest.raises(SourceError, match="no package 'other' found"):
        Project.load(tmp_path, "other")


def test_repository_asks_git_each_question_once(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo.root / "pkg" / "sub").mkdir()
    calls = _count_runs(monkeypatch)
    repository = Repository(repo.root / "pkg" / "sub")
    for _ in range(3):
        assert repository.top().resolve() == repo.root.resolve()
        assert repository.prefix() == "pkg/sub/"
        assert repository.tags() == ["v1.0.0"]
        assert repository.is_shallow() is False
    assert sorted(call[0] for call in calls) == ["rev-parse", "rev-parse", "rev-parse", "tag"]


def test_repository_outside_git(tmp_path: Path) -> None:
    repository = Repository(tmp_path)
    assert repository.top_or_none() is None
    assert repository.is_shallow() is False
    with pytest.raises(GitRefError, match="not a git repository"):
        repository.tags()


@pytest.mark.parametrize("ref", ["", "-x", "--output=/tmp/owned", "v1\x00"])
def test_a_ref_that_looks_like_an_option_never_reaches_git(
    repo: Repo, monkeypatch: pytest.MonkeyPatch, ref: str
) -> None:
    calls = _count_runs(monkeypatch)
    with pytest.raises(GitRefError, match="not a folder, snapshot or git ref"):
        checked_ref(ref)
    with pytest.raises(GitRefError, match="not a folder, snapshot or git ref"):
        Repository(repo.root).commit(ref)
    if ref.startswith("-"):
        assert Repository(repo.root).file_names(ref) is None
    assert calls == []


def test_refs_are_passed_after_end_of_options(repo: Repo) -> None:
    repository = Repository(repo.root)
    commit = repository.commit("v1.0.0")
    assert commit == repo.git("rev-parse", "v1.0.0^{commit}").strip()
    assert repository.file_names("v1.0.0") == ["pkg/__init__.py", "pyproject.toml"]
    with pytest.raises(GitRefError, match=r"Needed a single revision|unknown revision"):
        git.run(["rev-parse", "--verify", "--end-of-options", "nosuch"], repo.root)


def test_git_runs_without_a_shell_prompt_or_locale(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, Any]] = []
    original = subprocess.run

    def recording(argv: list[str], **options: Any) -> Any:
        seen.append({"argv": argv, **options})
        return original(argv, **options)

    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    monkeypatch.setenv("GIT_DIR", "/elsewhere")
    monkeypatch.setattr(subprocess, "run", recording)
    (repo.root / "pkg" / "sub").mkdir()
    git.run(["tag", "--list"], repo.root / "pkg" / "sub")
    (call,) = seen
    hardening = [part for setting in git.HARDENING for part in ("-c", setting)]
    git_dir = repo.root.resolve() / ".git"
    assert call["argv"] == [
        "git",
        f"--git-dir={git_dir}",
        f"--work-tree={repo.root.resolve()}",
        *hardening,
        "tag",
        "--list",
    ]
    assert "safe.bareRepository=explicit" in git.HARDENING
    assert "protocol.allow=never" in git.HARDENING
    assert not call.get("shell")
    assert call["env"]["GIT_TERMINAL_PROMPT"] == "0"
    assert call["env"]["LC_ALL"] == "C"
    assert call["env"]["GIT_CONFIG_NOSYSTEM"] == "1"
    assert call["env"]["GIT_NO_LAZY_FETCH"] == "1"
    assert "GIT_DIR" not in call["env"]
    assert call["timeout"] == git.GIT_TIMEOUT


def test_missing_git_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(GitRefError, match=r"^git is not installed; install git or name folders"):
        git.run(["tag", "--list"], tmp_path)
    with (
        pytest.raises(GitRefError, match=r"^git is not installed"),
        cat_file_batch(tmp_path, ["0" * 40]),
    ):
        pass


def test_blobs_are_streamed_and_checked_against_the_listed_size(repo: Repo, tmp_path: Path) -> None:
    blob = repo.git("rev-parse", "v1.0.0:pkg/__init__.py").strip()
    size = len(INIT.encode())
    target = tmp_path / "copy.py"
    with cat_file_batch(repo.root, [blob, blob]) as stream:
        copy_blob(stream, target, object_id=blob, name="pkg/__init__.py", size=size, limit=size)
        assert target.read_text(encoding="utf-8") == INIT
        with pytest.raises(GitRefError, match=r"blob .* changed size while read"):
            copy_blob(stream, target, object_id=blob, name="x", size=size + 1, limit=size + 1)
    with (
        cat_file_batch(repo.root, ["0" * 40]) as stream,
        pytest.raises(GitRefError, match="is missing in the repository"),
    ):
        copy_blob(stream, target, object_id="0" * 40, name="gone.py", size=1, limit=10)


def test_last_release_prints_the_tag_diff_compares_with(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.commit("two", tag="v1.10.0")
    repo.commit("three", tag="latest")  # no version: skipped
    repo.commit("four", tag="v1.9.0")  # newer commit, lower version
    monkeypatch.chdir(repo.root)
    assert run(capsys, "last-release") == (0, "v1.10.0\n", "")
    code, out, _ = run(capsys, "diff", "--format", "json")
    assert (code, json.loads(out)["old"]) == (0, "v1.10.0")
    empty = Repo(tmp_path / "empty").commit("nothing")
    monkeypatch.chdir(empty.root)
    assert run(capsys, "last-release") == (0, "", "")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "last-release", "-q") == (
        2,
        "",
        f"apisurface: error: {tmp_path} is not in a git repository\n",
    )


def test_check_of_a_module_file_stays_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """git cannot run in a file: that is an error, not "not a git repository"."""
    (tmp_path / "mod.py").write_text('"""M."""\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "check", "mod.py", "--no-cache") == (
        2,
        "",
        "apisurface: error: mod.py: Not a directory\n",
    )
