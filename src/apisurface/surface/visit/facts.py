"""What the link needs of one file's text beside griffe's tree: a module summary.

The visit (:mod:`apisurface.surface.visit.modules`) parses each file once and reads these facts
from that tree (:func:`read_facts`); the link reads them here (:func:`facts_of`) and parses
nothing of the file again. A summary travels with the visit's product
(:mod:`apisurface.surface.visit.summary`: to and from workers and the per-module cache) as plain
JSON, checked field by field on read (:func:`decode`).

The facts, each as the link asked for it before (same gates, same results):

- ``type_checking``: names bound only under ``if TYPE_CHECKING:``
  (:func:`apisurface.surface.visit.conditions.type_checking_names`);
- ``dynamic`` and ``declared``: whether the file may bind names at run time, and what it
  declares beyond griffe's model (:func:`apisurface.surface.visit.declared.declarations`);
- ``reassigned`` and ``assigned_names``: names assigned another name inside a block;
- ``bindings``: the literal values each module-level name is given, in any branch
  (:func:`apisurface.surface.link.describe.module_bindings`), for the names bound more than
  once or to literals;
- ``early_imports``: module-level ``from m import x`` bindings, in order;
- ``markers``: deprecation markers of bodies (:mod:`apisurface.surface.visit.deprecations`);
- ``exports``: what may be an export declaration (:mod:`apisurface.surface.visit.exportcalls`);
- ``bodies``: what the link reads of function bodies (:mod:`apisurface.surface.visit.bodies`),
  one function's through :func:`body_of`;
- ``imports``: the re-export forms of each import statement, by its first line
  (:func:`apisurface.surface.visit.declared.read_imports`), one alias's through
  :func:`import_forms_at`;
- ``sphinx_lines``: the lines a Sphinx ``#:`` comment documents (:func:`sphinx_lines`);
- ``block_lines``: the lines of module-level bindings inside a block
  (:func:`apisurface.surface.visit.declared.block_bindings`);
- ``references``: what the file's import statements name, as written (relative ones with
  their dots), so that the visit can tell which files another may reach;
- ``served``: the names the module serves lazily from literal tables, with the module each
  comes from (:func:`apisurface.surface.visit.lazy.served_names`);
- ``branch_kinds``: names defined as a class in one branch and a function in another
  (:func:`apisurface.surface.visit.conditions.branch_kinds`);
- ``docsets``: docstrings the module sets at run time
  (:func:`apisurface.surface.visit.docsets.read_docsets`);
- ``loads``: the modules its module-level code imports (``from .m import x``, ``import
  pkg.m``; not ``from . import m``, which loads nothing when ``m`` is already bound), as
  written, each with the first line that does;
- ``run_time``: where the module binds names no static reader can list, and how
  (:func:`apisurface.surface.visit.runtimebinds.run_time_bindings`).
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import griffe

from apisurface.surface.visit.bodies import (
    Bodies,
    Body,
    Keyword,
    decode_bodies,
    encode_bodies,
    read_bodies,
    written_value,
)
from apisurface.surface.visit.conditions import branch_kinds, type_checking_names
from apisurface.surface.visit.declared import (
    Declarations,
    ImportForms,
    Shim,
    block_bindings,
    declarations,
    read_imports,
    reassigned_candidates,
)
from apisurface.surface.visit.docsets import EMPTY as NO_DOCSETS
from apisurface.surface.visit.docsets import MAX_TARGETS, DocFacts, DocSet, read_docsets
from apisurface.surface.visit.exportcalls import (
    EMPTY as NO_EXPORTS,
)
from apisurface.surface.visit.exportcalls import (
    ExportFacts,
    decode_exports,
    encode_exports,
    read_exports,
)
from apisurface.surface.visit.lazy import MAX_SERVED, Served, served_names
from apisurface.surface.visit.markers import scan_text
from apisurface.surface.visit.mentions import mentions_warning
from apisurface.surface.visit.runtimebinds import run_time_bindings

__all__ = [
    "Bodies",
    "Body",
    "Keyword",
    "ModuleFacts",
    "Served",
    "Unfit",
    "body_of",
    "decode",
    "encode",
    "facts_of",
    "import_forms_at",
    "read_facts",
    "reading",
    "written_value",
]


class Unfit(ValueError):
    """A summary read back that is not one (the whole entry is then a miss)."""


@dataclass(frozen=True, slots=True)
class ModuleFacts:
    """The facts of one file's text (see the module's docstring)."""

    relpath: str = ""
    type_checking: frozenset[str] = frozenset()
    dynamic: bool = False
    declared: Declarations = field(default_factory=Declarations)
    reassigned: frozenset[str] = frozenset()
    assigned_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    bindings: Mapping[str, frozenset[str | None]] = field(default_factory=dict)
    early_imports: Mapping[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    markers: Mapping[str, str] = field(default_factory=dict)
    exports: ExportFacts = NO_EXPORTS
    bodies: Bodies = field(default_factory=Bodies)
    imports: Mapping[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    sphinx_lines: frozenset[int] = frozenset()
    block_lines: frozenset[int] = frozenset()
    references: frozenset[str] = frozenset()
    served: Mapping[str, Served] = field(default_factory=dict)
    branch_kinds: Mapping[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    docsets: DocFacts = NO_DOCSETS
    loads: Mapping[str, int] = field(default_factory=dict)
    run_time: tuple[tuple[int, str], ...] = ()


_NONE = ModuleFacts()
_READING: ContextVar[Mapping[Path, ModuleFacts]] = ContextVar(
    "summaries", default=MappingProxyType({})
)


@contextlib.contextmanager
def reading(summaries: Mapping[Path, ModuleFacts]) -> Iterator[None]:
    """While the link runs: the summaries of the package's files, by relative path."""
    token = _READING.set(summaries)
    try:
        yield
    finally:
        _READING.reset(token)


