"""Names a module serves lazily, read from its literal tables (POLICY.md 2.8).

A lazy-import package binds its API names at run time, on first access, from a table
written in its source; type checkers see the same names bound under ``if TYPE_CHECKING:``.
Read statically, with ``ast`` (nothing is imported or run):

- a module-level call given ``globals()``, or whose result is assigned to ``__getattr__``
  (websockets' ``lazy_import(globals(), aliases={"connect": ".asyncio.client"})``,
  lazy_loader's ``__getattr__, __dir__, __all__ = lazy.attach(__name__,
  submod_attrs={"filters": ["gaussian"]})``): the string keys of a literal dict mapping
  names to modules, the strings of a dict mapping modules to lists of names, and the
  strings of a literal list, tuple or set;
- a module ``__getattr__`` that tests or looks up its argument in a module-level literal
  table (``name in _LAZY``, ``_LAZY[name]``, ``_LAZY.get(name)``): the table's keys.

Each name comes with the module it is served from when the table says (``.asyncio.client``,
relative dots kept), and whether the table is a deprecated one (a keyword argument whose
name says ``deprecat``: ``deprecated_aliases={...}``).
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from dataclasses import dataclass

from apisurface.surface.visit.declared import module_statements

__all__ = ["MAX_SERVED", "Served", "served_names"]

MAX_SERVED = 10_000
"""The most names one module's tables give (more are not read; real packages: a few hundred)."""

_BUILTINS = frozenset(dir(builtins))
"""Never a name served lazily: a table value that names one is no binding of the module."""
_MODULE_PATH = re.compile(r"^\.*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$|^\.+$")


@dataclass(frozen=True, slots=True)
class Served:
    """One name a module serves lazily."""

    source: str | None
    """The module it is served from, as written (``.client``), when the table says."""
    lineno: int
    deprecated: bool


def served_names(text: str, tree: ast.Module) -> dict[str, Served]:
    """The names ``tree`` (the module's ``text`` parsed) serves lazily, by name."""
    if "globals()" not in text and "__getattr__" not in text:
        return {}
    statements = list(module_statements(tree.body))
    constants = _constants(statements)
    found: dict[str, Served] = {}
    for node in statements:
        call = _lazy_call(node)
        if call is not None:
            for keyword, value in _arguments(call):
                deprecated = keyword is not None and "deprecat" in keyword.lower()
                for name, source in _table_names(value, constants, nested=True):
                    found.setdefault(name, Served(source, node.lineno, deprecated))
        elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            for name, source in _getattr_tables(node, constants):
                found.setdefault(name, Served(source, node.lineno, deprecated=False))
        if len(found) >= MAX_SERVED:
            break
    return {
        name: served
        for name, served in found.items()
        if name.isidentifier() and name not in _BUILTINS
    }


def _constants(statements: list[ast.stmt]) -> dict[str, ast.expr]:
    found: dict[str, ast.expr] = {}
    for node in statements:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                found[target.id] = node.value
        elif (
            isinstance(node, ast.AnnAssign)
            and node.value is not None
            and isinstance(node.target, ast.Name)
        ):
            found[node.target.id] = node.value
    return found


def _lazy_call(node: ast.stmt) -> ast.Call | None:
    """The call of a lazy loader: given ``globals()``, or assigned to ``__getattr__``."""
    value: ast.expr | None = None
    assigned_getattr = False
    if isinstance(node, ast.Expr):
        value = node.value
    elif isinstance(node, ast.Assign):
        value = node.value
        for target in node.targets:
            names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            assigned_getattr |= any(
                isinstance(item, ast.Name) and item.id == "__getattr__" for item in names
            )
    if not isinstance(value, ast.Call):
        return None
    if assigned_getattr or any(_is_globals(argument) for argument in value.args):
        return value
    if any(_is_globals(keyword.value) for keyword in value.keywords):
        return value
    return None


def _is_globals(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("globals", "vars")
        and not node.args
    )


def _arguments(call: ast.Call) -> Iterator[tuple[str | None, ast.expr]]:
    for argument in call.args:
        yield None, argument
    for keyword in call.keywords:
        yield keyword.arg, keyword.value


def _table_names(
    node: ast.expr, constants: dict[str, ast.expr], *, nested: bool = False
) -> Iterator[tuple[str, str | None]]:
    """The names a literal table gives, each with the module it names (or None); with
    ``nested`` (a lazy loader's call), a dict of modules to lists of names (lazy_loader's
    ``submod_attrs``) gives those names."""
    if isinstance(node, ast.Name) and node.id in constants:
        node = constants[node.id]
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                source = value.value if _MODULE_PATH.match(value.value) else None
                yield key.value, source
            elif nested and isinstance(value, (ast.List, ast.Tuple, ast.Set)) and _strings(value):
                # lazy_loader's submod_attrs: a submodule -> the names it gives
                module = key.value if _MODULE_PATH.match(key.value) else None
                source = None if module is None else "." + module.lstrip(".")
                for item in value.elts:
                    yield str(item.value), source  # type: ignore[attr-defined]
            else:
                yield key.value, None  # a name served from a table of other values
    elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        for item in node.elts:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                yield item.value, None


def _strings(node: ast.List | ast.Tuple | ast.Set) -> bool:
    """Whether every item of a literal sequence is a string."""
    return all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in node.elts)


def _getattr_tables(
    function: ast.FunctionDef, constants: dict[str, ast.expr]
) -> Iterator[tuple[str, str | None]]:
    """The keys of the module-level literal tables ``__getattr__(name)`` tests or looks
    its argument up in."""
    params = [*function.args.posonlyargs, *function.args.args]
    if not params:
        return
    param = params[0].arg
    tables: list[str] = []
    for node in ast.walk(function):
        table = _table_of(node, param)
        if table is not None and table in constants and table not in tables:
            tables.append(table)
    for table in tables:
        yield from _table_names(constants[table], constants)


def _table_of(node: ast.AST, param: str) -> str | None:
    """``param in TABLE``, ``TABLE[param]``, ``TABLE.get(param)``: the table's name."""
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.In)
        and _is_name(node.left, param)
    ):
        right = node.comparators[0]
        if isinstance(right, ast.Call) and isinstance(right.func, ast.Attribute):
            right = right.func.value  # ``TABLE.keys()``
        return right.id if isinstance(right, ast.Name) else None
    if isinstance(node, ast.Subscript) and _is_name(node.slice, param):
        return node.value.id if isinstance(node.value, ast.Name) else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("get", "pop")
        and node.args
        and _is_name(node.args[0], param)
        and isinstance(node.func.value, ast.Name)
    ):
        return node.func.value.id
    return None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
