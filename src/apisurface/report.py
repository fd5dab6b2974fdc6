"""A diff report: the classified changes, the required bump and the suggested version."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from posixpath import join, normpath

from apisurface.bump import next_version, required_level
from apisurface.config import Config
from apisurface.diff import diff_surfaces
from apisurface.errors import VersionError
from apisurface.model import Location, Surface
from apisurface.rules import Classified, Level, base_path, classify

__all__ = ["Report", "build_report"]


@dataclass(frozen=True, slots=True)
class Report:
    """Everything a renderer needs; computed, never printed, by the library."""

    old_label: str
    new_label: str
    changes: tuple[Classified, ...]
    level: Level
    current_version: str | None
    next_version: str | None
    version_note: str | None = None
    incomplete: tuple[str, ...] = ()
    stale_accepts: tuple[str, ...] = field(default=())
    locations: Mapping[str, Location] = field(default_factory=dict)

    def count(self, level: Level) -> int:
        """How many changes (not accepted) are at ``level``."""
        return sum(1 for change in self.changes if change.effective_level is level)

    @property
    def accepted(self) -> tuple[Classified, ...]:
        """Changes the project accepted in its configuration."""
        return tuple(change for change in self.changes if change.accepted is not None)


def build_report(
    old: Surface,
    new: Surface,
    *,
    old_label: str = "old",
    new_label: str = "new",
    current_version: str | None = None,
    config: Config | None = None,
    old_root: str = "",
    new_root: str = "",
) -> Report:
    """Diff, classify with the project's overrides and accepted changes, and bump.

    ``locations`` maps each changed symbol (``pkg.f`` for a change to ``pkg.f(x)``) to
    where it is defined in NEW, or in OLD when it is gone from NEW. ``old_root`` and
    ``new_root`` are the folders (relative to the repository, ``/``-separated) that each
    surface's source locations are relative to; they prefix the reported files.
    """
    config = config or Config()
    overrides = {kind: Level.parse(level) for kind, level in config.levels.items()}
    accepted = {(entry.path, entry.rule): entry.reason for entry in config.accept}
    changes = [
        change
        for change in diff_surfaces(old, new)
        if not any(_matches(change.path, pattern) for pattern in config.ignore)
    ]
    classified = classify(changes, overrides=overrides, accepted=accepted)
    used = {(item.change.path, item.change.kind) for item in classified if item.accepted}
    used |= {(base_path(path), kind) for path, kind in used}
    stale = tuple(
        f"{entry.path} {entry.rule.value}"
        for entry in config.accept
        if (entry.path, entry.rule) not in used
    )
    level = required_level(classified)
    version = current_version or old.version
    suggestion: str | None = None
    note: str | None = None
    if version is not None:
        try:
            suggestion = next_version(version, level, zero_breaking=config.zero_version_breaking)
        except VersionError as error:
            note = str(error)
    incomplete = tuple(f"old: {problem}" for problem in old.problems) + tuple(
        f"new: {problem}" for problem in new.problems
    )
    return Report(
        old_label=old_label,
        new_label=new_label,
        changes=tuple(classified),
        level=level,
        current_version=version,
        next_version=suggestion,
        version_note=note,
        incomplete=incomplete,
        stale_accepts=stale,
        locations=_locations(classified, old, new, old_root, new_root),
    )


def _locations(
    changes: list[Classified], old: Surface, new: Surface, old_root: str, new_root: str
) -> dict[str, Location]:
    found: dict[str, Location] = {}
    for item in changes:
        path = base_path(item.change.path)
        if path in found:
            continue
        for surface, root in ((new, new_root), (old, old_root)):
            location = _location(surface, path)
            if location is not None:
                file = normpath(join(root, location.file)) if root else location.file
                found[path] = Location(file, location.line)
                break
    return found


def _location(surface: Surface, path: str) -> Location | None:
    """Where ``path`` is defined; a synthesised member (a dataclass ``__init__``, line 0)
    points at its class instead."""
    symbol = surface.symbols.get(path)
    if symbol is None or symbol.location is None:
        return None
    if symbol.location.line == 0:
        owner = surface.symbols.get(symbol.parent)
        if owner is not None and owner.location is not None and owner.location.line > 0:
            return owner.location
    return symbol.location


def _matches(path: str, pattern: str) -> bool:
    base = path.split("(", 1)[0]
    return fnmatchcase(base, pattern) or fnmatchcase(path, pattern)
