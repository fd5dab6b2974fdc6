"""Names bound to what a call or a decorator returns, when that is a callable it was given.

Compatibility synonyms are often made by a helper of the package rather than by a plain
``old = new`` assignment (pyparsing 3.1: ``@replaced_by_pep8(one_of) def oneOf(): ...``,
pyparsing 3.1.2: ``oneOf = replaced_by_pep8("oneOf", one_of)``, semver 3:
``process = deprecated(cli.process, version="3.0.0")``). Read as written, such a name is a
parameterless stub or an attribute; at run time, and for a type checker, it is the callable
given to the helper. This module finds the expression of that callable, from the helper's
declared types or, where they say nothing, from the helper's body:

- **types**: a function returning a type variable that annotates one of its parameters
  (``def f(name: str, fn: C) -> C``) returns, for a type checker, the argument bound to that
  parameter; a decorator factory returning ``Callable[..., C]`` for such a parameter
  (``def f(fn: C) -> Callable[[Callable], C]``) makes the decorated name that argument;
- **body**: a function whose every ``return`` returns one parameter, or a local function
  decorated ``@functools.wraps(<that parameter>)`` (a forwarding wrapper carrying the
  parameter's name, docstring and signature), returns that parameter; returns guarded by
  ``if <parameter> is None:`` are the no-argument form and do not count;
- **placeholder**: a function whose body is only ``...`` or ``pass``, without a docstring,
  decorated by a call given one class or function, is a placeholder for what the decorator
  makes of that callable; where the decorator's types and body say nothing, it is read as
  that callable (see docs/decisions.md).

Only the walk uses it (``walk._named_callable``); the resolver of names is passed in.
"""

from __future__ import annotations

from collections.abc import Callable

import griffe

from apisurface.surface.visit.facts import body_of

__all__ = ["call_result", "decorated_synonym"]

Resolver = Callable[[object], griffe.Object | None]

_ALIAS_DECORATORS = frozenset({"staticmethod", "classmethod"})


def _text(value: object) -> str:
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - griffe expressions may fail to render on odd code
        return ""


def _is_typevar(expr: object, resolve: Resolver) -> bool:
    """Whether an annotation is a bare name bound to ``TypeVar(...)``."""
    if not isinstance(expr, griffe.ExprName):
        return False
    target = resolve(expr)
    if not isinstance(target, griffe.Attribute):
        return False
    value = target.value
    return (
        isinstance(value, griffe.ExprCall) and _text(value.function).rpartition(".")[2] == "TypeVar"
    )


def _parameter_of_typevar(
    function: griffe.Function, typevar: object, resolve: Resolver
) -> str | None:
    """The one parameter annotated with exactly the type variable ``typevar``."""
    if not _is_typevar(typevar, resolve):
        return None
    name = _text(typevar)
    found = [p.name for p in function.parameters if _text(p.annotation) == name]
    return found[0] if len(found) == 1 else None


def _callable_result(returns: object) -> object | None:
    """``C`` of a return annotation ``Callable[[...], C]`` or ``Callable[..., C]``."""
    if not isinstance(returns, griffe.ExprSubscript):
        return None
    if _text(returns.left).rpartition(".")[2] != "Callable":
        return None
    elements = getattr(returns.slice, "elements", None)
    if not isinstance(elements, list) or len(elements) != 2:
        return None
    result: object = elements[1]
    return result


def _argument(function: griffe.Function, call: griffe.ExprCall, parameter: str) -> object | None:
    """The expression ``call`` binds to ``parameter`` of ``function`` (None when unsure)."""
    positional: list[object] = []
    keywords: dict[str, object] = {}
    for argument in call.arguments:
        if isinstance(argument, griffe.ExprKeyword):
            keywords[argument.name] = argument.value
        elif isinstance(argument, (griffe.ExprVarPositional, griffe.ExprVarKeyword)):
            return None  # ``*args`` / ``**kwargs``: which argument lands where is unknown
        else:
            positional.append(argument)
    if parameter in keywords:
        return keywords[parameter]
    for index, param in enumerate(function.parameters):
        if param.kind not in (
            griffe.ParameterKind.positional_only,
            griffe.ParameterKind.positional_or_keyword,
        ):
            break
        if param.name == parameter:
            return positional[index] if index < len(positional) else None
    return None


def _typed_returned_parameter(function: griffe.Function, resolve: Resolver) -> str | None:
    """The parameter whose argument ``function`` returns, by its declared types."""
    return _parameter_of_typevar(function, function.returns, resolve)


def _body_returned_parameter(function: griffe.Function) -> str | None:
    """The parameter whose argument ``function`` returns, by its body (as the visit read
    it: :mod:`apisurface.surface.visit.bodies`)."""
    body = body_of(function)
    return None if body is None else body.returns_parameter


def call_result(
    function: griffe.Function, call: griffe.ExprCall, resolve: Resolver
) -> object | None:
    """The argument expression that ``call`` of ``function`` returns, when its declared
    types or its body show it returns one of its arguments (a synonym of it)."""
    if not isinstance(function.parent, griffe.Module):
        return None  # a method: its first parameter is bound by the attribute access
    for parameter in (
        _typed_returned_parameter(function, resolve),
        _body_returned_parameter(function),
    ):
        if parameter is not None:
            return _argument(function, call, parameter)
    return None


def _is_placeholder(function: griffe.Function) -> bool:
    """A body of only ``...`` or ``pass`` and no docstring."""
    if function.docstring is not None:
        return False
    body = body_of(function)
    return body is not None and body.placeholder


def _factory_result(decorator: griffe.ExprCall, resolve: Resolver) -> object | None:
    """The argument a decorator factory's result turns the decorated function into,
    by the factory's declared types (``def f(fn: C) -> Callable[[Callable], C]``)."""
    factory = resolve(decorator.function)
    if not isinstance(factory, griffe.Function) or not isinstance(factory.parent, griffe.Module):
        return None
    parameter = _parameter_of_typevar(factory, _callable_result(factory.returns), resolve)
    return None if parameter is None else _argument(factory, decorator, parameter)


def decorated_synonym(function: griffe.Function, resolve: Resolver) -> object | None:
    """The expression of the callable a decorated function's name is bound to, when a
    decorator makes the name a synonym of a callable it was given; else None."""
    decorators = [item.value for item in function.decorators]
    calls = [item for item in decorators if _text(item) not in _ALIAS_DECORATORS]
    if len(calls) != 1 or not isinstance(calls[0], griffe.ExprCall):
        return None
    decorator = calls[0]
    found = _factory_result(decorator, resolve)
    if found is not None:
        return found
    if _factory_declares_result(decorator, resolve) or not _is_placeholder(function):
        return None
    arguments = [a for a in decorator.arguments if not isinstance(a, griffe.ExprKeyword)]
    if len(arguments) != 1:
        return None
    target = resolve(arguments[0])
    return arguments[0] if isinstance(target, (griffe.Class, griffe.Function)) else None


def _factory_declares_result(decorator: griffe.ExprCall, resolve: Resolver) -> bool:
    """Whether the decorator factory declares what it returns (then its types decide)."""
    factory = resolve(decorator.function)
    return isinstance(factory, griffe.Function) and factory.returns is not None
