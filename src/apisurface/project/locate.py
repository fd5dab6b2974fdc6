"""Find the package to analyse inside a source folder, and the version it declares.

Flat layout (``root/pkg/``), ``src/`` layout (``root/src/pkg/``), a single-module package
(``root/pkg.py``), or a package deeper in a monorepo when ``--package`` names it.
"""

from __future__ import annotations

import ast
import os
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from apisurface.errors import SourceError
from apisurface.project.distribution import (
    distribution_name,
    normalized,
    shipped_names,
    sibling_paths,
)
from apisurface.project.pytext import parse_python
from apisurface.project.safeio import MAX_TOML_BYTES, read_regular

__all__ = ["PackageLocation", "declared_version", "locate"]

_NOT_PACKAGES = frozenset(
    {"setup", "conftest", "noxfile", "fabfile", "tasks", "manage", "test", "tests", "docs", "doc"}
)
_SKIP_DIRS = frozenset(
    {"node_modules", "site-packages", "build", "dist", "__pycache__", ".git", ".venv", "venv"}
)
_MAX_SEARCH_DEPTH = 6


@dataclass(frozen=True, slots=True)
class PackageLocation:
    """Where the package is: ``path`` is its folder (or ``.py`` file), ``root`` the project
    folder holding ``pyproject.toml`` and ``docs/`` (the analysed root if there is none)."""

    package: str
    path: Path
    root: Path
    siblings: tuple[Path, ...] = ()
    """The other top-level packages and modules of the package's distribution, beside it
    (``_pytest/`` and ``py.py`` for ``pytest/``): read with it, so that re-exports from
    them resolve (POLICY.md 2.8; :mod:`apisurface.project.distribution`)."""

    @property
    def is_module(self) -> bool:
        """Whether the package is a single ``.py`` module."""
        return self.path.is_file()


def _valid_name(name: str) -> bool:
    return name.isidentifier() and not name.startswith(".")


def _is_package_dir(path: Path) -> bool:
    return path.is_dir() and (path / "__init__.py").is_file()


def _is_namespace_dir(path: Path) -> bool:
    """A PEP 420 namespace package: a folder without ``__init__.py`` holding Python code
    (only analysed when ``--package`` names it; see docs/decisions.md)."""
    if not path.is_dir() or not _valid_name(path.name):
        return False
    try:
        return any(
            (entry.suffix in (".py", ".pyi") and entry.is_file()) or _is_package_dir(entry)
            for entry in path.iterdir()
        )
    except OSError:
        return False


def _candidates(folder: Path) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return found
    for entry in entries:
        name = entry.name
        if name.startswith((".", "_")) or name in _SKIP_DIRS:
            continue
        if _is_package_dir(entry) and _valid_name(name) and name not in _NOT_PACKAGES:
            found.append((name, entry))
        elif (
            entry.suffix == ".py"
            and entry.is_file()
            and _valid_name(entry.stem)
            and entry.stem not in _NOT_PACKAGES
        ):
            found.append((entry.stem, entry))
    return found


