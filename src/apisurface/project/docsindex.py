"""What the project's API docs declare: the value the docs reader
(:mod:`apisurface.surface.docsources`) fills, the surface walk consults, and the cache key
includes. It lives here, below both, so the cache does not depend on the surface stage."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["DocsIndex"]


@dataclass(slots=True)
class DocsIndex:
    """Dotted names the docs name, prefixes whose members are all documented, and prefixes
    whose members and their members are (``automodule`` with ``:members:`` and
    ``:undoc-members:`` documents the undocumented members of the module's classes too)."""

    names: set[str] = field(default_factory=set)
    all_members: set[str] = field(default_factory=set)
    deep_members: set[str] = field(default_factory=set)

    def names_path(self, *paths: str) -> bool:
        """Whether any of ``paths`` is declared by the docs."""
        for path in paths:
            if path in self.names or path.rpartition(".")[0] in self.all_members:
                return True
            if self.deep_members and self._deep(path):
                return True
        return False

    def _deep(self, path: str) -> bool:
        parent = path.rpartition(".")[0]
        while parent:
            if parent in self.deep_members:
                return True
            parent = parent.rpartition(".")[0]
        return False
