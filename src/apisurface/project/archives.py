"""Wheels and source distributions as inputs: unpacked, never built or imported.

A wheel (``.whl``) is a zip of the installed files; a source distribution (``.tar.gz``,
``.zip``) is unpacked as it is, without running its build backend. Archives are untrusted:
members with absolute paths, ``..``, links or devices are skipped, and the unpacked size
and member count are limited. The archive is opened as a regular file only, and members
are copied to disk in chunks (peak memory: one chunk, not the largest member).
"""

from __future__ import annotations

import io
import stat
from pathlib import Path, PurePosixPath
from typing import IO

from apisurface.errors import SourceError
from apisurface.project.safeio import open_regular

__all__ = ["ARCHIVE_SUFFIXES", "is_archive", "unpack"]

ARCHIVE_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".zip")
_WANTED = (".py", ".pyi", ".rst", ".md", ".txt", ".toml", ".cfg", "METADATA", "PKG-INFO")
_MAX_BYTES = 1 << 30
_MAX_MEMBERS = 200_000
_CHUNK = 1 << 20
_MAX_ARCHIVE = 4 << 30


def is_archive(path: Path) -> bool:
    """Whether ``path`` is a file named like a wheel or a source distribution."""
    return path.is_file() and path.name.lower().endswith(ARCHIVE_SUFFIXES)


def _safe_parts(name: str) -> tuple[str, ...] | None:
    parts = PurePosixPath(name.replace("\\", "/")).parts
    if not parts or parts[0] == "/" or any(part in ("..", "") for part in parts):
        return None
    if any(part.lower() == ".git" for part in parts):
        return None  # a repository's files: git would read a configuration from them
    if ":" in parts[0]:
        return None  # a Windows drive
    return parts


def unpack(archive: Path, destination: Path) -> Path:
    """Unpack the source files of ``archive`` into ``destination``; return the folder to
    analyse (an sdist's single top folder, or ``destination`` for a wheel)."""
    import tarfile  # noqa: PLC0415 - only when an archive is read (start-up time)
    import zipfile  # noqa: PLC0415

    name = archive.name.lower()
    try:
        with open_regular(archive, _MAX_ARCHIVE) as raw, io.BufferedReader(raw) as stream:
            if name.endswith((".whl", ".zip")):
                _unzip(archive, stream, destination)
            else:
                _untar(archive, stream, destination)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, ValueError) as error:
        detail = (str(error).splitlines() or [type(error).__name__])[0].rstrip(":")
        raise SourceError(f"{archive}: not a readable wheel or source archive ({detail})") from None
    if name.endswith(".whl"):
        return destination
    entries = [entry for entry in destination.iterdir() if entry.is_dir()]
    if len(entries) == 1 and not any(destination.glob("*.py")):
        return entries[0]  # an sdist: name-version/ holds the project
    return destination


def _write(destination: Path, parts: tuple[str, ...], member: IO[bytes], size: int) -> None:
    """Copy one member to its file in chunks, never more than its declared ``size`` (the
    total cap counted that): peak memory is one chunk, whatever the member holds."""
    target = destination.joinpath(*parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    remaining = size
    with target.open("wb") as stream:
        while remaining > 0:
            chunk = member.read(min(remaining, _CHUNK))
            if not chunk:
                break
            stream.write(chunk)
            remaining -= len(chunk)


def _unzip(archive: Path, stream: IO[bytes], destination: Path) -> None:
    import zipfile  # noqa: PLC0415

    total = 0
    with zipfile.ZipFile(stream) as bundle:
        members = bundle.infolist()
        if len(members) > _MAX_MEMBERS:
            raise SourceError(f"{archive}: more than {_MAX_MEMBERS} members")
        for member in members:
            parts = _safe_parts(member.filename)
            if parts is None or member.is_dir() or not member.filename.endswith(_WANTED):
                continue
            if stat.S_ISLNK(member.external_attr >> 16):
                continue
            total += member.file_size
            if total > _MAX_BYTES:
                raise SourceError(f"{archive}: unpacks to more than {_MAX_BYTES >> 20} MiB")
            with bundle.open(member) as content:
                _write(destination, parts, content, member.file_size)


def _untar(archive: Path, stream: IO[bytes], destination: Path) -> None:
    import tarfile  # noqa: PLC0415

    total = 0
    with tarfile.open(fileobj=stream) as bundle:
        for count, member in enumerate(bundle):
            if count > _MAX_MEMBERS:
                raise SourceError(f"{archive}: more than {_MAX_MEMBERS} members")
            parts = _safe_parts(member.name)
            if parts is None or not member.isfile() or not member.name.endswith(_WANTED):
                continue
            total += member.size
            if total > _MAX_BYTES:
                raise SourceError(f"{archive}: unpacks to more than {_MAX_BYTES >> 20} MiB")
            handle = bundle.extractfile(member)
            if handle is not None:
                with handle:
                    _write(destination, parts, handle, member.size)
