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
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import griffe

from apisurface.model import ExclusionReason, Symbol, SymbolKind
from apisurface.project.sources import SourceFile
from apisurface.surface.link import Walker
from apisurface.surface.policy import is_compat, is_test_module

__all__ = ["Declaration", "Declarations", "declare_surface", "find_declarations"]

_CONSTANT_METHOD = "export_constant"
_MAX_UNWRAP = 16
_V1 = "v1"
"""The keyword naming TensorFlow's v1 API, served in TensorFlow 2 at ``compat.v1``."""
_V1_NAMESPACE = "compat.v1"
# A decorator call that looks like a declaration (``@api_export("a.b")``): the callee's name
# says export and its first argument is a string or a list of them.
_EXPORT_LIKE = re.compile(r"^\s*@[\w.]*export\w*\(\s*[\[(]?\s*[rbuRBU]?[\"']", re.MULTILINE)
_PARTIAL_DEPRECATIONS = frozenset({"deprecated_endpoints"})


@dataclass(frozen=True, slots=True)
class Declaration:
    """One public path declared for one object.

    ``module`` and ``name`` say where the declared object is bound (``name`` may be dotted,
    ``layers.Dense``); ``scope`` is the symbol's ``export_scope``."""

    path: str
    module: str
    name: str
    decorator: str
    where: str
    scope: tuple[str, ...] = ()
    deprecated: str | None = None
    """Set when ``deprecated_endpoints`` names this path (only this path is deprecated)."""


