"""The project's ``[tool.apisurface]`` table: policy adjustments, overrides, accepted changes.

Every key is validated; an unknown key is an error naming the key and the file, so a typo
never silently weakens a release gate. The keys are one table, :data:`KEYS` (at the end):
a key is a row there and the :class:`Config` field of its name.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path, PurePosixPath
from typing import Any

from apisurface.changes import ChangeKind
from apisurface.errors import ConfigError
from apisurface.project.safeio import MAX_TOML_BYTES, read_regular

__all__ = [
    "DEFAULT_EXPORT_DECORATORS",
    "KEYS",
    "MAX_LIST_ENTRIES",
    "Accept",
    "Config",
    "Key",
    "key_table",
    "load_config",
    "parse_config",
    "with_key_table",
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
    verify: bool = False
    """Check claims against the installed releases, as ``--verify`` does: imports and runs
    the package's code in sandboxed child processes (docs/security.md, "Verification")."""

    def policy_key(self) -> str:
        """A stable text of every setting that changes the surface (for cache keys)."""
        return "\x1f".join(
            key.cache_label + _key_text(getattr(self, key.name))
            for key in KEYS
            if key.surface and key.cache_label is not None
        )


def _key_text(value: object) -> str:
    return "|".join(value) if isinstance(value, tuple) else str(value)


# --- the keys ---------------------------------------------------------------------------

_Reader = Callable[[dict[str, Any], str, str], Any]


@dataclass(frozen=True, slots=True)
class Key:
    """One key of ``[tool.apisurface]``: the :class:`Config` field of the same name is
    ``read(table, name, source)``, which validates it (a :class:`ConfigError` naming the
    key and ``source``) and gives its default when absent."""

    name: str
    type: str
    """The TOML value it takes, in words (for the docs)."""
    read: _Reader
    doc: str
    """What it does, in one line (for the docs)."""
    example: str
    """A valid TOML value other than the default (for the docs and the tests)."""
    surface: bool
    """Whether it shapes the surface (which paths are public), so is part of the cache key
    of a surface: through :meth:`Config.policy_key` unless ``cache_label`` is None. No
    default: every row decides (a key left out of the cache key serves stale surfaces)."""
    cache_label: str | None = ""
    """What precedes its value in :meth:`Config.policy_key`; None for the package, a part
    of the cache key of its own."""


def _choice(*options: str) -> _Reader:
    def read(table: dict[str, Any], key: str, source: str) -> str:
        value = _string(table, key, source, options[0])
        if value not in options:
            allowed = ", ".join(map(repr, options[:-1])) + f" or {options[-1]!r}"
            raise ConfigError(f"{source}: {key} must be {allowed}, not {value!r}")
        return value

    return read


def _flag(default: bool) -> _Reader:
    def read(table: dict[str, Any], key: str, source: str) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{source}: {key} must be true or false")
        return value

    return read


def _package(table: dict[str, Any], key: str, source: str) -> str | None:
    package = table.get(key)
    if package is not None and (
        not isinstance(package, str) or not all(part.isidentifier() for part in package.split("."))
    ):
        # It names a folder to read: only a dotted Python name, never a path.
        raise ConfigError(
            f"{source}: package must be a dotted Python name such as 'pkg' or 'ns.pkg', "
            f"not {str(package)[:80]!r}"
        )
    return package


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
        if key not in _KNOWN:
            known = ", ".join(sorted(_KNOWN))
            raise ConfigError(f"{source}: unknown key {key!r} (known keys: {known})")
    return Config(**{key.name: key.read(table, key.name, source) for key in KEYS}, source=source)


