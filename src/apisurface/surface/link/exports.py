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

Declarations are read from each module's summary: the visit records every call that may be
one (:mod:`apisurface.surface.visit.exportcalls`, with no decorator names in mind), and this
keeps those of the configured decorators; no file is parsed again. The declared objects are
then found in griffe's tree and described by the
:class:`~apisurface.surface.link.walker.Walker`, exactly as the layout walk would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import griffe

from apisurface.model import ExclusionReason, Problem, Symbol, SymbolKind
from apisurface.project.sources import SourceFile
from apisurface.surface.access import safe_target_path
from apisurface.surface.link.walker import Walker
from apisurface.surface.policy import is_compat, is_test_module
from apisurface.surface.visit.exportcalls import Call, ExportFacts, Site
from apisurface.surface.visit.facts import ModuleFacts

__all__ = [
    "Declaration",
    "Declarations",
    "Export",
    "declare_surface",
    "find_declarations",
    "generated_exports",
]

_V1 = "v1"
"""The keyword naming TensorFlow's v1 API, served in TensorFlow 2 at ``compat.v1``."""
_V1_NAMESPACE = "compat.v1"


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
    deprecated: str | None = None
    """Set when ``deprecated_endpoints`` names this path (only this path is deprecated)."""
    bound: str | None = None
    """The module-level name the declaration's result is assigned to, when it is
    (``Relu = tf_export("raw_ops.Relu")(to_raw_op(relu))``): what a build imports."""

    @property
    def where(self) -> str:
        """``file:line`` of the declaration."""
        return f"{self.file}:{self.line}"


@dataclass(slots=True)
class Declarations:
    """Every declaration found in a package, and what could not be read statically."""

    items: list[Declaration] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unrecognised: list[Problem] = field(default_factory=list)
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
    package: str,
    files: Iterable[SourceFile],
    decorators: Sequence[str],
    summaries: Mapping[Path, ModuleFacts],
) -> Declarations:
    """The export declarations made with ``decorators`` in the package's ``files``, as
    their ``summaries`` (by relative path) hold them: only the files' names are read here."""
    found = Declarations()
    names = frozenset(decorators)
    if not names:
        return found
    for item in files:
        if any(is_test_module(part) for part in item.module.split(".")):
            continue
        facts = summaries.get(Path(item.relpath))
        if facts is None or not facts.exports.sites:
            continue
        _Reader(package, item, names, found).sites(facts.exports)
    if found.v1_keyword:
        for implicit in found.implicit_v1:
            path = _in_v1(package, implicit.path)
            if not _mirror(path.removeprefix(package + ".")):  # compat.v1.compat.v1.*
                found.items.append(replace(implicit, path=path, scope=(_V1,)))
    found.implicit_v1.clear()
    if found.items:
        found.problems.extend(found.unrecognised)
    return found


def _in_v1(package: str, path: str) -> str:
    """Where TensorFlow 2 serves a v1 path: ``pkg.compat.v1.X`` for ``pkg.X``."""
    return f"{package}.{_V1_NAMESPACE}.{path.removeprefix(package + '.')}"


