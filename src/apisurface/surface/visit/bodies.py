"""What the link reads of function bodies, read once from the visit's tree of the file.

The link asks of a function's body (it never parses one itself):

- the keywords it reads from its ``**kwargs`` with a default, and whether it hands its
  ``**kwargs`` on to another call (:mod:`apisurface.surface.link.describe`);
- what its ``return`` statements give, each as far as syntax alone says it: a type, or the
  dotted name of the callable called, as written (the link resolves it);
- the parameter it returns (a synonym-making helper), whether it is only ``...``/``pass``
  (:mod:`apisurface.surface.link.synonyms`);
- the parameters it converts on use and the calls it hands parameters to
  (:mod:`apisurface.surface.link.conversions`);
- the calls it makes on every run that may be deprecation helpers
  (:mod:`apisurface.surface.link.helperdeprecation`);
- whether it only calls its base's method of the same name
  (:mod:`apisurface.surface.link.deprecated`).

Each function is keyed by the line griffe gives it (its first decorator's, else its
``def``'s) and carries its name and last line, so that the link takes only the facts of
the definition it holds. A function with nothing to tell is left out. Besides, the lines
of the assignments griffe may make attributes of (``aliases._annotation_left_over``).
Every name stays as written: the link resolves names.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from apisurface.surface.annotationtext import dotted_name

__all__ = [
    "Bodies",
    "Body",
    "Handoff",
    "Keyword",
    "decode_bodies",
    "delegates",
    "encode_bodies",
    "read_bodies",
    "scope_nodes",
    "written_value",
]

MAX_ITEMS = 200_000
"""Most entries of any one list of :class:`Bodies` (real files stay far below)."""

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_WRAPS = frozenset({"wraps", "functools.wraps"})
_BUILTIN_TYPES = frozenset({"str", "bytes", "int", "float", "bool", "complex"})
_LITERALS: dict[type[ast.AST], str] = {
    ast.List: "list",
    ast.ListComp: "list",
    ast.Tuple: "tuple",
    ast.Set: "set",
    ast.SetComp: "set",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.JoinedStr: "str",
}


@dataclass(frozen=True, slots=True)
class Keyword:
    """A keyword read from ``**kwargs`` with a default: ``kwargs.pop("name", default)``."""

    name: str
    default: str  # unparsed
    plain: bool  # the default is a plain name (the link may resolve it to a constant)
    names: tuple[str, ...]  # the names the default reads


@dataclass(frozen=True, slots=True)
class Handoff:
    """A call of a plain name that is handed parameters: ``f(p, key=q)``."""

    function: str
    keywords: tuple[tuple[str, str], ...]  # keyword -> the parameter passed
    positional: tuple[str, ...]  # each positional argument's name ("" when not a name)


@dataclass(frozen=True, slots=True)
class Body:
    """The facts of one function's body (see the module's docstring)."""

    name: str
    endlineno: int
    kwargs: str | None = None
    keywords: tuple[Keyword, ...] = ()
    forwards: bool = False
    # (is a call, text): a type, or a call's dotted name as written; None: no type.
    returns: tuple[tuple[bool, str], ...] | None = None
    falls_off: bool = False
    returns_parameter: str | None = None
    placeholder: bool = False
    positional: tuple[str, ...] = ()  # positional-only and positional-or-keyword names
    keyword_only: tuple[str, ...] = ()
    conversions: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    handoffs: tuple[Handoff, ...] = ()
    called: tuple[str, ...] = ()
    delegates: bool = False


@dataclass(frozen=True, slots=True)
class Bodies:
    """The bodies of one file's functions by line, and its attribute assignments' lines."""

    functions: Mapping[int, Body] = field(default_factory=dict)
    assignments: frozenset[int] = frozenset()


# --- readers of one function's tree ---------------------------------------------------


# Nodes a walk of a scope steps over: another scope, and nodes with no node of interest
# below them (names, constants, operators, contexts).
_OTHER_SCOPES = (*_FUNCTIONS, ast.Lambda, ast.ClassDef)
_BARE = (
    ast.Name,
    ast.Constant,
    ast.expr_context,
    ast.operator,
    ast.unaryop,
    ast.boolop,
    ast.cmpop,
)
_READ = (ast.Return, ast.Yield, ast.YieldFrom, ast.Call, ast.If, ast.IfExp)


_STATEMENTS_ONLY = (*_BARE, ast.expr)


def _children(node: ast.AST, skip: tuple[type[ast.AST], ...] = _BARE) -> list[ast.AST]:
    """``ast.iter_child_nodes(node)`` as a list, without the nodes of the kinds ``skip``."""
    found: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            found.extend(
                item for item in value if isinstance(item, ast.AST) and not isinstance(item, skip)
            )
        elif isinstance(value, ast.AST) and not isinstance(value, skip):
            found.append(value)
    return found


def scope_nodes(node: ast.AST, *, statements: bool = False) -> list[ast.AST]:
    """The nodes of a function's own scope (not of nested functions, lambdas, classes) that
    the readings look at (``return``, ``yield``, calls, ``if``), in a fixed order; with
    ``statements``, only statements (``return`` and ``if``: no expression is walked, and
    the order of those is the same)."""
    skip = _STATEMENTS_ONLY if statements else _BARE
    found: list[ast.AST] = []
    stack = _children(node, skip)
    while stack:
        item = stack.pop()
        if isinstance(item, _OTHER_SCOPES):
            continue
        if isinstance(item, _READ):
            found.append(item)
        stack.extend(_children(item, skip))
    return found


def written_value(node: ast.expr) -> tuple[bool, str] | None:
    """What a value is as far as its syntax says: ``(False, type)`` for a literal,
    ``(True, dotted name as written)`` for a call (the link resolves it); None when
    neither. Returns are read with it here, unannotated values by the link."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        node = node.operand
    if isinstance(node, ast.Constant):
        return False, "None" if node.value is None else type(node.value).__name__
    found = _LITERALS.get(type(node))
    if found is not None:
        return False, found
    if isinstance(node, ast.Call):
        written = dotted_name(node.func)
        return None if written is None else (True, written)
    return None


