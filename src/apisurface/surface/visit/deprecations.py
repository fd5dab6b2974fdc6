"""Deprecation markers found in function and class bodies, with libcst.

A body that raises a ``DeprecationWarning`` (``warnings.warn("...", DeprecationWarning)``,
also ``PendingDeprecationWarning``/``FutureWarning`` and ``category=`` keywords) marks its
function, method, class (through ``__init__``/``__new__``) or module deprecated. Only files
whose text mentions such a warning are parsed, so the cost stays with the few files that
need it.

Two kinds of calls do not mark anything (docs/real-world.md): calls that only mention the
category without issuing a warning (``warnings.filterwarnings("ignore", ...,
DeprecationWarning)``, ``simplefilter``, ``catch_warnings``), and warnings issued only under
a condition (inside ``if``/``for``/``while``/``except``/``else``/``case``): those deprecate
one parameter or one way of calling (``if old_param is not None: warn(...)``) or an optional
environment, not the function or module itself.
"""

from __future__ import annotations

import ast

import libcst as cst

from apisurface.surface.visit.mentions import WARNING_NAMES, WARNING_PATTERN, mentions_warning

__all__ = ["WARNING_NAMES", "mentions_warning", "scan_deprecations"]


def scan_deprecations(code: str, *, tree: ast.Module | None = None) -> dict[str, str]:
    """Map qualified names inside a module ("" for the module, "Class.method") to a message.
    ``tree``: ``code`` already parsed with ``ast``.

    Raises ``libcst.ParserSyntaxError`` on invalid code; callers treat that as "no markers".
    """
    relevant = relevant_source(code, tree=tree)
    try:
        module = cst.parse_module(relevant)
    except cst.ParserSyntaxError:
        if relevant == code:
            raise
        module = cst.parse_module(code)  # the excerpt did not stand alone: read it all
    visitor = _Visitor()
    module.visit(visitor)
    return visitor.found


def relevant_source(code: str, *, tree: ast.Module | None = None) -> str:
    """The part of ``code`` a deprecation marker can be in, with its nesting kept.

    The concrete syntax tree costs about twenty times an ``ast`` parse, so ``ast`` (fast)
    finds the statements whose lines mention a warning: a function is kept whole, a class
    keeps its header and only such members, any other statement is kept whole. Qualified
    names are unchanged, since every kept statement keeps its enclosing classes. On any
    surprise the whole text is returned. ``tree``: ``code`` already parsed.
    """
    try:
        tree = tree or ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    lines = code.splitlines(keepends=True)
    mentions = {
        number for number, line in enumerate(lines, start=1) if WARNING_PATTERN.search(line)
    }
    if not mentions:
        return code
    kept: list[str] = []
    _keep(tree.body, lines, mentions, kept)
    return "".join(kept) if kept else code


def _span(node: ast.stmt) -> tuple[int, int]:
    decorators = getattr(node, "decorator_list", None) or []
    start = min([node.lineno, *(item.lineno for item in decorators)])
    return start, node.end_lineno or node.lineno


def _keep(body: list[ast.stmt], lines: list[str], mentions: set[int], kept: list[str]) -> None:
    for node in body:
        start, end = _span(node)
        if not any(start <= number <= end for number in mentions):
            continue
        header_end = node.body[0].lineno - 1 if isinstance(node, ast.ClassDef) else 0
        if isinstance(node, ast.ClassDef) and header_end >= start:
            kept.extend(lines[start - 1 : header_end])
            members: list[str] = []
            _keep(node.body, lines, mentions, members)
            kept.extend(members or lines[header_end:end])
        else:
            kept.extend(lines[start - 1 : end])


_NOT_ISSUING = frozenset({"catch_warnings", "resetwarnings", "warns"})


