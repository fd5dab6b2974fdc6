"""The surface model: frozen values describing a package's documented public API.

Everything here is plain data. ``collect`` builds it, ``snapshot`` stores it, ``diff``
compares two of them. Nothing in this module reads files or knows about griffe.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

__all__ = [
    "ExclusionReason",
    "Location",
    "ParamKind",
    "Parameter",
    "Signature",
    "Surface",
    "Symbol",
    "SymbolKind",
]


class SymbolKind(StrEnum):
    """What a public path names."""

    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    METHOD = "method"
    CLASSMETHOD = "classmethod"
    STATICMETHOD = "staticmethod"
    PROPERTY = "property"
    ATTRIBUTE = "attribute"
    ENUM_MEMBER = "enum_member"
    TYPE_ALIAS = "type_alias"

    @property
    def is_callable(self) -> bool:
        """Whether symbols of this kind carry a signature."""
        return self in _CALLABLE_KINDS


_CALLABLE_KINDS = frozenset(
    {SymbolKind.FUNCTION, SymbolKind.METHOD, SymbolKind.CLASSMETHOD, SymbolKind.STATICMETHOD}
)


class ParamKind(StrEnum):
    """The five kinds of Python parameters, in signature order."""

    POSITIONAL_ONLY = "positional-only"
    POSITIONAL_OR_KEYWORD = "positional-or-keyword"
    VAR_POSITIONAL = "var-positional"
    KEYWORD_ONLY = "keyword-only"
    VAR_KEYWORD = "var-keyword"

    @property
    def is_positional(self) -> bool:
        """Whether a caller can pass this parameter by position."""
        return self in (ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD)

    @property
    def is_keyword(self) -> bool:
        """Whether a caller can pass this parameter by name."""
        return self in (ParamKind.POSITIONAL_OR_KEYWORD, ParamKind.KEYWORD_ONLY)


class ExclusionReason(StrEnum):
    """Why a path a user could type is outside the public surface (POLICY.md section 2)."""

    PRIVATE = "private"
    EXPERIMENTAL = "experimental"
    CONTRIB = "contrib"
    TOOLS = "tools"
    UNDOCUMENTED = "undocumented"
    NOT_EXPORTED = "not_exported"
    CONFIGURED = "configured"


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a callable. ``default`` is source text, ``None`` when required."""

    name: str
    kind: ParamKind
    default: str | None = None
    annotation: str | None = None

    @property
    def required(self) -> bool:
        """Whether a call must supply this parameter."""
        return self.default is None and self.kind not in (
            ParamKind.VAR_POSITIONAL,
            ParamKind.VAR_KEYWORD,
        )


@dataclass(frozen=True, slots=True)
class Signature:
    """Parameters and return annotation of one callable (or one ``@overload``)."""

    parameters: tuple[Parameter, ...] = ()
    returns: str | None = None


@dataclass(frozen=True, slots=True)
class Location:
    """Where a symbol is defined, relative to the analysed root. Never compared."""

    file: str
    line: int


@dataclass(frozen=True, slots=True)
class Symbol:
    """One public path of the surface and everything a user can depend on there.

    ``target`` is the dotted path where the object is defined (aliases point there);
    it is used to recognise renames and moves, not compared as a change itself.
    ``export_scope`` is set for a path named by an export declaration with keyword
    arguments (``@tf_export("a", v1=["a", "b"])``): ``"default"`` when the positional
    arguments name the path, each keyword whose list names it (``"v1"``), and each other
    keyword as written (``"allow_multiple_exports=True"``). Kept, not compared.
    ``proto`` is what the wire format knows of a protocol buffer message, field, enum or
    enum value (``field 3 int32 optional``; :mod:`apisurface.surface.protobuf`), else None.
    """

    path: str
    kind: SymbolKind
    target: str = field(default="", compare=False)
    signature: Signature | None = None
    overloads: tuple[Signature, ...] = ()
    is_async: bool = False
    is_abstract: bool = False
    bases: tuple[str, ...] = ()
    annotation: str | None = None
    deprecated: str | None = None
    docstring_hash: str | None = None
    constructor_from_fields: bool = False
    location: Location | None = field(default=None, compare=False)
    export_scope: tuple[str, ...] = field(default=(), compare=False)
    proto: str | None = None

    @property
    def name(self) -> str:
        """The last component of the path."""
        return self.path.rpartition(".")[2]

    @property
    def parent(self) -> str:
        """The path of the enclosing module or class ("" for the package)."""
        return self.path.rpartition(".")[0]

    def at(self, path: str) -> Symbol:
        """The same symbol seen at another path (an inherited member at its subclass)."""
        return replace(self, path=path)


@dataclass(frozen=True, slots=True)
class Surface:
    """The documented public surface of one package at one point in time.

    ``excluded`` maps paths a user could type but which are outside the contract to the
    reason (only the root of each excluded subtree is kept). ``problems`` lists files that
    could not be analysed; a surface with problems is incomplete. ``declared_by`` names
    the export decorators (``keras_export``) whose declarations defined the surface; empty
    when the package layout did (POLICY.md section 2). ``docs_sources`` tells whether API
    docs sources (naming at least one object) were read: documentation by docs sources can
    only be judged where they were; ``None`` when not recorded (an older snapshot).
    """

    package: str
    symbols: dict[str, Symbol]
    excluded: dict[str, ExclusionReason] = field(default_factory=dict)
    version: str | None = None
    problems: tuple[str, ...] = ()
    declared_by: tuple[str, ...] = ()
    docs_sources: bool | None = None

    @property
    def complete(self) -> bool:
        """Whether every file of the package was analysed."""
        return not self.problems
