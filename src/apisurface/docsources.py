"""Names the project's API docs declare (POLICY.md section 2, "documented").

Sphinx (``autoclass``/``autofunction``/..., ``.. class::`` under ``.. module::``,
``automodule`` with ``:undoc-members:``) and mkdocstrings (``::: pkg.mod.obj``) sources in
``docs/`` or ``doc/`` of the project root, or where ``[tool.apisurface] docs`` points.
Read as text; nothing is built or imported.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DocsIndex", "scan_docs"]

_DIRECTIVE = re.compile(
    r"^\s*\.\.\s+(?:py:)?(auto)?(module|currentmodule|class|function|method|attribute|data|"
    r"exception|property|decorator|classmethod|staticmethod)::\s*([\w.]+)",
)
_OPTION = re.compile(r"^\s+:(undoc-members|members):")
_MKDOCSTRINGS = re.compile(r"^\s*:::\s*([\w.]+)")
_SUFFIXES = (".rst", ".md", ".txt", ".markdown")
_MAX_BYTES = 4 * 1024 * 1024


@dataclass(slots=True)
class DocsIndex:
    """Dotted names the docs name, and prefixes whose members are all documented."""

    names: set[str] = field(default_factory=set)
    all_members: set[str] = field(default_factory=set)

    def names_path(self, *paths: str) -> bool:
        """Whether any of ``paths`` is declared by the docs."""
        for path in paths:
            if path in self.names or path.rpartition(".")[0] in self.all_members:
                return True
        return False


def scan_docs(project_root: Path, configured: tuple[str, ...] = ()) -> DocsIndex:
    """Collect the declared names from every docs source below the docs folders."""
    index = DocsIndex()
    folders = [project_root / folder for folder in configured] or [
        project_root / "docs",
        project_root / "doc",
    ]
    for folder in folders:
        if not folder.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_build")))
            for filename in sorted(filenames):
                if filename.endswith(_SUFFIXES):
                    _scan_file(Path(dirpath, filename), index)
    return index


def _scan_file(path: Path, index: DocsIndex) -> None:
    try:
        if path.is_symlink() or path.stat().st_size > _MAX_BYTES:
            return
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
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
