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
