"""A diff report: the classified changes, the required bump and the suggested version."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from posixpath import join, normpath

from apisurface.changes import Change, ChangeKind, Evidence
from apisurface.compare.bump import (
    calendar_note,
    is_calendar_version,
    next_version,
    required_level,
)
from apisurface.compare.diff import diff_surfaces
from apisurface.compare.rules import Classified, Level, base_path, classify
from apisurface.errors import VersionError
from apisurface.model import ENGINE, Location, Problem, Surface, Symbol, SymbolKind
from apisurface.project.config import Config
from apisurface.surface.visit.reach import module_of

__all__ = ["Report", "Unknown", "build_report", "scope_unknowns"]


@dataclass(frozen=True, slots=True)
class Unknown:
    """A part of OLD or NEW a static reader could not know (POLICY.md section 3, "Unknowns").

    ``side`` is ``"old"``, ``"new"`` or ``"both"`` (the same unknown, read from the same
    content, on both sides). It is ``blocking`` where it could hide a change: the content it
    concerns differs between the sides, or it is on one side only. Elsewhere it is a note
    and no gate counts it. ``reason`` says which, in words.
    """

    side: str
    problem: Problem
    blocking: bool
    reason: str

    def __str__(self) -> str:
        return f"{self.side}: {self.problem}"


def scope_unknowns(old: Surface, new: Surface) -> tuple[Unknown, ...]:
    """Every problem of ``old`` and ``new``: blocking ones first (by side), then notes.

    A problem is a note when the other side has the same problem (file, object path,
    message and related files) with the same digest of the content it concerns: both sides
    read the same text there, so no change hides in it. A problem marked ``decided`` (a
    decision read from sources read whole, not an unknown) is always a note. Everything
    else blocks."""
    blocking: list[Unknown] = []
    notes: list[Unknown] = []
    for side, mine, theirs in (("old", old, new), ("new", new, old)):
        other = {problem.identity: problem for problem in theirs.problems}
        for problem in mine.problems:
            twin = other.get(problem.identity)
            if problem.decided:
                # Read from sources read whole (a build's disagreement with the
                # declarations): reported, never blocking, once when both sides state it.
                if twin is None or side == "old":
                    where = "both" if twin is not None else side
                    notes.append(Unknown(where, problem, False, "a decision, not an unknown"))
                continue
            if twin is not None and problem.same_unknown(twin):
                if side == "old":
                    notes.append(Unknown("both", problem, False, "unchanged between the sides"))
                continue
            blocking.append(Unknown(side, problem, True, _why_blocking(problem, twin, side)))
    return (*blocking, *notes)


def _why_blocking(problem: Problem, twin: Problem | None, side: str) -> str:
    if problem.digest is None or (twin is not None and twin.digest is None):
        return "what it concerns was not recorded, so it cannot be compared"
    if twin is not None:
        what = "the package" if not problem.file else "its file"
        return f"{what} differs between the sides"
    other = "NEW" if side == "old" else "OLD"
    return f"not in {other}: what it concerns changed"


@dataclass(frozen=True, slots=True)
class Report:
    """Everything a renderer needs; computed, never printed, by the library."""

    old_label: str
    new_label: str
    changes: tuple[Classified, ...]
    level: Level
    current_version: str | None
    next_version: str | None
    version_note: str | None = None
    unknowns: tuple[Unknown, ...] = ()
    stale_accepts: tuple[str, ...] = field(default=())
    locations: Mapping[str, Location] = field(default_factory=dict)
    also_at: Mapping[Change, tuple[str, ...]] = field(default_factory=dict)
    engine_note: str | None = None
    """Set when another apisurface engine made a side (a snapshot file): every change is
    then inferred, since the rules may explain it (docs/decisions.md)."""
    modules: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, Location] = field(default_factory=dict)
    """Where in NEW to annotate each changed symbol (by path): its definition; for one
    gone from NEW, the class that lost it (its line) or the module's file (line 0: the
    file, no line). Missing: nowhere in NEW (read from a snapshot, or the package went)."""

    def count(self, level: Level) -> int:
        """How many changes (not accepted, not notes) are at ``level``: objects, not
        paths."""
        return sum(1 for change in self.changes if change.effective_level is level)

    def reaches(self, level: Level) -> bool:
        """Whether a change that is not accepted is at ``level`` or above (``--fail-on``).
        Zero changes reach no level, not even PATCH."""
        return any(change.effective_level >= level for change in self.changes)

    def annotation(self, item: Classified) -> Location | None:
        """Where a reviewer of NEW sees ``item``: in NEW's files, never at an old line
        (:attr:`annotations`); line 0 means the file, without a line."""
        return self.annotations.get(base_path(item.change.path))

    def location(self, item: Classified) -> Location | None:
        """Where ``item``'s symbol is defined: in NEW, or in OLD for a removal."""
        return self.locations.get(base_path(item.change.path))

    def module(self, item: Classified) -> str:
        """The public module ``item``'s path is in (the longest prefix of it that is a
        module in NEW or OLD; the package when none is known)."""
        path = base_path(item.change.path)
        return self.modules.get(path, path.split(".", 1)[0])

    @property
    def changed(self) -> bool:
        """Whether the public API changed: a change that is not a note (accepted or
        not). False means "no public API change"."""
        return any(not item.is_note for item in self.changes)

    @property
    def notes(self) -> tuple[Classified, ...]:
        """Changes that are notes (docstring wording, documentation not judged)."""
        return tuple(item for item in self.changes if item.is_note and item.accepted is None)

    def other_paths(self, item: Classified) -> tuple[str, ...]:
        """The other public paths at which ``item``'s change shows (sorted)."""
        return self.also_at.get(item.change, ())

    @property
    def blocking_unknowns(self) -> tuple[Unknown, ...]:
        """Unknowns that could hide a change: a gate (``--fail-on``, ``check``,
        ``release-check``) never passes while there is one."""
        return tuple(unknown for unknown in self.unknowns if unknown.blocking)

    @property
    def unknown_notes(self) -> tuple[Unknown, ...]:
        """Unknowns in content that is the same on both sides: reported, never blocking."""
        return tuple(unknown for unknown in self.unknowns if not unknown.blocking)

    @property
    def incomplete(self) -> tuple[str, ...]:
        """The blocking unknowns as text (``"new: FILE: what"``)."""
        return tuple(str(unknown) for unknown in self.blocking_unknowns)

    @property
    def accepted(self) -> tuple[Classified, ...]:
        """Changes the project accepted in its configuration."""
        return tuple(change for change in self.changes if change.accepted is not None)

    @property
    def to_review(self) -> tuple[Classified, ...]:
        """Inferred changes, not counted (no strict mode): listed with their reason."""
        return tuple(change for change in self.changes if change.to_review)

    @property
    def inferred_major(self) -> bool:
        """Whether MAJOR rests only on inferred changes: none counted reaches MAJOR, and
        some change to review would."""
        return not self.reaches(Level.MAJOR) and any(
            item.level is Level.MAJOR for item in self.to_review
        )