def _configured_name(root: Path) -> str | None:
    pyproject = root / "pyproject.toml"
    try:
        data = tomllib.loads(read_regular(pyproject, MAX_TOML_BYTES).decode("utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None
    tool = data.get("tool", {})
    configured = tool.get("apisurface", {}).get("package") if isinstance(tool, dict) else None
    if isinstance(configured, str):
        return configured
    return None


def _project_name(root: Path) -> str | None:
    """The package a project folder names: ``[tool.apisurface] package``, else its
    distribution's name as a package name (``[project] name``, an unpacked wheel's or
    sdist's metadata)."""
    configured = _configured_name(root)
    if configured is not None:
        return configured
    name = distribution_name(root)
    return re.sub(r"[-.]+", "_", name).lower() if name is not None else None


def _distribution_package(source: Path, package: str) -> str | None:
    """The top-level package ``--package`` means when it names the distribution rather
    than a package of ``source`` (``PyYAML`` -> ``yaml``, ``python-dateutil`` ->
    ``dateutil``): its only public top-level package, or the one spelled like the
    distribution (``attrs`` ships ``attr`` and ``attrs``). None when ``package`` is a
    package found there, or names no distribution of ``source``."""
    top = package.split(".", maxsplit=1)[0]
    for folder in (source, source / "src"):
        if _is_package_dir(folder / top) or (folder / f"{top}.py").is_file():
            return None
    name = distribution_name(source)
    if name is None or normalized(name) != normalized(package):
        return None
    for holder in (source / "src", source):
        names = shipped_names(holder, source, None)
        if not names:
            continue
        public = sorted(item for item in names if not item.startswith("_"))
        spelled = re.sub(r"[-.]+", "_", name).lower()
        if len(public) == 1 or spelled in public:
            return public[0] if len(public) == 1 else spelled
        if public:
            raise SourceError(
                f"{source}: the distribution {name!r} ships several top-level packages "
                f"({', '.join(public)}); choose one with --package NAME"
            )
    return None


def _find(root: Path, package: str) -> list[Path]:
    """Every folder ``package/`` (with ``__init__.py``) or module ``package.py`` below root."""
    found: list[Path] = []
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        depth = len(here.parts) - base_depth
        if f"{package}.py" in filenames:
            found.append(here / f"{package}.py")
        if package in dirnames and _is_package_dir(here / package):
            found.append(here / package)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d != package
            and not d.startswith(".")
            and d not in _SKIP_DIRS
            and depth < _MAX_SEARCH_DEPTH
            and not (here / d).is_symlink()
        )
    return found


def _is_project_dir(path: Path) -> bool:
    """A project folder, an unpacked source distribution (``PKG-INFO``) or an unpacked
    wheel (``*.dist-info``): its modules are a distribution's, not loose scripts."""
    names = ("pyproject.toml", "setup.py", "setup.cfg", "PKG-INFO")
    if any((path / name).is_file() for name in names):
        return True
    try:
        return any(path.glob("*.dist-info"))
    except OSError:
        return False


def _package_holder(path: Path) -> Path:
    """The folder above the top-level package that ``path`` (a package folder) belongs to."""
    while _is_package_dir(path.parent) and path.parent != path:
        path = path.parent
    return path.parent


def _project_root(path: Path, source: Path) -> Path:
    """The nearest folder from the package up to ``source`` that has a pyproject.toml."""
    for folder in [path.parent, *path.parent.parents]:
        if (folder / "pyproject.toml").is_file() or (folder / "setup.py").is_file():
            return folder
        if folder == source:
            break
    return source


def locate(source: Path, package: str | None = None) -> PackageLocation:
    """Find the package in ``source`` (``package``: a top-level package, or a distribution
    name the metadata or build configuration gives), with the other top-level packages of
    its distribution; raise :class:`SourceError` with advice when unsure."""
    if package is not None and source.is_dir():
        package = _distribution_package(source, package) or package
    found = _locate(source, package)
    if source.is_file():
        return found  # one module file named: nothing says what ships with it
    siblings = sibling_paths(found.path, found.package, found.root)
    return replace(found, siblings=siblings) if siblings else found


def _locate(source: Path, package: str | None = None) -> PackageLocation:
    if not source.exists():
        raise SourceError(f"{source}: no such folder; give a source folder, snapshot or git ref")
    if source.is_file() and source.suffix == ".py":
        if source.name == "__init__.py":
            holder = _package_holder(source.parent)
            raise SourceError(
                f"{source}: a package's __init__.py; pass the folder holding the package ({holder})"
            )
        return PackageLocation(package or source.stem, source, source.parent)
    if not source.is_dir():
        raise SourceError(
            f"{source}: is a file; pass its folder ({source.parent}), a snapshot (.json), "
            "a wheel (.whl) or a git ref"
        )
    if package is not None:
        top = package.split(".")[0]
        if not all(_valid_name(part) for part in package.split(".")):
            raise SourceError(f"--package {package!r} is not a valid Python package name")
        for folder in (source, source / "src"):
            if _is_package_dir(folder / top):
                return _nested(PackageLocation(top, folder / top, source), package)
            if (folder / f"{top}.py").is_file():
                return PackageLocation(top, folder / f"{top}.py", source)
        for folder in (source, source / "src"):
            if _is_namespace_dir(folder / top):
                return _nested(PackageLocation(top, folder / top, source), package)
        if source.name == top and _is_package_dir(source):
            return _nested(PackageLocation(top, source, _project_root(source, source)), package)
        matches = _find(source, top)
        if not matches:
            raise SourceError(
                f"{source}: no package {top!r} found (looked for {top}/__init__.py or {top}.py)"
            )
        if len(matches) > 1:
            shown = ", ".join(str(match.relative_to(source)) for match in matches[:4])
            raise SourceError(
                f"{source}: package {top!r} found in several places ({shown}); "
                "run apisurface on the folder of the one you mean"
            )
        return _nested(PackageLocation(top, matches[0], _project_root(matches[0], source)), package)
    if _is_package_dir(source) and not _is_project_dir(source):
        holder = _package_holder(source)
        dotted = ".".join(source.resolve().relative_to(holder.resolve()).parts)
        top = dotted.split(".", 1)[0]
        raise SourceError(
            f"{source}: is the package {dotted!r} itself; pass the folder holding it "
            f"({holder} --package {top}), or the project folder with its pyproject.toml"
        )
    name = _project_name(source)
    if name is not None:
        for folder in (source, source / "src"):
            if _is_package_dir(folder / name) or (folder / f"{name}.py").is_file():
                path = folder / name if (folder / name).is_dir() else folder / f"{name}.py"
                return PackageLocation(name, path, source)
    found = _candidates(source / "src") or _candidates(source)
    packages = [item for item in found if item[1].is_dir()] or found
    if (
        packages
        and all(path.is_file() for _, path in packages)
        and not _is_project_dir(source)
        and not (source / "src").is_dir()
    ):
        scripts = ", ".join(path.name for _, path in packages[:3])
        what = "the script" if len(packages) == 1 else "the scripts"
        raise SourceError(
            f"{source}: holds only {what} {scripts} and no package or pyproject.toml; pass "
            "a project folder, or one module file to analyse it as a package"
        )
    if len(packages) == 1:
        return PackageLocation(packages[0][0], packages[0][1], source)
    if not packages:
        raise SourceError(_no_package(source))
    names = ", ".join(sorted(name for name, _ in packages))
    raise SourceError(f"{source}: several packages ({names}); choose one with --package NAME")


def _no_package(source: Path) -> str:
    """What to do where no package is at the top: the projects found deeper (a monorepo's
    root), or that this is no project folder at all (an empty folder)."""
    spaces = sorted(
        entry.name
        for folder in (source, source / "src")
        if folder.is_dir()
        for entry in folder.iterdir()
        if entry.name not in _SKIP_DIRS
        and entry.name not in _NOT_PACKAGES
        and not entry.name.startswith((".", "_"))
        and _is_namespace_dir(entry)
    )
    if spaces:
        return (
            f"{source}: no regular package (with __init__.py) here; namespace packages (PEP "
            f"420): {', '.join(spaces[:8])}; name the one to analyse with --package NAME"
        )
    found = _deeper_projects(source)
    if found:
        shown = ", ".join(f"{folder} ({name})" for folder, name in found[:8])
        more = f" and {len(found) - 8} more" if len(found) > 8 else ""
        return (
            f"{source}: no Python package at the top; projects below it: {shown}{more}; run "
            "apisurface in one of those folders (or name its package with --package NAME)"
        )
    return (
        f"{source}: no Python package found (no package folder, module or pyproject.toml "
        "here); run apisurface in a project folder, or name one: apisurface snapshot PATH"
    )


def _deeper_projects(source: Path, depth: int = 4) -> list[tuple[str, str]]:
    """The project folders below ``source`` (with a ``pyproject.toml`` or ``setup.py``) and
    the package each holds, as a monorepo lays them out (``packages/a``)."""
    found: list[tuple[str, str]] = []
    base = len(source.parts)
    for dirpath, dirnames, _ in os.walk(source):
        here = Path(dirpath)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".") and d not in _SKIP_DIRS and not (here / d).is_symlink()
        )
        if len(here.parts) - base >= depth:
            dirnames[:] = []
        if here == source or not _is_project_dir(here):
            continue
        name = _project_name(here)
        candidates = [item[0] for item in (_candidates(here / "src") or _candidates(here))]
        package = name if name in candidates else ", ".join(candidates[:3]) or "no package"
        found.append((here.relative_to(source).as_posix(), package))
        dirnames[:] = []  # a project's own folders are its own
        if len(found) > 50:
            break
    return found


