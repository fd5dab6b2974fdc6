"""Public names: how an object of the package is spelled, and where inherited members live.

Spelling: the link step (:mod:`apisurface.surface.link.walker`) writes every in-package name in
an annotation or a base by the object's shortest public path, and an object without one
by the package and its own name. Inheritance: a member a class inherits from a public
base of the package is listed once, at the base; a base is named without its type
arguments, and only some bases are part of the contract. The diff
(:mod:`apisurface.compare`) reads surfaces written by these rules, so it applies them
from here rather than re-deriving them. No griffe: this works on symbols and text only.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator, Mapping
from dataclasses import replace

from apisurface.model import Signature, Symbol, SymbolKind
from apisurface.surface.annotationtext import normalize

__all__ = [
    "DOTTED_NAME",
    "SpelledParts",
    "base_classes",
    "base_origin",
    "contract_base",
    "last_name",
    "listed_at_base",
    "lists_inherited_member",
    "parent_path",
    "public_bases",
    "respell",
    "shortest_public_paths",
    "spell_name",
    "unlisted_parts",
    "unlisted_spelling",
]


DOTTED_NAME = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+")
SpelledParts = tuple[Signature | None, tuple[Signature, ...], tuple[str, ...], str | None]


def parent_path(path: str) -> str:
    """The path holding ``path``: ``pkg.Cls`` for ``pkg.Cls.method``."""
    return path.rpartition(".")[0]


def last_name(path: str) -> str:
    """The name ``path`` ends with: ``method`` for ``pkg.Cls.method``."""
    return path.rpartition(".")[2]


def shortest_public_paths(symbols: Mapping[str, Symbol]) -> dict[str, str]:
    """How each object of a surface is spelled, by the path that defines it: its shortest
    public path (fewest dots, then alphabetical). A symbol without a definition path (a
    snapshot file stores none) spells nothing."""
    spelling: dict[str, str] = {}
    for path in sorted(symbols, key=lambda item: (item.count("."), item)):
        symbol = symbols[path]
        # Another distribution's name is spelled as its own (a re-export listed in
        # ``__all__`` does not make ``marshmallow.Schema`` ours to spell).
        if symbol.target and symbol.kind is not SymbolKind.EXTERNAL:
            spelling.setdefault(symbol.target, path)
    return spelling


def spell_name(
    dotted: str, public: dict[str, str], package: str, siblings: frozenset[str] = frozenset()
) -> str:
    """The public path of an in-package object, or :func:`unlisted_spelling`; any other
    name as it is."""
    found = public.get(dotted)
    if found is not None:
        return found
    return unlisted_spelling(dotted, package, siblings) or dotted


def unlisted_spelling(
    dotted: str, package: str, siblings: frozenset[str] = frozenset()
) -> str | None:
    """How an in-package object without a public path (private, undocumented, a TypeVar)
    is spelled: by the package and its own name (``pkg._impl.Helper`` -> ``pkg.Helper``),
    so moving it between modules changes nothing; an object of another top-level package
    of the distribution (``siblings``: ``_pytest.fixtures.FixtureDef``) too. None for a
    name not inside a module of ``package`` or of a sibling."""
    parts = dotted.split(".")
    if parts[0] == package and len(parts) > 2:
        return f"{package}.{parts[-1]}"
    if parts[0] in siblings and len(parts) > 1:
        return f"{package}.{parts[-1]}"
    return None


def unlisted_parts(name: str) -> tuple[str, str] | None:
    """The package and own name of a name of the shape :func:`unlisted_spelling` gives
    (``pkg.Helper`` -> ``("pkg", "Helper")``); None for a name of any other shape."""
    package, _, short = name.partition(".")
    if not short or "." in short:
        return None
    return package, short


def respell(
    symbol: Symbol,
    package: str,
    public: dict[str, str],
    memo: dict[str, str],
    memo_parts: dict[tuple[int, int, tuple[str, ...], str | None], SpelledParts],
    *,
    siblings: frozenset[str] = frozenset(),
) -> Symbol:
    """``symbol`` with every dotted name in its signatures, bases and annotation spelled
    by :func:`spell_name` (``public``: object path -> public path); ``memo`` and
    ``memo_parts`` are shared across the calls of one link step."""

    def spell(text: str | None) -> str | None:
        if text is None:
            return None
        if text not in memo:
            changed = DOTTED_NAME.sub(
                lambda match: spell_name(match.group(0), public, package, siblings), text
            )
            memo[text] = normalize(changed) if changed != text else text
        return memo[text]

    # Inherited members share their parts (see Walker.add): respell each part once.
    key = (id(symbol.signature), id(symbol.overloads), symbol.bases, symbol.annotation)
    parts = memo_parts.get(key)
    if parts is None:
        signature = symbol.signature
        if signature is not None:
            signature = _respell_signature(signature, spell)
        parts = memo_parts[key] = (
            signature,
            tuple(_respell_signature(item, spell) for item in symbol.overloads),
            tuple(spell(base) or base for base in symbol.bases),
            spell(symbol.annotation),
        )
    if parts == (symbol.signature, symbol.overloads, symbol.bases, symbol.annotation):
        return symbol
    return replace(
        symbol, signature=parts[0], overloads=parts[1], bases=parts[2], annotation=parts[3]
    )


def _respell_signature(signature: Signature, spell: object) -> Signature:
    assert callable(spell)
    return Signature(
        tuple(
            replace(parameter, annotation=spell(parameter.annotation))
            for parameter in signature.parameters
        ),
        spell(signature.returns),
    )


def public_bases(
    bases: tuple[str, ...],
    public: dict[str, str],
    base_bases: dict[str, tuple[str, ...]],
    base_targets: dict[str, str],
) -> tuple[str, ...]:
    """Bases with each in-package base that has no public path replaced by its own
    bases: ``Integer(Item, _CustomInt)`` where ``_CustomInt(int)`` derives from ``int``,
    and that is what users can rely on. ``base_bases`` holds the bases of each in-package
    base as spelled, ``base_targets`` the class each spelling names (the link step's)."""
    result: list[str] = []
    pending = list(bases)
    seen: set[str] = set()
    while pending:
        base = pending.pop(0)
        if base in seen:
            continue
        seen.add(base)
        if base in public or base_targets.get(base) in public or base not in base_bases:
            result.append(base)
        else:
            pending[0:0] = base_bases[base]
    return tuple(result)


# --- inheritance ------------------------------------------------------------------------


def base_origin(base: str) -> str:
    """The class a base names, without type arguments: ``pkg.Base[int]`` -> ``pkg.Base``."""
    return base.split("[", 1)[0]


PROTOCOL_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
"""The bases that make a class a protocol (PEP 544), as the surface spells them."""


def contract_base(base: str) -> bool:
    """Whether a base class, as spelled, is one users can rely on (not ``object`` or
    ``typing.Generic``, which only declare type parameters; not private: no dotted
    component starts with ``_``)."""
    dotted = base_origin(base)
    if dotted in ("object", "builtins.object", "typing.Generic"):
        return False
    return not any(part.startswith("_") for part in dotted.split("."))


def lists_inherited_member(defining_class: str | None, public_classes: Container[str]) -> bool:
    """Whether a subclass's path lists a member it inherits: only when the class defining
    it (its definition path) has no public path of its own (a private or undocumented
    base). A member of a public base is listed there, once, so one change in a base is
    one report, not one per subclass; :func:`listed_at_base` finds it there."""
    return defining_class is None or defining_class not in public_classes


def base_classes(symbols: Mapping[str, Symbol], owner: str) -> Iterator[str]:
    """The classes of ``symbols`` that class ``owner`` derives from, by their paths
    without type arguments: its bases in order, then theirs, breadth first (a base reached
    twice is yielded again, its own bases are not)."""
    pending, seen = [owner], set()
    while pending:
        current = pending.pop(0)
        symbol = symbols.get(current)
        if current in seen or symbol is None or symbol.kind is not SymbolKind.CLASS:
            continue
        seen.add(current)
        for spelled in symbol.bases:
            base = base_origin(spelled)
            yield base
            pending.append(base)


def listed_at_base(symbols: Mapping[str, Symbol], path: str) -> str | None:
    """Where ``symbols`` lists the member ``path`` names when its class inherits it from
    a public base of the package (:func:`lists_inherited_member`): ``pkg.Base.run`` for
    ``pkg.Child.run``; None when no base lists it."""
    name, owner = last_name(path), parent_path(path)
    for base in base_classes(symbols, owner):
        if f"{base}.{name}" in symbols and base != owner:
            return f"{base}.{name}"
    return None
