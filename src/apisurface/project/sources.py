"""Finding and reading a package's module files (POLICY: one bad file is reported, not fatal).

Files are listed in a stable order, guarded against symlink loops and links that leave
the tree, and decoded as the interpreter would (BOM, coding cookie, UTF-8). A file that
cannot be read becomes a :class:`~apisurface.model.Problem` of the surface (with the digest
of its bytes when they were read, so that a diff can tell an unchanged one).
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from apisurface.model import Problem
from apisurface.project.locate import PackageLocation
from apisurface.project.pytext import UnreadEncoding, decode_python, readable_encoding
from apisurface.project.safeio import NotRegularFile, TooLarge, read_regular

__all__ = [
    "MAX_FILE_BYTES",
    "SourceFile",
    "Sources",
    "UnreadEncoding",
    "decode_python",
    "decode_source",
    "printable",
    "read_sources",
    "readable_encoding",
]

MAX_FILE_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One module's source: its dotted name, its path relative to the root, and its text."""

    module: str
    relpath: str
    text: str


@dataclass(slots=True)
class Sources:
    files: list[SourceFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


# --- reading files ----------------------------------------------------------------------


def read_sources(project: PackageLocation) -> Sources:
    """Read every module of the package, and of the other top-level packages of its
    distribution (:attr:`PackageLocation.siblings`), recording (not raising) files that
    cannot be read."""
    result = Sources()
    _read_top_level(project.path, project.package, result)
    for path in project.siblings:
        _read_top_level(path, path.name if path.is_dir() else path.stem, result)
    return result


def _read_top_level(path: Path, package: str, result: Sources) -> None:
    """Read the modules of one top-level package (a folder) or module (a ``.py`` file)."""
    base = path.parent
    if path.is_file():
        _read_one(path, package, base, result)
        return
    portions: list[tuple[Path, str]] = []
    for found, module in _walk_package(path, package, result, portions):
        _read_one(found, module, base, result)
    # A folder without __init__.py inside a regular package is a namespace portion that
    # Python imports all the same (flask.sansio): analysed when the package imports it.
    # Each text is scanned for imports once (not once per portion: 1,000 folders beside one
    # 8 MiB module took 39 s).
    imports = _Imports()
    seen: set[str] = set()
    while portions:
        imports.scan(result.files)
        folder, dotted = portions.pop(0)
        if dotted in seen or not imports.names(dotted):
            continue
        seen.add(dotted)
        for found, module in _walk_package(folder, dotted, result, portions):
            _read_one(found, module, base, result)


# ``from X import`` (absolute or relative) or ``import X`` at the start of a line.
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)|import[ \t]+([\w.]+))", re.MULTILINE)


class _Imports:
    """What the texts read so far import, each text scanned once: the modules named
    absolutely (``from a.b.c import`` imports ``a.b`` too) and the names a relative import
    spells (``from ..b.c import``: ``b`` and ``c``)."""

    def __init__(self) -> None:
        self.scanned = 0
        self.absolute: set[str] = set()
        self.relative: set[str] = set()
        self._sorted: list[str] = []

    def scan(self, files: list[SourceFile]) -> None:
        """Scan the files not scanned yet (``files`` only grows)."""
        if self.scanned == len(files):
            return
        for item in files[self.scanned :]:
            for match in _IMPORT_LINE.finditer(item.text):
                dots, source, imported = match.groups()
                if dots:
                    self.relative.update(part for part in source.split(".") if part)
                else:
                    self.absolute.add(source if imported is None else imported)
        self.scanned = len(files)
        self._sorted = sorted(self.absolute)

    def names(self, dotted: str) -> bool:
        """Whether a text imports ``dotted`` (absolutely, or relatively by its last name)."""
        if dotted.rpartition(".")[2] in self.relative or dotted in self.absolute:
            return True
        below = dotted + "."  # a module below it: its parent is imported first
        index = bisect.bisect_left(self._sorted, below)
        return index < len(self._sorted) and self._sorted[index].startswith(below)


