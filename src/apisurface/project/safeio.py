"""Reading files that a pull request controls: only regular files, never more than a cap.

A FIFO or a device planted where a source, doc or snapshot file is expected would hang the
run or feed it without end (``/dev/zero``). Files are opened without blocking and without
a controlling terminal, checked on the open descriptor (no race between check and read),
and read up to the cap.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["MAX_TEXT_BYTES", "MAX_TOML_BYTES", "NotRegularFile", "TooLarge", "read_regular"]

MAX_TOML_BYTES = 16 * 1024 * 1024
MAX_TEXT_BYTES = 16 * 1024 * 1024


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a folder."""


class TooLarge(OSError):
    """The file is larger than the cap."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (symlinks followed); raise
    :class:`NotRegularFile`, :class:`TooLarge` or another ``OSError``."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(0, "not a regular file")
        if info.st_size > limit:
            raise TooLarge(0, f"larger than {_size(limit)}")
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:  # grew since fstat
            raise TooLarge(0, f"larger than {_size(limit)}")
        return data
    finally:
        os.close(descriptor)


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"
