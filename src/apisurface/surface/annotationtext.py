"""Annotation text: one spelling per type (owned here, used by the link step and the diff).

``normalize`` rewrites an annotation (already resolved to full import paths) into a
canonical string so that respellings compare equal: ``List[int]`` = ``list[int]``,
``Optional[X]`` = ``X | None`` = ``Union[X, None]``, union members in any order. The link
step (:mod:`apisurface.surface.link.walker`) stores annotations in this spelling; the diff
(:mod:`apisurface.compare.annotations`) relates two of them. Pure text functions: no
griffe, so comparing stored surfaces never imports it.
"""

from __future__ import annotations

import ast
from functools import lru_cache

__all__ = [
    "ANY",
    "dotted_name",
    "element_nodes",
    "final_name",
    "member_nodes",
    "normalize",
    "union_members",
]

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

ANY = "typing.Any"
_UNION_NAMES = frozenset({"typing.Union", "Union"})
_OPTIONAL_NAMES = frozenset({"typing.Optional", "Optional"})
_LITERAL_NAMES = frozenset({"typing.Literal", "Literal"})
_ANNOTATED_NAMES = frozenset({"typing.Annotated", "Annotated"})
_QUALIFIER_NAMES = frozenset(
    {
        "typing.Final",
        "typing.ClassVar",
        "typing.Unpack",
        "typing.Required",
        "typing.NotRequired",
        "typing.ReadOnly",
    }
)


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


def dotted_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def final_name(node: ast.expr) -> str | None:
    """The last name of a name or attribute (``warnings.warn`` -> ``warn``); None for any
    other expression."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
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


def member_nodes(node: ast.expr) -> list[ast.expr]:
    """The flattened members of a union (a non-union is a union of one)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return member_nodes(node.left) + member_nodes(node.right)
    return [node]


def union_members(text: str) -> list[str]:
    """The members of a union annotation, normalised (one member for a non-union)."""
    canonical = normalize(text)
    try:
        tree = ast.parse(canonical, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return [canonical]
    return [ast.unparse(member) for member in member_nodes(tree)]


def _union(members: list[ast.expr]) -> ast.expr:
    unique: dict[str, ast.expr] = {}
    for member in members:
        for part in member_nodes(member):
            unique.setdefault(ast.unparse(part), part)
    # None last, the rest sorted: the order a reader expects and a stable one.
    keys = sorted(unique, key=lambda key: (key == "None", key))
    result = unique[keys[0]]
    for key in keys[1:]:
        result = ast.BinOp(result, ast.BitOr(), unique[key])
    return result


def element_nodes(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple) else [node]


def _canonical(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        # A forward reference: "Foo" means Foo.
        try:
            return _canonical(ast.parse(node.value.strip(), mode="eval").body)
        except SyntaxError:
            return node
    dotted = dotted_name(node)
    if dotted is not None:
        return _name_node(_rename(dotted))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union([_canonical(member) for member in member_nodes(node)])
    if isinstance(node, ast.Subscript):
        origin = dotted_name(node.value)
        origin = _rename(origin) if origin is not None else None
        args = element_nodes(node.slice)
        if origin in _UNION_NAMES:
            return _union([_canonical(arg) for arg in args])
        if origin in _OPTIONAL_NAMES and len(args) == 1:
            return _union([_canonical(args[0]), ast.Constant(None)])
        if origin in _QUALIFIER_NAMES and len(args) == 1:
            # Final[X], ClassVar[X], Unpack[X], and a TypedDict key's Required[X],
            # NotRequired[X], ReadOnly[X]: qualifiers of a declaration, the type is X.
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
        if origin is not None and canonical_args and all(_is_any(a) for a in canonical_args):
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
    return dotted_name(node) == ANY


def _tuple(items: list[ast.expr]) -> ast.expr:
    return items[0] if len(items) == 1 else ast.Tuple(items)  # ``tuple[()]``: empty
