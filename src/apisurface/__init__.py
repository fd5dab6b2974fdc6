"""apisurface: the documented public API of a Python package, snapshotted and diffed.

This module is the supported library API; everything else is implementation.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from apisurface.changes import Change, ChangeKind
    from apisurface.compare.bump import next_version, parse_version, required_level
    from apisurface.compare.diff import diff_surfaces
    from apisurface.compare.report import Report, Unknown, build_report
    from apisurface.compare.rules import RULES, Classified, Level, Rule, classify
    from apisurface.errors import (
        ApisurfaceError,
        ConfigError,
        GitRefError,
        SnapshotError,
        SourceError,
        VersionError,
    )
    from apisurface.model import (
        ExclusionReason,
        Location,
        Parameter,
        ParamKind,
        Problem,
        Signature,
        Surface,
        Symbol,
        SymbolKind,
    )
    from apisurface.project.config import Accept, Config, load_config
    from apisurface.release.inputs import load_input
    from apisurface.store.cache import SurfaceCache
    from apisurface.store.snapshot import read_snapshot, write_snapshot
    from apisurface.surface.collect import load_surface

# The library API is imported when first used (PEP 562), so that `apisurface --version`
# and `--help` do not pay for the analysis stack (griffe, libcst, rich).
_WHERE = {
    "Accept": "apisurface.project.config",
    "ApisurfaceError": "apisurface.errors",
    "Change": "apisurface.changes",
    "ChangeKind": "apisurface.changes",
    "Classified": "apisurface.compare.rules",
    "Config": "apisurface.project.config",
    "ConfigError": "apisurface.errors",
    "ExclusionReason": "apisurface.model",
    "GitRefError": "apisurface.errors",
    "Level": "apisurface.compare.rules",
    "Location": "apisurface.model",
    "ParamKind": "apisurface.model",
    "Parameter": "apisurface.model",
    "Problem": "apisurface.model",
    "RULES": "apisurface.compare.rules",
    "Report": "apisurface.compare.report",
    "Rule": "apisurface.compare.rules",
    "Signature": "apisurface.model",
    "SnapshotError": "apisurface.errors",
    "SourceError": "apisurface.errors",
    "Surface": "apisurface.model",
    "SurfaceCache": "apisurface.store.cache",
    "Symbol": "apisurface.model",
    "SymbolKind": "apisurface.model",
    "Unknown": "apisurface.compare.report",
    "VersionError": "apisurface.errors",
    "build_report": "apisurface.compare.report",
    "classify": "apisurface.compare.rules",
    "diff_surfaces": "apisurface.compare.diff",
    "load_config": "apisurface.project.config",
    "load_input": "apisurface.release.inputs",
    "load_surface": "apisurface.surface.collect",
    "next_version": "apisurface.compare.bump",
    "parse_version": "apisurface.compare.bump",
    "read_snapshot": "apisurface.store.snapshot",
    "required_level": "apisurface.compare.bump",
    "write_snapshot": "apisurface.store.snapshot",
}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'apisurface' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
    "Problem",
    "Report",
    "Rule",
    "Signature",
    "SnapshotError",
    "SourceError",
    "Surface",
    "SurfaceCache",
    "Symbol",
    "SymbolKind",
    "Unknown",
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