def build_report(
    old: Surface,
    new: Surface,
    *,
    old_label: str = "old",
    new_label: str = "new",
    current_version: str | None = None,
    config: Config | None = None,
    old_root: str = "",
    new_root: str = "",
) -> Report:
    """Diff, classify with the project's overrides and accepted changes, and bump.

    The same change of one object reachable at several public paths (the same kind,
    old and new values, defining object and parameter) is one change, named at its
    shortest path (then the first in sorting order); ``also_at`` lists its other paths.

    ``locations`` maps each changed symbol (``pkg.f`` for a change to ``pkg.f(x)``) to
    where it is defined in NEW, or in OLD when it is gone from NEW. ``old_root`` and
    ``new_root`` are the folders (relative to the repository, ``/``-separated) that each
    surface's source locations are relative to; they prefix the reported files.
    """
    config = config or Config()
    overrides = {kind: Level.parse(level) for kind, level in config.levels.items()}
    # An entry naming several parameters (``pkg.f(a, b)``, as a report names one edit to one
    # signature) accepts each of them.
    accepted = {
        (path, entry.rule): entry.reason
        for entry in config.accept
        for path in _each_parameter(entry.path)
    }
    changes = [
        change
        for change in diff_surfaces(old, new)
        if not any(_matches(change.path, pattern) for pattern in config.ignore)
    ]
    engine_note = _engine_note(old, new)
    if engine_note is not None:
        guess = Evidence.inferred(engine_note)
        changes = [replace(change, evidence=guess) for change in changes]
    unknowns = scope_unknowns(old, new)
    changes = _resting_on_unknowns(changes, unknowns, old, new)
    classified = classify(changes, overrides=overrides, accepted=accepted, strict=config.strict)
    used = {
        (item.change.path, kind)
        for item in classified
        if item.accepted
        for kind in (item.change.kind, *item.change.qualifiers)
    }
    used |= {(base_path(path), kind) for path, kind in used}
    stale = tuple(
        f"{entry.path} {entry.rule.value}{_did_you_mean(entry.path, entry.rule, classified)}"
        for entry in config.accept
        if not any((path, entry.rule) in used for path in _each_parameter(entry.path))
    )
    classified, also_at = _group(classified, old, new)
    level = required_level(classified)
    version = current_version or old.version
    suggestion: str | None = None
    note: str | None = None
    if version is not None and is_calendar_version(version, config.version_scheme):
        note = calendar_note(version, level)
    elif version is not None:
        try:
            suggestion = next_version(version, level, zero_breaking=config.zero_version_breaking)
        except VersionError as error:
            note = str(error)
    return Report(
        old_label=old_label,
        new_label=new_label,
        changes=tuple(classified),
        level=level,
        current_version=version,
        next_version=suggestion,
        version_note=note,
        unknowns=unknowns,
        stale_accepts=stale,
        locations=_locations(classified, old, new, old_root, new_root),
        annotations=_annotations(classified, old, new, new_root),
        also_at=also_at,
        engine_note=engine_note,
        modules=_modules(classified, old, new, also_at),
    )


