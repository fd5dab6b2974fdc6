"""What the package step of the visit adds for the link, typed: stand-ins for the names a
module ``__getattr__`` answers, what merging a ``.pyi`` stub into its module hides, and the
bindings of a package that shadow its submodules.

Made by :func:`apisurface.surface.visit.modules.link_package` once every file is visited, read by
:mod:`apisurface.surface.link.walker` (never written to a cache: it is rebuilt each run).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import griffe

__all__ = ["Answered", "StubFacts", "shadow", "shadowing", "unread_exports", "unread_parts"]

_SHADOWING = "shadowing"
_UNREAD = "unread exports"


class Answered(griffe.Attribute):
    """A name a module ``__getattr__`` answers (POLICY.md 2.8-2.9), standing as
    ``name = returned``."""

    def __init__(
        self,
        name: str,
        *,
        value: str | griffe.Expr | None,
        lineno: int,
        warning: str | None,
        imported: str | None,
    ) -> None:
        super().__init__(name, value=value, lineno=lineno, endlineno=lineno)
        self.warning = warning
        """The deprecation message when the shim warns; None when it answers plainly."""
        self.imported = imported
        """The dotted path of what it imports and returns, when it does."""


@dataclass(frozen=True, slots=True)
class StubFacts:
    """What merging a stub into its module's ``.py`` leaves the link to know."""

    shadowed: dict[str, str] = field(default_factory=dict)
    """Imports of the ``.py`` the stub replaces by a definition of its own: name -> the
    imported path (the imported object is still the one users get at that path)."""
    reexports: frozenset[str] = frozenset()
    """The names the stub re-exports with ``import x as x`` (the typing convention): after
    merging, their line numbers no longer point into the module's own file."""


def shadow(package: griffe.Module, name: str, member: griffe.Object | griffe.Alias) -> None:
    """Record that ``package``'s own binding ``member`` of ``name`` is what users get at
    that path, rather than its submodule of that name
    (:mod:`apisurface.surface.visit.shadowing`)."""
    package.extra["apisurface"].setdefault(_SHADOWING, {})[name] = member


def shadowing(package: griffe.Module) -> Mapping[str, griffe.Object | griffe.Alias]:
    """The bindings of ``package`` that shadow its submodules of the same name."""
    found: Mapping[str, griffe.Object | griffe.Alias] = package.extra["apisurface"].get(
        _SHADOWING, {}
    )
    return found


def unread_exports(module: griffe.Module, parts: list[str]) -> None:
    """Record the parts of ``module``'s ``__all__`` that name other lists no static reader
    can read (another distribution's ``__all__``), spelled as written."""
    module.extra["apisurface"][_UNREAD] = tuple(parts)


def unread_parts(module: griffe.Module) -> tuple[str, ...]:
    """The parts of ``module``'s ``__all__`` that could not be read
    (:func:`unread_exports`)."""
    found: tuple[str, ...] = module.extra["apisurface"].get(_UNREAD, ())
    return found
