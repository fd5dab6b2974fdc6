"""Standard-library classes, looked up by importing the standard library only.

The link and the diff ask three questions of a base the surface does not hold: whether a
standard-library class hashes its instances (``list`` sets ``__hash__`` to None), which
attributes it has (a member removed from a class may still be inherited from
``io.RawIOBase``), and whether one standard-library class derives from another
(``Exception`` replaced by ``ValueError`` is still in the method resolution order;
``IOError`` is ``OSError``). Only
standard-library modules are imported, never the analysed code, and none that acts when
imported; the answers are those of the Python that runs apisurface.
"""

from __future__ import annotations

import functools
import importlib
import sys

__all__ = ["standard_attribute", "standard_class", "standard_subclass"]

# Standard-library modules that do something when imported (open a browser, print, start
# a window system): never imported to look a base class up.
_ACTIVE_MODULES = frozenset(
    {"antigravity", "this", "idlelib", "turtle", "turtledemo", "tkinter", "__hello__", "__phello__"}
)


@functools.cache
def standard_class(base: str) -> type | None:
    """The standard-library (or builtin) class ``base`` names, other than ``object``;
    None for any other."""
    module, _, cls = base.rpartition(".")
    module = module or "builtins"
    top = module.partition(".")[0]
    if top not in sys.stdlib_module_names or top in _ACTIVE_MODULES:
        return None
    try:
        found = getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError, ValueError):
        return None
    found = getattr(found, "__origin__", found)  # typing.Iterable -> collections.abc.Iterable
    return found if isinstance(found, type) and found is not object else None


def standard_attribute(base: str, name: str) -> tuple[object] | None:
    """The attribute ``name`` of the standard-library class ``base`` (in a 1-tuple, as
    it may be None itself), or None when ``base`` is no such class or has no such name."""
    cls = standard_class(base)
    if cls is None or not hasattr(cls, name):
        return None
    return (getattr(cls, name),)


def standard_subclass(base: str, wanted: str) -> bool:
    """Whether the standard-library class ``base`` is, or derives from, the standard-library
    class ``wanted`` (``ValueError`` from ``Exception``, ``IOError`` is ``OSError``,
    ``collections.abc.Sequence`` from ``collections.abc.Iterable``). Virtual subclasses
    registered with an ABC do not count: they are not in the method resolution order."""
    sub, sup = standard_class(base), standard_class(wanted)
    return sub is not None and sup is not None and sup in sub.__mro__
