"""``__all__`` built with its list methods, as the typing spec's library-interface rules read
it (the forms pyright's ``--verifytypes`` accepts, POLICY.md 2.6 and 2.8).

griffe reads ``__all__ = [...]`` and ``__all__ += [...]`` but not the statements that grow or
shrink the list in place: ``__all__.extend([...])``, ``__all__.extend(core.__all__)`` (numpy's
and scipy's front doors), ``__all__.append("x")`` and ``__all__.remove("x")``. Without them a
name those statements export is not exported (and, undocumented, not public at all), so
dropping it is a missed break. This griffe extension replays, once a module is visited, every
module-level statement that sets or changes ``__all__``, in the order of the source (the
branches of ``if`` and ``try`` blocks too, as griffe reads assignments there), and leaves the
result as the module's export list.

What a static reader cannot follow (an argument that is not a literal list of strings or
another module's ``__all__``, ``remove`` of a name that only another module's list may hold,
``insert``, ``pop``, ``clear``) makes ``__all__`` computed: the statement becomes the value
of the ``__all__`` attribute, so the link reports it as computed at run time, as it does for
an ``__all__`` assigned a comprehension.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

import griffe

__all__ = ["TABLE_MARK", "ListMethodExports", "expand_tables"]

TABLE_MARK = "\x00table "
"""Stands in an export list for the names of a table another module defines, by the name
it is imported under (``"\x00table LEXERS"``), until :func:`expand_tables` reads it."""

_HARMLESS = frozenset({"sort", "reverse", "copy", "count", "index"})
"""Methods that leave the set of names as it was."""

_Exports = list[str | griffe.ExprName]


class ListMethodExports(griffe.Extension):
    """Applies ``__all__.extend``, ``.append`` and ``.remove`` to the module's export list."""

    def on_module_members(self, *, node: Any, mod: Any, agent: Any, **kwargs: Any) -> None:
        if not isinstance(node, ast.Module) or not isinstance(mod, griffe.Module):
            return
        statements = list(_statements(node.body))
        if not statements or all(_plain(statement) for statement in statements):
            return  # griffe read every form this module uses
        tables = _Tables(node.body)
        exports: _Exports | None = None
        for statement in statements:
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                exports = _listed(statement.value, mod, tables.before(statement))
            elif exports is None:
                continue  # changing a list never assigned here: not ours to read
            elif isinstance(statement, ast.AugAssign):
                added = (
                    _listed(statement.value, mod, tables.before(statement))
                    if isinstance(statement.op, ast.Add)
                    else None
                )
                exports = None if added is None else exports + added
            else:
                exports = _called(statement, exports, mod, tables.before(statement))
            if exports is None:
                _computed(mod, statement)
                return
        if exports is not None:
            mod.exports = exports
            _evaluated(mod, exports)


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module-level statements that set or change ``__all__``, in source order (also
    inside ``if``, ``try`` and ``with`` blocks, never inside a function or class)."""
    for statement in body:
        if isinstance(statement, ast.If):
            yield from _statements(statement.body)
            yield from _statements(statement.orelse)
        elif isinstance(statement, ast.Try):
            yield from _statements(statement.body)
            for handler in statement.handlers:
                yield from _statements(handler.body)
            yield from _statements(statement.orelse)
            yield from _statements(statement.finalbody)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from _statements(statement.body)
        elif _sets(statement) or _changes_in_place(statement):
            yield statement


def _is_all(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "__all__"


def _sets(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Assign):
        return len(statement.targets) == 1 and _is_all(statement.targets[0])
    if isinstance(statement, ast.AnnAssign):
        return _is_all(statement.target) and statement.value is not None
    return False


def _changes_in_place(statement: ast.stmt) -> bool:
    """``__all__ += ...`` or a method called on ``__all__`` as a statement."""
    if isinstance(statement, ast.AugAssign):
        return _is_all(statement.target)
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Attribute)
        and _is_all(statement.value.func.value)
    )


def _plain(statement: ast.stmt) -> bool:
    """An assignment of a literal list griffe reads itself (strings, other modules'
    ``__all__``, ``+``)."""
    if not _sets(statement):
        return False
    value = statement.value  # type: ignore[attr-defined]
    return value is not None and all(isinstance(node, _GRIFFE_READS) for node in ast.walk(value))


_GRIFFE_READS = (ast.List, ast.Tuple, ast.Set, ast.BinOp, ast.Add, ast.Attribute, ast.Load)
_COPIES = frozenset({"list", "tuple", "sorted", "set", "frozenset"})
_MAX_NESTING = 50


class _Tables:
    """The module-level assignments of a module by name, in source order: the literal
    tables an ``__all__`` may be built from (``list(_MAPPING)``)."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.bindings: dict[str, list[tuple[int, ast.expr]]] = {}
        for statement in _assignments(body):
            target = statement.targets[0] if isinstance(statement, ast.Assign) else None
            if isinstance(target, ast.Name) and target.id != "__all__":
                self.bindings.setdefault(target.id, []).append((statement.lineno, statement.value))

    def before(self, statement: ast.stmt) -> dict[str, ast.expr]:
        """Each name's value as bound last before ``statement``."""
        found: dict[str, ast.expr] = {}
        for name, values in self.bindings.items():
            earlier = [value for line, value in values if line < statement.lineno]
            if earlier:
                found[name] = earlier[-1]
        return found


