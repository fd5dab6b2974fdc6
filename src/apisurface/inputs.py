"""Turn what the user names (a folder, a snapshot file, a git ref) into a surface.

A git ref is read straight from the object store (``git ls-tree`` and ``git cat-file``):
the working tree, the index and the branches are never touched. Refs are always passed
after ``--end-of-options`` or as verified object ids, never as options.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from apisurface import index
from apisurface.archives import is_archive, unpack
from apisurface.bump import version_from_tag
from apisurface.cache import SurfaceCache, default_cache_dir, inputs_key
from apisurface.collect import load_surface
from apisurface.config import Config, load_config
from apisurface.errors import ApisurfaceError, GitRefError, SourceError
from apisurface.model import Surface
from apisurface.progress import ProgressCallback
from apisurface.snapshot import is_snapshot_file, read_snapshot

__all__ = ["Loaded", "git_tags", "load_input"]

_WANTED_SUFFIXES = (".py", ".pyi", ".rst", ".md", ".txt", ".toml", ".cfg")
_GIT_TIMEOUT = 120


@dataclass(frozen=True, slots=True)
class Loaded:
    """A surface and how it was named (for reports)."""

    surface: Surface
    label: str
    kind: str  # "folder", "snapshot", "git" or "archive" (a wheel or sdist)
    config: Config
    note: str = ""  # for the user, such as "read from the cache: the index is unreachable"


def load_input(
    spec: str,
    *,
    package: str | None = None,
    cwd: Path | None = None,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> Loaded:
    """Load ``spec``: an existing path wins over a git ref of the same name. With
    ``cache``, surfaces are reused by content (a git ref's blob ids, a folder's texts)."""
    cwd = cwd or Path.cwd()
    path = Path(spec) if Path(spec).is_absolute() else cwd / spec
    if path.exists():
        if is_snapshot_file(path):
            return Loaded(read_snapshot(path), spec, "snapshot", Config())
        if is_archive(path):
            return _load_archive(path, spec, package=package, cache=cache, progress=progress)
        surface = load_surface(path, package, cache=cache, progress=progress)
        root = path if path.is_dir() else path.parent
        return Loaded(surface, spec, "folder", _safe_config(root))
    requirement = index.parse(spec)
    if requirement is not None:
        folder = cache.folder if cache is not None else default_cache_dir()
        archive, note = index.fetch(requirement, folder)
        loaded = _load_archive(archive, spec, package=package, cache=cache, progress=progress)
        surface = loaded.surface
        if surface.version is None:
            surface = replace(surface, version=requirement.version)
        return replace(loaded, surface=surface, note=note)
    if spec.endswith(".json"):
        raise SnapshotMissing(
            f"{spec}: no such snapshot file; create it with 'apisurface snapshot'"
        )
    return _load_git(spec, package=package, cwd=cwd, cache=cache, progress=progress)


def _load_archive(
    path: Path,
    spec: str,
    *,
    package: str | None,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> Loaded:
    """A wheel or source distribution, unpacked into a temporary folder (never built)."""
    with tempfile.TemporaryDirectory(prefix="apisurface-archive-") as folder:
        root = unpack(path, Path(folder))
        try:
            surface = load_surface(root, package, cache=cache, progress=progress)
        except SourceError as error:
            detail = str(error).split(": ", 1)[-1]
            raise SourceError(f"{spec}: {detail}") from None
        config = _safe_config(root)
    return Loaded(surface, spec, "archive", config)


class SnapshotMissing(SourceError):
    """A snapshot path that does not exist."""


def _safe_config(root: Path) -> Config:
    try:
        return load_config(root)
    except ApisurfaceError:
        return Config()


def _git(args: list[str], cwd: Path, *, input_bytes: bytes | None = None) -> bytes:
    try:
        completed = subprocess.run(
            ["git", *args],
            cwd=cwd,
            input=input_bytes,
            capture_output=True,
            timeout=_GIT_TIMEOUT,
            check=False,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"},
        )
    except FileNotFoundError:
        raise GitRefError(
            "git is not installed; install git or name folders or snapshots"
        ) from None
    except subprocess.TimeoutExpired:
        raise GitRefError(f"git {args[0]} took longer than {_GIT_TIMEOUT} s") from None
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitRefError(message[-1] if message else f"git {args[0]} failed")
    return completed.stdout


def _resolve_ref(ref: str, cwd: Path) -> tuple[str, Path, str]:
    """The commit id of ``ref``, the repository's top folder and our prefix in it."""
    if not ref or ref.startswith("-") or "\x00" in ref:
        raise GitRefError(f"{ref!r}: not a folder, snapshot or git ref")
    try:
        top = Path(_git(["rev-parse", "--show-toplevel"], cwd).decode().strip())
        prefix = _git(["rev-parse", "--show-prefix"], cwd).decode().strip()
    except GitRefError:
        raise GitRefError(
            f"{ref!r}: no such folder or snapshot, and {cwd} is not in a git repository"
        ) from None
    try:
        commit = (
            _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], cwd)
            .decode()
            .strip()
        )
    except GitRefError:
        raise GitRefError(
            f"{ref!r}: no such folder, snapshot or git ref; check the name with "
            "'git tag' or 'git branch -a' (in a shallow clone, run 'git fetch --tags')"
        ) from None
    return commit, top, prefix


