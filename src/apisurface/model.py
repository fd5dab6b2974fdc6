"""The surface model: frozen values describing a package's documented public API.

Everything here is plain data. ``collect`` builds it, ``snapshot`` stores it, ``diff``
compares two of them. Nothing in this module reads files or knows about griffe.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

__all__ = [
    "ENGINE",
    "ExclusionReason",
    "Guess",
    "Location",
    "ParamKind",
    "Parameter",
    "Problem",
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
    UNKNOWN = "unknown"
    """A name the package declares (listed in ``__all__``) but binds at run time: it
    exists, what it is cannot be read statically (POLICY.md section 2 item 8)."""
    EXTERNAL = "external"
    """A name of another distribution (or the standard library) that a module lists in
    ``__all__``: public at that path, its origin in ``target``; what it is belongs to the
    other distribution's contract (POLICY.md section 2 item 8)."""

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


class Guess(StrEnum):
    """A fact about a symbol that rests on a guess (POLICY.md section 3, "Evidence"):
    changes that exist only because of it are inferred, not proven."""

    IMPORT_ONLY = "import_only"
    """The path is public only through the import-only rule (POLICY.md 2.8): a public
    module imports the object, and nothing else gives it a public path."""
    ANNOTATION_FROM_VALUE = "annotation_from_value"
    """The type is read from the literal value bound to the name, not written."""
    SIGNATURE_THROUGH_DECORATOR = "signature_through_decorator"
    """The signature is read from a function under a decorator called with a callable
    (``@helper(other)``), whose result may have another signature at run time."""


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
    ``guesses`` names the facts of this symbol that rest on a guess (:class:`Guess`),
    sorted; they grade the changes that rest on them. Kept, not compared.
    ``inferred`` names the parts read from code rather than stated (POLICY.md section 3,
    "Evidence"): ``"annotation"`` (a type from an unannotated value), ``"returns"`` (a
    return type from the ``return`` statements), ``"parameter NAME"`` (a keyword read from
    ``**kwargs`` in the body), ``"default NAME"`` (a default read through a named
    constant), ``"deprecated"`` (a deprecation read through a helper the body calls),
    ``"forwards kwargs"`` (the body hands its ``**kwargs`` on to another call).
    Kept, not compared: a change of one of these parts is inferred evidence.
    ``proto`` is what the wire format knows of a protocol buffer message, field, enum or
    enum value (``field 3 int32 optional``; :mod:`apisurface.surface.protobuf`), else None.
    ``assignable`` says whether ``obj.NAME = value`` works where the kind alone does not:
    ``False`` for an attribute of a class whose instances are read-only (a frozen dataclass
    or attrs class, a ``NamedTuple``), ``True`` for a property with a setter; None otherwise
    (an attribute takes an assignment, a property does not). Kept out of ``==``: it grades
    the evidence of a change of kind (an attribute that became a property with a setter
    still takes the assignment), and the diff compares it on its own where the kind stays
    (a property that lost its setter, a dataclass made frozen).
    ``required`` says, for a key of a ``TypedDict``, whether a dict of the type must have it
    (``Required[...]`` or ``NotRequired[...]`` around its annotation, else the ``total`` of
    the class that declares it); None for any other symbol. Kept out of ``==``; the diff
    compares it on its own (a key added required, a key made required).
    ``is_final`` says a class or method is marked ``@typing.final``: a type checker refuses
    a subclass of it, or an override. Kept out of ``==``; the diff compares it on its own.
    ``type_params`` names a generic class's type parameters as ``Generic[...]`` or
    ``Protocol[...]`` declares them, each suffixed ``=`` when it has a default and ``?``
    when whether it has one is unknown; None when the class declares none that way, or one
    is variadic or a ``ParamSpec``. Kept out of ``==``; the diff compares the counts.
    ``abstract_members`` lists, for a class, every abstract member it defines, public or
    not, each as ``name:kind`` (``method``, ``property``, ``classmethod``,
    ``staticmethod``, ``async``); None for a class without one and for other symbols. Kept
    out of ``==``: it lets a witness subclass implement what the surface does not list.
    ``unhashable`` says, for a class, whether its ``__hash__`` is None, so that its
    instances cannot be dict keys or set members: True when it is (``__eq__`` defined
    without ``__hash__``, ``__hash__ = None``, a dataclass or attrs class that compares by
    value and is not frozen, a ``list`` or ``dict`` subclass), False when it is not or for
    another symbol, None when a base outside the package and the standard library decides
    it. Kept out of ``==``; the diff compares it on its own.
    ``documented`` says the symbol has a docstring of its own (POLICY.md section 2 item 5:
    the first way to be documented; the others, ``__all__`` and docs sources, show in the
    surface itself). Snapshot files record it (format 13). ``docstring_hash`` is a digest of
    that docstring's text, kept where the source was read (and in cache entries) so that a
    diff of two trees reports a docstring reworded (a PATCH note); snapshot files do not
    record the prose, so a docstring edit leaves a snapshot current. Kept out of ``==``.
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
    docstring_hash: str | None = field(default=None, compare=False)
    documented: bool = False
    constructor_from_fields: bool = False
    location: Location | None = field(default=None, compare=False)
    export_scope: tuple[str, ...] = field(default=(), compare=False)
    guesses: tuple[Guess, ...] = field(default=(), compare=False)
    inferred: tuple[str, ...] = field(default=(), compare=False)
    proto: str | None = None
    assignable: bool | None = field(default=None, compare=False)
    required: bool | None = field(default=None, compare=False)
    is_final: bool = field(default=False, compare=False)
    type_params: tuple[str, ...] | None = field(default=None, compare=False)
    abstract_members: tuple[str, ...] | None = field(default=None, compare=False)
    unhashable: bool | None = field(default=False, compare=False)

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


