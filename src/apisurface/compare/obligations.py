"""Witnesses of what code written for OLD's class must now provide: a subclass
implementing the abstract members OLD's class lists, instantiated (an abstract method
added); a class providing every member of OLD's protocol, used as one (a protocol member
added); a dict with every key OLD's TypedDict requires (a required key added, a key made
required). Each type-checks against OLD and not against NEW, which asks for one more."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from apisurface.changes import ChangeKind
from apisurface.compare.signatures import signature_text
from apisurface.model import Parameter, ParamKind, Signature, Surface, Symbol, SymbolKind
from apisurface.surface.spelling import PROTOCOL_BASES, base_classes, base_origin, contract_base

__all__ = [
    "IMPLEMENTER_BREAKING",
    "OBLIGATIONS",
    "Owner",
    "foreign_base",
    "implementation_witness",
    "is_protocol",
    "members_unlisted",
    "must_be_implemented",
    "obligation_witness",
    "protocol_member",
    "provided_lines",
]

K = ChangeKind


@dataclass(frozen=True)
class Owner:
    """The class a member was added to, as user code names it: its ``path`` in the
    surface, the expression (``Storage``, ``Outer.Inner``), the imports that bring it in,
    and the arguments of a call to its constructor (``_, name=_``)."""

    path: str
    expr: str
    imports: tuple[str, ...]
    constructor_args: str


OBLIGATIONS = frozenset(
    {
        K.ABSTRACT_METHOD_ADDED,
        K.PROTOCOL_MEMBER_ADDED,
        K.TYPEDDICT_KEY_ADDED,
        K.TYPEDDICT_KEY_MADE_REQUIRED,
    }
)
"""The kinds whose witness is code written for OLD's class (a symbol NEW added, or one
whose requirement NEW raised)."""


NOT_PROTOCOL_MEMBERS = frozenset(
    {
        "__init__",
        "__new__",
        "__init_subclass__",
        "__class_getitem__",
        "__slots__",
        "__subclasshook__",
        "__post_init__",
    }
)
"""Names a protocol class may define that are no protocol members (PEP 544 and the typing
spec): an implementation is never asked for them."""

PROTOCOL_MEMBER_KINDS = frozenset(
    {
        SymbolKind.METHOD,
        SymbolKind.CLASSMETHOD,
        SymbolKind.STATICMETHOD,
        SymbolKind.PROPERTY,
        SymbolKind.ATTRIBUTE,
    }
)
"""The kinds of a protocol's members, which a class implementing it provides."""


IMPLEMENTER_BREAKING = frozenset(
    {K.PARAMETER_ANNOTATION_WIDENED, K.RETURN_ANNOTATION_NARROWED, K.OVERLOAD_ADDED}
)
"""Type changes that only widen what callers may do (MINOR for them), yet ask more of a
class that implements the member: accept the wider type, give the narrower result,
answer the new overload. (New calls a signature accepts are judged by binding.)"""

_CALLABLE_MEMBERS = frozenset({SymbolKind.METHOD, SymbolKind.CLASSMETHOD, SymbolKind.STATICMETHOD})


def must_be_implemented(
    path: str, old: Symbol, new: Symbol, old_owner: Symbol | None, new_owner: Symbol | None
) -> bool:
    """Whether the method at ``path`` is one user code implements on both sides: a member
    of a protocol (a class naming ``Protocol`` among its bases), or an abstract method."""
    if old.kind not in _CALLABLE_MEMBERS or new.kind not in _CALLABLE_MEMBERS:
        return False
    if old.is_abstract and new.is_abstract:
        return True
    return (
        protocol_member(path.rpartition(".")[2], new.kind)
        and old_owner is not None
        and new_owner is not None
        and is_protocol(old_owner)
        and is_protocol(new_owner)
    )


def protocol_member(name: str, kind: SymbolKind) -> bool:
    """Whether a protocol's member ``name`` of ``kind`` is one an implementation provides."""
    return name not in NOT_PROTOCOL_MEMBERS and kind in PROTOCOL_MEMBER_KINDS


def is_protocol(cls: Symbol) -> bool:
    """Whether the class ``cls`` is a protocol: ``Protocol`` among its own bases (a
    subclass of a protocol is one only when it names ``Protocol`` again, PEP 544)."""
    return any(base_origin(base) in PROTOCOL_BASES for base in cls.bases)