def _each_parameter(path: str) -> list[str]:
    """``pkg.f(a, b)`` as ``pkg.f(a)`` and ``pkg.f(b)``; any other path as itself."""
    base, _, rest = path.partition("(")
    names = [name.strip() for name in rest.rstrip(")").split(",")] if rest else []
    if len(names) < 2:
        return [path]
    return [f"{base}({name})" for name in names if name]


def _resting_on_unknowns(
    changes: list[Change], unknowns: tuple[Unknown, ...], old: Surface, new: Surface
) -> list[Change]:
    """``changes`` with each one that rests on an unknown part graded inferred (issue 37:
    nothing resting on an unknown is proven): a file that does not parse (read on with
    ``--allow-incomplete``) or a blocking unknown of a whole file, when the change is in
    its module, was defined in it on either side, or names it in a value; a blocking
    unknown of one object (not a module: a module's unknown is of the names it concerns),
    for the changes of that object and its members."""
    files: dict[str, str] = {}
    objects: set[str] = set()
    for unknown in unknowns:
        problem = unknown.problem
        if not (unknown.blocking or problem.error) or problem.decided:
            continue
        if problem.file and (problem.error or not problem.path):
            files[problem.file] = module_of(problem.file)
        elif problem.path:
            objects.add(problem.path)
    if not files and not objects:
        return changes
    modules = set(files.values())
    graded: list[Change] = []
    for change in changes:
        reason = (
            _rests_on_file(change, files, modules, old, new)
            or _rests_on_object(change, objects, old, new)
            if change.evidence.proven
            else None
        )
        graded.append(
            change if reason is None else replace(change, evidence=Evidence.inferred(reason))
        )
    return graded


