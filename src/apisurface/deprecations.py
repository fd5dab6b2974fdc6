"""Deprecation markers found in function and class bodies, with libcst.

A body that raises a ``DeprecationWarning`` (``warnings.warn("...", DeprecationWarning)``,
also ``PendingDeprecationWarning``/``FutureWarning`` and ``category=`` keywords) marks its
function, method, class (through ``__init__``/``__new__``) or module deprecated. Only files
whose text mentions such a warning are parsed, so the cost stays with the few files that
need it.
"""

from __future__ import annotations

import re

import libcst as cst

__all__ = ["WARNING_NAMES", "mentions_warning", "scan_deprecations"]

WARNING_NAMES = frozenset({"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"})
_MENTION = re.compile(r"\b(?:Pending)?DeprecationWarning\b|\bFutureWarning\b")


def mentions_warning(text: str) -> bool:
    """Whether a file is worth a concrete-syntax-tree parse for deprecation markers."""
    return _MENTION.search(text) is not None


def scan_deprecations(code: str) -> dict[str, str]:
    """Map qualified names inside a module ("" for the module, "Class.method") to a message.

    Raises ``libcst.ParserSyntaxError`` on invalid code; callers treat that as "no markers".
    """
    module = cst.parse_module(code)
    visitor = _Visitor()
    module.visit(visitor)
    return visitor.found


def _warning_category(call: cst.Call) -> bool:
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


class _Visitor(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.scope: list[str] = []
        self.function_depth: list[bool] = []
        self.found: dict[str, str] = {}

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.append(node.name.value)
        self.function_depth.append(False)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scope.pop()
        self.function_depth.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.function_depth and self.function_depth[-1]:
            return False  # a nested function's warning is not its parent's
        self.scope.append(node.name.value)
        self.function_depth.append(True)
        return True

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        if self.scope and self.scope[-1] == original_node.name.value and self.function_depth[-1]:
            self.scope.pop()
            self.function_depth.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if not _warning_category(node):
            return
        qualname = ".".join(self.scope)
        message = _message(node)
        self.found.setdefault(qualname, message)
        # A class whose constructor warns is itself deprecated.
        if len(self.scope) >= 2 and self.scope[-1] in ("__init__", "__new__"):
            self.found.setdefault(".".join(self.scope[:-1]), message)
