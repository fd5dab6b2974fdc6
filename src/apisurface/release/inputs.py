"""Turn what the user names (a folder, a snapshot file, a git ref) into a surface.

A git ref is read straight from the object store (``git ls-tree`` and ``git cat-file``):
the working tree, the index and the branches are never touched. Refs are always passed
after ``--end-of-options`` or as verified object ids, never as options.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import IO

from apisurface.compare.bump import version_from_tag
from apisurface.errors import ApisurfaceError, GitRefError, SourceError
from apisurface.model import Surface
from apisurface.progress import ProgressCallback
from apisurface.project import index
from apisurface.project.archives import is_archive, unpack
from apisurface.project.config import Config, load_config
from apisurface.project.locate import locate
from apisurface.project.safeio import MAX_TOML_BYTES
from apisurface.project.sources import MAX_FILE_BYTES, printable
from apisurface.store.cache import SurfaceCache, default_cache_dir, inputs_key
from apisurface.store.snapshot import is_snapshot_file, read_snapshot
from apisurface.surface.collect import configured_package, load_surface
from apisurface.surface.docsources import DOC_SUFFIXES, MAX_DOC_BYTES, docs_folders

__all__ = ["Loaded", "git_tags", "load_input"]

_CODE_SUFFIXES = (".py", ".pyi")
# Nothing the readers use is larger (modules: 8 MiB, docs: 4 MiB, pyproject.toml: 16 MiB).
MAX_BLOB_BYTES = max(MAX_FILE_BYTES, MAX_DOC_BYTES, MAX_TOML_BYTES)
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


@dataclass(frozen=True, slots=True)
class _Blob:
    object_id: str
    name: str  # relative to the folder the ref is read for
    size: int


def _listing(top: Path, commit: str, prefix: str) -> tuple[list[_Blob], list[_Blob]]:
    """The module files (and ``pyproject.toml``) and the docs files of ``commit`` below
    ``prefix``, with their sizes: nothing else is ever read from the object store."""
    listing = _git(["ls-tree", "-r", "-z", "-l", "--full-tree", commit], top)
    code: list[_Blob] = []
    docs: list[_Blob] = []
    for entry in listing.split(b"\x00"):
        if not entry:
            continue
        meta, _, name_bytes = entry.partition(b"\t")
        fields_ = meta.decode("ascii", "replace").split()
        if len(fields_) != 4 or fields_[1] != "blob" or fields_[0] == "120000":
            continue
        name = name_bytes.decode("utf-8", "surrogateescape")
        is_code = name.endswith(_CODE_SUFFIXES) or name.rpartition("/")[2] == "pyproject.toml"
        if not name.startswith(prefix) or not (is_code or name.endswith(DOC_SUFFIXES)):
            continue
        if not fields_[3].isdigit():  # git shows no size for a blob it does not have
            raise GitRefError(
                f"{printable(name)}: blob {fields_[2]} is missing from the repository "
                "(a partial or damaged clone?)"
            )
        blob = _Blob(fields_[2], name[len(prefix) :], int(fields_[3]))
        (code if is_code else docs).append(blob)
    return code, docs


def _load_git(
    ref: str,
    *,
    package: str | None,
    cwd: Path,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> Loaded:
    commit, top, prefix = _resolve_ref(ref, cwd)
    code, docs = _listing(top, commit, prefix)
    # The blob ids name the content: a surface seen before is reused without extracting.
    key = inputs_key(
        ["git", package or "", *(f"{blob.object_id} {blob.name}" for blob in code + docs)]
    )
    cached = cache.get_surface(key) if cache is not None else None
    with tempfile.TemporaryDirectory(prefix="apisurface-git-") as folder:
        root = Path(folder)
        if cached is not None:
            _extract(top, [blob for blob in code if blob.name == "pyproject.toml"], root)
            surface = cached
        else:
            _extract(top, code, root)
            _extract(top, _docs_wanted(root, package, docs), root)
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


def _docs_wanted(root: Path, package: str | None, docs: list[_Blob]) -> list[_Blob]:
    """The docs files in the docs folders of the project found in the extracted code (the
    folders :func:`apisurface.surface.docsources.scan_docs` reads): docs elsewhere are not read."""
    try:
        project = locate(root, package or configured_package(root))
        folders = docs_folders(project.root, load_config(project.root).docs)
    except ApisurfaceError:
        return []
    relative = [folder.relative_to(root).as_posix() for folder in folders]
    return [
        blob
        for blob in docs
        if any(folder == "." or blob.name.startswith(folder + "/") for folder in relative)
    ]


def _extract(top: Path, wanted: list[_Blob], root: Path) -> None:
    """Write blobs into ``root``, streamed one at a time from one ``git cat-file --batch``.

    A blob larger than the readers' cap is not read at all: it becomes a sparse file of its
    size, which the folder reader then reports (or skips) exactly as it would in a folder.
    So memory stays bounded by the cap, whatever the blobs hold (a few KB of ``.git`` can
    hold gigabytes of zeros)."""
    real_root = root.resolve()
    targets: list[tuple[_Blob, Path]] = []
    for blob in wanted:
        parts = PurePosixPath(blob.name).parts
        if not parts or any(part in ("..", "") for part in parts):
            continue
        destination = root.joinpath(*parts)
        if not destination.resolve().is_relative_to(real_root):
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        if blob.size > MAX_BLOB_BYTES:
            with destination.open("wb") as stream:
                stream.truncate(blob.size)
        else:
            targets.append((blob, destination))
    if targets:
        _cat_blobs(top, targets)


def _cat_blobs(top: Path, targets: list[tuple[_Blob, Path]]) -> None:
    with tempfile.TemporaryFile() as request:
        request.write("".join(f"{blob.object_id}\n" for blob, _ in targets).encode())
        request.seek(0)
        try:
            process = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                cwd=top,
                stdin=request,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"},
            )
        except FileNotFoundError:
            raise GitRefError(
                "git is not installed; install git or name folders or snapshots"
            ) from None
        timer = threading.Timer(_GIT_TIMEOUT, process.kill)
        timer.start()
        with process:
            try:
                if process.stdout is None:  # pragma: no cover - stdout=PIPE above
                    raise GitRefError("git cat-file gave no output")
                for blob, destination in targets:
                    _copy_blob(process.stdout, blob, destination)
            finally:
                timer.cancel()
                process.kill()


def _copy_blob(stream: IO[bytes], blob: _Blob, destination: Path) -> None:
    header = stream.readline(200).split()
    if len(header) != 3 or header[1] != b"blob" or not header[2].isdigit():
        what = header[1].decode("ascii", "replace") if len(header) == 2 else "unreadable"
        raise GitRefError(f"{blob.name}: blob {blob.object_id} is {what} in the repository")
    size = int(header[2])
    if size != blob.size or size > MAX_BLOB_BYTES:
        raise GitRefError(f"{blob.name}: blob {blob.object_id} changed size while read")
    with destination.open("wb") as output:
        remaining = size
        while remaining:
            chunk = stream.read(min(remaining, 1 << 20))
            if not chunk:
                raise GitRefError(f"git cat-file stopped inside blob {blob.object_id}")
            output.write(chunk)
            remaining -= len(chunk)
    stream.read(1)  # the newline after each object


def git_tags(cwd: Path) -> list[str]:
    """Tag names of the repository at ``cwd`` (empty when there are none)."""
    output = _git(["tag", "--list"], cwd).decode("utf-8", "replace")
    return [line.strip() for line in output.splitlines() if line.strip()]