def _rests_on_file(
    change: Change, files: dict[str, str], modules: set[str], old: Surface, new: Surface
) -> str | None:
    base = base_path(change.path)
    named = [base, *(value for value in (change.old, change.new) if value)]
    for file, module in sorted(files.items()):
        spelled = re.compile(rf"(?<![\w.]){re.escape(module)}(?![\w])")
        if any(spelled.search(text) for text in named):
            return f"rests on {file}, which could not be read on one side"
    for surface in (old, new):
        symbol = surface.symbols.get(base)
        if symbol is not None and symbol.location is not None and symbol.location.file in files:
            return f"rests on {symbol.location.file}, which could not be read on one side"
    return None


def _rests_on_object(change: Change, objects: set[str], old: Surface, new: Surface) -> str | None:
    base = base_path(change.path)
    for path in sorted(objects):
        if any(
            surface.symbols.get(path, _NO_SYMBOL).kind is SymbolKind.MODULE
            for surface in (old, new)
        ):
            # A module's unknown (names its __all__ lists but binds at run time) concerns
            # those names, each an unknown of its own kind: not every member of the module.
            continue
        if base == path or base.startswith(path + "."):
            return f"rests on {path}, not verified where OLD and NEW differ"
    return None


_NO_SYMBOL = Symbol("", SymbolKind.UNKNOWN)


def _engine_note(old: Surface, new: Surface) -> str | None:
    """Why every change is inferred when a side comes from another apisurface engine."""
    sides = [(label, surface) for label, surface in (("old", old), ("new", new))]
    other = [(label, surface) for label, surface in sides if surface.other_engine]
    if not other:
        return None
    label, surface = other[0]
    made_by = "an unknown engine" if surface.engine is None else f"rules engine {surface.engine}"
    return (
        f"snapshot made by another apisurface engine ({label}: {made_by}; this is rules engine "
        f"{ENGINE}): a difference may come from the rules, not the code; regenerate the "
        "snapshot, or compare with the source it was made from"
    )


def _modules(
    changes: list[Classified],
    old: Surface,
    new: Surface,
    also_at: Mapping[Change, tuple[str, ...]] | None = None,
) -> dict[str, str]:
    """The public module of each changed symbol (and of its other paths): the longest
    prefix of its path that is a module (in NEW, else OLD)."""
    found: dict[str, str] = {}
    also_at = also_at or {}
    paths = [
        base_path(path)
        for item in changes
        for path in (item.change.path, *also_at.get(item.change, ()))
    ]
    for path in paths:
        if path in found:
            continue
        parts = path.split(".")
        found[path] = parts[0]
        for end in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:end])
            kinds = [
                surface.symbols[prefix].kind for surface in (new, old) if prefix in surface.symbols
            ]
            if SymbolKind.MODULE in kinds:
                found[path] = prefix
                break
    return found


def _did_you_mean(path: str, rule: ChangeKind, changes: list[Classified]) -> str:
    """A hint for an accept entry that matches no change: the rule the changes at its path
    have, or else the path nearest to it among the changes (of its rule first)."""
    at_path = sorted(
        {
            item.change.kind.value
            for item in changes
            if path in (item.change.path, base_path(item.change.path))
        }
    )
    if at_path:
        return f" (did you mean rule {' or '.join(at_path)}?)"
    for wanted in (rule, None):
        paths = {
            candidate
            for item in changes
            if wanted is None or item.change.kind is wanted
            for candidate in (item.change.path, base_path(item.change.path))
        }
        close = difflib.get_close_matches(path, sorted(paths), n=1, cutoff=0.8)
        if close:
            kinds = sorted(
                item.change.kind.value
                for item in changes
                if close[0] in (item.change.path, base_path(item.change.path))
            )
            suffix = "" if wanted is not None else f" {kinds[0]}"
            return f" (did you mean {close[0]}{suffix}?)"
    return ""