class _Reader:
    """Reads the declarations of one module from its export candidates."""

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

    def sites(self, facts: ExportFacts) -> None:
        """Every candidate of the module, in order, once its bindings are known."""
        for imported, local, source in facts.aliases:
            if imported:
                if source in self.names:
                    self.spellings[local] = source
            elif source in self.spellings:
                self.spellings[local] = self.spellings[source]
        # Export-like calls are noted in a file that has one on a line of its own, or
        # that mentions an export decorator (as they were when files were read here).
        noted = facts.export_like or any(
            name in word for word in facts.words for name in self.names
        )
        for site in facts.sites:
            if site.call.callee not in self.spellings:
                if site.decorator and noted:
                    self.export_like(site)
            elif site.problem:
                self.problem(site.line, site.problem)
            elif site.decorator:
                self.declare(site.call, site.name, site.line, endpoints=frozenset(site.endpoints))
            else:
                self.declare(site.call, site.name, site.line, module=site.module, bound=site.bound)

    def export_like(self, site: Site) -> None:
        """Note a decorator call that looks like a declaration but is not one of the export
        decorators (``@api_export("a.b")``): its paths are not read, and the report says so."""
        call = site.call
        if not call.args:
            return
        texts = call.args[0]
        if "export" not in call.callee.lower() or not texts or self.absolute(texts[0]) is None:
            return
        self.found.unrecognised.append(
            Problem(
                self.item.relpath,
                f"{call.callee}(...) looks like an export declaration, but it is not one of the "
                "export decorators (export_decorators in [tool.apisurface]); its paths are "
                "not read",
                line=site.line,
            )
        )

    def declare(
        self,
        call: Call,
        name: str,
        line: int,
        *,
        module: str | None = None,
        endpoints: frozenset[str] = frozenset(),
        bound: str | None = None,
    ) -> None:
        """The paths of one declaration. The positional names are the current API; a
        ``v1=[...]`` keyword names the v1 API, at ``compat.v1`` (without it, the v1 names
        are the positional ones, when the package has a v1 API: see find_declarations);
        other keywords of strings declare more paths, the rest are options (scope)."""
        decorator = self.spellings.get(call.callee, "")
        paths: dict[str, list[str]] = {}
        options: list[str] = []
        listed = False
        has_v1 = False
        for texts in call.args:
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
            if keyword.texts is None:
                options.append(f"{keyword.arg}={keyword.source}")
                continue
            if keyword.arg == _V1:
                has_v1 = True
                v1_texts.extend(keyword.texts)
                continue
            listed = True
            for text in keyword.texts:
                paths.setdefault(text, []).append(keyword.arg)
        if has_v1:
            self.found.v1_keyword = True
        owner = module or self.item.module
        relpath = self.item.relpath

        def make(path: str, text: str, scope: tuple[str, ...]) -> Declaration:
            deprecated = "deprecated endpoint" if text in endpoints else None
            return Declaration(
                path, owner, name, decorator, relpath, line, scope, deprecated, bound
            )

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
        self.found.problems.append(Problem(self.item.relpath, what, line=line))


# --- the surface ------------------------------------------------------------------------


def declare_surface(
    walker: Walker,
    top: griffe.Module,
    found: Declarations,
    generated: Sequence[Export] | None = None,
) -> None:
    """Fill ``walker`` with the declared surface of the package ``top``: each declared path
    described like the layout walk would describe it there, the modules holding them, and
    the package's other submodules marked not exported. With the ``generated`` API modules
    of a build, they say which paths were exported (see :func:`_authorised`). Call
    ``walker.finish()`` after."""
    walker.problems.extend(found.problems)
    walker.all_members = True
    items = found.items if generated is None else _authorised(walker, top, found, generated)
    objects: dict[str, list[tuple[Declaration, griffe.Object]]] = {}
    outside: dict[str, str] = {}
    for item in items:
        obj = _lookup(walker, top, item.module, item.name)
        imported = _imported_from_outside(walker, top, item) if obj is None else None
        if imported is not None:
            outside.setdefault(item.path, imported)
            continue
        if obj is None and not _outside(walker, item.path):
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
        if obj is not None:
            objects.setdefault(item.path, []).append((item, obj))
    package = walker.package
    walker.add(top, package, SymbolKind.MODULE, None)
    _version(walker, top)
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
    for path, target in sorted(outside.items()):
        if path not in objects and not _excluded(walker, path):
            # A constant imported from another package (``from logging import DEBUG``,
            # then ``tf_export("logging.DEBUG").export_constant(...)``): its value is not
            # ours to describe, the name is.
            deprecated = "compat module" if any(map(is_compat, path.split(".")[1:-1])) else None
            walker.symbols[path] = Symbol(
                path=path, kind=SymbolKind.ATTRIBUTE, target=target, deprecated=deprecated
            )
            declared.append(path)
    namespaces = _namespaces(walker, top, declared)
    for export in generated or ():
        if not export.name and export.path not in walker.symbols:
            _generated_namespace(walker, top, export)
            namespaces.add(export.path)
    for name, member in top.members.items():
        child = f"{package}.{name}"
        if not member.is_alias and member.is_module and child not in namespaces:
            walker.exclude(child, ExclusionReason.NOT_EXPORTED)


