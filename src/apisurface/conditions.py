"""Settle ``if sys.version_info ...`` branches before griffe reads a module.

griffe visits both branches of an ``if`` and keeps the definition it sees last, which for
``if sys.version_info >= (3, 8): def f(a) ... else: def f(a, b) ...`` is the branch for old
Pythons. Like a type checker, apisurface decides such conditions for one target version
(:data:`TARGET_PYTHON`, fixed so that a snapshot does not depend on the Python that runs
apisurface) and blanks the dead branch, keeping every line number. Conditions it cannot
decide are left alone (griffe's last-definition-wins applies). See docs/decisions.md.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable

__all__ = ["TARGET_PYTHON", "settle_version_branches", "type_checking_names"]

TARGET_PYTHON = (3, 14)
"""The Python version ``sys.version_info`` conditions are decided for: the newest release."""

_COMPARE: dict[type[ast.cmpop], Callable[[tuple[int, ...], tuple[int, ...]], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


def settle_version_branches(text: str) -> str:
    """``text`` with the dead branch of each decidable version check blanked out.

    Raises :class:`SyntaxError` (and what :func:`ast.parse` raises) for unparsable code.
    """
    if "version_info" not in text:
        return text
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    blanked: list[tuple[int, int]] = []
    for node in _top_level_ifs(tree.body):
        if any(start <= node.lineno - 1 <= end for start, end in blanked):
            continue  # inside a branch already removed
        verdict = _decide(node.test)
        if verdict is None or node.body[0].lineno <= node.test.end_lineno:  # type: ignore[operator]
            continue
        dead = node.orelse if verdict else node.body
        if not dead:
            continue
        first, last = dead[0], dead[-1]
        start = _first_line(first) - 1
        end = (last.end_lineno or last.lineno) - 1
        before = lines[start][: first.col_offset].strip() if start < len(lines) else "x"
        if verdict and isinstance(first, ast.If) and lines[start].lstrip().startswith("elif"):
            # ``elif``: blank the whole chain; a ``pass`` at the ``if``'s column ends it.
            column = node.col_offset
        elif before:
            continue  # the branch shares its line with other code (``else: x = 1``)
        else:
            column = first.col_offset
        for index in range(start, end + 1):
            lines[index] = "\n"
        lines[start] = " " * column + "pass\n"
        blanked.append((start, end))
    return "".join(lines) if blanked else text


def _first_line(statement: ast.stmt) -> int:
    """The first line of a statement, its decorators included."""
    decorators = getattr(statement, "decorator_list", None) or []
    return min([statement.lineno, *(int(decorator.lineno) for decorator in decorators)])


def _top_level_ifs(body: list[ast.stmt]) -> list[ast.If]:
    """``if`` statements of a module or class body, nested ifs and try blocks included."""
    found: list[ast.If] = []
    for statement in body:
        if isinstance(statement, ast.If):
            found.append(statement)
            found.extend(_top_level_ifs(statement.body))
            found.extend(_top_level_ifs(statement.orelse))
        elif isinstance(statement, ast.ClassDef):
            found.extend(_top_level_ifs(statement.body))
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                found.extend(_top_level_ifs(block))
            for handler in statement.handlers:
                found.extend(_top_level_ifs(handler.body))
    return found


def _decide(test: ast.expr) -> bool | None:
    """True/False for ``sys.version_info <op> (3, N)`` (also ``[:2]``, ``>= (3,)``)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _decide(test.operand)
        return None if inner is None else not inner
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, right, compare = test.left, test.comparators[0], type(test.ops[0])
    if isinstance(left, ast.Subscript) and isinstance(left.slice, ast.Slice):
        left = left.value
    is_version = (isinstance(left, ast.Attribute) and left.attr == "version_info") or (
        isinstance(left, ast.Name) and left.id == "version_info"
    )
    if not is_version or compare not in _COMPARE or not isinstance(right, ast.Tuple):
        return None
    numbers: list[int] = []
    for element in right.elts:
        if not isinstance(element, ast.Constant) or type(element.value) is not int:
            return None
        numbers.append(element.value)
    if not numbers or len(numbers) > 2:
        return None
    return _COMPARE[compare](TARGET_PYTHON[: len(numbers)], tuple(numbers))


def type_checking_names(text: str) -> frozenset[str]:
    """Module-level names bound only inside ``if TYPE_CHECKING:`` (however spelled:
    ``typing.TYPE_CHECKING``, ``t.TYPE_CHECKING``): they do not exist at run time.

    A name also bound outside such a block (an ``else:`` branch, a later assignment) is
    not listed. Nor is a name of ``__all__`` in a module that defines ``__getattr__``
    (PEP 562): the lazy-import idiom serves it at run time. Unparsable code gives no names
    (the visit reports it)."""
    if "TYPE_CHECKING" not in text:
        return frozenset()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    guarded: set[str] = set()
    runtime: set[str] = set()
    _bound_names(tree.body, guarded, runtime, in_guard=False)
    if "__getattr__" in runtime:
        runtime |= _literal_all(tree.body)
    return frozenset(guarded - runtime)


def _literal_all(body: list[ast.stmt]) -> set[str]:
    """The strings of a module-level ``__all__ = [...]`` (or tuple), if written literally."""
    names: set[str] = set()
    for statement in body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            value = statement.value
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and isinstance(
                value, (ast.List, ast.Tuple)
            ):
                names.update(
                    item.value
                    for item in value.elts
                    if isinstance(item, ast.Constant) and isinstance(item.value, str)
                )
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _bound_names(
    body: list[ast.stmt], guarded: set[str], runtime: set[str], *, in_guard: bool
) -> None:
    for statement in body:
        names = guarded if in_guard else runtime
        if isinstance(statement, ast.If):
            guard = in_guard or _is_type_checking(statement.test)
            _bound_names(statement.body, guarded, runtime, in_guard=guard)
            _bound_names(statement.orelse, guarded, runtime, in_guard=in_guard)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                _bound_names(block, guarded, runtime, in_guard=in_guard)
            for handler in statement.handlers:
                _bound_names(handler.body, guarded, runtime, in_guard=in_guard)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            _bound_names(statement.body, guarded, runtime, in_guard=in_guard)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            for alias in statement.names:
                names.add(alias.asname or alias.name.partition(".")[0])
        elif isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                names.update(node.id for node in ast.walk(target) if isinstance(node, ast.Name))
