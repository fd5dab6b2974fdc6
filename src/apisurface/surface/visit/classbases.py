"""A class's bases are the names bound where its ``class`` statement runs.

griffe resolves a base name in the module as it is at the end of the file. A module that
imports a name and later defines a class of the same name (django 5.2's
``django.contrib.gis.db.models.functions``: ``from django.db.models import Transform``,
``class IsEmpty(GeoFuncMixin, Transform)``, and further down ``class Transform(...)``) then
gets the later class as the base: ``IsEmpty`` seems to inherit from a class that itself
inherits ``GeoFuncMixin``, after ``GeoFuncMixin``, which no C3 order allows, though Python
builds the class without complaint (and ``class TestOther(TestOther)`` of pyflakes' tests,
subclassing the imported class of that name, seems to inherit from itself). This griffe
extension records, when a class statement is visited (griffe visits statements in order,
and binds the class after reading its bases), what each base name is bound to at that
point, and once the module is visited replaces each base whose name was rebound later by
the path it named then. A base named like the class and bound to nothing before it is the
builtin of that name (``class Warning(Warning, Base)``), never the class itself.
"""

from __future__ import annotations

import ast
import builtins
from typing import Any

import griffe

__all__ = ["BasesAsBound"]

_KEY = "bases_as_bound"
_BUILTINS = frozenset(dir(builtins))


def _head(expr: object) -> tuple[griffe.ExprName, list[str]] | None:
    """The first name of a dotted base (``a`` of ``a.b.C``) and the names after it."""
    rest: list[str] = []
    if isinstance(expr, griffe.ExprAttribute) and expr.values:
        first, *others = expr.values
        if not all(isinstance(item, griffe.ExprName) for item in others):
            return None
        rest = [item.name for item in others]  # type: ignore[union-attr]
        expr = first
    if isinstance(expr, griffe.ExprName) and isinstance(expr.parent, griffe.Object):
        return expr, rest
    return None


def _bound_path(scope: griffe.Object, name: str) -> str | None:
    member = scope.members.get(name)
    if member is None:
        return None
    if member.is_alias:
        return str(member.target_path)  # type: ignore[union-attr]
    return str(member.path)


class BasesAsBound(griffe.Extension):
    """Bases resolved as bound at the ``class`` statement (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        # The bindings of a class statement's base names, from before griffe binds the
        # class itself (``class TestOther(TestOther)`` names the import), by the node.
        self._before: dict[int, tuple[ast.ClassDef, dict[str, str]]] = {}

    def on_class_node(self, *, node: Any, agent: Any, **kwargs: Any) -> None:
        if not isinstance(node, ast.ClassDef) or not isinstance(agent, griffe.Visitor):
            return
        scope = agent.current
        bound: dict[str, str] = {}
        for base in node.bases:
            head = base
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name):
                path = _bound_path(scope, head.id)
                if path is None and head.id == node.name and head.id in _BUILTINS:
                    # ``class Warning(Warning, Base)``: the name is not bound yet, so it is
                    # the builtin; griffe would read the class itself (inheriting from
                    # itself, an unknown order of its bases).
                    path = head.id
                if path is not None:
                    bound[head.id] = path
        if bound:
            self._before[id(node)] = (node, bound)

    def on_class_instance(self, *, node: Any, cls: griffe.Class, agent: Any, **kwargs: Any) -> None:
        entry = self._before.pop(id(node), None)
        if entry is None or entry[0] is not node:
            return
        bound = entry[1]
        found: list[tuple[int, str, str, tuple[str, ...]]] = []
        for index, base in enumerate(cls.bases):
            head = _head(base)
            if head is None:
                continue
            name, rest = head
            path = bound.get(name.name)
            if path is not None:
                found.append((index, name.name, path, tuple(rest)))
        if found:
            cls.extra["apisurface"][_KEY] = found

    def on_module_members(
        self, *, node: Any, mod: griffe.Module, agent: Any, **kwargs: Any
    ) -> None:
        pending: list[griffe.Object] = [mod]
        while pending:
            holder = pending.pop()
            for member in holder.members.values():
                if member.is_alias or not isinstance(member, griffe.Class):
                    continue
                pending.append(member)
                recorded = member.extra["apisurface"].pop(_KEY, None)
                if recorded:
                    _rebind(member, recorded)


def _rebind(cls: griffe.Class, recorded: list[tuple[int, str, str, tuple[str, ...]]]) -> None:
    bases: list[str | griffe.Expr] = list(cls.bases)
    for index, name, path, rest in recorded:
        head = _head(bases[index])
        if head is None:
            continue
        scope = head[0].parent
        if not isinstance(scope, griffe.Object) or _bound_path(scope, name) == path:
            continue
        bases[index] = ".".join((path, *rest))
    cls.bases = bases
