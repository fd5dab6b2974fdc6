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

A ``None`` default the body resolves to a literal is, for callers, that literal (the
*effective default*; itsdangerous 2.0 ``salt=None``): ``resolved_defaults`` reads, in the
function's own top-level statements,

- ``if p is None: p = LIT`` (nothing else in the branch, no ``else``);
- ``p = LIT if p is None else p`` / ``p = p if p is not None else LIT``;

each before any other statement mentions ``p``, or a ``LIT if p is None else p`` anywhere
in the function's own scope (assigned, returned, passed on) that holds the only mentions of
``p`` in the function. ``LIT`` is an immutable literal (a number, string, bytes, bool, or a
tuple of them): a list, dict or set made in the body is a fresh object per call, unlike a
written default, so it stays ``None`` (the mutable-default idiom has its own rule).
``p = p or LIT`` is not read: it also replaces explicit falsy arguments (``0``, ``""``),
which the written default did not.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import griffe

from apisurface.surface.synonyms import function_node, scope_nodes

__all__ = ["Conversions", "conversions", "converted_default", "resolved_defaults"]

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


def _immutable_literal(node: ast.expr) -> str | None:
    """``node`` as source text when it is a literal of an immutable value."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if not _immutable(value) or value is None:
        return None
    return ast.unparse(node)


def _immutable(value: object) -> bool:
    if isinstance(value, (tuple, frozenset)):
        return all(_immutable(item) for item in value)
    return value is None or isinstance(value, (str, bytes, int, float, complex, bool))


def _is_none(test: ast.expr, negated: bool) -> str | None:
    """``p`` of a test ``p is None`` (``p is not None`` when ``negated``)."""
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot if negated else ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return test.left.id
    return None


def _resolved(value: ast.expr) -> tuple[str, str] | None:
    """``(p, LIT)`` of ``LIT if p is None else p`` / ``p if p is not None else LIT``."""
    if not isinstance(value, ast.IfExp):
        return None
    name = _is_none(value.test, negated=False)
    chosen, kept = value.body, value.orelse
    if name is None:
        name = _is_none(value.test, negated=True)
        chosen, kept = value.orelse, value.body
    if name is None or not (isinstance(kept, ast.Name) and kept.id == name):
        return None
    literal = _immutable_literal(chosen)
    return None if literal is None else (name, literal)


def _rebinding(statement: ast.stmt) -> tuple[str, str] | None:
    """``(p, LIT)`` of a statement that gives ``p`` the value ``LIT`` when it is None."""
    if isinstance(statement, ast.If) and not statement.orelse and len(statement.body) == 1:
        name = _is_none(statement.test, negated=False)
        inner = statement.body[0]
        if (
            name is not None
            and isinstance(inner, ast.Assign)
            and len(inner.targets) == 1
            and isinstance(inner.targets[0], ast.Name)
            and inner.targets[0].id == name
        ):
            literal = _immutable_literal(inner.value)
            return None if literal is None else (name, literal)
        return None
    if (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        found = _resolved(statement.value)
        if found is not None and found[0] == statement.targets[0].id:
            return found
    return None


def _names(node: ast.AST) -> list[str]:
    return [item.id for item in ast.walk(node) if isinstance(item, ast.Name)]


def resolved_defaults(function: griffe.Function) -> dict[str, str]:
    """The parameters whose ``None`` default the body resolves to a literal, with that
    literal's source text (memoised on the function)."""
    memo: dict[str, object] = function.extra.setdefault("apisurface", {})
    if "resolved_defaults" not in memo:
        memo["resolved_defaults"] = _resolved_defaults(function)
    found = memo["resolved_defaults"]
    return found if isinstance(found, dict) else {}


def _resolved_defaults(function: griffe.Function) -> dict[str, str]:
    try:
        source = function.source
    except Exception:  # noqa: BLE001 - no source (a snapshot): nothing resolved
        return {}
    if "is None" not in source and "is not None" not in source:
        return {}  # cheap: most functions never test for None
    node = function_node(function)
    if node is None:
        return {}
    candidates = {
        arg.arg
        for arg, default in _defaults(node.args)
        if isinstance(default, ast.Constant) and default.value is None
    }
    if not candidates:
        return {}
    found: dict[str, str] = {}
    mentioned: set[str] = set()
    for statement in node.body:
        rebinding = _rebinding(statement)
        if rebinding is not None and rebinding[0] in candidates - mentioned:
            found.setdefault(*rebinding)
        mentioned.update(_names(statement))
    # ``LIT if p is None else p`` (assigned, returned, passed on) holding every mention of ``p``.
    counts: dict[str, int] = {}
    for statement in node.body:
        for name in _names(statement):
            counts[name] = counts.get(name, 0) + 1
    for item in scope_nodes(node):
        if isinstance(item, ast.IfExp):
            resolved = _resolved(item)
            if resolved is not None and resolved[0] in candidates and counts[resolved[0]] == 2:
                found.setdefault(*resolved)
    return found


def _defaults(arguments: ast.arguments) -> list[tuple[ast.arg, ast.expr | None]]:
    """Each named parameter with its default node."""
    positional = [*arguments.posonlyargs, *arguments.args]
    padded: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    pairs = list(zip(positional, [*padded, *arguments.defaults], strict=True))
    return pairs + list(zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True))
