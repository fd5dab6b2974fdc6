"""How ``migrate --write`` writes a user's file: never a byte the user wrote is lost.

What is rewritten is :mod:`apisurface.release.impact`'s business; this module decides
whether and how the result reaches the disk (docs/security.md, "migrate --write"):

- a name becomes code only when it is a dotted Python name, each part an identifier and
  not a keyword (:func:`is_python_path`): a spec or snapshot renaming ``pkg.f`` to
  ``None.f`` or ``pkg.a²`` is refused before libcst sees it;
- a file is rewritten only when libcst gives its bytes back unchanged when nothing is
  changed (:func:`rewritten_bytes`: a lone CR at the end or a form feed at the start was
  dropped), and when the new names can be written in the file's own encoding (a latin-1
  file is not given a name latin-1 cannot spell);
- the file is read again just before it is replaced, inside the atomic write, and left
  as it is when it changed since it was read (:func:`replace_unchanged`: an edit saved in
  an editor while ``migrate`` ran);
- every one of these is one line naming the file, the file unchanged.
"""

from __future__ import annotations

import keyword
from pathlib import Path
from typing import TYPE_CHECKING

from apisurface.errors import ApisurfaceError
from apisurface.project.safeio import read_regular
from apisurface.project.sources import MAX_FILE_BYTES
from apisurface.store.atomic import write_atomic

if TYPE_CHECKING:
    import libcst as cst

__all__ = ["is_python_name", "is_python_path", "replace_unchanged", "rewritten_bytes"]


def is_python_name(name: str) -> bool:
    """Whether ``name`` can be written as a Python name: an identifier, not a keyword."""
    return name.isidentifier() and not keyword.iskeyword(name)


def is_python_path(path: str) -> bool:
    """Whether every part of the dotted ``path`` is a Python name (:func:`is_python_name`)."""
    return all(map(is_python_name, path.split(".")))


def rewritten_bytes(
    original: cst.Module, rewritten: cst.Module, data: bytes, file: str
) -> tuple[bytes | None, str | None]:
    """The bytes of ``rewritten`` (the module libcst parsed from ``data``, changed), or
    ``None`` and a one-line problem: libcst does not give ``data`` back byte for byte, or
    a new name cannot be written in the file's encoding."""
    try:
        unchanged = original.bytes
    except UnicodeEncodeError:
        unchanged = b""
    if unchanged != data:
        where = _first_difference(data, unchanged)
        return None, (
            f"{file}: libcst does not read this file back byte for byte (at byte {where}); "
            "not rewritten"
        )
    try:
        return rewritten.bytes, None
    except UnicodeEncodeError as error:
        text = error.object if isinstance(error.object, str) else ""
        what = text[error.start : error.end]
        return None, (
            f"{file}: {what!r} cannot be written in the file's encoding "
            f"({original.encoding}); not rewritten"
        )


def _first_difference(left: bytes, right: bytes) -> int:
    for index, (a, b) in enumerate(zip(left, right, strict=False)):
        if a != b:
            return index
    return min(len(left), len(right))


class _Changed(ApisurfaceError):
    """The file is no longer what was read."""


def replace_unchanged(path: Path, original: bytes, rewritten: bytes) -> str | None:
    """Replace ``path`` (read as ``original``) with ``rewritten`` atomically, unless it
    changed since it was read; ``None``, or a one-line problem (the file unchanged)."""

    def still_original() -> None:
        try:
            now = read_regular(path, MAX_FILE_BYTES, follow_symlinks=False)
        except OSError as error:
            raise _Changed(f"cannot read it again ({error.strerror or error})") from None
        if now != original:
            raise _Changed("changed since migrate read it")

    try:
        write_atomic(path, rewritten, durable=True, before_replace=still_original)
    except _Changed as error:
        return f"{path}: {error}; not rewritten (run migrate again)"
    except ApisurfaceError as error:
        return str(error)
    return None
