"""Surfaces stored as JSON snapshot files, with the producer/consumer versions of POLICY.md
section 4.

A snapshot is untrusted data: it is size-limited, fully validated and refused with one
clear line when it is corrupt, of the wrong shape, or from an incompatible apisurface.
Output is deterministic: sorted keys, no timestamps, no absolute paths, no line numbers.
"""

from __future__ import annotations

import json
import operator
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

from apisurface.errors import ApisurfaceError, SnapshotError
from apisurface.model import (
    ExclusionReason,
    Parameter,
    ParamKind,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.project.safeio import read_regular
from apisurface.store.atomic import write_atomic

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

PRODUCER = 3
"""The format version this apisurface writes. Raise it when the format gains information.
2: ``declared_by`` (the export decorators that defined the surface) and a symbol's
``export_scope``; readers of format 1 ignore both, so ``MIN_CONSUMER`` stays 1.
3: ``docs_sources`` (whether API docs sources were read); older readers ignore it, and a
file without it reads as "not recorded"."""
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
    if symbol.export_scope:
        data["export_scope"] = list(symbol.export_scope)
    return data


def to_json(surface: Surface) -> dict[str, Any]:
    """The snapshot document of a surface, as plain JSON values."""
    return {
        **to_json_header(surface),
        "symbols": {
            path: _symbol_to_json(surface.symbols[path]) for path in sorted(surface.symbols)
        },
        "excluded": {path: surface.excluded[path].value for path in sorted(surface.excluded)},
    }


def dumps(surface: Surface) -> str:
    """Serialise a surface: byte-identical for equal surfaces, one line per symbol so that
    a pull request's diff of the file shows exactly the symbols that changed."""
    document = to_json_header(surface)
    document["symbols"] = _symbol_lines(surface)
    document["excluded"] = [
        f"    {_json(path)}: {_json(surface.excluded[path].value)}"
        for path in sorted(surface.excluded)
    ]
    lines = ["{"]
    keys = sorted(document)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = document[key]
        if key in ("symbols", "excluded"):
            if value:
                lines.append(f"  {_json(key)}: {{")
                lines.append(",\n".join(value))
                lines.append(f"  }}{comma}")
            else:
                lines.append(f"  {_json(key)}: {{}}{comma}")
        else:
            lines.append(f"  {_json(key)}: {_json(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_json_header(surface: Surface) -> dict[str, Any]:
    """The snapshot document without ``symbols`` and ``excluded``."""
    header: dict[str, Any] = {
        "versions": {
            "producer": PRODUCER,
            "min_consumer": MIN_CONSUMER,
            "bad_consumers": list(BAD_CONSUMERS),
        },
        "package": surface.package,
        "version": surface.version,
        "complete": surface.complete,
        "problems": list(surface.problems),
    }
    if surface.declared_by:
        header["declared_by"] = list(surface.declared_by)
    if surface.docs_sources is not None:
        header["docs_sources"] = surface.docs_sources
    return header


def _symbol_lines(surface: Surface) -> list[str]:
    """``"path": {...}`` for every symbol, in path order. Symbols that differ only by path
    (an inherited member listed under each subclass; they share their parts) are encoded
    once: the key names the parts by identity, and they all stay alive meanwhile."""
    encoded: dict[tuple[object, ...], str] = {}
    lines = []
    symbols = surface.symbols
    for path in sorted(symbols):
        symbol = symbols[path]
        key = (
            symbol.kind,
            id(symbol.signature),
            id(symbol.overloads),
            symbol.is_async,
            symbol.is_abstract,
            symbol.bases,
            symbol.annotation,
            symbol.deprecated,
            symbol.docstring_hash,
            symbol.constructor_from_fields,
            symbol.export_scope,
        )
        text = encoded.get(key)
        if text is None:
            text = encoded[key] = _json(_symbol_to_json(symbol))
        lines.append(f"    {_json(path)}: {text}")
    return lines


_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _json(value: object) -> str:
    return _ENCODER.encode(value)


def write_snapshot(surface: Surface, path: Path) -> None:
    """Write the snapshot of ``surface`` to ``path`` atomically."""
    write_atomic(path, dumps(surface))


# --- reading ----------------------------------------------------------------------------


def _fail(where: str, what: str) -> SnapshotError:
    return SnapshotError(f"{where}: {what}; regenerate it with 'apisurface snapshot'")


def _check_versions(data: dict[str, Any], where: str) -> None:
    check_versions(data, where)


def check_versions(
    data: dict[str, Any],
    where: str,
    *,
    consumer: int = CONSUMER,
    min_producer: int = MIN_PRODUCER,
    what: str = "snapshot",
    regenerate: str = "regenerate it with 'apisurface snapshot'",
    error: type[ApisurfaceError] = SnapshotError,
) -> None:
    """The producer/consumer rules of POLICY.md section 4 for any versioned file ``data``
    read from ``where``: raise ``error`` naming the rule that failed and what to do."""
    versions = data.get("versions")
    if not isinstance(versions, dict):
        raise error(f"{where}: not an apisurface {what} (no 'versions' header); {regenerate}")
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
        raise error(f"{where}: invalid 'versions' header; {regenerate}")
    if min_consumer > consumer:
        raise error(
            f"{where}: written by a newer apisurface (format {producer}, needs a reader of "
            f"format >= {min_consumer}, this one reads {consumer}); upgrade apisurface"
        )
    if producer < min_producer:
        raise error(
            f"{where}: written by an apisurface too old to read (format {producer} < "
            f"{min_producer}); {regenerate}"
        )
    if consumer in bad:
        raise error(
            f"{where}: its producer marks this reader (format {consumer}) as unable to read it; "
            f"upgrade apisurface or regenerate the {what}"
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
_SYMBOL_FIELDS = tuple(item.name for item in fields(Symbol))
_symbol_values = operator.attrgetter(*_SYMBOL_FIELDS)
_PATH_FIELD = _SYMBOL_FIELDS.index("path")


class _Reader:
    """Validates symbols one by one; equal parameters and signatures (inherited members,
    repeated conventions) are built once and shared, which keeps large surfaces small."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.parameters: dict[_ParameterKey, Parameter] = {}
        self.signatures: dict[tuple[tuple[Parameter, ...], str | None], Signature] = {}
        self.templates: dict[str, Symbol] = {}

    def parameter(self, item: object, here: str) -> Parameter:
        if not isinstance(item, dict):
            raise _fail(here, "each parameter must be an object")
        key = (item.get("name"), item.get("kind"), item.get("default"), item.get("annotation"))
        if not all(value is None or isinstance(value, str) for value in key):
            raise _fail(here, "a parameter's name, kind, default and annotation must be strings")
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

    def symbol_text(self, path: str, text: str, data: object) -> Symbol:
        """The symbol at ``path`` whose value is ``data``, parsed from ``text``: symbols
        with the same text (inherited members, repeated conventions) are validated once."""
        template = self.templates.get(text)
        if template is None:
            template = self.templates[text] = self.symbol(path, data)
            return template
        values = list(_symbol_values(template))
        values[_PATH_FIELD] = path
        return Symbol(*values)

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
        scope = data.get("export_scope", [])
        if not isinstance(overloads, list) or not isinstance(bases, list):
            raise _fail(here, "overloads and bases must be lists")
        if not isinstance(scope, list):
            raise _fail(here, "export_scope must be a list")
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
            export_scope=tuple(_str(item, here, "an export scope") or "" for item in scope),
        )


def loads(text: str | bytes, where: str = "snapshot") -> Surface:
    """Parse and validate a snapshot document."""
    _refuse_lone_surrogates(text, where)
    quick = _split_symbols(text)
    entries: dict[str, tuple[str, object]] | None = None
    if quick is not None:
        data, entries = quick
    else:
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
    declared_by = data.get("declared_by", [])
    if not isinstance(problems, list):
        raise _fail(where, "'problems' must be a list")
    if not isinstance(declared_by, list):
        raise _fail(where, "'declared_by' must be a list")
    docs_sources = data.get("docs_sources")
    if docs_sources is not None and not isinstance(docs_sources, bool):
        raise _fail(where, "'docs_sources' must be true or false")
    reader = _Reader(where)
    if entries is not None:
        parsed = {
            path: reader.symbol_text(path, value_text, value)
            for path, (value_text, value) in entries.items()
        }
    else:
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
        declared_by=tuple(_str(item, where, "a decorator name") or "" for item in declared_by),
        docs_sources=docs_sources,
    )


_SYMBOLS_OPEN = '  "symbols": {'
_ENTRY_PREFIX = '    "'


def _split_symbols(
    text: str | bytes,
) -> tuple[Any, dict[str, tuple[str, object]]] | None:
    """The document and its symbols, read line by line when the text has the layout
    :func:`dumps` writes (one symbol per line): each distinct symbol value is decoded once.
    None when the layout differs in any way; the caller then decodes the whole text, so
    the result (and any error) is exactly that of ``json.loads``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return None
    lines = text.split("\n")
    try:
        start = lines.index(_SYMBOLS_OPEN)
    except ValueError:
        return None
    end = start + 1
    while end < len(lines) and lines[end] not in ("  }", "  },"):
        end += 1
    if end >= len(lines) or end == start + 1:
        return None
    entries: dict[str, tuple[str, object]] = {}
    decoded: dict[str, object] = {}
    last = end - 1
    for index in range(start + 1, end):
        line = lines[index]
        if not line.startswith(_ENTRY_PREFIX):
            return None
        close = line.find('"', 5)
        if close < 0 or line[close : close + 3] != '": ':
            return None
        path = line[5:close]
        if "\\" in path or not path.isprintable():
            return None  # escapes or control characters: leave them to json.loads
        value_text = line[close + 3 :]
        if index != last:
            if not value_text.endswith(","):
                return None
            value_text = value_text[:-1]
        if path in entries:
            return None  # a repeated key: json.loads keeps the last one
        value = decoded.get(value_text, decoded)
        if value is decoded:
            try:
                value = decoded[value_text] = json.loads(value_text)
            except (ValueError, RecursionError):
                return None
        entries[path] = (value_text, value)
    # The block becomes ``"symbols": {}`` (keeping the comma that follows it, if any).
    emptied = _SYMBOLS_OPEN + "}" + lines[end][3:]
    skeleton = "\n".join([*lines[:start], emptied, *lines[end + 1 :]])
    if skeleton.count('"symbols"') != 1:
        return None
    try:
        data = json.loads(skeleton)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("symbols") != {}:
        return None
    return data, entries


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_lone_surrogates(text: str | bytes, where: str) -> None:
    """JSON can spell a lone surrogate (``"\\ud800"``), which is not text: no report or
    file could be written with it. Our writer never escapes one (it writes UTF-8), so the
    full check runs only when the document spells one."""
    probe = text.decode("latin-1") if isinstance(text, bytes) else text
    if _ESCAPED_SURROGATE.search(probe) is None:
        return
    try:
        data = json.loads(text)
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except RecursionError:
        raise _fail(where, "nested too deeply to be a snapshot") from None
    except UnicodeEncodeError:
        raise _fail(where, "holds a lone surrogate (\\ud800-\\udfff), which is not text") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise _fail(where, f"not valid JSON ({error})") from None


def read_snapshot(path: Path) -> Surface:
    """Read a snapshot file; raise :class:`SnapshotError` with advice when it is unusable."""
    try:
        size = path.stat().st_size
        if size > _MAX_BYTES:
            raise _fail(str(path), f"too large ({size >> 20} MiB) to be a snapshot")
        data = read_regular(path, _MAX_BYTES)
    except OSError as error:
        raise SnapshotError(f"{path}: cannot read ({error.strerror or error})") from None
    return loads(data, str(path))


def is_snapshot_file(path: Path) -> bool:
    """Whether ``path`` looks like a snapshot (a ``.json`` file) rather than sources."""
    return path.suffix == ".json" and path.is_file()
