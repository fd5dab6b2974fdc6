"""Per-module cache entries: one file's visit product, keyed by its content.

The visit of one file (:func:`apisurface.surface.visit.visit_file`) depends on nothing but
the file: its text, its dotted module name and its path in the package (and the versions of
apisurface, griffe and Python). Its product is stored under a key made of exactly those, so
an edited file costs one visit and every other file is read back. What the product means
and how modules are linked together afterwards is :mod:`apisurface.surface.visit`'s
business; this module only stores and returns bytes, and reads them back only as the
objects a visit can make.

Entries are binary files (a pickle of griffe's tree of one module, detached from its
parent), written atomically beside the surface entries. An entry starts with a header that
repeats its format and key; a missing, corrupt, foreign or truncated entry is a miss, never
fatal. Since a pickle can name any importable callable, entries are read with an unpickler
that only builds the classes a visit creates (griffe's models, expressions and
enumerations, paths and plain containers): anything else is a miss.
"""

from __future__ import annotations

import contextlib
import io
import pickle
import sys
from pathlib import Path
from typing import Any

from apisurface.errors import ApisurfaceError
from apisurface.project.safeio import read_regular
from apisurface.store.atomic import write_atomic
from apisurface.store.cache import inputs_key

__all__ = ["ModuleEntries", "load_product", "module_key"]

FORMAT = 1
"""Raise when the product's layout changes: older entries are then never found."""

_MAX_ENTRY_BYTES = 1 << 30
_HEADER = b"apisurface module entry %d\n" % FORMAT

_GRIFFE_MODULES = frozenset(
    {
        "griffe._internal.models",
        "griffe._internal.expressions",
        "griffe._internal.enumerations",
        "griffe._internal.docstrings.models",
    }
)
_PLAIN: dict[str, frozenset[str]] = {
    "builtins": frozenset(
        {"dict", "list", "set", "frozenset", "tuple", "str", "int", "float", "bool", "bytes"}
    ),
    "collections": frozenset({"defaultdict", "OrderedDict"}),
    "pathlib": frozenset({"Path", "PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath"}),
}


def module_key(module: str, relpath: str, text: str) -> str:
    """The key of one file's visit product: everything the visit reads."""
    python = "%d.%d" % sys.version_info[:2]  # noqa: UP031 - the ast differs between versions
    return inputs_key(["module", str(FORMAT), python, module, relpath, text])


class _Restricted(pickle.Unpickler):
    """Builds only classes of griffe's object model, paths and plain containers."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _GRIFFE_MODULES or name in _PLAIN.get(module, ()):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a module entry")


def load_product(data: bytes) -> Any:
    """Read a product pickled by a visit (here, in a worker, or from an entry)."""
    return _Restricted(io.BytesIO(data)).load()


class ModuleEntries:
    """Visit products stored under ``folder/module``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / "module"

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.pickle"

    def get(self, key: str) -> bytes | None:
        """The product stored under ``key`` (pickled), or None when absent or unusable."""
        try:
            raw = read_regular(self._path(key), _MAX_ENTRY_BYTES)
        except (OSError, ValueError):
            return None
        head = _HEADER + key.encode("ascii") + b"\n"
        if not raw.startswith(head):
            return None
        return raw[len(head) :]

    def put(self, key: str, product: bytes) -> None:
        """Store a pickled product (failures to write are ignored: a miss costs a visit)."""
        data = _HEADER + key.encode("ascii") + b"\n" + product
        with contextlib.suppress(ApisurfaceError):
            write_atomic(self._path(key), data, durable=False, root=self.folder.parent)
