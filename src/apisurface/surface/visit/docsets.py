"""Docstrings a module sets at run time, read from its text (POLICY.md 2.5).

A docstring need not be written as the first statement of its body: a module can assign
it (``f.__doc__ = "..."``, also in a loop over names), copy it (``functools.wraps(g)``,
``update_wrapper(f, g)``, ``f.__doc__ = g.__doc__``) or have a decorator or helper of its own
set it (a function whose body assigns ``__doc__``). Read with ``ast`` (nothing is imported
or run): for each object the file may document so, how (:class:`DocSet`); and which of the
file's functions assign ``__doc__`` in their bodies (so that the link can tell a decorator
or helper that sets a docstring from one that does not). The link resolves the names.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import griffe

from apisurface.surface.visit.declared import module_statements

__all__ = ["EMPTY", "DocFacts", "DocSet", "document_at_run_time", "read_docsets"]

MAX_TARGETS = 10_000
"""The most objects one file's facts name (real files: a few dozen)."""

_WRAPS = frozenset({"wraps", "functools.wraps"})
_UPDATE_WRAPPER = frozenset({"update_wrapper", "functools.update_wrapper"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True, slots=True)
class DocSet:
    """One way the file documents an object at run time (exactly one field besides
    ``line`` is set)."""

    line: int
    text: str | None = None
    """The literal text assigned."""
    source: str | None = None
    """The name whose docstring is copied (``wraps(g)``, ``g.__doc__``), as written."""
    helper: str | None = None
    """The decorator or function that may set it (a documentation helper when its body
    assigns ``__doc__``), as written."""
    arguments: tuple[str, ...] = ()
    """The positional arguments of a decorator call (``@async_variant(sync_first)``), each
    a dotted name as written (``""`` for anything else): one may be where the docstring
    is copied from (a helper in ``copiers``)."""


@dataclass(frozen=True, slots=True)
class DocFacts:
    """What a file documents at run time: objects by their path in the module as written
    (``f``, ``Tool.run``; ``""`` for the module itself), and the qualified names of the
    file's functions whose bodies assign ``__doc__``."""

    targets: Mapping[str, tuple[DocSet, ...]] = field(default_factory=dict)
    setters: frozenset[str] = frozenset()
    copiers: Mapping[str, int] = field(default_factory=dict)
    """Functions whose bodies copy the docstring of one of their own parameters
    (``functools.wraps(normal_func)`` in jinja2's ``async_variant(normal_func)``), by
    qualified name: that parameter's position."""


EMPTY = DocFacts()
_Add = Callable[[str | None, DocSet], None]


def read_docsets(text: str, tree: ast.Module) -> DocFacts:
    """The :class:`DocFacts` of a file (``tree``: its ``text`` parsed)."""
    if "__doc__" not in text and "wraps" not in text and "update_wrapper" not in text:
        return EMPTY
    targets: dict[str, list[DocSet]] = {}
    setters: set[str] = set()
    copiers: dict[str, int] = {}
    undocumented: set[str] = set()

    def add(target: str | None, how: DocSet) -> None:
        if target is not None and len(targets) < MAX_TARGETS:
            targets.setdefault(target, []).append(how)

    _definitions(tree.body, "", undocumented, (setters, copiers), add)
    for statement in module_statements(tree.body):
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                name = _doc_of(target)
                if name is not None:
                    add(name, _value(statement.value, statement.lineno))
            if (
                len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and statement.targets[0].id == "__doc__"
            ):
                add("", _value(statement.value, statement.lineno))
            if isinstance(statement.value, ast.Call):
                _call(statement.value, statement.lineno, undocumented, add)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            _call(statement.value, statement.lineno, undocumented, add)
        elif isinstance(statement, ast.For) and isinstance(statement.target, ast.Name):
            _loop(statement, add)
    found = {name: tuple(ways) for name, ways in targets.items()}
    return DocFacts(found, frozenset(setters), copiers)


def _definitions(
    body: list[ast.stmt],
    prefix: str,
    undocumented: set[str],
    helpers: tuple[set[str], dict[str, int]],
    add: _Add,
) -> None:
    """Walk the module's and classes' definitions: decorators that copy or may set a
    docstring of an undocumented one, a class body's ``__doc__ = "..."``, and the
    functions whose bodies assign ``__doc__``."""
    for statement in module_statements(body):
        if not isinstance(statement, (*_FUNCTIONS, ast.ClassDef)):
            continue
        qualname = f"{prefix}{statement.name}"
        setters, copiers = helpers
        if isinstance(statement, _FUNCTIONS) and _assigns_doc(statement):
            setters.add(qualname)
        if isinstance(statement, _FUNCTIONS):
            copied = _copied_parameter(statement)
            if copied is not None:
                copiers[qualname] = copied
        if ast.get_docstring(statement, clean=False) is None:
            undocumented.add(qualname)
            for decorator in statement.decorator_list:
                add(qualname, _decorator(decorator))
        if isinstance(statement, ast.ClassDef):
            for item in statement.body:
                if (
                    isinstance(item, ast.Assign)
                    and len(item.targets) == 1
                    and isinstance(item.targets[0], ast.Name)
                    and item.targets[0].id == "__doc__"
                ):
                    add(qualname, _value(item.value, item.lineno))
            _definitions(statement.body, f"{qualname}.", undocumented, helpers, add)


def _decorator(node: ast.expr) -> DocSet:
    """How a decorator may document what it decorates: ``@wraps(g)`` copies ``g``'s
    docstring; any other may set one (``@copy_doc(g)``, ``@helper``)."""
    called = node.func if isinstance(node, ast.Call) else node
    spelled = _dotted(called) or ""
    if isinstance(node, ast.Call) and spelled in _WRAPS and node.args:
        return DocSet(node.lineno, source=_dotted(node.args[0]))
    arguments = (
        tuple(_dotted(item) or "" for item in node.args) if isinstance(node, ast.Call) else ()
    )
    return DocSet(node.lineno, helper=spelled or None, arguments=arguments)


def _call(call: ast.Call, line: int, undocumented: set[str], add: _Add) -> None:
    """A module-level call: ``update_wrapper(f, g)`` copies ``g``'s docstring into ``f``;
    ``helper(f, ...)`` of an undocumented ``f`` of the file may set it."""
    spelled = _dotted(call.func)
    if spelled is None or not call.args:
        return
    first = _dotted(call.args[0])
    if spelled in _UPDATE_WRAPPER and len(call.args) >= 2:
        add(first, DocSet(line, source=_dotted(call.args[1])))
    elif isinstance(call.func, ast.Call) and _dotted(call.func.func) in _WRAPS:
        if call.func.args:  # ``wraps(g)(f)``
            add(first, DocSet(line, source=_dotted(call.func.args[0])))
    elif first in undocumented:
        add(first, DocSet(line, helper=spelled))


def _loop(loop: ast.For, add: _Add) -> None:
    """``for f in (a, b): f.__doc__ = ...``: each name of the literal sequence."""
    assert isinstance(loop.target, ast.Name)
    variable = loop.target.id
    if not isinstance(loop.iter, (ast.Tuple, ast.List, ast.Set)):
        return
    for statement in loop.body:
        if not isinstance(statement, ast.Assign):
            continue
        if not any(_doc_of(target) == variable for target in statement.targets):
            continue
        how = _value(statement.value, statement.lineno)
        for item in loop.iter.elts:
            add(_dotted(item), how)


def _value(node: ast.expr, line: int) -> DocSet:
    """What an assignment to ``__doc__`` gives: a literal text, another object's
    docstring (``g.__doc__``), or something computed (still a docstring: its expression)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return DocSet(line, text=node.value)
    source = _doc_of(node)
    if source is not None:
        return DocSet(line, source=source)
    return DocSet(line, text=f"(set at run time: {ast.unparse(node)[:200]})")


def _doc_of(node: ast.expr) -> str | None:
    """``f`` of ``f.__doc__`` (a dotted name), else None."""
    if isinstance(node, ast.Attribute) and node.attr == "__doc__":
        return _dotted(node.value)
    return None


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _assigns_doc(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function's body (nested functions included) assigns ``__doc__``:
    ``x.__doc__ = ...``, ``setattr(x, "__doc__", ...)``."""
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "__doc__" for t in targets):
                return True
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "setattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == "__doc__"
        ):
            return True
    return False