def _authorised(
    walker: Walker, top: griffe.Module, found: Declarations, generated: Sequence[Export]
) -> list[Declaration]:
    """The declarations the build exported: one per path of the generated modules (the
    authority), keeping the scope and deprecation its declaration gives. Disagreements are
    problems: a declared path the generated modules do not export (a module the generator
    never reads) is not API; a generated path no declaration names, or names for another
    object, is exported as generated. Paths outside the contract (POLICY.md rules 1-4) are
    not compared."""
    declared: dict[str, list[Declaration]] = {}
    for item in found.items:
        declared.setdefault(item.path, []).append(item)
    default = found.decorators[0] if found.decorators else "generated"
    items: list[Declaration] = []
    unnamed: dict[str, list[str]] = {}
    other: list[Problem] = []
    for export in generated:
        if not export.name:
            continue  # a namespace: see _generated_namespaces
        matching = declared.get(export.path, [])
        scope = tuple(dict.fromkeys(part for item in matching for part in item.scope))
        deprecated = next((item.deprecated for item in matching if item.deprecated), None)
        decorator = matching[0].decorator if matching else default
        # The build imports the name a declaration's result is bound to; the object it
        # wraps (a function, with its signature) is what the declaration describes.
        same = next(
            (
                item
                for item in matching
                if (item.module, item.bound) == (export.module, export.name)
            ),
            None,
        )
        module, name = (same.module, same.name) if same else (export.module, export.name)
        file, _, line = export.where.rpartition(":")
        items.append(
            Declaration(
                export.path, module, name, decorator, file, int(line or 0), scope, deprecated
            )
        )
        if _outside(walker, export.path) or same is not None:
            continue
        if not matching:
            unnamed.setdefault(export.where.rpartition(":")[0], []).append(export.path)
            continue
        exported = _lookup(walker, top, export.module, export.name)
        named = {_lookup(walker, top, item.module, item.name) for item in matching}
        if exported is not None and None not in named and exported not in named:
            file, _, line = export.where.rpartition(":")
            other.append(
                Problem(
                    file,
                    f"{export.path} is exported for {walker.path_of(exported)}, declared for "
                    f"{', '.join(sorted(walker.path_of(obj) for obj in named if obj))}",
                    line=int(line or 0),
                    path=export.path,
                    decided=True,
                )
            )
    exported_paths = {export.path for export in generated if export.name}
    left_out: dict[str, list[str]] = {}
    for item in found.items:
        if item.path not in exported_paths and not _outside(walker, item.path):
            left_out.setdefault(item.where.rpartition(":")[0], []).append(item.path)
    for where, paths in sorted(left_out.items()):
        walker.problems.append(
            Problem(
                where,
                f"{_counted(paths)} declared but not exported by the generated API modules "
                "(the build did not read this module); not API",
                decided=True,
            )
        )
    for where, paths in sorted(unnamed.items()):
        walker.problems.append(
            Problem(
                where,
                f"{_counted(paths)} exported by the generated API modules without a "
                "declaration read here; public as generated",
                decided=True,
            )
        )
    walker.problems.extend(sorted(other, key=lambda problem: problem.sort_key))
    return items


def _version(walker: Walker, top: griffe.Module) -> None:
    """The package's ``__version__`` is public (POLICY.md 2.10), declared or not."""
    member = top.members.get("__version__")
    if member is None:
        return
    path = f"{walker.package}.__version__"
    target = walker.resolve(member)
    if target is not None and not target.is_module and walker.internal(walker.path_of(target)):
        walker.object(target, path, explicit=True, deprecated=None)
    walker.version(top, member, path, None)


def _generated_namespace(walker: Walker, top: griffe.Module, export: Export) -> None:
    """A namespace the build generates, public like any module with a docstring (holding
    only experimental names, ``tf.mlir``, it is still a path users can type); of the
    generator's mirrors (``compat.v2``) only the name is listed, not the copy."""
    parts = export.path.split(".")
    if _excluded(walker, export.path, module=True):
        return
    deprecated = "compat module" if any(map(is_compat, parts[1:-1])) else None
    module = _module_at(walker, top, export.module.split(".")[1:])
    if module is not None:
        walker.add(module, export.path, SymbolKind.MODULE, deprecated)
    else:
        walker.symbols[export.path] = Symbol(
            path=export.path, kind=SymbolKind.MODULE, target=export.path, deprecated=deprecated
        )


