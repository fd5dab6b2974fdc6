"""Surfaces stored as JSON snapshot files, with the producer/consumer versions of POLICY.md
section 4.

A snapshot is untrusted data: it is size-limited, fully validated and refused with one
clear line when it is corrupt, of the wrong shape, or from an incompatible apisurface.
Output is deterministic: sorted keys, no timestamps, no absolute paths, no line numbers.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, replace
from itertools import repeat
from operator import add
from pathlib import Path
from typing import Any

from apisurface import __version__
from apisurface.errors import ApisurfaceError, SnapshotError
from apisurface.model import (
    ExclusionReason,
    Problem,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.project.safeio import read_regular
from apisurface.store.atomic import write_atomic
from apisurface.store.codec import (
    SymbolDecoder,
    build_symbols,
    checked_text,
    decoding,
    fail,
    is_package_name,
    json_object,
    problem_from,
    problem_value,
    spells_surrogate,
    symbol_texts,
    symbol_value,
    to_json_text,
)

__all__ = [
    "CONSUMER",
    "MIN_PRODUCER",
    "PRODUCER",
    "default_snapshot_path",
    "dumps",
    "is_snapshot_file",
    "loads",
    "read_snapshot",
    "snapshot_target",
    "write_snapshot",
]

PRODUCER = 14
"""The format version this apisurface writes. Raise it when the format gains information.
2: ``declared_by`` (the export decorators that defined the surface) and a symbol's
``export_scope``; readers of format 1 ignore both, so ``MIN_CONSUMER`` stays 1.
3: ``docs_sources`` (whether API docs sources were read); older readers ignore it, and a
file without it reads as "not recorded".
4: ``unknowns`` (each problem with its file, object path and the digest of the content it
concerns, so that a diff tells an unchanged unknown from a changed one); ``problems`` keeps
their text for older readers, and a file without ``unknowns`` reads its problems without
digests (each then blocks a gate, as before). A symbol may be of kind ``unknown``: a file
holding one needs a reader of format 2 (older readers would refuse the kind as corrupt).
5: ``engine`` (``{"apisurface": version, "rules": ENGINE}``, the engine that made the
file); older readers ignore it, and a file without it reads as an unknown engine.
6: a symbol's ``guesses`` (facts resting on a guess, which grade changes inferred); older
readers ignore them, and a file without them reads as "no guess".
7: a symbol's ``inferred`` parts (types and keywords read from code); older readers ignore
it and grade every change proven.
8: a symbol's ``proto`` (the wire facts of a protocol buffer message, field, enum or enum
value); older readers ignore it and compare those symbols by their Python facts only.
9: ``targets`` (for each path that is an alias, the path where its object is defined; every
other symbol is defined where it is), so that a diff against a snapshot pairs the paths of
one object and sees through private bases as a diff of two trees does; older readers ignore
it, and a file without it reads every target as unknown.
10: a symbol's ``assignable`` (whether an assignment works where its kind alone does not
say: an attribute of read-only instances, a property with a setter); older readers ignore
it and grade every change of kind from attribute to property proven.
11: a symbol's ``required`` (whether a dict of a ``TypedDict`` must have the key),
``final`` (a class or method marked ``@final``), ``type_params`` (a generic class's
declared type parameters) and ``abstract_members`` (a class's abstract members, public or
not); older readers ignore them, and a file without them reads no key as required or
optional, nothing as final, no type parameters and no abstract member beyond the listed.
12: a class's ``unhashable`` (``true`` when its ``__hash__`` is None, ``null`` when a base
outside the package and the standard library decides it); older readers ignore it, and a
file without it reads every class as hashable, which the diff uses only against a file of
engine 6 or later.
13: a symbol may be of kind ``external`` (a name of another distribution listed in
``__all__``, its origin as its target): a file holding one needs a reader of format 3.
14: a symbol's ``documented`` (it has a docstring of its own) instead of ``docstring`` (a
digest of the docstring's text): a snapshot records the contract, not the prose, so a
docstring edit leaves it current. Files of format 13 and older read as before (a digest
means documented). Readers of format 3 would read every symbol as undocumented (and, where
the other side lacks docs sources, a removal as documentation not judged), so
``min_consumer`` is 4."""
MIN_CONSUMER = 4
"""The oldest reader that understands what we write. Raise it only when old readers would
misread the file (format 4: ``documented``, which readers of format 3 would read as no
docstring; before, a symbol of kind ``unknown`` asked for format 2, ``external`` for 3)."""
BAD_CONSUMERS: list[int] = []
CONSUMER = 4
"""The format version this apisurface reads."""
MIN_PRODUCER = 1
"""The oldest writer whose files we still read."""

_MAX_BYTES = 512 * 1024 * 1024


def to_json(surface: Surface) -> dict[str, Any]:
    """The snapshot document of a surface, as plain JSON values."""
    return {
        **to_json_header(surface),
        "symbols": {
            path: symbol_value(surface.symbols[path], snapshot=True)
            for path in sorted(surface.symbols)
        },
        "targets": dict(_targets(surface)),
        "excluded": {path: surface.excluded[path].value for path in sorted(surface.excluded)},
    }


def dumps(surface: Surface) -> str:
    """Serialise a surface: byte-identical for equal surfaces, one line per symbol so that
    a pull request's diff of the file shows exactly the symbols that changed."""
    document = to_json_header(surface)
    document["symbols"] = _symbol_lines(surface)
    document["targets"] = [
        f"    {_string(path)}: {_string(target)}" for path, target in _targets(surface)
    ]
    document["excluded"] = [
        f"    {_string(path)}: {_string(surface.excluded[path].value)}"
        for path in sorted(surface.excluded)
    ]
    lines = ["{"]
    keys = sorted(document)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = document[key]
        if key in ("symbols", "targets", "excluded"):
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


