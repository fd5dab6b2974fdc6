"""Cache entries as a run holding the cache key writes them (store/seal.py): tests that
craft an entry seal it, so the reader's own checks behind the HMAC are what they test."""

from __future__ import annotations

from pathlib import Path

from apisurface.store.modules import FORMAT as MODULE_FORMAT
from apisurface.store.seal import MAC_LENGTH, seal

_MODULE_HEADER = b"apisurface module entry %d " % MODULE_FORMAT


def _kind(path: Path) -> str:
    """``surface``, ``markers``, ``linked`` or ``module``: an entry lives at
    ``CACHE/KIND/SHARD/KEY.json``."""
    return path.parent.parent.name


def payload(path: Path) -> bytes:
    """What the entry at ``path`` stores, after its HMAC line (or module header)."""
    data = path.read_bytes()
    if _kind(path) == "module":
        return data[len(_MODULE_HEADER) + MAC_LENGTH + 1 + len(path.stem) + 1 :]
    return data[MAC_LENGTH + 1 :]


def store(path: Path, data: bytes) -> None:
    """Write ``data`` as the entry at ``path``, sealed with the key of this process."""
    kind, key = _kind(path), path.stem
    mac = seal(kind, key, data).encode("ascii")
    if kind == "module":
        path.write_bytes(_MODULE_HEADER + mac + b"\n" + key.encode("ascii") + b"\n" + data)
    else:
        path.write_bytes(mac + b"\n" + data)
