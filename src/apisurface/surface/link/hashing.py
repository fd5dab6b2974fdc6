"""Whether a class's instances hash: :attr:`apisurface.model.Symbol.unhashable`.

Python looks ``__hash__`` up along the method resolution order, and three things put
``None`` there: a class body that defines ``__eq__`` without ``__hash__`` (the data model
sets ``__hash__ = None``), an explicit ``__hash__ = None``, and a dataclass or attrs class
that compares by value and is not frozen (``dataclasses`` and ``attrs`` set it, unless the
class defines ``__hash__`` itself or asks for one with ``unsafe_hash``/``hash``). A
standard-library base answers for itself (``list`` and ``dict`` set ``__hash__`` to None),
read by importing the standard library only. A base outside the package and the standard
library, a decorator argument that is not a literal, or a class whose order cannot be
linearised leaves the answer unknown (None), and the diff then claims nothing proven.
"""

from __future__ import annotations

from typing import Final

import griffe

from apisurface.surface.access import safe_str
from apisurface.surface.linearize import class_mro, mro_failure
from apisurface.surface.link.moduleread import type_checking_members
from apisurface.surface.link.rendering import render_annotation
from apisurface.surface.link.valueclasses import Decorated, value_class
from apisurface.surface.spelling import base_origin
from apisurface.surface.stdlib import standard_class

__all__ = ["unhashable"]

_INHERITED: Final = "inherited"
"""The class's own namespace says nothing about ``__hash__``: its bases decide."""
_UNTOUCHED: Final = "untouched"
"""A decorator that leaves ``__hash__`` alone (it generates no ``__eq__``)."""

# Names the typing modules spell a class by that the standard library defines elsewhere.
_TYPING_CLASSES = {"NamedTuple": tuple, "TypedDict": dict}


def unhashable(cls: griffe.Class) -> bool | None:
    """True when instances of ``cls`` cannot be hashed (its ``__hash__`` is None), False
    when they can, None when it cannot be told statically. Decided once per class."""
    memo = cls.extra["apisurface"]
    if "unhashable" not in memo:
        memo["unhashable"] = _unhashable(cls)
    return memo["unhashable"]  # type: ignore[no-any-return]


def _unhashable(cls: griffe.Class) -> bool | None:
    own = _own(cls)
    if own != _INHERITED:
        return own  # type: ignore[return-value]
    if mro_failure(cls) is not None:
        return None
    # The first class of the order whose namespace decides, unless a base outside the
    # package written on a class before it (which may come first in the order) disagrees.
    outside: list[bool | None] = []
    decided: bool | str | None = _INHERITED
    for each in (cls, *class_mro(cls)):
        if each is not cls:
            decided = _own(each)
            if decided != _INHERITED:
                break
        outside.extend(_outside_bases(each))
    if decided != _INHERITED:
        agree = all(value == decided for value in outside)
        return decided if agree else None  # type: ignore[return-value]
    if None in outside:
        return None
    if not outside:
        return False  # only ``object``, which hashes by identity
    return outside[0] if len(set(outside)) == 1 else None


def _own(cls: griffe.Class) -> bool | str | None:
    """What the namespace ``cls`` defines says: True (``__hash__`` is None), False (it is
    defined), None (unknown), or :data:`_INHERITED`. Read once per class."""
    memo = cls.extra["apisurface"]
    if "own_hash" not in memo:
        memo["own_hash"] = _read_own(cls)
    return memo["own_hash"]  # type: ignore[no-any-return]


def _read_own(cls: griffe.Class) -> bool | str | None:
    guarded = type_checking_members(cls)
    explicit = None if "__hash__" in guarded else _explicit_hash(cls)
    for decorator in cls.decorators:
        made = value_class(decorator)
        if made is not None:
            decided = _decorated(made, explicit)
            if decided != _UNTOUCHED:
                return decided
    if explicit is not None:
        return explicit
    if "__eq__" in cls.members and "__eq__" not in guarded:
        return True
    return _INHERITED


def _explicit_hash(cls: griffe.Class) -> bool | None:
    """True for ``__hash__ = None`` in the class body, False for any other ``__hash__`` it
    defines, None when it defines none."""
    member = cls.members.get("__hash__")
    if member is None:
        return None
    return isinstance(member, griffe.Attribute) and safe_str(member.value) == "None"


def _decorated(made: Decorated, explicit: bool | None) -> bool | str | None:
    """What a dataclass or attrs decorator leaves in ``__hash__`` (the tables of the
    ``dataclasses`` documentation and of attrs' ``hash``/``unsafe_hash``): as :func:`_own`
    answers, or :data:`_UNTOUCHED`. ``unsafe_hash=False`` is the dataclass default; attrs'
    ``hash=False`` keeps the base's ``__hash__``."""
    if made.eq is None or made.frozen is None or not made.hash_literal:
        return None  # an option decided at run time
    if made.hash:
        return False  # a __hash__ generated whatever the rest says
    if made.hash is False and made.attrs:
        return explicit if explicit is not None else _INHERITED  # attrs: the base's __hash__
    if not made.eq:
        return _UNTOUCHED  # no __eq__ generated: the class body decides as any class's does
    if explicit is not None:
        return None if made.attrs else explicit  # dataclasses keeps a __hash__ the body defines
    return not made.frozen


def _outside_bases(cls: griffe.Class) -> list[bool | None]:
    """For each base of ``cls`` that is not a class of the package: whether its instances
    are unhashable (None when unknown). ``object`` is left out. Read once per class (each
    subclass's order meets it again)."""
    memo = cls.extra["apisurface"]
    if "outside_hash" not in memo:
        memo["outside_hash"] = _read_outside_bases(cls)
    return memo["outside_hash"]  # type: ignore[no-any-return]


def _read_outside_bases(cls: griffe.Class) -> list[bool | None]:
    try:
        resolved = {base.path for base in cls.resolved_bases if isinstance(base, griffe.Class)}
    except Exception:  # noqa: BLE001 - odd bases: none resolved
        resolved = set()
    found: list[bool | None] = []
    for written in cls.bases:
        name = base_origin(render_annotation(written, cls.parent))
        if name in resolved or name in ("object", "builtins.object"):
            continue
        found.append(_standard_unhashable(name, cls.package.path))
    return found


def _standard_unhashable(name: str, package: str) -> bool | None:
    """Whether the standard-library class ``name`` has ``__hash__`` None; None for a class
    of the package that did not resolve or one from elsewhere."""
    if name == package or name.startswith(f"{package}."):
        return None
    module, _, last = name.rpartition(".")
    if module in ("typing", "typing_extensions") and last in _TYPING_CLASSES:
        return _TYPING_CLASSES[last].__hash__ is None
    if module == "typing_extensions":
        name = f"typing.{last}"  # the same object on the Pythons that have it
    found = standard_class(name)
    if found is None:
        return None
    return found.__hash__ is None
