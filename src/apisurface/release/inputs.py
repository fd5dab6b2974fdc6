"""Turn what the user names (a folder, a snapshot file, a git ref) into a surface.

A git ref is read straight from the object store (``git ls-tree`` and ``git cat-file``):
the working tree, the index and the branches are never touched. Refs are always passed
after ``--end-of-options`` or as verified object ids, never as options.
"""

from __future__ import annotations

import contextlib
import difflib
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from apisurface.compare.bump import version_from_tag
from apisurface.errors import ApisurfaceError, GitRefError, SourceError, UnreadableSourceError
from apisurface.model import ENGINE, Surface
from apisurface.progress import ProgressCallback
from apisurface.project.archives import is_archive, unpack
from apisurface.project.config import Config, load_config
from apisurface.project.git import Repository, cat_file_batch, checked_ref, copy_blob
from apisurface.project.origins import source_root
from apisurface.project.project import Project
from apisurface.project.safeio import MAX_TOML_BYTES
from apisurface.project.sources import MAX_FILE_BYTES, printable
from apisurface.store import index
from apisurface.store.cache import SurfaceCache, default_cache_dir, inputs_key
from apisurface.store.snapshot import is_snapshot_file, read_snapshot
from apisurface.surface.collect import project_surface
from apisurface.surface.docsources import DOC_SUFFIXES, MAX_DOC_BYTES, docs_folders

__all__ = [
    "Loaded",
    "checked_out",
    "derive_again",
    "engine_text",
    "load_input",
    "refuse_unreadable",
]

_CODE_SUFFIXES = (".py", ".pyi")
_PROJECT_FILES = ("pyproject.toml", "setup.cfg")
# Nothing the readers use is larger (modules: 8 MiB, docs: 4 MiB, pyproject.toml: 16 MiB).
MAX_BLOB_BYTES = max(MAX_FILE_BYTES, MAX_DOC_BYTES, MAX_TOML_BYTES)
MAX_EXTRACT_BYTES = 1 << 30
"""The most bytes extracted from a git ref at once (the code, then the docs): a few KB of
``.git`` can name one blob just under :data:`MAX_BLOB_BYTES` thousands of times."""
MAX_EXTRACT_FILES = 200_000
# How changelog files start (any case, any suffix): release-check reads them.
CHANGELOG_NAMES = ("changelog", "changes", "news", "history")


@dataclass(frozen=True, slots=True)
class Loaded:
    """A surface and how it was named (for reports)."""

    surface: Surface
    label: str
    kind: str  # "folder", "snapshot", "git" or "archive" (a wheel or sdist)
    config: Config
    note: str = ""  # for the user, such as "read from the cache: the index is unreachable"
    project: Project | None = None  # the project read, for a folder


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
            snapshot = Loaded(read_snapshot(path), spec, "snapshot", Config())
            again = derive_again(snapshot.surface, path, cwd, cache=cache, progress=progress)
            return snapshot if again is None else replace(again, label=spec)
        if is_archive(path):
            return _load_archive(path, spec, package=package, cache=cache, progress=progress)
        project = Project.load(path, package)
        surface = project_surface(project, cache=cache, progress=progress)
        root = path if path.is_dir() else path.parent
        return Loaded(surface, spec, "folder", _report_config(project, root), project=project)
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


def refuse_unreadable(
    surface: Surface,
    spec: str,
    kind: str,
    *,
    project: Project | None = None,
    cwd: Path | None = None,
) -> None:
    """Stop with :class:`UnreadableSourceError` when a file the public surface of
    ``spec`` reaches does not parse, decode or read (issue 37: bad input is an error, never
    a finding). Each is named as compilers name it: relative to the current folder for a
    folder, ``REF:path`` for a git ref, ``SPEC:path`` for a release or a snapshot."""
    errors = [problem for problem in surface.problems if problem.error]
    if not errors:
        return
    cwd = cwd or Path.cwd()
    lines = []
    root = source_root(spec, "git", surface.package, cwd) if kind == "git" else ""
    for problem in errors:
        file, position = problem.file, problem.where[len(problem.file) :]
        if kind == "folder" and project is not None:
            full = (project.location.path.parent / file).absolute()
            inside = full.is_relative_to(cwd.absolute())
            file = (full.relative_to(cwd.absolute()) if inside else full).as_posix()
        elif kind == "git":
            file = f"{spec}:{root + '/' if root else ''}{file}"
        else:
            file = f"{spec}:{file}"
        lines.append(f"{printable(file)}{position}: {problem.message}")
    files = "1 file" if len(errors) == 1 else f"{len(errors)} files"
    name = "the working tree" if spec in (".", "./") else spec
    raise UnreadableSourceError(
        f"{name}: {files} of package {surface.package} that the public surface reaches "
        "could not be read (above): fix them, or pass --allow-incomplete to analyse without "
        "them (then nothing resting on them is proven)",
        tuple(lines),
    )


