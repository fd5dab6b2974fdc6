"""Symbol building: one griffe object as the :class:`~apisurface.model.Symbol` at a path.

Its kind (function, method, property, enum member, type alias...), its signature with
defaults rendered as values, its overloads, annotation, bases, docstring hash and
location. Names in it are still spelled by where they are defined: the link step respells
them by public path at the end (:mod:`apisurface.surface.spelling`).
"""

from __future__ import annotations

import ast
import hashlib
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import fields
from pathlib import Path

import griffe

from apisurface.model import (
    Guess,
    Location,
    Parameter,
    ParamKind,
    Signature,
    Symbol,
    SymbolKind,
)
from apisurface.surface.access import safe_str
from apisurface.surface.linearize import class_mro
from apisurface.surface.link.aliases import module_member
from apisurface.surface.link.conversions import conversions, converted_default
from apisurface.surface.link.hashing import unhashable
from apisurface.surface.link.inference import returned_type, value_type
from apisurface.surface.link.rendering import (
    assigned_value_of,
    implicit_alias,
    render_annotation,
    self_type_var,
)
from apisurface.surface.link.valueclasses import value_class
from apisurface.surface.spelling import PROTOCOL_BASES
from apisurface.surface.visit.facts import Keyword, body_of, facts_of, literal_text

__all__ = [
    "TUPLE_COUNT",
    "TUPLE_INDEX",
    "describe",
    "fields_signature",
    "is_namedtuple",
    "kind_of",
    "namedtuple_call_fields",
    "namedtuple_members",
    "with_path",
]