def _assignments(body: list[ast.stmt]) -> Iterator[ast.Assign]:
    for statement in body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            yield statement
        for part in ("body", "orelse", "finalbody"):
            if isinstance(statement, (ast.If, ast.Try, ast.With)):
                yield from _assignments(getattr(statement, part, []))
        for handler in getattr(statement, "handlers", []):
            yield from _assignments(handler.body)


def _listed(
    value: ast.expr | None, mod: griffe.Module, tables: dict[str, ast.expr]
) -> _Exports | None:
    """The names a list expression holds: strings, the keys of literal tables (also read
    through ``list()``, ``sorted()``, ``.keys()`` and the module's own names bound to
    them), and other modules' ``__all__`` as names expanded later; None when it is not
    something a static reader can list."""
    if value is None:
        return None
    try:
        return _names(value, mod, tables, 0)
    except (_Unlisted, RecursionError):
        return None


class _Unlisted(Exception):
    """A part of the expression a static reader cannot list."""


def _names(node: ast.expr, mod: griffe.Module, tables: dict[str, ast.expr], depth: int) -> _Exports:
    if depth > _MAX_NESTING:
        raise _Unlisted
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [name for item in node.elts for name in _names(item, mod, tables, depth + 1)]
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise _Unlisted  # ``{**other}``
        return [name for key in node.keys if key for name in _names(key, mod, tables, depth + 1)]
    if isinstance(node, ast.Starred):
        return _names(node.value, mod, tables, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.BitOr)):
        left = _names(node.left, mod, tables, depth + 1)
        return left + _names(node.right, mod, tables, depth + 1)
    if isinstance(node, ast.Name) and node.id in tables:
        return _names(tables[node.id], mod, tables, depth + 1)
    if isinstance(node, ast.Name) and isinstance(mod.members.get(node.id), griffe.Alias):
        # A table imported from another module (pygments: ``list(LEXERS)``): read once
        # every module is known (:func:`expand_tables`).
        return [TABLE_MARK + node.id]
    if isinstance(node, ast.Call):
        return _copied(node, mod, tables, depth)
    if isinstance(node, (ast.Name, ast.Attribute)):
        # Another module's ``__all__``, as griffe reads it (expanded once every module is known).
        found = griffe.get__all__(
            ast.Assign(targets=[ast.Name("__all__", ast.Store())], value=node), mod
        )
        if all(isinstance(item, str | griffe.ExprName) for item in found):
            return list(found)
    raise _Unlisted


