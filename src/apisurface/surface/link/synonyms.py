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

import ast
import textwrap
from collections.abc import Callable

import griffe

__all__ = ["call_result", "decorated_synonym", "function_node", "scope_nodes"]

Resolver = Callable[[object], griffe.Object | None]

_ALIAS_DECORATORS = frozenset({"staticmethod", "classmethod"})
_WRAPS = frozenset({"wraps", "functools.wraps"})


def _text(value: object) -> str:
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - griffe expressions may fail to render on odd code
        return ""


def _memo(function: griffe.Function) -> dict[str, object]:
    extra: dict[str, object] = function.extra.setdefault("apisurface", {})
    return extra


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
    """The parameter whose argument ``function`` returns, by its body (memoised)."""
    memo = _memo(function)
    if "returns_parameter" not in memo:
        memo["returns_parameter"] = _read_body(function)
    found = memo["returns_parameter"]
    return found if isinstance(found, str) else None


def function_node(function: griffe.Function) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        source = function.source
        tree = ast.parse(textwrap.dedent(source))
    except Exception:  # noqa: BLE001 - no source (a snapshot), or source griffe cut oddly
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return None


def scope_nodes(node: ast.AST) -> list[ast.AST]:
    """The nodes of a function's own scope (not of nested functions, lambdas, classes)."""
    found: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(node))
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        found.append(item)
        stack.extend(ast.iter_child_nodes(item))
    return found


def _none_test(test: ast.expr) -> str | None:
    """``p`` of a test ``p is None``."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return test.left.id
    return None


def _returns(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[ast.Return, str | None]]:
    """The ``return`` statements of a function's own scope, each with the parameter whose
    ``if <parameter> is None:`` test guards it, if any."""
    guards: dict[int, str] = {}
    nodes = scope_nodes(node)
    for item in nodes:
        if isinstance(item, ast.If):
            name = _none_test(item.test)
            if name is not None:
                for inner in item.body:
                    for sub in (inner, *scope_nodes(inner)):
                        guards.setdefault(id(sub), name)
    return [(item, guards.get(id(item))) for item in nodes if isinstance(item, ast.Return)]


def _read_body(function: griffe.Function) -> str | None:
    node = function_node(function)
    if node is None:
        return None
    parameters = {
        arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
    }
    wrappers: dict[str, str] = {}  # local function -> the parameter it wraps
    for statement in node.body:
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for decorator in statement.decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and ast.unparse(decorator.func) in _WRAPS
                and len(decorator.args) == 1
                and isinstance(decorator.args[0], ast.Name)
                and decorator.args[0].id in parameters
            ):
                wrappers[statement.name] = decorator.args[0].id
    returned: set[str] = set()
    guards: set[str] = set()
    for statement, guard in _returns(node):
        if guard is not None:
            guards.add(guard)
            continue
        value = statement.value
        if not isinstance(value, ast.Name):
            return None
        if value.id in parameters:
            returned.add(value.id)
        elif value.id in wrappers:
            returned.add(wrappers[value.id])
        else:
            return None
    if len(returned) != 1 or not guards <= returned:
        return None
    return returned.pop()


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
    node = function_node(function)
    if node is None or len(node.body) != 1:
        return False
    only = node.body[0]
    return isinstance(only, ast.Pass) or (
        isinstance(only, ast.Expr)
        and isinstance(only.value, ast.Constant)
        and only.value.value is Ellipsis
    )


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
