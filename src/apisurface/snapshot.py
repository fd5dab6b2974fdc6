"""Surfaces stored as JSON snapshot files, with the producer/consumer versions of POLICY.md
section 4.

A snapshot is untrusted data: it is size-limited, fully validated and refused with one
clear line when it is corrupt, of the wrong shape, or from an incompatible apisurface.
Output is deterministic: sorted keys, no timestamps, no absolute paths, no line numbers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apisurface.atomic import write_atomic
from apisurface.errors import SnapshotError
from apisurface.model import (
    ExclusionReason,
    Parameter,
    ParamKind,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)

__all__ = [
    "CONSUMER",
    "MIN_PRODUCER",
    "PRODUCER",
    "dumps",
    "is_snapshot_file",
    "loads",
    "read_snapshot",
    "write_snapshot",
]

PRODUCER = 1
"""The format version this apisurface writes. Raise it when the format gains information."""
MIN_CONSUMER = 1
"""The oldest reader that understands what we write. Raise it only when old readers would
misread the file."""
BAD_CONSUMERS: list[int] = []
CONSUMER = 1
"""The format version this apisurface reads."""
MIN_PRODUCER = 1
"""The oldest writer whose files we still read."""

_MAX_BYTES = 512 * 1024 * 1024


def _signature_to_json(signature: Signature) -> dict[str, Any]:
    data: dict[str, Any] = {"parameters": [_parameter_to_json(p) for p in signature.parameters]}
    if signature.returns is not None:
        data["returns"] = signature.returns
    return data


def _parameter_to_json(parameter: Parameter) -> dict[str, Any]:
    data: dict[str, Any] = {"name": parameter.name, "kind": parameter.kind.value}
    if parameter.default is not None:
        data["default"] = parameter.default
    if parameter.annotation is not None:
        data["annotation"] = parameter.annotation
    return data


def _symbol_to_json(symbol: Symbol) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": symbol.kind.value}
    if symbol.signature is not None:
        data["signature"] = _signature_to_json(symbol.signature)
    if symbol.overloads:
        data["overloads"] = [_signature_to_json(item) for item in symbol.overloads]
    if symbol.is_async:
        data["async"] = True
    if symbol.is_abstract:
        data["abstract"] = True
    if symbol.bases:
        data["bases"] = list(symbol.bases)
    if symbol.annotation is not None:
        data["annotation"] = symbol.annotation
    if symbol.deprecated is not None:
        data["deprecated"] = symbol.deprecated
    if symbol.docstring_hash is not None:
        data["docstring"] = symbol.docstring_hash
    if symbol.constructor_from_fields:
        data["from_fields"] = True
    return data


def to_json(surface: Surface) -> dict[str, Any]:
    """The snapshot document of a surface, as plain JSON values."""
    return {
        "versions": {
            "producer": PRODUCER,
            "min_consumer": MIN_CONSUMER,
            "bad_consumers": list(BAD_CONSUMERS),
        },
        "package": surface.package,
        "version": surface.version,
        "complete": surface.complete,
        "problems": list(surface.problems),
        "symbols": {
            path: _symbol_to_json(surface.symbols[path]) for path in sorted(surface.symbols)
        },
        "excluded": {path: surface.excluded[path].value for path in sorted(surface.excluded)},
    }


def dumps(surface: Surface) -> str:
    """Serialise a surface: byte-identical for equal surfaces, one line per symbol so that
    a pull request's diff of the file shows exactly the symbols that changed."""
    document = to_json(surface)
    lines = ["{"]
    keys = sorted(document)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = document[key]
        if isinstance(value, dict) and key in ("symbols", "excluded") and value:
            lines.append(f"  {_json(key)}: {{")
            items = list(value.items())
            for position, (path, item) in enumerate(items):
                inner = "," if position < len(items) - 1 else ""
                lines.append(f"    {_json(path)}: {_json(item)}{inner}")
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {_json(key)}: {_json(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def write_snapshot(surface: Surface, path: Path) -> None:
    """Write the snapshot of ``surface`` to ``path`` atomically."""
    write_atomic(path, dumps(surface))


# --- reading ----------------------------------------------------------------------------


def _fail(where: str, what: str) -> SnapshotError:
    return SnapshotError(f"{where}: {what}; regenerate it with 'apisurface snapshot'")


def _check_versions(data: dict[str, Any], where: str) -> None:
    versions = data.get("versions")
    if not isinstance(versions, dict):
        raise _fail(where, "not an apisurface snapshot (no 'versions' header)")
    producer = versions.get("producer")
    min_consumer = versions.get("min_consumer")
    bad = versions.get("bad_consumers", [])
    if (
        not isinstance(producer, int)
        or not isinstance(min_consumer, int)
        or not _is_int(producer)
        or not _is_int(min_consumer)
        or not isinstance(bad, list)
    ):
        raise _fail(where, "invalid 'versions' header")
    if min_consumer > CONSUMER:
        raise SnapshotError(
            f"{where}: written by a newer apisurface (format {producer}, needs a reader of "
            f"format >= {min_consumer}, this one reads {CONSUMER}); upgrade apisurface"
        )
    if producer < MIN_PRODUCER:
        raise SnapshotError(
            f"{where}: written by an apisurface too old to read (format {producer} < "
            f"{MIN_PRODUCER}); regenerate it with 'apisurface snapshot'"
        )
    if CONSUMER in bad:
        raise SnapshotError(
            f"{where}: its producer marks this reader (format {CONSUMER}) as unable to read it; "
            "upgrade apisurface or regenerate the snapshot"
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


def _str(value: object, where: str, what: str, *, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > 100_000:
        raise _fail(where, f"{what} must be a string")
    return value


_PARAM_KINDS = {kind.value: kind for kind in ParamKind}
_SYMBOL_KINDS = {kind.value: kind for kind in SymbolKind}
_ParameterKey = tuple[object, object, object, object]


class _Reader:
    """Validates symbols one by one; equal parameters and signatures (inherited members,
    repeated conventions) are built once and shared, which keeps large surfaces small."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.parameters: dict[_ParameterKey, Parameter] = {}
        self.signatures: dict[tuple[tuple[Parameter, ...], str | None], Signature] = {}

    def parameter(self, item: object, here: str) -> Parameter:
        if not isinstance(item, dict):
            raise _fail(here, "each parameter must be an object")
        key = (item.get("name"), item.get("kind"), item.get("default"), item.get("annotation"))
        found = self.parameters.get(key)
        if found is not None:
            return found
        kind = _PARAM_KINDS.get(key[1]) if isinstance(key[1], str) else None
        if kind is None:
            raise _fail(here, f"unknown parameter kind {key[1]!r}")
        parameter = Parameter(
            name=_str(key[0], here, "parameter name") or "",
            kind=kind,
            default=_str(key[2], here, "default", optional=True),
            annotation=_str(key[3], here, "annotation", optional=True),
        )
        self.parameters[key] = parameter
        return parameter

    def signature(self, data: object, here: str) -> Signature:
        if not isinstance(data, dict) or not isinstance(data.get("parameters"), list):
            raise _fail(here, "a signature must be an object with 'parameters'")
        parameters = tuple(self.parameter(item, here) for item in data["parameters"])
        returns = _str(data.get("returns"), here, "returns", optional=True)
        key = (parameters, returns)
        found = self.signatures.get(key)
        if found is None:
            found = self.signatures[key] = Signature(parameters, returns)
        return found

    def symbol(self, path: str, data: object) -> Symbol:
        here = f"{self.where} symbol {path!r}"
        if not isinstance(data, dict):
            raise _fail(here, "must be an object")
        raw_kind = data.get("kind")
        kind = _SYMBOL_KINDS.get(raw_kind) if isinstance(raw_kind, str) else None
        if kind is None:
            raise _fail(here, f"unknown kind {raw_kind!r}")
        signature = data.get("signature")
        overloads = data.get("overloads", [])
        bases = data.get("bases", [])
        if not isinstance(overloads, list) or not isinstance(bases, list):
            raise _fail(here, "overloads and bases must be lists")
        return Symbol(
            path=path,
            kind=kind,
            signature=self.signature(signature, here) if signature is not None else None,
            overloads=tuple(self.signature(item, here) for item in overloads),
            is_async=data.get("async") is True,
            is_abstract=data.get("abstract") is True,
            bases=tuple(_str(base, here, "a base") or "" for base in bases),
            annotation=_str(data.get("annotation"), here, "annotation", optional=True),
            deprecated=_str(data.get("deprecated"), here, "deprecated", optional=True),
            docstring_hash=_str(data.get("docstring"), here, "docstring", optional=True),
            constructor_from_fields=data.get("from_fields") is True,
        )


def loads(text: str | bytes, where: str = "snapshot") -> Surface:
    """Parse and validate a snapshot document."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise _fail(where, "nested too deeply to be a snapshot") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise _fail(where, f"not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise _fail(where, "not an apisurface snapshot (not a JSON object)")
    _check_versions(data, where)
    package = _str(data.get("package"), where, "'package'")
    if not package or not all(part.isidentifier() for part in package.split(".")):
        # The name becomes a file name (api_snapshots/<package>.json): never a path.
        raise _fail(where, f"'package' is not a Python package name: {(package or '')[:80]!r}")
    symbols = data.get("symbols")
    excluded = data.get("excluded", {})
    problems = data.get("problems", [])
    if not isinstance(symbols, dict) or not isinstance(excluded, dict):
        raise _fail(where, "'symbols' and 'excluded' must be objects")
    if not isinstance(problems, list):
        raise _fail(where, "'problems' must be a list")
    reader = _Reader(where)
    parsed = {path: reader.symbol(path, value) for path, value in symbols.items()}
    reasons: dict[str, ExclusionReason] = {}
    for path, reason in excluded.items():
        try:
            reasons[path] = ExclusionReason(reason)
        except ValueError:
            raise _fail(where, f"unknown exclusion reason {reason!r}") from None
    return Surface(
        package=package or "",
        symbols=parsed,
        excluded=reasons,
        version=_str(data.get("version"), where, "'version'", optional=True),
        problems=tuple(_str(item, where, "a problem") or "" for item in problems),
    )


def read_snapshot(path: Path) -> Surface:
    """Read a snapshot file; raise :class:`SnapshotError` with advice when it is unusable."""
    try:
        size = path.stat().st_size
        if size > _MAX_BYTES:
            raise _fail(str(path), f"too large ({size >> 20} MiB) to be a snapshot")
        data = path.read_bytes()
    except OSError as error:
        raise SnapshotError(f"{path}: cannot read ({error.strerror or error})") from None
    return loads(data, str(path))


def is_snapshot_file(path: Path) -> bool:
    """Whether ``path`` looks like a snapshot (a ``.json`` file) rather than sources."""
    return path.suffix == ".json" and path.is_file()