def _returns(scope: list[ast.AST]) -> tuple[tuple[bool, str], ...] | None:
    """The values a function's ``return`` statements give, in scope order; None when one
    gives no type, it yields, or every one gives ``None``."""
    found: list[tuple[bool, str]] = []
    for item in scope:
        if isinstance(item, (ast.Yield, ast.YieldFrom)):
            return None
        if not isinstance(item, ast.Return):
            continue
        value = (False, "None") if item.value is None else written_value(item.value)
        if value is None:
            return None
        if value not in found:
            found.append(value)
    if all(item == (False, "None") for item in found):
        return None
    return tuple(found)


def falls_off_end(body: list[ast.stmt]) -> bool:
    """Whether control can reach the end of ``body`` (a function then returns ``None``)."""
    if not body:
        return True
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return False
    if isinstance(last, ast.If):
        return falls_off_end(last.body) or falls_off_end(last.orelse)
    if isinstance(last, ast.Try):
        if last.finalbody and not falls_off_end(last.finalbody):
            return False
        ends = [last.orelse or last.body, *(handler.body for handler in last.handlers)]
        return any(falls_off_end(part) for part in ends)
    if isinstance(last, ast.With | ast.AsyncWith):
        return falls_off_end(last.body)
    if isinstance(last, ast.While):
        test = last.test
        return not (isinstance(test, ast.Constant) and test.value is True)
    return True


