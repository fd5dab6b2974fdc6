"""Types and keywords read from code where nothing is written (POLICY.md section 3: every
change resting on them is *inferred* evidence).

- The type of an unannotated value: a literal (``[...]`` is a ``list``), a comprehension,
  an f-string, or a call of a builtin or standard-library constructor (``frozenset(...)``,
  ``re.compile(...)``, ``collections.OrderedDict(...)``).
- The return type of an unannotated function whose every ``return`` (in its own scope) is
  such a value, ``None``, or a call of a class the package defines: the union of them. A
  function that only ever returns ``None`` (a procedure) or yields gets no type: callers
  of a procedure do not use its result.
- The keywords a function reads from its own ``**kwargs``: ``kwargs.pop("repeat", True)``
  and ``kwargs.get("repeat", True)`` in its own body make ``repeat`` a keyword parameter
  with the default ``True`` as far as callers are concerned.

Everything here reads one function's or one value's own syntax; nothing follows calls.
The syntax of bodies is read by the visit (:mod:`apisurface.surface.visit.bodies`); here
the names it kept as written are resolved.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from apisurface.surface.visit.facts import Body, written_value

__all__ = [
    "CONSTRUCTORS",
    "constructor_type",
    "returned_type",
    "value_type",
]

# Full path of a callable -> the type its call returns, as an annotation spells it.
CONSTRUCTORS: dict[str, str] = {
    **{
        name: name
        for name in (
            "list",
            "tuple",
            "set",
            "frozenset",
            "dict",
            "str",
            "bytes",
            "bytearray",
            "int",
            "float",
            "complex",
            "bool",
        )
    },
    "re.compile": "re.Pattern",
    **{
        f"collections.{name}": f"collections.{name}"
        for name in ("OrderedDict", "defaultdict", "deque", "Counter", "ChainMap")
    },
    "types.MappingProxyType": "types.MappingProxyType",
    "types.SimpleNamespace": "types.SimpleNamespace",
    "decimal.Decimal": "decimal.Decimal",
    "fractions.Fraction": "fractions.Fraction",
    **{
        f"pathlib.{name}": f"pathlib.{name}"
        for name in ("Path", "PurePath", "PosixPath", "PurePosixPath", "WindowsPath")
    },
}

Resolver = Callable[[str], str | None]
"""A dotted name as written (``re.compile``) -> its full path (``None``: unknown)."""


def constructor_type(path: str) -> str | None:
    """The type a call of the callable at ``path`` returns, for the constructors known."""
    return CONSTRUCTORS.get(path)


def value_type(node: ast.expr, resolve: Resolver, classes: Resolver | None = None) -> str | None:
    """The type of the value ``node`` computes, when its syntax alone says it (``None`` for
    the constant ``None``: the unannotated ``x = None`` idiom says nothing)."""
    read = written_value(node)
    if read is None:
        return None
    is_call, text = read
    return _resolved(text, resolve, classes) if is_call else text


def _resolved(written: str, resolve: Resolver, classes: Resolver | None) -> str | None:
    """The type a call of the dotted name ``written`` returns: a known constructor's, or
    the class's when it is a class of the package."""
    path = resolve(written)
    if path is None:
        return None
    return constructor_type(path) or (classes(path) if classes is not None else None)


def returned_type(body: Body, resolve: Resolver, classes: Resolver) -> str | None:
    """The union of the types a function's ``return`` statements give, when every one of
    them gives a known type and at least one is not ``None`` (see the module docstring),
    from what the visit read of them (:class:`~apisurface.surface.visit.bodies.Body`)."""
    if body.returns is None:
        return None
    types: list[str] = []
    for is_call, text in body.returns:
        found = _resolved(text, resolve, classes) if is_call else text
        if found is None:
            return None
        if found not in types:
            types.append(found)
    if not types or types == ["None"]:
        return None
    if body.falls_off and "None" not in types:
        types.append("None")
    return " | ".join(types)
