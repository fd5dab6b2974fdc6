"""One encoding of a symbol for snapshot files and cache entries, with the validation of
untrusted input built in.

A symbol's *value* (everything but its path, its target and its location) is one JSON
object, the same in a snapshot line (``"path": {value}``) and in a cache entry (a list of
distinct values). Encoding writes each distinct value once; decoding validates each
distinct value once, shares equal parameters and signatures, and builds the symbols
column by column. Both files come from outside (a pull request's snapshot, a cache folder
anyone can write), so nothing is trusted: a wrong shape is a :class:`SnapshotError` of
one line naming the file, the symbol and what is wrong.
"""

from __future__ import annotations

import gc
import json
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields
from itertools import repeat
from operator import attrgetter
from typing import Any

from apisurface.errors import SnapshotError
from apisurface.model import (
    Guess,
    Location,
    Parameter,
    ParamKind,
    Problem,
    Signature,
    Symbol,
    SymbolKind,
)

__all__ = [
    "NOT_IN_SNAPSHOT",
    "NOT_IN_VALUE",
    "SymbolDecoder",
    "build_symbols",
    "checked_text",
    "decoding",
    "fail",
    "is_package_name",
    "problem_from",
    "problem_value",
    "spells_surrogate",
    "symbol_texts",
    "symbol_value",
    "symbol_values",
    "to_json_text",
]

_SURROGATE_TEXT = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")

_MAX_TEXT = 100_000

NOT_IN_VALUE = frozenset({"path", "target", "location"})
NOT_IN_SNAPSHOT = frozenset({"docstring_hash"})
"""The :class:`Symbol` fields a cache entry's value keeps and a snapshot file's leaves out:
the digest of a docstring's text (a snapshot records the contract, whether the symbol is
``documented``, not its prose: a docstring edit leaves it current)."""
"""The :class:`Symbol` fields a symbol value leaves out: the path is its key, and only
cache entries keep targets and locations (snapshot files record neither). Every other
field is written by :func:`symbol_value`, read by :meth:`SymbolDecoder.symbol` and part of
``_value_key``; tests/test_codec_fields.py fails for a field that is not."""


