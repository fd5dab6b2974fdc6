"""What a class inherits, as the walk lists it (:mod:`apisurface.surface.link.walker`).

The members a class inherits are its bases' own members, nearer bases winning
(:func:`inherited_members`); a :class:`Plan` says, for one class, which inherited names are
excluded and which objects may be listed at the subclass (once the walk knows which classes
have a public path of their own); :func:`declare_from_base` gives an attribute set on
instances the annotation a base declares for it.
"""

from __future__ import annotations

from typing import NamedTuple

import griffe

from apisurface.model import ExclusionReason
from apisurface.surface.linearize import class_mro
from apisurface.surface.link.moduleread import type_checking_members

__all__ = ["Plan", "declare_from_base", "inherited_members"]


class Plan(NamedTuple):
    """What a class inherits (``Walker.plan``): the names excluded, with their reason, and
    the objects to list, grouped by the class defining them (its object, or None), each
    group in name order."""

    exclusions: tuple[tuple[str, ExclusionReason], ...]
    owners: tuple[tuple[griffe.Object | None, list[tuple[str, griffe.Object]]], ...]


def inherited_members(cls: griffe.Class) -> dict[str, griffe.Object | griffe.Alias]:
    """What ``cls.inherited_members`` lists, as the base classes' own member objects:
    griffe wraps each in a new ``Alias`` per subclass, which resolves to the same object
    (sympy: 1.2M aliases). Resolving goes through ``Walker.resolve`` either way."""
    found: dict[str, griffe.Object | griffe.Alias] = {}
    for base in reversed(class_mro(cls)):
        found.update(base.members)  # nearer bases last: theirs win
        for name in type_checking_members(base):
            if name in base.members:
                found.pop(name, None)  # declared for type checkers only: absent at run time
    for name in cls.members:
        found.pop(name, None)
    return found


def declare_from_base(obj: griffe.Object, cls: griffe.Class) -> None:
    """Give an attribute a class sets on instances without an annotation
    (``self.lock_file = ...`` in ``__init__``) the annotation a base class declares for that
    name (``lock_file: str``): it initialises that declared field, of that type for a type
    checker (filelock 4.3.1 moved the declarations to a private base). A class-level value
    (``inherit_cache = True``) keeps the type of its own value."""
    if (
        not isinstance(obj, griffe.Attribute)
        or obj.annotation is not None
        or obj.parent is not cls
        or "instance-attribute" not in obj.labels
        or "class-attribute" in obj.labels
    ):
        return  # a class-level value overriding a base's default is a setting of its own
    for base in class_mro(cls):
        if base is cls:
            continue
        declared = base.members.get(obj.name)
        if declared is None or declared.is_alias:
            continue
        if isinstance(declared, griffe.Attribute) and declared.annotation is not None:
            obj.annotation = declared.annotation
        return