_ENUM_BASES = frozenset(
    {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum"}
)
_NAMEDTUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
_PARAM_KINDS = {
    "positional-only": ParamKind.POSITIONAL_ONLY,
    "positional or keyword": ParamKind.POSITIONAL_OR_KEYWORD,
    "variadic positional": ParamKind.VAR_POSITIONAL,
    "keyword-only": ParamKind.KEYWORD_ONLY,
    "variadic keyword": ParamKind.VAR_KEYWORD,
}


def describe(
    obj: griffe.Object,
    path: str,
    kind: SymbolKind,
    deprecated: str | None,
    *,
    owner: griffe.Class | None = None,
) -> Symbol:
    """What ``obj`` is at ``path`` as a symbol of kind ``kind`` (``owner``: the class it is
    a member of). A function's signature is rendered once and reused."""
    signature: Signature | None = None
    overloads: tuple[Signature, ...] = ()
    annotation: str | None = None
    bases: tuple[str, ...] = ()
    from_fields = False
    guesses: tuple[Guess, ...] = ()
    inferred: tuple[str, ...] = ()
    if isinstance(obj, griffe.Function):
        drop_first = kind in (SymbolKind.METHOD, SymbolKind.CLASSMETHOD)
        signature = _signature(obj, drop_first=drop_first)
        inferred = _inferred_parts(obj, drop_first=drop_first)
        overloads = tuple(
            sorted(
                {_signature(item, drop_first=drop_first) for item in obj.overloads or ()},
                key=_signature_text,
            )
        )
        from_fields = owner is not None and "dataclass" in owner.labels and obj.lineno == 0
        if any(_WRAPPING.match(safe_str(item.value)) for item in obj.decorators):
            guesses = (Guess.SIGNATURE_THROUGH_DECORATOR,)
        if kind is SymbolKind.PROPERTY:
            annotation = signature.returns
            signature = None
            inferred = ("annotation",) if "returns" in inferred else ()
    elif isinstance(obj, griffe.Class):
        bases = tuple(render_annotation(base, obj.parent) for base in obj.bases)
    elif isinstance(obj, griffe.Attribute):
        annotation = (
            render_annotation(obj.annotation, obj.parent) if obj.annotation is not None else None
        )
        if annotation is None and kind is SymbolKind.ATTRIBUTE:
            annotation = _value_type(obj)
            if annotation is not None:
                guesses = (Guess.ANNOTATION_FROM_VALUE,)
                inferred = ("annotation",)
        if kind is SymbolKind.TYPE_ALIAS and obj.value is not None:
            annotation = render_annotation(obj.value, obj.parent)
    elif isinstance(obj, griffe.TypeAlias):
        annotation = render_annotation(obj.value, obj.parent)
    docstring = obj.docstring.value.strip() if obj.docstring else ""
    location = None
    if obj.filepath is not None and not isinstance(obj.filepath, list):
        location = Location(Path(obj.filepath).as_posix(), obj.lineno or 0)
    return Symbol(
        assignable=_assignable(obj, kind),
        required=_required(obj, kind, annotation),
        is_final=_final(obj),
        type_params=_type_params(obj) if isinstance(obj, griffe.Class) else None,
        abstract_members=_abstract_members(obj) if isinstance(obj, griffe.Class) else None,
        unhashable=unhashable(obj) if isinstance(obj, griffe.Class) else False,
        path=path,
        kind=kind,
        target=obj.path,
        signature=signature,
        overloads=overloads,
        is_async="async" in obj.labels,
        is_abstract="abstractmethod" in obj.labels,
        bases=bases,
        annotation=annotation,
        deprecated=deprecated,
        docstring_hash=_hash(docstring) if docstring else None,
        documented=bool(docstring),
        location=location,
        constructor_from_fields=from_fields,
        guesses=guesses,
        inferred=inferred,
    )


_SYMBOL_FIELDS = tuple(item.name for item in fields(Symbol))
_symbol_values = operator.attrgetter(*_SYMBOL_FIELDS)
_PATH_FIELD = _SYMBOL_FIELDS.index("path")


def with_path(template: Symbol, path: str) -> Symbol:
    """A copy of ``template`` at another path (``dataclasses.replace`` is 2x slower)."""
    values = list(_symbol_values(template))
    values[_PATH_FIELD] = path
    return Symbol(*values)


def _base_paths(cls: griffe.Class) -> set[str]:
    return {base if isinstance(base, str) else _canonical(base) for base in cls.bases}


def _is_enum(cls: griffe.Class) -> bool:
    memo = cls.extra["apisurface"]
    if "is_enum" not in memo:
        memo["is_enum"] = bool(_base_paths(cls) & _ENUM_BASES) or any(
            _base_paths(base) & _ENUM_BASES for base in class_mro(cls)
        )
    return memo["is_enum"]  # type: ignore[no-any-return]


def is_namedtuple(cls: griffe.Class) -> bool:
    return bool(_base_paths(cls) & _NAMEDTUPLE_BASES)


def _read_only_instances(cls: griffe.Class) -> bool:
    """Whether assigning to an attribute of an instance of ``cls`` (or of a class it
    inherits from in the package) fails: a frozen dataclass or attrs class, a NamedTuple."""
    for each in (cls, *class_mro(cls)):
        if is_namedtuple(each):
            return True
        for decorator in each.decorators:
            made = value_class(decorator)
            if made is not None and made.frozen:
                return True
    return False


def _assignable(obj: griffe.Object, kind: SymbolKind) -> bool | None:
    """:attr:`Symbol.assignable`: where ``obj.NAME = value`` does not work as its kind says."""
    owner = obj.parent
    if kind is SymbolKind.PROPERTY and {"cached", "property"} <= obj.labels:
        # functools.cached_property stores into the instance: an assignment does the same,
        # unless the instances are read-only.
        read_only = isinstance(owner, griffe.Class) and _read_only_instances(owner)
        return None if read_only else True
    if kind is SymbolKind.PROPERTY:
        return True if "writable" in obj.labels else None
    if kind is SymbolKind.ATTRIBUTE and isinstance(owner, griffe.Class):
        return False if _read_only_instances(owner) else None
    return None


_TYPEDDICT_BASES = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})
# Qualifiers of a TypedDict key's annotation (the typing spec): whether the key must be
# given, and those that wrap it without a say (``Annotated[NotRequired[int], ...]``).
_REQUIRED_QUALIFIERS = {"Required": True, "NotRequired": False}
_WRAPPING_QUALIFIERS = frozenset({"Annotated", "ReadOnly"})
_TYPING_MODULES = frozenset({"", "typing", "typing_extensions"})


