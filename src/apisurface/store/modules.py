"""Per-module cache entries: one file's visit product, keyed by its content.

The visit of one file (:func:`apisurface.surface.visit.modules.visit_file`) depends on nothing but
the file: its text, its dotted module name and its path in the package (and the versions of
apisurface, griffe and Python). Its product is stored under a key made of exactly those, so
an edited file costs one visit and every other file is read back. What the product means,
how it is written as plain data and checked when read back is
:mod:`apisurface.surface.visit.summary`'s business; this module only stores and returns bytes.

Entries are JSON (never a pickle or any other format that can name code), written
atomically beside the surface entries, each after a header line that repeats its format,
the HMAC binding it to the runs holding the cache key (:mod:`apisurface.store.seal`: an
entry without a valid one is never decoded), and its key. The reader is told how large
an entry may be (a multiple of the file's size) and refuses a larger one before reading
it; a missing, foreign, unsealed, truncated or oversized entry is a miss, never fatal.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from apisurface.errors import ApisurfaceError
from apisurface.project.safeio import read_regular
from apisurface.store.atomic import write_atomic
from apisurface.store.cache import inputs_key
from apisurface.store.seal import MAC_LENGTH, seal, sealed

__all__ = ["ModuleEntries", "entry_limit", "module_key"]

FORMAT = 3
"""Raise when the product's layout changes: older entries are then never found.
2: JSON (surface/visit/summary.py) instead of pickles, problems as objects
(apisurface.model.Problem). 3: the HMAC in the header (store/seal.py)."""

_HEADER = b"apisurface module entry %d " % FORMAT


def module_key(module: str, relpath: str, text: str) -> str:
    """The key of one file's visit product: everything the visit reads (the key also holds
    the versions of apisurface and griffe: :func:`apisurface.store.cache.inputs_key`)."""
    python = "%d.%d" % sys.version_info[:2]  # noqa: UP031 - the ast differs between versions
    return inputs_key(["module", str(FORMAT), python, module, relpath, text])


def entry_limit(text: str) -> int:
    """The largest entry a file of ``text`` can have: the products of real visits measured at
    most 9.7 bytes per character of source plus 4 KiB (sympy's ``physics/units/definitions``:
    7.5 KB of imports and ``__all__``, a 112 KB entry; django at most 4.6); about 3x that."""
    return 32 * (len(text) + 4096)


class ModuleEntries:
    """Visit products stored under ``folder/module``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "module"

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str, limit: int) -> bytes | None:
        """The product stored under ``key``, or None when absent, larger than ``limit``
        bytes (never read then) or not an entry for this key."""
        tail = b"\n" + key.encode("ascii") + b"\n"
        size = len(_HEADER) + MAC_LENGTH + len(tail)
        try:
            raw = read_regular(self._path(key), limit + size)
        except (OSError, ValueError):
            return None
        mac = raw[len(_HEADER) : len(_HEADER) + MAC_LENGTH]
        if not raw.startswith(_HEADER) or raw[len(_HEADER) + MAC_LENGTH : size] != tail:
            return None
        product = raw[size:]
        return product if sealed("module", key, product, mac) else None

    def put(self, key: str, product: bytes) -> None:
        """Store an encoded product (failures to write are ignored: a miss costs a visit)."""
        mac = seal("module", key, product).encode("ascii")
        data = _HEADER + mac + b"\n" + key.encode("ascii") + b"\n" + product
        with contextlib.suppress(ApisurfaceError):
            write_atomic(self._path(key), data, durable=False, root=self.folder.parent)