def facts_of(module: griffe.Module) -> ModuleFacts:
    """The summary of the file whose lines ``module`` holds (empty for a module with no
    file of its own, such as a folder without ``__init__.py``)."""
    filepath = module.filepath
    if not isinstance(filepath, Path):
        return _NONE
    return _READING.get().get(filepath, _NONE)


def body_of(function: griffe.Function) -> Body | None:
    """The facts of ``function``'s body, as the visit of its file read them; None when its
    file has none for it (no file, a definition griffe placed elsewhere, nothing to tell)."""
    lineno = function.lineno
    if lineno is None:
        return None
    try:
        module = function.module
    except Exception:  # noqa: BLE001 - an object griffe cannot place in a module
        return None
    body = facts_of(module).bodies.functions.get(lineno)
    if body is None or body.name != function.name or body.endlineno != function.endlineno:
        return None
    return body


_NO_FORMS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


def import_forms_at(
    module: griffe.Module, lineno: int, endlineno: int
) -> tuple[frozenset[str], frozenset[str]]:
    """The re-export forms (redundant aliases, ``from . import x`` names) of the import
    statements that start on lines ``lineno`` to ``endlineno`` of ``module``'s file."""
    table = facts_of(module).imports
    if not table or lineno <= 0:
        return _NO_FORMS
    found = [table[line] for line in range(lineno, max(lineno, endlineno) + 1) if line in table]
    if len(found) <= 1:
        return found[0] if found else _NO_FORMS
    return (
        frozenset().union(*(names for names, _ in found)),
        frozenset().union(*(dots for _, dots in found)),
    )


# --- facts of a tree ---------------------------------------------------------------------


_CONSTANT_NODES = (
    ast.Expression,
    ast.Constant,
    ast.BinOp,
    ast.UnaryOp,
    ast.Tuple,
    ast.operator,
    ast.unaryop,
    ast.Load,
)


