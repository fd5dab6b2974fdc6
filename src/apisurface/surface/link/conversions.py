"""Defaults a function converts on use.

``def infix(lpar: str | Suppress = "(")`` whose body (or the class it hands the parameter
to) does ``Suppress(lpar) if isinstance(lpar, str) else lpar`` behaves exactly as with the
default ``Suppress("(")``: the default's *effect* is the converted value. The walk renders
such a default as the conversion of the written value, so spelling the default either way
is no change (pyparsing 3.3.3 ``infix_notation``). The patterns read, in the function's
own scope or in the one callee (a function, or a class's ``__init__``) the parameter is
passed to by name or position:

- ``X = C(p) if isinstance(p, T) else p`` (any target);
- ``if isinstance(p, T): p = C(p)``.

``T`` is a builtin type name or a tuple of them; ``C`` is rendered as written.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import griffe

from apisurface.surface.visit.facts import Body, body_of

__all__ = ["Conversions", "conversions", "converted_default"]

# parameter -> (converter as written, builtin type names it converts)
Conversions = dict[str, tuple[str, frozenset[str]]]
Resolver = Callable[[griffe.Function, str], griffe.Object | None]


def _callee(function: griffe.Function, name: str, resolve: Resolver) -> griffe.Function | None:
    """The function a call of ``name`` in ``function`` runs: a function, or the
    ``__init__`` a class defines."""
    target = resolve(function, name)
    if isinstance(target, griffe.Class):
        init = target.members.get("__init__")
        return init if isinstance(init, griffe.Function) else None
    return target if isinstance(target, griffe.Function) else None


def conversions(function: griffe.Function, resolve: Resolver) -> Conversions:
    """The parameters ``function`` converts on use, also through the one callee it hands
    them to (memoised on the function)."""
    memo: dict[str, object] = function.extra.setdefault("apisurface", {})
    if "conversions" not in memo:
        memo["conversions"] = _conversions(function, resolve)
    found = memo["conversions"]
    return found if isinstance(found, dict) else {}


def _own(body: Body) -> Conversions:
    """The parameters a body converts itself (first conversion of each)."""
    return {name: (converter, frozenset(kinds)) for name, converter, kinds in body.conversions}


def _conversions(function: griffe.Function, resolve: Resolver) -> Conversions:
    body = body_of(function)
    if body is None:
        return {}
    found = _own(body)
    parameters = {*body.positional, *body.keyword_only}
    for item in body.handoffs:
        passed = dict(item.keywords)
        positional = item.positional
        callee = _callee(function, item.function, resolve)
        if callee is None or callee is function:
            continue
        callee_body = body_of(callee)
        if callee_body is None:
            continue
        inner = _own(callee_body)
        names = list(callee_body.positional)
        if isinstance(callee.parent, griffe.Class) and names:
            names = names[1:]  # self
        for index, value in enumerate(positional):
            if value in parameters and index < len(names) and names[index] in inner:
                found.setdefault(value, inner[names[index]])
        for keyword, value in passed.items():
            if keyword in inner:
                found.setdefault(value, inner[keyword])
    return found


def converted_default(default: str, conversion: tuple[str, frozenset[str]] | None) -> str:
    """``default`` as the value the function uses: ``C(default)`` when the function
    converts values of the default's type with ``C``."""
    if conversion is None:
        return default
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return default
    converter, kinds = conversion
    if type(value).__name__ not in kinds:
        return default
    return f"{converter}({default})"