def _targets(surface: Surface) -> list[tuple[str, str]]:
    """Each path that is an alias, sorted, with the path where its object is defined."""
    return [
        (path, symbol.target)
        for path, symbol in sorted(surface.symbols.items())
        if symbol.target and symbol.target != path
    ]


def _checked_targets(targets: object, where: str) -> dict[str, str] | None:
    """The ``targets`` of a document (format 9), checked; None for an older file."""
    if targets is None:
        return None
    if not isinstance(targets, dict) or not all(
        isinstance(target, str) and target for target in targets.values()
    ):
        raise _fail(where, "'targets' must be an object of dotted paths")
    return targets


def _target(path: str, targets: dict[str, str] | None) -> str:
    """The target a symbol read from a document has: the recorded one, else its own path
    (format 9), or unknown (an older file records none)."""
    return "" if targets is None else targets.get(path, path)


def _with_targets(symbols: dict[str, Symbol], targets: dict[str, str] | None) -> dict[str, Symbol]:
    """``symbols`` with the targets the document records (a symbol already right is kept)."""
    return {
        path: symbol
        if symbol.target == (target := _target(path, targets))
        else replace(symbol, target=target)
        for path, symbol in symbols.items()
    }


def to_json_header(surface: Surface) -> dict[str, Any]:
    """The snapshot document without ``symbols`` and ``excluded``."""
    header: dict[str, Any] = {
        "versions": {
            "producer": PRODUCER,
            "min_consumer": _min_consumer(surface),
            "bad_consumers": list(BAD_CONSUMERS),
        },
        "package": surface.package,
        "version": surface.version,
        "complete": surface.complete,
        "problems": [str(problem) for problem in surface.problems],
    }
    if surface.problems:
        header["unknowns"] = [problem_value(problem) for problem in surface.problems]
    if surface.declared_by:
        header["declared_by"] = list(surface.declared_by)
    if surface.docs_sources is not None:
        header["docs_sources"] = surface.docs_sources
    if surface.engine is not None:
        header["engine"] = {"apisurface": __version__, "rules": surface.engine}
    return header


def _min_consumer(surface: Surface) -> int:
    """Format 3 for a surface with a symbol of kind ``external``, 2 for one with a symbol
    of kind ``unknown``, else :data:`MIN_CONSUMER` (older readers refuse those kinds)."""
    kinds = {symbol.kind for symbol in surface.symbols.values()}
    if SymbolKind.EXTERNAL in kinds:
        return max(MIN_CONSUMER, 3)
    if SymbolKind.UNKNOWN in kinds:
        return max(MIN_CONSUMER, 2)
    return MIN_CONSUMER


def _symbol_lines(surface: Surface) -> list[str]:
    """``"path": {...}`` for every symbol, in path order."""
    paths = sorted(surface.symbols)
    texts = symbol_texts(map(surface.symbols.__getitem__, paths))
    return [f"    {_string(path)}: {text}" for path, text in zip(paths, texts, strict=True)]


_json = to_json_text
_string = json.encoder.encode_basestring
"""A string as :func:`to_json_text` writes it (JSON's own escaping, no ASCII-only), without
the encoder's checks of what a value is: 300k paths in a sympy snapshot."""


def write_snapshot(surface: Surface, path: Path) -> None:
    """Write the snapshot of ``surface`` to ``path`` atomically."""
    write_atomic(path, dumps(surface))


def default_snapshot_path(base: Path, package: str) -> Path:
    """Where a project keeps the snapshot of ``package``: ``base/api_snapshots/<package>.json``."""
    return base / "api_snapshots" / f"{package}.json"