def literal_text(text: str) -> str | None:
    """``text`` normalised, when it is made of literals only (``2 ** 16``, ``(1, 'a')``)."""
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not all(isinstance(node, _CONSTANT_NODES) for node in ast.walk(tree)):
        return None
    return ast.unparse(tree)


def _literal_value(node: ast.expr) -> str | None:
    """:func:`literal_text` of ``node``'s source, without writing out a value that is not
    made of literals (most are not: a call, a name)."""
    if not all(isinstance(item, _CONSTANT_NODES) for item in ast.walk(node)):
        return None
    return literal_text(ast.unparse(node))


def module_bindings(tree: ast.Module) -> dict[str, frozenset[str | None]]:
    """Name -> the values its module-level assignments give it, each as
    :func:`literal_text` (``None`` for a value not made of literals), through
    ``if``/``try``/``with`` blocks."""
    found: dict[str, set[str | None]] = {}
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Assign):
            value = _literal_value(node.value)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, set()).add(value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            text = _literal_value(node.value) if node.value is not None else None
            found.setdefault(node.target.id, set()).add(text)
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.TryStar)):
            for part in ("body", "orelse", "finalbody"):
                stack.extend(getattr(node, part, []))
            for handler in getattr(node, "handlers", []):
                stack.extend(handler.body)
    return {name: frozenset(values) for name, values in found.items()}


