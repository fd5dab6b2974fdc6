"""Names the project's API docs declare (POLICY.md section 2, "documented").

Sphinx (``autoclass``/``autofunction``/..., ``.. class::`` under ``.. module::``,
``automodule`` with ``:undoc-members:``) and mkdocstrings (``::: pkg.mod.obj``) sources in
``docs/`` or ``doc/`` of the project root, or where ``[tool.apisurface] docs`` points.
Read as text; nothing is built or imported.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path, PurePosixPath

from apisurface.project.docsindex import DocsIndex
from apisurface.project.pytext import parse_python
from apisurface.project.safeio import read_regular

__all__ = [
    "DOC_SUFFIXES",
    "MAX_DOC_BYTES",
    "DocsIndex",
    "docs_folders",
    "follow_other_import_names",
    "scan_docs",
]

_DIRECTIVE = re.compile(
    r"^\s*\.\.\s+(?:py:)?(auto)?(module|currentmodule|class|function|method|attribute|data|"
    r"exception|property|decorator|classmethod|staticmethod)::\s*([\w.]+)",
)
_OPTION = re.compile(r"^\s+:(undoc-members|members):")
_MKDOCSTRINGS = re.compile(r"^\s*:::\s*([\w.]+)")
# One list for both readers (a folder, a git ref): the same source gives the same surface.
DOC_SUFFIXES = (".rst", ".md", ".txt", ".markdown")
MAX_DOC_BYTES = 4 * 1024 * 1024
MAX_MODULE_BYTES = 4 * 1024 * 1024
MAX_NAME_PARTS = 100
"""A docs name of more parts names nothing: no public path is that long (the walk reads
32 levels of modules and classes, and a deeper one is a problem of the surface). One line
``.. autofunction:: x.a.a.a...`` of 16,000 parts cost 36 s and 1 GB."""


def scan_docs(project_root: Path, configured: tuple[str, ...] = ()) -> DocsIndex:
    """Collect the declared names from every docs source below the docs folders."""
    index = DocsIndex()
    try:
        real_root = project_root.resolve()
    except (OSError, RuntimeError):
        return index
    for folder in docs_folders(project_root, configured):
        try:
            inside = folder.resolve().is_relative_to(real_root)
        except (OSError, RuntimeError):  # a symlink loop
            continue
        if not inside or not folder.is_dir():
            continue  # a symlinked docs folder may point anywhere: not the project's docs
        files: list[Path] = []
        defaults: frozenset[str] = frozenset()
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_build")))
            for filename in sorted(filenames):
                if filename.endswith(DOC_SUFFIXES):
                    files.append(Path(dirpath, filename))
                elif filename == "conf.py":
                    defaults |= sphinx_default_options(Path(dirpath, filename))
        for file in files:
            _scan_file(file, index, defaults)
    return index


def follow_other_import_names(index: DocsIndex, folder: Path, package: str, root: Path) -> None:
    """Add to ``index`` what the docs name under the project's other import name: a docs name
    ``other.mod.X`` where ``other`` is another top-level package in ``folder`` (the folder
    holding ``package``) whose module ``other/mod.py`` takes ``X`` from a module of
    ``package`` (``from package.mod import *`` or ``from package.mod import X``) also names
    ``package.mod.X`` (attrs 22.1 documents ``attrs.setters.NO_OP``, which is
    ``attr.setters.NO_OP``). One step, read as text: nothing is imported; files outside
    ``root`` or not regular are not read."""
    if "." in package:
        return  # a namespace package's folder holds its siblings, not other import names
    files: dict[tuple[str, ...], Path | None] = {}
    parsed: dict[Path, list[ast.ImportFrom]] = {}

    def module_file(parts: list[str]) -> Path | None:
        key = tuple(parts)
        if key not in files:
            files[key] = _module_file(folder, parts, root)
        return files[key]

    def imports(path: Path) -> list[ast.ImportFrom]:
        if path not in parsed:
            parsed[path] = _imports_from(path, package)
        return parsed[path]

    names: set[str] = set()
    for name in sorted(index.names):
        # Under ``.. currentmodule:: attr``, ``.. data:: attrs.setters.NO_OP`` is qualified
        # as ``attr.attrs.setters.NO_OP``; the other package's name is what is written.
        if name.startswith(package + "."):
            name = name[len(package) + 1 :]  # noqa: PLW2901
        head, _, rest = name.partition(".")
        if not rest or head == package or not head.isidentifier():
            continue
        parts = rest.split(".")
        for split in range(_deepest_split(folder / head, parts), -1, -1):
            found = module_file([head, *parts[:split]])
            if found is not None:
                target = _imported_from(imports(found), parts[split:], package)
                if target is not None:
                    names.add(target)
                break
    # ``automodule:: other.mod`` with ``:undoc-members:``: the modules it star-imports.
    modules: set[str] = set()
    for name in sorted(index.all_members):
        if name.partition(".")[0] in ("", package):
            continue
        found = module_file(name.split("."))
        if found is not None:
            modules.update(_star_imported(imports(found)))
    index.names.update(names)
    index.all_members.update(modules)


def _deepest_split(base: Path, parts: list[str]) -> int:
    """How many of ``parts`` can name a module below the folder ``base``: ``a.b.c`` can
    be ``a/b/c.py`` only if ``a/b`` is a folder, so the folders are walked down first
    (as deep as they go) and only the names they reach are tried, not every prefix."""
    reached = 0
    while reached < len(parts) - 1 and parts[reached].isidentifier():
        base = base / parts[reached]
        try:
            if not base.is_dir():
                break
        except (OSError, ValueError):  # a name too long for the file system
            break
        reached += 1
    return min(len(parts) - 1, reached + 1)


def _module_file(folder: Path, parts: list[str], root: Path) -> Path | None:
    """The file of the module ``parts`` below ``folder`` (``a/b.py`` or
    ``a/b/__init__.py``), when it is a regular file inside ``root``."""
    if not all(part.isidentifier() for part in parts):
        return None
    base = folder.joinpath(*parts)
    for candidate in (base.with_name(base.name + ".py"), base / "__init__.py"):
        try:
            if candidate.is_symlink() or not candidate.is_file():
                continue
            if not candidate.resolve().is_relative_to(root.resolve()):
                continue
        except (OSError, RuntimeError):
            continue
        return candidate
    return None


def _imports_from(module_file: Path, package: str) -> list[ast.ImportFrom]:
    """The module-level ``from package... import`` statements of ``module_file``."""
    try:
        tree = parse_python(read_regular(module_file, MAX_MODULE_BYTES))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [
        node
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        and not node.level
        and node.module is not None
        and (node.module == package or node.module.startswith(package + "."))
    ]


def _star_imported(imports: list[ast.ImportFrom]) -> list[str]:
    """The modules of the package that ``imports`` star-import."""
    return [
        node.module
        for node in imports
        if node.module and any(alias.name == "*" for alias in node.names)
    ]


def _imported_from(imports: list[ast.ImportFrom], rest: list[str], package: str) -> str | None:
    """The path in ``package`` that ``rest`` (a name and its attributes) of a module with
    these ``imports`` (from ``package``) is imported from, or None."""
    name, tail = rest[0], rest[1:]
    found: str | None = None
    for node in imports:
        for alias in node.names:
            if alias.name == "*" or (alias.asname or alias.name) == name:
                source = name if alias.name == "*" else alias.name
                found = ".".join([node.module or package, source, *tail])
    return found


def docs_folders(project_root: Path, configured: tuple[str, ...] = ()) -> list[Path]:
    """The docs folders to read: the configured ones that stay inside the project (no
    absolute path, no ``..``: a pull request's ``docs = ["/"]`` must not walk the whole file
    system), else ``docs/`` and ``doc/``."""
    if not configured:
        return [project_root / "docs", project_root / "doc"]
    folders: list[Path] = []
    for folder in configured:
        relative = PurePosixPath(folder.replace("\\", "/"))
        if relative.is_absolute() or ".." in relative.parts or ":" in folder:
            continue
        folders.append(project_root.joinpath(*relative.parts))
    return folders


_DEFAULT_OPTIONS = ("autodoc_default_options", "autodoc_default_flags")


def sphinx_default_options(conf: Path) -> frozenset[str]:
    """The autodoc options a Sphinx ``conf.py`` turns on for every directive
    (``autodoc_default_options = {"members": True, "undoc-members": True}``, or the older
    ``autodoc_default_flags = ["members"]``), read with ``ast``: nothing is executed. An
    option set to ``False`` or ``None`` is off; anything else (a string of names) is on."""
    try:
        if conf.is_symlink():
            return frozenset()
        tree = parse_python(read_regular(conf, MAX_MODULE_BYTES))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    found: set[str] = set()
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in _DEFAULT_OPTIONS
        ):
            continue
        value = node.value
        if isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values, strict=True):
                off = isinstance(item, ast.Constant) and item.value in (False, None)
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and not off:
                    found.add(key.value)
        elif isinstance(value, (ast.List, ast.Tuple)):
            found.update(
                item.value
                for item in value.elts
                if isinstance(item, ast.Constant) and isinstance(item.value, str)
            )
    return frozenset(found)


def _apply_options(index: DocsIndex, name: str, options: set[str], *, module: bool) -> None:
    """What an ``automodule``/``autoclass`` directive with ``options`` documents beyond
    ``name``: ``:undoc-members:`` all its members; with ``:members:`` as well, the members
    of the classes it documents too (autodoc hands its options down to them)."""
    if "undoc-members" not in options:
        return
    index.all_members.add(name)
    if "members" in options and (module or name):
        index.deep_members.add(name)


def _within(name: str) -> bool:
    """Whether the docs name ``name`` has at most :data:`MAX_NAME_PARTS` parts."""
    return name.count(".") < MAX_NAME_PARTS


def _scan_file(path: Path, index: DocsIndex, defaults: frozenset[str] = frozenset()) -> None:
    try:
        if path.is_symlink():
            return
        text = read_regular(path, MAX_DOC_BYTES).decode("utf-8", errors="replace")
    except OSError:  # a FIFO, a device, too large, unreadable: not docs
        return
    module = ""
    current_class = ""
    last_auto: str | None = None
    last_is_module = False
    options: set[str] = set()

    def flush() -> None:
        if last_auto is not None:
            _apply_options(index, last_auto, options | defaults, module=last_is_module)

    for line in text.splitlines():
        match = _MKDOCSTRINGS.match(line)
        if match:
            if _within(match.group(1)):
                index.names.add(match.group(1))
            continue
        option = _OPTION.match(line)
        if option and last_auto:
            options.add(option.group(1))
            continue
        match = _DIRECTIVE.match(line)
        if not match:
            continue
        flush()
        options = set()
        auto, directive, name = match.groups()
        if not _within(name):
            last_auto = None
            continue
        if directive in ("module", "currentmodule"):
            module = name
            current_class = ""
            last_auto = name if auto else None
            last_is_module = True
            if auto:
                index.names.add(name)
            continue
        member = directive in ("method", "attribute", "property", "classmethod", "staticmethod")
        if member and current_class and "." not in name:
            qualified = f"{current_class}.{name}"
        elif module and not name.startswith(module + "."):
            qualified = f"{module}.{name}"
        else:
            qualified = name
        index.names.add(qualified)
        if directive in ("class", "exception"):
            current_class = qualified
        last_auto = qualified if auto and directive in ("class", "exception") else None
        last_is_module = False
    flush()