def is_typeddict(cls: griffe.Class) -> bool:
    """Whether ``cls`` is a ``TypedDict`` (its base, or that of a class it derives from in
    the package; the functional form ``TypedDict("T", {...})`` is an attribute, not this)."""
    memo = cls.extra["apisurface"]
    if "is_typeddict" not in memo:
        memo["is_typeddict"] = bool(_base_paths(cls) & _TYPEDDICT_BASES) or any(
            _base_paths(base) & _TYPEDDICT_BASES for base in class_mro(cls)
        )
    return memo["is_typeddict"]  # type: ignore[no-any-return]


def _required(obj: griffe.Object, kind: SymbolKind, annotation: str | None) -> bool | None:
    """:attr:`Symbol.required`: for a key of a TypedDict, whether a dict must have it."""
    owner = obj.parent
    if (
        kind is not SymbolKind.ATTRIBUTE
        or annotation is None
        or not isinstance(obj, griffe.Attribute)
        or obj.annotation is None
        or not isinstance(owner, griffe.Class)
        or not is_typeddict(owner)
    ):
        return None
    qualified = _key_qualifier(obj.annotation)
    if qualified is not None:
        return qualified
    total = owner.keywords.get("total")
    return total is None or safe_str(total) != "False"


def _key_qualifier(annotation: str | griffe.Expr) -> bool | None:
    """True for ``Required[...]``, False for ``NotRequired[...]`` (also inside
    ``Annotated`` or ``ReadOnly``), None when the annotation has neither. Read from the
    annotation as written: its rendered text drops the qualifiers, which are no part of
    the key's type."""
    while isinstance(annotation, griffe.ExprSubscript) and not isinstance(annotation.left, str):
        module, _, name = _canonical(annotation.left).rpartition(".")
        if module not in _TYPING_MODULES:
            return None
        if name in _REQUIRED_QUALIFIERS:
            return _REQUIRED_QUALIFIERS[name]
        if name not in _WRAPPING_QUALIFIERS:
            return None
        inner = annotation.slice
        annotation = inner.elements[0] if isinstance(inner, griffe.ExprTuple) else inner
    return None


_FINAL_DECORATORS = frozenset({"typing.final", "typing_extensions.final"})


def _final(obj: griffe.Object) -> bool:
    """Whether a class or function is marked ``@final`` (``typing.final``)."""
    return isinstance(obj, griffe.Class | griffe.Function) and any(
        safe_str(decorator.callable_path) in _FINAL_DECORATORS for decorator in obj.decorators
    )


_GENERIC_DECLARATIONS = frozenset({"typing.Generic", "typing_extensions.Generic", *PROTOCOL_BASES})
_TYPE_VARIABLES = frozenset({"typing.TypeVar", "typing_extensions.TypeVar"})


def _type_params(cls: griffe.Class) -> tuple[str, ...] | None:
    """:attr:`Symbol.type_params`: the parameters ``Generic[...]`` or ``Protocol[...]``
    declares among the bases of ``cls``."""
    for base in cls.bases:
        if not isinstance(base, griffe.ExprSubscript) or isinstance(base.left, str):
            continue
        if _canonical(base.left) not in _GENERIC_DECLARATIONS:
            continue
        given = base.slice
        items = given.elements if isinstance(given, griffe.ExprTuple) else [given]
        names: list[str] = []
        for item in items:
            if not isinstance(item, griffe.ExprName):
                return None  # *Ts, Unpack[Ts]: any number of arguments
            default = _type_variable_default(cls, item)
            if default is None:
                return None  # a ParamSpec or TypeVarTuple: arguments of another shape
            names.append(item.name + default)
        return tuple(names)
    return None