def obligation_witness(kind: ChangeKind, owner: Owner, symbols: Mapping[str, Symbol]) -> str | None:
    """The witness of a change of :data:`OBLIGATIONS` at a member of ``owner``;
    ``symbols`` is the OLD surface. None when none can be written."""
    if symbols.get(owner.path) is None:
        return None
    if kind in (K.TYPEDDICT_KEY_ADDED, K.TYPEDDICT_KEY_MADE_REQUIRED):
        return _typeddict_witness(owner, symbols)
    protocol = kind is K.PROTOCOL_MEMBER_ADDED
    body: list[str] = []
    if protocol:
        body = _protocol_members(owner.path, symbols)
    else:
        for name, kind_name in sorted(_abstract_members(owner.path, symbols).items()):
            body += [*_member_lines(name, kind_name, protocol=False), ""]
    if protocol:
        use = ["def use() -> None:", f"    given: {owner.expr} = Mine()"]
    else:
        use = ["def use(_: Any) -> None:", f"    Mine({owner.constructor_args})"]
    lines = ["from typing import Any", *owner.imports, "", "", *_mine(owner, body, protocol)]
    return "\n".join([*lines, "", *use])


def _protocol_members(owner: str, symbols: Mapping[str, Symbol], but: str = "") -> list[str]:
    """Class-body lines providing every member of the protocol ``owner`` (but ``but``)
    with types that accept any use."""
    body: list[str] = []
    for name, symbol in sorted(_class_members(owner, symbols).items()):
        if protocol_member(name, symbol.kind) and name != but:
            body += [*provided_lines(symbol, protocol=True), ""]
    return body


def _mine(owner: Owner, body: list[str], protocol: bool) -> list[str]:
    """``class Mine`` with ``body``: standing alone for a protocol, else deriving from the
    class."""
    head = f"class Mine({'' if protocol else owner.expr}):".replace("()", "")
    return [head, *([f"    {line}" if line else "" for line in body] or ["    pass", ""])]


def _typeddict_witness(owner: Owner, symbols: Mapping[str, Symbol]) -> str | None:
    """A dict with every key OLD's TypedDict requires, typed as it: NEW requires one more.
    None when OLD does not record which keys are required (an older snapshot)."""
    keys = [
        (name, symbol.required)
        for name, symbol in sorted(_class_members(owner.path, symbols).items())
        if symbol.kind is SymbolKind.ATTRIBUTE
    ]
    if any(required is None for _, required in keys):
        return None
    given = ", ".join(f"{name!r}: _" for name, required in keys if required)
    return "\n".join(
        [
            "from typing import Any",
            *owner.imports,
            "",
            "",
            "def use(_: Any) -> None:",
            f"    given: {owner.expr} = {{{given}}}",
        ]
    )


def members_unlisted(kind: ChangeKind, owner: str, surface: Surface) -> bool:
    """Whether code written for class ``owner`` from what ``surface`` records may not fit
    it, so that no witness is written: the class derives from a class the surface does not
    hold (``collections.abc.Sized``, a private base), which may ask for members of its own;
    or, for a protocol or a TypedDict, the class has members the surface leaves out
    (private, undocumented), which may be members or keys. (Abstract methods are recorded
    whether public or not, from engine 5 on.)"""
    if any(True for _ in _bases_not_held(owner, surface)):
        return True
    classes = {owner, *base_classes(surface.symbols, owner)}
    if kind is K.ABSTRACT_METHOD_ADDED:
        return surface.engine is None or surface.engine < 5
    return any(path.rpartition(".")[0] in classes for path in surface.excluded)


# Bases from outside the package that ask a subclass for nothing.
_NOTHING_ASKED = frozenset(
    {
        "object",
        "builtins.object",
        "abc.ABC",
        "typing.Generic",
        "typing.TypedDict",
        "typing_extensions.TypedDict",
        *PROTOCOL_BASES,
    }
)


def foreign_base(owner: str, surface: Surface) -> str | None:
    """A class ``owner`` derives from outside the package and the standard library (whose
    members no reader here knows: it may already ask for what NEW declares), or None."""
    for base in _bases_not_held(owner, surface):
        module = base.rpartition(".")[0] or "builtins"
        if contract_base(base) and module.partition(".")[0] not in sys.stdlib_module_names:
            return base
    return None


def _bases_not_held(owner: str, surface: Surface) -> Iterator[str]:
    """The classes ``owner`` derives from that ``surface`` does not hold (outside the
    package, or private), but for those that ask a subclass for nothing."""
    for base in base_classes(surface.symbols, owner):
        if base not in surface.symbols and base not in _NOTHING_ASKED:
            yield base


