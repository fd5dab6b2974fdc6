"""Annotation facts: two surfaces' annotations made comparable, then related.

A :class:`TypeContext` holds what relating an annotation of OLD to one of NEW needs: the
package's type aliases replaced by what they name, OLD's names spelled as NEW spells the
same objects (the shortest public path, :mod:`apisurface.surface.spelling`), the bases of
a class for the type relation (a class with ``__call__`` is also a callable type), and
``typing.Self`` read as the method's class. :func:`annotation_change` turns one relation
(:mod:`apisurface.compare.annotations`) into the parameter or return fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from apisurface.changes import Change, ChangeKind
from apisurface.compare.annotations import Relation, relate
from apisurface.model import ParamKind, Signature, Surface
from apisurface.surface.annotationtext import normalize
from apisurface.surface.spelling import (
    DOTTED_NAME,
    last_name,
    parent_path,
    shortest_public_paths,
    unlisted_parts,
    unlisted_spelling,
)

__all__ = ["TypeContext", "annotation_change", "call_type"]

K = ChangeKind


class TypeContext:
    """What relating annotations of ``old`` and ``new`` needs, computed once per diff."""

    def __init__(self, old: Surface, new: Surface) -> None:
        self.old = old
        self.new = new
        self._spelling: dict[str, str] | None = None
        self._respelled: dict[str, str] = {}
        self._aliases: dict[int, dict[str, str]] = {}
        self._made_public: dict[str, list[str]] | None = None
        self._paths_of: dict[str, set[str]] | None = None
        self._unlisted_bases: dict[str, set[str]] | None = None
        self.renames: dict[str, str] = {}
        """Symbols renamed or moved (OLD path -> NEW path), set by the diff before it
        compares annotations: a renamed class is the same class inside annotations."""

    def bases_of(self, path: str) -> tuple[str, ...]:
        symbol = self.new.symbols.get(path) or self.old.symbols.get(path)
        return symbol.bases if symbol is not None else ()

    def unlisted_bases_of(self, path: str) -> tuple[str, ...]:
        """The classes without a public path that the class at ``path`` derives from in
        either surface, spelled as annotations spell them (``pkg._Base``): the link step
        replaces such a base by its own bases, but lists the members the class inherits
        from it at the class's path, defined (``target``) in the base. So OLD's
        ``Iterator[_IndividualSpecifier]`` becoming NEW's ``Iterator[Specifier]`` is a
        narrowing when OLD's ``Specifier`` inherited from ``_IndividualSpecifier``
        (packaging 22). A surface read from a snapshot file has no targets: nothing found."""
        if self._unlisted_bases is None:
            self._unlisted_bases = {}
            for surface in (self.old, self.new):
                _collect_unlisted_bases(surface, self._unlisted_bases)
        return tuple(sorted(self._unlisted_bases.get(path, ())))

    def type_bases_of(self, path: str) -> tuple[str, ...]:
        """``bases_of`` for the type relation: the class's bases, and for a class whose
        instances are callable (a ``__call__`` in the surface, as a protocol declares
        it) the callable type it is structurally: ``Callable[..., R]`` when ``__call__``
        takes any arguments (``*args, **kwargs``, a ParamSpec), ``Callable[[A, B], R]``
        when it takes required positional ones only; otherwise none is claimed."""
        bases = self.bases_of(path)
        unlisted = self.unlisted_bases_of(path)
        if unlisted:
            bases = (*bases, *(base for base in unlisted if base not in bases))
        for surface in (self.new, self.old):
            call = surface.symbols.get(f"{path}.__call__")
            if call is not None and call.signature is not None:
                callable_type = call_type(call.signature)
                return bases if callable_type is None else (*bases, callable_type)
        return bases

    def self_bases_of(self, path: str) -> Callable[[str], tuple[str, ...]]:
        """``bases_of`` for a method's signature: ``typing.Self`` there is a subclass of
        the method's class (``-> Client`` becoming ``-> Self`` narrows the return type)."""
        owner = self.new.symbols.get(parent_path(path))
        if owner is None or owner.kind.value != "class":
            return self.type_bases_of
        if not owner.target:
            # A snapshot file does not store targets (""): only the class's own path is
            # known. (Grouping every target-less symbol also sorted the whole surface per
            # changed method: 26 s on 100k symbols.)
            spellings: tuple[str, ...] = (parent_path(path),)
        else:
            if self._paths_of is None:
                self._paths_of = {}
                for surface in (self.old, self.new):
                    for other, symbol in surface.symbols.items():
                        self._paths_of.setdefault(symbol.target, set()).add(other)
            spellings = tuple(sorted(self._paths_of.get(owner.target, {parent_path(path)})))

        def bases_of(name: str) -> tuple[str, ...]:
            return spellings if name == "typing.Self" else self.type_bases_of(name)

        return bases_of

    def prepare_annotations(self, old: str, new: str) -> tuple[str, str]:
        """Two annotations ready to relate: type aliases of the package replaced by what
        they name (each side by its own surface), and OLD's names spelled as NEW spells
        the same objects."""
        return self.respell_old(self.expand_aliases(old, self.old)), self.expand_aliases(
            new, self.new
        )

    def expand_aliases(self, text: str, surface: Surface, depth: int = 0) -> str:
        """``text`` with every type alias of ``surface`` replaced by its value."""
        aliases = self._aliases.get(id(surface))
        if aliases is None:
            aliases = self._aliases[id(surface)] = {
                path: symbol.annotation
                for path, symbol in surface.symbols.items()
                if symbol.kind.value == "type_alias" and symbol.annotation
            }
        if not aliases or depth > 5:
            return text
        expanded = DOTTED_NAME.sub(
            lambda match: (
                f"({aliases[match.group(0)]})" if match.group(0) in aliases else match.group(0)
            ),
            text,
        )
        if expanded == text:
            return text
        return self.expand_aliases(normalize(expanded), surface, depth + 1)

    def respell_old(self, text: str) -> str:
        """An annotation of OLD with every name NEW still has spelled as NEW spells that
        object: a new shorter re-export changes the spelling (``pkg.gen.Override`` ->
        ``pkg.Override``), not the type. Spellings are the shortest public path of the
        object, as the link step chooses them (:func:`shortest_public_paths`)."""
        found = self._respelled.get(text)
        if found is not None:
            return found
        if self._spelling is None:
            self._spelling = shortest_public_paths(self.new.symbols)
        spelling = self._spelling

        def one(match: re.Match[str]) -> str:
            name = match.group(0)
            renamed = _through(name, self.renames)
            if renamed != name and renamed in self.new.symbols:
                # ``-> "Circle"`` on OLD, ``-> "Disk"`` on NEW, where Circle became Disk.
                moved = self.new.symbols[renamed].target or renamed
                return spelling.get(moved, renamed)
            old_symbol = self.old.symbols.get(name)
            if old_symbol is None:
                return self.made_public_spelling(name)
            # The object OLD named there; when OLD has no targets (a snapshot file), the
            # object NEW has at the same path.
            target = old_symbol.target
            if not target or target not in spelling:
                # No targets (a snapshot), or the definition moved (werkzeug 2.3 made the
                # module `datastructures` a package): the object NEW has at the same path.
                new_symbol = self.new.symbols.get(name)
                target = new_symbol.target if new_symbol is not None else target
            return spelling.get(target, name) if target else name

        found = self._respelled[text] = DOTTED_NAME.sub(one, text)
        return found

    def made_public_spelling(self, name: str) -> str:
        """OLD spells an object without a public path ``package.Name``
        (:func:`~apisurface.surface.spelling.unlisted_spelling`); when NEW made it public
        (one class, alias or NewType of that name), it is spelled by that path there."""
        parts = unlisted_parts(name)
        if parts is None or name in self.new.symbols:
            return name
        package, short = parts
        if self._made_public is None:
            self._made_public = {}
            for path, symbol in self.new.symbols.items():
                # an attribute too: a NewType (packaging 22.0 `utils.NormalizedName`)
                kinds = ("class", "type_alias", "attribute")
                if symbol.kind.value in kinds and path not in self.old.symbols:
                    self._made_public.setdefault(last_name(path), []).append(path)
        candidates = [
            path for path in self._made_public.get(short, []) if path.startswith(package + ".")
        ]
        return candidates[0] if len(candidates) == 1 else name


