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

from apisurface.surface.link.synonyms import function_node, scope_nodes

__all__ = ["Conversions", "conversions", "converted_default"]

# parameter -> (converter as written, builtin type names it converts)
Conversions = dict[str, tuple[str, frozenset[str]]]
Resolver = Callable[[griffe.Function, str], griffe.Object | None]

_BUILTIN_TYPES = frozenset({"str", "bytes", "int", "float", "bool", "complex"})


def _isinstance_test(test: ast.expr) -> tuple[str, frozenset[str]] | None:
    """``(p, {T, ...})`` of ``isinstance(p, T)`` / ``isinstance(p, (T1, T2))``."""
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
    ):
        return None
    kinds = test.args[1]
    items = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    names = [item.id for item in items if isinstance(item, ast.Name)]
    if len(names) != len(items) or not set(names) <= _BUILTIN_TYPES:
        return None
    return test.args[0].id, frozenset(names)


def _converter(value: ast.expr, parameter: str) -> str | None:
    """``C`` of a call ``C(parameter)``."""
    if (
        isinstance(value, ast.Call)
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], ast.Name)
        and value.args[0].id == parameter
        and isinstance(value.func, (ast.Name, ast.Attribute))
    ):
        return ast.unparse(value.func)
    return None


def _own(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Conversions:
    found: Conversions = {}
    for item in scope_nodes(node):
        if isinstance(item, ast.IfExp):
            tested = _isinstance_test(item.test)
            if tested is None:
                continue
            name, kinds = tested
            converter = _converter(item.body, name)
            if converter and isinstance(item.orelse, ast.Name) and item.orelse.id == name:
                found.setdefault(name, (converter, kinds))
        elif isinstance(item, ast.If):
            tested = _isinstance_test(item.test)
            if tested is None:
                continue
            name, kinds = tested
            for statement in item.body:
                if (
                    isinstance(statement, ast.Assign)
                    and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                    and statement.targets[0].id == name
                ):
                    converter = _converter(statement.value, name)
                    if converter:
                        found.setdefault(name, (converter, kinds))
    return found


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


_OWN_KEY = "own_conversions"


def _node_and_own(
    function: griffe.Function,
) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, Conversions]:
    """The function's parsed definition and its own conversions, parsed once per function
    (a callee is met once per call site: sympy parsed 460 bodies for 213 functions)."""
    memo: dict[str, object] = function.extra.setdefault("apisurface", {})
    found = memo.get(_OWN_KEY)
    if found is None:
        node = function_node(function)
        found = memo[_OWN_KEY] = (node, _own(node) if node is not None else {})
    return found  # type: ignore[return-value]


def _conversions(function: griffe.Function, resolve: Resolver) -> Conversions:
    node, own = _node_and_own(function)
    if node is None:
        return {}
    found = dict(own)
    parameters = {
        arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
    }
    for item in scope_nodes(node):
        if not isinstance(item, ast.Call) or not isinstance(item.func, ast.Name):
            continue
        passed = {
            keyword.arg: keyword.value.id
            for keyword in item.keywords
            if keyword.arg
            and isinstance(keyword.value, ast.Name)
            and keyword.value.id in parameters
        }
        positional = [arg.id if isinstance(arg, ast.Name) else "" for arg in item.args]
        if not passed and not set(positional) & parameters:
            continue
        callee = _callee(function, item.func.id, resolve)
        if callee is None or callee is function:
            continue
        callee_node, inner = _node_and_own(callee)
        if callee_node is None:
            continue
        names = [arg.arg for arg in (*callee_node.args.posonlyargs, *callee_node.args.args)]
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
