"""Which top-level packages a distribution ships together (POLICY.md section 2, item 8).

pytest's wheel holds ``pytest/``, ``_pytest/`` and ``py.py``; attrs' holds ``attr/`` and
``attrs/``. A public package that re-exports from a sibling of its own distribution exposes
those objects at its own paths, so the siblings are read with it. What the distribution
ships is read, never guessed from names, from the first of:

1. an unpacked wheel's ``*.dist-info/RECORD`` (the first folder of each path) or its
   ``top_level.txt``;
2. an unpacked source distribution's ``*.egg-info/top_level.txt``;
3. the build configuration in ``pyproject.toml`` (hatch's ``packages`` / ``only-include``,
   setuptools' ``packages`` / ``py-modules`` / ``packages.find``, poetry's ``packages``,
   flit's module) or ``setup.cfg`` (``[options] packages`` / ``py_modules``);
4. a ``src/`` layout: every top-level package or module under ``src/`` (what setuptools'
   and hatch's discovery ship from there).

A list that does not name the package itself belongs to another distribution and is
ignored. Only names found beside the package (a folder or a ``.py`` module in the same
folder) are siblings.
"""

from __future__ import annotations

import configparser
import fnmatch
import re
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath

from apisurface.project.safeio import MAX_TOML_BYTES, read_regular

__all__ = ["distribution_name", "normalized", "shipped_names", "sibling_paths"]