def snapshot_target(base: Path, package: str, output: str | None = None) -> Path:
    """The file ``apisurface snapshot`` may write: ``output`` when the user named it, else
    the default path inside ``base``.

    The default path must stay inside ``base``: a pull request can commit ``api_snapshots``
    as a symlink to anywhere, so a folder that is a symlink, or resolves outside ``base`` (or
    loops), is refused with an ``ApisurfaceError``. A named file is the user's choice; the
    write itself (``write_atomic``) refuses a target that is a symlink or not a regular file.
    """
    if output:
        return Path(output)
    target = default_snapshot_path(base, package)
    folder = target.parent
    try:
        inside = folder.resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        inside = False
    if folder.is_symlink() or not inside:
        raise ApisurfaceError(
            f"{folder}: a symlink or outside {base}; refusing to write the snapshot there "
            "(name the file with -o)"
        )
    return target


# --- reading ----------------------------------------------------------------------------


_fail = fail


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


def loads(text: str | bytes, where: str = "snapshot") -> Surface:
    """Parse and validate a snapshot document."""
    with decoding():
        return _loads(text, where)


def _loads(text: str | bytes, where: str) -> Surface:
    _refuse_lone_surrogates(text, where)
    quick = _split_symbols(text)
    if quick is not None:
        data, lines = quick
        if not isinstance(data, dict):
            raise _fail(where, "not an apisurface snapshot (not a JSON object)")
    else:
        data = json_object(text, where, "snapshot")
    _check_versions(data, where)
    package = checked_text(data.get("package"), where, "'package'")
    if not is_package_name(package):
        raise _fail(where, f"'package' is not a Python package name: {(package or '')[:80]!r}")
    symbols = data.get("symbols")
    excluded = data.get("excluded", {})
    problems = data.get("problems", [])
    if not isinstance(symbols, dict) or not isinstance(excluded, dict):
        raise _fail(where, "'symbols' and 'excluded' must be objects")
    declared_by = data.get("declared_by", [])
    if not isinstance(problems, list):
        raise _fail(where, "'problems' must be a list")
    unknowns = data.get("unknowns")
    if unknowns is not None and not isinstance(unknowns, list):
        raise _fail(where, "'unknowns' must be a list")
    if not isinstance(declared_by, list):
        raise _fail(where, "'declared_by' must be a list")
    docs_sources = data.get("docs_sources")
    if docs_sources is not None and not isinstance(docs_sources, bool):
        raise _fail(where, "'docs_sources' must be true or false")
    engine = data.get("engine")
    if engine is not None and not (isinstance(engine, dict) and _is_int(engine.get("rules"))):
        raise _fail(where, "'engine' must be an object with an integer 'rules'")
    targets = _checked_targets(data.get("targets"), where)
    reader = SymbolDecoder(where, prose=False)
    if quick is not None:
        parsed = lines.symbols(reader, targets)
    else:
        parsed = {path: reader.symbol(path, value) for path, value in symbols.items()}
        parsed = _with_targets(parsed, targets)
    stray = next((path for path in targets or () if path not in parsed), None)
    if stray is not None:
        raise _fail(where, f"'targets' names {stray[:80]!r}, which is no symbol of the file")
    reasons: dict[str, ExclusionReason] = {}
    for path, reason in excluded.items():
        try:
            reasons[path] = ExclusionReason(reason)
        except ValueError:
            raise _fail(where, f"unknown exclusion reason {reason!r}") from None
    surface = Surface(
        package=package or "",
        symbols=parsed,
        excluded=reasons,
        version=checked_text(data.get("version"), where, "'version'", optional=True),
        problems=_problems(problems, unknowns, where),
        declared_by=tuple(
            checked_text(item, where, "a decorator name") or "" for item in declared_by
        ),
        docs_sources=docs_sources,
        engine=None if engine is None else engine["rules"],
    )
    if quick is not None:
        _recent.symbols = dict(zip(lines.lines, parsed.values(), strict=True))
    return surface


def _problems(problems: list[Any], unknowns: list[Any] | None, where: str) -> tuple[Problem, ...]:
    """The problems of a snapshot: from ``unknowns`` (format 4), else from the text of
    ``problems`` (without a file or digest: such a problem blocks every gate)."""
    texts = tuple(checked_text(item, where, "a problem") or "" for item in problems)
    if unknowns is None:
        return tuple(Problem("", text) for text in texts)
    return tuple(problem_from(item, where) for item in unknowns)


class _Recent:
    """The symbols of the last snapshot read, by their line (with a comma). The two
    sides of a diff share most lines: the second side reuses those symbols instead of
    building its own, and the diff sees identical objects. One document is kept; symbols
    are immutable values, so sharing them changes nothing but time and memory."""

    symbols: dict[str, Symbol] = {}  # noqa: RUF012 (replaced, never mutated)