def _class_members(owner: str, symbols: Mapping[str, Symbol]) -> dict[str, Symbol]:
    """The members of class ``owner`` by name, with those it inherits from the package's
    classes (listed once, at the public base that defines them): the nearest wins."""
    found: dict[str, Symbol] = {}
    for cls in (owner, *base_classes(symbols, owner)):
        prefix = f"{cls}."
        for path, symbol in symbols.items():
            if path.startswith(prefix) and "." not in path[len(prefix) :]:
                found.setdefault(path[len(prefix) :], symbol)
    return found


def provided_lines(member: Symbol, protocol: bool) -> list[str]:
    """The lines of a class body that provide ``member`` with types that accept any use."""
    kind = "async" if member.is_async and member.kind.is_callable else member.kind.value
    return _member_lines(member.name, kind, protocol=protocol)


def _abstract_members(owner: str, symbols: Mapping[str, Symbol]) -> dict[str, str]:
    """The abstract members of class ``owner`` and of the package's classes it derives
    from, public or not (:attr:`Symbol.abstract_members`), by name: name -> kind."""
    found: dict[str, str] = {}
    for cls in (owner, *base_classes(symbols, owner)):
        symbol = symbols.get(cls)
        for entry in (symbol.abstract_members or ()) if symbol is not None else ():
            name, _, kind = entry.partition(":")
            found.setdefault(name, kind)
    return found


def _member_lines(name: str, kind: str, *, protocol: bool) -> list[str]:
    if kind in ("attribute", "property") and protocol:
        return [f"{name}: Any"]  # an attribute serves a read-only property too
    if kind in {"property", "attribute"}:
        return ["@property", f"def {name}(self) -> Any: ..."]
    if kind == "classmethod":
        return ["@classmethod", f"def {name}(cls, *args: Any, **kwargs: Any) -> Any: ..."]
    if kind == "staticmethod":
        return ["@staticmethod", f"def {name}(*args: Any, **kwargs: Any) -> Any: ..."]
    define = "async def" if kind == "async" else "def"
    return [f"{define} {name}(self, *args: Any, **kwargs: Any) -> Any: ..."]


def implementation_witness(
    owner: Owner, member: Symbol, symbols: Mapping[str, Symbol], imports: list[str]
) -> str | None:
    """A class implementing ``member`` (a protocol's member or an abstract method of
    ``owner``) exactly as OLD declares it, used as the protocol (or deriving from the
    class): a type checker accepts it on OLD and refuses it on NEW. ``imports`` make the
    names of the old signature resolvable. None when no such class can be written."""
    signature = member.signature
    if signature is None or symbols.get(owner.path) is None:
        return None
    protocol = not member.is_abstract
    body = _protocol_members(owner.path, symbols, but=member.name) if protocol else []
    body += _exact_definition(member, signature)
    lines = ["from typing import Any", *owner.imports, *imports, "", "_D: Any = None", "", ""]
    lines += _mine(owner, body, protocol)
    if protocol:
        lines += ["", "", "def use() -> None:", f"    given: {owner.expr} = Mine()"]
    return "\n".join(lines)


def _exact_definition(member: Symbol, signature: Signature) -> list[str]:
    """``member`` defined with the parameters, kinds and types ``signature`` gives it; every
    default is ``_D`` (typed Any), so that no default's own text needs resolving."""
    parameters = tuple(
        replace(parameter, default="_D") if parameter.default is not None else parameter
        for parameter in signature.parameters
    )
    decorators: list[str] = []
    if member.kind is SymbolKind.STATICMETHOD:
        decorators = ["@staticmethod"]
    else:
        first_kind = (
            ParamKind.POSITIONAL_ONLY
            if any(p.kind is ParamKind.POSITIONAL_ONLY for p in parameters)
            else ParamKind.POSITIONAL_OR_KEYWORD
        )
        first = "cls" if member.kind is SymbolKind.CLASSMETHOD else "self"
        parameters = (Parameter(first, first_kind), *parameters)
        if member.kind is SymbolKind.CLASSMETHOD:
            decorators = ["@classmethod"]
    text = signature_text(Signature(parameters, signature.returns))
    define = "async def" if member.is_async else "def"
    return [*decorators, f"{define} {member.name}{text}:", "    raise NotImplementedError"]