def _load_git(
    ref: str,
    *,
    package: str | None,
    cwd: Path,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> Loaded:
    commit, top, prefix = _resolve_ref(ref, cwd)
    listing = _git(["ls-tree", "-r", "-z", "--full-tree", commit], top)
    wanted: list[tuple[str, str]] = []
    for entry in listing.split(b"\x00"):
        if not entry:
            continue
        meta, _, name_bytes = entry.partition(b"\t")
        mode, kind, object_id = meta.decode().split()
        name = name_bytes.decode("utf-8", "surrogateescape")
        if kind != "blob" or mode == "120000" or not name.startswith(prefix):
            continue
        if name.endswith(_WANTED_SUFFIXES):
            wanted.append((object_id, name[len(prefix) :]))
    # The blob ids name the content: a surface seen before is reused without extracting.
    key = inputs_key(["git", package or "", *(f"{oid} {name}" for oid, name in wanted)])
    cached = cache.get_surface(key) if cache is not None else None
    with tempfile.TemporaryDirectory(prefix="apisurface-git-") as folder:
        root = Path(folder)
        if cached is not None:
            _extract(top, [item for item in wanted if item[1] == "pyproject.toml"], root)
            surface = cached
        else:
            _extract(top, wanted, root)
            try:
                surface = load_surface(root, package, cache=cache, progress=progress)
            except SourceError as error:
                detail = str(error).split(": ", 1)[-1]
                raise SourceError(f"{ref}: {detail}") from None
            if cache is not None:
                cache.put_surface(key, surface)
        config = _safe_config(root)
    if surface.version is None:
        surface = replace(surface, version=version_from_tag(ref))
    return Loaded(surface, ref, "git", config)


def _extract(top: Path, wanted: list[tuple[str, str]], root: Path) -> None:
    """Write blobs into ``root`` with one ``git cat-file --batch`` call."""
    if not wanted:
        return
    request = "".join(f"{object_id}\n" for object_id, _ in wanted).encode()
    output = _git(["cat-file", "--batch"], top, input_bytes=request)
    position = 0
    real_root = root.resolve()
    for _, relative in wanted:
        header_end = output.index(b"\n", position)
        header = output[position:header_end].split()
        size = int(header[2])
        data = output[header_end + 1 : header_end + 1 + size]
        position = header_end + 1 + size + 1
        parts = PurePosixPath(relative).parts
        if any(part in ("..", "") for part in parts):
            continue
        destination = root.joinpath(*parts)
        if not destination.resolve().is_relative_to(real_root):
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)


def git_tags(cwd: Path) -> list[str]:
    """Tag names of the repository at ``cwd`` (empty when there are none)."""
    output = _git(["tag", "--list"], cwd).decode("utf-8", "replace")
    return [line.strip() for line in output.splitlines() if line.strip()]