def _copied_parameter(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
    """The position of the parameter whose docstring the function's body copies into what
    it makes (``wraps(P)``, ``update_wrapper(x, P)``, ``x.__doc__ = P.__doc__``), when P is
    one of its own positional parameters."""
    params = [item.arg for item in (*function.args.posonlyargs, *function.args.args)]
    for node in ast.walk(function):
        source: ast.expr | None = None
        if isinstance(node, ast.Call):
            spelled = _dotted(node.func) or ""
            if spelled in _WRAPS and node.args:
                source = node.args[0]
            elif spelled in _UPDATE_WRAPPER and len(node.args) >= 2:
                source = node.args[1]
        elif isinstance(node, ast.Assign) and any(_doc_of(t) for t in node.targets):
            copied = _doc_of(node.value)
            source = ast.Name(copied) if copied is not None else None
        if isinstance(source, ast.Name) and source.id in params:
            return params.index(source.id)
    return None


_PASSES = 8
"""Copies of copies are followed this many links deep."""


def document_at_run_time(
    modules: Mapping[str, griffe.Module], facts: Mapping[str, DocFacts]
) -> None:
    """Give each object of the linked package that a file documents at run time (``facts``
    by module name) and that has no docstring of its own the docstring it gets: the text
    assigned, the one copied (when the source has one; a source outside the package is
    taken to have one), or a stand-in naming the helper that sets it (a function of the
    package whose body assigns ``__doc__``)."""
    pending = [
        (modules[name], target, how)
        for name, found in facts.items()
        if name in modules
        for target, ways in found.targets.items()
        for how in ways
    ]
    for _ in range(_PASSES):
        left: list[tuple[griffe.Module, str, DocSet]] = []
        for module, target, how in pending:
            obj = module if not target else _object(module, target)
            if obj is None or (obj.docstring is not None and obj.docstring.value.strip()):
                continue
            text = _text(module, how, facts)
            if text is None:
                left.append((module, target, how))
                continue
            obj.docstring = griffe.Docstring(text, lineno=how.line, parent=obj)
        if len(left) == len(pending):
            break
        pending = left


def _text(module: griffe.Module, how: DocSet, facts: Mapping[str, DocFacts]) -> str | None:
    if how.text is not None:
        return how.text
    if how.source is not None:
        source = _object(module, how.source)
        if source is None:
            # Outside the package (a copy of ``functools.partial``'s docstring): it has one.
            return None if _internal(module, how.source) else f"(copied from {how.source})"
        found = source.docstring
        return found.value if found is not None and found.value.strip() else None
    if how.helper is not None:
        helper = _object(module, how.helper)
        if isinstance(helper, griffe.Function) and _sets_doc(helper, facts):
            return f"(set by {how.helper})"
        position = _copies(helper, facts) if isinstance(helper, griffe.Function) else None
        if position is not None and position < len(how.arguments) and how.arguments[position]:
            return _text(module, DocSet(how.line, source=how.arguments[position]), facts)
    return None


def _copies(function: griffe.Function, facts: Mapping[str, DocFacts]) -> int | None:
    """The position of the parameter ``function`` copies a docstring from, if any."""
    try:
        module = function.module
    except Exception:  # noqa: BLE001 - an object griffe cannot place in a module
        return None
    found = facts.get(module.path)
    if found is None:
        return None
    return found.copiers.get(function.path.removeprefix(module.path + "."))


def _sets_doc(function: griffe.Function, facts: Mapping[str, DocFacts]) -> bool:
    try:
        module = function.module
    except Exception:  # noqa: BLE001 - an object griffe cannot place in a module
        return False
    qualname = function.path.removeprefix(module.path + ".")
    found = facts.get(module.path)
    return found is not None and qualname in found.setters


def _object(module: griffe.Module, dotted: str) -> griffe.Object | None:
    """The object of the package a dotted name of ``module``'s scope names, or None."""
    current: griffe.Object | griffe.Alias = module
    for part in dotted.split("."):
        try:
            member = current.members.get(part)
            if member is None:
                return None
            current = member.final_target if member.is_alias else member  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - outside the package, or not defined statically
            return None
    return current if isinstance(current, griffe.Object) and current is not module else None


def _internal(module: griffe.Module, dotted: str) -> bool:
    """Whether the first name of ``dotted`` is bound in ``module`` to the package's own
    code (a definition, or an import griffe can follow)."""
    member = module.members.get(dotted.partition(".")[0])
    if member is None:
        return False
    if not member.is_alias:
        return True
    try:
        member.final_target  # type: ignore[union-attr]  # noqa: B018 - resolvable?
    except Exception:  # noqa: BLE001
        return False
    return True
