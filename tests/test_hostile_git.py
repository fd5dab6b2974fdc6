"""Git refs and trees a pull request controls (issue 20, the attacks not yet tried): odd
ref names, submodules and symlinks in a tree, a tree of 200k entries, one blob named many
times. Each ends in a surface or one line and exit 2, in bounded time and disk."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from clirun import run
from gitrepo import Repo

import apisurface.release.inputs as inputs_module
from apisurface.release.inputs import load_input

PKG = '"""Pkg."""\ndef f(a):\n    """F."""\n'


def one_line_error(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("apisurface: error: "), err


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    repository = Repo(tmp_path / "repo")
    repository.write({"pkg/__init__.py": PKG}).commit("one", tag="v1")
    monkeypatch.chdir(repository.root)
    return repository


@pytest.mark.parametrize(
    "ref",
    ["-x", "--output=evil", "--exec=touch pwned", "@{-1}", "a b", "v1 --output=evil", "v1\n-x"],
)
def test_odd_ref_names_are_one_line(
    ref: str, repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "diff", "--", ref, "v1")
    one_line_error(code, err)
    assert list(repo.root.iterdir()) == [repo.root / ".git", repo.root / "pkg"]


@pytest.mark.parametrize("name", ["ветка", "tag-é", "v1^{}", "HEAD~0", "@"])
def test_unicode_and_revision_syntax_refs_are_read(
    name: str, repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = name
    if name in ("ветка", "tag-é"):
        repo.git("branch", name)
    code, out, err = run(capsys, "snapshot", ref, "-o", "-")
    assert code == 0, err
    assert "pkg.f" in json.loads(out)["symbols"]


def test_previous_branch_ref_works_when_there_is_one(
    repo: Repo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.git("checkout", "-q", "-b", "other")
    repo.git("checkout", "-q", "main")
    code, out, err = run(capsys, "snapshot", "@{-1}", "-o", "-")
    assert code == 0, err
    assert "pkg.f" in json.loads(out)["symbols"]


def test_submodule_and_outward_symlinks_in_a_tree_are_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = tmp_path / "secret.py"
    secret.write_text('"""Secret."""\ndef leaked():\n    """L."""\n', encoding="utf-8")
    repo = Repo(tmp_path / "repo")
    repo.write({"pkg/__init__.py": PKG})
    (repo.root / "pkg" / "leak.py").symlink_to(secret)
    (repo.root / "pkg" / "docs").symlink_to("/etc", target_is_directory=True)
    repo.git("add", "-A")
    # A submodule entry (a commit in the tree), pointing at a commit that is not here.
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},pkg/sub")
    repo.git("commit", "-q", "-m", "links")
    monkeypatch.chdir(repo.root)
    code, out, err = run(capsys, "snapshot", "HEAD", "-o", "-")
    assert code == 0, err
    symbols = json.loads(out)["symbols"]
    assert "pkg.f" in symbols
    assert not any("leaked" in path or path.startswith("pkg.sub") for path in symbols)


def fast_import(root: Path, entries: list[tuple[str, bytes]]) -> None:
    """A commit on ``main`` naming each blob at its path, written by ``git fast-import``
    (200k entries take about a second; identical contents are stored once)."""
    marks: dict[bytes, int] = {}
    stream = [b""]
    for _, content in entries:
        if content not in marks:
            mark = marks[content] = len(marks) + 1
            stream.append(b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(content), content))
    stream.append(b"commit refs/heads/main\ncommitter t <t@t> 0 +0000\ndata 2\nx\n")
    stream += [b"M 100644 :%d %s\n" % (marks[content], name.encode()) for name, content in entries]
    stream.append(b"\n")
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream), check=True)


def git(root: Path, *args: str, data: str | None = None) -> str:
    completed = subprocess.run(
        ["git", *args], cwd=root, input=data, capture_output=True, text=True, check=True
    )
    return completed.stdout.strip()


def test_a_tree_of_200k_entries_reads_only_what_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """200 folders naming one subtree of 1,000 files: 200,000 entries for ``ls-tree -r``,
    built in a fraction of a second with ``git mktree``."""
    root = tmp_path / "repo"
    fast_import(root, [("pkg/__init__.py", PKG.encode())])
    blob = git(root, "hash-object", "-w", "--stdin", data="x")
    files = git(
        root, "mktree", data="".join(f"100644 blob {blob}\tf{i}.bin\n" for i in range(1000))
    )
    data = git(root, "mktree", data="".join(f"040000 tree {files}\td{i}\n" for i in range(200)))
    package = git(root, "rev-parse", "main:pkg")
    top = git(root, "mktree", data=f"040000 tree {data}\tdata\n040000 tree {package}\tpkg\n")
    commit = git(root, "commit-tree", top, "-m", "wide", data="")
    git(root, "update-ref", "refs/heads/main", commit)
    listing = git(root, "ls-tree", "-r", "--name-only", "main")
    assert listing.count("\n") + 1 == 200_001
    asked: list[str] = []
    original = inputs_module._cat_blobs

    def recording(top: Path, targets: list[tuple[inputs_module._Blob, Path]]) -> None:
        asked.extend(blob.name for blob, _ in targets)
        original(top, targets)

    monkeypatch.setattr(inputs_module, "_cat_blobs", recording)
    loaded = load_input("main", cwd=root, cache=None)
    assert "pkg.f" in loaded.surface.symbols
    assert asked == ["pkg/__init__.py"]


def test_one_blob_named_many_times_is_capped_in_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A few KB of ``.git`` can name one blob just under the per-file cap thousands of
    times: what is extracted from a ref is capped in total, like an archive's members."""
    root = tmp_path / "repo"
    doc = b".. function:: pkg.f\n" + b"x" * 200_000
    entries = [("pkg/__init__.py", PKG.encode())]
    entries += [(f"docs/page{i}.rst", doc) for i in range(40)]
    fast_import(root, entries)
    monkeypatch.setattr(inputs_module, "MAX_EXTRACT_BYTES", 4_000_000)
    monkeypatch.chdir(root)
    code, _, err = run(capsys, "snapshot", "main", "-o", "-", "--no-cache")
    one_line_error(code, err)
    assert "more than" in err
