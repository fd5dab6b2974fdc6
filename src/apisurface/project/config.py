"""The project's ``[tool.apisurface]`` table: policy adjustments, overrides, accepted changes.

Every key is validated; an unknown key is an error naming the key and the file, so a typo
never silently weakens a release gate.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from apisurface.changes import ChangeKind
from apisurface.errors import ConfigError
from apisurface.project.safeio import MAX_TOML_BYTES, read_regular

__all__ = [
    "DEFAULT_EXPORT_DECORATORS",
    "MAX_LIST_ENTRIES",
    "Accept",
    "Config",
    "load_config",
    "parse_config",
]

MAX_LIST_ENTRIES = 10_000

_LEVELS = ("major", "minor", "patch", "ignore")
DEFAULT_EXPORT_DECORATORS = ("tf_export", "keras_export", "estimator_export")
"""The export decorators recognised without configuration (TensorFlow, Keras, Estimator)."""


@dataclass(frozen=True, slots=True)
class Accept:
    """One breaking change the project accepts, by public path and rule, with a reason."""

    path: str
    rule: ChangeKind
    reason: str


@dataclass(frozen=True, slots=True)
class Config:
    """Policy settings (POLICY.md section 2 defaults) and report adjustments."""

    package: str | None = None
    require_docstrings: bool = True
    exclude: tuple[str, ...] = ()
    exclude_names: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    docs: tuple[str, ...] = ()
    zero_version_breaking: str = "minor"
    strict: bool = False
    """Count inferred changes too (POLICY.md section 3, "Evidence"): in the bump and every
    gate. Not part of :meth:`policy_key`: it judges changes, it does not build surfaces."""
    levels: Mapping[ChangeKind, str] = field(default_factory=dict)
    accept: tuple[Accept, ...] = ()
    ignore: tuple[str, ...] = ()
    source: str = "defaults"
    export_decorators: tuple[str, ...] = DEFAULT_EXPORT_DECORATORS
    """Names of export decorators whose string arguments declare public paths (TensorFlow's
    ``tf_export``); an empty tuple turns declared exports off."""
    version_scheme: str = "auto"
    """``"semver"``, ``"calver"`` (versions are release dates: ``24.6.0``, ``2024.6.1``), or
    ``"auto"``: calendar versioning when the version's first number is a year (``2024.6``)."""

    def policy_key(self) -> str:
        """A stable text of every setting that changes the surface (for cache keys)."""
        parts = (
            str(self.require_docstrings),
            "|".join(self.exclude),
            "|".join(self.exclude_names),
            "|".join(self.include),
            "|".join(self.docs),
            "exports:" + "|".join(self.export_decorators),
        )
        return "\x1f".join(parts)


_KEYS = {
    "package",
    "require_docstrings",
    "exclude",
    "exclude_names",
    "include",
    "docs",
    "zero_version_breaking",
    "strict",
    "version_scheme",
    "levels",
    "accept",
    "ignore",
    "export_decorators",
}


