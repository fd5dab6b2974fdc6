"""Write files so that a reader sees the old content or the new, never a mix.

The text goes to a temporary file in the same folder, is flushed to disk, and replaces
the target with one ``os.replace``. On any failure (full or read-only disk, an interrupt)
the temporary file is removed and the old file is left as it was.

Below a ``root`` (the cache folder, whose content a restored CI cache may have planted),
no symlink is followed: each folder is created and opened one level at a time relative to
the one above (``dir_fd``, ``O_NOFOLLOW``), and the temporary file is created and renamed
inside the last one, so a folder swapped for a symlink to elsewhere is refused, not
written through.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from apisurface.errors import ApisurfaceError

__all__ = ["write_atomic"]

_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_DIR_FD = {os.open, os.mkdir, os.stat, os.rename} <= os.supports_dir_fd  # os.replace too


def _refuse_special(path: Path, mode: int | None) -> None:
    """Only a regular file (or nothing) is ever replaced: not a device (``/dev/null``), a
    FIFO, a folder or a symlink, which ``os.replace`` would swap for a regular file, and
    which a pull request can plant where a file is expected. A symlink is refused rather
    than followed, so that what gets written is always the path named."""
    if mode is None or stat.S_ISREG(mode):
        return
    if stat.S_ISLNK(mode):
        what = "a symlink"
    elif stat.S_ISDIR(mode):
        what = "a folder"
    else:
        what = "not a regular file"
    raise ApisurfaceError(f"{path}: {what}; refusing to replace it (name a regular file)")


def _cannot(path: Path, error: OSError, what: str = "check the folder's permissions") -> str:
    return f"{path}: cannot write ({error.strerror or error}); {what}"


def _open_folder(root: Path, folder: Path) -> int:
    """A descriptor of ``folder``, created if need be; below ``root`` each level is created
    and opened relative to the one above without following a symlink."""
    try:
        relative = folder.relative_to(root).parts
    except ValueError:
        raise ApisurfaceError(f"{folder}: not inside {root}; refusing to write there") from None
    root.mkdir(parents=True, exist_ok=True)  # the root itself is named by the user
    descriptor = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    reached = root
    try:
        for part in relative:
            reached = reached / part
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o777, dir_fd=descriptor)
            try:
                below = os.open(part, _DIRECTORY, dir_fd=descriptor)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    raise ApisurfaceError(
                        f"{reached}: a symlink or not a folder; refusing to write below it "
                        f"(remove it, or use another cache folder)"
                    ) from None
                raise
            os.close(descriptor)
            descriptor = below
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _write_all(descriptor: int, payload: bytes) -> None:
    view = memoryview(payload)
    while view:
        written = os.write(descriptor, view[: 1 << 20])
        view = view[written:]


def write_atomic(
    path: Path,
    data: str | bytes,
    *,
    durable: bool = True,
    root: Path | None = None,
    before_replace: Callable[[], None] | None = None,
) -> None:
    """Replace ``path`` with ``data`` atomically; raise :class:`ApisurfaceError` on failure.

    ``durable=False`` skips the flush to disk, for files that may be lost in a crash but
    must never be seen half-written (cache entries). With ``root``, no component of
    ``path`` below ``root`` may be a symlink (else :class:`ApisurfaceError`).
    ``before_replace`` is called when the new content is on disk, just before it replaces
    the old: what it raises leaves the old file as it is (``migrate --write`` checks there
    that nobody changed the file since it was read)."""
    try:
        payload = data.encode("utf-8") if isinstance(data, str) else data
    except UnicodeEncodeError:
        raise ApisurfaceError(
            f"{path}: cannot write text holding a lone surrogate (not Unicode text)"
        ) from None
    if not _DIR_FD:  # pragma: no cover - Windows: no dir_fd, check each level instead
        _write_by_path(path, payload, durable=durable, root=root, before_replace=before_replace)
        return
    try:
        folder = _open_folder(root if root is not None else path.parent, path.parent)
    except OSError as error:
        raise ApisurfaceError(_cannot(path, error)) from None
    try:
        _write_in(folder, path, payload, durable=durable, before_replace=before_replace)
    finally:
        os.close(folder)


def _write_in(
    folder: int,
    path: Path,
    payload: bytes,
    *,
    durable: bool,
    before_replace: Callable[[], None] | None,
) -> None:
    name = path.name
    try:
        mode: int | None = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise ApisurfaceError(_cannot(path, error)) from None
    _refuse_special(path, mode)
    temporary = f".{name}.{secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        handle = os.open(temporary, flags, 0o666, dir_fd=folder)  # the umask applies
    except OSError as error:
        raise ApisurfaceError(_cannot(path, error)) from None
    try:
        try:
            if mode is not None:
                with contextlib.suppress(OSError):
                    os.fchmod(handle, stat.S_IMODE(mode) & 0o777)
            _write_all(handle, payload)
            if durable:
                os.fsync(handle)
        finally:
            os.close(handle)
        if before_replace is not None:
            before_replace()
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        if isinstance(error, OSError):
            raise ApisurfaceError(_cannot(path, error, "the old file is unchanged")) from None
        raise


def _write_by_path(
    path: Path,
    payload: bytes,
    *,
    durable: bool,
    root: Path | None,
    before_replace: Callable[[], None] | None,
) -> None:  # pragma: no cover - Windows only
    import tempfile  # noqa: PLC0415

    try:
        if root is not None:
            folder = root
            for part in path.parent.relative_to(root).parts:
                folder = folder / part
                if folder.is_symlink():
                    raise ApisurfaceError(f"{folder}: a symlink; refusing to write below it")
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode: int | None = os.lstat(path).st_mode
        except FileNotFoundError:
            mode = None
        _refuse_special(path, mode)
        prefix = f".{path.name}."
        handle, temporary = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
    except (OSError, ValueError) as error:
        raise ApisurfaceError(f"{path}: cannot write ({error})") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            if durable:
                os.fsync(stream.fileno())
        if before_replace is not None:
            before_replace()
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise ApisurfaceError(_cannot(path, error, "the old file is unchanged")) from None
        raise
