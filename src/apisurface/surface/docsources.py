"""Names the project's API docs declare (POLICY.md section 2, "documented").

Sphinx (``autoclass``/``autofunction``/..., ``.. class::`` under ``.. module::``,
``automodule`` with ``:undoc-members:``) and mkdocstrings (``::: pkg.mod.obj``) sources in
``docs/`` or ``doc/`` of the project root, or where ``[tool.apisurface] docs`` points.
Read as text; nothing is built or imported.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from apisurface.project.docsindex import DocsIndex
from apisurface.project.safeio import read_regular

__all__ = ["DOC_SUFFIXES", "MAX_DOC_BYTES", "DocsIndex", "docs_folders", "scan_docs"]

_DIRECTIVE = re.compile(
    r"^\s*\.\.\s+(?:py:)?(auto)?(module|currentmodule|class|function|method|attribute|data|"
    r"exception|property|decorator|classmethod|staticmethod)::\s*([\w.]+)",
)
_OPTION = re.compile(r"^\s+:(undoc-members|members):")
_MKDOCSTRINGS = re.compile(r"^\s*:::\s*([\w.]+)")
# One list for both readers (a folder, a git ref): the same source gives the same surface.
DOC_SUFFIXES = (".rst", ".md", ".txt", ".markdown")
MAX_DOC_BYTES = 4 * 1024 * 1024


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
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_build")))
            for filename in sorted(filenames):
                if filename.endswith(DOC_SUFFIXES):
                    _scan_file(Path(dirpath, filename), index)
    return index


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


def _scan_file(path: Path, index: DocsIndex) -> None:
    try:
        if path.is_symlink():
            return
        text = read_regular(path, MAX_DOC_BYTES).decode("utf-8", errors="replace")
    except OSError:  # a FIFO, a device, too large, unreadable: not docs
        return
    module = ""
    current_class = ""
    last_auto: str | None = None
    for line in text.splitlines():
        match = _MKDOCSTRINGS.match(line)
        if match:
            index.names.add(match.group(1))
            continue
        option = _OPTION.match(line)
        if option and last_auto and option.group(1) == "undoc-members":
            index.all_members.add(last_auto)
            continue
        match = _DIRECTIVE.match(line)
        if not match:
            continue
        auto, directive, name = match.groups()
        if directive in ("module", "currentmodule"):
            module = name
            current_class = ""
            last_auto = name if auto else None
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
        last_auto = qualified if auto else None