def _string(table: dict[str, Any], key: str, source: str, default: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise ConfigError(f"{source}: {key} must be a string")
    return value


def _docs(table: dict[str, Any], key: str, source: str) -> tuple[str, ...]:
    folders = _strings(table, key, source)
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


def _export_decorators(table: dict[str, Any], key: str, source: str) -> tuple[str, ...]:
    if key not in table:
        return DEFAULT_EXPORT_DECORATORS
    names = _strings(table, key, source)
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


def _levels(table: dict[str, Any], key: str, source: str) -> dict[ChangeKind, str]:
    value = table.get(key, {})
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


def _accepts(table: dict[str, Any], key: str, source: str) -> tuple[Accept, ...]:
    value = table.get(key, [])
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
        for part in ("path", "rule", "reason"):
            if not isinstance(entry.get(part), str) or not entry[part].strip():
                raise ConfigError(f"{where}: {part!r} is required (a non-empty string)")
        accepts.append(Accept(entry["path"], _rule(entry["rule"], where), entry["reason"]))
    return tuple(accepts)


# The keys in the order they are validated (the first bad one is the error).
KEYS: tuple[Key, ...] = (
    Key(
        "zero_version_breaking",
        '"minor" or "major"',
        _choice("minor", "major"),
        'what a breaking change bumps in 0.y.z: y ("minor", as Cargo does) or x',
        '"major"',
        surface=False,
    ),
    Key(
        "version_scheme",
        '"auto", "semver" or "calver"',
        _choice("auto", "semver", "calver"),
        '"calver": versions are release dates (24.6.0); "auto": when the first number is a year',
        '"calver"',
        surface=False,
    ),
    Key(
        "package",
        "dotted name",
        _package,
        "which package (default: [project] name, or the only one)",
        '"mypkg"',
        surface=True,
        cache_label=None,
    ),
    Key(
        "require_docstrings",
        "true or false",
        _flag(True),
        "the documentation rule: an undocumented name is outside the contract",
        "false",
        surface=True,
    ),
    Key(
        "strict",
        "true or false",
        _flag(False),
        "true: inferred changes count too (the bump and every gate)",
        "true",
        surface=False,
    ),
    Key(
        "exclude",
        "list of patterns",
        _strings,
        "dotted-path patterns outside the contract",
        '["mypkg.testing*"]',
        surface=True,
    ),
    Key(
        "exclude_names",
        "list of patterns",
        _strings,
        "name patterns outside the contract",
        '["*_impl"]',
        surface=True,
    ),
    Key(
        "include",
        "list of patterns",
        _strings,
        "paths declared public (documented, exported) although a default rule excludes them",
        '["mypkg.tools.cli"]',
        surface=True,
    ),
    Key(
        "docs",
        "list of folders",
        _docs,
        "where the API docs sources are (default: docs/, doc/), inside the project",
        '["documentation"]',
        surface=True,
    ),
    Key(
        "levels",
        "table of rule = level",
        _levels,
        "a rule's level for the project: major, minor, patch or ignore",
        '{ parameter_default_changed = "minor" }',
        surface=False,
    ),
    Key(
        "accept",
        "array of tables",
        _accepts,
        "one accepted change each: path, rule and reason ([[tool.apisurface.accept]])",
        '[{ path = "mypkg.f", rule = "symbol_removed", reason = "never used" }]',
        surface=False,
    ),
    Key(
        "ignore",
        "list of patterns",
        _strings,
        "paths whose changes are not reported",
        '["mypkg.vendored.*"]',
        surface=False,
    ),
    Key(
        "verify",
        "true or false",
        _flag(False),
        "true: every command that can runs as with --verify (installs the releases and runs "
        "their code in a sandbox; docs/security.md)",
        "true",
        surface=False,
    ),
    Key(
        "export_decorators",
        "list of names",
        _export_decorators,
        "decorators whose string arguments declare public paths ([] turns them off)",
        '["api_export"]',
        surface=True,
        cache_label="exports:",
    ),
)
"""Every ``[tool.apisurface]`` key: the known keys, their parsing and validation, the cache
key (:meth:`Config.policy_key`) and the key table of docs/policy.md come from here."""

_KNOWN = frozenset(key.name for key in KEYS)
if {item.name for item in fields(Config)} - {"source"} != _KNOWN:  # pragma: no cover
    raise ImportError("apisurface.project.config: KEYS and the Config fields name other keys")


_TABLE_BEGIN = "<!-- config-keys: written by `make policy` from project/config.py KEYS -->"
_TABLE_END = "<!-- /config-keys -->"


def key_table() -> str:
    """Every key of :data:`KEYS` as the Markdown table of docs/policy.md."""
    rows = [
        f"| `{key.name}` | {key.type} | {'yes' if key.surface else 'no'} | {key.doc} |"
        for key in sorted(KEYS, key=lambda key: key.name)
    ]
    header = ["| key | value | shapes the surface | what it does |", "| --- | --- | --- | --- |"]
    return "\n".join(header + rows) + "\n"


def with_key_table(page: str) -> str:
    """``page`` with :func:`key_table` between its config-keys markers; raise
    :class:`ConfigError` when the markers are missing."""
    begin = page.find(_TABLE_BEGIN)
    end = page.find(_TABLE_END, begin)
    if begin < 0 or end < 0:
        raise ConfigError(f"the page lacks the markers {_TABLE_BEGIN!r} and {_TABLE_END!r}")
    start = begin + len(_TABLE_BEGIN)
    return f"{page[:start]}\n\n{key_table()}\n{page[end:]}"
