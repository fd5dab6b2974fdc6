"""Deprecation markers found in function and class bodies, read from the visit's ``ast`` tree.

A body that raises a ``DeprecationWarning`` (``warnings.warn("...", DeprecationWarning)``,
also ``PendingDeprecationWarning``/``FutureWarning`` and ``category=`` keywords) marks its
function, method, class (through ``__init__``/``__new__``) or module deprecated. Only files
whose text mentions such a warning are read, and each is read from the tree the visit
parsed anyway (reading needs no concrete syntax tree: nothing is rewritten).

Two kinds of calls do not mark anything (docs/real-world.md): calls that only mention the
category without issuing a warning (``warnings.filterwarnings("ignore", ...,
DeprecationWarning)``, ``simplefilter``, ``catch_warnings``), and warnings issued only under
a condition (inside ``if``/``for``/``while``/``except``/``else``/``case``, or a conditional
expression): those deprecate one parameter or one way of calling (``if old_param is not
None: warn(...)``) or an optional environment, not the function or module itself.

The message is the first positional argument when it is one plain string literal (an
implicit concatenation, an f-string or bytes give the generic message, as the concrete
syntax tree read them before: a message is text a snapshot records).
"""

from __future__ import annotations

import ast
import io
import tokenize

from apisurface.surface.annotationtext import final_name
from apisurface.surface.visit.mentions import WARNING_NAMES, mentions_warning

__all__ = ["WARNING_NAMES", "mentions_warning", "scan_deprecations"]


def scan_deprecations(code: str, *, tree: ast.Module | None = None) -> dict[str, str]:
    """Map qualified names inside a module ("" for the module, "Class.method") to a message.
    ``tree``: ``code`` already parsed with ``ast``.

    Raises ``SyntaxError`` (or ``ValueError``) on code that does not parse; callers treat
    that as "no markers"."""
    if tree is None:
        tree = ast.parse(code)
    scan = _Scan(code)
    scan.block(tree.body, conditional=0)
    return scan.found


