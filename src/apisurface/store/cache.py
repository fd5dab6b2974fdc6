"""A cache of surfaces and deprecation markers, keyed by what they are computed from.

A key is a hash of the inputs (every module's text or a git tree id, the policy settings,
the docs index) together with the versions of apisurface and griffe, so an entry can only
be found by the inputs that produced it. Entries are JSON files written atomically under
the user's cache folder (``APISURFACE_CACHE_DIR`` overrides it). Each entry repeats its
key and format version; an entry that is corrupt, foreign or of another format is ignored
(and later overwritten), never trusted and never fatal.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import fields
from importlib import metadata
from pathlib import Path
from typing import Any

from apisurface import __version__
from apisurface.errors import ApisurfaceError
from apisurface.model import (
    ExclusionReason,
    Location,
    Parameter,
    ParamKind,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.project.docsindex import DocsIndex
from apisurface.project.safeio import read_regular
from apisurface.store.atomic import write_atomic

__all__ = [
    "CACHE_ENV",
    "FORMAT",
    "SurfaceCache",
    "default_cache_dir",
    "inputs_key",
    "surface_key",
]

CACHE_ENV = "APISURFACE_CACHE_DIR"
FORMAT = 4
"""Raise when the entry layout changes: older entries are then ignored."""

_MAX_ENTRY_BYTES = 1 << 30
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


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
    """The versions of everything that shapes a result, including apisurface's own code
    (so that an edited or development copy never reuses another copy's entries)."""
    try:
        griffe_version = metadata.version("griffelib")
    except metadata.PackageNotFoundError:
        griffe_version = "unknown"
    code = hashlib.sha256()
    package = Path(__file__).parent.parent
    for path in sorted(package.rglob("*.py")):
        with contextlib.suppress(OSError):
            name = path.relative_to(package).as_posix()
            code.update(name.encode() + b"\0" + path.read_bytes())
    return (
        f"apisurface {__version__} ({code.hexdigest()[:16]}); griffe {griffe_version}; "
        f"format {FORMAT}"
    )


def inputs_key(parts: Iterable[str | bytes]) -> str:
    """A hex digest naming a computation: the tool versions and every input, in order."""
    digest = hashlib.sha256(_tool_versions().encode())
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


class SurfaceCache:
    """Surfaces and per-file deprecation markers stored under ``folder``."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_cache_dir()

    def _path(self, kind: str, key: str) -> Path:
        return self.folder / kind / key[:2] / f"{key}.json"

    def _read(self, kind: str, key: str) -> Any:
        path = self._path(kind, key)
        try:
            raw = read_regular(path, _MAX_ENTRY_BYTES)
            if _ESCAPED_SURROGATE.search(raw):
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

    def _write(self, kind: str, key: str, data: object) -> None:
        entry = {"format": FORMAT, "kind": kind, "key": key, "data": data}
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        with contextlib.suppress(ApisurfaceError):  # a read-only cache only costs time
            write_atomic(self._path(kind, key), text, durable=False)

    # -- surfaces --

    def get_surface(self, key: str) -> Surface | None:
        """The surface stored under ``key``, or None when absent or unusable."""
        data = self._read("surface", key)
        if data is None:
            return None
        try:
            return _decode_surface(data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
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


# --- a surface as compact JSON (everything, including targets and locations) -----------
#
# Column by column: one list per field, so that a warm load checks each column's types in
# one pass (``set(map(type, column))``) and builds the symbols with one ``map``.

_PARAM_KINDS = list(ParamKind)
_SYMBOL_KINDS = list(SymbolKind)
_REASONS = list(ExclusionReason)
_SYMBOL_FIELDS = (
    "path",
    "kind",
    "target",
    "signature",
    "overloads",
    "is_async",
    "is_abstract",
    "bases",
    "annotation",
    "deprecated",
    "docstring_hash",
    "constructor_from_fields",
    "location",
    "export_scope",
)
if tuple(item.name for item in fields(Symbol)) != _SYMBOL_FIELDS:  # pragma: no cover
    raise ImportError(
        "apisurface.store.cache: update _SYMBOL_FIELDS and FORMAT to the Symbol model"
    )
_STR: frozenset[type] = frozenset({str})
_OPTIONAL_STR: frozenset[type] = frozenset({str, type(None)})
_INT: frozenset[type] = frozenset({int})


def _encode_surface(surface: Surface) -> dict[str, Any]:
    signatures: dict[Signature, int] = {}
    files: dict[str, int] = {}

    def signature_id(signature: Signature | None) -> int:
        if signature is None:
            return -1
        if signature not in signatures:
            signatures[signature] = len(signatures)
        return signatures[signature]

    paths = sorted(surface.symbols)
    symbols = [surface.symbols[path] for path in paths]
    overloads = []
    bases = []
    locations = []
    lines = []
    for index, symbol in enumerate(symbols):
        if symbol.overloads:
            overloads.append([index, [signature_id(item) for item in symbol.overloads]])
        if symbol.bases:
            bases.append([index, list(symbol.bases)])
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
        "problems": list(surface.problems),
        "declared_by": list(surface.declared_by),
        "docs_sources": surface.docs_sources,
        "scopes": [
            [index, list(symbol.export_scope)]
            for index, symbol in enumerate(symbols)
            if symbol.export_scope
        ],
        "excluded": list(surface.excluded),
        "reasons": [_REASONS.index(reason) for reason in surface.excluded.values()],
        "paths": paths,
        "kinds": [_SYMBOL_KINDS.index(symbol.kind) for symbol in symbols],
        "targets": [symbol.target for symbol in symbols],
        "signature": [signature_id(symbol.signature) for symbol in symbols],
        "overloads": overloads,
        "flags": [
            int(symbol.is_async)
            | int(symbol.is_abstract) << 1
            | int(symbol.constructor_from_fields) << 2
            for symbol in symbols
        ],
        "bases": bases,
        "annotations": [symbol.annotation for symbol in symbols],
        "deprecated": [symbol.deprecated for symbol in symbols],
        "docstrings": [symbol.docstring_hash for symbol in symbols],
        "files": list(files),
        "locations": locations,
        "lines": lines,
        "signatures": [
            [
                [
                    [item.name, _PARAM_KINDS.index(item.kind), item.default, item.annotation]
                    for item in signature.parameters
                ],
                signature.returns,
            ]
            for signature in signatures
        ],
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


def _index(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("expected an integer")
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


def _position(value: object, length: int) -> int:
    position = _index(value)
    if not 0 <= position < length:
        raise IndexError(position)
    return position


def _decode_surface(data: Any) -> Surface:
    signatures: list[Signature | None] = [
        Signature(
            tuple(
                Parameter(
                    _text(name),
                    _PARAM_KINDS[_index(kind)],
                    _optional(default),
                    _optional(annotation),
                )
                for name, kind, default, annotation in parameters
            ),
            _optional(returns),
        )
        for parameters, returns in data["signatures"]
    ]
    signatures.append(None)  # index -1: no signature
    paths = data["paths"]
    if type(paths) is not list:
        raise TypeError("malformed column")
    count = len(paths)
    _column(paths, _STR, count)
    kinds = [_SYMBOL_KINDS[i] for i in _indexes(data["kinds"], count, 0, len(_SYMBOL_KINDS))]
    targets = _column(data["targets"], _STR, count)
    signature = [signatures[i] for i in _indexes(data["signature"], count, -1, len(signatures) - 1)]
    flags = _indexes(data["flags"], count, 0, 8)
    files = _column(data["files"], _STR, len(data["files"]))
    file_ids = _indexes(data["locations"], count, -1, len(files))
    lines = _column(data["lines"], _INT, count)
    overloads: list[tuple[Signature, ...]] = [()] * count
    for index, ids in data["overloads"]:
        overloads[_position(index, count)] = tuple(
            signatures[_position(item, len(signatures) - 1)] or Signature() for item in ids
        )
    bases: list[tuple[str, ...]] = [()] * count
    for index, names in data["bases"]:
        bases[_position(index, count)] = tuple(_text(name) for name in names)
    scopes: list[tuple[str, ...]] = [()] * count
    for index, names in data["scopes"]:
        scopes[_position(index, count)] = tuple(_text(name) for name in names)
    locations = [
        None if file_id < 0 else Location(files[file_id], line)
        for file_id, line in zip(file_ids, lines, strict=True)
    ]
    symbols = dict(
        zip(
            paths,
            map(
                Symbol,
                paths,
                kinds,
                targets,
                signature,
                overloads,
                [bool(flag & 1) for flag in flags],
                [bool(flag & 2) for flag in flags],
                bases,
                _column(data["annotations"], _OPTIONAL_STR, count),
                _column(data["deprecated"], _OPTIONAL_STR, count),
                _column(data["docstrings"], _OPTIONAL_STR, count),
                [bool(flag & 4) for flag in flags],
                locations,
                scopes,
            ),
            strict=True,
        )
    )
    excluded = data["excluded"]
    if type(excluded) is not list:
        raise TypeError("malformed column")
    _column(excluded, _STR, len(excluded))
    reasons = _indexes(data["reasons"], len(excluded), 0, len(_REASONS))
    package = _text(data["package"])
    # Untrusted like a snapshot: the name becomes a file name (api_snapshots/<package>.json).
    if not package or not all(part.isidentifier() for part in package.split(".")):
        raise ValueError("not a package name")
    prefix = package + "."
    if not all(path == package or path.startswith(prefix) for path in paths):
        raise ValueError("a path outside the package")
    return Surface(
        package=package,
        symbols=symbols,
        excluded=dict(zip(excluded, map(_REASONS.__getitem__, reasons), strict=True)),
        version=_optional(data["version"]),
        problems=tuple(_text(problem) for problem in data["problems"]),
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
    problems: Iterable[str],
) -> str:
    """The key of a surface computed from ``files`` (module, relative path, text) and the
    settings that shape it."""
    parts: list[str] = ["surface", package, policy, version or "\x00"]
    parts += ["\n".join(sorted(docs.names)), "\n".join(sorted(docs.all_members))]
    parts += ["\n".join(problems)]
    for module, relpath, text in files:
        parts += [module, relpath, text]
    return inputs_key(parts)
