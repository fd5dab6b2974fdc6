"""Where a loaded input's source files are, so reports can point at them.

Symbol locations are relative to the folder holding the package (``src/`` in a src layout,
the project folder in a flat one). CI annotations need paths relative to the repository,
so this module finds that folder for a source folder or a git ref, relative to the
repository's top (or to the current folder outside a repository). It is best effort: when
it cannot tell, it returns ``""`` and locations stay relative to the package's folder.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from apisurface.project.git import Repository
from apisurface.project.project import Project

__all__ = ["source_root"]


def _relative(folder: Path, cwd: Path) -> str:
    top = Repository(cwd).top_or_none()
    base = top if top is not None else cwd
    try:
        relative = os.path.relpath(folder.resolve(), base.resolve())
    except ValueError:  # another drive on Windows
        return folder.resolve().as_posix()
    return "" if relative == "." else PurePosixPath(Path(relative).as_posix()).as_posix()


def source_root(
    spec: str,
    kind: str,
    package: str,
    cwd: Path | None = None,
    *,
    project: Project | None = None,
) -> str:
    """The folder (relative to the repository) that locations of input ``spec`` start from.

    ``kind`` is how the input was read (``"folder"``, ``"git"`` or ``"snapshot"``); for a
    folder, ``project`` is the project read from it.
    """
    cwd = cwd or Path.cwd()
    if kind == "folder":
        return "" if project is None else _relative(project.path.parent, cwd)
    if kind == "git":
        listing = Repository(cwd).file_names(spec)
        if listing is None:
            return ""
        best: PurePosixPath | None = None
        for line in listing:
            name = PurePosixPath(line)
            if name.name == "__init__.py" and name.parent.name == package:
                folder = name.parent.parent
            elif name.name == f"{package}.py":
                folder = name.parent
            else:
                continue
            if best is None or (len(folder.parts), str(folder)) < (len(best.parts), str(best)):
                best = folder
        return "" if best is None or str(best) == "." else best.as_posix()
    return ""