_recent = _Recent()


_SYMBOLS_OPEN = '  "symbols": {'
_ENTRY_PREFIX = '    "'


@dataclass(slots=True)
class _Lines:
    """The symbols block of a document in the layout :func:`dumps` writes, split up before
    anything in it is validated (the header is checked first)."""

    lines: list[str]
    """Each symbol line, with a comma (the last one's added): the keys of :class:`_Recent`."""
    known: list[Symbol | None]
    """For each line, its symbol when the snapshot read last had the very same line."""
    every_path: list[str]
    """The path of each line."""
    paths: list[str]
    """The paths of the other lines, in order."""
    values: list[str]
    """Their values, as JSON text."""
    decoded: dict[str, object]
    """Each distinct value text, decoded."""

    def symbols(self, decoder: SymbolDecoder, targets: dict[str, str] | None) -> dict[str, Symbol]:
        """The symbols by path, in file order, with the document's ``targets``: each
        distinct value validated once."""
        first_paths: dict[str, str] = {}  # each distinct value, at its first path
        deque(map(first_paths.setdefault, self.values, self.paths), maxlen=0)
        decoded, template = self.decoded, decoder.template
        templates = {
            text: template(path, text, decoded[text]) for text, path in first_paths.items()
        }
        fresh = build_symbols(
            self.paths,
            list(map(templates.__getitem__, self.values)),
            targets=[_target(path, targets) for path in self.paths],
        )
        if len(fresh) == len(self.known):
            return dict(zip(self.every_path, fresh, strict=True))
        rest = iter(fresh)
        ordered = [next(rest) if item is None else item for item in self.known]
        # A line read before is the same path and value; its target is this document's.
        return _with_targets(dict(zip(self.every_path, ordered, strict=True)), targets)


def _split_symbols(text: str | bytes) -> tuple[Any, _Lines] | None:
    """The document without its symbols, and its symbol lines, when the text has the layout
    :func:`dumps` writes (one symbol per line). None when the layout differs in any way;
    the caller then decodes the whole text, so the result (and any error) is exactly that
    of ``json.loads``. Each step works on all lines at once."""
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
    end = min(_index(lines, "  }", start), _index(lines, "  },", start))
    if end >= len(lines) or end == start + 1:
        return None
    block = lines[start + 1 : end]
    block[-1] += ","  # every line as if followed by another: the same line, the same key
    # A line that the snapshot read last also had (the other side of a diff) is the same
    # path and value, so the same, already validated symbol.
    known = list(map(_recent.symbols.get, block))
    others = [n for n, k in zip(block, known, strict=True) if k is None]
    # ``    "path": {...},``: the path ends where ``": `` first follows the opening quote.
    ends = list(map(str.find, others, repeat('": ')))
    if ends and min(ends) < len(_ENTRY_PREFIX):
        return None
    paths = list(map(str.__getitem__, others, map(slice, repeat(len(_ENTRY_PREFIX)), ends)))
    joined = "".join(paths)
    if (
        not all(map(str.startswith, others, repeat(_ENTRY_PREFIX)))
        or not all(map(str.endswith, others, repeat(",")))
        or '"' in joined  # (a path that ran into the value: no '": ' after it)
        or "\\" in joined  # escapes or control characters: leave them to json.loads
        or not joined.isprintable()
    ):
        return None
    every_path = paths if len(paths) == len(block) else _merged(known, paths)
    if len(set(every_path)) != len(every_path):
        return None  # a repeated key: json.loads keeps the last one
    values = list(map(str.__getitem__, others, map(slice, map(add, ends, repeat(3)), repeat(-1))))
    decoded: dict[str, object] = {}
    for value in values:
        if value not in decoded:
            try:
                decoded[value] = json.loads(value)
            except (ValueError, RecursionError):
                return None
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
    return data, _Lines(block, known, every_path, paths, values, decoded)


def _index(lines: list[str], line: str, start: int) -> int:
    """Where ``line`` first is in ``lines`` after ``start`` (``len(lines)`` if nowhere)."""
    try:
        return lines.index(line, start + 1)
    except ValueError:
        return len(lines)


def _merged(known: list[Symbol | None], paths: list[str]) -> list[str]:
    rest = iter(paths)
    return [next(rest) if item is None else item.path for item in known]


def _refuse_lone_surrogates(text: str | bytes, where: str) -> None:
    """JSON can spell a lone surrogate (``"\\ud800"``), which is not text: no report or
    file could be written with it. Our writer never escapes one (it writes UTF-8), so the
    full check runs only when the document spells one."""
    if not spells_surrogate(text):
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
