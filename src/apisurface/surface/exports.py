"""Declared exports: public paths named by export decorators, the TensorFlow way.

TensorFlow, Keras 3 and TensorFlow Estimator keep their implementation in modules such as
``keras/src/layers/core/dense.py`` and name the public paths with a decorator,
``@keras_export(["keras.layers.Dense"])``, or a plain call, ``keras_export("keras.ops.add")(add)``
and ``tf_export("newaxis").export_constant(__name__, "newaxis")``. The public modules are
generated from these declarations at build time and may be absent from a source checkout,
so the declarations are the static statement of the API. When a package makes any, its
surface is exactly the declared paths (with the members of each declared class, public by
the usual rules) and the modules that hold them; the layout walk of POLICY.md section 2 is
not used. A path declared for two different objects is a problem, never a guess.

Declarations are read from each module's syntax tree (only the files that mention one of
the decorator names are parsed); the declared objects are then found in griffe's tree and
described by the :class:`~apisurface.surface.link.Walker`, exactly as the layout walk would.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import griffe

from apisurface.model import ExclusionReason, Problem, Symbol, SymbolKind
from apisurface.project.sources import SourceFile
from apisurface.surface.link import Walker
from apisurface.surface.policy import is_compat, is_test_module

__all__ = ["Declaration", "Declarations", "declare_surface", "find_declarations"]

_CONSTANT_METHOD = "export_constant"
_MAX_UNWRAP = 16


@dataclass(frozen=True, slots=True)
class Declaration:
    """One public path declared for one object.

    ``module`` and ``name`` say where the declared object is bound (``name`` may be dotted,
    ``layers.Dense``); ``scope`` is the symbol's ``export_scope``."""

    path: str
    module: str
    name: str
    decorator: str
    file: str
    line: int
    scope: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        """``file:line`` of the declaration."""
        return f"{self.file}:{self.line}"


@dataclass(slots=True)
class Declarations:
    """Every declaration found in a package, and what could not be read statically."""

    items: list[Declaration] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def decorators(self) -> tuple[str, ...]:
        """The decorator names that declared at least one path, sorted."""
        return tuple(sorted({item.decorator for item in self.items}))