@dataclass(slots=True)
class Declarations:
    """Every declaration found in a package, and what could not be read statically."""

    items: list[Declaration] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unrecognised: list[str] = field(default_factory=list)
    """Export-like calls of a decorator that is not an export decorator: problems when the
    package declares its surface (a layout surface does not depend on them)."""
    v1_keyword: bool = False
    """Whether some declaration has a ``v1=`` keyword: then the package has a v1 API, and
    a declaration without one serves its positional paths there too (TensorFlow's rule)."""
    implicit_v1: list[Declaration] = field(default_factory=list)
    """The positional paths of declarations without ``v1=``: in the v1 API too when the
    package has one."""

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
        if any(is_test_module(part) for part in item.module.split(".")) or not (
            any(name in item.text for name in names) or _EXPORT_LIKE.search(item.text)
        ):
            continue
        try:
            tree = ast.parse(item.text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # reported by the reading stage: the file is not analysed at all
        reader = _Reader(package, item, names, found)
        reader.bind(tree.body, 0)
        reader.statements(tree.body, 0)
    if found.v1_keyword:
        for implicit in found.implicit_v1:
            path = _in_v1(package, implicit.path)
            found.items.append(replace(implicit, path=path, scope=(_V1,)))
    found.implicit_v1.clear()
    if found.items:
        found.problems.extend(found.unrecognised)
    return found


def _in_v1(package: str, path: str) -> str:
    """Where TensorFlow 2 serves a v1 path: ``pkg.compat.v1.X`` for ``pkg.X``."""
    return f"{package}.{_V1_NAMESPACE}.{path.removeprefix(package + '.')}"


class _Reader:
    """Reads the declarations of one module."""

    def __init__(
        self, package: str, item: SourceFile, names: frozenset[str], found: Declarations
    ) -> None:
        self.package = package
        self.item = item
        self.names = names
        self.found = found
        # Local spellings of the export decorators: ``from m import tf_export as _tf_export``
        # (or ``_tf_export = tf_export``) -> ``tf_export``.
        self.spellings: dict[str, str] = {name: name for name in names}

    def bind(self, body: list[ast.stmt], depth: int) -> None:
        """Record the names an export decorator is imported or assigned under."""
        if depth > 20:
            return
        for node in body:
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name in self.names and alias.asname:
                        self.spellings[alias.asname] = alias.name
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                value = (
                    _callee(node.value)
                    if isinstance(node.value, ast.Name | ast.Attribute)
                    else None
                )
                if value in self.spellings:
                    self.spellings[node.targets[0].id] = self.spellings[value]
            for child in _blocks(node):
                self.bind(child, depth + 1)

    def statements(self, body: list[ast.stmt], depth: int) -> None:
        """Module-level statements, also under ``if``/``try``/``with`` (not in functions)."""
        if depth > 20:
            return
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                endpoints = _deprecated_endpoints(node.decorator_list)
                for decorator in node.decorator_list:
                    call = self.export_call(decorator)
                    if call is not None:
                        self.declare(call, node.name, decorator.lineno, endpoints=endpoints)
                    else:
                        self.export_like(decorator)
            elif isinstance(node, ast.Expr | ast.Assign | ast.AnnAssign) and node.value:
                self.call_statement(node.value, node.lineno)
            for child in _blocks(node):
                self.statements(child, depth + 1)

    def export_call(self, node: ast.expr) -> ast.Call | None:
        """``node`` when it calls one of the export decorators (``keras_export(...)``)."""
        if isinstance(node, ast.Call) and _callee(node.func) in self.spellings:
            return node
        return None

    def export_like(self, node: ast.expr) -> None:
        """Note a decorator call that looks like a declaration but is not one of the export
        decorators (``@api_export("a.b")``): its paths are not read, and the report says so."""
        if not isinstance(node, ast.Call) or not node.args:
            return
        callee = _callee(node.func) or ""
        texts = _texts(node.args[0])
        if "export" not in callee.lower() or not texts or self.absolute(texts[0]) is None:
            return
        self.found.unrecognised.append(
            f"{self.item.relpath}:{node.lineno}: {callee}(...) looks like an export "
            "declaration, but it is not one of the export decorators (export_decorators "
            "in [tool.apisurface]); its paths are not read"
        )

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

    def declare(
        self,
        call: ast.Call,
        name: str,
        line: int,
        module: str | None = None,
        endpoints: frozenset[str] = frozenset(),
    ) -> None:
        """The paths of one declaration. The positional names are the current API; a
        ``v1=[...]`` keyword names the v1 API, at ``compat.v1`` (without it, the v1 names
        are the positional ones, when the package has a v1 API: see find_declarations);
        other keywords of strings declare more paths, the rest are options (scope)."""
        decorator = self.spellings.get(_callee(call.func) or "", "")
        paths: dict[str, list[str]] = {}
        options: list[str] = []
        listed = False
        has_v1 = False
        for argument in call.args:
            texts = _texts(argument)
            if texts is None:
                self.problem(line, f"{decorator} names a path that is not a literal; left out")
                return
            for text in texts:
                paths.setdefault(text, []).append("default")
        v1_texts: list[str] = []
        for keyword in call.keywords:
            if keyword.arg is None:
                self.problem(line, f"{decorator} takes **arguments; their paths are unknown")
                continue
            texts = _texts(keyword.value)
            if texts is None:
                options.append(f"{keyword.arg}={_unparse(keyword.value)}")
                continue
            if keyword.arg == _V1:
                has_v1 = True
                v1_texts.extend(texts)
                continue
            listed = True
            for text in texts:
                paths.setdefault(text, []).append(keyword.arg)
        if has_v1:
            self.found.v1_keyword = True
        where = f"{self.item.relpath}:{line}"
        owner = module or self.item.module

        def make(path: str, text: str, scope: tuple[str, ...]) -> Declaration:
            deprecated = "deprecated endpoint" if text in endpoints else None
            return Declaration(path, owner, name, decorator, where, scope, deprecated)

        for text, groups in paths.items():
            path = self.absolute(text)
            if path is None:
                self.problem(line, f"{decorator} declares {text!r}, not a dotted name; left out")
                continue
            scope: tuple[str, ...] = ()
            if listed or options or has_v1:
                scope = (*sorted(set(groups), key=lambda group: (group != "default", group)),)
                scope += tuple(options)
            self.found.items.append(make(path, text, scope))
            if not has_v1 and "default" in groups:
                self.found.implicit_v1.append(make(path, text, (_V1,)))
        for text in dict.fromkeys(v1_texts):
            path = self.absolute(text)
            if path is None:
                self.problem(line, f"{decorator} declares {text!r}, not a dotted name; left out")
                continue
            self.found.items.append(make(_in_v1(self.package, path), text, (_V1, *options)))

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
        self.found.problems.append(f"{self.item.relpath}:{line}: {what}")


def _deprecated_endpoints(decorators: list[ast.expr]) -> frozenset[str]:
    """The names ``@deprecated_endpoints("a", "b")`` deprecates: those paths only, not the
    object (TensorFlow's decorator; the names are written like the declared ones)."""
    found: set[str] = set()
    for node in decorators:
        if isinstance(node, ast.Call) and _callee(node.func) in _PARTIAL_DEPRECATIONS:
            for argument in node.args:
                found.update(_texts(argument) or ())
    return frozenset(found)


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
                f"{item.where}: {item.decorator} declares {item.path} for {item.name}, "
                "which is not defined statically; left out"
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
            where = ", ".join(sorted({item.where for item, _ in entries}))
            walker.problems.append(
                f"{where}: {path} is declared for {len(targets)} objects "
                f"({', '.join(targets)}); left out"
            )
            continue
        if _excluded(walker, path) or path == package:
            continue
        item, obj = entries[0]
        deprecated = next((entry.deprecated for entry, _ in entries if entry.deprecated), None)
        if any(map(is_compat, path.split(".")[1:-1])):
            deprecated = deprecated or "compat module"
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