def _keywords(scope: list[ast.AST], kwargs: str) -> tuple[Keyword, ...]:
    """The keywords read from ``**kwargs`` (named ``kwargs``) with a default, first read
    first: ``kwargs.pop("name", default)`` / ``kwargs.get(...)``."""
    found: dict[str, ast.expr] = {}
    calls = [item for item in scope if isinstance(item, ast.Call)]
    for item in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):
        function = item.func
        if not (
            isinstance(function, ast.Attribute)
            and function.attr in ("pop", "get")
            and isinstance(function.value, ast.Name)
            and function.value.id == kwargs
            and len(item.args) == 2
            and not item.keywords
        ):
            continue
        key = item.args[0]
        if (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and key.value.isidentifier()
        ):
            found.setdefault(key.value, item.args[1])
    return tuple(
        Keyword(
            name,
            ast.unparse(default),
            isinstance(default, ast.Name),
            tuple(sorted({part.id for part in ast.walk(default) if isinstance(part, ast.Name)})),
        )
        for name, default in found.items()
    )


def _forwards(scope: list[ast.AST], kwargs: str) -> bool:
    """Whether the function passes its ``**kwargs`` on to a call in its own scope."""
    return any(
        isinstance(item, ast.Call)
        and any(
            keyword.arg is None
            and isinstance(keyword.value, ast.Name)
            and keyword.value.id == kwargs
            for keyword in item.keywords
        )
        for item in scope
    )


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


def _guarded_returns(scope: list[ast.AST]) -> list[tuple[ast.Return, str | None]]:
    """The ``return`` statements of a function's own scope, each with the parameter whose
    ``if <parameter> is None:`` test guards it, if any."""
    guards: dict[int, str] = {}
    for item in scope:
        if isinstance(item, ast.If):
            name = _none_test(item.test)
            if name is not None:
                for inner in item.body:
                    for sub in (inner, *scope_nodes(inner, statements=True)):
                        guards.setdefault(id(sub), name)
    return [(item, guards.get(id(item))) for item in scope if isinstance(item, ast.Return)]


def _returned_parameter(
    node: ast.FunctionDef | ast.AsyncFunctionDef, parameters: set[str], scope: list[ast.AST]
) -> str | None:
    """The parameter every ``return`` returns, itself or through a local function
    decorated ``@functools.wraps(<it>)``; returns under ``if <it> is None:`` aside."""
    wrappers: dict[str, str] = {}  # local function -> the parameter it wraps
    for statement in node.body:
        if not isinstance(statement, _FUNCTIONS):
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
    for statement, guard in _guarded_returns(scope):
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


