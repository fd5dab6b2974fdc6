"""Type annotations: whether a change widens or narrows one (POLICY.md section 3).

``relate`` says how a new annotation relates to an old one. Both are first put in one
spelling per type by ``normalize`` (:mod:`apisurface.surface.annotationtext`, where the link
step uses it too; re-exported here for the diff's callers).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from apisurface.surface.annotationtext import (
    ANY,
    dotted_name,
    element_nodes,
    member_nodes,
    normalize,
    union_members,
)

__all__ = ["Relation", "normalize", "relate", "union_members"]

# --- relations --------------------------------------------------------------------------
#
# ``relate`` judges two annotations the way a type checker does: it asks whether each is
# assignable to the other, once with ``Any`` consistent with every type (gradual typing)
# and once with ``Any`` as an opaque type of its own. Assignable both ways only gradually
# means the change only replaced ``Any`` (written, or implied by a bare generic) by a
# precise type, or back: a refinement.

BasesOf = Callable[[str], tuple[str, ...]]


def _no_bases(_: str) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class _Type:
    """A canonical annotation as a small tree.

    ``kind`` is ``name`` (a class, ``args`` its type arguments, None when it has no known
    parameters), ``any``, ``never``, ``union`` (``args`` the members), ``literal`` (``name``
    the class of the value, ``value`` its spelling), ``callable`` (``args`` the parameters,
    None for ``...``; ``ret`` the return type), ``tuple`` (``args`` the items, or None and
    ``ret`` the item type of ``tuple[X, ...]``), ``type`` (``ret`` is X in ``type[X]``) or
    ``opaque`` (anything else, equal only to itself).
    """

    kind: str
    name: str = ""
    args: tuple[_Type, ...] | None = None
    ret: _Type | None = None
    value: str = ""


_ANY_T = _Type("any")
_NEVER_T = _Type("never")
_NEVER_NAMES = frozenset({"typing.Never", "typing.NoReturn"})
_HASHABLE = "collections.abc.Hashable"

# Variance of the type parameters of known generic classes: o covariant, i invariant,
# c contravariant (typeshed's declarations).
_VARIANCE: dict[str, str] = {
    "list": "i",
    "dict": "ii",
    "set": "i",
    "frozenset": "o",
    "tuple": "o",
    "collections.deque": "i",
    "collections.defaultdict": "ii",
    "collections.OrderedDict": "ii",
    "collections.Counter": "i",
    "collections.ChainMap": "ii",
    "collections.abc.Container": "o",
    "collections.abc.Iterable": "o",
    "collections.abc.Iterator": "o",
    "collections.abc.Reversible": "o",
    "collections.abc.Collection": "o",
    "collections.abc.Sequence": "o",
    "collections.abc.MutableSequence": "i",
    "collections.abc.ByteString": "",
    "collections.abc.Set": "o",
    "collections.abc.MutableSet": "i",
    "collections.abc.Mapping": "io",
    "collections.abc.MutableMapping": "ii",
    "collections.abc.KeysView": "o",
    "collections.abc.ValuesView": "o",
    "collections.abc.ItemsView": "oo",
    "collections.abc.Awaitable": "o",
    "collections.abc.Coroutine": "oco",
    "collections.abc.Generator": "oco",
    "collections.abc.AsyncIterable": "o",
    "collections.abc.AsyncIterator": "o",
    "collections.abc.AsyncGenerator": "oc",
    "typing.SupportsAbs": "o",
    "typing.SupportsRound": "o",
    "typing.IO": "i",
    "os.PathLike": "o",
    "re.Pattern": "i",
    "re.Match": "i",
    "contextlib.AbstractContextManager": "oo",
    "contextlib.AbstractAsyncContextManager": "oo",
    "typing.TypeGuard": "o",
    "typing.TypeIs": "i",
}

# Direct supertypes of builtin, abstract and protocol classes, with the type parameters
# (``T``, ``K``, ``V``, ``Y``, ``R``) of the class on the left. Protocols are listed where
# typeshed's builtins satisfy them (``int`` is a ``SupportsIndex``; ``float`` is not).
_SUPERTYPES: dict[str, tuple[str, ...]] = {
    "bool": ("int",),
    "int": (
        "typing.SupportsInt",
        "typing.SupportsFloat",
        "typing.SupportsIndex",
        "typing.SupportsAbs[int]",
        "typing.SupportsRound[int]",
    ),
    "float": (
        "typing.SupportsInt",
        "typing.SupportsFloat",
        "typing.SupportsAbs[float]",
        "typing.SupportsRound[float]",
    ),
    "complex": ("typing.SupportsComplex", "typing.SupportsAbs[float]"),
    "typing.LiteralString": ("str",),
    "str": ("collections.abc.Sequence[str]",),
    "bytes": ("collections.abc.Sequence[int]", "typing.SupportsBytes"),
    "bytearray": ("collections.abc.MutableSequence[int]",),
    "memoryview": ("collections.abc.Sequence[int]",),
    "range": ("collections.abc.Sequence[int]",),
    "tuple": ("collections.abc.Sequence[T]",),
    "list": ("collections.abc.MutableSequence[T]",),
    "collections.deque": ("collections.abc.MutableSequence[T]",),
    "dict": ("collections.abc.MutableMapping[K, V]", "collections.abc.Reversible[K]"),
    "collections.defaultdict": ("dict[K, V]",),
    "collections.OrderedDict": ("dict[K, V]",),
    "collections.Counter": ("dict[T, int]",),
    "collections.ChainMap": ("collections.abc.MutableMapping[K, V]",),
    "set": ("collections.abc.MutableSet[T]",),
    "frozenset": ("collections.abc.Set[T]",),
    "collections.abc.ByteString": ("collections.abc.Sequence[int]",),
    "collections.abc.MutableSequence": ("collections.abc.Sequence[T]",),
    "collections.abc.Sequence": ("collections.abc.Reversible[T]", "collections.abc.Collection[T]"),
    "collections.abc.MutableMapping": ("collections.abc.Mapping[K, V]",),
    "collections.abc.Mapping": ("collections.abc.Collection[K]",),
    "collections.abc.MutableSet": ("collections.abc.Set[T]",),
    "collections.abc.Set": ("collections.abc.Collection[T]",),
    "collections.abc.KeysView": ("collections.abc.MappingView", "collections.abc.Set[T]"),
    "collections.abc.ValuesView": ("collections.abc.MappingView", "collections.abc.Collection[T]"),
    "collections.abc.ItemsView": (
        "collections.abc.MappingView",
        "collections.abc.Set[tuple[K, V]]",
    ),
    "collections.abc.MappingView": ("collections.abc.Sized",),
    "collections.abc.Collection": (
        "collections.abc.Iterable[T]",
        "collections.abc.Container[T]",
        "collections.abc.Sized",
    ),
    "collections.abc.Reversible": ("collections.abc.Iterable[T]",),
    "collections.abc.Iterator": ("collections.abc.Iterable[T]",),
    "collections.abc.Generator": ("collections.abc.Iterator[Y]",),
    "collections.abc.Coroutine": ("collections.abc.Awaitable[R]",),
    "collections.abc.AsyncIterator": ("collections.abc.AsyncIterable[T]",),
    "collections.abc.AsyncGenerator": ("collections.abc.AsyncIterator[Y]",),
    "typing.IO": ("collections.abc.Iterator[T]",),
    "typing.TextIO": ("typing.IO[str]",),
    "typing.BinaryIO": ("typing.IO[bytes]",),
    "pathlib.PurePath": ("os.PathLike[str]", "typing.SupportsBytes"),
    "pathlib.PurePosixPath": ("pathlib.PurePath",),
    "pathlib.PureWindowsPath": ("pathlib.PurePath",),
    "pathlib.Path": ("pathlib.PurePath",),
    "pathlib.PosixPath": ("pathlib.Path", "pathlib.PurePosixPath"),
    "pathlib.WindowsPath": ("pathlib.Path", "pathlib.PureWindowsPath"),
    "datetime.datetime": ("datetime.date",),
    # A type guard is a bool that also narrows its argument: returning one where a bool
    # was returned narrows the return (PEP 647, PEP 742).
    "typing.TypeGuard": ("bool",),
    "typing.TypeIs": ("bool",),
}
# The parameters of the classes above, in order (the letters used in _SUPERTYPES).
_PARAMETERS: dict[str, str] = {
    "collections.abc.Mapping": "KV",
    "collections.abc.MutableMapping": "KV",
    "dict": "KV",
    "collections.defaultdict": "KV",
    "collections.OrderedDict": "KV",
    "collections.ChainMap": "KV",
    "collections.abc.ItemsView": "KV",
    "collections.abc.Generator": "Y..",
    "collections.abc.AsyncGenerator": "Y.",
    "collections.abc.Coroutine": "..R",
}
# Numeric promotions (int is accepted where float or complex is expected). They are not
# subclassing: ``int`` is not a ``SupportsComplex`` although ``complex`` is.
_PROMOTIONS: dict[str, frozenset[str]] = {
    "bool": frozenset({"float", "complex"}),
    "int": frozenset({"float", "complex"}),
    "float": frozenset({"complex"}),
}
# Classes whose instances are not hashable (``__hash__ = None``), and abstract or protocol
# classes a type checker does not see as ``Hashable``; every other class inherits
# ``object.__hash__``.
_UNHASHABLE = frozenset(
    {
        "list",
        "dict",
        "set",
        "bytearray",
        "collections.deque",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.Counter",
        "collections.abc.Container",
        "collections.abc.Collection",
        "collections.abc.Sized",
        "collections.abc.Iterable",
        "collections.abc.Iterator",
        "collections.abc.Reversible",
        "collections.abc.Generator",
        "collections.abc.Awaitable",
        "collections.abc.Coroutine",
        "collections.abc.AsyncIterable",
        "collections.abc.AsyncIterator",
        "collections.abc.AsyncGenerator",
        "typing.SupportsInt",
        "typing.SupportsFloat",
        "typing.SupportsComplex",
        "typing.SupportsIndex",
        "typing.SupportsBytes",
        "typing.SupportsAbs",
        "typing.SupportsRound",
        "os.PathLike",
        "contextlib.AbstractContextManager",
        "contextlib.AbstractAsyncContextManager",
    }
)


class Relation(StrEnum):
    """How a new annotation relates to the old one, seen as sets of accepted values.

    ``REFINED``: the two differ only where one of them has ``Any`` (written, implied by a
    bare generic, or by a missing annotation), so each is assignable to the other.
    """

    EQUAL = "equal"
    WIDER = "wider"
    NARROWER = "narrower"
    INCOMPATIBLE = "incompatible"
    REFINED = "refined"


def relate(old: str, new: str, bases_of: BasesOf = _no_bases) -> Relation:
    """How ``new`` relates to ``old``; both are normalised annotations.

    ``bases_of`` gives the direct bases of a class by its path, so that classes of the
    analysed package take part in the subtype check. It may also name a callable type
    (``collections.abc.Callable[..., R]``) for a class whose instances are callable (a
    protocol with ``__call__`` returning ``R``): instances are then assignable to that
    callable type, as a type checker sees them structurally.
    """
    if normalize(old) == normalize(new):
        return Relation.EQUAL
    try:
        old_type, new_type = _parse(old), _parse(new)
        gradual = _Checker(bases_of, gradual=True)
        wider = gradual.sub(old_type, new_type)
        narrower = gradual.sub(new_type, old_type)
        if wider and narrower:
            strict = _Checker(bases_of, gradual=False)
            if strict.sub(old_type, new_type) and strict.sub(new_type, old_type):
                return Relation.EQUAL  # the same type spelled differently (``int | bool``)
            return Relation.REFINED
        if wider:
            return Relation.WIDER
        if narrower:
            return Relation.NARROWER
    except (SyntaxError, ValueError, RecursionError):
        pass
    return Relation.INCOMPATIBLE


@lru_cache(maxsize=8192)
def _parse(text: str) -> _Type:
    return _convert(ast.parse(normalize(text), mode="eval").body)


def _convert(node: ast.expr) -> _Type:
    if isinstance(node, ast.Constant):
        if node.value is None:
            return _Type("name", "None")
        if node.value is Ellipsis:
            return _ANY_T
        return _Type("opaque", ast.unparse(node))
    dotted = dotted_name(node)
    if dotted is not None:
        return _bare(dotted)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _make_union([_convert(member) for member in member_nodes(node)])
    if isinstance(node, ast.Subscript):
        origin = dotted_name(node.value)
        args = element_nodes(node.slice)
        if origin == "typing.Literal":
            return _make_union([_literal(arg) for arg in args])
        if origin == "collections.abc.Callable" and len(args) == 2:
            params = args[0]
            if isinstance(params, ast.List):
                return _Type(
                    "callable", args=tuple(_convert(p) for p in params.elts), ret=_convert(args[1])
                )
            # ``...``, a ParamSpec or ``Concatenate``: any parameters
            return _Type("callable", ret=_convert(args[1]))
        if origin == "tuple":
            if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
                return _Type("tuple", ret=_convert(args[0]))
            return _Type("tuple", args=tuple(_convert(arg) for arg in args))
        if origin == "type" and len(args) == 1:
            return _Type("type", ret=_convert(args[0]))
        if origin is not None:
            return _Type("name", origin, tuple(_convert(arg) for arg in args))
        if isinstance(node.value, ast.Subscript | ast.BinOp):
            # A generic alias expanded and then given arguments (``Validator[Any]`` with
            # ``Validator = Callable[[Any, Attribute[T], T], Any]``): the alias's type
            # variables were already replaced by their ranges, so the arguments add nothing.
            return _convert(node.value)
    return _Type("opaque", ast.unparse(node))


def _bare(dotted: str) -> _Type:
    """A class named without type arguments: its parameters are ``Any``."""
    if dotted == ANY:
        return _ANY_T
    if dotted in _NEVER_NAMES:
        return _NEVER_T
    if dotted == "tuple":
        return _Type("tuple", ret=_ANY_T)
    if dotted == "collections.abc.Callable":
        return _Type("callable", ret=_ANY_T)
    if dotted == "type":
        return _Type("type", ret=_ANY_T)
    variance = _VARIANCE.get(dotted)
    args = None if variance is None else (_ANY_T,) * len(variance)
    return _Type("name", dotted, args or None)


def _literal(node: ast.expr) -> _Type:
    value = ast.unparse(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        node = node.operand
    if isinstance(node, ast.Constant):
        if node.value is None:
            return _Type("name", "None")
        return _Type("literal", type(node.value).__name__, value=value)
    dotted = dotted_name(node)
    if dotted is not None and "." in dotted:  # an enum member: its class
        return _Type("literal", dotted.rsplit(".", 1)[0], value=value)
    return _Type("opaque", value)


def _make_union(members: list[_Type]) -> _Type:
    flat: dict[_Type, None] = {}
    for member in members:
        for part in member.args or () if member.kind == "union" else (member,):
            flat.setdefault(part)
    parts = tuple(flat)
    return parts[0] if len(parts) == 1 else _Type("union", args=parts)


def _substitute(template: _Type, mapping: dict[str, _Type]) -> _Type:
    if template.kind == "name" and template.args is None and template.name in mapping:
        return mapping[template.name]
    args = None
    if template.args is not None:
        args = tuple(_substitute(arg, mapping) for arg in template.args)
    ret = _substitute(template.ret, mapping) if template.ret is not None else None
    return _Type(template.kind, template.name, args, ret, template.value)


def _tuple_as_class(a: _Type) -> _Type:
    """A tuple type as an instance of the class ``tuple[T]`` (T the union of its items)."""
    if a.kind != "tuple":
        return a
    items = a.args if a.args is not None else (a.ret or _ANY_T,)
    return _Type("name", "tuple", (_make_union(list(items)) if items else _NEVER_T,))


class _Checker:
    """Assignability of canonical types; ``gradual`` makes ``Any`` consistent with all."""

    def __init__(self, bases_of: BasesOf, *, gradual: bool) -> None:
        self.bases_of = bases_of
        self.gradual = gradual

    def sub(self, a: _Type, b: _Type, depth: int = 0) -> bool:
        """Whether a value of type ``a`` may be used where ``b`` is expected."""
        if depth > 40:
            raise RecursionError
        depth += 1
        if a == b or a.kind == "never":
            return True
        if b.kind == "any":
            return self.gradual
        if a.kind == "union":
            return all(self.sub(member, b, depth) for member in a.args or ())
        if b.kind == "union":
            members = b.args or ()
            if a in members or any(self.sub(a, member, depth) for member in members):
                return True
            # ``bool`` is ``Literal[True, False]``
            values = {m.value for m in members if m.kind == "literal" and m.name == "bool"}
            return a == _Type("name", "bool") and values == {"True", "False"}
        if a.kind == "any":
            # strictly, ``Any`` is a type of its own: an object, hashable like any object
            return self.gradual or (b.kind == "name" and b.name in ("object", _HASHABLE))
        if b.kind == "name" and b.name == "object":
            return True
        if a.kind == "opaque" or b.kind in ("opaque", "never"):
            return False
        if a.kind == "literal":
            if b.kind == "literal":
                return False  # not equal (checked above)
            if b.kind == "name" and b.name == "typing.LiteralString" and a.name == "str":
                return True
            return self.sub(_Type("name", a.name), b, depth)
        if b.kind == "literal":
            return False
        if b.kind == "callable":
            return self.sub_callable(a, b, depth)
        if b.kind == "type":
            return a.kind == "type" and self.sub_type_of(a, b, depth)
        if b.kind == "tuple":
            return a.kind == "tuple" and self.sub_tuple(a, b, depth)
        # b is a class
        if b.name == _HASHABLE:
            return self.hashable(a, depth)
        a = _tuple_as_class(a)
        if a.kind != "name":
            return False  # a callable or type[X] is no other class a checker knows of
        if b.name in _PROMOTIONS.get(a.name, ()):
            return True
        seen: set[str] = set()
        found = self.as_instance_of(a, b.name, seen, depth)
        if found is None:
            return False
        return self.sub_args(found, b, depth)

    def sub_args(self, a: _Type, b: _Type, depth: int) -> bool:
        if a.args is None or b.args is None:
            # a class whose parameters are unknown, used bare on one side: ``Any``
            return self.gradual or a.args == b.args
        if len(a.args) != len(b.args):
            return False
        variance = _VARIANCE.get(b.name, "i" * len(b.args))
        for x, y, how in zip(a.args, b.args, variance.ljust(len(b.args), "i"), strict=False):
            if how == "o" and not self.sub(x, y, depth):
                return False
            if how == "c" and not self.sub(y, x, depth):
                return False
            if how == "i" and not (self.sub(x, y, depth) and self.sub(y, x, depth)):
                return False
        return True

    def sub_callable(self, a: _Type, b: _Type, depth: int) -> bool:
        if a.kind == "name":
            # A class whose instances are callable (a protocol with ``__call__``): its
            # ``bases_of`` names ``Callable[..., R]`` (see :func:`relate`).
            return any(
                parent.kind in ("callable", "name") and self.sub(parent, b, depth + 1)
                for parent in self.supertypes(a)
            )
        if a.kind == "type":
            # a class is a callable that returns its instances; its constructor's
            # parameters are unknown here, so only ``Callable[..., R]`` is judged.
            return b.args is None and self.sub(a.ret or _ANY_T, b.ret or _ANY_T, depth)
        if a.kind != "callable":
            return False
        if not self.sub(a.ret or _ANY_T, b.ret or _ANY_T, depth):
            return False
        if a.args is None or b.args is None:
            return self.gradual or a.args == b.args
        if len(a.args) != len(b.args):
            return False
        # parameters are contravariant
        return all(self.sub(y, x, depth) for x, y in zip(a.args, b.args, strict=True))

    def sub_type_of(self, a: _Type, b: _Type, depth: int) -> bool:
        return self.sub(a.ret or _ANY_T, b.ret or _ANY_T, depth)

    def sub_tuple(self, a: _Type, b: _Type, depth: int) -> bool:
        if b.args is None:
            b_item = b.ret or _ANY_T
            items = a.args if a.args is not None else (a.ret or _ANY_T,)
            return all(self.sub(item, b_item, depth) for item in items)
        if a.args is None:
            # ``tuple[int, ...]`` may have any length; ``tuple[Any, ...]`` is consistent
            # with every tuple
            return self.gradual and (a.ret or _ANY_T).kind == "any"
        return len(a.args) == len(b.args) and all(
            self.sub(x, y, depth) for x, y in zip(a.args, b.args, strict=True)
        )

    def hashable(self, a: _Type, depth: int) -> bool:
        if a.kind in ("literal", "tuple", "callable"):
            return True
        if a.kind != "name":
            return False  # ``type[X]``: not seen as Hashable by mypy
        if a.name in _UNHASHABLE:
            return False
        if a.name in _SUPERTYPES or a.name in _VARIANCE or a.name == "None":
            return True
        # a class of the package: hashable unless it derives from an unhashable class
        if depth > 40:
            raise RecursionError
        parents = [_parse(base) for base in self.bases_of(a.name)]
        return all(self.hashable(p, depth + 1) for p in parents if p.kind == "name")

    def supertypes(self, a: _Type) -> list[_Type]:
        found: list[_Type] = []
        templates = _SUPERTYPES.get(a.name)
        if templates is not None:
            letters = _PARAMETERS.get(a.name, "T")
            args = a.args or ()
            mapping = {
                letter: args[index] if index < len(args) else _ANY_T
                for index, letter in enumerate(letters)
                if letter != "."
            }
            found = [_substitute(_parse(template), mapping) for template in templates]
        for base in self.bases_of(a.name):
            try:
                found.append(_parse(base))
            except (SyntaxError, ValueError, RecursionError):
                continue
        return found

    def as_instance_of(self, a: _Type, target: str, seen: set[str], depth: int) -> _Type | None:
        """``a`` seen as an instance of the class ``target`` (with its type arguments)."""
        if depth > 40:
            raise RecursionError
        if a.name == target:
            return a
        if a.name in seen:
            return None
        seen.add(a.name)
        for parent in map(_tuple_as_class, self.supertypes(a)):
            if parent.kind != "name":
                continue
            found = self.as_instance_of(parent, target, seen, depth + 1)
            if found is not None:
                return found
        return None
