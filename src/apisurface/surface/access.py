"""Reading griffe objects safely: a value griffe computes on demand may raise on odd code.

Each helper here answers one question about a griffe object (its text, an alias's target
path, the module's source text or file, its ``__all__``) and returns an empty answer
instead of raising. Used by the link step and the modules that build symbols for it.
"""

from __future__ import annotations

from pathlib import Path

import griffe

__all__ = ["exports_of", "module_text", "safe_str", "safe_target_path", "source_name"]


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


def module_text(mod: griffe.Module) -> str:
    """The module's source text, or ``""`` when griffe holds no lines for it."""
    try:
        return "\n".join(mod.lines_collection[mod.filepath])  # type: ignore[index]
    except (KeyError, TypeError, ValueError):
        return ""


def exports_of(mod: griffe.Module) -> set[str] | None:
    """The names of the module's ``__all__`` as griffe reads it; None when absent or dynamic."""
    try:
        exports = mod.exports
    except Exception:  # noqa: BLE001 - a dynamic __all__ counts as absent
        return None
    if exports is None:
        return None
    return {item if isinstance(item, str) else item.name for item in exports}