def _abstract_members(cls: griffe.Class) -> tuple[str, ...] | None:
    """:attr:`Symbol.abstract_members`: the abstract members ``cls`` defines itself."""
    found: list[str] = []
    for name, member in cls.members.items():
        if isinstance(member, griffe.Alias) or "abstractmethod" not in member.labels:
            continue
        labels = member.labels
        kind = next(
            (label for label in ("property", "classmethod", "staticmethod") if label in labels),
            "async" if "async" in labels else "method",
        )
        found.append(f"{name}:{kind}")
    return tuple(sorted(found)) or None


def _canonical(expr: griffe.Expr) -> str:
    try:
        return expr.canonical_path
    except Exception:  # noqa: BLE001 - an expression griffe cannot resolve
        return safe_str(expr)


def _type_variable_default(cls: griffe.Class, name: griffe.ExprName) -> str | None:
    """``=`` for a TypeVar with a default, ``""`` without one, ``?`` when the TypeVar is
    not read (defined outside the package); None for another kind of type variable."""
    try:
        found: object = cls.modules_collection.get_member(_canonical(name))
        if isinstance(found, griffe.Alias):
            found = found.final_target
    except Exception:  # noqa: BLE001 - defined outside the package
        return "?"
    value = getattr(found, "value", None) if isinstance(found, griffe.Attribute) else None
    if not isinstance(value, griffe.ExprCall):
        return "?"
    if _canonical(value.function) not in _TYPE_VARIABLES:
        return None
    keywords = {arg.name for arg in value.arguments if isinstance(arg, griffe.ExprKeyword)}
    return "=" if "default" in keywords else ""


def _abstract_property(obj: griffe.Object) -> bool:
    """``@abc.abstractproperty`` (deprecated since Python 3.3, still a property)."""
    return any(
        safe_str(decorator.callable_path).rpartition(".")[2] == "abstractproperty"
        for decorator in getattr(obj, "decorators", ()) or ()
    )


def _property_call(obj: griffe.Object) -> bool:
    """A class attribute assigned a property: ``value_type = property(lambda self: T)``."""
    value = getattr(obj, "value", None)
    if not isinstance(value, griffe.ExprCall):
        return False
    return safe_str(value.function) in ("property", "builtins.property")


_NAMEDTUPLE_FACTORIES = frozenset({"namedtuple", "collections.namedtuple"})


