"""apisurface: the documented public API of a Python package, snapshotted and diffed.

This module is the supported library API; everything else is implementation.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

__version__ = "0.1.0"

if TYPE_CHECKING:
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

# The library API is imported when first used (PEP 562), so that `apisurface --version`
# and `--help` do not pay for the analysis stack (griffe, libcst, rich).
_WHERE = {
    "Accept": "apisurface.config",
    "ApisurfaceError": "apisurface.errors",
    "Change": "apisurface.changes",
    "ChangeKind": "apisurface.changes",
    "Classified": "apisurface.rules",
    "Config": "apisurface.config",
    "ConfigError": "apisurface.errors",
    "ExclusionReason": "apisurface.model",
    "GitRefError": "apisurface.errors",
    "Level": "apisurface.rules",
    "Location": "apisurface.model",
    "ParamKind": "apisurface.model",
    "Parameter": "apisurface.model",
    "RULES": "apisurface.rules",
    "Report": "apisurface.report",
    "Rule": "apisurface.rules",
    "Signature": "apisurface.model",
    "SnapshotError": "apisurface.errors",
    "SourceError": "apisurface.errors",
    "Surface": "apisurface.model",
    "SurfaceCache": "apisurface.cache",
    "Symbol": "apisurface.model",
    "SymbolKind": "apisurface.model",
    "VersionError": "apisurface.errors",
    "build_report": "apisurface.report",
    "classify": "apisurface.rules",
    "diff_surfaces": "apisurface.diff",
    "load_config": "apisurface.config",
    "load_input": "apisurface.inputs",
    "load_surface": "apisurface.collect",
    "next_version": "apisurface.bump",
    "parse_version": "apisurface.bump",
    "read_snapshot": "apisurface.snapshot",
    "required_level": "apisurface.bump",
    "write_snapshot": "apisurface.snapshot",
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
