"""Reading files that a pull request controls: only regular files, never more than a cap.

A FIFO or a device planted where a source, doc or snapshot file is expected would hang the
run or feed it without end (``/dev/zero``). Files are opened without blocking and without
a controlling terminal, checked on the open descriptor (no race between check and read),
and read up to the cap.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path

__all__ = [
    "MAX_TEXT_BYTES",
    "MAX_TOML_BYTES",
    "NotRegularFile",
    "TooLarge",
    "open_regular",
    "read_regular",
]

MAX_TOML_BYTES = 16 * 1024 * 1024
MAX_TEXT_BYTES = 16 * 1024 * 1024


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a folder."""


class TooLarge(OSError):
    """The file is larger than the cap."""


def open_regular(path: Path, limit: int, *, follow_symlinks: bool = True) -> io.FileIO:
    """``path`` opened for reading when it is a regular file of at most ``limit`` bytes,
    checked on the open descriptor before anything is read; raise :class:`NotRegularFile`
    (also for a symlink when ``follow_symlinks`` is false), :class:`TooLarge` or another
    ``OSError``. The caller reads it bounded (:func:`read_regular` does)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        if not follow_symlinks and error.errno == errno.ELOOP:
            raise NotRegularFile(error.errno, "a symlink, not a regular file") from None
        raise
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(0, "not a regular file")
        if info.st_size > limit:
            raise TooLarge(0, f"larger than {_size(limit)}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb", buffering=0)
    except BaseException:
        os.close(descriptor)
        raise


def read_regular(path: Path, limit: int, *, follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_regular`), never more than
    ``limit``: a file that grew past it since it was checked raises :class:`TooLarge`."""
    with open_regular(path, limit, follow_symlinks=follow_symlinks) as stream:
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(stream.fileno(), min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:  # grew since fstat
        raise TooLarge(0, f"larger than {_size(limit)}")
    return data


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"