_NOT_ISSUING = frozenset({"catch_warnings", "resetwarnings", "warns"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_TRIES = (ast.Try, ast.TryStar)


class _Scan:
    """One module's markers: a walk that keeps the enclosing classes and functions and how
    many conditional blocks enclose each point of the current scope."""

    def __init__(self, code: str) -> None:
        # Lines as Python numbers them (``\n``, ``\r\n`` and ``\r`` end one).
        self.lines = io.StringIO(code, newline="").readlines()
        self.scope: list[str] = []
        self.in_function: list[bool] = [False]
        self.found: dict[str, str] = {}

    def block(self, statements: list[ast.stmt], conditional: int) -> None:
        for statement in statements:
            self.statement(statement, conditional)

    def statement(self, node: ast.stmt, conditional: int) -> None:
        if isinstance(node, _SCOPES):
            if isinstance(node, ast.ClassDef) or not self.in_function[-1]:
                self.definition(node)  # a function nested in one: its warning is not the parent's
        elif isinstance(node, ast.If):
            # ``if ok: warn(...); ... else: raise X``: the warning is on the only path that
            # returns, so it is as good as unconditional (Markdown 3.3 Registry.__setitem__).
            elif_ = len(node.orelse) == 1 and self.is_elif(node)
            counted = elif_ or not (node.orelse and isinstance(node.orelse[-1], ast.Raise))
            inner = conditional + counted
            self.expression(node.test, inner)
            self.block(node.body, inner)
            self.block(node.orelse, inner if elif_ else inner + 1)
        elif isinstance(node, _LOOPS):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expression(child, conditional + 1)
            self.block(node.body, conditional + 1)
            self.block(node.orelse, conditional + 2)
        elif isinstance(node, _TRIES):
            self.block(node.body, conditional)
            for handler in node.handlers:
                if handler.type is not None:
                    self.expression(handler.type, conditional + 1)
                self.block(handler.body, conditional + 1)
            self.block(node.orelse, conditional + 1)
            self.block(node.finalbody, conditional)
        elif isinstance(node, ast.Match):
            self.expression(node.subject, conditional)
            for case in node.cases:
                for child in ast.iter_child_nodes(case):
                    if isinstance(child, ast.expr):
                        self.expression(child, conditional + 1)
                self.block(case.body, conditional + 1)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    self.statement(child, conditional)
                elif isinstance(child, ast.expr):
                    self.expression(child, conditional)
                elif isinstance(child, ast.withitem):
                    self.expression(child.context_expr, conditional)
                    if child.optional_vars is not None:
                        self.expression(child.optional_vars, conditional)

    def definition(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        """A class or function: its decorators, header and body, in source order, in its own
        scope (no enclosing condition counts inside it)."""
        self.scope.append(node.name)
        self.in_function.append(not isinstance(node, ast.ClassDef))
        header: list[ast.expr | None] = list(node.decorator_list)
        if isinstance(node, ast.ClassDef):
            header += [*node.bases, *(item.value for item in node.keywords)]
        else:
            header += _parameter_parts(node.args)
            header.append(node.returns)
        for part in header:
            if part is not None:
                self.expression(part, 0)
        self.block(node.body, 0)
        self.in_function.pop()
        self.scope.pop()

    def expression(self, node: ast.expr, conditional: int) -> None:
        stack: list[tuple[ast.AST, int]] = [(node, conditional)]
        while stack:
            item, depth = stack.pop()
            if isinstance(item, ast.IfExp):
                depth += 1
            elif isinstance(item, ast.Call) and not depth:
                self.call(item)
            children = list(ast.iter_child_nodes(item))
            stack.extend((child, depth) for child in reversed(children))  # in source order

    def is_elif(self, node: ast.If) -> bool:
        """Whether ``node``'s only ``orelse`` statement is an ``elif`` (not an ``else:``
        block holding one ``if``): ``ast`` writes both alike, the text tells them apart."""
        inner = node.orelse[0]
        if not isinstance(inner, ast.If) or inner.lineno > len(self.lines):
            return False
        line = self.lines[inner.lineno - 1].encode("utf-8", "surrogatepass")
        return line[inner.col_offset :].startswith(b"elif")

    def call(self, call: ast.Call) -> None:
        if not _warning_category(call):
            return
        qualname = ".".join(self.scope)
        message = _message(call, self.lines)
        self.found.setdefault(qualname, message)
        # A class whose constructor warns is itself deprecated.
        if len(self.scope) >= 2 and self.scope[-1] in ("__init__", "__new__"):
            self.found.setdefault(".".join(self.scope[:-1]), message)


def _parameter_parts(arguments: ast.arguments) -> list[ast.expr | None]:
    """Each parameter's annotation then default, in the order they are written."""
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults += arguments.defaults
    parts: list[ast.expr | None] = []
    for argument, default in zip(positional, defaults, strict=True):
        parts += [argument.annotation, default]
    if arguments.vararg is not None:
        parts.append(arguments.vararg.annotation)
    for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        parts += [argument.annotation, default]
    if arguments.kwarg is not None:
        parts.append(arguments.kwarg.annotation)
    return parts


def _name(node: ast.expr) -> str | None:
    """The name a call's function or argument ends in (``warnings.warn`` -> ``warn``)."""
    return final_name(node.value if isinstance(node, ast.Starred) else node)


def _issues_warning(call: ast.Call) -> bool:
    """Whether the call emits a warning (``warn``, ``warn_explicit``, a project helper such
    as ``warn_deprecated``), not one that filters, records or tests warnings."""
    name = _name(call.func)
    if name is None:
        return False
    lowered = name.lower()
    return "warn" in lowered and "filter" not in lowered and lowered not in _NOT_ISSUING


def _warning_category(call: ast.Call) -> bool:
    if not _issues_warning(call):
        return False
    arguments = [*call.args, *(item.value for item in call.keywords if item.arg is None)]
    if any(_name(item) in WARNING_NAMES for item in arguments):
        return True
    return any(
        item.arg == "category" and _name(item.value) in WARNING_NAMES for item in call.keywords
    )


def _message(call: ast.Call, lines: list[str]) -> str:
    for argument in call.args:
        if not isinstance(argument, ast.Constant) or not isinstance(argument.value, str):
            continue
        if _one_literal(argument, lines):
            return " ".join(argument.value.split())[:200]
    return "raises DeprecationWarning"


def _one_literal(node: ast.Constant, lines: list[str]) -> bool:
    """Whether a constant is written as one literal (not ``"a" "b"``, which ``ast`` joins)."""
    end_lineno, end_col = node.end_lineno, node.end_col_offset
    if end_lineno is None or end_col is None or end_lineno > len(lines):
        return False
    text = [line.encode("utf-8", "surrogatepass") for line in lines[node.lineno - 1 : end_lineno]]
    text[-1] = text[-1][:end_col]
    text[0] = text[0][node.col_offset :]
    segment = b"".join(text).decode("utf-8", "surrogatepass")
    try:
        tokens = [
            token
            for token in tokenize.generate_tokens(io.StringIO(segment).readline)
            if token.type not in _LAYOUT
        ]
    except (tokenize.TokenError, SyntaxError):
        return False
    return len(tokens) == 1 and tokens[0].type == tokenize.STRING


_LAYOUT = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER, tokenize.COMMENT})