def _identity(path: str, old: Surface, new: Surface) -> str:
    """The object ``path`` names: the defining path of its symbol (in NEW, else OLD),
    followed by the parameter part of a change path. A symbol read from a snapshot has
    no defining path; it stands for itself."""
    base = base_path(path)
    suffix = path[len(base) :]
    for surface in (new, old):
        symbol = surface.symbols.get(base)
        if symbol is not None and symbol.target:
            return symbol.target + suffix
    return path


# Kinds whose old or new value is the changed path itself (the exclusion that explains a
# removal or addition) or a name beside it (``pkg.m._name`` for ``pkg.m.name``, the new
# name of a rename: ``pkg.m.g`` for ``pkg.m.f``, ``pkg.g`` for ``pkg.f``). Other
# values (annotations, defaults, names) are compared as written: an annotation
# ``pkg.Optional[str]`` is the same type at every path.
_PATH_VALUED = frozenset(
    {
        ChangeKind.SYMBOL_NO_LONGER_DOCUMENTED,
        ChangeKind.SYMBOL_UNEXPORTED,
        ChangeKind.SYMBOL_MADE_EXPERIMENTAL,
        ChangeKind.SYMBOL_MOVED_TO_CONTRIB,
        ChangeKind.SYMBOL_EXCLUDED_BY_CONFIG,
        ChangeKind.SYMBOL_MADE_PRIVATE,
        ChangeKind.SYMBOL_REMOVED,
        ChangeKind.SYMBOL_NOW_DOCUMENTED,
        ChangeKind.SYMBOL_EXPORTED,
        ChangeKind.SYMBOL_PROMOTED_FROM_EXPERIMENTAL,
        ChangeKind.SYMBOL_MADE_PUBLIC,
        ChangeKind.SYMBOL_RENAMED,
    }
)


def _relative(value: str | None, path: str) -> str | None:
    """``value`` with the module or class holding ``path`` written as ``<here>``: a change
    that names its own path, or a sibling of it, as a value (``symbol_no_longer_documented``
    names the path that left the surface, ``symbol_made_private`` the private name beside
    it) states the same fact at every path of one object."""
    holder = base_path(path).rpartition(".")[0]
    if value is None or not holder or not value.startswith(holder + "."):
        return value
    return "<here>" + value[len(holder) :]


def _shortest(path: str) -> tuple[int, str]:
    return (len(base_path(path)), path)


def _group(
    classified: list[Classified], old: Surface, new: Surface
) -> tuple[list[Classified], dict[Change, tuple[str, ...]]]:
    """One entry per object: changes that state the same fact about the same object at
    several public paths are merged, and so are those about one member of a class
    hierarchy (a method and its overrides in subclasses, changed alike) when the class that
    defines it changed too: named there, the subclasses' paths beside it. The entry is
    accepted when any of its paths is. Then one edit to one signature is one entry
    (:func:`_signature_entries`)."""
    hierarchy = _Hierarchy(old, new)
    groups: dict[tuple[ChangeKind, str | None, str | None, str], list[tuple[str, Classified]]]
    groups = {}
    for item in classified:
        change = item.change
        own = _identity(change.path, old, new)
        root = hierarchy.root(change.path) or own
        key = (
            change.kind,
            _relative(change.old, change.path) if change.kind in _PATH_VALUED else change.old,
            _relative(change.new, change.path) if change.kind in _PATH_VALUED else change.new,
            root,
        )
        groups.setdefault(key, []).append((own, item))
    merged: list[Classified] = []
    also_at: dict[Change, tuple[str, ...]] = {}
    for key, members in groups.items():
        root = key[-1]
        if root in {own for own, _ in members}:
            parts = [members]
        else:  # subclasses changed alike, the defining class did not: each on its own
            by_own: dict[str, list[tuple[str, Classified]]] = {}
            for own, item in members:
                by_own.setdefault(own, []).append((own, item))
            parts = list(by_own.values())
        for part in parts:
            part.sort(key=lambda member: (member[0] != root, _shortest(member[1].change.path)))
            items = [item for _, item in part]
            first = items[0]
            reason = next((item.accepted for item in items if item.accepted is not None), None)
            if reason is not None and first.accepted is None:
                first = replace(first, accepted=reason)
            merged.append(first)
            if len(items) > 1:
                also_at[first.change] = tuple(sorted(item.change.path for item in items[1:]))
    merged = _signature_entries(merged, also_at, old, new)
    merged.sort(key=lambda item: item.change)
    return merged, also_at


