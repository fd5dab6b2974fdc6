"""apisurface: the documented public API of a Python package, snapshotted and diffed.

This module is the supported library API; everything else is implementation.
"""

from __future__ import annotations

__version__ = "0.1.0"

from apisurface.bump import next_version, parse_version, required_level
from apisurface.cache import SurfaceCache
from apisurface.changes import Change, ChangeKind
from apisurface.collect import load_surface
from apisurface.config import Accept, Config, load_config
from apisurface.diff import diff_surfaces
from apisurface.errors import (
    ApisurfaceError,
    ConfigError,
    GitRefError,
    SnapshotError,
    SourceError,
    VersionError,
)
from apisurface.inputs import load_input
from apisurface.model import (
    ExclusionReason,
    Location,
    Parameter,
    ParamKind,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.report import Report, build_report
from apisurface.rules import RULES, Classified, Level, Rule, classify
from apisurface.snapshot import read_snapshot, write_snapshot

__all__ = [
    "RULES",
    "Accept",
    "ApisurfaceError",
    "Change",
    "ChangeKind",
    "Classified",
    "Config",
    "ConfigError",
    "ExclusionReason",
    "GitRefError",
    "Level",
    "Location",
    "ParamKind",
    "Parameter",
    "Report",
    "Rule",
    "Signature",
    "SnapshotError",
    "SourceError",
    "Surface",
    "SurfaceCache",
    "Symbol",
    "SymbolKind",
    "VersionError",
    "build_report",
    "classify",
    "diff_surfaces",
    "load_config",
    "load_input",
    "load_surface",
    "next_version",
    "parse_version",
    "read_snapshot",
    "required_level",
    "write_snapshot",
]
