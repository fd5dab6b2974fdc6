"""Dataclass and attrs class decorators, and the options a class was decorated with.

Two facts of a class depend on them: whether its instances are read-only (``frozen``,
:func:`apisurface.surface.link.describe`) and whether they hash (``eq``, ``frozen``,
``unsafe_hash``/``hash``, :mod:`apisurface.surface.link.hashing`). Both read them here,
as the decorator's literal keywords over its defaults.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import griffe

from apisurface.surface.access import safe_str

__all__ = ["Decorated", "value_class"]

# Each decorator with what it does by default: (compares by value, frozen).
_DEFAULTS = {
    "dataclasses.dataclass": (True, False),
    "pydantic.dataclasses.dataclass": (True, False),
    "attr.s": (True, False),
    "attr.attrs": (True, False),
    "attr.define": (True, False),
    "attr.mutable": (True, False),
    "attrs.define": (True, False),
    "attrs.mutable": (True, False),
    "attr.frozen": (True, True),
    "attrs.frozen": (True, True),
}
_KEYWORDS = {"eq": "eq", "cmp": "eq", "frozen": "frozen", "unsafe_hash": "hash", "hash": "hash"}


@dataclass(frozen=True, slots=True)
class Decorated:
    """How a dataclass or attrs decorator made a class. ``eq``/``frozen``: the decorator's
    literal keyword or its default, None when the keyword is not a literal; ``hash``:
    ``unsafe_hash`` (or attrs' ``hash``) as written, None when absent or None;
    ``hash_literal``: whether that keyword, if given, is a literal."""

    attrs: bool
    eq: bool | None
    frozen: bool | None
    hash: bool | None
    hash_literal: bool


def value_class(decorator: griffe.Decorator) -> Decorated | None:
    """The options of ``decorator`` when it is a dataclass or attrs class decorator."""
    called = safe_str(decorator.callable_path)
    defaults = _DEFAULTS.get(called)
    if defaults is None:
        return None
    found: dict[str, bool | None] = {"eq": defaults[0], "frozen": defaults[1], "hash": None}
    literal = {"eq": True, "frozen": True, "hash": True}
    try:
        node = ast.parse(safe_str(decorator.value).strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        node, literal = None, {"eq": False, "frozen": False, "hash": False}
    for keyword in node.keywords if isinstance(node, ast.Call) else ():
        option = _KEYWORDS.get(keyword.arg or "")
        if option is None:
            continue
        value = keyword.value.value if isinstance(keyword.value, ast.Constant) else ...
        if not (value is None or isinstance(value, bool)):
            found[option], literal[option] = None, False  # decided at run time
        elif value is not None or option == "hash":
            found[option] = value
    return Decorated(
        attrs=called.partition(".")[0] in ("attr", "attrs"),
        eq=found["eq"] if literal["eq"] else None,
        frozen=found["frozen"] if literal["frozen"] else None,
        hash=found["hash"],
        hash_literal=literal["hash"],
    )
