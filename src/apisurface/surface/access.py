"""Reading griffe objects safely: a value griffe computes on demand may raise on odd code.

Each helper here answers one question about a griffe object (its text, an alias's target
path, the module's source text or file, its ``__all__``) and returns an empty answer
instead of raising. Used by the link step and the modules that build symbols for it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import griffe

__all__ = [
    "exports_of",
    "names_in_enclosing_scope",
    "safe_str",
    "safe_target_path",
    "source_name",
]


@contextlib.contextmanager
def names_in_enclosing_scope() -> Iterator[None]:
    """While inside, a name in an expression whose member scope is an import griffe cannot
    follow resolves in the enclosing module or class instead of raising.

    griffe resolves a name in an annotation through the member it belongs to, looked up by
    name in its module: when that name is also bound by an import (a function defined in
    one branch, imported in another: ``try: from warnings import deprecated`` / ``except:
    def deprecated(message: Optional[str]) ...``, click's ``_get_windows_console_stream``),
    the lookup finds the import, and an import of another package or of a module not loaded
    raises ``AliasResolutionError`` where griffe expects only ``NameResolutionError``: the
    whole annotation was dropped (and its file marked unknown). The enclosing scope is where
    the names of such an annotation live (``Optional`` is the module's import)."""
    original = griffe.ExprName.__dict__.get("canonical_path")
    getter = original.fget if isinstance(original, property) else None
    if getter is None:
        yield
        return

    def canonical_path(self: griffe.ExprName) -> str:
        try:
            return str(getter(self))
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            scope = self.parent
            if not isinstance(scope, griffe.Object):
                return self.name
            try:
                return scope.resolve(self.name)
            except Exception:  # noqa: BLE001 - unresolvable there too: the name as written
                return self.name

    setattr(griffe.ExprName, "canonical_path", property(canonical_path))  # noqa: B010
    try:
        yield
    finally:
        setattr(griffe.ExprName, "canonical_path", original)  # noqa: B010


def safe_str(value: object) -> str:
    """``str(value)``, or ``""`` when a griffe expression fails to render."""
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - griffe expressions may fail to render on odd code
        return ""


def safe_target_path(alias: griffe.Object | griffe.Alias) -> str:
    """The path an alias points to, or ``""``."""
    try:
        return str(alias.target_path)  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001
        return ""


def source_name(mod: griffe.Module) -> str:
    """The module's file (POSIX form) for messages, or its dotted path without one."""
    filepath = mod.filepath
    return Path(filepath).as_posix() if isinstance(filepath, Path) else mod.path


def exports_of(mod: griffe.Module) -> set[str] | None:
    """The names of the module's ``__all__`` as griffe reads it; None when absent or dynamic."""
    try:
        exports = mod.exports
    except Exception:  # noqa: BLE001 - a dynamic __all__ counts as absent
        return None
    if exports is None:
        return None
    return {item if isinstance(item, str) else item.name for item in exports}
