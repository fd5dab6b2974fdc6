"""What one file says that may be an export declaration, read in the visit.

Export decorators (``@tf_export("math.add")``, see :mod:`apisurface.surface.link.exports`)
are configured by name (``export_decorators``), but the per-file visit is cached by the file
alone. So this reads every candidate a configuration could match, with no names in mind, and
the link keeps those whose callee is (or is bound to) a configured decorator:

- ``sites``: each call in a module-level decorator (``@d(...)``) and each statement calling
  the result of a call (``d(...)(obj)``, ``d(...).export_constant(__name__, "N")``), with its
  literal arguments, outside functions and classes (through ``if``/``try``/``with``);
- ``aliases``: the ``from m import d as e`` and ``e = d`` bindings that a site's callee may
  go through, in order;
- ``export_like`` and ``words``: whether the text has a decorator that looks like a
  declaration (the link notes export-like calls of other decorators only in such files or in
  files that mention a configured name: ``words`` answers that where it matters);
- ``imports``: in a module of a build's generated API (a ``_api`` folder), each module-level
  ``from M import N as A`` (the names such a module exports).

Everything is read from the visit's one parse of the file; the link parses nothing again.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from apisurface.surface.annotationtext import final_name

__all__ = [
    "EMPTY",
    "Call",
    "ExportFacts",
    "Keyword",
    "Site",
    "decode_exports",
    "dotted",
    "encode_exports",
    "read_exports",
]

_CONSTANT_METHOD = "export_constant"
_MAX_UNWRAP = 16
_MAX_ENTRIES = 200_000
_PARTIAL_DEPRECATIONS = frozenset({"deprecated_endpoints"})
_GENERATED_FOLDER = "_api"
# A decorator call that looks like a declaration (``@api_export("a.b")``): the callee's name
# says export and its first argument is a string or a list of them.
_EXPORT_LIKE = re.compile(r"^\s*@[\w.]*export\w*\(\s*[\[(]?\s*[rbuRBU]?[\"']", re.MULTILINE)
# Runs of characters an identifier may hold: a configured name occurs in the text only
# inside one of them.
_WORD = re.compile(r"[A-Za-z0-9_\x80-\U0010ffff]+")


@dataclass(frozen=True, slots=True)
class Keyword:
    """A keyword argument: its strings (a string or a list of them), else its source."""

    arg: str | None
    texts: tuple[str, ...] | None
    source: str = ""
    """The value written out (at most 200 characters), when it is not strings."""


@dataclass(frozen=True, slots=True)
class Call:
    """A call of ``callee`` (the last name of what is called): the strings of each
    positional argument (None for one that is not strings) and the keywords."""

    callee: str
    args: tuple[tuple[str, ...] | None, ...] = ()
    keywords: tuple[Keyword, ...] = ()


@dataclass(frozen=True, slots=True)
class Site:
    """One candidate declaration at ``line``: a decorator call of the definition ``name``
    (``decorator``), or a statement calling the result of ``call`` on ``name``: the object
    it wraps, or the constant ``export_constant`` names (in ``module`` when that is given
    as a string). ``problem`` says why such a statement declares nothing."""

    decorator: bool
    call: Call
    line: int
    name: str = ""
    module: str | None = None
    bound: str | None = None
    """The module-level name a statement's result is assigned to."""
    endpoints: tuple[str, ...] = ()
    """The names ``@deprecated_endpoints`` gives the decorated definition."""
    problem: str = ""


@dataclass(frozen=True, slots=True)
class ExportFacts:
    """A file's export candidates (see the module's docstring)."""

    sites: tuple[Site, ...] = ()
    aliases: tuple[tuple[bool, str, str], ...] = ()
    """(imported, local name, source name): ``from m import d as e`` (True) binds ``e``
    to the imported ``d``; ``e = d`` (False) to what ``d`` is bound to."""
    export_like: bool = False
    words: tuple[str, ...] = ()
    imports: tuple[tuple[int, str, str, str], ...] = ()
    """(line, module, name, bound name) of each ``from module import name as bound``."""


EMPTY = ExportFacts()


def read_exports(relpath: str, text: str, tree: ast.Module) -> ExportFacts:
    """The export candidates of one file (``tree`` is ``text`` parsed)."""
    reader = _Reader()
    reader.statements(tree.body)
    imports = (
        _generated_imports(tree)
        if _GENERATED_FOLDER in PurePosixPath(relpath.replace("\\", "/")).parts
        else ()
    )
    if not reader.sites and not imports:
        return EMPTY
    export_like = _EXPORT_LIKE.search(text) is not None
    words: tuple[str, ...] = ()
    if not export_like and any(_looks_exported(site) for site in reader.sites):
        words = tuple(sorted(set(_WORD.findall(text))))
    return ExportFacts(tuple(reader.sites), reader.used_aliases(), export_like, words, imports)