class _Hierarchy:
    """Where a class hierarchy defines a member: the most basic class of the package (on
    the side the member is on) that has a member of that name."""

    def __init__(self, old: Surface, new: Surface) -> None:
        self.old, self.new = old, new
        self.classes: dict[int, dict[str, list[str]]] = {}

    def by_name(self, surface: Surface) -> dict[str, list[str]]:
        """The public paths of each class, by its path and by its defining path."""
        index = self.classes.get(id(surface))
        if index is None:
            index = {}
            for path, symbol in surface.symbols.items():
                if symbol.kind is SymbolKind.CLASS:
                    index.setdefault(path, []).append(path)
                    if symbol.target and symbol.target != path:
                        index.setdefault(symbol.target, []).append(path)
            self.classes[id(surface)] = index
        return index

    def root(self, path: str) -> str | None:
        """The identity of the member ``path`` (``pkg.Sub.m`` or ``pkg.Sub.m(x)``) at the
        class that defines it, or None when it is no member of a class with such a base."""
        base = base_path(path)
        surface = self.new if base in self.new.symbols else self.old
        owner, _, name = base.rpartition(".")
        holder = surface.symbols.get(owner)
        if holder is None or holder.kind is not SymbolKind.CLASS or not holder.bases:
            return None
        classes = self.by_name(surface)
        found: str | None = None
        seen = {owner}
        pending = [holder]
        while pending and len(seen) < 1_000:
            for spelled in pending.pop(0).bases:
                for ancestor in classes.get(spelled, ()):
                    if ancestor in seen:
                        continue
                    seen.add(ancestor)
                    pending.append(surface.symbols[ancestor])
                    if f"{ancestor}.{name}" in surface.symbols:
                        found = f"{ancestor}.{name}"
        if found is None:
            return None
        return _identity(found + path[len(base) :], self.old, self.new)


def _parameter(path: str) -> str:
    """The parameter a change path names (``x`` of ``pkg.f(x)``)."""
    return path.partition("(")[2].rstrip(")")


def _signature_entries(
    entries: list[Classified],
    also_at: dict[Change, tuple[str, ...]],
    old: Surface,
    new: Surface,
) -> list[Classified]:
    """One edit to one signature is one entry (issue 37): the changes of the parameters of
    one callable that count alike (accepted alike, proven or to review alike) become one
    entry naming every parameter they touch, at the most severe part's kind (the others
    are its qualifiers), each part kept with its own message, values and evidence."""
    groups: dict[tuple[str, str | None, bool], list[Classified]] = {}
    result: list[Classified] = []
    for item in entries:
        if "(" not in item.change.path or item.is_note:
            result.append(item)
            continue
        key = (base_path(item.change.path), item.accepted, item.counted)
        groups.setdefault(key, []).append(item)
    for (base, _, _), items in groups.items():
        if len(items) == 1:
            result.extend(items)
            continue
        # The most severe part first; among those, the kind of most parts (the edit).
        kinds = Counter(item.change.kind for item in items)
        items.sort(
            key=lambda item: (
                -item.level,
                -kinds[item.change.kind],
                item.change.kind,
                item.change.path,
            )
        )
        main = items[0]
        names = _parameter_order(base, [_parameter(item.change.path) for item in items], old, new)
        by_message: dict[str, list[str]] = {}
        rank = {name: index for index, name in enumerate(names)}
        for item in sorted(items, key=lambda item: rank[_parameter(item.change.path)]):
            by_message.setdefault(item.message, []).append(_parameter(item.change.path))
        by_names: dict[str, list[str]] = {}  # "a, b" -> what happened to both
        for text, params in by_message.items():
            by_names.setdefault(", ".join(dict.fromkeys(params)), []).append(text)
        message = "; ".join(f"{names}: {'; '.join(texts)}" for names, texts in by_names.items())
        also = (*main.change.qualifiers, *(item.change.kind for item in items[1:]))
        change = replace(
            main.change,
            path=f"{base}({', '.join(names)})",
            qualifiers=tuple(kind for kind in dict.fromkeys(also) if kind is not main.change.kind),
        )
        entry = replace(main, change=change, message=message, parts=tuple(items))
        others = {
            base_path(other)
            for item in items
            for other in also_at.get(item.change, ())
            if base_path(other) != base
        }
        if others:
            also_at[change] = tuple(sorted(others))
        result.append(entry)
    return result


