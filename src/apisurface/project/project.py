"""The project a command works on, read once: every command starts from one :class:`Project`.

Where the package is (:mod:`apisurface.project.locate`), its ``[tool.apisurface]`` table
(:mod:`apisurface.project.config`), the version it declares, and the git repository around
it (:mod:`apisurface.project.git`, asked lazily). Reading it raises the same one-line errors
the parts do; nothing is printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from apisurface.errors import SourceError
from apisurface.project.config import Config, load_config
from apisurface.project.git import Repository
from apisurface.project.locate import PackageLocation, declared_version, locate

__all__ = ["Project", "configured_package"]


@dataclass(frozen=True, slots=True)
class Project:
    """A source folder (or module file) as the commands see it."""

    source: Path
    """What the user named (a folder, or one ``.py`` module)."""
    location: PackageLocation
    """The package's name and folder, and the project folder holding ``pyproject.toml``."""
    config: Config
    """``[tool.apisurface]`` of the project folder (or the configuration given)."""
    version: str | None
    """The version the project declares (``pyproject.toml``, ``__version__``, ``PKG-INFO``)."""
    repository: Repository
    """The git repository around ``source``: nothing runs until it is asked."""
    ref: str | None = None
    """The git ref ``source`` holds the files of (a checkout in a temporary folder; then
    ``repository`` is the one the ref was read from), or ``None`` for a folder."""

    @classmethod
    def load(
        cls, source: Path, package: str | None = None, *, config: Config | None = None
    ) -> Project:
        """Locate the package in ``source`` (``package``, else the one ``[tool.apisurface]``
        of ``source`` names, else the one found) and read its configuration (unless
        ``config`` is given) and declared version."""
        location = locate(source, package or configured_package(source))
        if config is None:
            config = load_config(location.root)
        return cls(source, location, config, declared_version(location), Repository(source))

    @property
    def package(self) -> str:
        """The top-level package's name."""
        return self.location.package

    @property
    def path(self) -> Path:
        """The package's folder (or ``.py`` file)."""
        return self.location.path

    @property
    def root(self) -> Path:
        """The project folder: ``pyproject.toml``, ``docs/`` and the changelog are here."""
        return self.location.root


def configured_package(source: Path) -> str | None:
    """The ``package`` named in ``[tool.apisurface]`` of ``source``, if any."""
    try:
        return load_config(source).package if source.is_dir() else None
    except SourceError:
        return None