_MAX_LIST_BYTES = 16 * 1024 * 1024


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them (``PyYAML`` -> ``pyyaml``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def sibling_paths(path: Path, package: str, root: Path) -> tuple[Path, ...]:
    """The other top-level packages and modules of the distribution that ships ``package``
    (found at ``path``, a folder or ``.py`` module; ``root`` is the project folder): their
    folders or files beside ``path``, sorted by name. Empty when nothing says."""
    holder = path.parent
    names = shipped_names(holder, root, package)
    if names is None:
        return ()
    found: list[Path] = []
    for name in sorted(names - {package}):
        candidate = _top_level(holder, name)
        if candidate is not None:
            found.append(candidate)
    return tuple(found)


def shipped_names(holder: Path, root: Path, package: str | None) -> frozenset[str] | None:
    """The top-level names the distribution of ``package`` found in ``holder`` (the folder
    holding its packages) or ``root`` (its project folder) ships, or None when nothing
    says (a list that does not name ``package`` is another distribution's; with ``package``
    None, the first list found)."""
    folders = tuple(dict.fromkeys((holder, root)))
    for reader in (_wheel_names, _egg_info_names):
        for folder in folders:
            for found in reader(folder):
                if package is None or package in found:
                    return found
    configured = _configured_names(root, holder)
    if configured is None and holder.name == "src" and holder.parent == root:
        configured = frozenset(_present(holder)) or None
    if configured is not None and (package is None or package in configured):
        return configured
    return None


def distribution_name(root: Path) -> str | None:
    """The distribution's name as its metadata spells it: an unpacked wheel's
    ``METADATA``, an sdist's ``PKG-INFO``, or ``[project] name`` of ``pyproject.toml``."""
    candidates = [root / "PKG-INFO", *_globbed(root, "*.dist-info/METADATA")]
    for candidate in candidates:
        name = _header(candidate, "name")
        if name:
            return name
    data = _toml(root / "pyproject.toml")
    project = data.get("project")
    name = project.get("name") if isinstance(project, dict) else None
    return name if isinstance(name, str) else None


# --- the sources, in order --------------------------------------------------------------


def _wheel_names(folder: Path) -> Iterator[frozenset[str]]:
    for info in _globbed(folder, "*.dist-info"):
        record = _text(info / "RECORD")
        if record is not None:
            names = set()
            for line in record.splitlines():
                first = line.split(",", 1)[0].strip().strip('"')
                parts = PurePosixPath(first).parts
                if not parts or parts[0].endswith((".dist-info", ".data")):
                    continue
                names.add(_module_name(parts[0], alone=len(parts) == 1))
            names.discard("")
            if names:
                yield frozenset(names)
                continue
        listed = _lines(info / "top_level.txt")
        if listed:
            yield frozenset(listed)


def _egg_info_names(folder: Path) -> Iterator[frozenset[str]]:
    for info in _globbed(folder, "*.egg-info"):
        listed = _lines(info / "top_level.txt")
        if listed:
            yield frozenset(name.split("/")[0] for name in listed)


def _configured_names(root: Path, holder: Path) -> frozenset[str] | None:
    data = _toml(root / "pyproject.toml")
    tool = data.get("tool")
    tool = tool if isinstance(tool, dict) else {}
    found: set[str] = set()
    hatch = _dig(tool, "hatch", "build", "targets", "wheel")
    for key in ("packages", "only-include"):
        found.update(_last_parts(_strings(hatch.get(key))))
    setuptools = _dig(tool, "setuptools")
    packages = setuptools.get("packages")
    if isinstance(packages, list):
        found.update(name.split(".")[0] for name in _strings(packages))
    found.update(_strings(setuptools.get("py-modules")))
    find = _dig(setuptools, "packages", "find")
    if find:
        found.update(_discovered(root, holder, find))
    for entry in _list(_dig(tool, "poetry").get("packages")):
        if isinstance(entry, dict) and isinstance(entry.get("include"), str):
            found.update(_last_parts([entry["include"]]))
    flit = _dig(tool, "flit", "module").get("name")
    if isinstance(flit, str):
        found.add(flit.split(".")[0])
    found.update(_setup_cfg_names(root))
    found = {name for name in found if name.isidentifier()}
    return frozenset(found) or None


def _setup_cfg_names(root: Path) -> set[str]:
    text = _text(root / "setup.cfg")
    if text is None:
        return set()
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return set()
    if not parser.has_section("options"):
        return set()
    found: set[str] = set()
    for key in ("packages", "py_modules"):
        value = parser.get("options", key, fallback="")
        if value.strip().startswith("find"):
            continue  # discovery: the src/ rule or nothing
        found.update(item.split(".")[0] for item in re.split(r"[\s,]+", value) if item)
    return found


def _discovered(root: Path, holder: Path, find: dict[str, object]) -> set[str]:
    """setuptools' ``[tool.setuptools.packages.find]``: the top-level packages in its
    ``where`` folders that its ``include`` patterns accept and ``exclude`` ones do not."""
    where = _strings(find.get("where")) or ["."]
    include = _strings(find.get("include")) or ["*"]
    exclude = _strings(find.get("exclude"))
    found: set[str] = set()
    for folder in where:
        base = (root / folder).resolve()
        if base != holder.resolve():
            continue
        for name in _present(holder):
            if any(fnmatch.fnmatchcase(name, pattern) for pattern in include) and not any(
                fnmatch.fnmatchcase(name, pattern) for pattern in exclude
            ):
                found.add(name)
    return found


# --- small readers ----------------------------------------------------------------------


def _module_name(first: str, *, alone: bool) -> str:
    """The top-level name a wheel path's first component stands for: a folder's name, or a
    module's (``py.py`` -> ``py``; a compiled ``_yaml.cpython-311-x86_64-linux-gnu.so`` ->
    ``_yaml``)."""
    if not alone:
        return first if first.isidentifier() else ""
    stem = first.split(".", 1)[0]
    return stem if first.endswith((".py", ".pyi", ".so", ".pyd")) and stem.isidentifier() else ""


def _top_level(holder: Path, name: str) -> Path | None:
    folder = holder / name
    if folder.is_dir() and not folder.is_symlink():
        return folder
    module = holder / f"{name}.py"
    if module.is_file() and not module.is_symlink():
        return module
    return None


def _present(holder: Path) -> list[str]:
    """The top-level packages (folders holding Python code) and modules in ``holder``."""
    found: list[str] = []
    try:
        entries = sorted(holder.iterdir())
    except OSError:
        return found
    for entry in entries:
        if entry.is_symlink() or entry.name.startswith(".") or entry.name.endswith("-info"):
            continue
        if entry.is_dir() and entry.name.isidentifier() and _holds_code(entry):
            found.append(entry.name)
        elif entry.suffix == ".py" and entry.stem.isidentifier() and entry.is_file():
            found.append(entry.stem)
    return found


def _holds_code(folder: Path) -> bool:
    try:
        return any(entry.suffix in (".py", ".pyi") for entry in folder.iterdir())
    except OSError:
        return False


def _globbed(folder: Path, pattern: str) -> list[Path]:
    try:
        return sorted(path for path in folder.glob(pattern) if not path.is_symlink())
    except OSError:
        return []


def _text(path: Path) -> str | None:
    try:
        return read_regular(path, _MAX_LIST_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def _lines(path: Path) -> list[str]:
    text = _text(path)
    if text is None:
        return []
    return [line.strip() for line in text.splitlines() if line.strip()]


def _header(path: Path, key: str) -> str | None:
    text = _text(path)
    if text is None:
        return None
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line
        name, _, value = line.partition(":")
        if name.strip().lower() == key and value.strip():
            return value.strip()
    return None


def _toml(path: Path) -> dict[str, object]:
    try:
        return tomllib.loads(read_regular(path, MAX_TOML_BYTES).decode("utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}


def _dig(table: dict[str, object], *keys: str) -> dict[str, object]:
    for key in keys:
        found = table.get(key)
        if not isinstance(found, dict):
            return {}
        table = found
    return table


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _strings(value: object) -> list[str]:
    return [item for item in _list(value) if isinstance(item, str)]


def _last_parts(paths: Iterable[str]) -> set[str]:
    """``src/attr`` -> ``attr``; ``pkg.py`` -> ``pkg``."""
    found = set()
    for path in paths:
        last = PurePosixPath(path.strip("/")).name
        found.add(last.removesuffix(".py"))
    return found