def _issues_warning(call: cst.Call) -> bool:
    """Whether the call emits a warning (``warn``, ``warn_explicit``, a project helper such
    as ``warn_deprecated``), not one that filters, records or tests warnings."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
    if not isinstance(name, str):
        return False
    lowered = name.lower()
    return "warn" in lowered and "filter" not in lowered and lowered not in _NOT_ISSUING


def _warning_category(call: cst.Call) -> bool:
    if not _issues_warning(call):
        return False
    for arg in call.args:
        value = arg.value
        name = (
            value.attr.value if isinstance(value, cst.Attribute) else getattr(value, "value", None)
        )
        is_warning = isinstance(name, str) and name in WARNING_NAMES
        if is_warning and (arg.keyword is None or arg.keyword.value == "category"):
            return True
    return False


def _message(call: cst.Call) -> str:
    for arg in call.args:
        if arg.keyword is None and isinstance(arg.value, cst.SimpleString):
            text = arg.value.evaluated_value
            if isinstance(text, str):
                return " ".join(text.split())[:200]
    return "raises DeprecationWarning"


def _ends_in_raise(block: cst.BaseSuite) -> bool:
    """Whether a block's last statement is a ``raise``."""
    if isinstance(block, cst.IndentedBlock):
        last: cst.CSTNode | None = block.body[-1] if block.body else None
        if isinstance(last, cst.SimpleStatementLine):
            return bool(last.body) and isinstance(last.body[-1], cst.Raise)
        return False
    if isinstance(block, cst.SimpleStatementSuite):
        return bool(block.body) and isinstance(block.body[-1], cst.Raise)
    return False


class _Visitor(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.scope: list[str] = []
        self.function_depth: list[bool] = []
        # How many conditional blocks enclose the current point, per scope (module first).
        self.conditional: list[int] = [0]
        self.if_counted: list[bool] = []
        self.found: dict[str, str] = {}

    def _enter_condition(self) -> None:
        self.conditional[-1] += 1

    def _leave_condition(self) -> None:
        self.conditional[-1] -= 1

    def visit_If(self, node: cst.If) -> None:
        # ``if ok: warn(...); ... else: raise X``: the warning is on the only path that
        # returns, so it is as good as unconditional (Markdown 3.3 Registry.__setitem__).
        counted = not (isinstance(node.orelse, cst.Else) and _ends_in_raise(node.orelse.body))
        self.if_counted.append(counted)
        if counted:
            self._enter_condition()

    def leave_If(self, original_node: cst.If) -> None:
        if self.if_counted.pop():
            self._leave_condition()

    def visit_Else(self, node: cst.Else) -> None:
        self._enter_condition()

    def leave_Else(self, original_node: cst.Else) -> None:
        self._leave_condition()

    def visit_For(self, node: cst.For) -> None:
        self._enter_condition()

    def leave_For(self, original_node: cst.For) -> None:
        self._leave_condition()

    def visit_While(self, node: cst.While) -> None:
        self._enter_condition()

    def leave_While(self, original_node: cst.While) -> None:
        self._leave_condition()

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._enter_condition()

    def leave_ExceptHandler(self, original_node: cst.ExceptHandler) -> None:
        self._leave_condition()

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        self._enter_condition()

    def leave_ExceptStarHandler(self, original_node: cst.ExceptStarHandler) -> None:
        self._leave_condition()

    def visit_MatchCase(self, node: cst.MatchCase) -> None:
        self._enter_condition()

    def leave_MatchCase(self, original_node: cst.MatchCase) -> None:
        self._leave_condition()

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._enter_condition()

    def leave_IfExp(self, original_node: cst.IfExp) -> None:
        self._leave_condition()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.append(node.name.value)
        self.function_depth.append(False)
        self.conditional.append(0)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scope.pop()
        self.function_depth.pop()
        self.conditional.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.function_depth and self.function_depth[-1]:
            return False  # a nested function's warning is not its parent's
        self.scope.append(node.name.value)
        self.function_depth.append(True)
        self.conditional.append(0)
        return True

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        if self.scope and self.scope[-1] == original_node.name.value and self.function_depth[-1]:
            self.scope.pop()
            self.function_depth.pop()
            self.conditional.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if self.conditional[-1] or not _warning_category(node):
            return
        qualname = ".".join(self.scope)
        message = _message(node)
        self.found.setdefault(qualname, message)
        # A class whose constructor warns is itself deprecated.
        if len(self.scope) >= 2 and self.scope[-1] in ("__init__", "__new__"):
            self.found.setdefault(".".join(self.scope[:-1]), message)
