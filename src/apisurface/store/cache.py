"""A cache of surfaces and deprecation markers, keyed by what they are computed from.

A key is a hash of the inputs (every module's text or a git tree id, the policy settings,
the docs index) together with the versions of apisurface and griffe, so an entry can only
be found by the inputs that produced it. Entries are JSON files written atomically under
the user's cache folder (``APISURFACE_CACHE_DIR`` overrides it). Each entry starts with
the HMAC that binds it to the runs holding the cache key (:mod:`apisurface.store.seal`:
a key is computable, so an entry without a valid HMAC is never parsed), and repeats its
key and format version; an entry that is corrupt, foreign, unsealed or of another format
is ignored (and later overwritten), never trusted and never fatal.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NamedTuple

from apisurface import __version__
from apisurface.errors import ApisurfaceError, SnapshotError
from apisurface.model import ExclusionReason, Location, Problem, Surface
from apisurface.project.docsindex import DocsIndex
from apisurface.project.safeio import read_regular
from apisurface.store.atomic import write_atomic
from apisurface.store.codec import (
    SymbolDecoder,
    build_symbols,
    decoding,
    is_package_name,
    problem_from,
    problem_value,
    spells_surrogate,
    symbol_values,
)
from apisurface.store.seal import MAC_LENGTH, seal, sealed

__all__ = [
    "CACHE_ENV",
    "FORMAT",
    "Linked",
    "LinkedSurfaces",
    "SurfaceCache",
    "default_cache_dir",
    "inputs_key",
    "linked_key",
    "surface_key",
]

CACHE_ENV = "APISURFACE_CACHE_DIR"
FORMAT = 7
"""Raise when the entry layout changes: older entries are then ignored. 5: symbol values
in the snapshot encoding (store/codec.py) instead of one column per field. 6: problems as
objects (file, path, digest; store/codec.py's ``problem_value``). 7: the HMAC line first
(store/seal.py)."""

_MAX_ENTRY_BYTES = 1 << 30


def default_cache_dir() -> Path:
    """``$APISURFACE_CACHE_DIR``, else the platform's user cache folder + ``apisurface``."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "apisurface"


@functools.cache
def _tool_versions() -> str:
    """The versions of everything that shapes a result: apisurface's own code and griffe's
    (so that an edited or development copy never reuses another copy's entries), found
    without importing griffe (a warm run never does) or importlib.metadata (25 ms)."""
    spec = find_spec("griffe")
    griffe = spec.submodule_search_locations if spec is not None else None
    griffe_code = _code_digest(Path(next(iter(griffe)))) if griffe else "unknown"
    return (
        f"apisurface {__version__} ({_code_digest(Path(__file__).parent.parent)}); "
        f"griffe ({griffe_code}); format {FORMAT}"
    )


def _code_digest(package: Path) -> str:
    """A digest of the Python files of the package in ``package``, by relative path."""
    code = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        with contextlib.suppress(OSError):
            name = path.relative_to(package).as_posix()
            code.update(name.encode() + b"\0" + path.read_bytes())
    return code.hexdigest()[:16]


def inputs_key(parts: Iterable[str | bytes]) -> str:
    """A hex digest naming a computation: the tool versions and every input, in order."""
    digest = hashlib.sha256(_tool_versions().encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def _entry_path(folder: Path, kind: str, key: str) -> Path:
    return folder / kind / key[:2] / f"{key}.json"


def _read_entry(folder: Path, kind: str, key: str) -> Any:
    """The data of the entry of ``kind`` stored under ``key`` in ``folder``, or None when
    absent, unreadable, foreign or of another format."""
    path = _entry_path(folder, kind, key)
    try:
        raw = read_regular(path, _MAX_ENTRY_BYTES, follow_symlinks=False)
        mac, raw = raw[:MAC_LENGTH], raw[MAC_LENGTH + 1 :]
        if not sealed(kind, key, raw, mac):
            return None  # not written by a run holding the key: not even parsed
        if spells_surrogate(raw):
            return None  # our writer never escapes one: not our entry, or not text
        entry = json.loads(raw)
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(entry, dict)
        or entry.get("format") != FORMAT
        or entry.get("key") != key
        or entry.get("kind") != kind
    ):
        return None
    return entry.get("data")


def _write_entry(folder: Path, kind: str, key: str, data: object) -> None:
    entry = {"format": FORMAT, "kind": kind, "key": key, "data": data}
    text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
    try:
        payload = text.encode("utf-8")
    except UnicodeEncodeError:
        return  # a lone surrogate: not stored (the reader refuses it too)
    sealed_entry = seal(kind, key, payload).encode("ascii") + b"\n" + payload
    with contextlib.suppress(ApisurfaceError):  # a read-only cache only costs time
        write_atomic(_entry_path(folder, kind, key), sealed_entry, durable=False, root=folder)


class Linked(NamedTuple):
    """A surface linked from summaries, and what else it depends on: the texts of the files
    its problems' digests were computed from (``read``: their relative paths; None: every
    file's), by their ``digest`` (:func:`apisurface.surface.collect.content_digest`)."""

    surface: Surface
    read: tuple[str, ...] | None
    digest: str


class SurfaceCache:
    """Surfaces and per-file deprecation markers stored under ``folder``."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_cache_dir()

    def _read(self, kind: str, key: str) -> Any:
        return _read_entry(self.folder, kind, key)

    def holds_surfaces(self) -> bool:
        """Whether any surface was stored here yet (an empty cache: every load is cold)."""
        try:
            return any((self.folder / "surface").iterdir())
        except OSError:
            return False

    def _write(self, kind: str, key: str, data: object) -> None:
        _write_entry(self.folder, kind, key, data)

    # -- surfaces --

    def get_surface(self, key: str) -> Surface | None:
        """The surface stored under ``key``, or None when absent or unusable."""
        with decoding():
            data = self._read("surface", key)
            if data is None:
                return None
            try:
                return _decode_surface(data)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, SnapshotError):
                return None

    def put_surface(self, key: str, surface: Surface) -> None:
        """Store ``surface`` under ``key`` (failures to write are ignored)."""
        self._write("surface", key, _encode_surface(surface))

    # -- deprecation markers of one file --

    def get_markers(self, key: str) -> dict[str, str] | None:
        """The markers stored for one file's text, or None."""
        data = self._read("markers", key)
        if not isinstance(data, dict) or not all(
            isinstance(name, str) and isinstance(value, str) for name, value in data.items()
        ):
            return None
        return data

    def put_markers(self, key: str, markers: dict[str, str]) -> None:
        """Store one file's markers."""
        self._write("markers", key, markers)


class LinkedSurfaces:
    """Surfaces stored under the digests of the summaries they were linked from
    (:func:`linked_key`), in ``folder/linked``: a package whose files changed but whose
    summaries did not (a comment, a test file nothing reaches) is not linked again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, key: str) -> Linked | None:
        """The surface linked from the summaries ``key`` names, with what its problems'
        digests read (:class:`Linked`), or None when absent or unusable."""
        with decoding():
            data = _read_entry(self.folder, "linked", key)
            if not isinstance(data, dict) or data.keys() != {"surface", "read", "digest"}:
                return None
            read, digest = data["read"], data["digest"]
            if not isinstance(digest, str) or not (
                read is None or (type(read) is list and all(type(name) is str for name in read))
            ):
                return None
            try:
                surface = _decode_surface(data["surface"])
            except (KeyError, TypeError, ValueError, IndexError, AttributeError, SnapshotError):
                return None
        return Linked(surface, None if read is None else tuple(read), digest)

    def put(self, key: str, linked: Linked) -> None:
        """Store a linked surface under the key of its summaries (failures are ignored)."""
        data = {
            "surface": _encode_surface(linked.surface),
            "read": None if linked.read is None else list(linked.read),
            "digest": linked.digest,
        }
        _write_entry(self.folder, "linked", key, data)


# --- a surface as compact JSON (everything, including targets and locations) -----------
#
# Each distinct symbol value once, in the encoding of snapshot lines (store/codec.py, which
# validates it as it validates a snapshot), then one column per symbol: its path, which
# value, its target and its location.

_REASONS = list(ExclusionReason)
_STR: frozenset[type] = frozenset({str})
_INT: frozenset[type] = frozenset({int})


def _encode_surface(surface: Surface) -> dict[str, Any]:
    paths = sorted(surface.symbols)
    symbols = [surface.symbols[path] for path in paths]
    values, value_ids = symbol_values(symbols)
    files: dict[str, int] = {}
    locations = []
    lines = []
    for symbol in symbols:
        location = symbol.location
        if location is None:
            locations.append(-1)
            lines.append(0)
        else:
            locations.append(files.setdefault(location.file, len(files)))
            lines.append(location.line)
    return {
        "package": surface.package,
        "version": surface.version,
        "problems": [problem_value(problem) for problem in surface.problems],
        "declared_by": list(surface.declared_by),
        "docs_sources": surface.docs_sources,
        "excluded": list(surface.excluded),
        "reasons": [_REASONS.index(reason) for reason in surface.excluded.values()],
        "values": values,
        "paths": paths,
        "value_ids": value_ids,
        "targets": [symbol.target for symbol in symbols],
        "files": list(files),
        "locations": locations,
        "lines": lines,
    }


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError("expected text")
    return value


def _optional(value: object) -> str | None:
    return None if value is None else _text(value)


def _flag(value: object) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise TypeError("expected true, false or null")
    return value


def _column(value: object, types: frozenset[type], length: int) -> list[Any]:
    """A list of ``length`` items, each of one of ``types`` (bool is not int here)."""
    if type(value) is not list or len(value) != length or not set(map(type, value)) <= types:
        raise TypeError("malformed column")
    return value


def _indexes(value: object, length: int, low: int, high: int) -> list[int]:
    """A column of integers in ``low <= i < high``."""
    column = _column(value, _INT, length)
    if column and (min(column) < low or max(column) >= high):
        raise IndexError("index out of range")
    return column


def _decode_surface(data: Any) -> Surface:
    paths = data["paths"]
    if type(paths) is not list:
        raise TypeError("malformed column")
    count = len(paths)
    _column(paths, _STR, count)
    values = data["values"]
    if type(values) is not list:
        raise TypeError("malformed column")
    decoder = SymbolDecoder("cache entry")
    templates = [decoder.symbol(f"#{index}", value) for index, value in enumerate(values)]
    value_ids = _indexes(data["value_ids"], count, 0, len(templates))
    files = _column(data["files"], _STR, len(data["files"]))
    file_ids = _indexes(data["locations"], count, -1, len(files))
    lines = _column(data["lines"], _INT, count)
    locations = [
        None if file_id < 0 else Location(files[file_id], line)
        for file_id, line in zip(file_ids, lines, strict=True)
    ]
    symbols = build_symbols(
        paths,
        list(map(templates.__getitem__, value_ids)),
        targets=_column(data["targets"], _STR, count),
        locations=locations,
    )
    excluded = data["excluded"]
    if type(excluded) is not list:
        raise TypeError("malformed column")
    _column(excluded, _STR, len(excluded))
    reasons = _indexes(data["reasons"], len(excluded), 0, len(_REASONS))
    package = data["package"]
    # Untrusted like a snapshot: the name becomes a file name (api_snapshots/<package>.json).
    if not is_package_name(package):
        raise ValueError("not a package name")
    prefix = package + "."
    if not all(path == package or path.startswith(prefix) for path in paths):
        raise ValueError("a path outside the package")
    return Surface(
        package=package,
        symbols=dict(zip(paths, symbols, strict=True)),
        excluded=dict(zip(excluded, map(_REASONS.__getitem__, reasons), strict=True)),
        version=_optional(data["version"]),
        problems=tuple(problem_from(problem, "cache entry") for problem in data["problems"]),
        declared_by=tuple(_text(name) for name in data["declared_by"]),
        docs_sources=_flag(data["docs_sources"]),
    )


def surface_key(
    package: str,
    files: Iterable[tuple[str, str, str]],
    *,
    policy: str,
    docs: DocsIndex,
    version: str | None,
    problems: Iterable[Problem],
) -> str:
    """The key of a surface computed from ``files`` (module, relative path, text) and the
    settings that shape it."""
    parts = ["surface", *_settings(package, policy, docs, version, problems)]
    for module, relpath, text in files:
        parts += [module, relpath, text]
    return inputs_key(parts)


def linked_key(
    package: str,
    summaries: Iterable[tuple[str, str, str]],
    *,
    policy: str,
    docs: DocsIndex,
    version: str | None,
    problems: Iterable[Problem],
    extra: str,
) -> str:
    """The key of a surface linked from the summaries of a package's files: (module,
    relative path, the digest of the summary the link reads) for each file, the settings
    that shape it, and ``extra`` (what else the link reads, as text)."""
    parts = ["linked", *_settings(package, policy, docs, version, problems), extra]
    for module, relpath, digest in summaries:
        parts += [module, relpath, digest]
    return inputs_key(parts)


def _settings(
    package: str, policy: str, docs: DocsIndex, version: str | None, problems: Iterable[Problem]
) -> list[str]:
    parts: list[str] = [package, policy, version or "\x00"]
    parts += ["\n".join(sorted(docs.names)), "\n".join(sorted(docs.all_members))]
    parts.append("\n".join(sorted(docs.deep_members)))
    parts += ["\n".join(f"{problem}\0{problem.digest}" for problem in problems)]
    return parts
