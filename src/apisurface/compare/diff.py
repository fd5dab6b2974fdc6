"""Structural diff of two surfaces: what changed, stated as facts (no levels here).

The result is a sorted list of :class:`~apisurface.changes.Change`. Removals and additions
are reported once, at the root of the subtree that went or came; a removal and an addition
with the same fingerprint are one rename; removals explained by the new surface's exclusions
(now private, undocumented, out of ``__all__``...) get their own kinds so a reviewer sees why.
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from apisurface.changes import Change, ChangeKind
from apisurface.compare.binding import (
    CONSTRUCTORLESS_BASES,
    builtin_constructor,
)
from apisurface.compare.evidence import grade_changes
from apisurface.compare.inferred import grade_inferred
from apisurface.compare.kindsets import REMOVALS
from apisurface.compare.obligations import is_protocol, protocol_member
from apisurface.compare.protobuf import removed_reserved
from apisurface.compare.signatures import signature_text
from apisurface.compare.symbol import SymbolDiffer
from apisurface.compare.typechanges import TypeContext
from apisurface.model import (
    ExclusionReason,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.surface.policy import is_dunder
from apisurface.surface.spelling import (
    base_classes,
    base_origin,
    contract_base,
    last_name,
    listed_at_base,
    parent_path,
)
from apisurface.surface.stdlib import standard_attribute

__all__ = ["diff_surfaces", "signature_text"]

K = ChangeKind

_REMOVED_BECAUSE = {
    ExclusionReason.UNDOCUMENTED: K.SYMBOL_NO_LONGER_DOCUMENTED,
    ExclusionReason.NOT_EXPORTED: K.SYMBOL_UNEXPORTED,
    ExclusionReason.EXPERIMENTAL: K.SYMBOL_MADE_EXPERIMENTAL,
    ExclusionReason.CONTRIB: K.SYMBOL_MOVED_TO_CONTRIB,
    ExclusionReason.TOOLS: K.SYMBOL_REMOVED,
    ExclusionReason.CONFIGURED: K.SYMBOL_EXCLUDED_BY_CONFIG,
    ExclusionReason.PRIVATE: K.SYMBOL_MADE_PRIVATE,
}
_ADDED_BECAUSE = {
    ExclusionReason.UNDOCUMENTED: K.SYMBOL_NOW_DOCUMENTED,
    ExclusionReason.NOT_EXPORTED: K.SYMBOL_EXPORTED,
    ExclusionReason.EXPERIMENTAL: K.SYMBOL_PROMOTED_FROM_EXPERIMENTAL,
    ExclusionReason.PRIVATE: K.SYMBOL_MADE_PUBLIC,
}
_MOVED_OUT = frozenset({ExclusionReason.EXPERIMENTAL, ExclusionReason.CONTRIB})


def diff_surfaces(old: Surface, new: Surface) -> list[Change]:
    """Every difference between ``old`` and ``new``, sorted by path then kind, each with
    its evidence: parts read from code grade theirs inferred first
    (:mod:`apisurface.compare.inferred`, which also drops what is no change once the guess
    is taken into account), then every change gets its grade, reason and witness
    (:mod:`apisurface.compare.evidence`)."""
    differ = _Differ(old, new)
    changes = sorted(grade_inferred(old, new, set(differ.run())))
    return grade_changes(changes, old, new, differ.symbol.compared)


def _roots(paths: set[str]) -> list[str]:
    """Paths whose parent is not itself in ``paths`` (the tops of removed/added subtrees)."""
    roots = []
    for path in sorted(paths):
        parent = path.rpartition(".")[0]
        is_root = True
        while parent:
            if parent in paths:
                is_root = False
                break
            parent = parent.rpartition(".")[0]
        if is_root:
            roots.append(path)
    return roots


# Dunders every object has whose override can go without changing what a call means:
# ``!=`` falls back to ``not ==``, and text forms are presentation. (``__eq__``,
# ``__hash__`` and the comparisons are not here: dropping them changes results.)
_OBJECT_DUNDERS = frozenset(
    {
        "__ne__",
        "__repr__",
        "__str__",
        "__format__",
        "__dir__",
        "__sizeof__",
        "__init_subclass__",
        "__subclasshook__",
        "__reduce__",
        "__reduce_ex__",
        "__getstate__",
    }
)


def _keeps_prose(surface: Surface) -> bool:
    """Whether every documented symbol of ``surface`` has the digest of its docstring."""
    return all(
        symbol.docstring_hash is not None
        for symbol in surface.symbols.values()
        if symbol.documented
    )


class _Alike:
    """The added paths of one fingerprint not taken by a rename yet: by parent, with how
    many stand for each object (``target``)."""

    __slots__ = ("by_parent", "targets", "untaken")

    def __init__(self) -> None:
        self.untaken: dict[str, None] = {}  # in the order added
        self.by_parent: dict[str, dict[str, None]] = {}
        self.targets: dict[str, int] = {}

    def add(self, path: str, target: str) -> None:
        self.untaken[path] = None
        self.by_parent.setdefault(parent_path(path), {})[path] = None
        self.targets[target] = self.targets.get(target, 0) + 1

    def only(self) -> str | None:
        """The one path left, if exactly one is."""
        return next(iter(self.untaken)) if len(self.untaken) == 1 else None

    def only_beside(self, parent: str) -> str | None:
        """The one path left under ``parent``, if exactly one is."""
        beside = self.by_parent.get(parent, {})
        return next(iter(beside)) if len(beside) == 1 else None

    def take(self, path: str, target: str) -> None:
        del self.untaken[path]
        del self.by_parent[parent_path(path)][path]
        self.targets[target] -= 1
        if not self.targets[target]:
            del self.targets[target]


class _Differ:
    def __init__(self, old: Surface, new: Surface) -> None:
        self.old = old
        self.new = new
        self.changes: list[Change] = []
        self._names: dict[int, dict[str, list[str]]] = {}
        self._children: dict[int, dict[str, list[str]]] = {}
        self._excluded: dict[
            int, tuple[dict[str, list[str]], dict[str, list[tuple[str, str]]]]
        ] = {}
        self.guesses: dict[str, str] = {}  # removed path -> a guessed successor
        self._sorted_old: list[str] | None = None
        self.types = TypeContext(old, new)
        self.symbol = SymbolDiffer(old, new, self.types, self.changes)
        # Whether both sides keep the text of their docstrings (read from source): a
        # snapshot records only whether a symbol is documented.
        self.prose = _keeps_prose(old) and _keeps_prose(new)

    def run(self) -> list[Change]:
        old_paths = set(self.old.symbols)
        new_paths = set(self.new.symbols)
        removed_roots = _roots(old_paths - new_paths)
        added_roots = _roots(new_paths - old_paths)
        renames = self.match_renames(removed_roots, added_roots)
        self.types.renames = renames
        renamed_new = set(renames.values())
        for path in removed_roots:
            self.removal(path, renames.get(path))
        for path in added_roots:
            if path not in renamed_new:
                self.addition(path)
        for path in sorted(old_paths & new_paths):
            self.symbol.compare(path, self.old.symbols[path], self.new.symbols[path])
        for old_root, new_root in renames.items():
            self.compare_subtree(old_root, new_root)
        return self.changes

    # -- removals and additions --

    def docs_unjudged(self, path: str, *, removed: bool) -> bool:
        """Whether ``path``, public on one side and undocumented on the other, was
        documented only by docs sources that the other side lacks altogether (a wheel or
        an sdist without ``docs/``): its documentation cannot be judged there."""
        public, other = (self.old, self.new) if removed else (self.new, self.old)
        symbol = public.symbols[path]
        if not (
            other.excluded.get(path) is ExclusionReason.UNDOCUMENTED
            and public.docs_sources is True
            and other.docs_sources is False
            and not symbol.documented
        ):
            return False
        if symbol.kind is not SymbolKind.MODULE:
            return True
        # A module without a docstring is public through its public members: unjudged when
        # none of them has a docstring of its own (the docs sources made them public).
        below = path + "."
        return not any(
            member.documented for name, member in public.symbols.items() if name.startswith(below)
        )

    def explained_removal(self, path: str) -> tuple[ChangeKind, str | None] | None:
        reason = self.new.excluded.get(path)
        if self.docs_unjudged(path, removed=True):
            return K.DOCUMENTATION_UNKNOWN, None
        if reason is not None:
            return _REMOVED_BECAUSE[reason], path
        parent, name = parent_path(path), last_name(path)
        for candidate in (f"{parent}._{name}", f"{parent}.__{name}"):
            if self.new.excluded.get(candidate) is ExclusionReason.PRIVATE:
                return K.SYMBOL_MADE_PRIVATE, candidate
        for candidate, why in self.moved_out(self.new, parent, name):
            if why in _MOVED_OUT and candidate not in self.old.excluded:
                return _REMOVED_BECAUSE[why], candidate
        if (undocumented := self.undocumented_in_base(path)) is not None:
            return K.SYMBOL_NO_LONGER_DOCUMENTED, undocumented
        return None

    def undocumented_in_base(self, path: str) -> str | None:
        """Where NEW still has the member ``path`` names, undocumented, on a base of its
        class in the package (``self.sleep = sleep`` in the base's ``__init__`` after the
        class dropped its annotated ``sleep: Callable``): the name lost its documentation,
        it was not deleted."""
        owner, name = parent_path(path), last_name(path)
        for base in base_classes(self.new.symbols, owner):
            if self.new.excluded.get(f"{base}.{name}") is ExclusionReason.UNDOCUMENTED:
                return f"{base}.{name}"
        return None

    def moved_out(
        self, surface: Surface, parent: str, name: str
    ) -> list[tuple[str, ExclusionReason]]:
        """Excluded paths that may hold ``name``: the same name anywhere (moved into an
        experimental or contrib module), or a name containing it beside it
        (``experimental_name``)."""
        index = self._excluded.get(id(surface))
        if index is None:
            by_name: dict[str, list[str]] = {}
            by_parent: dict[str, list[tuple[str, str]]] = {}  # (path, its name lowered)
            for candidate in sorted(surface.excluded):
                holder, _, candidate_name = candidate.rpartition(".")
                by_name.setdefault(candidate_name, []).append(candidate)
                by_parent.setdefault(holder, []).append((candidate, candidate_name.lower()))
            index = self._excluded[id(surface)] = (by_name, by_parent)
        by_name, by_parent = index
        lowered = name.lower()
        found = [c for c, c_lowered in by_parent.get(parent, ()) if lowered in c_lowered]
        found += by_name.get(name, [])
        return [(candidate, surface.excluded[candidate]) for candidate in found]

    def explained_addition(self, path: str) -> tuple[ChangeKind, str | None] | None:
        reason = self.old.excluded.get(path)
        if self.docs_unjudged(path, removed=False):
            return K.DOCUMENTATION_UNKNOWN, None
        if reason in _ADDED_BECAUSE:
            return _ADDED_BECAUSE[reason], path
        parent, name = parent_path(path), last_name(path)
        for candidate in (f"{parent}._{name}", f"{parent}.__{name}"):
            if self.old.excluded.get(candidate) is ExclusionReason.PRIVATE:
                return K.SYMBOL_MADE_PUBLIC, candidate
        for candidate, why in self.moved_out(self.old, parent, name):
            if why is ExclusionReason.EXPERIMENTAL and candidate not in self.new.excluded:
                return K.SYMBOL_PROMOTED_FROM_EXPERIMENTAL, candidate
        return None

    def deprecated(self, surface: Surface, path: str) -> bool:
        while path:
            symbol = surface.symbols.get(path)
            if symbol is not None and symbol.deprecated is not None:
                return True
            path = parent_path(path)
        return False

    def provided_by_base(self, surface: Surface, path: str) -> str | None:
        """Where ``surface`` lists the member ``path`` names when its class inherits it
        from a public base of the package: ``pkg.Base.run`` for ``pkg.Child.run``."""
        return listed_at_base(surface.symbols, path)

    def removal(self, path: str, renamed_to: str | None) -> None:
        symbol = self.old.symbols[path]
        if renamed_to is None and (inherited := self.provided_by_base(self.new, path)):
            # An override removed, or a method pulled up into a base: the path still
            # resolves; what changed is what the base offers there.
            self.symbol.compare(path, symbol, self.new.symbols[inherited].at(path))
            return
        if renamed_to is None and (constructor := self.inherited_constructor(self.new, path)):
            # A class drops its ``__init__``: callers now call the inherited one.
            self.symbol.compare(path, symbol, constructor)
            return
        kind: ChangeKind
        new: str | None = None
        if renamed_to is not None:
            same_parent = parent_path(renamed_to) == parent_path(path)
            kind = K.SYMBOL_RENAMED if same_parent else K.SYMBOL_MOVED
            new = renamed_to
        elif (explained := self.explained_removal(path)) is not None:
            kind, new = explained
        elif (elsewhere := self.same_object_elsewhere(path, self.old, self.new)) is not None:
            kind, new = K.REEXPORT_REMOVED, elsewhere
        elif symbol.kind.value == "enum_member":
            kind = K.ENUM_MEMBER_REMOVED
        elif removed_reserved(last_name(path), symbol.proto, self.new_fact(parent_path(path))):
            kind = K.PROTO_FIELD_REMOVED_RESERVED
        elif (provider := self.still_provided(path)) is not None:
            kind, new = K.OVERRIDE_REMOVED, provider
        else:
            kind, new = K.SYMBOL_REMOVED, self.guesses.get(path)
        # Not deprecated first: a property of this one removal (POLICY.md section 3).
        undeprecated = kind in REMOVALS and not self.deprecated(self.old, path)
        qualifiers = (K.REMOVED_WITHOUT_DEPRECATION,) if undeprecated else ()
        self.changes.append(Change(path, kind, symbol.kind.value, new, qualifiers=qualifiers))

    def new_fact(self, path: str) -> str | None:
        """The protocol buffer fact of ``path`` in NEW (a message's reserved fields)."""
        symbol = self.new.symbols.get(path)
        return None if symbol is None else symbol.proto

    def inherited_constructor(self, surface: Surface, path: str) -> Symbol | None:
        """The ``__init__`` the class owning ``path`` (``pkg.C.__init__``) inherits in
        ``surface`` when it has none of its own: the first in the package along its
        bases, depth first and left to right with ``object`` last, or the constructor of
        the builtin base reached first (``Exception(*args)``, ``dict``, ``object()``).
        ``None`` when ``path`` is no constructor, or the inherited one is unknown: a base
        from outside the package that is no known builtin, or a ``__new__`` in the way."""
        owner = parent_path(path)
        symbol = surface.symbols.get(owner)
        if last_name(path) != "__init__" or symbol is None or symbol.kind is not SymbolKind.CLASS:
            return None
        if f"{owner}.__new__" in surface.symbols:
            return None
        # Modelled constructors carry what the class's own members would: its deprecation
        # and, for the report, its location.
        modelled = Symbol(
            path,
            SymbolKind.METHOD,
            deprecated=symbol.deprecated,
            location=symbol.location,
        )
        seen: set[str] = {owner}
        pending = list(symbol.bases)
        while pending:
            base = base_origin(pending.pop(0))
            if base in seen or base.removeprefix("builtins.") in CONSTRUCTORLESS_BASES:
                continue
            seen.add(base)
            found = surface.symbols.get(base)
            if found is None:
                signature = builtin_constructor(base)
                if signature is None:
                    return None
                return replace(modelled, signature=signature)
            if found.kind is not SymbolKind.CLASS or f"{base}.__new__" in surface.symbols:
                return None
            own = surface.symbols.get(f"{base}.__init__")
            if own is not None:
                return own.at(path)
            pending[:0] = found.bases
        return replace(modelled, signature=Signature())

    def still_provided(self, path: str) -> str | None:
        """The base that still provides a removed dunder method of a class: ``object`` for
        the few whose default keeps the meaning (``__ne__``, ``__repr__``), or a base from
        outside the package (``dict``, ``Mapping``) whose members the surface does not list:
        the path still resolves, to the base's implementation."""
        name, owner = last_name(path), self.new.symbols.get(parent_path(path))
        if owner is None or owner.kind.value != "class" or not is_dunder(name):
            return None
        if name in _OBJECT_DUNDERS:
            return "object"
        for base in owner.bases:
            if base_origin(base) not in self.new.symbols and contract_base(base):
                return base
        return None

    def addition(self, path: str) -> None:
        symbol = self.new.symbols[path]
        if (inherited := self.provided_by_base(self.old, path)) is not None:
            # A new override of an inherited member: the path existed before.
            self.symbol.compare(path, self.old.symbols[inherited].at(path), symbol)
            return
        if (constructor := self.inherited_constructor(self.old, path)) is not None:
            # A class gains its own ``__init__``: callers called the inherited one.
            self.symbol.compare(path, constructor, symbol)
            return
        explained = self.explained_addition(path)
        if explained is not None:
            kind, old = explained
            self.changes.append(Change(path, kind, old, symbol.kind.value))
        elif (elsewhere := self.same_object_elsewhere(path, self.new, self.old)) is not None:
            self.changes.append(Change(path, K.REEXPORT_ADDED, elsewhere, symbol.kind.value))
        elif symbol.kind.value == "enum_member":
            self.changes.append(Change(path, K.ENUM_MEMBER_ADDED, None, symbol.kind.value))
        elif (obliged := self.obligation_added(path, symbol)) is not None:
            self.changes.append(Change(path, obliged, None, symbol.kind.value))
        else:
            self.changes.append(Change(path, K.SYMBOL_ADDED, None, symbol.kind.value))

    def obligation_added(self, path: str, symbol: Symbol) -> ChangeKind | None:
        """The kind of a member added to a class of both surfaces that code written for the
        old class must now provide: a required key of a TypedDict (its dicts lack it), a
        member of a protocol (its implementations lack it) or an abstract method (its
        subclasses do not implement it); None for a plain addition."""
        owner = parent_path(path)
        old_owner, new_owner = self.old.symbols.get(owner), self.new.symbols.get(owner)
        if (
            old_owner is None
            or new_owner is None
            or old_owner.kind is not SymbolKind.CLASS
            or new_owner.kind is not SymbolKind.CLASS
        ):
            return None
        name = last_name(path)
        if symbol.required is True:
            return K.TYPEDDICT_KEY_ADDED
        if is_protocol(old_owner) and is_protocol(new_owner):
            if not protocol_member(name, symbol.kind):
                return None
            kind = K.PROTOCOL_MEMBER_ADDED
        elif symbol.is_abstract:
            kind = K.ABSTRACT_METHOD_ADDED
        else:
            return None
        for base in base_classes(self.new.symbols, owner):
            # A standard-library base that already asks for it (``Iterable.__iter__``, an
            # abstract method of ``collections.abc``): the member is only declared again.
            found = None if base in self.new.symbols else standard_attribute(base, name)
            if found is not None and (
                kind is K.PROTOCOL_MEMBER_ADDED or getattr(found[0], "__isabstractmethod__", False)
            ):
                return None
        return kind

    def same_object_elsewhere(self, path: str, here: Surface, there: Surface) -> str | None:
        """A path of ``there`` that holds the object ``path`` held in ``here``, unchanged in
        both surfaces (a re-export dropped or added, not a move)."""
        symbol = here.symbols[path]
        if symbol.kind.value not in ("class", "function", "attribute", "type_alias", "module"):
            return None
        name = last_name(path)
        wanted = self.fingerprint(here, path)
        for other in self.names(there).get(name, ()):
            if (
                other != path
                and other in here.symbols
                and self.fingerprint(there, other) == wanted
                and self.fingerprint(here, other) == wanted
            ):
                return other
        return None

    def names(self, surface: Surface) -> dict[str, list[str]]:
        index = self._names.get(id(surface))
        if index is None:
            index = {}
            for other in sorted(surface.symbols):
                index.setdefault(last_name(other), []).append(other)
            self._names[id(surface)] = index
        return index

    # -- renames --

    def fingerprint(self, surface: Surface, path: str) -> tuple[object, ...]:
        symbol = surface.symbols[path]
        children: tuple[str, ...] = ()
        if symbol.kind.value in ("module", "class"):
            children = tuple(self.children(surface).get(path, ()))
        return (
            symbol.kind,
            symbol.signature,
            symbol.overloads,
            symbol.is_async,
            symbol.bases,
            symbol.annotation,
            # The docstring's text where both sides were read from source; a snapshot
            # records only whether there is one.
            symbol.docstring_hash if self.prose else symbol.documented,
            symbol.proto,
            children,
        )

    def children(self, surface: Surface) -> dict[str, list[str]]:
        index = self._children.get(id(surface))
        if index is None:
            index = {}
            for other in sorted(surface.symbols):
                index.setdefault(parent_path(other), []).append(last_name(other))
            self._children[id(surface)] = index
        return index

    def match_renames(self, removed: list[str], added: list[str]) -> dict[str, str]:
        """Each removed path to the one added path alike (:meth:`fingerprint`) and not
        taken yet; among several, the one beside it (same parent) when they are one
        object. Indexed: each removed path costs a few lookups, whatever the number of
        look-alikes (20,000 renamed functions alike took 284 s, each scanning them all)."""
        candidates = [
            path
            for path in removed
            if self.explained_removal(path) is None
            and self.old.symbols[path].documented
            and self.provided_by_base(self.new, path) is None
        ]
        fresh = [path for path in added if self.explained_addition(path) is None]
        by_print: dict[tuple[object, ...], _Alike] = {}
        for path in fresh:
            bucket = by_print.setdefault(self.fingerprint(self.new, path), _Alike())
            bucket.add(path, self.new.symbols[path].target)
        matches: dict[str, str] = {}
        for path in candidates:
            alike = by_print.get(self.fingerprint(self.old, path))
            if alike is None or not alike.untaken:
                continue
            chosen = alike.only()
            if chosen is None:
                beside = alike.only_beside(parent_path(path))
                # (A snapshot keeps no defining paths: there, alike is taken as the same.)
                if beside is not None and (len(alike.targets) == 1 or "" in alike.targets):
                    chosen = beside  # one object at several paths: the one beside it
                elif beside is not None:
                    # Different objects alike: the one beside it is only a guess, named on
                    # the removal, never a rename (``migrate`` rewrites renames).
                    self.guesses[path] = beside
            if chosen is not None and not self.prose and last_name(chosen) != last_name(path):
                # A side without its docstrings' text (a snapshot records only that there
                # is one): under another name, what is alike may be another function
                # documented otherwise, so the rename is only a guess, named on the removal
                # (a move keeps its name: that is evidence enough).
                self.guesses.setdefault(path, chosen)
            elif chosen is not None:
                matches[path] = chosen
                alike.take(chosen, self.new.symbols[chosen].target)
        return matches

    def compare_subtree(self, old_root: str, new_root: str) -> None:
        prefix = old_root + "."
        if self._sorted_old is None:
            self._sorted_old = sorted(self.old.symbols)
        paths = self._sorted_old
        # The paths below ``old_root``, found by bisection: not a scan of every path per
        # renamed root (16,000 renamed classes took 72 s).
        for index in range(bisect.bisect_left(paths, prefix), len(paths)):
            path = paths[index]
            if not path.startswith(prefix):
                break
            counterpart = new_root + path[len(old_root) :]
            if counterpart in self.new.symbols:
                self.symbol.compare(
                    counterpart, self.old.symbols[path], self.new.symbols[counterpart]
                )