def find_declarations(
    package: str, files: Iterable[SourceFile], decorators: Sequence[str]
) -> Declarations:
    """The export declarations made with ``decorators`` in the package's ``files``."""
    found = Declarations()
    names = frozenset(decorators)
    if not names:
        return found
    for item in files:
        if any(is_test_module(part) for part in item.module.split(".")) or not any(
            name in item.text for name in names
        ):
            continue
        try:
            tree = ast.parse(item.text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # reported by the reading stage: the file is not analysed at all
        reader = _Reader(package, item, names, found)
        reader.statements(tree.body, 0)
    return found


class _Reader:
    """Reads the declarations of one module."""

    def __init__(
        self, package: str, item: SourceFile, names: frozenset[str], found: Declarations
    ) -> None:
        self.package = package
        self.item = item
        self.names = names
        self.found = found

    def statements(self, body: list[ast.stmt], depth: int) -> None:
        """Module-level statements, also under ``if``/``try``/``with`` (not in functions)."""
        if depth > 20:
            return
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for decorator in node.decorator_list:
                    call = self.export_call(decorator)
                    if call is not None:
                        self.declare(call, node.name, decorator.lineno)
            elif isinstance(node, ast.Expr | ast.Assign | ast.AnnAssign) and node.value:
                self.call_statement(node.value, node.lineno)
            for child in _blocks(node):
                self.statements(child, depth + 1)

    def export_call(self, node: ast.expr) -> ast.Call | None:
        """``node`` when it calls one of the export decorators (``keras_export(...)``)."""
        if isinstance(node, ast.Call) and _callee(node.func) in self.names:
            return node
        return None

    def call_statement(self, node: ast.expr, line: int) -> None:
        """``keras_export("p")(obj)`` and ``tf_export("p").export_constant(__name__, "N")``."""
        if not isinstance(node, ast.Call):
            return
        call = self.export_call(node.func)
        if call is not None:
            if len(node.args) != 1:
                self.problem(line, "an export call must wrap one object")
                return
            target = _wrapped_name(node.args[0])
            if target is None:
                self.problem(line, "the exported object is not a name; left out")
                return
            self.declare(call, target, line)
            return
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == _CONSTANT_METHOD:
            call = self.export_call(func.value)
            if call is None:
                return
            module = self.item.module
            arguments = node.args
            if len(arguments) != 2 or not _is_text(arguments[1]):
                self.problem(line, f"{_CONSTANT_METHOD} needs a module and a constant name")
                return
            if _is_text(arguments[0]):
                module = arguments[0].value  # type: ignore[attr-defined]
            elif not (isinstance(arguments[0], ast.Name) and arguments[0].id == "__name__"):
                self.problem(line, f"{_CONSTANT_METHOD} names its module at run time; left out")
                return
            self.declare(call, arguments[1].value, line, module=module)  # type: ignore[attr-defined]

    def declare(self, call: ast.Call, name: str, line: int, module: str | None = None) -> None:
        decorator = _callee(call.func) or ""
        paths: dict[str, list[str]] = {}
        options: list[str] = []
        listed = False
        for argument in call.args:
            texts = _texts(argument)
            if texts is None:
                self.problem(line, f"{decorator} names a path that is not a literal; left out")
                return
            for text in texts:
                paths.setdefault(text, []).append("default")
        for keyword in call.keywords:
            if keyword.arg is None:
                self.problem(line, f"{decorator} takes **arguments; their paths are unknown")
                continue
            texts = _texts(keyword.value)
            if texts is None:
                options.append(f"{keyword.arg}={_unparse(keyword.value)}")
                continue
            listed = True
            for text in texts:
                paths.setdefault(text, []).append(keyword.arg)
        for text, groups in paths.items():
            path = self.absolute(text)
            if path is None:
                self.problem(line, f"{decorator} declares {text!r}, not a dotted name; left out")
                continue
            scope: tuple[str, ...] = ()
            if listed or options:
                scope = (*sorted(set(groups), key=lambda group: (group != "default", group)),)
                scope += tuple(options)
            self.found.items.append(
                Declaration(
                    path,
                    module or self.item.module,
                    name,
                    decorator,
                    self.item.relpath,
                    line,
                    scope,
                )
            )

    def absolute(self, text: str) -> str | None:
        """The full path of a declared name: ``keras.layers.Dense`` names itself, TensorFlow's
        ``math.add`` is relative to the package."""
        parts = text.split(".")
        if not text or not all(part.isidentifier() for part in parts):
            return None
        if parts[0] == self.package:
            return text
        return f"{self.package}.{text}"

    def problem(self, line: int, what: str) -> None:
        self.found.problems.append(Problem(self.item.relpath, what, line=line))


def _blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(node, ast.If):
        return [node.body, node.orelse]
    if isinstance(node, ast.Try | ast.TryStar):
        return [node.body, *(handler.body for handler in node.handlers), node.orelse]
    if isinstance(node, ast.With):
        return [node.body]
    return []


def _callee(node: ast.expr) -> str | None:
    """The last name of what is called: ``tf_export`` for ``tf_export.tf_export(...)``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _texts(node: ast.expr) -> list[str] | None:
    """The strings of a string or a list/tuple of strings; None for anything else."""
    if _is_text(node):
        return [node.value]  # type: ignore[attr-defined]
    if isinstance(node, ast.List | ast.Tuple) and all(_is_text(item) for item in node.elts):
        return [item.value for item in node.elts]  # type: ignore[attr-defined]
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


# --- the surface ------------------------------------------------------------------------


def declare_surface(walker: Walker, top: griffe.Module, found: Declarations) -> None:
    """Fill ``walker`` with the declared surface of the package ``top``: each declared path
    described like the layout walk would describe it there, the modules holding them, and
    the package's other submodules marked not exported. Call ``walker.finish()`` after."""
    walker.problems.extend(found.problems)
    objects: dict[str, list[tuple[Declaration, griffe.Object]]] = {}
    for item in found.items:
        obj = _lookup(walker, top, item.module, item.name)
        if obj is None:
            walker.problems.append(
                Problem(
                    item.file,
                    f"{item.decorator} declares {item.path} for {item.name}, "
                    "which is not defined statically; left out",
                    line=item.line,
                    path=item.path,
                )
            )
            continue
        objects.setdefault(item.path, []).append((item, obj))
    package = walker.package
    walker.add(top, package, SymbolKind.MODULE, None)
    declared: list[str] = []
    for path in sorted(objects, key=lambda text: (text.count("."), text)):
        entries = objects[path]
        targets = sorted({walker.path_of(obj) for _, obj in entries})
        if len(targets) > 1:
            places = sorted({(item.file, item.line) for item, _ in entries})
            where = ", ".join(f"{file}:{line}" for file, line in places)
            walker.problems.append(
                Problem(
                    places[0][0],
                    f"{path} is declared for {len(targets)} objects "
                    f"({', '.join(targets)}) at {where}; left out",
                    path=path,
                    related=tuple(sorted({file for file, _ in places[1:]} - {places[0][0]})),
                )
            )
            continue
        if _excluded(walker, path) or path == package:
            continue
        item, obj = entries[0]
        deprecated = "compat module" if any(map(is_compat, path.split(".")[1:-1])) else None
        if obj.is_module:
            walker.add(obj, path, SymbolKind.MODULE, deprecated)
        elif not walker.object(obj, path, explicit=True, deprecated=deprecated):
            continue
        scope = tuple(dict.fromkeys(part for item, _ in entries for part in item.scope))
        if scope:
            walker.symbols[path] = replace(walker.symbols[path], export_scope=scope)
        declared.append(path)
    namespaces = _namespaces(walker, top, declared)
    for name, member in top.members.items():
        child = f"{package}.{name}"
        if not member.is_alias and member.is_module and child not in namespaces:
            walker.exclude(child, ExclusionReason.NOT_EXPORTED)


def _namespaces(walker: Walker, top: griffe.Module, declared: list[str]) -> set[str]:
    """Add the modules that hold declared paths (``keras.layers`` for ``keras.layers.Dense``):
    the module found there when the package has one (a generated module), else a module
    symbol of its own."""
    package = walker.package
    namespaces: set[str] = set()
    for path in declared:
        parts = path.split(".")
        for end in range(2, len(parts)):
            prefix = ".".join(parts[:end])
            namespaces.add(prefix)
            if prefix in walker.symbols:
                continue
            deprecated = "compat module" if any(map(is_compat, parts[1:end])) else None
            module = _module_at(walker, top, parts[1:end])
            if module is not None:
                walker.add(module, prefix, SymbolKind.MODULE, deprecated)
            else:
                walker.symbols[prefix] = Symbol(
                    path=prefix, kind=SymbolKind.MODULE, target=prefix, deprecated=deprecated
                )
    namespaces.add(package)
    return namespaces


def _excluded(walker: Walker, path: str) -> bool:
    """Apply POLICY.md rules 1-4 and ``exclude`` to a declared path, component by component:
    a declaration does not make a private, experimental, contrib or test path public."""
    parts = path.split(".")
    for end in range(2, len(parts) + 1):
        prefix = ".".join(parts[:end])
        is_module = end < len(parts)
        reason = walker.excluded_by_name(
            parts[end - 1], prefix, is_module=is_module, in_class=False
        )
        if reason is not None:
            walker.exclude(prefix, reason)
            return True
    return False


def _lookup(walker: Walker, top: griffe.Module, module: str, name: str) -> griffe.Object | None:
    """The object bound to ``name`` (possibly dotted) in ``module`` of the package."""
    package = walker.package
    if module != package and not module.startswith(package + "."):
        return None
    current = _module_at(walker, top, module.split(".")[1:])
    return None if current is None else _follow(walker, current, name.split("."))


def _module_at(walker: Walker, top: griffe.Module, parts: Sequence[str]) -> griffe.Module | None:
    current = _follow(walker, top, parts)
    return current if isinstance(current, griffe.Module) else None


def _follow(walker: Walker, start: griffe.Object, parts: Sequence[str]) -> griffe.Object | None:
    """The object reached from ``start`` through the members named by ``parts``."""
    current: griffe.Object | None = start
    for part in parts:
        if current is None:
            return None
        member = current.members.get(part)
        if member is None:
            return None
        current = walker.resolve(member)
    return current