ENGINE = 7
"""The rules engine of this apisurface: what is public (POLICY.md section 2) and what each
change is (section 3), as the code decides them. Raise it in the change that alters what a
surface holds or what the diff reports for the same sources (a rule row, a what-is-public
rule, a pairing rule), so that a snapshot made before is known to come from another engine
(docs/decisions.md, "Snapshots record their engine"). 1: before the engine was recorded;
2: issue 18 (scoped unknowns, evidence, one entry per break, renames on evidence); 3: an
attribute that became a property is graded by whether an assignment still fares the same;
4: ``__all__`` changed in place (``extend``, ``append``, ``remove``) is read; a property or
attribute that stops or starts taking an assignment is a change; 5: an abstract method or a
protocol member added, a required ``TypedDict`` key added, a key made required and a class
or method made ``@final`` and the type parameters of a generic class changed are changes
of their own; 6: a class whose instances stop (or start) being hashable is a change, a
standard-library base replaced by one of its subclasses is no base removed, and a
protocol's member or an abstract method whose signature only widens for callers is a
break for its implementations; 7: issue 36, the surface users can import: the sibling
top-level packages of the distribution, names served lazily, definitions kept past a
branch rebinding them from outside, docstrings set at run time, a package's binding
shadowing its submodule, ``__all__`` built from other lists, bound-method aliases, and
names of other distributions listed in ``__all__`` (kind ``external``)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A part of the surface a static reader could not know (POLICY.md section 3, "Unknowns").

    ``file`` is the file it concerns, relative to the analysed root ("" when it concerns
    the whole package); ``line`` its line (0 when none); ``path`` the public path of the
    object it concerns ("" when it concerns the file). ``related`` names other files whose
    content it depends on (the module a re-export points into). ``digest`` is the sha256
    of the content of ``file`` and ``related`` (of every file when ``file`` is ""): two
    sides whose problem and digest are equal read the same unknown text, which then hides
    no change between them. ``None`` when the content was not recorded. ``decided`` marks
    a note that is no unknown: a decision read from sources that were read whole (a
    declaration the build's generated API modules did not export), listed but never
    blocking a gate. ``column`` is the column (from 1) of ``line`` when known, 0 otherwise.
    ``error`` marks bad input rather than an unknown: a file the public surface reaches
    that does not parse, does not decode or cannot be read (issue 37). Every command stops
    on one (exit 2) unless the user allows an incomplete surface; the link step clears it
    for files nothing public reaches (test code, a vendored module no public one imports),
    whose problems stay unknowns.
    """

    file: str
    message: str
    line: int = 0
    path: str = ""
    related: tuple[str, ...] = ()
    digest: str | None = None
    decided: bool = False
    column: int = 0
    error: bool = False

    def __str__(self) -> str:
        if not self.file:
            return f"{self.path}: {self.message}" if self.path else self.message
        return f"{self.where}: {self.message}"

    @property
    def where(self) -> str:
        """``FILE:LINE:COLUMN`` as compilers write it (as far as each is known)."""
        if not self.line:
            return self.file
        return (
            f"{self.file}:{self.line}:{self.column}" if self.column else f"{self.file}:{self.line}"
        )

    @property
    def sort_key(self) -> tuple[str, int, str, str]:
        """Problems are listed by file, line, path and message."""
        return (self.file, self.line, self.path, self.message)

    @property
    def identity(self) -> tuple[str, str, str, tuple[str, ...]]:
        """What makes two sides' problems the same one: file, object path, message and
        related files (not the line: an object's problem moves with its object)."""
        return (self.file, self.path, self.message, self.related)

    def same_unknown(self, other: Problem) -> bool:
        """Whether ``other`` is this problem read from the same content (a note, not a
        block, when it is on the other side of a diff)."""
        return (
            self.digest is not None
            and self.digest == other.digest
            and self.identity == other.identity
        )


@dataclass(frozen=True, slots=True)
class Surface:
    """The documented public surface of one package at one point in time.

    ``excluded`` maps paths a user could type but which are outside the contract to the
    reason (only the root of each excluded subtree is kept). ``problems`` lists the parts
    that could not be analysed (:class:`Problem`); a surface with problems is incomplete,
    and a diff reports them as blocking only where they differ between its two sides.
    ``declared_by`` names the export decorators (``keras_export``) whose declarations
    defined the surface; empty when the package layout did (POLICY.md section 2).
    ``docs_sources`` tells whether API docs sources (naming at least one object) were read:
    documentation by docs sources can only be judged where they were; ``None`` when not
    recorded (an older snapshot). ``engine`` is the :data:`ENGINE` that made it: this one
    for a surface read from source, the recorded one for a snapshot file (``None``: an
    older file that did not record it).
    """

    package: str
    symbols: dict[str, Symbol]
    excluded: dict[str, ExclusionReason] = field(default_factory=dict)
    version: str | None = None
    problems: tuple[Problem, ...] = ()
    declared_by: tuple[str, ...] = ()
    docs_sources: bool | None = None
    engine: int | None = ENGINE

    @property
    def other_engine(self) -> bool:
        """Whether another apisurface engine (or an unknown one) made this surface."""
        return self.engine != ENGINE

    @property
    def complete(self) -> bool:
        """Whether every file of the package was analysed."""
        return not self.problems
