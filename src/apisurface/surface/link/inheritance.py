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

from apisurface.model import ExclusionReason, Problem
from apisurface.surface.access import source_name
from apisurface.surface.linearize import class_mro
from apisurface.surface.link.moduleread import type_checking_members
from apisurface.surface.stdlib import standard_attribute, standard_class

__all__ = [
    "Plan",
    "declare_from_base",
    "documented_outside",
    "inherited_members",
    "outside_bases",
    "unread_documentation",
]


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


def outside_bases(cls: griffe.Class) -> tuple[str, ...]:
    """The bases of ``cls`` and of the package's classes it inherits from that are outside
    the package (``dict``, ``collections.abc.MutableMapping``, ``click.Group``), as dotted
    names, nearest first; memoised on the class."""
    memo = cls.extra["apisurface"]
    found: tuple[str, ...] | None = memo.get("outside_bases")
    if found is None:
        names: dict[str, None] = {}
        for klass in (cls, *class_mro(cls)):
            for base in klass.bases:
                expression = base.left if isinstance(base, griffe.ExprSubscript) else base
                if not isinstance(expression, (griffe.ExprName, griffe.ExprAttribute)):
                    continue
                try:
                    dotted = expression.canonical_path
                except Exception:  # noqa: BLE001 - unresolvable: spelled as written
                    dotted = str(expression)
                if not _in_collection(klass, dotted):
                    names.setdefault(dotted)
        found = memo["outside_bases"] = tuple(names)
    return found


def _in_collection(cls: griffe.Class, dotted: str) -> bool:
    try:
        cls.modules_collection.get_member(dotted)
    except Exception:  # noqa: BLE001 - not in the package (or not resolvable)
        return False
    return True


def documented_outside(cls: griffe.Class, name: str) -> bool:
    """Whether a standard-library base of ``cls`` (or of the package's classes it inherits
    from) documents its member ``name`` (``dict.get``, ``tzinfo.dst``): an override inherits
    that documentation (POLICY.md 2.5). Read from the standard library itself."""
    for base in outside_bases(cls):
        found = standard_attribute(base, name)
        if found is not None and (getattr(found[0], "__doc__", None) or "").strip():
            return True
    return False


def unread_documentation(cls: griffe.Class, path: str, names: list[str]) -> list[Problem]:
    """A problem for a class (walked at ``path``) that derives from another distribution's
    class and has undocumented methods (``names``): that class may document them (an
    override inherits its base's docstring), which a static reader cannot read."""
    bases = [base for base in outside_bases(cls) if standard_class(base) is None]
    if not bases or not names:
        return []
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    message = (
        f"{path} derives from {', '.join(bases[:3])} of another distribution, whose "
        f"documentation is not read: its undocumented methods ({shown}) may be "
        "documented there; left out"
    )
    return [Problem(source_name(cls.module), message, line=cls.lineno or 0, path=path)]
