"""What the names of a user's file stand for: the imports of the package bind local names
to public paths; any other binding of a name (an assignment, a parameter, a definition, an
import from elsewhere) makes it ambiguous. Read with :mod:`ast` from the file's text (never
imported or run); :mod:`apisurface.release.impact` resolves uses through these bindings.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["Bindings", "bindings_of"]


@dataclass(slots=True)
class Bindings:
    """What each local name of a file stands for."""

    imported: dict[str, str] = field(default_factory=dict)  # name -> public path
    via_from: set[str] = field(default_factory=set)  # names bound by ``from m import``
    stars: list[str] = field(default_factory=list)  # modules star-imported
    other: set[str] = field(default_factory=set)  # names bound any other way
    counts: dict[str, int] = field(default_factory=dict)  # bindings of each other name
    inheriting: dict[str, list[str]] = field(default_factory=dict)
    """Module-level classes of the file that derive from classes of the package and
    inherit their constructor (no ``__init__`` of their own): name -> the bases' paths."""


def bindings_of(tree: ast.Module, package: str) -> Bindings:
    """The bindings of a module: what each local name stands for, and which names are
    ambiguous (bound to the package and otherwise, or to two of its paths)."""
    found = Bindings()
    conflicting: set[str] = set()

    def other(name: str) -> None:
        found.other.add(name)
        found.counts[name] = found.counts.get(name, 0) + 1

    def bind(name: str, path: str | None) -> None:
        if path is None:
            other(name)
            return
        previous = found.imported.get(name)
        if previous is not None and previous != path:
            conflicting.add(name)
        found.imported[name] = path

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                ours = alias.name == package or alias.name.startswith(package + ".")
                if alias.asname:
                    bind(alias.asname, alias.name if ours else None)
                else:
                    top = alias.name.partition(".")[0]
                    bind(top, top if ours else None)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            ours = node.level == 0 and (module == package or module.startswith(package + "."))
            for alias in node.names:
                if alias.name == "*":
                    if ours:
                        found.stars.append(module)
                    continue
                local = alias.asname or alias.name
                bind(local, f"{module}.{alias.name}" if ours else None)
                if ours:
                    found.via_from.add(local)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            other(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            other(node.id)
        elif isinstance(node, ast.arg):
            other(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            other(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                other(name)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            other(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            other(node.rest)
    found.other |= conflicting
    for statement in tree.body:
        if (
            isinstance(statement, ast.ClassDef)
            and found.counts.get(statement.name) == 1
            and statement.name not in found.imported
            and not any(
                isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                and item.name in ("__init__", "__new__")
                for item in statement.body
            )
        ):
            bases = [_ast_path(base, found) for base in statement.bases]
            paths = [path for path in bases if path is not None]
            if paths:
                found.inheriting[statement.name] = paths
    return found


def _ast_path(node: ast.expr, bindings: Bindings) -> str | None:
    """The package path an expression names through the file's imports (star imports
    left out: a base class is rarely spelled through one)."""
    if isinstance(node, ast.Name):
        if node.id in bindings.other:
            return None
        return bindings.imported.get(node.id)
    if isinstance(node, ast.Attribute):
        head = _ast_path(node.value, bindings)
        return None if head is None else f"{head}.{node.attr}"
    return None
