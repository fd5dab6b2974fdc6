"""Write files so that a reader sees the old content or the new, never a mix.

The text goes to a temporary file in the same folder, is flushed to disk, and replaces
the target with one ``os.replace``. On any failure (full or read-only disk, an interrupt)
the temporary file is removed and the old file is left as it was.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from apisurface.errors import ApisurfaceError

__all__ = ["write_atomic"]


def _refuse_special(path: Path) -> None:
    """Only a regular file (or nothing) is ever replaced: not a device (``/dev/null``), a
    FIFO, a folder or a symlink, which ``os.replace`` would swap for a regular file, and
    which a pull request can plant where a file is expected. A symlink is refused rather
    than followed, so that what gets written is always the path named."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise ApisurfaceError(f"{path}: cannot write ({error.strerror or error})") from None
    if stat.S_ISREG(mode):
        return
    if stat.S_ISLNK(mode):
        what = "a symlink"
    elif stat.S_ISDIR(mode):
        what = "a folder"
    else:
        what = "not a regular file"
    raise ApisurfaceError(f"{path}: {what}; refusing to replace it (name a regular file)")


def write_atomic(path: Path, data: str | bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically; raise :class:`ApisurfaceError` on failure.

    ``durable=False`` skips the flush to disk, for files that may be lost in a crash but
    must never be seen half-written (cache entries)."""
    try:
        payload = data.encode("utf-8") if isinstance(data, str) else data
    except UnicodeEncodeError:
        raise ApisurfaceError(
            f"{path}: cannot write text holding a lone surrogate (not Unicode text)"
        ) from None
    _refuse_special(path)
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise ApisurfaceError(
            f"{path}: cannot write ({error.strerror or error}); check the folder's permissions"
        ) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            if durable:
                os.fsync(stream.fileno())
        with contextlib.suppress(OSError):
            if path.exists():
                os.chmod(temporary, path.stat().st_mode & 0o777)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise ApisurfaceError(
                f"{path}: cannot write ({error.strerror or error}); the old file is unchanged"
            ) from None
        raise
