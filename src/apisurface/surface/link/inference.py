"""Types and keywords read from code where nothing is written (POLICY.md section 3: every
change resting on them is *inferred* evidence).

- The type of an unannotated value: a literal (``[...]`` is a ``list``), a comprehension,
  an f-string, or a call of a builtin or standard-library constructor (``frozenset(...)``,
  ``re.compile(...)``, ``collections.OrderedDict(...)``).
- The return type of an unannotated function whose every ``return`` (in its own scope) is
  such a value, ``None``, or a call of a class the package defines: the union of them. A
  function that only ever returns ``None`` (a procedure) or yields gets no type: callers
  of a procedure do not use its result.
- The keywords a function reads from its own ``**kwargs``: ``kwargs.pop("repeat", True)``
  and ``kwargs.get("repeat", True)`` in its own body make ``repeat`` a keyword parameter
  with the default ``True`` as far as callers are concerned.

Everything here reads one function's or one value's own syntax; nothing follows calls.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from apisurface.surface.link.synonyms import scope_nodes

__all__ = [
    "CONSTRUCTORS",
    "body_keywords",
    "constructor_type",
    "forwards_keywords",
    "returned_type",
    "value_type",
]

# Full path of a callable -> the type its call returns, as an annotation spells it.
CONSTRUCTORS: dict[str, str] = {
    **{
        name: name
        for name in (
            "list",
            "tuple",
            "set",
            "frozenset",
            "dict",
            "str",
            "bytes",
            "bytearray",
            "int",
            "float",
            "complex",
            "bool",
        )
    },
    "re.compile": "re.Pattern",
    **{
        f"collections.{name}": f"collections.{name}"
        for name in ("OrderedDict", "defaultdict", "deque", "Counter", "ChainMap")
    },
    "types.MappingProxyType": "types.MappingProxyType",
    "types.SimpleNamespace": "types.SimpleNamespace",
    "decimal.Decimal": "decimal.Decimal",
    "fractions.Fraction": "fractions.Fraction",
    **{
        f"pathlib.{name}": f"pathlib.{name}"
        for name in ("Path", "PurePath", "PosixPath", "PurePosixPath", "WindowsPath")
    },
}

_LITERALS: dict[type[ast.AST], str] = {
    ast.List: "list",
    ast.ListComp: "list",
    ast.Tuple: "tuple",
    ast.Set: "set",
    ast.SetComp: "set",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.JoinedStr: "str",
}

Resolver = Callable[[str], str | None]
"""A dotted name as written (``re.compile``) -> its full path (``None``: unknown)."""


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head is not None else None
    return None


def constructor_type(path: str) -> str | None:
    """The type a call of the callable at ``path`` returns, for the constructors known."""
    return CONSTRUCTORS.get(path)


def value_type(node: ast.expr, resolve: Resolver, classes: Resolver | None = None) -> str | None:
    """The type of the value ``node`` computes, when its syntax alone says it (``None`` for
    the constant ``None``: the unannotated ``x = None`` idiom says nothing)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        node = node.operand
    if isinstance(node, ast.Constant):
        return "None" if node.value is None else type(node.value).__name__
    found = _LITERALS.get(type(node))
    if found is not None:
        return found
    if isinstance(node, ast.Call):
        written = _dotted(node.func)
        path = resolve(written) if written is not None else None
        if path is None:
            return None
        known = constructor_type(path)
        if known is None and classes is not None:
            known = classes(path)
        return known
    return None


def returned_type(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    resolve: Resolver,
    classes: Resolver,
    scope: list[ast.AST] | None = None,
) -> str | None:
    """The union of the types a function's ``return`` statements give, when every one of
    them gives a known type and at least one is not ``None`` (see the module docstring)."""
    types: list[str] = []
    for item in scope_nodes(node) if scope is None else scope:
        if isinstance(item, (ast.Yield, ast.YieldFrom)):
            return None
        if not isinstance(item, ast.Return):
            continue
        if item.value is None:
            found: str | None = "None"
        else:
            found = value_type(item.value, resolve, classes)
        if found is None:
            return None
        if found not in types:
            types.append(found)
    if not types or types == ["None"]:
        return None
    if _falls_off_end(node.body) and "None" not in types:
        types.append("None")
    return " | ".join(types)


def _falls_off_end(body: list[ast.stmt]) -> bool:
    """Whether control can reach the end of ``body`` (a function then returns ``None``)."""
    if not body:
        return True
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.If):
        return _falls_off_end(last.body) or _falls_off_end(last.orelse)
    if isinstance(last, ast.Try):
        if last.finalbody and not _falls_off_end(last.finalbody):
            return False
        ends = [last.orelse or last.body, *(handler.body for handler in last.handlers)]
        return any(_falls_off_end(part) for part in ends)
    if isinstance(last, ast.With | ast.AsyncWith):
        return _falls_off_end(last.body)
    if isinstance(last, ast.While):
        test = last.test
        return not (isinstance(test, ast.Constant) and test.value is True)
    return True


def body_keywords(
    node: ast.FunctionDef | ast.AsyncFunctionDef, kwargs: str, scope: list[ast.AST] | None = None
) -> dict[str, ast.expr]:
    """The keywords a function reads from its ``**kwargs`` (named ``kwargs``) with a
    default, in its own scope: name -> the default expression, first read first."""
    found: dict[str, ast.expr] = {}
    calls = [
        item
        for item in (scope_nodes(node) if scope is None else scope)
        if isinstance(item, ast.Call)
    ]
    for item in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):
        function = item.func
        if not (
            isinstance(function, ast.Attribute)
            and function.attr in ("pop", "get")
            and isinstance(function.value, ast.Name)
            and function.value.id == kwargs
            and len(item.args) == 2
            and not item.keywords
        ):
            continue
        key = item.args[0]
        if (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and key.value.isidentifier()
        ):
            found.setdefault(key.value, item.args[1])
    return found


def forwards_keywords(
    node: ast.FunctionDef | ast.AsyncFunctionDef, kwargs: str, scope: list[ast.AST] | None = None
) -> bool:
    """Whether the function passes its ``**kwargs`` (named ``kwargs``) on to a call in its
    own scope (``super().__init__(**kwargs)``): the callee may read more keywords."""
    return any(
        isinstance(item, ast.Call)
        and any(
            keyword.arg is None
            and isinstance(keyword.value, ast.Name)
            and keyword.value.id == kwargs
            for keyword in item.keywords
        )
        for item in (scope_nodes(node) if scope is None else scope)
    )
