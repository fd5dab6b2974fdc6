"""Bound methods bound to a module-level name (POLICY.md 2.8: an alias of a function is that
function).

webargs binds its entry points as ``parser = FlaskParser()`` then ``use_args =
parser.use_args``: users call ``use_args(...)``, a function with the method's signature
without ``self``, documented by the method's docstring. The same holds for a classmethod
read through its class (``register = Registry.register``: without ``cls``). Each such name
stands for a function made here from the method (:func:`bound_method`), at the name's own
path: it is another object than the method (one is a function, the other a method).
"""

from __future__ import annotations

from collections.abc import Callable

import griffe

from apisurface.surface.linearize import class_mro

__all__ = ["bound_method"]

_KEY = "bound method"
_Resolver = Callable[[object], griffe.Object | None]
"""An expression -> the object of the package it names, or None."""


def bound_method(attribute: griffe.Attribute, resolve: _Resolver) -> griffe.Function | None:
    """The function a module-level ``name = instance.method`` (or ``Cls.classmethod``)
    binds, made once per attribute; None for any other assignment. ``resolve`` gives the
    object of the package an expression names (or None)."""
    memo = attribute.extra["apisurface"]
    if _KEY in memo:
        found: griffe.Function | None = memo[_KEY]
        return found
    memo[_KEY] = found = _bound(attribute, resolve)
    return found


def _bound(attribute: griffe.Attribute, resolve: _Resolver) -> griffe.Function | None:
    value = attribute.value
    if not isinstance(value, griffe.ExprAttribute) or len(value.values) < 2:
        return None
    holder = resolve(value.values[-2])
    name = str(value.values[-1])
    if isinstance(holder, griffe.Class):
        method = _method(holder, name)
        if method is None or "classmethod" not in method.labels:
            return None  # a plain function read through its class is that function
    elif isinstance(holder, griffe.Attribute) and isinstance(holder.parent, griffe.Module):
        cls = _instance_class(holder, resolve)
        method = _method(cls, name) if cls is not None else None
        if method is None or "staticmethod" in method.labels or _is_property(method):
            return None
    else:
        return None
    return _function(attribute, method)


def _instance_class(instance: griffe.Attribute, resolve: _Resolver) -> griffe.Class | None:
    """The class of the package a module-level attribute is an instance of: what its
    value calls (``FlaskParser()``), or what its annotation names."""
    found: griffe.Object | None = None
    if isinstance(instance.value, griffe.ExprCall):
        found = resolve(instance.value.function)
    if found is None and instance.annotation is not None:
        found = resolve(instance.annotation)
    return found if isinstance(found, griffe.Class) else None


def _method(cls: griffe.Class, name: str) -> griffe.Function | None:
    """The method ``name`` of ``cls``, its own or inherited from a class of the package."""
    for owner in (cls, *class_mro(cls)):
        member = owner.members.get(name)
        if member is None:
            continue
        try:
            target = member.final_target if member.is_alias else member  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - not defined statically
            return None
        return target if isinstance(target, griffe.Function) else None
    return None


def _is_property(function: griffe.Function) -> bool:
    return bool({"property", "cached_property"} & function.labels)


def _documented(cls_method: griffe.Function) -> griffe.Docstring | None:
    """The method's docstring, or the one of the method it overrides in a base."""
    if cls_method.docstring is not None and cls_method.docstring.value.strip():
        return cls_method.docstring
    owner = cls_method.parent
    if isinstance(owner, griffe.Class):
        for base in class_mro(owner):
            member = base.members.get(cls_method.name)
            docstring = member.docstring if isinstance(member, griffe.Function) else None
            if docstring is not None and docstring.value.strip():
                return docstring
    return None


def _function(attribute: griffe.Attribute, method: griffe.Function) -> griffe.Function:
    """``method`` bound: a function at ``attribute``'s path, without its first parameter."""
    docstring = _documented(method)
    function = griffe.Function(
        attribute.name,
        lineno=attribute.lineno,
        endlineno=attribute.endlineno,
        parameters=_without_first(method),
        returns=method.returns,
        docstring=(
            griffe.Docstring(docstring.value, lineno=docstring.lineno) if docstring else None
        ),
        parent=attribute.parent,
    )
    function.labels |= method.labels & {"async"}
    function.overloads = [
        griffe.Function(
            attribute.name,
            lineno=item.lineno,
            endlineno=item.endlineno,
            parameters=_without_first(item),
            returns=item.returns,
            parent=attribute.parent,
        )
        for item in method.overloads or ()
    ] or None
    return function


def _without_first(function: griffe.Function) -> griffe.Parameters:
    """Copies of ``function``'s parameters but the first (griffe's parameters point back
    to their function: the method's own stay its own)."""
    return griffe.Parameters(
        *(
            griffe.Parameter(
                item.name,
                annotation=item.annotation,
                kind=item.kind,
                default=item.default,
                docstring=item.docstring,
            )
            for item in list(function.parameters)[1:]
        )
    )
