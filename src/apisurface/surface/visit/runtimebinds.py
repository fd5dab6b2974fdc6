"""Where a module binds names no static reader can list (POLICY.md 2.8: what cannot be read
is reported, never dropped silently).

Read with ``ast`` (nothing is imported or run), at module level: a write into the module's
namespace under a computed name (``globals()[name] = ...``, ``globals().update(...)``,
``setattr(sys.modules[__name__], name, ...)``), an import hook (``sys.meta_path``,
``sys.path_hooks``), a replacement of the module object in ``sys.modules`` (pygments'
``_automodule``), and a module ``__getattr__`` that answers names it does not select
literally (``name == "X"``, ``name in ("A", "B")``, ``match``) nor look up in a table of
the module. Each is a line and what it does; the link makes each a problem of the module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from apisurface.surface.visit.declared import module_statements

__all__ = ["run_time_bindings"]

_MARKERS = ("globals()", "vars()", "meta_path", "path_hooks", "sys.modules", "__getattr__")


def run_time_bindings(text: str, tree: ast.Module) -> tuple[tuple[int, str], ...]:
    """(line, what) for each place the module binds names at run time that no static
    reader can list."""
    if not any(marker in text for marker in _MARKERS):
        return ()
    found: list[tuple[int, str]] = []
    for node in module_statements(tree.body, loops=True):
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            if _open_getattr(node):
                found.append((node.lineno, "a module __getattr__ answers names it does not list"))
            continue
        what = _binds(node)
        if what is not None:
            found.append((node.lineno, what))
    return tuple(found)


def _binds(node: ast.stmt) -> str | None:
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if (
                isinstance(target, ast.Subscript)
                and _namespace(target.value)
                and not isinstance(target.slice, ast.Constant)
            ):
                return "binds names of the module under computed names (globals()[...])"
            if isinstance(target, ast.Subscript) and _sys_modules(target.value):
                return "replaces the module object in sys.modules"
    call = node.value if isinstance(node, ast.Expr) else None
    if not isinstance(call, ast.Call):
        return None
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "update" and _namespace(func.value):
        return "binds names of the module at run time (globals().update(...))"
    if isinstance(func, ast.Attribute) and func.attr in ("append", "insert", "extend"):
        spelled = ast.unparse(func.value)
        if spelled.endswith(("meta_path", "path_hooks")):
            return f"installs an import hook ({spelled})"
    if (
        isinstance(func, ast.Name)
        and func.id == "setattr"
        and len(call.args) >= 2
        and _sys_modules_entry(call.args[0])
        and not isinstance(call.args[1], ast.Constant)
    ):
        return "binds names of the module under computed names (setattr)"
    return None


def _namespace(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("globals", "vars")
        and not node.args
    )


def _sys_modules(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "modules"
        and ast.unparse(node) == ("sys.modules")
    )


def _sys_modules_entry(node: ast.expr) -> bool:
    return isinstance(node, ast.Subscript) and _sys_modules(node.value)


def _open_getattr(function: ast.FunctionDef) -> bool:
    """Whether a ``__getattr__(name)`` returns something for a name it does not select by
    a literal (``name == "X"``, ``name in (...)``, ``match``) nor look up in a table
    (``TABLE[name]``, ``TABLE.get(name)``, ``name in TABLE``)."""
    params = [*function.args.posonlyargs, *function.args.args]
    if not params:
        return True
    param = params[0].arg
    if _looked_up(function, param):
        return False  # the names of a table (TABLE[name]): read as served names
    return _returns_unselected(function.body, param)


def _returns_unselected(body: list[ast.stmt], param: str) -> bool:
    for node in body:
        if isinstance(node, ast.If):
            if _selects(node.test, param):
                if _returns_unselected(node.orelse, param):
                    return True
                continue
            if _returns_unselected(node.body, param) or _returns_unselected(node.orelse, param):
                return True
        elif isinstance(node, ast.Match):
            if not _is_name(node.subject, param):
                return True
            for case in node.cases:
                literal = isinstance(case.pattern, (ast.MatchValue, ast.MatchOr))
                if not literal and _returns_unselected(case.body, param):
                    return True
        elif isinstance(node, (ast.Try, ast.With)):
            blocks = [node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])]
            blocks += [handler.body for handler in getattr(node, "handlers", [])]
            if any(_returns_unselected(block, param) for block in blocks):
                return True
        elif isinstance(node, ast.Return) and node.value is not None:
            return True
    return False


def _selects(test: ast.expr, param: str) -> bool:
    """A condition that selects literal names or a table's keys."""
    if isinstance(test, ast.BoolOp):
        return isinstance(test.op, ast.Or) and all(_selects(value, param) for value in test.values)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, ast.Eq):
        return (_is_name(left, param) and isinstance(right, ast.Constant)) or (
            _is_name(right, param) and isinstance(left, ast.Constant)
        )
    return isinstance(op, ast.In) and _is_name(left, param)


def _looked_up(node: ast.AST, param: str) -> bool:
    """Whether ``node`` looks ``param`` up: ``TABLE[name]``, ``TABLE.get(name)``."""
    for item in _walk(node):
        if isinstance(item, ast.Subscript) and _is_name(item.slice, param):
            return True
        if (
            isinstance(item, ast.Call)
            and isinstance(item.func, ast.Attribute)
            and item.func.attr in ("get", "pop")
            and item.args
            and _is_name(item.args[0], param)
        ):
            return True
    return False


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    yield from ast.walk(node)


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