def namedtuple_call_fields(cls: griffe.Class) -> tuple[str, ...] | None:
    """The fields of a ``collections.namedtuple("N", ["a", "b"])`` (or ``"a b"``, ``"a,b"``)
    the class derives from, when they are literal; None without such a base."""
    for base in cls.bases:
        if not isinstance(base, griffe.ExprCall):
            continue
        if safe_str(base.function) not in _NAMEDTUPLE_FACTORIES or len(base.arguments) < 2:
            continue
        try:
            node = ast.parse(safe_str(base.arguments[1]), mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return tuple(node.value.replace(",", " ").split())
        if isinstance(node, (ast.List, ast.Tuple)) and all(
            isinstance(item, ast.Constant) and isinstance(item.value, str) for item in node.elts
        ):
            return tuple(item.value for item in node.elts)  # type: ignore[attr-defined]
        return None
    return None


def kind_of(obj: griffe.Object, owner: griffe.Class | None) -> SymbolKind | None:
    if obj.is_module:
        return SymbolKind.MODULE
    if obj.is_class:
        return SymbolKind.CLASS
    if obj.is_type_alias:
        return SymbolKind.TYPE_ALIAS
    labels = obj.labels
    if obj.is_function:
        if "property" in labels or "cached_property" in labels or _abstract_property(obj):
            return SymbolKind.PROPERTY
        if owner is None:
            return SymbolKind.FUNCTION
        if "staticmethod" in labels:
            return SymbolKind.STATICMETHOD
        if "classmethod" in labels:
            return SymbolKind.CLASSMETHOD
        return SymbolKind.METHOD
    if obj.is_attribute:
        if "property" in labels or (owner is not None and _property_call(obj)):
            return SymbolKind.PROPERTY
        annotation = getattr(obj, "annotation", None)
        if annotation is not None and safe_str(annotation).endswith("TypeAlias"):
            return SymbolKind.TYPE_ALIAS
        if owner is None and annotation is None and implicit_alias(getattr(obj, "value", None)):
            return SymbolKind.TYPE_ALIAS
        if owner is not None and _is_enum(owner) and annotation is None:
            return SymbolKind.ENUM_MEMBER
        return SymbolKind.ATTRIBUTE
    return None


def _default(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, (griffe.ExprName, griffe.ExprAttribute)):
        constant = _constant_value(value)
        if constant is not None:
            return constant
    text = safe_str(value)
    try:
        return ast.unparse(ast.parse(text, mode="eval"))
    except (SyntaxError, ValueError, RecursionError):
        return text


def _constant_value(name: griffe.ExprName | griffe.ExprAttribute) -> str | None:
    """The value of a constant of the package a default names, when it is made of literals
    (``amt=_CHUNK`` with ``_CHUNK = 2 ** 16`` is the default ``2 ** 16``): renaming or
    introducing the constant does not change the default."""
    if not isinstance(name, griffe.ExprName):
        return None
    target = assigned_value_of(name)
    if target is None:
        return None
    found = literal_text(safe_str(target.value))
    if found is None or not isinstance(target.parent, griffe.Module):
        return found
    # griffe keeps the last binding; the constant is known only when every module-level
    # binding (in any branch of an ``if`` or ``try``) gives it the same value.
    values = module_bindings(target.parent).get(target.name)
    return found if values is None or values == {found} else None


def module_bindings(module: griffe.Module) -> Mapping[str, frozenset[str | None]]:
    """Name -> the values its module-level assignments give it, each as
    :func:`~apisurface.surface.visit.facts.literal_text` (``None`` for a value not made of
    literals), through ``if``/``try``/``with`` blocks, as the visit of its file read them.
    Empty when the module has no source."""
    return facts_of(module).bindings


def _signature(func: griffe.Function, *, drop_first: bool) -> Signature:
    # An inherited method is seen once per subclass: render its signature once.
    memo = func.extra["apisurface"]
    key = "signature_method" if drop_first else "signature"
    if key not in memo:
        memo[key], memo[key + "_inferred"] = _read_signature(func, drop_first=drop_first)
    return memo[key]  # type: ignore[no-any-return]


def _inferred_parts(func: griffe.Function, *, drop_first: bool) -> tuple[str, ...]:
    """The parts of ``func``'s signature read from its body (after :func:`_signature`)."""
    key = "signature_method_inferred" if drop_first else "signature_inferred"
    return func.extra["apisurface"].get(key, ())  # type: ignore[no-any-return]


def _read_signature(
    func: griffe.Function, *, drop_first: bool
) -> tuple[Signature, tuple[str, ...]]:
    """The written signature, completed by what the body says where nothing is written:
    keywords read from ``**kwargs`` and the return type (surface/link/inference.py)."""
    signature = _make_signature(func, drop_first=drop_first)
    through_constants = [
        f"default {item.name}"
        for item in func.parameters
        if isinstance(item.default, griffe.ExprName) and _constant_value(item.default) is not None
    ]
    read = _body_facts(func, signature)
    if read is None:
        return signature, tuple(sorted(through_constants))
    keywords, returns, forwards = read
    inferred = [*through_constants, *(f"parameter {item.name}" for item in keywords)]
    if forwards:
        inferred.append("forwards kwargs")
    parameters = signature.parameters
    if keywords:
        split = len(parameters) - 1  # the **kwargs parameter, always last
        parameters = (*parameters[:split], *keywords, parameters[split])
    if returns is not None:
        inferred.append("returns")
    else:
        returns = signature.returns
    if not inferred:
        return signature, ()
    return Signature(parameters, returns), tuple(sorted(inferred))


def _body_facts(
    func: griffe.Function, signature: Signature
) -> tuple[list[Parameter], str | None, bool] | None:
    """Keywords read from ``**kwargs``, the return type read from the returns, and whether
    the body hands its ``**kwargs`` on to another call (where more may be read), from the
    facts the visit read of the body (:mod:`apisurface.surface.visit.bodies`)."""
    parameters = signature.parameters
    kwargs = (
        parameters[-1].name if parameters and parameters[-1].kind is ParamKind.VAR_KEYWORD else None
    )
    wants_returns = signature.returns is None and func.returns is None
    if kwargs is None and not wants_returns:
        return None
    body = body_of(func)
    if body is None:
        return None
    keywords: list[Parameter] = []
    # The keywords read from the ``**kwargs`` the signature has (the body's, as written).
    reads = kwargs is not None and kwargs == body.kwargs
    forwards = reads and body.forwards
    if reads:
        taken = {item.name for item in func.parameters}
        for item in body.keywords:
            name = item.name
            if name in taken or name.startswith("_") or "experimental" in name.lower():
                continue
            if any(part in taken for part in item.names):
                continue  # the default is another parameter's value: not known here
            keywords.append(
                Parameter(name, ParamKind.KEYWORD_ONLY, default=_default_node(item, func))
            )
    returns = None
    if wants_returns:
        returns = returned_type(body, _scope_resolver(func), _class_resolver(func))
    return keywords, returns, forwards


def _default_node(keyword: Keyword, func: griffe.Function) -> str:
    """A default read from the body, as a signature's default is rendered: literal text,
    or the value of the in-package constant a plain name names."""
    if keyword.plain:
        try:
            target = func.modules_collection.get_member(
                _scope_resolver(func)(keyword.default) or ""
            )
            if isinstance(target, griffe.Alias):
                target = target.final_target
        except Exception:  # noqa: BLE001 - an unresolvable name stays as written
            target = None
        if isinstance(target, griffe.Attribute) and target.value is not None:
            constant = literal_text(safe_str(target.value))
            if constant is not None:
                return constant
    return keyword.default


def _scope_resolver(obj: griffe.Object) -> Callable[[str], str | None]:
    """A dotted name as written where ``obj`` is defined -> its full path (a name its
    module does not bind is the builtin)."""
    scope = obj.parent if obj.parent is not None else obj

    def resolve(written: str) -> str | None:
        head, dot, rest = written.partition(".")
        try:
            full = scope.resolve(head)
        except griffe.NameResolutionError:
            full = head
        except Exception:  # noqa: BLE001 - griffe on odd code: unknown
            return None
        return f"{full}{dot}{rest}"

    return resolve


def _class_resolver(obj: griffe.Object) -> Callable[[str], str | None]:
    """A full path -> that path, when it is a class of the package (its call returns one)."""

    def known(path: str) -> str | None:
        try:
            target: object = obj.modules_collection.get_member(path)
            if isinstance(target, griffe.Alias):
                target = target.final_target
        except Exception:  # noqa: BLE001 - not in the package
            return None
        return target.path if isinstance(target, griffe.Class) else None

    return known


def _make_signature(func: griffe.Function, *, drop_first: bool) -> Signature:
    parameters: list[Parameter] = []
    items = list(func.parameters)
    self_var: str | None = None
    if drop_first and items and items[0].kind.value in ("positional-only", "positional or keyword"):
        self_var = self_type_var(items[0].annotation, func.parent)
        items = items[1:]

    def render(expr: object) -> str | None:
        if expr is None:
            return None
        return render_annotation(expr, func.parent, self_var)

    for item in items:
        if "experimental" in item.name.lower():
            continue
        kind = _PARAM_KINDS[item.kind.value]
        variadic = kind in (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD)
        default = None if variadic else _default(item.default)
        if default is not None and default.lstrip("bB").startswith(("'", '"')):
            # A string default the function converts on use is that conversion's value.
            default = converted_default(default, conversions(func, module_member).get(item.name))
        parameters.append(
            Parameter(
                name=item.name,
                kind=kind,
                default=default,
                annotation=render(item.annotation),
            )
        )
    return Signature(tuple(parameters), render(func.returns) or None)


def _signature_text(signature: Signature) -> str:
    return repr(signature)


def fields_signature(cls: griffe.Class) -> Signature:
    """The constructor a NamedTuple gets from its fields: the annotated class-level names,
    with or without a value. A property (griffe reads ``@property`` as an attribute) or a
    ``ClassVar`` (not an instance attribute) is no field."""
    parameters: list[Parameter] = []
    for name, member in cls.members.items():
        if member.is_alias or not member.is_attribute or name.startswith("_"):
            continue
        if "property" in member.labels or "instance-attribute" not in member.labels:
            continue
        annotation = getattr(member, "annotation", None)
        if annotation is None:
            continue
        value = getattr(member, "value", None)
        parameters.append(
            Parameter(
                name=name,
                kind=ParamKind.POSITIONAL_OR_KEYWORD,
                default=_default(value),
                annotation=render_annotation(annotation, cls),
            )
        )
    return Signature(tuple(parameters), None)


# A decorator called with one callable (``@synonym_of(parse_all)``, ``@wraps(func)``):
# what it returns may be that callable, with its signature, not the function written.
_WRAPPING = re.compile(r"^[\w.]+\([A-Za-z_][\w.]*\)$")


def _value_type(obj: griffe.Attribute) -> str | None:
    """The type of an unannotated value, when its syntax says it (surface/link/inference.py):
    its value is not part of the contract, its type is."""
    if obj.value is None:
        return None
    try:
        node = ast.parse(safe_str(obj.value), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    return value_type(node, _scope_resolver(obj))


def _hash(text: str) -> str:
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]


_SELF = Parameter("self", ParamKind.POSITIONAL_ONLY)
_VALUE = Parameter("value", ParamKind.POSITIONAL_ONLY)
# The members a ``collections.namedtuple(...)`` base gives a declared class (walker.py).
TUPLE_COUNT = Signature((_SELF, _VALUE), "int")
TUPLE_INDEX = Signature(
    (
        _SELF,
        _VALUE,
        Parameter("start", ParamKind.POSITIONAL_ONLY, "0", "SupportsIndex"),
        Parameter("stop", ParamKind.POSITIONAL_ONLY, "sys.maxsize", "SupportsIndex"),
    ),
    "int",
)
"""``tuple.count`` and ``tuple.index`` as typeshed declares them."""


def namedtuple_members(
    cls: griffe.Class,
    path: str,
    members: Mapping[str, griffe.Object | griffe.Alias],
    *,
    all_members: bool,
) -> list[Symbol]:
    """The members a ``collections.namedtuple(...)`` base gives the class at ``path`` that
    it does not define (``members``): its fields (read-only properties), and, for a
    declared class (every public member is public, POLICY.md 2.11: ``all_members``),
    ``count`` and ``index`` of ``tuple``."""
    fields = namedtuple_call_fields(cls)
    names: list[tuple[str, SymbolKind, Signature | None]] = [
        (name, SymbolKind.PROPERTY, None) for name in fields or ()
    ]
    if all_members and (fields is not None or is_namedtuple(cls)):
        names += [
            ("count", SymbolKind.METHOD, TUPLE_COUNT),
            ("index", SymbolKind.METHOD, TUPLE_INDEX),
        ]
    found: list[Symbol] = []
    for name, kind, signature in names:
        if name in members or name.startswith("_"):
            continue
        target = f"{cls.path}.{name}" if signature is None else f"tuple.{name}"
        found.append(Symbol(path=f"{path}.{name}", kind=kind, target=target, signature=signature))
    return found