def _nested(project: PackageLocation, package: str) -> PackageLocation:
    """Narrow a project to a subpackage named ``a.b`` (its surface paths keep the prefix)."""
    if "." not in package:
        return project
    raise SourceError(
        f"--package {package!r}: give the top-level package "
        f"({package.split('.', maxsplit=1)[0]!r}); "
        "subpackages are analysed as part of it"
    )


def declared_version(project: PackageLocation) -> str | None:
    """The version in ``pyproject.toml`` ([project] version), or where it says a dynamic
    version is (setuptools' ``attr`` or ``file``, hatch's and pdm's ``path``), or else
    ``__version__ = "..."`` of the package."""
    pyproject = project.root / "pyproject.toml"
    try:
        data = tomllib.loads(read_regular(pyproject, MAX_TOML_BYTES).decode("utf-8"))
        section = data.get("project", {})
        version = section.get("version") if isinstance(section, dict) else None
        if isinstance(version, str):
            return version
        poetry = data.get("tool", {}).get("poetry", {})
        version = poetry.get("version") if isinstance(poetry, dict) else None
        if isinstance(version, str):
            return version
        version = _dynamic_version(project, data)
        if version is not None:
            return version
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError, AttributeError):
        pass
    candidates = (
        [project.path]
        if project.is_module
        else [
            project.path / "__init__.py",
            project.path / "_version.py",
            project.path / "__version__.py",
            project.path / "__about__.py",
            project.path / "version.py",
        ]
    )
    for candidate in candidates:
        version = _dunder_version(candidate)
        if version is not None:
            return version
    version = _pkg_info_version(project.root / "PKG-INFO")
    if version is None:
        # An unpacked wheel: its one ``*.dist-info/METADATA`` has the same headers.
        try:
            found = sorted(project.root.glob("*.dist-info/METADATA"))
        except OSError:
            found = []
        if len(found) == 1:
            version = _pkg_info_version(found[0])
    return version