def _counted(paths: list[str]) -> str:
    unique = sorted(set(paths))
    shown = ", ".join(unique[:3]) + (f" and {len(unique) - 3} more" if len(unique) > 3 else "")
    return f"{len(unique)} path{'s' if len(unique) != 1 else ''} ({shown})"


def _outside(walker: Walker, path: str) -> bool:
    """Whether a path is outside the contract by POLICY.md rules 1-4 (nothing recorded)."""
    parts = path.split(".")
    return any(
        walker.excluded_by_name(
            parts[end - 1], ".".join(parts[:end]), is_module=end < len(parts), in_class=False
        )
        is not None
        for end in range(2, len(parts) + 1)
    )


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


def _excluded(walker: Walker, path: str, *, module: bool = False) -> bool:
    """Apply POLICY.md rules 1-4 and ``exclude`` to a declared path, component by component:
    a declaration does not make a private, experimental, contrib or test path public
    (``module``: the path itself names a module, ``tf.test``)."""
    parts = path.split(".")
    for end in range(2, len(parts) + 1):
        prefix = ".".join(parts[:end])
        is_module = end < len(parts) or module
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


def _imported_from_outside(walker: Walker, top: griffe.Module, item: Declaration) -> str | None:
    """The import path of a declared name its module imports from another package."""
    if "." in item.name:
        return None
    module = _module_at(walker, top, item.module.split(".")[1:])
    member = None if module is None else module.members.get(item.name)
    if member is None or not member.is_alias:
        return None
    target = safe_target_path(member)
    return None if walker.internal(target) else target


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


# --- the generated API modules ------------------------------------------------------------

_GENERATED_ROOT = "_api.v2"
"""Where TensorFlow's API generator writes the v2 API in a build (``tensorflow/_api/v2``):
``v2.py`` is the top-level module, ``math/__init__.py`` is ``tf.math``."""
_TOP_MODULE = "v2"


@dataclass(frozen=True, slots=True)
class Export:
    """One name a generated API module imports: the public path it makes, and the object;
    or, with an empty ``name``, a generated namespace (``module`` is the generated module)."""

    path: str
    module: str
    name: str
    where: str


def generated_exports(
    package: str, files: Iterable[SourceFile], summaries: Mapping[Path, ModuleFacts]
) -> list[Export] | None:
    """The names the generated API modules of a build export (each ``from M import N as A``
    of ``pkg/_api/v2/...`` is ``pkg....A``, as its summary in ``summaries`` holds it), or
    None when the tree holds none (a source checkout). The generator's mirrors are not read:
    ``compat.v2`` (the current API again) and the ``compat.v1``/``compat.v2`` inside
    ``compat.v1``."""
    root = f"{package}.{_GENERATED_ROOT}"
    found: list[Export] | None = None
    for item in files:
        if item.module != root and not item.module.startswith(root + "."):
            continue
        found = [] if found is None else found
        relative = item.module.removeprefix(root).lstrip(".")
        if relative == _TOP_MODULE:
            relative = ""
        elif relative.startswith(_TOP_MODULE + "."):
            continue  # not a generated namespace
        namespace = f"{package}.{relative}" if relative else package
        if _mirror(relative):
            if not _mirror(relative.rpartition(".")[0]):  # the mirror's own name is a path
                found.append(Export(namespace, item.module, "", f"{item.relpath}:1"))
            continue
        if relative:
            found.append(Export(namespace, item.module, "", f"{item.relpath}:1"))
        facts = summaries.get(Path(item.relpath))
        for line, module, name, bound in facts.exports.imports if facts is not None else ():
            if module == root or module.startswith(root + "."):
                continue  # a generated submodule: a namespace, not a name
            where = f"{item.relpath}:{line}"
            found.append(Export(f"{namespace}.{bound}", module, name, where))
    return found


def _mirror(relative: str) -> bool:
    """Whether a path (relative to the package) lies in one of the generator's mirrors:
    ``compat.v2`` (the current API again), ``compat.v1.compat.v1`` and ``compat.v1.compat.v2``
    (``compat.v1.compat`` itself is the v1 API's ``compat`` module, not a mirror)."""
    parts = relative.split(".") if relative else []
    if parts[:2] == ["compat", "v2"]:
        return True
    return parts[:3] == ["compat", "v1", "compat"] and parts[3:4] in (["v1"], ["v2"])
