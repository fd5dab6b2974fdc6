"""The libcst reading of deprecation markers that the ``ast`` scan replaced, kept as the
reference the scan is checked against (tests/test_deprecation_scan.py): a concrete syntax
tree keeps ``elif`` apart from ``else: if``, and implicit string concatenation apart from
one literal, so it is a second, independent reading of the same rules."""

from __future__ import annotations

import libcst as cst

WARNING_NAMES = frozenset({"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"})
_NOT_ISSUING = frozenset({"catch_warnings", "resetwarnings", "warns"})


def cst_markers(code: str) -> dict[str, str]:
    """What the libcst reading finds in ``code``."""
    visitor = _Visitor()
    cst.parse_module(code).visit(visitor)
    return visitor.found


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