def engine_text(surface: Surface) -> str:
    """Which engine made ``surface``, for a reader: "rules engine 1" or "an unknown engine"."""
    if surface.engine is None:
        return "an unknown apisurface engine (recorded before engines were)"
    return f"apisurface rules engine {surface.engine}"


def derive_again(
    snapshot: Surface,
    path: Path,
    cwd: Path,
    *,
    cache: SurfaceCache | None = None,
    progress: ProgressCallback | None = None,
) -> Loaded | None:
    """When another apisurface engine made the snapshot file ``path`` and the source it
    describes is at hand, that source's surface under this engine: the commit that last
    wrote the file (when the file is unmodified), else a release tag of the snapshot's
    version. ``None`` when the engine is this one or no such source can be read; then
    what differs from the snapshot may come from the rules, not the code."""
    if not snapshot.other_engine:
        return None
    repository = Repository(cwd)
    refs: list[tuple[str, str]] = []
    commit = repository.last_commit_of(path)
    if commit is not None:
        refs.append((commit, f"commit {commit[:12]}, which wrote it"))
    if snapshot.version is not None:
        try:
            tags = repository.tags()
        except (ApisurfaceError, OSError):
            tags = []
        refs.extend(
            (tag, f"tag {tag}")
            for tag in sorted(tags)
            if version_from_tag(tag) in (snapshot.version, f"v{snapshot.version}")
        )
    for ref, what in refs:
        try:
            loaded = _load_git(
                ref, package=snapshot.package, cwd=cwd, cache=cache, progress=progress
            )
        except (ApisurfaceError, OSError):
            continue
        if loaded.surface.package != snapshot.package:
            continue
        note = (
            f"{path.name} was made by {engine_text(snapshot)}; this is rules engine "
            f"{ENGINE}: its surface was derived again from {what}"
        )
        return replace(loaded, note=note)
    return None


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
            project = Project.load(root, package)
            surface = project_surface(project, cache=cache, progress=progress)
        except SourceError as error:
            raise _named(error, spec) from None
        config = _report_config(project, root)
    return Loaded(surface, spec, "archive", config)


class SnapshotMissing(SourceError):
    """A snapshot path that does not exist."""


def _safe_config(root: Path) -> Config:
    try:
        return load_config(root)
    except ApisurfaceError:
        return Config()


def _report_config(project: Project, root: Path) -> Config:
    """The settings a report uses: those of the folder named, ``root``. That is the
    project's own configuration, unless the package's project folder is another one
    (deeper in a monorepo), whose ``pyproject.toml`` is then read as well."""
    return project.config if project.root == root else _safe_config(root)


def _named(error: SourceError, label: str) -> SourceError:
    """``error`` about a temporary folder, told about what the user named instead."""
    detail = str(error).split(": ", 1)[-1]
    return SourceError(f"{label}: {detail}")


def _resolve_ref(ref: str, repository: Repository) -> tuple[str, str]:
    """The commit id of ``ref`` and our folder's prefix in the repository."""
    checked_ref(ref)
    try:
        repository.top()
        prefix = repository.prefix()
    except GitRefError:
        raise GitRefError(
            f"{ref!r}: no such folder or snapshot, and {repository.cwd} is not in a git repository"
        ) from None
    try:
        commit = repository.commit(ref)
    except GitRefError:
        like = _tag_like(ref, repository)
        advice = (
            f"did you mean the tag {like!r}?"
            if like
            else "check the name with 'git tag' or 'git branch -a' (in a shallow clone, run "
            "'git fetch --tags')"
        )
        raise GitRefError(f"{ref!r}: no such folder, snapshot or git ref; {advice}") from None
    return commit, prefix


def _tag_like(ref: str, repository: Repository) -> str:
    """A tag ``ref`` nearly names: one that extends it (``v8.4`` -> ``v8.4.0``), else the
    closest spelling; "" when none is near."""
    try:
        tags = repository.tags()
    except (ApisurfaceError, OSError):
        return ""
    longer = sorted(tag for tag in tags if tag.startswith(ref + "."))
    found = longer[:1] or difflib.get_close_matches(ref, sorted(tags), n=1, cutoff=0.75)
    return found[0] if found else ""


@dataclass(frozen=True, slots=True)
class _Blob:
    object_id: str
    name: str  # relative to the folder the ref is read for
    size: int