def load_config(project_root: Path | None) -> Config:
    """Read ``[tool.apisurface]`` from ``project_root/pyproject.toml`` (defaults if absent)."""
    if project_root is None:
        return Config()
    pyproject = project_root / "pyproject.toml"
    if not pyproject.is_file():
        return Config()
    try:
        data = tomllib.loads(read_regular(pyproject, MAX_TOML_BYTES).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{pyproject.name}: not valid TOML ({error}); fix the file") from None
    except OSError as error:
        raise ConfigError(f"{pyproject}: cannot read ({error.strerror})") from None
    tool = data.get("tool", {})
    table = tool.get("apisurface", {}) if isinstance(tool, dict) else {}
    return parse_config(table, source=f"{pyproject.name} [tool.apisurface]")


def parse_config(table: Any, *, source: str = "[tool.apisurface]") -> Config:
    """Validate a ``[tool.apisurface]`` table and build a :class:`Config`."""
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: must be a table")
    for key in sorted(table):
        if key not in _KEYS:
            known = ", ".join(sorted(_KEYS))
            raise ConfigError(f"{source}: unknown key {key!r} (known keys: {known})")
    zero = _string(table, "zero_version_breaking", source, "minor")
    if zero not in ("minor", "major"):
        raise ConfigError(
            f"{source}: zero_version_breaking must be 'minor' or 'major', not {zero!r}"
        )
    scheme = _string(table, "version_scheme", source, "auto")
    if scheme not in ("auto", "semver", "calver"):
        raise ConfigError(
            f"{source}: version_scheme must be 'auto', 'semver' or 'calver', not {scheme!r}"
        )
    package = table.get("package")
    if package is not None and (
        not isinstance(package, str) or not all(part.isidentifier() for part in package.split("."))
    ):
        # It names a folder to read: only a dotted Python name, never a path.
        raise ConfigError(
            f"{source}: package must be a dotted Python name such as 'pkg' or 'ns.pkg', "
            f"not {str(package)[:80]!r}"
        )
    require = table.get("require_docstrings", True)
    if not isinstance(require, bool):
        raise ConfigError(f"{source}: require_docstrings must be true or false")
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{source}: strict must be true or false")
    return Config(
        package=package,
        require_docstrings=require,
        strict=strict,
        exclude=_strings(table, "exclude", source),
        exclude_names=_strings(table, "exclude_names", source),
        include=_strings(table, "include", source),
        docs=_docs(table, source),
        zero_version_breaking=zero,
        version_scheme=scheme,
        levels=_levels(table.get("levels", {}), source),
        accept=_accepts(table.get("accept", []), source),
        ignore=_strings(table, "ignore", source),
        source=source,
        export_decorators=_export_decorators(table, source),
    )


def _string(table: dict[str, Any], key: str, source: str, default: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise ConfigError(f"{source}: {key} must be a string")
    return value


def _docs(table: dict[str, Any], source: str) -> tuple[str, ...]:
    folders = _strings(table, "docs", source)
    for folder in folders:
        parts = PurePosixPath(folder.replace("\\", "/"))
        if not folder or parts.is_absolute() or ".." in parts.parts or ":" in folder:
            raise ConfigError(
                f"{source}: docs entry {folder[:80]!r} must be a folder inside the project "
                "(a relative path without '..')"
            )
    return folders


def _strings(table: dict[str, Any], key: str, source: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{source}: {key} must be a list of strings")
    if len(value) > MAX_LIST_ENTRIES:
        # Each name is matched against the patterns: a bound on the work per name.
        raise ConfigError(f"{source}: {key} has {len(value)} entries; at most {MAX_LIST_ENTRIES}")
    return tuple(value)


def _export_decorators(table: dict[str, Any], source: str) -> tuple[str, ...]:
    if "export_decorators" not in table:
        return DEFAULT_EXPORT_DECORATORS
    names = _strings(table, "export_decorators", source)
    for name in names:
        if not name.isidentifier():
            raise ConfigError(
                f"{source}: export_decorators must name decorators (identifiers such as "
                f"'tf_export'), not {name!r}"
            )
    return names


def _rule(value: Any, where: str) -> ChangeKind:
    try:
        return ChangeKind(value)
    except ValueError:
        ids = [kind.value for kind in ChangeKind]
        close = difflib.get_close_matches(str(value), ids, n=1) if isinstance(value, str) else []
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ConfigError(
            f"{where}: unknown rule {value!r} ({hint}see 'apisurface rules' for the ids)"
        ) from None


def _levels(value: Any, source: str) -> dict[ChangeKind, str]:
    if not isinstance(value, dict):
        raise ConfigError(f"{source}: levels must be a table of rule = level")
    levels: dict[ChangeKind, str] = {}
    for rule, level in value.items():
        kind = _rule(rule, f"{source} levels")
        if not isinstance(level, str) or level.lower() not in _LEVELS:
            raise ConfigError(
                f"{source}: levels.{rule} must be one of {', '.join(_LEVELS)}, not {level!r}"
            )
        levels[kind] = level.lower()
    return levels


def _accepts(value: Any, source: str) -> tuple[Accept, ...]:
    if not isinstance(value, list):
        raise ConfigError(
            f"{source}: accept must be an array of tables ([[tool.apisurface.accept]])"
        )
    if len(value) > MAX_LIST_ENTRIES:
        raise ConfigError(f"{source}: accept has {len(value)} entries; at most {MAX_LIST_ENTRIES}")
    accepts: list[Accept] = []
    for index, entry in enumerate(value, start=1):
        where = f"{source} accept #{index}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: must be a table with path, rule and reason")
        unknown = sorted(set(entry) - {"path", "rule", "reason"})
        if unknown:
            raise ConfigError(f"{where}: unknown key {unknown[0]!r} (use path, rule, reason)")
        for key in ("path", "rule", "reason"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise ConfigError(f"{where}: {key!r} is required (a non-empty string)")
        accepts.append(Accept(entry["path"], _rule(entry["rule"], where), entry["reason"]))
    return tuple(accepts)