def _is_placeholder(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A body of only ``...`` or ``pass``."""
    if len(node.body) != 1:
        return False
    only = node.body[0]
    return isinstance(only, ast.Pass) or (
        isinstance(only, ast.Expr)
        and isinstance(only.value, ast.Constant)
        and only.value.value is Ellipsis
    )


def _isinstance_test(test: ast.expr) -> tuple[str, tuple[str, ...]] | None:
    """``(p, (T, ...))`` of ``isinstance(p, T)`` / ``isinstance(p, (T1, T2))``, builtin
    types only."""
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
    return test.args[0].id, tuple(sorted(set(names)))


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


def _if_conversion(item: ast.If) -> tuple[str, str, tuple[str, ...]] | None:
    """``if isinstance(p, T): p = C(p)``."""
    tested = _isinstance_test(item.test)
    if tested is None:
        return None
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
                return name, converter, kinds
    return None


def _conversions(scope: list[ast.AST]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """The parameters converted on use: ``C(p) if isinstance(p, T) else p`` and
    ``if isinstance(p, T): p = C(p)`` (first one of each parameter)."""
    found: dict[str, tuple[str, str, tuple[str, ...]]] = {}
    for item in scope:
        if isinstance(item, ast.IfExp):
            tested = _isinstance_test(item.test)
            if tested is None:
                continue
            name, kinds = tested
            converter = _converter(item.body, name)
            if converter and isinstance(item.orelse, ast.Name) and item.orelse.id == name:
                found.setdefault(name, (name, converter, kinds))
        elif isinstance(item, ast.If):
            conversion = _if_conversion(item)
            if conversion is not None:
                found.setdefault(conversion[0], conversion)
    return tuple(found.values())


def _handoffs(scope: list[ast.AST], parameters: set[str]) -> tuple[Handoff, ...]:
    """The calls of plain names in scope order that are handed a parameter by name."""
    found: list[Handoff] = []
    for item in scope:
        if not isinstance(item, ast.Call) or not isinstance(item.func, ast.Name):
            continue
        passed = tuple(
            (keyword.arg, keyword.value.id)
            for keyword in item.keywords
            if keyword.arg
            and isinstance(keyword.value, ast.Name)
            and keyword.value.id in parameters
        )
        positional = tuple(arg.id if isinstance(arg, ast.Name) else "" for arg in item.args)
        if passed or set(positional) & parameters:
            found.append(Handoff(item.func.id, passed, positional))
    return tuple(found)


def _may_be_helper(name: str) -> bool:
    """Whether a called name may be a deprecation helper: its last part mentions
    ``deprecat`` or ``warn``, or is private (the link decides which ones are)."""
    last = name.rpartition(".")[2]
    lowered = last.lower()
    return "deprecat" in lowered or "warn" in lowered or (last.startswith("_") and last != "_")


def _called(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """Dotted names of the calls the function makes on every run, in order (those that
    may be deprecation helpers)."""
    names: list[str] = []
    body = list(node.body)
    while body:
        statement = body.pop(0)
        if isinstance(statement, (ast.With, ast.AsyncWith)):
            body[:0] = statement.body
            continue
        value: ast.expr | None = None
        if isinstance(statement, (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign)):
            value = statement.value
        if isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.Call):
            name = dotted_name(value.func)
            if name is not None and _may_be_helper(name):
                names.append(name)
    return tuple(names)


def delegates(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a method only calls its base's method of the same name:
    ``super().__init__(...)``, ``super(Cls, self).__init__(...)``, ``Base.__init__(self,
    ...)`` (also returned), besides a docstring and ``pass``."""
    calls = 0
    for statement in node.body:
        if isinstance(statement, ast.Pass) or (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            continue
        value = statement.value if isinstance(statement, (ast.Expr, ast.Return)) else None
        if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
            return False
        if value.func.attr != node.name:
            return False
        owner = value.func.value
        is_super = (
            isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
        ) and owner.func.id == "super"
        if not (is_super or isinstance(owner, (ast.Name, ast.Attribute))):
            return False
        calls += 1
    return calls == 1


# A ``return`` with a value other than a plain ``None`` (text only: a false match in a
# string or comment costs a walk of the body, never an answer).
_RETURNS_VALUE = re.compile(r"\breturn\b[ \t]*(?!None[ \t]*(?:[#;]|$))[^\s#;]", re.MULTILINE)
_NEWLINES = re.compile(r"\r\n?|\n")


def _string_default(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a default may render as a string (the link then asks what the function
    converts): a plain name (a constant's value), or a default holding a string."""
    for default in (*node.args.defaults, *node.args.kw_defaults):
        if default is None:
            continue
        if isinstance(default, ast.Name) or any(
            isinstance(part, ast.Constant) and isinstance(part.value, (str, bytes))
            for part in ast.walk(default)
        ):
            return True
    return False


@dataclass(frozen=True, slots=True)
class _Asked:
    """Which readings of one function's scope the link may ask for (each walk costs: the
    visit reads only what a function's header and text make possible)."""

    keywords: bool  # it has ``**kwargs``
    returns: bool  # no return annotation, and a ``return`` with a value
    parameter: bool  # a module-level function with a ``return``
    conversions: bool  # it mentions ``isinstance``
    handoffs: bool  # a default may render as a string

    @classmethod
    def of(cls, node: ast.FunctionDef | ast.AsyncFunctionDef, text: str, top: bool) -> _Asked:
        kwargs = node.args.kwarg
        return cls(
            # ``**kwargs`` named again after the header: it may be read or handed on
            keywords=kwargs is not None
            and len(re.findall(rf"\b{re.escape(kwargs.arg)}\b", text)) > 1,
            returns=node.returns is None and _RETURNS_VALUE.search(text) is not None,
            parameter=top and "return" in text,
            conversions="isinstance" in text,
            handoffs=_string_default(node),
        )

    def scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef, text: str) -> list[ast.AST]:
        """The nodes of the scope the readings asked for need: all, only its statements
        (the ``return`` statements, when no ``yield`` can be among them), or none."""
        if self.keywords or self.conversions or self.handoffs:
            return scope_nodes(node)
        if self.returns or self.parameter:
            return scope_nodes(node, statements="yield" not in text)
        return []


def read_body(node: ast.FunctionDef | ast.AsyncFunctionDef, text: str, top: bool) -> Body:
    """The facts of one function's body (at most one walk of its own scope). ``text``: its
    lines; ``top``: whether it is defined at module level (griffe's parent is the module)."""
    asked = _Asked.of(node, text, top)
    scope = asked.scope(node, text)
    arguments = node.args
    positional = tuple(arg.arg for arg in (*arguments.posonlyargs, *arguments.args))
    keyword_only = tuple(arg.arg for arg in arguments.kwonlyargs)
    parameters = {*positional, *keyword_only}
    kwargs = arguments.kwarg.arg if asked.keywords and arguments.kwarg is not None else None
    returns = _returns(scope) if asked.returns else None
    conversions = _conversions(scope) if asked.conversions else ()
    handoffs = _handoffs(scope, parameters) if asked.handoffs else ()
    return Body(
        name=node.name,
        endlineno=node.end_lineno or node.lineno,
        kwargs=kwargs,
        keywords=_keywords(scope, kwargs) if kwargs is not None else (),
        forwards=kwargs is not None and _forwards(scope, kwargs),
        returns=returns,
        falls_off=returns is not None and falls_off_end(node.body),
        returns_parameter=(
            _returned_parameter(node, parameters, scope) if asked.parameter else None
        ),
        placeholder=_is_placeholder(node),
        positional=positional if conversions or handoffs else (),
        keyword_only=keyword_only if conversions or handoffs else (),
        conversions=conversions,
        handoffs=handoffs,
        called=_called(node),
        delegates=delegates(node),
    )


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The line griffe gives a function: its first decorator's, else its ``def``'s."""
    return node.decorator_list[0].lineno if node.decorator_list else node.lineno


def _blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists inside a compound statement (not a function's or a class's)."""
    for part in ("body", "orelse", "finalbody"):
        block = getattr(statement, part, None)
        if isinstance(block, list):
            yield block
    for handler in getattr(statement, "handlers", ()):
        yield handler.body
    for case in getattr(statement, "cases", ()):
        yield case.body


_ATTRIBUTE_VALUES = (ast.Call, ast.Name, ast.Attribute)


def read_bodies(tree: ast.Module, text: str) -> Bodies:
    """The facts of every function body of a file (:class:`Bodies`), walking its
    statements only (``text``: the file the tree is of, for the lines of each function)."""
    lines = _NEWLINES.split(text)
    functions: dict[int, Body] = {}
    assignments: set[int] = set()
    # (statements, at module level, where griffe may read attributes)
    stack: list[tuple[list[ast.stmt], bool, bool]] = [(tree.body, True, True)]
    while stack:
        statements, top, attributes = stack.pop()
        for statement in statements:
            if isinstance(statement, _FUNCTIONS):
                first = _first_line(statement)
                own = "\n".join(lines[first - 1 : statement.end_lineno])
                body = read_body(statement, own, top)
                if body != Body(body.name, body.endlineno, kwargs=body.kwargs):
                    functions.setdefault(first, body)
                stack.append((statement.body, False, statement.name == "__init__"))
            elif isinstance(statement, ast.ClassDef):
                stack.append((statement.body, False, True))
            elif isinstance(statement, ast.Assign):
                if attributes and isinstance(statement.value, _ATTRIBUTE_VALUES):
                    assignments.add(statement.lineno)
            else:
                stack.extend((block, top, attributes) for block in _blocks(statement))
    return Bodies(functions, frozenset(assignments))


# --- as plain data -------------------------------------------------------------------


def _body_value(lineno: int, body: Body) -> list[Any]:
    return [
        lineno,
        body.name,
        body.endlineno,
        body.kwargs,
        [[item.name, item.default, item.plain, list(item.names)] for item in body.keywords],
        body.forwards,
        None if body.returns is None else [list(item) for item in body.returns],
        body.falls_off,
        body.returns_parameter,
        body.placeholder,
        list(body.positional),
        list(body.keyword_only),
        [[name, converter, list(kinds)] for name, converter, kinds in body.conversions],
        [
            [item.function, [list(pair) for pair in item.keywords], list(item.positional)]
            for item in body.handoffs
        ],
        list(body.called),
        body.delegates,
    ]


def encode_bodies(bodies: Bodies) -> dict[str, Any]:
    """``bodies`` as a JSON object."""
    return {
        "functions": [_body_value(lineno, body) for lineno, body in bodies.functions.items()],
        "assignments": sorted(bodies.assignments),
    }


def _check(value: object, kind: type, what: str) -> Any:
    if type(value) is not kind:
        raise ValueError(f"{what} is not a {kind.__name__}")
    return value


def _items(value: object, what: str, length: int | None = None) -> list[Any]:
    items: list[Any] = _check(value, list, what)
    if len(items) > MAX_ITEMS or (length is not None and len(items) != length):
        raise ValueError(f"{what} has the wrong length")
    return items


def _text(value: object) -> str:
    found: str = _check(value, str, "a text")
    return found


def _optional_text(value: object) -> str | None:
    return None if value is None else _text(value)


def _flag(value: object) -> bool:
    found: bool = _check(value, bool, "a flag")
    return found


def _line(value: object) -> int:
    found: int = _check(value, int, "a line")
    if found < 0:
        raise ValueError("a line is negative")
    return found


def _texts(value: object) -> tuple[str, ...]:
    return tuple(_text(item) for item in _items(value, "a list of texts"))


def _each(value: object, length: int, read: Callable[[list[Any]], Any]) -> tuple[Any, ...]:
    return tuple(read(_items(item, "an entry", length)) for item in _items(value, "a list"))


def _keyword(item: list[Any]) -> Keyword:
    return Keyword(_text(item[0]), _text(item[1]), _flag(item[2]), _texts(item[3]))


def _returned_value(item: list[Any]) -> tuple[bool, str]:
    return _flag(item[0]), _text(item[1])


def _conversion(item: list[Any]) -> tuple[str, str, tuple[str, ...]]:
    return _text(item[0]), _text(item[1]), _texts(item[2])


def _passed(pair: list[Any]) -> tuple[str, str]:
    return _text(pair[0]), _text(pair[1])


def _handoff(item: list[Any]) -> Handoff:
    return Handoff(_text(item[0]), _each(item[1], 2, _passed), _texts(item[2]))


def _body(value: list[Any]) -> tuple[int, Body]:
    returns = value[6]
    return _line(value[0]), Body(
        name=_text(value[1]),
        endlineno=_line(value[2]),
        kwargs=_optional_text(value[3]),
        keywords=_each(value[4], 4, _keyword),
        forwards=_flag(value[5]),
        returns=None if returns is None else _each(returns, 2, _returned_value),
        falls_off=_flag(value[7]),
        returns_parameter=_optional_text(value[8]),
        placeholder=_flag(value[9]),
        positional=_texts(value[10]),
        keyword_only=_texts(value[11]),
        conversions=_each(value[12], 3, _conversion),
        handoffs=_each(value[13], 3, _handoff),
        called=_texts(value[14]),
        delegates=_flag(value[15]),
    )


def decode_bodies(value: object) -> Bodies:
    """:class:`Bodies` read back from :func:`encode_bodies`; ValueError when it is not."""
    entry: dict[str, Any] = _check(value, dict, "the bodies")
    if entry.keys() != {"functions", "assignments"}:
        raise ValueError("not the bodies of a file")
    functions = dict(_each(entry["functions"], 16, _body))
    assignments = frozenset(_line(item) for item in _items(entry["assignments"], "lines"))
    return Bodies(functions, assignments)
