"""Errors apisurface reports to its users: each is one line naming the thing and the fix."""

from __future__ import annotations

__all__ = [
    "ApisurfaceError",
    "ConfigError",
    "GitRefError",
    "SnapshotError",
    "SourceError",
    "UnreadableSourceError",
    "VersionError",
]


class ApisurfaceError(Exception):
    """Bad input: the message says what is wrong and what to do. The CLI exits 2."""


class SourceError(ApisurfaceError):
    """A source folder or package that cannot be found or read."""


class UnreadableSourceError(SourceError):
    """Files the public surface reaches that do not parse, decode or read: ``lines`` names
    each as compilers do (``FILE:LINE:COL: message``), the message says what to do."""

    def __init__(self, message: str, lines: tuple[str, ...]) -> None:
        super().__init__(message)
        self.lines = lines


class ConfigError(ApisurfaceError):
    """An invalid ``[tool.apisurface]`` table."""


class SnapshotError(ApisurfaceError):
    """A snapshot file that is corrupt, of the wrong shape, or from an incompatible version."""


class GitRefError(ApisurfaceError):
    """A git reference that does not exist or cannot be read."""


class VersionError(ApisurfaceError, ValueError):
    """A version string that cannot be mapped to semantic versioning."""