def _listing(
    repository: Repository,
    commit: str,
    prefix: str,
    *,
    also: Callable[[str], bool] = lambda name: False,
) -> tuple[list[_Blob], list[_Blob]]:
    """The module files (and ``pyproject.toml``, ``setup.cfg``) and the docs files of
    ``commit`` below ``prefix``, with their sizes: nothing else is ever read from the
    object store (but the files ``also`` accepts, by their name below ``prefix``, listed
    with the docs)."""
    listing = repository.tree(commit)
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
        # setup.cfg too: it may say which top-level packages ship together.
        is_code = name.endswith(_CODE_SUFFIXES) or name.rpartition("/")[2] in _PROJECT_FILES
        if not name.startswith(prefix):
            continue
        if not (is_code or name.endswith(DOC_SUFFIXES) or also(name[len(prefix) :])):
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
    repository = Repository(cwd)
    commit, prefix = _resolve_ref(ref, repository)
    code, docs = _listing(repository, commit, prefix)
    top = repository.top()
    # The blob ids name the content: a surface seen before is reused without extracting.
    key = inputs_key(
        ["git", package or "", *(f"{blob.object_id} {blob.name}" for blob in code + docs)]
    )
    cached = cache.get_surface(key) if cache is not None else None
    with tempfile.TemporaryDirectory(prefix="apisurface-git-") as folder:
        root = Path(folder)
        if cached is not None:
            _extract(top, [blob for blob in code if blob.name == "pyproject.toml"], root, ref)
            surface = cached
            config = _safe_config(root)
        else:
            _extract(top, code, root, ref)
            try:
                project = Project.load(root, package)
                # Only the docs folders of the project found are read from the object store.
                _extract(top, _docs_wanted(project, root, docs), root, ref)
                surface = project_surface(project, cache=cache, progress=progress)
            except SourceError as error:
                raise _named(error, ref) from None
            if cache is not None:
                cache.put_surface(key, surface)
            config = _report_config(project, root)
    if surface.version is None:
        surface = replace(surface, version=version_from_tag(ref))
    return Loaded(surface, ref, "git", config)


def _project_file(name: str) -> bool:
    """What check and release-check read beside modules and docs: the snapshot files
    (``api_snapshots/*.json``) and the changelogs (any suffix)."""
    folder, _, file = name.rpartition("/")
    if folder.rpartition("/")[2] == "api_snapshots" and file.endswith(".json"):
        return True
    return file.lower().startswith(CHANGELOG_NAMES)


@contextlib.contextmanager
def checked_out(ref: str, *, cwd: Path | None = None) -> Iterator[Path]:
    """The project files of git ref ``ref`` (below the folder ``cwd`` is in the
    repository) in a temporary folder, for the commands that read a project folder
    (``check``, ``release-check``): modules, ``pyproject.toml``, docs sources, snapshot
    files and changelogs, read from the object store like any ref (the working tree is
    not touched). The folder is removed afterwards."""
    repository = Repository(cwd or Path.cwd())
    commit, prefix = _resolve_ref(ref, repository)
    code, others = _listing(repository, commit, prefix, also=_project_file)
    with tempfile.TemporaryDirectory(prefix="apisurface-ref-") as folder:
        _extract(repository.top(), code + others, Path(folder), ref)
        yield Path(folder)


def _docs_wanted(project: Project, root: Path, docs: list[_Blob]) -> list[_Blob]:
    """The docs files in the docs folders of ``project``, found in the code extracted to
    ``root`` (the folders :func:`apisurface.surface.docsources.scan_docs` reads): docs
    elsewhere are not read."""
    folders = docs_folders(project.root, project.config.docs)
    relative = [folder.relative_to(root).as_posix() for folder in folders]
    return [
        blob
        for blob in docs
        if any(folder == "." or blob.name.startswith(folder + "/") for folder in relative)
    ]


def _extract(top: Path, wanted: list[_Blob], root: Path, ref: str) -> None:
    """Write blobs into ``root``, streamed one at a time from one ``git cat-file --batch``.

    A blob larger than the readers' cap is not read at all: it becomes a sparse file of its
    size, which the folder reader then reports (or skips) exactly as it would in a folder.
    So memory stays bounded by the cap, whatever the blobs hold (a few KB of ``.git`` can
    hold gigabytes of zeros)."""
    real_root = root.resolve()
    if len(wanted) > MAX_EXTRACT_FILES:
        raise GitRefError(f"{ref}: more than {MAX_EXTRACT_FILES} files to read from this ref")
    total = sum(blob.size for blob in wanted if blob.size <= MAX_BLOB_BYTES)
    if total > MAX_EXTRACT_BYTES:
        raise GitRefError(
            f"{ref}: the files to read from this ref add up to more than "
            f"{MAX_EXTRACT_BYTES >> 20} MiB"
        )
    targets: list[tuple[_Blob, Path]] = []
    for blob in wanted:
        parts = PurePosixPath(blob.name).parts
        if not parts or any(part in ("..", "") or part.lower() == ".git" for part in parts):
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
    with cat_file_batch(top, [blob.object_id for blob, _ in targets]) as stream:
        for blob, destination in targets:
            copy_blob(
                stream,
                destination,
                object_id=blob.object_id,
                name=blob.name,
                size=blob.size,
                limit=MAX_BLOB_BYTES,
            )
