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

__all__ = ["ListMethodExports"]

_HARMLESS = frozenset({"sort", "reverse", "copy", "count", "index"})
"""Methods that leave the set of names as it was."""

_Exports = list[str | griffe.ExprName]


class ListMethodExports(griffe.Extension):
    """Applies ``__all__.extend``, ``.append`` and ``.remove`` to the module's export list."""

    def on_module_members(self, *, node: Any, mod: Any, agent: Any, **kwargs: Any) -> None:
        if not isinstance(node, ast.Module) or not isinstance(mod, griffe.Module):
            return
        statements = list(_statements(node.body))
        if not any(_changes_in_place(statement) for statement in statements):
            return  # griffe read every form this module uses
        exports: _Exports | None = None
        for statement in statements:
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                exports = _listed(statement.value, mod)
            elif exports is None:
                continue  # changing a list never assigned here: not ours to read
            elif isinstance(statement, ast.AugAssign):
                added = _listed(statement.value, mod) if isinstance(statement.op, ast.Add) else None
                exports = None if added is None else exports + added
            else:
                exports = _called(statement, exports, mod)
            if exports is None:
                _computed(mod, statement)
                return
        if exports is not None:
            mod.exports = exports


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


def _listed(value: ast.expr | None, mod: griffe.Module) -> _Exports | None:
    """The names a list expression holds, as griffe reads an ``__all__`` value (strings,
    and other modules' ``__all__`` as names expanded later); None when it is not literal."""
    if value is None:
        return None
    try:
        found = griffe.get__all__(
            ast.Assign(targets=[ast.Name("__all__", ast.Store())], value=value), mod
        )
    except Exception:  # noqa: BLE001 - griffe raises for any node it does not read
        return None
    return list(found) if all(isinstance(item, str | griffe.ExprName) for item in found) else None


def _called(statement: ast.stmt, exports: _Exports, mod: griffe.Module) -> _Exports | None:
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
        added = _listed(argument, mod)
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
