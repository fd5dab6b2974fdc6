"""Deprecation read through a helper (POLICY.md section 3: inferred evidence).

``def old(): _deprecated("old", "new"); ...`` where the package's ``_deprecated`` issues
``warnings.warn(..., DeprecationWarning)`` deprecates ``old``: every call of it warns. The
helper is followed when the function calls it unconditionally (a statement of its body, or
of a ``with`` block in it, not under ``if``/``for``/``while``/``try``) and it is a helper,
not an API of its own: its name mentions ``deprecat`` or ``warn``, or it is a private
function whose own body warns (a public function calling another deprecated public function
is not deprecated by that). Helpers calling helpers are followed up to :data:`DEPTH` calls
deep, inside the package only. The calls are those the visit read of the body
(:mod:`apisurface.surface.visit.bodies`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import griffe

from apisurface.surface.visit.facts import body_of

__all__ = ["DEPTH", "helper_deprecation", "warning_helpers"]

DEPTH = 3

Markers = Callable[[griffe.Function], str | None]
"""The deprecation a function's own body states (its warning marker), or None."""


def _named_helper(name: str) -> bool:
    last = name.rpartition(".")[2].lower()
    return "deprecat" in last or "warn" in last


def warning_helpers(marked: Iterable[str]) -> frozenset[str]:
    """The names of private functions whose own body warns, from the marked paths."""
    names = (path.rpartition(".")[2] for path in marked)
    return frozenset(name for name in names if name.startswith("_") and name != "_")


def _resolve(function: griffe.Function, name: str) -> griffe.Function | None:
    """The package function ``name`` (as written in ``function``'s body) calls."""
    scope = function.parent
    if scope is None:
        return None
    head, dot, rest = name.partition(".")
    try:
        path = scope.resolve(head) + dot + rest
        target: object = function.modules_collection.get_member(path)
        if isinstance(target, griffe.Alias):
            target = target.final_target
    except Exception:  # noqa: BLE001 - a builtin, an outside or unresolvable name
        return None
    return target if isinstance(target, griffe.Function) else None


def helper_deprecation(
    function: griffe.Function,
    markers: Markers,
    internal: Callable[[griffe.Function], bool],
    helpers: frozenset[str],
    depth: int = DEPTH,
) -> str | None:
    """The deprecation message of the helper ``function`` calls on every run, or None
    (memoised per function and depth). ``helpers``: :func:`warning_helpers` of the
    package's markers."""
    memo = function.extra["apisurface"].setdefault("helper_deprecation", {})
    if depth in memo:
        return memo[depth]  # type: ignore[no-any-return]
    memo[depth] = None  # a recursive helper ends here
    found: str | None = None
    body = body_of(function)
    for name in body.called if body is not None else ():
        if not (_named_helper(name) or name.rpartition(".")[2] in helpers):
            continue
        callee = _resolve(function, name)
        if callee is None or callee is function or not internal(callee):
            continue
        found = markers(callee)
        if found is None and depth > 1:
            found = helper_deprecation(callee, markers, internal, helpers, depth - 1)
        if found is not None:
            break
    memo[depth] = found
    return found
