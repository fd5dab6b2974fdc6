"""Type annotations: one spelling per type, and whether a change widens or narrows it.

``normalize`` rewrites an annotation (already resolved to full import paths) into a
canonical string so that respellings compare equal: ``List[int]`` = ``list[int]``,
``Optional[X]`` = ``X | None`` = ``Union[X, None]``, union members in any order.
``relate`` says how a new annotation relates to an old one (POLICY.md section 3).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from enum import StrEnum
from functools import lru_cache

__all__ = ["Relation", "normalize", "relate"]

_ALIASES: dict[str, str] = {
    "typing.List": "list",
    "typing.Dict": "dict",
    "typing.Set": "set",
    "typing.FrozenSet": "frozenset",
    "typing.Tuple": "tuple",
    "typing.Type": "type",
    "typing.Text": "str",
    "typing.Deque": "collections.deque",
    "typing.DefaultDict": "collections.defaultdict",
    "typing.OrderedDict": "collections.OrderedDict",
    "typing.Counter": "collections.Counter",
    "typing.ChainMap": "collections.ChainMap",
    "typing.Pattern": "re.Pattern",
    "typing.Match": "re.Match",
    "typing.ContextManager": "contextlib.AbstractContextManager",
    "typing.AsyncContextManager": "contextlib.AbstractAsyncContextManager",
    "typing.AbstractSet": "collections.abc.Set",
    "builtins.object": "object",
    "NoneType": "None",
    "types.NoneType": "None",
}
_ABC_NAMES = [
    "AsyncGenerator",
    "AsyncIterable",
    "AsyncIterator",
    "Awaitable",
    "ByteString",
    "Callable",
    "Collection",
    "Container",
    "Coroutine",
    "Generator",
    "Hashable",
    "ItemsView",
    "Iterable",
    "Iterator",
    "KeysView",
    "Mapping",
    "MappingView",
    "MutableMapping",
    "MutableSequence",
    "MutableSet",
    "Reversible",
    "Sequence",
    "Sized",
    "ValuesView",
]
for _name in _ABC_NAMES:
    _ALIASES[f"typing.{_name}"] = f"collections.abc.{_name}"

_ANY = "typing.Any"
_UNION_NAMES = frozenset({"typing.Union", "Union"})
_OPTIONAL_NAMES = frozenset({"typing.Optional", "Optional"})
_LITERAL_NAMES = frozenset({"typing.Literal", "Literal"})
_ANNOTATED_NAMES = frozenset({"typing.Annotated", "Annotated"})
_QUALIFIER_NAMES = frozenset({"typing.Final", "typing.ClassVar", "typing.Unpack"})


class Relation(StrEnum):
    """How a new annotation relates to the old one, seen as sets of accepted values."""

    EQUAL = "equal"
    WIDER = "wider"
    NARROWER = "narrower"
    INCOMPATIBLE = "incompatible"


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Return the canonical spelling of an annotation; unparsable text is returned as is."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return text.strip()
    try:
        return ast.unparse(_canonical(tree))
    except RecursionError:
        return text.strip()


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def _name_node(dotted: str) -> ast.expr:
    parts = dotted.split(".")
    node: ast.expr = ast.Name(parts[0])
    for part in parts[1:]:
        node = ast.Attribute(node, part)
    return node


def _rename(dotted: str) -> str:
    if dotted.startswith("typing_extensions."):
        dotted = "typing." + dotted.removeprefix("typing_extensions.")
    if dotted.startswith("builtins."):
        dotted = dotted.removeprefix("builtins.")
    return _ALIASES.get(dotted, dotted)


def _members(node: ast.expr) -> list[ast.expr]:
    """The flattened members of a union (a non-union is a union of one)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _members(node.left) + _members(node.right)
    return [node]