def _looks_exported(site: Site) -> bool:
    """Whether a decorator call looks like a declaration (``@api_export("a.b")``)."""
    call = site.call
    if not site.decorator or not call.args or "export" not in call.callee.lower():
        return False
    first = call.args[0]
    return first is not None and bool(first) and dotted(first[0])


def dotted(text: str) -> bool:
    """Whether ``text`` is a dotted name (``math.add``)."""
    return bool(text) and all(part.isidentifier() for part in text.split("."))


class _Reader:
    def __init__(self) -> None:
        self.sites: list[Site] = []
        self.aliases: list[tuple[bool, str, str]] = []

    def used_aliases(self) -> tuple[tuple[bool, str, str], ...]:
        """The bindings a site's callee may go through (the others cannot matter)."""
        wanted = {site.call.callee for site in self.sites}
        size = -1
        while size != len(wanted):
            size = len(wanted)
            wanted.update(source for _, local, source in self.aliases if local in wanted)
        return tuple(alias for alias in self.aliases if alias[1] in wanted)

    def statements(self, body: list[ast.stmt]) -> None:
        """The statements of ``body`` and of the blocks nested in them, in source order,
        however deeply they nest (a stack of blocks, not recursion: no depth cut-off)."""
        blocks: list[Iterator[ast.stmt]] = [iter(body)]
        while blocks:
            node = next(blocks[-1], None)
            if node is None:
                blocks.pop()
                continue
            self.statement(node)
            blocks.extend(iter(child) for child in reversed(_blocks(node)))

    def statement(self, node: ast.stmt) -> None:
        """One statement: an import alias, an export call or decorator."""
        if isinstance(node, ast.ImportFrom):
            self.aliases.extend(
                (True, alias.asname, alias.name) for alias in node.names if alias.asname
            )
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Name | ast.Attribute)
        ):
            source = final_name(node.value)
            if source is not None:
                self.aliases.append((False, node.targets[0].id, source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            endpoints = _deprecated_endpoints(node.decorator_list)
            for decorator in node.decorator_list:
                call = _call(decorator)
                if call is not None:
                    self.sites.append(
                        Site(True, call, decorator.lineno, node.name, endpoints=endpoints)
                    )
        elif isinstance(node, ast.Expr | ast.Assign | ast.AnnAssign) and node.value:
            bound = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                bound = node.targets[0].id if isinstance(node.targets[0], ast.Name) else None
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                bound = node.target.id
            self.call_statement(node.value, node.lineno, bound)

    def call_statement(self, node: ast.expr, line: int, bound: str | None) -> None:
        """``d("p")(obj)`` and ``d("p").export_constant(__name__, "N")``."""
        if not isinstance(node, ast.Call):
            return
        call = _call(node.func)
        if call is not None:
            target = _wrapped_name(node.args[0]) if len(node.args) == 1 else None
            problem = ""
            if len(node.args) != 1:
                problem = "an export call must wrap one object"
            elif target is None:
                problem = "the exported object is not a name; left out"
            self.sites.append(Site(False, call, line, target or "", bound=bound, problem=problem))
            return
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr != _CONSTANT_METHOD:
            return
        call = _call(func.value)
        if call is None:
            return
        arguments = node.args
        module: str | None = None
        name = ""
        problem = ""
        if len(arguments) != 2 or not _is_text(arguments[1]):
            problem = f"{_CONSTANT_METHOD} needs a module and a constant name"
        elif _is_text(arguments[0]):
            module = arguments[0].value  # type: ignore[attr-defined]
        elif not (isinstance(arguments[0], ast.Name) and arguments[0].id == "__name__"):
            problem = f"{_CONSTANT_METHOD} names its module at run time; left out"
        if not problem:
            name = arguments[1].value  # type: ignore[attr-defined]
        self.sites.append(Site(False, call, line, name, module=module, problem=problem))


def _generated_imports(tree: ast.Module) -> tuple[tuple[int, str, str, str], ...]:
    found: list[tuple[int, str, str, str]] = []
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        for alias in node.names:
            name = alias.asname or alias.name
            if name != "*" and not name.startswith("_"):
                found.append((node.lineno, node.module, alias.name, name))
    return tuple(found)


def _call(node: ast.expr) -> Call | None:
    """``node`` as a :class:`Call`, when it calls a name or an attribute."""
    if not isinstance(node, ast.Call):
        return None
    callee = final_name(node.func)
    if callee is None:
        return None
    keywords = []
    for keyword in node.keywords:
        texts = _texts(keyword.value)
        source = _unparse(keyword.value) if texts is None and keyword.arg is not None else ""
        keywords.append(Keyword(keyword.arg, texts, source))
    return Call(callee, tuple(_texts(argument) for argument in node.args), tuple(keywords))


def _deprecated_endpoints(decorators: list[ast.expr]) -> tuple[str, ...]:
    """The names ``@deprecated_endpoints("a", "b")`` deprecates: those paths only, not the
    object (TensorFlow's decorator; the names are written like the declared ones)."""
    found: set[str] = set()
    for node in decorators:
        if isinstance(node, ast.Call) and final_name(node.func) in _PARTIAL_DEPRECATIONS:
            for argument in node.args:
                found.update(_texts(argument) or ())
    return tuple(sorted(found))


def _blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(node, ast.If):
        return [node.body, node.orelse]
    if isinstance(node, ast.Try | ast.TryStar):
        return [node.body, *(handler.body for handler in node.handlers), node.orelse]
    if isinstance(node, ast.With):
        return [node.body]
    return []


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _texts(node: ast.expr) -> tuple[str, ...] | None:
    """The strings of a string or a list/tuple of strings; None for anything else."""
    if _is_text(node):
        return (node.value,)  # type: ignore[attr-defined]
    if isinstance(node, ast.List | ast.Tuple) and all(_is_text(item) for item in node.elts):
        return tuple(item.value for item in node.elts)  # type: ignore[attr-defined]
    return None


def _unparse(node: ast.expr) -> str:
    try:
        return ast.unparse(node)[:200]
    except (ValueError, RecursionError):
        return "..."


def _wrapped_name(node: ast.expr) -> str | None:
    """The dotted name of the object an export call wraps, through wrappers such as
    ``tf_export("f")(deprecated(None, "use g")(f))``."""
    for _ in range(_MAX_UNWRAP):
        if isinstance(node, ast.Call) and node.args:
            node = node.args[-1]
            continue
        break
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


# --- as plain data -----------------------------------------------------------------------


def encode_exports(facts: ExportFacts) -> list[Any] | None:
    """``facts`` as JSON values (None for a file with no candidates, most files)."""
    if facts == EMPTY:
        return None
    sites = [
        [
            site.decorator,
            site.call.callee,
            [None if texts is None else list(texts) for texts in site.call.args],
            [
                [kw.arg, None if kw.texts is None else list(kw.texts), kw.source]
                for kw in site.call.keywords
            ],
            site.line,
            site.name,
            site.module,
            site.bound,
            list(site.endpoints),
            site.problem,
        ]
        for site in facts.sites
    ]
    return [
        sites,
        [list(alias) for alias in facts.aliases],
        facts.export_like,
        list(facts.words),
        [list(item) for item in facts.imports],
    ]


def decode_exports(value: object) -> ExportFacts:
    """Facts read back from :func:`encode_exports`; ValueError when they are not."""
    if value is None:
        return EMPTY
    sites, aliases, export_like, words, imports = _fixed(value, 5)
    if type(export_like) is not bool:
        raise ValueError("export_like is not a boolean")
    return ExportFacts(
        tuple(_site(item) for item in _list(sites)),
        tuple(_alias(item) for item in _list(aliases)),
        export_like,
        _strings(words),
        tuple(_import(item) for item in _list(imports)),
    )


def _site(value: object) -> Site:
    decorator, callee, args, keywords, line, name, module, bound, endpoints, problem = _fixed(
        value, 10
    )
    if type(decorator) is not bool:
        raise ValueError("not a site")
    call = Call(
        _string(callee),
        tuple(None if item is None else _strings(item) for item in _list(args)),
        tuple(_keyword(item) for item in _list(keywords)),
    )
    return Site(
        decorator,
        call,
        _integer(line),
        _string(name),
        _optional(module),
        _optional(bound),
        _strings(endpoints),
        _string(problem),
    )


def _keyword(value: object) -> Keyword:
    arg, texts, source = _fixed(value, 3)
    return Keyword(_optional(arg), None if texts is None else _strings(texts), _string(source))


def _alias(value: object) -> tuple[bool, str, str]:
    imported, local, source = _fixed(value, 3)
    if type(imported) is not bool:
        raise ValueError("not an alias")
    return imported, _string(local), _string(source)


def _import(value: object) -> tuple[int, str, str, str]:
    line, module, name, bound = _fixed(value, 4)
    return _integer(line), _string(module), _string(name), _string(bound)


def _fixed(value: object, size: int) -> list[Any]:
    if type(value) is not list or len(value) != size:
        raise ValueError(f"not a list of {size}")
    return value


def _list(value: object) -> list[Any]:
    if type(value) is not list or len(value) > _MAX_ENTRIES:
        raise ValueError("not a list")
    return value


def _strings(value: object) -> tuple[str, ...]:
    return tuple(_string(item) for item in _list(value))


def _checked(kind: type, what: str) -> Callable[[object], Any]:
    def check(value: object) -> Any:
        if type(value) is not kind:
            raise ValueError(f"not {what}")
        return value

    return check


_string: Callable[[object], str] = _checked(str, "a string")
_integer: Callable[[object], int] = _checked(int, "an integer")


def _optional(value: object) -> str | None:
    return None if value is None else _string(value)