def _dynamic_version(project: PackageLocation, data: dict[str, object]) -> str | None:
    """The version a build backend reads for ``dynamic = ["version"]``: setuptools'
    ``[tool.setuptools.dynamic] version = {attr = "pkg.mod.NAME"}`` (or ``{file = "F"}``),
    hatch's ``[tool.hatch.version] path`` and pdm's ``[tool.pdm.version] path`` (a file
    assigning ``__version__``). Read statically; None when it says nothing readable."""
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return None
    root = project.root
    setuptools = tool.get("setuptools", {})
    dynamic = setuptools.get("dynamic", {}) if isinstance(setuptools, dict) else {}
    entry = dynamic.get("version") if isinstance(dynamic, dict) else None
    if isinstance(entry, dict) and isinstance(entry.get("attr"), str):
        module, _, name = entry["attr"].rpartition(".")
        for path in _module_files(project, module):
            found = _assigned_string(path, (name,))
            if found is not None:
                return found
    if isinstance(entry, dict) and isinstance(entry.get("file"), (str, list)):
        files = entry["file"] if isinstance(entry["file"], list) else [entry["file"]]
        if files and isinstance(files[0], str) and _inside(root, files[0]):
            try:
                text = read_regular(root / files[0], 10_000).decode("utf-8").strip()
            except (OSError, UnicodeDecodeError):
                text = ""
            if text and "\n" not in text:
                return text
    for backend in ("hatch", "pdm"):
        table = tool.get(backend, {})
        version = table.get("version", {}) if isinstance(table, dict) else {}
        named = version.get("path") if isinstance(version, dict) else None
        if isinstance(named, str) and _inside(root, named):
            found = _assigned_string(root / named, ("__version__", "VERSION", "version"))
            if found is not None:
                return found
    return None


def _inside(root: Path, relative: str) -> bool:
    """Whether ``relative`` (from a pyproject.toml) names a file inside the project."""
    return not Path(relative).is_absolute() and ".." not in Path(relative).parts


def _module_files(project: PackageLocation, module: str) -> list[Path]:
    """The files that may define the dotted ``module`` of the project's package."""
    parts = module.split(".")
    if not parts or parts[0] != project.package:
        return []
    if project.is_module:
        return [project.path] if len(parts) == 1 else []
    folder = project.path.joinpath(*parts[1:])
    return [folder / "__init__.py", folder.with_suffix(".py")]


def _pkg_info_version(path: Path) -> str | None:
    """The ``Version:`` header of an unpacked source distribution's ``PKG-INFO`` (or a
    wheel's ``METADATA``)."""
    try:
        text = read_regular(path, 10_000_000).decode("utf-8", "replace")
    except OSError:
        return None
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line; the description follows
        key, _, value = line.partition(":")
        if key.strip().lower() == "version" and value.strip():
            return value.strip()
    return None


def _dunder_version(path: Path) -> str | None:
    return _assigned_string(path, ("__version__", "version", "VERSION"))


def _assigned_string(path: Path, names: tuple[str, ...]) -> str | None:
    """The string a module-level assignment to one of ``names`` binds in ``path``."""
    try:
        tree = parse_python(read_regular(path, 1_000_000))
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name) and target.id in names:
                value = node.value  # type: ignore[attr-defined]
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    return value.value
    return None
