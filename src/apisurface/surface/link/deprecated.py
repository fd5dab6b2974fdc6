"""Deprecation notices the code states about an object (POLICY.md section 2 and 3).

An object is deprecated when a decorator says so, its docstring has a ``.. deprecated::``
directive, it is assigned from a deprecating call, or (for a class) constructing it runs
a deprecated ``__init__``. The warnings a body raises are found separately, by
:mod:`apisurface.surface.visit.deprecations` (the markers); the link step combines both.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import griffe

from apisurface.surface.access import safe_str
from apisurface.surface.linearize import class_mro
from apisurface.surface.visit.facts import body_of

__all__ = ["constructor_deprecation", "written_deprecation"]

_DEPRECATING_CALL = re.compile(r"^(?:[\w.]+\.)?(deprecate[\w]*)\(")
# Decorators deprecating a part of an object, never the whole: TensorFlow's
# ``deprecated_endpoints("a")`` (those paths: apisurface.surface.link.exports),
# ``deprecated_args(date, instructions, "x")`` and ``deprecated_arg_values`` (a parameter,
# values of one).
_PARTIAL = re.compile(r"^deprecated?_(?:endpoints?|args?|arg_values|kwargs?|params?|parameters?)$")
_DEPRECATED_DIRECTIVE = re.compile(r"^\s*\.\.\s+deprecated::\s*(.*)$", re.MULTILINE)


def written_deprecation(obj: griffe.Object) -> str | None:
    """The deprecation message the object's own code states: a deprecating decorator
    (``@deprecated("use g")``), a ``.. deprecated::`` directive in its docstring, or an
    assignment ``old_name = deprecated(new_name, "use new_name")``; None without one."""
    for decorator in getattr(obj, "decorators", ()) or ():
        name = safe_str(decorator.callable_path).rpartition(".")[2]
        if (name == "deprecated" or name.startswith("deprecate")) and not _PARTIAL.match(name):
            return _decorator_message(decorator.value)
    docstring = obj.docstring.value if obj.docstring else ""
    match = _DEPRECATED_DIRECTIVE.search(docstring)
    if match:
        return match.group(1).strip() or "deprecated"
    if isinstance(obj, griffe.Attribute) and obj.value is not None:
        # ``old_name = deprecated(new_name, "use new_name")``
        call = _DEPRECATING_CALL.match(safe_str(obj.value))
        if call and not _PARTIAL.match(call.group(1)):
            return _decorator_message(obj.value)
    return None


def constructor_deprecation(
    cls: griffe.Class,
    *,
    resolve: Callable[[griffe.Object | griffe.Alias], griffe.Object | None],
    internal: Callable[[griffe.Object], bool],
    deprecation: Callable[[griffe.Object], str | None],
) -> str | None:
    """A class is deprecated when constructing it warns: the ``__init__`` it runs is
    deprecated, or its own ``__init__`` only delegates to a deprecated base one.
    ``resolve``, ``internal`` (defined in the package) and ``deprecation`` (memoised)
    are the link step's."""
    inits: list[griffe.Function] = []
    for owner in [cls, *class_mro(cls)]:
        init = owner.members.get("__init__")
        if init is None:
            continue
        function = resolve(init)
        if not isinstance(function, griffe.Function) or not internal(function):
            break
        inits.append(function)
    for index, function in enumerate(inits):
        message = deprecation(function)
        if message is not None:
            # Reached only when every constructor before it just delegates.
            return message if all(_delegates(item) for item in inits[:index]) else None
    return None


def _delegates(function: griffe.Function) -> bool:
    """Whether a method only calls its base's method of the same name (memoised)."""
    memo = function.extra["apisurface"]
    if "delegates" not in memo:
        body = body_of(function)
        memo["delegates"] = body is not None and body.delegates
    return memo["delegates"]  # type: ignore[no-any-return]


def _decorator_message(value: object) -> str:
    text = safe_str(value)
    match = re.search(r"\(\s*(?:reason\s*=\s*)?(['\"])(.*?)\1", text)
    return " ".join(match.group(2).split())[:200] if match else "deprecated"
