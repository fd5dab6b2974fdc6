"""The migration spec: what a release's changes mean for code that uses the package.

A :class:`MigrationSpec` is derived from two surfaces and their diff (or read from a JSON
file a library ships): the paths that were renamed or moved (what ``migrate`` rewrites),
the keyword arguments that were renamed, and every other change a use can meet (what
``impact`` reports). All paths are public dotted paths; entries are keyed by the path a
user types in OLD, and changes reported at a renamed symbol's new path are keyed at both.

The file carries the producer/consumer ``versions`` header of POLICY.md section 4, like
snapshots, and is untrusted input: it is size-limited and validated field by field.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from apisurface.changes import CallerHint, Change, ChangeKind, Successor
from apisurface.compare.diff import diff_surfaces
from apisurface.compare.rules import RULES, Level, base_path
from apisurface.errors import ApisurfaceError
from apisurface.model import Surface, Symbol, SymbolKind
from apisurface.project.pytext import parse_python
from apisurface.project.safeio import TooLarge, read_regular
from apisurface.project.sources import MAX_FILE_BYTES
from apisurface.release.writeback import is_python_path
from apisurface.store.codec import json_object
from apisurface.store.snapshot import check_versions

__all__ = [
    "CONSUMER",
    "PRODUCER",
    "Entry",
    "MigrationSpec",
    "SpecError",
    "build_spec",
    "deprecation_notes",
    "dumps_spec",
    "loads_spec",
    "read_spec",
    "replacement_named",
    "through",
]

PRODUCER = 1
"""The spec format this apisurface writes."""
MIN_CONSUMER = 1
BAD_CONSUMERS: list[int] = []
CONSUMER = 1
"""The spec format this apisurface reads."""
MIN_PRODUCER = 1

_MAX_BYTES = 64 * 1024 * 1024
_MAX_TEXT = 10_000

K = ChangeKind

# Kinds whose change a user's code cannot meet: additions, and changes with no effect on
# callers.
_NOT_FOR_USERS = frozenset(
    {
        K.SYMBOL_DEPRECATED,  # taken from NEW's deprecation markers instead
        K.DOCSTRING_CHANGED,
        K.OVERRIDE_REMOVED,
        K.KEYWORD_ONLY_PARAMETERS_REORDERED,
        K.POSITIONAL_ONLY_PARAMETER_RENAMED,
    }
)

# From the caller hints of the rows (src/apisurface/changes.py): removals whose ``new``
# value is a guessed successor (a rename the evidence did not confirm), and ways a path
# leaves the surface while the object stays public elsewhere (a use can be rewritten to the
# new path).
_GUESSED = frozenset(k for k in ChangeKind if k.rule.caller_hint.successor is Successor.GUESS)
_RENAMING = frozenset(k for k in ChangeKind if k.rule.caller_hint.successor is Successor.NEW_PATH)


class SpecError(ApisurfaceError):
    """A migration spec file that is corrupt, of the wrong shape, or from an incompatible
    apisurface."""


@dataclass(frozen=True, slots=True, order=True)
class Entry:
    """One change a use of ``path`` (an OLD path, or NEW's for a renamed symbol) can meet.

    ``parameter`` names the parameter for parameter changes; ``position`` is its index
    among the positional parameters a call fills (OLD's, or NEW's for an inserted one);
    ``replacement`` is the path (or, for a renamed keyword, the keyword) to use instead.
    """

    path: str
    rule: str
    level: str
    message: str
    parameter: str | None = None
    position: int | None = None
    replacement: str | None = None

    @property
    def hint(self) -> CallerHint:
        """What a use meeting this entry must do: its rule's row (a spec read from a file
        names known rules only)."""
        return ChangeKind(self.rule).rule.caller_hint


@dataclass(frozen=True, slots=True)
class MigrationSpec:
    """Everything ``impact`` and ``migrate`` need, without the surfaces."""

    package: str
    old_label: str = "old"
    new_label: str = "new"
    renames: dict[str, str] = field(default_factory=dict)
    keywords: dict[str, dict[str, str]] = field(default_factory=dict)
    entries: tuple[Entry, ...] = ()
    callables: dict[str, str] = field(default_factory=dict)
    """Callable paths (OLD and NEW spellings) with entries, to their kind (``function``,
    ``method``, ``classmethod``, ``staticmethod``, ``class``): whether a call passes
    ``self``."""
    modules: tuple[str, ...] = ()
    """Module paths of OLD and NEW, so a star import and ``import a.b`` resolve."""

    def by_path(self) -> dict[str, list[Entry]]:
        """Entries grouped by path."""
        grouped: dict[str, list[Entry]] = {}
        for entry in self.entries:
            grouped.setdefault(entry.path, []).append(entry)
        return grouped


# --- building ---------------------------------------------------------------------------


def build_spec(
    old: Surface,
    new: Surface,
    *,
    old_label: str = "old",
    new_label: str = "new",
    notes: dict[str, str] | None = None,
) -> MigrationSpec:
    """The spec of the change from ``old`` to ``new``. ``notes`` maps deprecated NEW paths
    to the full text of their deprecation (a docstring directive's body), where the short
    marker the surface keeps does not name a replacement."""
    changes = diff_surfaces(old, new)
    renames = _renames(changes, old, new)
    back = {target: source for source, target in renames.items()}

    def old_path(path: str) -> str:
        return through(path, back)

    entries: set[Entry] = set()
    keywords: dict[str, dict[str, str]] = {}
    callables: dict[str, str] = {}
    for change in changes:
        if change.kind in _NOT_FOR_USERS:
            continue
        rule = RULES[change.kind]
        if rule.level < Level.MAJOR and change.kind not in _RENAMING:
            continue
        message = rule.template.format(old=change.old, new=change.new)
        level = str(rule.level)
        base = base_path(change.path)
        parameter = change.path[len(base) + 1 : -1] if "(" in change.path else None
        if change.path in renames:
            target = renames[change.path]
            if change.kind not in _RENAMING:
                change_kind, message = K.SYMBOL_MOVED, f"moved to {target}"
            else:
                change_kind = change.kind
            entries.add(Entry(change.path, change_kind.value, level, message, None, None, target))
            continue
        # A removal may name a guessed successor: shown to the user, never rewritten (it is
        # no rename, so it is in neither ``renames`` nor ``keywords``).
        # (A symbol_removed names its own path when a tools/ exclusion explains it.)
        guessed = (
            change.kind in _GUESSED
            and change.new is not None
            and change.new != change.path
            and (parameter is not None or change.new in new.symbols)
        )
        guess = change.new if guessed else None
        if parameter is None:
            for path in {base, old_path(base)}:
                entries.add(Entry(path, change.kind.value, level, message, None, None, guess))
            continue
        position = _position(old, old_path(base), parameter)
        if change.kind in (K.PARAMETER_INSERTED, K.PARAMETER_ADDED_REQUIRED):
            position = _position(new, base, parameter)
        new_name = change.kind.rule.caller_hint.successor is Successor.NEW_NAME
        replacement = change.new if new_name else guess
        for path in {base, old_path(base)}:
            kind = change.kind.value
            entries.add(Entry(path, kind, level, message, parameter, position, replacement))
            if replacement is not None and guess is None:
                keywords.setdefault(path, {})[parameter] = replacement
            symbol = old.symbols.get(path) or new.symbols.get(path)
            if symbol is not None:
                callables[path] = symbol.kind.value
    entries.update(_deprecations(new, notes or {}))
    modules = sorted(
        path
        for surface in (old, new)
        for path, symbol in surface.symbols.items()
        if symbol.kind is SymbolKind.MODULE
    )
    return _python_names_only(
        MigrationSpec(
            package=new.package,
            old_label=old_label,
            new_label=new_label,
            renames=dict(sorted(renames.items())),
            keywords={path: dict(sorted(keywords[path].items())) for path in sorted(keywords)},
            entries=tuple(sorted(entries)),
            callables=dict(sorted(callables.items())),
            modules=tuple(dict.fromkeys(modules)),
        )
    )


def _python_names_only(spec: MigrationSpec) -> MigrationSpec:
    """``spec`` with only what code can spell (a surface, like a snapshot, may hold any
    path): a rename or replacement to a name that is not a dotted Python name is no
    rewrite, and an entry at a path or parameter code cannot spell is dropped, so what
    ``migrate`` writes, and what :func:`loads_spec` reads back, are Python names."""

    def spelled(entry: Entry) -> bool:
        return is_python_path(entry.path) and (
            entry.parameter is None or is_python_path(entry.parameter)
        )

    entries = tuple(
        entry
        if entry.replacement is None or is_python_path(entry.replacement)
        else replace(entry, replacement=None)
        for entry in spec.entries
        if spelled(entry)
    )
    keywords = {
        path: {old: new for old, new in names.items() if is_python_path(old + "." + new)}
        for path, names in spec.keywords.items()
        if is_python_path(path)
    }
    return replace(
        spec,
        renames={
            old: new
            for old, new in spec.renames.items()
            if is_python_path(old) and is_python_path(new)
        },
        keywords={path: names for path, names in keywords.items() if names},
        entries=entries,
        callables={path: kind for path, kind in spec.callables.items() if is_python_path(path)},
        modules=tuple(module for module in spec.modules if is_python_path(module)),
    )


def _renames(changes: list[Change], old: Surface, new: Surface) -> dict[str, str]:
    """OLD paths whose object lives on in NEW, to its NEW path: the renames and moves the
    diff states, and removals whose object reappears in a module new in NEW."""
    renames: dict[str, str] = {}
    removed: set[str] = set()
    for change in changes:
        if change.kind in _RENAMING and change.new and change.new in new.symbols:
            renames[change.path] = change.new
        elif change.kind is K.SYMBOL_REMOVED:
            removed.add(change.path)
    fresh_by_name: dict[str, list[str]] = {}
    for path in new.symbols:
        if path not in old.symbols:
            fresh_by_name.setdefault(path.rpartition(".")[2], []).append(path)
    for path in sorted(removed):
        target = _moved_into_new_module(old, new, path, fresh_by_name)
        if target is not None:
            renames[path] = target
    return renames


def _deprecations(new: Surface, notes: dict[str, str]) -> list[Entry]:
    """An entry for each path NEW deprecates, with the replacement its note names."""
    entries = []
    for path, symbol in sorted(new.symbols.items()):
        if symbol.deprecated is None:
            continue
        text = notes.get(path, symbol.deprecated)
        replacement = replacement_named(text, path, new)
        message = f"deprecated ({' '.join(text.split())[:200]})"
        entries.append(
            Entry(
                path, K.SYMBOL_DEPRECATED.value, str(Level.MINOR), message, None, None, replacement
            )
        )
    return entries


def through(path: str, mapping: dict[str, str]) -> str:
    """``path`` with its longest prefix found in ``mapping`` replaced."""
    head = path
    while head:
        if head in mapping:
            return mapping[head] + path[len(head) :]
        head = head.rpartition(".")[0]
    return path


def _position(surface: Surface, path: str, parameter: str) -> int | None:
    """The index of ``parameter`` among the positional parameters of ``path`` (a class
    stands for its ``__init__``)."""
    symbol = surface.symbols.get(path)
    if symbol is not None and symbol.kind is SymbolKind.CLASS:
        symbol = surface.symbols.get(f"{path}.__init__")
    if symbol is None or symbol.signature is None:
        return None
    positional = [p.name for p in symbol.signature.parameters if p.kind.is_positional]
    return positional.index(parameter) if parameter in positional else None


def _same_object(a: Symbol, b: Symbol) -> bool:
    return (
        a.kind == b.kind
        and a.signature == b.signature
        and a.overloads == b.overloads
        and a.is_async == b.is_async
        and a.bases == b.bases
        and a.documented
        and b.documented
        # The same text where both sides keep it (a snapshot records only that there is one).
        and (
            a.docstring_hash is None
            or b.docstring_hash is None
            or a.docstring_hash == b.docstring_hash
        )
    )


def _moved_into_new_module(
    old: Surface, new: Surface, path: str, fresh_by_name: dict[str, list[str]]
) -> str | None:
    """Where a removed symbol went when it moved into a module NEW added (the diff pairs
    renames among the tops of added subtrees, so a function moved into a new ``compat``
    module reads as removed there): the one new path with the same name holding the same
    object (kind, signature, docstring). ``fresh_by_name`` lists NEW's new paths by name."""
    symbol = old.symbols[path]
    if symbol.kind not in (SymbolKind.CLASS, SymbolKind.FUNCTION, SymbolKind.ATTRIBUTE):
        return None
    found = [
        other
        for other in fresh_by_name.get(symbol.name, ())
        if _same_object(symbol, new.symbols[other])
    ]
    return found[0] if len(found) == 1 else None


# --- replacements named by deprecation messages -----------------------------------------

_REPLACEMENT = re.compile(
    r"(?:\buse\b|\breplaced\s+by\b|\bin\s+favou?r\s+of\b|\brenamed\s+to\b|\bmoved\s+to\b)"
    r"\s+(?::[\w:]+:)?(`{1,2})?~?(?P<name>[A-Za-z_][\w.]*)(?:\(\))?(?(1)`{1,2})",
    re.IGNORECASE,
)
_ALTERNATIVE = re.compile(r"\s*(?:,|/|\bor\b)\s*(?::[\w:]+:)?`{0,2}~?[A-Za-z_]")
_REPLACEABLE = {
    SymbolKind.FUNCTION: {
        SymbolKind.FUNCTION,
        SymbolKind.CLASSMETHOD,
        SymbolKind.STATICMETHOD,
        SymbolKind.CLASS,
    },
    SymbolKind.CLASS: {SymbolKind.CLASS},
    SymbolKind.CLASSMETHOD: {SymbolKind.CLASSMETHOD, SymbolKind.STATICMETHOD},
    SymbolKind.STATICMETHOD: {SymbolKind.STATICMETHOD, SymbolKind.CLASSMETHOD},
    SymbolKind.METHOD: {SymbolKind.METHOD},
    SymbolKind.PROPERTY: {SymbolKind.PROPERTY},
    SymbolKind.ATTRIBUTE: {SymbolKind.ATTRIBUTE, SymbolKind.ENUM_MEMBER},
    SymbolKind.ENUM_MEMBER: {SymbolKind.ENUM_MEMBER, SymbolKind.ATTRIBUTE},
    SymbolKind.MODULE: {SymbolKind.MODULE},
    SymbolKind.TYPE_ALIAS: {SymbolKind.TYPE_ALIAS, SymbolKind.CLASS},
}


def replacement_named(text: str, path: str, surface: Surface) -> str | None:
    """The public path a deprecation message tells users to use instead ("use `X`
    instead", ``Use :func:`X```), when it names exactly one symbol of ``surface`` of a
    kind that can stand where ``path`` stood and that is not deprecated itself."""
    symbol = surface.symbols.get(path)
    if symbol is None:
        return None
    found: set[str] = set()
    parent = path.rpartition(".")[0]
    for match in _REPLACEMENT.finditer(text):
        if _ALTERNATIVE.match(text, match.end()):
            return None  # "use X or Y": a choice for the reader, not a rewrite
        name = match.group("name").rstrip(".")
        # The name as written, then relative to the deprecated symbol's own module and
        # its parents (the nearest spelling of one object wins), then to the package.
        candidates = [name]
        holder = parent
        while holder:
            candidates.append(f"{holder}.{name}")
            holder = holder.rpartition(".")[0]
        for candidate in candidates:
            target = surface.symbols.get(candidate)
            if (
                target is not None
                and candidate != path
                and target.deprecated is None
                and target.kind in _REPLACEABLE.get(symbol.kind, set())
                and _same_result(symbol, candidate, target)
            ):
                found.add(candidate)
                break
    return found.pop() if len(found) == 1 else None


def _returns(path: str, symbol: Symbol) -> str | None:
    if symbol.kind is SymbolKind.CLASS:
        return path
    if symbol.signature is None or symbol.signature.returns is None:
        return None
    returns = symbol.signature.returns
    if returns == "typing.Self":
        return path.rpartition(".")[0]
    return returns


def _same_result(deprecated: Symbol, path: str, replacement: Symbol) -> bool:
    """Whether a call of ``replacement`` gives what a call of ``deprecated`` gave, as far
    as the surface can tell: for callables, both return annotations are written and equal
    (``semver.parse`` -> ``Version.parse`` turns a dict into a ``Version``: its message
    names the replacement, but the rewrite would change the program)."""
    if not deprecated.kind.is_callable:
        return True
    before = _returns(deprecated.path, deprecated)
    return before is not None and before == _returns(path, replacement)


_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\.\.\s+deprecated::(?P<rest>.*)$")


def deprecation_notes(folder: Path, surface: Surface) -> dict[str, str]:
    """The full ``.. deprecated::`` directive (its body included) of deprecated symbols
    whose source is in ``folder`` (the folder holding the package; symbol locations are
    relative to it). The surface keeps only the directive's first line (usually the
    version), where the replacement is rarely named. Read with ``ast``, never run."""
    notes: dict[str, str] = {}
    trees: dict[str, ast.Module | None] = {}
    for path, symbol in surface.symbols.items():
        if symbol.deprecated is None or symbol.location is None:
            continue
        if replacement_named(symbol.deprecated, path, surface) is not None:
            continue
        file = symbol.location.file
        if file not in trees:
            trees[file] = _parse(folder / file)
        tree = trees[file]
        if tree is None:
            continue
        docstring = _docstring_at(tree, symbol.location.line)
        if docstring:
            body = _directive_body(docstring)
            if body:
                notes[path] = body
    return notes


def _parse(file: Path) -> ast.Module | None:
    try:
        return parse_python(read_regular(file, MAX_FILE_BYTES))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _docstring_at(tree: ast.Module, line: int) -> str | None:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            lines = {node.lineno, *(item.lineno for item in node.decorator_list)}
            if line in lines:
                return ast.get_docstring(node)
    return None


def _directive_body(docstring: str) -> str | None:
    lines = docstring.splitlines()
    for index, line in enumerate(lines):
        match = _DIRECTIVE.match(line)
        if match is None:
            continue
        indent = len(match.group("indent"))
        body = [match.group("rest").strip()]
        for following in lines[index + 1 :]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following.strip())
        return " ".join(part for part in body if part)
    return None