def _parameter_order(base: str, names: list[str], old: Surface, new: Surface) -> list[str]:
    """``names`` (each once) in the order of the callable's signature, NEW's then OLD's."""
    order: list[str] = []
    for surface in (new, old):
        symbol = surface.symbols.get(base)
        if symbol is not None and symbol.signature is not None:
            order.extend(parameter.name for parameter in symbol.signature.parameters)
    rank = {name: index for index, name in reversed(list(enumerate(order)))}
    unique = list(dict.fromkeys(names))
    return sorted(unique, key=lambda name: (rank.get(name.lstrip("*"), len(rank)), name))


def _locations(
    changes: list[Classified], old: Surface, new: Surface, old_root: str, new_root: str
) -> dict[str, Location]:
    found: dict[str, Location] = {}
    for item in changes:
        path = base_path(item.change.path)
        if path in found:
            continue
        for surface, root in ((new, new_root), (old, old_root)):
            location = _location(surface, path)
            if location is not None:
                file = normpath(join(root, location.file)) if root else location.file
                found[path] = Location(file, location.line)
                break
    return found


def _annotations(
    changes: list[Classified], old: Surface, new: Surface, new_root: str
) -> dict[str, Location]:
    """For each changed symbol, where to annotate it in NEW: its definition there; for a
    symbol gone from NEW, the nearest class that held it where OLD defined it (at the
    class's line), or else that module (its file, line 0), so that no annotation lands on an
    unrelated line of a new file. A snapshot side has no locations: nothing."""
    found: dict[str, Location] = {}
    for item in changes:
        path = base_path(item.change.path)
        if path in found:
            continue
        holder = path
        gone = old.symbols.get(path) if path not in new.symbols else None
        if gone is not None and gone.target and gone.target not in new.symbols:
            holder = gone.target  # the object went: where it was defined lost it
        while holder and holder not in new.symbols:
            holder = holder.rpartition(".")[0]
        symbol = new.symbols.get(holder)
        location = _location(new, holder) if symbol is not None else None
        if location is None or symbol is None:
            continue
        if holder != path and symbol.kind is SymbolKind.MODULE:
            location = Location(location.file, 0)  # the module's file, no line of it
        file = normpath(join(new_root, location.file)) if new_root else location.file
        found[path] = Location(file, location.line)
    return found


def _location(surface: Surface, path: str) -> Location | None:
    """Where ``path`` is defined; a synthesised member (a dataclass ``__init__``, line 0)
    points at its class instead. A path that serves an object defined at another public
    path (a module ``__getattr__`` shim answering ``pkg.X`` with ``pkg.codes.X``) points at
    that definition, not at the line that serves it."""
    symbol = surface.symbols.get(path)
    defined = surface.symbols.get(symbol.target) if symbol is not None and symbol.target else None
    if defined is not None and defined is not symbol and defined.location is not None:
        symbol = defined
    if symbol is None or symbol.location is None:
        return None
    if symbol.location.line == 0:
        owner = surface.symbols.get(symbol.parent)
        if owner is not None and owner.location is not None and owner.location.line > 0:
            return owner.location
    return symbol.location


def _matches(path: str, pattern: str) -> bool:
    base = path.split("(", 1)[0]
    return fnmatchcase(base, pattern) or fnmatchcase(path, pattern)