def _through(path: str, mapping: dict[str, str]) -> str:
    """``path`` with its longest prefix found in ``mapping`` replaced."""
    head = path
    while head:
        if head in mapping:
            return mapping[head] + path[len(head) :]
        head = head.rpartition(".")[0]
    return path


def _collect_unlisted_bases(surface: Surface, found: dict[str, set[str]]) -> None:
    """Add to ``found`` (class path -> spelled classes) every class without a public path
    that a class of ``surface`` inherited a listed member from."""
    symbols = surface.symbols
    public_classes = {symbol.target for symbol in symbols.values() if symbol.kind.value == "class"}
    for path, symbol in symbols.items():
        if not symbol.target:
            continue
        owner_path = parent_path(path)
        owner = symbols.get(owner_path)
        if owner is None or owner.kind.value != "class" or not owner.target:
            continue
        defining = parent_path(symbol.target)
        if not defining or defining == owner.target or defining in public_classes:
            continue
        spelled = unlisted_spelling(defining, surface.package) or defining
        found.setdefault(owner_path, set()).add(spelled)


def call_type(signature: Signature) -> str | None:
    """``signature`` (of a ``__call__``, without ``self``) as a ``Callable`` annotation, or
    ``None`` when a ``Callable`` cannot spell it (optional or keyword-only parameters)."""
    returns = signature.returns or "typing.Any"
    parameters = signature.parameters
    if all(p.kind in (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD) for p in parameters):
        return f"collections.abc.Callable[..., {returns}]"
    if all(p.kind.is_positional and p.required for p in parameters):
        types = ", ".join(p.annotation or "typing.Any" for p in parameters)
        return f"collections.abc.Callable[[{types}], {returns}]"
    return None