def _copied(
    call: ast.Call, mod: griffe.Module, tables: dict[str, ast.expr], depth: int
) -> _Exports:
    """``list(X)``, ``tuple(X)``, ``sorted(X)``, ``set(X)``, ``frozenset(X)``, ``X.keys()``:
    the names of ``X``."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in _COPIES and len(call.args) == 1:
        if func.id != "sorted" and call.keywords:
            raise _Unlisted
        return _names(call.args[0], mod, tables, depth + 1)
    if isinstance(func, ast.Attribute) and func.attr == "keys" and not call.args:
        return _names(func.value, mod, tables, depth + 1)
    raise _Unlisted


def _evaluated(mod: griffe.Module, exports: _Exports) -> None:
    """Mark ``__all__`` as read: its value becomes the list it holds (the link reads its
    value to tell a static list from a computed one)."""
    member = mod.members.get("__all__")
    if isinstance(member, griffe.Attribute):
        items = [
            ast.Constant(item) if isinstance(item, str) else _spelled(item) for item in exports
        ]
        member.value = ast.unparse(ast.List(items, ast.Load()))


def _spelled(name: griffe.ExprName) -> ast.expr:
    """``base.__all__`` for griffe's name of it (each name's parent is the one before)."""
    parts: list[str] = []
    current: object = name
    while isinstance(current, griffe.ExprName):
        parts.append(current.name)
        current = current.parent
    return ast.parse(".".join(reversed(parts)), mode="eval").body


def _called(
    statement: ast.stmt, exports: _Exports, mod: griffe.Module, tables: dict[str, ast.expr]
) -> _Exports | None:
    """``exports`` after the method call ``statement`` (an ``__all__.NAME(...)`` statement);
    None when the call cannot be followed statically."""
    assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
    call = statement.value
    assert isinstance(call.func, ast.Attribute)
    method = call.func.attr
    if method in _HARMLESS:
        return exports
    if call.keywords or len(call.args) != 1 or isinstance(call.args[0], ast.Starred):
        return None
    (argument,) = call.args
    if method == "extend":
        added = _listed(argument, mod, tables)
        return None if added is None else exports + added
    name = argument.value if isinstance(argument, ast.Constant) else None
    if not isinstance(name, str):
        return None
    if method == "append":
        return [*exports, name]
    if method == "remove" and name in exports:
        position = exports.index(name)
        return exports[:position] + exports[position + 1 :]
    # ``remove`` of a name only another module's list may hold, or another method.
    return None


def _computed(mod: griffe.Module, statement: ast.stmt) -> None:
    """Mark ``__all__`` as computed by code: the statement becomes its value."""
    member = mod.members.get("__all__")
    if isinstance(member, griffe.Attribute):
        member.value = ast.unparse(statement)


def expand_tables(module: griffe.Module) -> list[str]:
    """Replace in ``module``'s export list each imported table (:data:`TABLE_MARK`) by the
    names it holds: the keys of the literal dict, or the strings of the literal list,
    tuple or set, the imported name stands for. The tables that cannot be read so (not a
    literal, or in another distribution) are left out and returned, as written."""
    try:
        exports = module.exports
    except Exception:  # noqa: BLE001 - a dynamic __all__: reported by the link
        return []
    if not exports or not any(
        isinstance(item, str) and item.startswith(TABLE_MARK) for item in exports
    ):
        return []
    expanded: list[str | griffe.ExprName] = []
    unread: list[str] = []
    for item in exports:
        if not (isinstance(item, str) and item.startswith(TABLE_MARK)):
            expanded.append(item)
            continue
        name = item.removeprefix(TABLE_MARK)
        found = _table_names(module, name)
        if found is None:
            unread.append(name)
        else:
            expanded.extend(found)
    module.exports = expanded
    return unread


def _table_names(module: griffe.Module, name: str) -> list[str] | None:
    member = module.members.get(name)
    try:
        target = member.final_target if isinstance(member, griffe.Alias) else member
    except Exception:  # noqa: BLE001 - another distribution's, or not defined statically
        return None
    value = getattr(target, "value", None) if isinstance(target, griffe.Attribute) else None
    if value is None:
        return None
    try:
        node = ast.parse(str(value), mode="eval").body
        return [item for item in _names(node, module, {}, 0) if isinstance(item, str)]
    except (SyntaxError, ValueError, RecursionError, _Unlisted):
        return None