@contextmanager
def decoding() -> Iterator[None]:
    """Decoding makes hundreds of thousands of objects and no reference cycles: the cyclic
    collector would only walk them over and over (a fifth of the time on 100k symbols), so
    it waits until the end."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def fail(where: str, what: str) -> SnapshotError:
    """The one-line error for a bad snapshot (or cache entry) at ``where``."""
    return SnapshotError(f"{where}: {what}; regenerate it with 'apisurface snapshot'")


def json_object(
    text: str | bytes, where: str, kind: str, fail: Callable[[str, str], Exception] = fail
) -> dict[str, Any]:
    """``text`` decoded as the JSON object an apisurface ``kind`` file is (a snapshot, a
    migration spec); anything else raises ``fail(where, what)`` in one line."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise fail(where, f"nested too deeply to be a {kind}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise fail(where, f"not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise fail(where, f"not an apisurface {kind} (not a JSON object)")
    return data


def spells_surrogate(text: str | bytes) -> bool:
    """Whether the JSON ``text`` spells a surrogate (``"\\ud800"``), which may be a lone
    one (not text). Our writers never escape one: they write UTF-8."""
    if isinstance(text, bytes):
        return _SURROGATE_BYTES.search(text) is not None
    return _SURROGATE_TEXT.search(text) is not None


def is_package_name(name: object) -> bool:
    """Whether ``name`` is a dotted Python name: it becomes a file name
    (``api_snapshots/<package>.json``), so never a path."""
    return isinstance(name, str) and bool(name) and all(p.isidentifier() for p in name.split("."))


# --- encoding ---------------------------------------------------------------------------

_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def to_json_text(value: object) -> str:
    """``value`` as snapshot JSON: sorted keys, UTF-8 text, ``", "`` and ``": "``."""
    return _ENCODER.encode(value)


def _signature_value(signature: Signature) -> dict[str, Any]:
    data: dict[str, Any] = {"parameters": [_parameter_value(p) for p in signature.parameters]}
    if signature.returns is not None:
        data["returns"] = signature.returns
    return data


def _parameter_value(parameter: Parameter) -> dict[str, Any]:
    data: dict[str, Any] = {"name": parameter.name, "kind": parameter.kind.value}
    if parameter.default is not None:
        data["default"] = parameter.default
    if parameter.annotation is not None:
        data["annotation"] = parameter.annotation
    return data


def symbol_value(symbol: Symbol, *, snapshot: bool = False) -> dict[str, Any]:
    """The JSON value of ``symbol``: all but its :data:`NOT_IN_VALUE` fields (and, for a
    ``snapshot`` file, its :data:`NOT_IN_SNAPSHOT` fields)."""
    data: dict[str, Any] = {"kind": symbol.kind.value}
    if symbol.signature is not None:
        data["signature"] = _signature_value(symbol.signature)
    if symbol.overloads:
        data["overloads"] = [_signature_value(item) for item in symbol.overloads]
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
    if symbol.docstring_hash is not None and not snapshot:
        data["docstring"] = symbol.docstring_hash
    if symbol.documented:
        data["documented"] = True
    if symbol.constructor_from_fields:
        data["from_fields"] = True
    if symbol.export_scope:
        data["export_scope"] = list(symbol.export_scope)
    if symbol.guesses:
        data["guesses"] = [guess.value for guess in symbol.guesses]
    if symbol.inferred:
        data["inferred"] = list(symbol.inferred)
    if symbol.proto is not None:
        data["proto"] = symbol.proto
    if symbol.assignable is not None:
        data["assignable"] = symbol.assignable
    if symbol.required is not None:
        data["required"] = symbol.required
    if symbol.is_final:
        data["final"] = True
    if symbol.type_params is not None:
        data["type_params"] = list(symbol.type_params)
    if symbol.abstract_members is not None:
        data["abstract_members"] = list(symbol.abstract_members)
    if symbol.unhashable is not False:
        data["unhashable"] = symbol.unhashable
    return data


def _value_key(symbol: Symbol) -> tuple[object, ...]:
    """Equal for symbols that differ only by path, target or location and share their
    parts (an inherited member listed under each subclass): the parts by identity, so
    they must all stay alive while the key is used."""
    return (
        symbol.kind,
        id(symbol.signature),
        id(symbol.overloads),
        symbol.is_async,
        symbol.is_abstract,
        symbol.bases,
        symbol.annotation,
        symbol.deprecated,
        symbol.docstring_hash,
        symbol.documented,
        symbol.constructor_from_fields,
        symbol.export_scope,
        symbol.guesses,
        symbol.inferred,
        symbol.proto,
        symbol.assignable,
        symbol.required,
        symbol.is_final,
        symbol.type_params,
        symbol.abstract_members,
        symbol.unhashable,
    )


def symbol_texts(symbols: Iterable[Symbol], *, snapshot: bool = True) -> list[str]:
    """:func:`symbol_value` of each symbol as JSON text (as a ``snapshot`` file writes it,
    by default), each distinct value encoded once."""
    encoded: dict[tuple[object, ...], str] = {}
    texts = []
    for symbol in symbols:
        key = _value_key(symbol)
        text = encoded.get(key)
        if text is None:
            text = encoded[key] = to_json_text(symbol_value(symbol, snapshot=snapshot))
        texts.append(text)
    return texts


def symbol_values(symbols: Iterable[Symbol]) -> tuple[list[dict[str, Any]], list[int]]:
    """The distinct :func:`symbol_value` of ``symbols`` (as far as sharing tells), and the
    index of each symbol's value among them."""
    ids: dict[tuple[object, ...], int] = {}
    values: list[dict[str, Any]] = []
    indexes = []
    for symbol in symbols:
        key = _value_key(symbol)
        index = ids.get(key)
        if index is None:
            index = ids[key] = len(values)
            values.append(symbol_value(symbol))
        indexes.append(index)
    return values, indexes


# --- decoding ---------------------------------------------------------------------------


def checked_text(value: object, where: str, what: str, *, optional: bool = False) -> str | None:
    """``value`` when it is a string of reasonable length (or None, when ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise fail(where, f"{what} must be a string")
    return value


def problem_value(problem: Problem) -> dict[str, Any]:
    """A problem as JSON (defaults left out)."""
    value: dict[str, Any] = {"file": problem.file, "message": problem.message}
    if problem.line:
        value["line"] = problem.line
    if problem.path:
        value["path"] = problem.path
    if problem.related:
        value["related"] = list(problem.related)
    if problem.digest is not None:
        value["digest"] = problem.digest
    if problem.decided:
        value["decided"] = True
    if problem.column:
        value["column"] = problem.column
    if problem.error:
        value["error"] = True
    return value


_DIGEST = re.compile(r"[0-9a-f]{64}")


def problem_from(value: object, where: str) -> Problem:
    """A problem read back from :func:`problem_value`, validated."""
    if not isinstance(value, dict) or not set(value) <= _PROBLEM_KEYS:
        raise fail(where, "an unknown must be an object with file and message")
    line = value.get("line", 0)
    column = value.get("column", 0)
    for number in (line, column):
        if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 2**31:
            raise fail(where, "an unknown's line and column must be non-negative integers")
    related = value.get("related", [])
    if not isinstance(related, list):
        raise fail(where, "an unknown's 'related' must be a list")
    digest = checked_text(value.get("digest"), where, "an unknown's digest", optional=True)
    if digest is not None and not _DIGEST.fullmatch(digest):
        raise fail(where, "an unknown's digest must be a sha256 in hex")
    return Problem(
        file=checked_text(value.get("file"), where, "an unknown's file") or "",
        message=checked_text(value.get("message"), where, "an unknown's message") or "",
        line=line,
        path=checked_text(value.get("path", ""), where, "an unknown's path") or "",
        related=tuple(checked_text(item, where, "a related file") or "" for item in related),
        digest=digest,
        decided=value.get("decided") is True,
        column=column,
        error=value.get("error") is True,
    )


_PROBLEM_KEYS = frozenset(
    {"file", "message", "line", "path", "related", "digest", "decided", "column", "error"}
)
_PARAM_KINDS = {kind.value: kind for kind in ParamKind}
_SYMBOL_KINDS = {kind.value: kind for kind in SymbolKind}
_GUESSES = {guess.value: guess for guess in Guess}
_ParameterKey = tuple[object, object, object, object]


class SymbolDecoder:
    """Validates symbol values read from ``where``, each distinct value once; equal
    parameters and signatures (inherited members, repeated conventions) are built once
    and shared, which keeps large surfaces small."""

    def __init__(self, where: str, *, prose: bool = True) -> None:
        self.where = where
        self.prose = prose
        """Whether to keep a docstring's digest (a cache entry); a snapshot file of format
        13 or older records one, read only as "documented" (format 14 records no prose)."""
        self.parameters: dict[_ParameterKey, Parameter] = {}
        self.signatures: dict[tuple[tuple[Parameter, ...], str | None], Signature] = {}
        self.templates: dict[str, Symbol] = {}

    def parameter(self, item: object, here: str) -> Parameter:
        if not isinstance(item, dict):
            raise fail(here, "each parameter must be an object")
        key = (item.get("name"), item.get("kind"), item.get("default"), item.get("annotation"))
        if not all(value is None or isinstance(value, str) for value in key):
            raise fail(here, "a parameter's name, kind, default and annotation must be strings")
        found = self.parameters.get(key)
        if found is not None:
            return found
        kind = _PARAM_KINDS.get(key[1]) if isinstance(key[1], str) else None
        if kind is None:
            raise fail(here, f"unknown parameter kind {key[1]!r}")
        parameter = Parameter(
            name=checked_text(key[0], here, "parameter name") or "",
            kind=kind,
            default=checked_text(key[2], here, "default", optional=True),
            annotation=checked_text(key[3], here, "annotation", optional=True),
        )
        self.parameters[key] = parameter
        return parameter

    @staticmethod
    def flag(value: object, here: str, what: str) -> bool | None:
        """An optional boolean field: absent (None), ``true`` or ``false``."""
        if value is None or isinstance(value, bool):
            return value
        raise fail(here, f"{what} must be true or false")

    @staticmethod
    def names(value: object, here: str, what: str) -> tuple[str, ...] | None:
        """An optional list of names (type parameters ``T``, ``U=``; ``run:method``)."""
        if value is None:
            return None
        if not isinstance(value, list):
            raise fail(here, f"{what} must be a list of names")
        return tuple(checked_text(item, here, f"a name in {what}") or "" for item in value)

    def signature(self, data: object, here: str) -> Signature:
        if not isinstance(data, dict) or not isinstance(data.get("parameters"), list):
            raise fail(here, "a signature must be an object with 'parameters'")
        parameters = tuple(self.parameter(item, here) for item in data["parameters"])
        returns = checked_text(data.get("returns"), here, "returns", optional=True)
        key = (parameters, returns)
        found = self.signatures.get(key)
        if found is None:
            found = self.signatures[key] = Signature(parameters, returns)
        return found

    def template(self, path: str, text: str, data: object) -> Symbol:
        """The symbol whose value is ``data``, parsed from ``text``, first seen at
        ``path``: values with the same text are validated once (use it with
        :func:`build_symbols` for the other paths)."""
        template = self.templates.get(text)
        if template is None:
            template = self.templates[text] = self.symbol(path, data)
        return template

    def symbol(self, path: str, data: object) -> Symbol:
        """The symbol at ``path`` whose value is ``data``."""
        here = f"{self.where} symbol {path!r}"
        if not isinstance(data, dict):
            raise fail(here, "must be an object")
        raw_kind = data.get("kind")
        kind = _SYMBOL_KINDS.get(raw_kind) if isinstance(raw_kind, str) else None
        if kind is None:
            raise fail(here, f"unknown kind {raw_kind!r}")
        signature = data.get("signature")
        overloads = data.get("overloads", [])
        bases = data.get("bases", [])
        scope = data.get("export_scope", [])
        inferred = data.get("inferred", [])
        if not isinstance(overloads, list) or not isinstance(bases, list):
            raise fail(here, "overloads and bases must be lists")
        if not isinstance(scope, list) or not isinstance(inferred, list):
            raise fail(here, "export_scope and inferred must be lists")
        guesses = data.get("guesses", [])
        if not isinstance(guesses, list) or not all(item in _GUESSES for item in guesses):
            raise fail(here, f"guesses must be a list of {', '.join(sorted(_GUESSES))}")
        docstring = checked_text(data.get("docstring"), here, "docstring", optional=True)
        self.flag(data.get("documented"), here, "documented")
        return Symbol(
            path=path,
            kind=kind,
            signature=self.signature(signature, here) if signature is not None else None,
            overloads=tuple(self.signature(item, here) for item in overloads),
            is_async=data.get("async") is True,
            is_abstract=data.get("abstract") is True,
            bases=tuple(checked_text(base, here, "a base") or "" for base in bases),
            annotation=checked_text(data.get("annotation"), here, "annotation", optional=True),
            deprecated=checked_text(data.get("deprecated"), here, "deprecated", optional=True),
            docstring_hash=docstring if self.prose else None,
            # A snapshot file of format 13 or older records the docstring's digest instead.
            documented=data.get("documented") is True or (not self.prose and docstring is not None),
            constructor_from_fields=data.get("from_fields") is True,
            export_scope=tuple(checked_text(item, here, "an export scope") or "" for item in scope),
            guesses=tuple(sorted(_GUESSES[item] for item in set(guesses))),
            inferred=tuple(checked_text(item, here, "an inferred part") or "" for item in inferred),
            proto=checked_text(data.get("proto"), here, "proto", optional=True),
            assignable=self.flag(data.get("assignable"), here, "assignable"),
            required=self.flag(data.get("required"), here, "required"),
            is_final=data.get("final") is True,
            type_params=self.names(data.get("type_params"), here, "type_params"),
            abstract_members=self.names(data.get("abstract_members"), here, "abstract_members"),
            unhashable=self.flag(data.get("unhashable", False), here, "unhashable"),
        )


# Symbols are built column by column: ``Symbol.__init__`` of a frozen dataclass sets each
# of its fields through ``object.__setattr__`` in Python, twice the cost of filling
# the slots of fresh objects field by field with C-level ``map`` calls. The result is the
# same object (no ``__post_init__``; every slot set), checked here when the model changes.
_FIELDS = tuple(item.name for item in fields(Symbol))
_SLOTS = {name: getattr(Symbol, name) for name in _FIELDS}
if hasattr(Symbol, "__post_init__") or Symbol.__slots__ != _FIELDS:  # pragma: no cover
    raise ImportError("apisurface.store.codec: build_symbols assumes plain slot fields")


def build_symbols(
    paths: Sequence[str],
    templates: Sequence[Symbol],
    *,
    targets: Sequence[str] | None = None,
    locations: Sequence[Location | None] | None = None,
) -> list[Symbol]:
    """``templates[i]`` at ``paths[i]`` for each ``i`` (with ``targets[i]`` and
    ``locations[i]`` when given), as new symbols."""
    count = len(paths)
    if len(templates) != count:
        raise ValueError("as many templates as paths")
    symbols: list[Symbol] = list(map(object.__new__, repeat(Symbol, count)))
    given = {"path": paths, "target": targets, "location": locations}
    for name, slot in _SLOTS.items():
        column = given.get(name)
        if column is not None and len(column) != count:
            raise ValueError(f"as many {name} values as paths")
        values = map(attrgetter(name), templates) if column is None else column
        deque(map(slot.__set__, symbols, values), maxlen=0)
    return symbols