# --- the file ---------------------------------------------------------------------------


def _entry_json(entry: Entry) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": entry.path,
        "rule": entry.rule,
        "level": entry.level,
        "message": entry.message,
    }
    if entry.parameter is not None:
        data["parameter"] = entry.parameter
    if entry.position is not None:
        data["position"] = entry.position
    if entry.replacement is not None:
        data["replacement"] = entry.replacement
    return data


def dumps_spec(spec: MigrationSpec) -> str:
    """The spec as deterministic JSON text."""
    document = {
        "versions": {
            "producer": PRODUCER,
            "min_consumer": MIN_CONSUMER,
            "bad_consumers": list(BAD_CONSUMERS),
        },
        "kind": "apisurface-migration",
        "package": spec.package,
        "old": spec.old_label,
        "new": spec.new_label,
        "renames": spec.renames,
        "keywords": spec.keywords,
        "callables": spec.callables,
        "modules": list(spec.modules),
        "entries": [_entry_json(entry) for entry in spec.entries],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _fail(where: str, what: str) -> SpecError:
    return SpecError(
        f"{where}: {what}; regenerate it with 'apisurface migrate OLD NEW --emit-spec FILE'"
    )


def _text(value: object, where: str, what: str, *, dotted: bool = False) -> str:
    if not isinstance(value, str) or not value or len(value) > _MAX_TEXT:
        raise _fail(where, f"{what} must be a non-empty string")
    if dotted and not is_python_path(value):
        # Identifiers, not keywords: these names become code (``from None import f``).
        raise _fail(where, f"{what} is not a dotted Python name: {value[:80]!r}")
    return value


def _path_map(value: object, where: str, what: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise _fail(where, f"'{what}' must be an object")
    return {
        _text(key, where, f"a key of '{what}'", dotted=True): _text(
            item, where, f"a value of '{what}'", dotted=True
        )
        for key, item in value.items()
    }


def loads_spec(text: str | bytes, where: str = "spec") -> MigrationSpec:
    """Parse and validate a spec document; raise :class:`SpecError` in one line."""
    data = json_object(text, where, "migration spec", _fail)
    check_versions(
        data,
        where,
        consumer=CONSUMER,
        min_producer=MIN_PRODUCER,
        what="migration spec",
        regenerate="regenerate it with 'apisurface migrate OLD NEW --emit-spec FILE'",
        error=SpecError,
    )
    if data.get("kind") != "apisurface-migration":
        raise _fail(where, "not an apisurface migration spec ('kind' is not apisurface-migration)")
    package = _text(data.get("package"), where, "'package'", dotted=True)
    renames = _path_map(data.get("renames", {}), where, "renames")
    raw_keywords = data.get("keywords", {})
    if not isinstance(raw_keywords, dict):
        raise _fail(where, "'keywords' must be an object")
    keywords = {
        _text(path, where, "a key of 'keywords'", dotted=True): _path_map(
            names, where, f"keywords of {path}"
        )
        for path, names in raw_keywords.items()
    }
    for names in keywords.values():
        if any("." in name for pair in names.items() for name in pair):
            raise _fail(where, "a keyword name must be an identifier")
    callables = _path_map(data.get("callables", {}), where, "callables")
    kinds = {kind.value for kind in SymbolKind}
    if any(kind not in kinds for kind in callables.values()):
        raise _fail(where, "unknown kind in 'callables'")
    modules = data.get("modules", [])
    if not isinstance(modules, list):
        raise _fail(where, "'modules' must be a list")
    raw_entries = data.get("entries", [])
    if not isinstance(raw_entries, list):
        raise _fail(where, "'entries' must be a list")
    rules = {kind.value for kind in ChangeKind}
    levels = {str(level) for level in Level}
    entries = []
    for item in raw_entries:
        if not isinstance(item, dict):
            raise _fail(where, "each entry must be an object")
        rule = _text(item.get("rule"), where, "an entry's 'rule'")
        level = _text(item.get("level"), where, "an entry's 'level'")
        if rule not in rules or level not in levels:
            raise _fail(where, f"unknown rule or level in an entry: {rule[:40]!r} {level[:10]!r}")
        position = item.get("position")
        if position is not None and (
            not isinstance(position, int)
            or isinstance(position, bool)
            or not 0 <= position < 10_000
        ):
            raise _fail(where, "an entry's 'position' must be a small integer")
        parameter = item.get("parameter")
        replacement = item.get("replacement")
        entries.append(
            Entry(
                path=_text(item.get("path"), where, "an entry's 'path'", dotted=True),
                rule=rule,
                level=level,
                message=_text(item.get("message"), where, "an entry's 'message'"),
                parameter=None
                if parameter is None
                else _text(parameter, where, "an entry's 'parameter'", dotted=True),
                position=position,
                replacement=None
                if replacement is None
                else _text(replacement, where, "an entry's 'replacement'", dotted=True),
            )
        )
    old_label = data.get("old", "old")
    new_label = data.get("new", "new")
    return MigrationSpec(
        package=package,
        old_label=_text(old_label, where, "'old'"),
        new_label=_text(new_label, where, "'new'"),
        renames=renames,
        keywords=keywords,
        entries=tuple(sorted(entries)),
        callables=callables,
        modules=tuple(_text(item, where, "a module", dotted=True) for item in modules),
    )


def read_spec(path: Path) -> MigrationSpec:
    """Read a spec file; raise :class:`SpecError` in one line when it is unusable."""
    try:
        data = read_regular(path, _MAX_BYTES)
    except TooLarge:
        limit = f"larger than {_MAX_BYTES >> 20} MiB"
        raise _fail(str(path), f"{limit}: not a migration spec") from None
    except OSError as error:
        raise SpecError(f"{path}: cannot read ({error.strerror or error})") from None
    return loads_spec(data, str(path))