def _union(members: list[ast.expr]) -> ast.expr:
    unique: dict[str, ast.expr] = {}
    for member in members:
        for part in _members(member):
            unique.setdefault(ast.unparse(part), part)
    if _ANY in unique:
        return _name_node(_ANY)
    # None last, the rest sorted: the order a reader expects and a stable one.
    keys = sorted(unique, key=lambda key: (key == "None", key))
    result = unique[keys[0]]
    for key in keys[1:]:
        result = ast.BinOp(result, ast.BitOr(), unique[key])
    return result


def _elements(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]


def _canonical(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        # A forward reference: "Foo" means Foo.
        try:
            return _canonical(ast.parse(node.value.strip(), mode="eval").body)
        except SyntaxError:
            return node
    dotted = _dotted(node)
    if dotted is not None:
        return _name_node(_rename(dotted))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([_canonical(member) for member in _members(node)])
    if isinstance(node, ast.Subscript):
        origin = _dotted(node.value)
        origin = _rename(origin) if origin is not None else None
        args = _elements(node.slice)
        if origin in _UNION_NAMES:
            return _union([_canonical(arg) for arg in args])
        if origin in _OPTIONAL_NAMES and len(args) == 1:
            return _union([_canonical(args[0]), ast.Constant(None)])
        if origin in _QUALIFIER_NAMES and len(args) == 1:
            # Final[X], ClassVar[X], Unpack[X]: qualifiers of a declaration, the type is X.
            return _canonical(args[0])
        if origin in _ANNOTATED_NAMES and args:
            # PEP 593: the metadata is for tools (documentation, validation); the type is
            # the first argument.
            return _canonical(args[0])
        if origin in _LITERAL_NAMES:
            literal = sorted({ast.unparse(arg): arg for arg in args}.items())
            return ast.Subscript(_name_node("typing.Literal"), _tuple([arg for _, arg in literal]))
        value = _name_node(origin) if origin is not None else _canonical(node.value)
        canonical_args = [_canonical(arg) for arg in args]
        if origin is not None and all(_is_any(arg) for arg in canonical_args):
            return value  # ``IO[Any]`` is ``IO``, ``tuple[Any, ...]`` is ``tuple``
        return ast.Subscript(value, _tuple(canonical_args))
    if isinstance(node, ast.List):
        return ast.List([_canonical(element) for element in node.elts])
    if isinstance(node, ast.Tuple):
        return ast.Tuple([_canonical(element) for element in node.elts])
    return node


def _is_any(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return True
    if isinstance(node, ast.List):  # Callable[[Any, Any], Any] keeps its arity
        return False
    return _dotted(node) == _ANY


def _tuple(items: list[ast.expr]) -> ast.expr:
    return items[0] if len(items) == 1 else ast.Tuple(items)


# --- relations --------------------------------------------------------------------------

_NUMERIC = {"bool": "int", "int": "float", "float": "complex"}
# Structural supertypes of builtin and abstract collections (one step each).
_SUPERTYPES: dict[str, tuple[str, ...]] = {
    "list": ("collections.abc.MutableSequence",),
    "collections.deque": ("collections.abc.MutableSequence",),
    "tuple": ("collections.abc.Sequence",),
    "str": ("collections.abc.Sequence",),
    "bytes": ("collections.abc.Sequence",),
    "range": ("collections.abc.Sequence",),
    "dict": ("collections.abc.MutableMapping",),
    "collections.defaultdict": ("dict",),
    "collections.OrderedDict": ("dict",),
    "collections.Counter": ("dict",),
    "set": ("collections.abc.MutableSet",),
    "frozenset": ("collections.abc.Set",),
    "collections.abc.MutableSequence": ("collections.abc.Sequence",),
    "collections.abc.Sequence": ("collections.abc.Reversible", "collections.abc.Collection"),
    "collections.abc.MutableMapping": ("collections.abc.Mapping",),
    "collections.abc.Mapping": ("collections.abc.Collection",),
    "collections.abc.MutableSet": ("collections.abc.Set",),
    "collections.abc.Set": ("collections.abc.Collection",),
    "collections.abc.Collection": (
        "collections.abc.Iterable",
        "collections.abc.Container",
        "collections.abc.Sized",
    ),
    "collections.abc.Reversible": ("collections.abc.Iterable",),
    "collections.abc.Iterator": ("collections.abc.Iterable",),
    "collections.abc.Generator": ("collections.abc.Iterator",),
}
# Generic origins whose type arguments may vary covariantly (read-only containers).
_COVARIANT = frozenset(
    {
        "tuple",
        "frozenset",
        "type",
        "collections.abc.Sequence",
        "collections.abc.Collection",
        "collections.abc.Iterable",
        "collections.abc.Iterator",
        "collections.abc.Reversible",
        "collections.abc.Set",
        "collections.abc.Container",
        "collections.abc.Awaitable",
    }
)

BasesOf = Callable[[str], tuple[str, ...]]


def _no_bases(_: str) -> tuple[str, ...]:
    return ()


def relate(old: str, new: str, bases_of: BasesOf = _no_bases) -> Relation:
    """How ``new`` relates to ``old``; both are normalised annotations.

    ``bases_of`` gives the direct bases of a class by its path, so that classes of the
    analysed package take part in the subtype check.
    """
    if normalize(old) == normalize(new):
        return Relation.EQUAL
    try:
        old_node = ast.parse(normalize(old), mode="eval").body
        new_node = ast.parse(normalize(new), mode="eval").body
        if _is_subtype(old_node, new_node, bases_of):
            return Relation.WIDER
        if _is_subtype(new_node, old_node, bases_of):
            return Relation.NARROWER
    except (SyntaxError, RecursionError):
        pass
    return Relation.INCOMPATIBLE


def _split(node: ast.expr) -> tuple[str | None, list[ast.expr] | None]:
    if isinstance(node, ast.Subscript):
        return _dotted(node.value), _elements(node.slice)
    if isinstance(node, ast.Constant) and node.value is None:
        return "None", None
    return _dotted(node), None


def _nominal_subtype(sub: str, sup: str, bases_of: BasesOf, depth: int = 0) -> bool:
    if sub == sup:
        return True
    if depth > 50:
        return False
    parents: tuple[str, ...] = (_NUMERIC[sub],) if sub in _NUMERIC else ()
    parents += _SUPERTYPES.get(sub, ()) + bases_of(sub)
    return any(_nominal_subtype(parent, sup, bases_of, depth + 1) for parent in parents)


def _is_subtype(sub: ast.expr, sup: ast.expr, bases_of: BasesOf) -> bool:
    """Whether every value of ``sub`` is a value of ``sup`` (both canonical)."""
    if ast.unparse(sub) == ast.unparse(sup):
        return True
    sup_members = _members(sup)
    sub_members = _members(sub)
    if len(sub_members) > 1:
        return all(_is_subtype(member, sup, bases_of) for member in sub_members)
    if len(sup_members) > 1:
        return any(_is_subtype(sub, member, bases_of) for member in sup_members)
    sub_origin, sub_args = _split(sub)
    sup_origin, sup_args = _split(sup)
    if sup_origin in (_ANY, "object"):
        return True
    if sub_origin is None or sup_origin is None or sub_origin == _ANY:
        return False
    if sub_origin == "typing.Literal" and sub_args is not None:
        if sup_origin == "typing.Literal" and sup_args is not None:
            return {ast.unparse(a) for a in sub_args} <= {ast.unparse(a) for a in sup_args}
        return all(_literal_type(arg) == sup_origin for arg in sub_args) and sup_args is None
    if not _nominal_subtype(sub_origin, sup_origin, bases_of):
        return False
    if sup_args is None:
        return True
    if sub_args is None or len(sub_args) != len(sup_args):
        return False
    if sub_origin == sup_origin and sup_origin not in _COVARIANT:
        return all(
            ast.unparse(a) == ast.unparse(b) for a, b in zip(sub_args, sup_args, strict=True)
        )
    return all(_is_subtype(a, b, bases_of) for a, b in zip(sub_args, sup_args, strict=True))


def _literal_type(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant):
        return "None" if node.value is None else type(node.value).__name__
    return None
