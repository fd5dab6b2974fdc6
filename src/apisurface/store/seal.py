"""Cache entries bound to the runs that wrote them: an HMAC with a key the pull request
cannot read (docs/security.md, "The cache").

A cache folder restored in CI may hold entries a pull request wrote, and an entry's key is
computable by anyone (a hash of the inputs): a well-formed surface entry forged under the
base's real key hid a removal. So every entry carries an HMAC-SHA256 of its kind, key and
bytes, made with a secret that never lives in the cache folder:

- ``$APISURFACE_CACHE_KEY`` when set (CI: a repository secret, which workflows of pull
  requests from forks are not given; the Action's ``cache-key`` input);
- else a key file of the user, ``$XDG_CONFIG_HOME/apisurface/cache-key`` (``~/.config``;
  ``%APPDATA%`` on Windows), 32 random bytes made on first use, readable by its owner only;
- else (no writable home) a key for this process alone: the cache then serves one run.

An entry whose HMAC does not verify is a miss, never read further: its JSON is not even
parsed. What a shared cache can still do without the key: make misses (time), fill the
disk, remove entries; it cannot change a verdict.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import sys
from pathlib import Path

from apisurface.project.safeio import read_regular

__all__ = ["KEY_ENV", "MAC_LENGTH", "key_file", "seal", "sealed"]

KEY_ENV = "APISURFACE_CACHE_KEY"
MAC_LENGTH = 64
"""Hex digits of an entry's HMAC-SHA256."""


def key_file() -> Path:
    """Where the user's own key is kept: beside the user's configuration, never in the
    cache folder (which CI may restore from what a pull request wrote)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "apisurface" / "cache-key"


def _secret() -> bytes:
    configured = os.environ.get(KEY_ENV) or None
    try:
        path: Path | None = None if configured else key_file()
    except RuntimeError:  # no home folder
        path = None
    return _secret_for(configured, path)


@functools.lru_cache(maxsize=4)
def _secret_for(configured: str | None, path: Path | None) -> bytes:
    if configured is not None:
        material = configured.encode("utf-8", "surrogateescape")
        return hashlib.sha256(b"apisurface cache key\x00" + material).digest()
    if path is not None:
        found = _read_key(path)
        if found is None:
            _create_key(path)
            found = _read_key(path)
        if found is not None:
            return found
    return secrets.token_bytes(32)  # this process only


def _read_key(path: Path) -> bytes | None:
    try:
        text = read_regular(path, 4096, follow_symlinks=False).decode("ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, ValueError):
        return None
    return key if len(key) == 32 else None


def _create_key(path: Path) -> None:
    """Write a new random key to ``path`` (owner-only), unless a file is already there
    (another process made it first: that one is read)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(path, flags, 0o600)
    except OSError:
        return
    try:
        os.write(descriptor, secrets.token_hex(32).encode("ascii") + b"\n")
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def seal(kind: str, key: str, payload: bytes) -> str:
    """The HMAC (hex) binding ``payload`` to the entry ``kind``/``key``."""
    message = hmac.new(_secret(), digestmod=hashlib.sha256)
    message.update(kind.encode("ascii", "replace") + b"\x00" + key.encode("ascii", "replace"))
    message.update(b"\x00")
    message.update(payload)
    return message.hexdigest()


def sealed(kind: str, key: str, payload: bytes, mac: bytes | str) -> bool:
    """Whether ``mac`` is the HMAC :func:`seal` gives (compared in constant time)."""
    expected = seal(kind, key, payload).encode("ascii")
    given = mac.encode("ascii", "replace") if isinstance(mac, str) else mac
    return hmac.compare_digest(expected, given)