def early_imports(tree: ast.Module) -> dict[str, tuple[tuple[int, str], ...]]:
    """Module-level ``from m import x [as y]`` bindings: name -> (line, ``m.x``) in order."""
    found: dict[str, list[tuple[int, str]]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level or not node.module:
            continue
        for item in node.names:
            if item.name != "*":
                found.setdefault(item.asname or item.name, []).append(
                    (node.lineno, f"{node.module}.{item.name}")
                )
    return {name: tuple(items) for name, items in found.items()}


def read_facts(relpath: str, text: str, tree: ast.Module) -> ModuleFacts:
    """The facts of one file's text the link needs (:mod:`apisurface.surface.visit.facts`), read
    from ``tree`` (``text`` parsed). The link read some of them from griffe's lines of the
    file joined by newlines: where that text reads differently (a form feed or another
    separator ``str.splitlines`` breaks at and Python does not), those are read from it."""
    lines_text = "\n".join(text.splitlines())
    lines_tree: ast.Module | None = tree
    if lines_text != text.replace("\r\n", "\n").removesuffix("\n"):
        try:
            lines_tree = ast.parse(lines_text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            lines_tree = None
    reassigned = reassigned_candidates(lines_text)
    assigned: dict[str, tuple[str, ...]] = {}
    if reassigned and lines_tree is not None:
        assigned = declarations(lines_text, assignments=True, tree=lines_tree).assigned_names
    markers = scan_text(text, tree=tree) if mentions_warning(text) else {}
    forms, references = read_imports(tree)
    dynamic = _dynamic_names(text)
    # What the file declares is read for a stub (its ``x as x`` re-exports) and for a
    # module that binds names at run time: nothing else asks.
    wanted = dynamic or relpath.endswith(".pyi")
    return ModuleFacts(
        relpath=relpath,
        type_checking=(
            type_checking_names(lines_text, tree=lines_tree)
            if lines_tree is not None
            else frozenset()
        ),
        dynamic=dynamic,
        declared=declarations(text, tree=tree) if wanted else Declarations(),
        reassigned=reassigned,
        assigned_names=assigned,
        bindings=module_bindings(lines_tree) if lines_tree is not None else {},
        early_imports=early_imports(lines_tree) if lines_tree is not None else {},
        markers=markers,
        exports=read_exports(relpath, text, tree),
        bodies=read_bodies(tree, text),
        imports=forms,
        sphinx_lines=sphinx_lines(text),
        block_lines=block_bindings(tree),
        references=references,
        served=served_names(text, tree),
        branch_kinds=branch_kinds(tree),
        docsets=read_docsets(text, tree),
        loads=module_loads(tree) if relpath.endswith("__init__.py") else {},
        run_time=run_time_bindings(text, tree),
    )


def module_loads(tree: ast.Module) -> dict[str, int]:
    """The modules a module's own code imports when it runs (:class:`ModuleFacts`
    ``loads``): as written (leading dots for a relative import), with the first line."""
    found: dict[str, int] = {}
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            for item in node.names:
                found.setdefault(item.name, node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.setdefault("." * node.level + node.module, node.lineno)
        elif isinstance(node, (ast.If, ast.Try, ast.TryStar, ast.With)):
            blocks = [getattr(node, part, []) for part in ("body", "orelse", "finalbody")]
            blocks += [handler.body for handler in getattr(node, "handlers", [])]
            stack.extend(item for block in reversed(blocks) for item in reversed(block))
    return found


_SPHINX_COMMENT = re.compile(r"^\s*#:(?:\s|$)")
_TRAILING_SPHINX_COMMENT = re.compile(r"\s#:\s+\S")


def sphinx_lines(text: str) -> frozenset[int]:
    """The lines a Sphinx ``#:`` comment documents: the line right below a comment line,
    and a line that ends with one (``LIMIT = 10  #: Requests per second``). Numbered as
    Python numbers them (a form feed is no line break), like griffe's line numbers."""
    if "#:" not in text:
        return frozenset()
    found: set[int] = set()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for index, line in enumerate(lines):
        if "#:" not in line:
            continue
        if _SPHINX_COMMENT.match(line):
            found.add(index + 2)
        if _TRAILING_SPHINX_COMMENT.search(line):
            found.add(index + 1)
    return frozenset(found)


# A module ``__getattr__`` or an import of atpublic: names bound at run time, declared.
_DYNAMIC_NAMES = re.compile(r"\bdef\s+__getattr__\b|^\s*(?:from|import)\s+(?:at)?public\b", re.M)


def _dynamic_names(text: str) -> bool:
    """Whether ``text`` may bind names at run time (:data:`_DYNAMIC_NAMES`). A substring
    search first: the pattern alone tries every position of every file (sympy: 0.7 s)."""
    if "__getattr__" not in text and "public" not in text:
        return False
    return _DYNAMIC_NAMES.search(text) is not None


# --- as plain data -----------------------------------------------------------------------

MAX_NAMES = 200_000
"""Most entries of any one table of a summary (real files stay far below)."""


def _shim_value(shim: Shim) -> list[Any]:
    return [shim.message, shim.returns, shim.lineno, shim.imported]


def encode(facts: ModuleFacts) -> dict[str, Any]:
    """``facts`` as a JSON object (sorted where a set has no order)."""
    declared = facts.declared
    return {
        "relpath": facts.relpath,
        "type_checking": sorted(facts.type_checking),
        "dynamic": facts.dynamic,
        "declared": {
            "redundant_aliases": sorted(declared.redundant_aliases),
            "dot_imports": sorted(declared.dot_imports),
            "public_names": sorted(declared.public_names),
            "public_values": {k: list(v) for k, v in declared.public_values.items()},
            "assigned_names": {k: list(v) for k, v in declared.assigned_names.items()},
            "shims": {k: _shim_value(v) for k, v in declared.shims.items()},
            "answered": {k: _shim_value(v) for k, v in declared.answered.items()},
        },
        "reassigned": sorted(facts.reassigned),
        "assigned_names": {k: list(v) for k, v in facts.assigned_names.items()},
        "bindings": {
            k: sorted(v, key=lambda item: (item is not None, item or ""))
            for k, v in facts.bindings.items()
        },
        "early_imports": {k: [list(item) for item in v] for k, v in facts.early_imports.items()},
        "markers": dict(facts.markers),
        "exports": encode_exports(facts.exports),
        "bodies": encode_bodies(facts.bodies),
        "imports": [
            [line, sorted(names), sorted(dots)]
            for line, (names, dots) in sorted(facts.imports.items())
        ],
        "sphinx_lines": sorted(facts.sphinx_lines),
        "block_lines": sorted(facts.block_lines),
        "references": sorted(facts.references),
        "served": {
            name: [item.source, item.lineno, item.deprecated]
            for name, item in sorted(facts.served.items())
        },
        "branch_kinds": {
            name: [list(item) for item in kinds] for name, kinds in facts.branch_kinds.items()
        },
        "docsets": {
            "targets": {
                name: [
                    [item.line, item.text, item.source, item.helper, list(item.arguments)]
                    for item in ways
                ]
                for name, ways in facts.docsets.targets.items()
            },
            "setters": sorted(facts.docsets.setters),
            "copiers": dict(facts.docsets.copiers),
        },
        "loads": dict(facts.loads),
        "run_time": [list(item) for item in facts.run_time],
    }


def _names(value: object) -> frozenset[str]:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of names")
    if not all(type(item) is str for item in value):
        raise Unfit("a name is not a string")
    return frozenset(value)


def _table(value: object, item: Callable[[object], Any]) -> dict[str, Any]:
    if type(value) is not dict or len(value) > MAX_NAMES:
        raise Unfit("not a table")
    return {_key(key): item(entry) for key, entry in value.items()}


def _key(key: object) -> str:
    if type(key) is not str:
        raise Unfit("a key is not a string")
    return key


def _string(value: object) -> str:
    if type(value) is not str:
        raise Unfit("not a string")
    return value


def _optional_string(value: object) -> str | None:
    return None if value is None else _string(value)


def _integer(value: object) -> int:
    if type(value) is not int:
        raise Unfit("not an integer")
    return value


def _strings(value: object) -> tuple[str, ...]:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of strings")
    return tuple(_string(item) for item in value)


def _pair(first: Callable[[object], Any], second: Callable[[object], Any]) -> Callable[..., Any]:
    def read(value: object) -> tuple[Any, Any]:
        if type(value) is not list or len(value) != 2:
            raise Unfit("not a pair")
        return first(value[0]), second(value[1])

    return read


def _shim(value: object) -> Shim:
    if type(value) is not list or len(value) != 4:
        raise Unfit("not a shim")
    message, returns, lineno, imported = value
    return Shim(
        _string(message), _optional_string(returns), _integer(lineno), _optional_string(imported)
    )


def _values(value: object) -> frozenset[str | None]:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of values")
    return frozenset(_optional_string(item) for item in value)


def _imports(value: object) -> tuple[tuple[int, str], ...]:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of imports")
    read = _pair(_integer, _string)
    return tuple(read(item) for item in value)


_DECLARED_KEYS = frozenset(
    {
        "redundant_aliases",
        "dot_imports",
        "public_names",
        "public_values",
        "assigned_names",
        "shims",
        "answered",
    }
)
_KEYS = frozenset(
    {
        "relpath",
        "type_checking",
        "dynamic",
        "declared",
        "reassigned",
        "assigned_names",
        "bindings",
        "early_imports",
        "markers",
        "exports",
        "bodies",
        "imports",
        "sphinx_lines",
        "block_lines",
        "references",
        "served",
        "branch_kinds",
        "docsets",
        "loads",
        "run_time",
    }
)


def decode(value: object) -> ModuleFacts:
    """A summary read back from :func:`encode`'s JSON object; :class:`Unfit` when it is
    not one (a key missing or unknown, a value of the wrong type, a table too long)."""
    if type(value) is not dict or value.keys() != _KEYS:
        raise Unfit("not a module summary")
    entry: dict[str, Any] = value
    declared = entry["declared"]
    if type(declared) is not dict or declared.keys() != _DECLARED_KEYS:
        raise Unfit("not a module's declarations")
    if type(entry["dynamic"]) is not bool:
        raise Unfit("dynamic is not a boolean")
    return ModuleFacts(
        relpath=_string(entry["relpath"]),
        type_checking=_names(entry["type_checking"]),
        dynamic=entry["dynamic"],
        declared=Declarations(
            redundant_aliases=_names(declared["redundant_aliases"]),
            dot_imports=_names(declared["dot_imports"]),
            public_names=_names(declared["public_names"]),
            public_values=_table(declared["public_values"], _pair(_string, _integer)),
            assigned_names=_table(declared["assigned_names"], _strings),
            shims=_table(declared["shims"], _shim),
            answered=_table(declared["answered"], _shim),
        ),
        reassigned=_names(entry["reassigned"]),
        assigned_names=MappingProxyType(_table(entry["assigned_names"], _strings)),
        bindings=MappingProxyType(_table(entry["bindings"], _values)),
        early_imports=MappingProxyType(_table(entry["early_imports"], _imports)),
        markers=MappingProxyType(_table(entry["markers"], _string)),
        exports=_exports(entry["exports"]),
        bodies=_bodies(entry["bodies"]),
        imports=MappingProxyType(_import_forms(entry["imports"])),
        sphinx_lines=_lines(entry["sphinx_lines"]),
        block_lines=_lines(entry["block_lines"]),
        references=_names(entry["references"]),
        served=MappingProxyType(_served(entry["served"])),
        branch_kinds=MappingProxyType(_table(entry["branch_kinds"], _kinds)),
        docsets=_docsets(entry["docsets"]),
        loads=MappingProxyType(_table(entry["loads"], _integer)),
        run_time=_kinds(entry["run_time"]),
    )


def _docsets(value: object) -> DocFacts:
    if type(value) is not dict or value.keys() != {"targets", "setters", "copiers"}:
        raise Unfit("not the docstrings a module sets")
    targets = value["targets"]
    if type(targets) is not dict or len(targets) > MAX_TARGETS:
        raise Unfit("not a table of documented objects")
    return DocFacts(
        MappingProxyType({_key(name): _ways(ways) for name, ways in targets.items()}),
        _names(value["setters"]),
        MappingProxyType(_table(value["copiers"], _integer)),
    )


def _ways(value: object) -> tuple[DocSet, ...]:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of docstrings set")
    found: list[DocSet] = []
    for item in value:
        if type(item) is not list or len(item) != 5:
            raise Unfit("not a docstring set")
        line, text, source, helper, arguments = item
        found.append(
            DocSet(
                _integer(line),
                _optional_string(text),
                _optional_string(source),
                _optional_string(helper),
                _strings(arguments),
            )
        )
    return tuple(found)


def _kinds(value: object) -> tuple[tuple[int, str], ...]:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of kinds")
    read = _pair(_integer, _string)
    return tuple(read(item) for item in value)


def _served(value: object) -> dict[str, Served]:
    if type(value) is not dict or len(value) > MAX_SERVED:
        raise Unfit("not a table of names served lazily")
    found: dict[str, Served] = {}
    for name, item in value.items():
        if type(item) is not list or len(item) != 3 or type(item[2]) is not bool:
            raise Unfit("not a name served lazily")
        found[_key(name)] = Served(_optional_string(item[0]), _integer(item[1]), item[2])
    return found


def _import_forms(value: object) -> ImportForms:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of import statements")
    found: ImportForms = {}
    for item in value:
        if type(item) is not list or len(item) != 3:
            raise Unfit("not an import statement's forms")
        found[_integer(item[0])] = (_names(item[1]), _names(item[2]))
    return found


def _lines(value: object) -> frozenset[int]:
    if type(value) is not list or len(value) > MAX_NAMES:
        raise Unfit("not a list of lines")
    return frozenset(_integer(item) for item in value)


def _exports(value: object) -> ExportFacts:
    try:
        return decode_exports(value)
    except ValueError as error:
        raise Unfit(f"export candidates: {error}") from error


def _bodies(value: object) -> Bodies:
    try:
        return decode_bodies(value)
    except ValueError as error:
        raise Unfit(str(error)) from None