def annotation_change(
    where: str,
    old: str | None,
    new: str | None,
    bases_of: object,
    *,
    parameter: bool,
    prepare: Callable[[str, str], tuple[str, str]] | None = None,
) -> list[Change]:
    if old == new:
        return []
    if parameter:
        added, removed = K.PARAMETER_ANNOTATION_ADDED, K.PARAMETER_ANNOTATION_REMOVED
        wider, narrower = K.PARAMETER_ANNOTATION_WIDENED, K.PARAMETER_ANNOTATION_NARROWED
        changed = K.PARAMETER_ANNOTATION_CHANGED
        refined = K.PARAMETER_ANNOTATION_REFINED
    else:
        added, removed = K.RETURN_ANNOTATION_ADDED, K.RETURN_ANNOTATION_REMOVED
        wider, narrower = K.RETURN_ANNOTATION_WIDENED, K.RETURN_ANNOTATION_NARROWED
        changed = K.RETURN_ANNOTATION_CHANGED
        refined = K.RETURN_ANNOTATION_REFINED
    if old is None:
        return [Change(where, added, None, new)]
    if new is None:
        return [Change(where, removed, old, None)]
    if prepare is not None:
        old, new = prepare(old, new)
    relation = relate(old, new, bases_of)  # type: ignore[arg-type]
    kind = {
        Relation.EQUAL: None,
        Relation.WIDER: wider,
        Relation.NARROWER: narrower,
        Relation.INCOMPATIBLE: changed,
        Relation.REFINED: refined,
    }[relation]
    return [] if kind is None else [Change(where, kind, old, new)]
