"""What the project's API docs declare: the value the docs reader
(:mod:`apisurface.surface.docsources`) fills, the surface walk consults, and the cache key
includes. It lives here, below both, so the cache does not depend on the surface stage."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["DocsIndex"]


@dataclass(slots=True)
class DocsIndex:
    """Dotted names the docs name, and prefixes whose members are all documented."""

    names: set[str] = field(default_factory=set)
    all_members: set[str] = field(default_factory=set)

    def names_path(self, *paths: str) -> bool:
        """Whether any of ``paths`` is declared by the docs."""
        for path in paths:
            if path in self.names or path.rpartition(".")[0] in self.all_members:
                return True
        return False