def _walk_package(
    root: Path, package: str, result: Sources, portions: list[tuple[Path, str]]
) -> Iterator[tuple[Path, str]]:
    """Module files below ``root`` in a stable order, guarding against symlink loops and
    links that leave the tree. Folders without ``__init__.py`` inside a regular package are
    set aside in ``portions``; a ``.pyi`` stub is yielded beside its ``.py`` (see
    docs/decisions.md)."""
    real_root = _resolved(root) or root
    seen: set[Path] = set()
    stack: list[tuple[Path, str]] = [(root, package)]
    while stack:
        folder, dotted = stack.pop()
        real = _resolved(folder)
        if real is None or real in seen:
            result.problems.append(Problem(_rel(folder, root), "symlink loop, skipped"))
            continue
        seen.add(real)
        try:
            entries = sorted(folder.iterdir(), key=lambda entry: entry.name)
        except OSError as error:
            result.problems.append(Problem(_rel(folder, root), f"cannot list ({error.strerror})"))
            continue
        subfolders: list[tuple[Path, str]] = []
        namespace = not (folder / "__init__.py").is_file()
        for entry in entries:
            name = entry.name
            if entry.is_symlink():
                target = _resolved(entry)
                if target is None:
                    result.problems.append(Problem(_rel(entry, root), "symlink loop, skipped"))
                    continue
                if not target.is_relative_to(real_root):
                    result.problems.append(
                        Problem(_rel(entry, root), "symlink to outside the package, skipped")
                    )
                    continue
            if entry.is_dir():
                # Inside a namespace package, folders without __init__.py are its portions.
                if name.isidentifier() and (namespace or (entry / "__init__.py").is_file()):
                    subfolders.append((entry, f"{dotted}.{name}"))
                elif name.isidentifier() and any(entry.glob("*.py")):
                    portions.append((entry, f"{dotted}.{name}"))
            elif name.endswith((".py", ".pyi")) and name.partition(".")[0].isidentifier():
                stem = name.partition(".")[0]
                if stem != name.rpartition(".")[0]:
                    continue
                module = dotted if stem == "__init__" else f"{dotted}.{stem}"
                yield entry, module
        stack.extend(reversed(subfolders))


def _resolved(path: Path) -> Path | None:
    """``path`` with symlinks resolved, or None for a symlink loop."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # Python 3.11 raises RuntimeError on a loop
        return None


def _rel(path: Path, root: Path) -> str:
    try:
        relative = (Path(root.name) / path.relative_to(root)).as_posix()
    except ValueError:
        relative = path.as_posix()
    return printable(relative)


def printable(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by the file system API as lone
    surrogates, which no UTF-8 output can hold) are shown as ``\\xff`` escapes."""
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return name.encode("utf-8", "backslashreplace").decode("utf-8")


def _read_one(path: Path, module: str, base: Path, result: Sources) -> None:
    relpath = _rel(path, base / path.relative_to(base).parts[0]) if path != base else path.name
    try:
        data = read_regular(path, MAX_FILE_BYTES)
    except TooLarge:
        result.problems.append(Problem(relpath, f"larger than {MAX_FILE_BYTES >> 20} MiB, skipped"))
        return
    except NotRegularFile:
        result.problems.append(
            Problem(relpath, "not a regular file (a FIFO or device), skipped", error=True)
        )
        return
    except OSError as error:
        # A dangling symlink is no module Python could import; any other failure is a file
        # of the package that cannot be read (bad input where the public surface reaches it).
        missing = isinstance(error, FileNotFoundError)
        message = f"cannot read ({error.strerror}), skipped"
        result.problems.append(Problem(relpath, message, error=not missing))
        return
    text = decode_source(data, relpath, result.problems)
    if text is not None:
        result.files.append(SourceFile(module, relpath, text))


def decode_source(data: bytes, relpath: str, problems: list[Problem]) -> str | None:
    """Decode Python source as the interpreter would (BOM, coding cookie, UTF-8). A file
    that does not decode is bad input (``error``) where the public surface reaches it."""
    digest = hashlib.sha256(data).hexdigest()
    if b"\x00" in data:
        line, column = _position(data, data.index(b"\x00"))
        problems.append(
            Problem(
                relpath,
                "contains NUL bytes, skipped",
                line=line,
                column=column,
                digest=digest,
                error=True,
            )
        )
        return None
    try:
        return decode_python(data)
    except UnreadEncoding as error:
        # An encoding apisurface does not decode (a codec it has no linear decoder of) is its
        # own limit, not bad input: an unknown, scoped as any.
        problems.append(Problem(relpath, f"{error}; skipped", digest=digest))
    except (SyntaxError, LookupError) as error:
        undecodable = _utf8_error(data)
        if undecodable is None:
            message = f"unknown source encoding ({error}), skipped"
            problems.append(Problem(relpath, message, line=1, digest=digest, error=True))
            return None
        problems.append(_not_utf8(relpath, data, undecodable, digest))
    except UnicodeDecodeError as error:
        problems.append(_not_utf8(relpath, data, error, digest))
    except UnicodeError as error:  # a codec's own refusal (not a decode error)
        detail = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        message = f"cannot decode ({detail}), skipped"
        problems.append(Problem(relpath, message, line=1, digest=digest, error=True))
    return None


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """The line and column (from 1, in bytes) of ``offset`` in ``data``."""
    return data.count(b"\n", 0, offset) + 1, offset - data.rfind(b"\n", 0, offset)


def _utf8_error(data: bytes) -> UnicodeDecodeError | None:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return error
    return None


def _not_utf8(relpath: str, data: bytes, error: UnicodeDecodeError, digest: str) -> Problem:
    line, column = _position(data, error.start)
    message = (
        f"not valid UTF-8 (byte {data[error.start]:#04x} at offset "
        f"{error.start}); save it as UTF-8 or declare its encoding, skipped"
    )
    return Problem(relpath, message, line=line, column=column, digest=digest, error=True)
