"""The link step: from griffe's module tree to the public paths of POLICY.md section 2.

Starting at the package, every path a user can type is visited once; each is public,
excluded for a reason (private, experimental, contrib, tools, undocumented, not exported,
configured), or not part of the package at all (imports from other packages). This
module owns that traversal and the decisions at each path (``__all__`` and re-exports,
documentation, inherited and imported-only members). What a path names is answered by
:mod:`~apisurface.surface.link.aliases`, what it is by :mod:`~apisurface.surface.link.describe`
(with :mod:`~apisurface.surface.link.rendering` for annotations), whether it is deprecated by
:mod:`~apisurface.surface.link.deprecated`, and how names are spelled at the end by
:mod:`~apisurface.surface.spelling`.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Mapping
from dataclasses import replace

import griffe

from apisurface.model import (
    ExclusionReason,
    Guess,
    Location,
    Problem,
    Symbol,
    SymbolKind,
)
from apisurface.project.config import Config
from apisurface.surface.access import (
    safe_target_path,
    source_name,
)
from apisurface.surface.docsources import DocsIndex
from apisurface.surface.linearize import class_mro
from apisurface.surface.link.aliases import resolve_member, shim_attribute, shim_import
from apisurface.surface.link.deprecated import constructor_deprecation, written_deprecation
from apisurface.surface.link.describe import (
    describe,
    fields_signature,
    is_namedtuple,
    kind_of,
    namedtuple_members,
    with_path,
)
from apisurface.surface.link.exportlists import (
    module_exports,
    module_notes,
    restricts,
    unmatched_includes,
    version_symbol,
)
from apisurface.surface.link.helperdeprecation import helper_deprecation, warning_helpers
from apisurface.surface.link.inheritance import (
    Plan,
    declare_from_base,
    documented_outside,
    inherited_members,
    unread_documentation,
)
from apisurface.surface.link.moduleread import (
    call_documentation,
    import_forms,
    leads_outside,
    meta_field,
    module_file,
    outside_origin,
    sphinx_comment,
    standard_alias,
    star_imports,
    type_checking_members,
    type_checking_only,
)
from apisurface.surface.link.rendering import (
    render_annotation,
)
from apisurface.surface.policy import (
    is_compat,
    is_dunder,
    matches_any,
    name_exclusion,
    path_exclusion,
)
from apisurface.surface.spelling import (
    SpelledParts,
    lists_inherited_member,
    public_bases,
    respell,
    shortest_public_paths,
)
from apisurface.surface.standins import Answered, StubFacts, shadowing
from apisurface.surface.visit.facts import facts_of

__all__ = ["Walker"]

_MAX_DEPTH = 32
"""Modules and classes nested deeper are not walked: a problem where it stops."""
SERVED_DEPRECATED = "served lazily from a table of deprecated names"


class Walker:
    """Walks one package; ``module(top, package)`` then ``finish()`` give the surface."""

    def __init__(
        self,
        package: str,
        config: Config,
        docs: DocsIndex,
        markers: dict[str, str],
        stubs: Mapping[str, StubFacts],
        *,
        siblings: frozenset[str] = frozenset(),
    ) -> None:
        self.package = package
        self.siblings = siblings
        """The other top-level packages of the distribution read with the package: their
        objects are the package's own where it re-exports them (POLICY.md 2.8)."""
        self.config = config
        self.docs = docs
        self.markers = markers
        self.stubs = stubs
        """What each module's merged stub hides, by module name (see visit.py)."""
        self.symbols: dict[str, Symbol] = {}
        self.excluded: dict[str, ExclusionReason] = {}
        self.stack: list[str] = []
        self.problems: list[Problem] = []
        self.all_members = False
        """Declared exports (POLICY.md 2.11): every public member of a class is public,
        documented or not, and listed at each class path with what it inherits."""
        # Per-object results, keyed by id(): an inherited member is met once per subclass
        # (sympy: 390k times for 23k objects). Each entry keeps its object alive, so that
        # an id is never reused by another object during the walk.
        self._resolved: dict[int, tuple[object, griffe.Object | None]] = {}
        self._deprecations: dict[int, tuple[object, str | None]] = {}
        # Objects (by id; kept alive by _deprecations) deprecated through a helper.
        self._through_helper: set[int] = set()
        self._helpers: frozenset[str] | None = None  # private functions whose body warns
        self._paths: dict[int, tuple[object, str]] = {}
        # Members a class inherits, decided once every public class is known: one entry
        # per class walked at a path (its plan, the path, deprecated, the class).
        self._inherited: list[tuple[Plan, str, str | None, griffe.Class]] = []
        # Without path patterns a class's plan does not depend on its path: made once per
        # class (kept alive), for every path it is walked at (sympy: 2.6k walks, 478k names).
        self._plans: dict[int, tuple[griffe.Class, Plan]] = {}
        self._base_bases: dict[str, tuple[str, ...]] = {}
        # A base as spelled (possibly through a chain of imports) -> the class it names.
        self._base_targets: dict[str, str] = {}
        # Imports that are no re-export: public only for an object without a public path.
        self._imported: list[tuple[griffe.Object | griffe.Alias, str, str | None]] = []
        # Paths made public by the import-only rule, the roots of their subtrees.
        self._import_only: set[str] = set()
        # Objects a stub's own definition stands for at a public path (see visit.py).
        self._stub_shadowed: set[str] = set()
        # Without ``include``/``exclude`` path patterns a name's exclusion does not depend
        # on its path: decided once per name (sympy checks 497k inherited names).
        self._path_free = not config.include and not config.exclude
        self._name_reasons: dict[tuple[str, bool, bool], ExclusionReason | None] = {}
        # What an inherited member comes to, by the base's member object (id, kept alive):
        # the same for every subclass once its name passed the name rules.
        self._inherited_outcomes: dict[
            tuple[int, str], tuple[object, griffe.Object | ExclusionReason | None]
        ] = {}
        # Without path patterns, both decisions at once, by the member (kept alive, with
        # the name it was decided under).
        self._inherited_decisions: dict[
            int, tuple[object, str, griffe.Object | ExclusionReason | None]
        ] = {}

    # -- helpers --

    def included(self, path: str) -> bool:
        """Whether ``[tool.apisurface] include`` names ``path``."""
        return bool(self.config.include) and matches_any(path, self.config.include)

    def internal(self, path: str) -> bool:
        """Whether ``path`` names something of the package's distribution."""
        if path == self.package or path.startswith(self.package + "."):
            return True
        return bool(self.siblings) and path.partition(".")[0] in self.siblings

    def exclude(self, path: str, reason: ExclusionReason) -> None:
        self.excluded.setdefault(path, reason)

    def excluded_by_name(
        self, name: str, path: str, *, is_module: bool, in_class: bool
    ) -> ExclusionReason | None:
        if self._path_free:
            key = (name, is_module, in_class)
            if key in self._name_reasons:
                return self._name_reasons[key]
            found = self._name_reasons[key] = name_exclusion(
                name, is_module=is_module, config=self.config, in_class=in_class
            )
            return found
        reason = name_exclusion(name, is_module=is_module, config=self.config, in_class=in_class)
        if (
            reason is not None
            and reason is not ExclusionReason.PRIVATE
            and matches_any(path, self.config.include)
        ):
            return None
        return reason or path_exclusion(path, self.config)

    def resolve(self, member: griffe.Object | griffe.Alias) -> griffe.Object | None:
        found = self._resolved.get(id(member))
        if found is None:
            found = self._resolved[id(member)] = (member, resolve_member(member))
        return found[1]

    def path_of(self, obj: griffe.Object) -> str:
        """``obj.path``, computed once (griffe recomputes it from the parents each time)."""
        found = self._paths.get(id(obj))
        if found is None:
            found = self._paths[id(obj)] = (obj, obj.path)
        return found[1]

    def deprecation(self, obj: griffe.Object) -> str | None:
        """Why ``obj`` is deprecated, or None: what its code states, a warning its body
        raises (the markers), or its constructor's (see apisurface.surface.link.deprecated)."""
        found = self._deprecations.get(id(obj))
        if found is None:
            found = self._deprecations[id(obj)] = (obj, self._deprecation(obj))
        return found[1]

    def _deprecation(self, obj: griffe.Object) -> str | None:
        found = written_deprecation(obj)
        if found is not None:
            return found
        found = self.markers.get(self.path_of(obj))
        if found is None and isinstance(obj, griffe.Function):
            if self._helpers is None:
                self._helpers = warning_helpers(self.markers)
            found = helper_deprecation(
                obj,
                lambda callee: self.markers.get(self.path_of(callee)),
                lambda callee: self.internal(self.path_of(callee)),
                self._helpers,
            )
            if found is not None:
                self._through_helper.add(id(obj))
        if found is None and isinstance(obj, griffe.Class):
            found = constructor_deprecation(
                obj,
                resolve=self.resolve,
                internal=lambda function: self.internal(self.path_of(function)),
                deprecation=self.deprecation,
            )
        return found

    def documented(self, obj: griffe.Object, path: str, *, explicit: bool) -> bool:
        if not self.config.require_docstrings or explicit or self.included(path):
            return True  # ``include`` declares a path like ``__all__`` does
        if obj.docstring is not None and obj.docstring.value.strip():
            return True
        if isinstance(obj, griffe.Attribute) and sphinx_comment(obj):
            return True
        if self.deprecation(obj) is not None:
            # A deprecation notice is documentation addressed to users: the name stays
            # covered until it is removed (deprecation comes before removal).
            return True
        return self.docs.names_path(path, self.path_of(obj))

    # -- modules --

    def module(self, mod: griffe.Module, path: str, deprecated: str | None) -> bool:
        """Walk one module at ``path``: each member by name, then the module itself
        (public when something in it is, or it is documented). Whether it is public."""
        if path in self.stack or self.too_deep(mod, path):
            return False
        self.stack.append(path)
        if is_compat(mod.name):
            deprecated = deprecated or "compat module"
        deprecated = deprecated or self.markers.get(mod.path)
        exports = module_exports(mod, self.problems)
        closed = exports is not None and restricts(mod)
        type_only = type_checking_only(mod)
        has_public = False
        for name in sorted(mod.members):
            member = mod.members[name]
            child = f"{path}.{name}"
            shadow = shadowing(mod).get(name) if not member.is_alias else None
            if shadow is not None:
                member = shadow  # the package's own binding, not its submodule
            if not name.isidentifier():
                self.unexpanded_wildcard(mod, member)
            elif not member.is_alias and member.is_module:
                has_public |= self.submodule(member, name, child, deprecated)  # type: ignore[arg-type]
            else:
                has_public |= self.module_member(
                    mod,
                    member,
                    f"{path}.{name}",
                    exports=exports,
                    closed=closed,
                    type_only=type_only,
                    deprecated=deprecated,
                )
        if exports is not None and self.runtime_exports(mod, path, exports):
            has_public = True
        self.problems.extend(module_notes(mod, path, self.symbols))
        self.stack.pop()
        has_doc = mod.docstring is not None and bool(mod.docstring.value.strip())
        if has_public or has_doc or path == self.package or self.docs.names_path(path):
            self.add(mod, path, SymbolKind.MODULE, deprecated)
            return True
        self.exclude(path, ExclusionReason.UNDOCUMENTED)
        return False

    def submodule(
        self, member: griffe.Module, name: str, child: str, deprecated: str | None
    ) -> bool:
        """A module's submodule ``name`` (walked unless its name excludes it)."""
        reason = self.excluded_by_name(name, child, is_module=True, in_class=False)
        if meta_field(member) == "private":
            reason = ExclusionReason.PRIVATE
        if reason is None:
            return self.module(member, child, deprecated)
        self.exclude(child, reason)
        if reason in (ExclusionReason.EXPERIMENTAL, ExclusionReason.CONTRIB):
            self.exclude_members(member, child, reason)
        return False

    def module_member(
        self,
        mod: griffe.Module,
        member: griffe.Object | griffe.Alias,
        child: str,
        *,
        exports: set[str] | None,
        closed: bool,
        type_only: frozenset[str],
        deprecated: str | None,
    ) -> bool:
        """One member of a module other than a submodule: whether it is public at
        ``child`` (``__all__``, re-exports and the name rules decide; ``closed``: the
        module's ``__all__`` leaves out what it does not list)."""
        path, _, name = child.rpartition(".")
        # Declared public whatever the name or __all__ says (POLICY.md 2.8-2.10): the
        # package's __version__, a name a deprecation shim answers, ``:meta public:``.
        shim = member.warning if isinstance(member, Answered) else None
        served = facts_of(mod).served.get(name)
        if shim is None and served is not None and served.deprecated:
            shim = SERVED_DEPRECATED  # from a table of deprecated names (inferred)
        is_version = name == "__version__" and path == self.package
        forced = (
            is_version
            or shim is not None
            or (not member.is_alias and meta_field(member) == "public")
        )
        if is_dunder(name) and not forced:
            self.exclude(child, ExclusionReason.PRIVATE)
            return False
        listed = exports is not None and (name in exports or self.included(child))
        origin = safe_target_path(member) if member.is_alias else ""
        if name in type_only and served is None and not listed:
            # Bound only under ``if TYPE_CHECKING:`` and neither served lazily nor listed in
            # ``__all__``: absent at run time.
            return False
        if closed and not listed and not forced:
            # Another distribution's name too: dropping it from ``__all__`` unexports it.
            if not name.startswith("_") and not origin.startswith("__future__."):
                self.exclude(child, ExclusionReason.NOT_EXPORTED)
            return False
        if not listed and member.is_alias and not forced and not self.reexported(mod, member):
            if self.internal(safe_target_path(member)) and not name.startswith("_"):
                self._imported.append((member, child, deprecated))
            return False
        if member.is_alias and not self.internal(origin):
            return listed and self.external(mod, member, child, origin, deprecated)
        reason = self.excluded_by_name(name, child, is_module=False, in_class=False)
        if reason is not None and not forced:
            self.exclude(child, reason)
            return False
        target = self.resolve(member)
        if target is None and is_version:
            self.version(mod, member, child, deprecated)  # from a compiled module
            return True
        if target is None:
            outside = outside_origin(mod, origin, self.internal) if listed else None
            if outside is not None:  # through a module of ours that imports it from outside
                return self.external(mod, member, child, outside, deprecated)
            self.unresolved(mod, member, child)
            return False
        if not self.internal(target.path):
            return listed and self.external(mod, member, child, target.path, deprecated)
        if meta_field(target) == "private":
            self.exclude(child, ExclusionReason.PRIVATE)
            return False
        if target.is_module:
            # A module imported under another name: a path users can type, not walked again.
            module_reason = self.excluded_by_name(
                target.name, child, is_module=True, in_class=False
            )
            if module_reason is not None and module_reason is not ExclusionReason.PRIVATE:
                self.exclude(child, module_reason)
                return False
            self.add(target, child, SymbolKind.MODULE, deprecated)
            return True
        if isinstance(member, Answered) and target is member:
            target = shim_import(mod, member) or shim_attribute(member) or target
        explicit = listed or forced or self.declared_reexport(mod, member)
        if not self.object(target, child, explicit=explicit, deprecated=shim or deprecated):
            return False
        if is_version:
            self.version(mod, member, child, deprecated)
        if shim is not None and child in self.symbols:
            # Reported where the shim answers the name, not at what it returns.
            line = served.lineno if served is not None else member.lineno or 0
            symbol = self.symbols[child]
            symbol = replace(symbol, location=Location(source_name(mod), line))
            if shim is SERVED_DEPRECATED:
                symbol = replace(symbol, inferred=tuple(sorted({*symbol.inferred, "deprecated"})))
            self.symbols[child] = symbol
        stub = self.stubs.get(self.path_of(mod))
        shadowed = stub.shadowed.get(name) if stub is not None else None
        if shadowed is not None:
            self._stub_shadowed.add(shadowed)
        return True

    def external(
        self,
        mod: griffe.Module,
        member: griffe.Object | griffe.Alias,
        path: str,
        origin: str,
        deprecated: str | None,
    ) -> bool:
        """A name of another distribution that ``__all__`` lists (POLICY.md 2.8): public at
        ``path`` with kind ``external`` and its ``origin``. Whether it is public."""
        name = path.rpartition(".")[2]
        reason = self.excluded_by_name(name, path, is_module=False, in_class=False)
        if reason is not None or not origin:
            if reason is not None:
                self.exclude(path, reason)
            return False
        line = getattr(member, "alias_lineno", None) or member.lineno or 0
        location = Location(source_name(mod), line)
        self.symbols[path] = Symbol(
            path, SymbolKind.EXTERNAL, origin, location=location, deprecated=deprecated
        )
        return True

    def version(
        self,
        mod: griffe.Module,
        member: griffe.Object | griffe.Alias,
        path: str,
        deprecated: str | None,
    ) -> None:
        """The package's ``__version__`` (see :func:`version_symbol`)."""
        self.symbols[path] = version_symbol(self.symbols.get(path), mod, member, path, deprecated)

    def runtime_exports(self, mod: griffe.Module, path: str, exports: set[str]) -> bool:
        """Names ``__all__`` lists that the module binds only at run time (``globals()``,
        a loop): public with an unknown kind, the list says they exist (POLICY.md 2.8).
        Whether any was added."""
        if star_imports(mod):
            return False  # the names may come from a star-import griffe could not expand
        listed = mod.members.get("__all__")
        line = 0 if listed is None or listed.is_alias else listed.lineno or 0
        added = False
        for name in sorted(exports):
            child = f"{path}.{name}"
            if name in mod.members or is_dunder(name) or not name.isidentifier():
                continue
            reason = self.excluded_by_name(name, child, is_module=False, in_class=False)
            if reason is not None:
                self.exclude(child, reason)
                continue
            location = Location(source_name(mod), line)
            self.symbols.setdefault(
                child, Symbol(child, SymbolKind.UNKNOWN, child, location=location)
            )
            added = True
        return added

    def unexpanded_wildcard(self, mod: griffe.Module, member: griffe.Object | griffe.Alias) -> None:
        """A ``from m import *`` griffe could not expand: a problem when ``m`` is ours."""
        source = safe_target_path(member)
        if self.internal(source) and self.resolve(member) is None:
            self.problems.append(
                Problem(
                    source_name(mod),
                    f"star-import from {source}, which is not in the package; "
                    "its names are unknown",
                    path=mod.path,
                )
            )

    def too_deep(self, obj: griffe.Object, path: str) -> bool:
        """Whether ``obj`` (at ``path``) is nested deeper than the walk goes: then it is
        unknown, a problem where it is defined (a member 40 classes deep was dropped
        silently: a parameter removed there was PATCH, the snapshot complete)."""
        if len(self.stack) <= _MAX_DEPTH:
            return False
        message = f"nested more than {_MAX_DEPTH} modules and classes deep; {path} is not read"
        where = source_name(obj.module)
        self.problems.append(Problem(where, message, line=obj.lineno or 0, path=path))
        return True

    def unresolved(
        self, mod: griffe.Module, alias: griffe.Object | griffe.Alias, path: str
    ) -> None:
        """A re-export of our own code that does not resolve: a cycle or a missing name."""
        source = safe_target_path(alias)
        if not self.internal(source):
            return
        try:
            alias.final_target  # type: ignore[union-attr]  # noqa: B018 - raises the reason
        except griffe.CyclicAliasError:
            why = "a circular import"
        except Exception:  # noqa: BLE001
            if leads_outside(mod, source, self.internal):
                return  # an import of another package's name through one of our modules
            why = "not defined statically"
        else:
            return
        where = source_name(mod)
        related = tuple(file for file in (module_file(mod, source),) if file and file != where)
        self.problems.append(
            Problem(
                where, f"{path} re-exports {source}, {why}; left out", path=path, related=related
            )
        )

    def exclude_members(self, mod: griffe.Module, path: str, reason: ExclusionReason) -> None:
        """Name what an experimental or contrib module holds, so that a symbol moved there
        is reported as moved out of the contract rather than just removed (however deep)."""
        pending = [(iter(mod.members.items()), path)]
        while pending:
            name, member = next(pending[-1][0], ("", None))
            if member is None:
                pending.pop()
            elif not name.startswith("_") and not member.is_alias:
                self.exclude(f"{pending[-1][1]}.{name}", reason)
                if member.is_module:
                    pending.append((iter(member.members.items()), f"{pending[-1][1]}.{name}"))

    def reexported(self, mod: griffe.Module, alias: griffe.Object | griffe.Alias) -> bool:
        """Without ``__all__``, an import is a re-export in a package's ``__init__``, when
        star-imported, or when spelled ``import x as x`` / ``from m import x as x``."""
        if mod.is_init_module or getattr(alias, "wildcard_imported", False):
            return True
        if alias.name in import_forms(mod, alias)[1]:
            return True  # ``from . import x``, in any module (the typing spec)
        return self.declared_reexport(mod, alias)

    def declared_reexport(self, mod: griffe.Module, alias: griffe.Object | griffe.Alias) -> bool:
        """``from m import x as x`` (or a stub's re-export): PEP 484's explicit export, a
        declaration like a listing in ``__all__`` (so it counts as documented, too)."""
        if not alias.is_alias:
            return False
        stub = self.stubs.get(self.path_of(mod))
        if stub is not None and alias.name in stub.reexports:
            return True
        # Read from the import statement's syntax tree: it may span several lines.
        return alias.name in import_forms(mod, alias)[0]

    # -- objects --

    def object(
        self,
        obj: griffe.Object,
        path: str,
        *,
        explicit: bool,
        deprecated: str | None,
        owner: griffe.Class | None = None,
    ) -> bool:
        if self.path_of(obj) in self.stack or self.too_deep(obj, path):
            return False
        kind = kind_of(obj, owner)
        if kind is None:
            return False
        name = path.rpartition(".")[2]
        if owner is not None:
            documented = self.member_documented(obj, path, owner, kind)
        else:
            documented = self.documented(obj, path, explicit=explicit)
        if not documented:
            self.exclude(path, ExclusionReason.UNDOCUMENTED)
            return False
        deprecated = self.deprecation(obj) or deprecated
        if kind is SymbolKind.CLASS:
            self.stack.append(self.path_of(obj))
            self.add(obj, path, kind, deprecated)
            self.class_members(obj, path, deprecated)  # type: ignore[arg-type]
            self.stack.pop()
        else:
            self.add(obj, path, kind, deprecated, owner=owner, name=name)
        return True

    def member_documented(
        self, obj: griffe.Object, path: str, owner: griffe.Class, kind: SymbolKind
    ) -> bool:
        name = path.rpartition(".")[2]
        if is_dunder(name) or kind is SymbolKind.ENUM_MEMBER or self.all_members:
            return True
        if self.documented(obj, path, explicit=False):
            return True
        if kind is SymbolKind.ATTRIBUTE and getattr(obj, "annotation", None) is not None:
            return True
        if isinstance(obj, griffe.Attribute) and call_documentation(obj) is not None:
            return True  # ``property(get, doc="...")``, ``header_property(..., doc=...)``
        # A method overriding a documented base method inherits its documentation, also
        # from a standard-library base (``dict.get``, ``tzinfo.dst``), read from it.
        for base in class_mro(owner):
            inherited = base.members.get(name)
            if inherited is None or inherited is obj:
                continue
            resolved = self.resolve(inherited)
            if resolved is not None and resolved.docstring and resolved.docstring.value.strip():
                return True
        return documented_outside(owner, name)

    def class_members(self, cls: griffe.Class, path: str, deprecated: str | None) -> None:
        inherited: dict[str, griffe.Object | griffe.Alias] = {}
        with contextlib.suppress(
            griffe.AliasResolutionError, griffe.CyclicAliasError, RecursionError, ValueError
        ):
            inherited = inherited_members(cls)
        own = cls.members
        # The inherited names (most of them: sympy 441k of 476k) are decided by the class's
        # plan: the exclusions are recorded now, the objects listed in finish().
        plan = self.plan(cls, path, inherited)
        excluded = self.excluded
        for name, why in plan.exclusions:
            excluded.setdefault(f"{path}.{name}", why)
        if plan.owners:
            self._inherited.append((plan, path, deprecated, cls))
        guarded = type_checking_members(cls)
        undocumented: list[str] = []
        for name in sorted(own):
            member = own[name]
            child = f"{path}.{name}"
            if name in guarded:
                continue  # declared for type checkers only: no member at run time
            reason = self.excluded_by_name(name, child, is_module=False, in_class=True)
            if reason is ExclusionReason.PRIVATE and meta_field(member) == "public":
                reason = None  # ``:meta public:`` (POLICY.md 2.9)
            if reason is not None:
                self.exclude(child, reason)
                continue
            target = self.resolve(member)
            if target is None or not self.internal(self.path_of(target)):
                continue
            if meta_field(target) == "private":
                self.exclude(child, ExclusionReason.PRIVATE)
                continue
            if is_dunder(name) and not target.is_function:
                continue
            if origin := standard_alias(target):  # ``node_dict_factory = dict``
                self.external(cls.module, target, child, origin, deprecated)
                continue
            declare_from_base(target, cls)
            public = self.object(target, child, explicit=False, deprecated=deprecated, owner=cls)
            if not public and target.is_function and not is_dunder(name):
                undocumented.append(name)
        self.problems.extend(unread_documentation(cls, path, undocumented))
        members = {**inherited, **own}
        for field in namedtuple_members(cls, path, members, all_members=self.all_members):
            if field.path not in self.symbols:
                self.symbols[field.path] = replace(field, deprecated=deprecated)
        if is_namedtuple(cls) and "__init__" not in members:
            self.symbols[f"{path}.__init__"] = Symbol(
                path=f"{path}.__init__",
                kind=SymbolKind.METHOD,
                target=f"{cls.path}.__init__",
                signature=fields_signature(cls),
                constructor_from_fields=True,
                deprecated=deprecated,
            )

    def plan(
        self, cls: griffe.Class, path: str, inherited: dict[str, griffe.Object | griffe.Alias]
    ) -> Plan:
        """What ``cls`` (walked at ``path``) inherits, as :meth:`class_members` decides it:
        each inherited name excluded (with its reason), or to list (the object, decided in
        :meth:`inherited_members` by whether the class defining it has a public path), or
        left out. Made once per class when no path pattern is configured."""
        if self._path_free:
            found = self._plans.get(id(cls))
            if found is not None:
                return found[1]
        exclusions: list[tuple[str, ExclusionReason]] = []
        owners: dict[int, tuple[griffe.Object | None, list[tuple[str, griffe.Object]]]] = {}
        decisions = self._inherited_decisions if self._path_free else None
        for name in sorted(inherited):
            member = inherited[name]
            # What follows depends only on the base's member and its name (and on the path,
            # with path patterns configured).
            outcome: griffe.Object | ExclusionReason | None
            decided = decisions.get(id(member)) if decisions is not None else None
            if decided is not None and decided[1] == name:
                outcome = decided[2]
            else:
                outcome = self.excluded_by_name(
                    name, f"{path}.{name}", is_module=False, in_class=True
                )
                if outcome is None:
                    outcome = self.inherited_outcome(member, name)
                if decisions is not None and decided is None:
                    decisions[id(member)] = (member, name, outcome)
            if isinstance(outcome, ExclusionReason):
                exclusions.append((name, outcome))
            elif outcome is not None:
                owner = outcome.parent
                entry = owners.get(id(owner))
                if entry is None:
                    entry = owners[id(owner)] = (owner, [])
                entry[1].append((name, outcome))
        made = Plan(tuple(exclusions), tuple(owners.values()))
        if self._path_free:
            self._plans[id(cls)] = (cls, made)
        return made

    def inherited_outcome(
        self, member: griffe.Object | griffe.Alias, name: str
    ) -> griffe.Object | ExclusionReason | None:
        """An inherited member whose name passed the name rules, as :meth:`class_members`
        decides it: the object to list (if its defining class has no public path), a
        reason to exclude it, or None to leave it out. Decided once per base member."""
        found = self._inherited_outcomes.get((id(member), name))
        if found is None:
            outcome: griffe.Object | ExclusionReason | None = None
            target = self.resolve(member)
            if target is None or not self.internal(self.path_of(target)):
                outcome = None
            elif meta_field(target) == "private":
                outcome = ExclusionReason.PRIVATE
            elif is_dunder(name) and not target.is_function:
                outcome = None
            else:
                outcome = target
            found = self._inherited_outcomes[id(member), name] = (member, outcome)
        return found[1]

    def add(
        self,
        obj: griffe.Object,
        path: str,
        kind: SymbolKind,
        deprecated: str | None,
        *,
        owner: griffe.Class | None = None,
        name: str | None = None,
    ) -> None:
        # A member inherited by many subclasses is described once and copied per path.
        dataclass_owner = owner is not None and "dataclass" in owner.labels
        memo: dict[tuple[SymbolKind, str | None, bool], Symbol]
        memo = obj.extra["apisurface"].setdefault("symbols", {})
        key = (kind, deprecated, dataclass_owner)
        template = memo.get(key)
        if template is None:
            template = describe(obj, path, kind, deprecated, owner=owner)
            if deprecated is not None and id(obj) in self._through_helper:
                inferred = tuple(sorted({*template.inferred, "deprecated"}))
                template = replace(template, inferred=inferred)
            memo[key] = template
            if isinstance(obj, griffe.Class):
                self.remember_bases(obj, template.bases)
        self.symbols[path] = template if template.path == path else with_path(template, path)

    def inherited_members(self) -> None:
        """List an inherited member at the subclass path only when the class that defines
        it has no public path of its own (a private or undocumented base): a member of a
        public base is covered there, once, and the diff follows the bases (so one change
        in a base is one report, not one per subclass)."""
        public_classes = {
            symbol.target for symbol in self.symbols.values() if symbol.kind is SymbolKind.CLASS
        }
        pending, self._inherited = self._inherited, []
        # Whether the class defining a member has no public path, by that class.
        listed: dict[int, tuple[object, bool]] = {}
        for plan, path, deprecated, cls in pending:
            chosen: list[tuple[str, griffe.Object]] = []
            for owner, entries in plan.owners:
                found = listed.get(id(owner))
                if found is None:
                    defining = self.path_of(owner) if owner is not None else None
                    found = listed[id(owner)] = (
                        owner,
                        lists_inherited_member(defining, public_classes),
                    )
                if found[1] or self.all_members:
                    chosen.extend(entries)
            chosen.sort(key=operator.itemgetter(0))  # by name, as the class lists them
            for name, target in chosen:
                child = f"{path}.{name}"
                if child in self.symbols:
                    continue
                self.object(target, child, explicit=False, deprecated=deprecated, owner=cls)
        if self._inherited:
            self.inherited_members()  # members of classes reached only through inheritance

    def imported_only(self) -> None:
        """A documented object of the package with no public path at all is public where a
        public module imports it (``from ._impl import Foo`` in ``pkg/api.py``)."""
        pending, self._imported = self._imported, []
        targets = {symbol.target for symbol in self.symbols.values()} | self._stub_shadowed
        for member, child, deprecated in sorted(pending, key=operator.itemgetter(1)):
            if child.rpartition(".")[0] not in self.symbols or child in self.symbols:
                continue
            name = child.rpartition(".")[2]
            if self.excluded_by_name(name, child, is_module=False, in_class=False) is not None:
                continue
            target = self.resolve(member)
            if (
                target is None
                or target.is_module
                or not self.internal(self.path_of(target))
                or self.path_of(target) in targets
                or meta_field(target) == "private"
                or not self.documented(target, child, explicit=False)
            ):
                continue
            if self.object(target, child, explicit=False, deprecated=deprecated):
                self._import_only.add(child)

    def remember_bases(self, cls: griffe.Class, bases: tuple[str, ...]) -> None:
        """Record the bases of the in-package classes ``cls`` derives from, so that a base
        without a public path can be replaced by its own bases in :meth:`finish`
        (:func:`apisurface.surface.spelling.public_bases`): the whole chain (no cut-off)."""
        pending: list[tuple[griffe.Class, tuple[str, ...]]] = [(cls, bases)]
        while pending:
            holder, names = pending.pop()
            for base in names:
                if base in self._base_bases or not self.internal(base):
                    continue
                try:
                    found = holder.modules_collection.get_member(base)
                    if found.is_alias:
                        found = found.final_target
                except Exception:  # noqa: BLE001 - unresolvable or cyclic: keep the base as it is
                    continue
                if isinstance(found, griffe.Class):
                    own = tuple(render_annotation(item, found.parent) for item in found.bases)
                    self._base_bases[base] = own
                    self._base_targets[base] = self.path_of(found)
                    pending.append((found, own))

    def finish(self) -> dict[str, Symbol]:
        """Spell every in-package name in annotations and bases by its public path."""
        self.imported_only()
        self.inherited_members()
        self.problems.extend(unmatched_includes(self.config.include, self.symbols))
        public = shortest_public_paths(self.symbols)
        # A name written through a public re-export (`from ..datastructures import Headers`
        # with `Headers` defined in `datastructures.headers`) is that object too.
        for path, symbol in self.symbols.items():
            public.setdefault(path, public.get(symbol.target, path))
        for path, symbol in self.symbols.items():
            if symbol.bases:
                expanded = public_bases(symbol.bases, public, self._base_bases, self._base_targets)
                if expanded != symbol.bases:
                    self.symbols[path] = replace(symbol, bases=expanded)
        result: dict[str, Symbol] = {}
        spelled: dict[str, str] = {}
        spelled_parts: dict[tuple[int, int, tuple[str, ...], str | None], SpelledParts] = {}
        for path in sorted(self.symbols):
            symbol = self.symbols[path]
            result[path] = respell(
                symbol, self.package, public, spelled, spelled_parts, siblings=self.siblings
            )
        for path in list(self.excluded):
            if path in result:
                del self.excluded[path]
        if self._import_only:
            for path, symbol in result.items():
                if _within(path, self._import_only):
                    guesses = tuple(sorted({*symbol.guesses, Guess.IMPORT_ONLY}))
                    result[path] = replace(symbol, guesses=guesses)
        return result


def _within(path: str, roots: set[str]) -> bool:
    """Whether ``path`` is one of ``roots`` or inside one of them."""
    while path:
        if path in roots:
            return True
        path = path.rpartition(".")[0]
    return False


# --- object details ---------------------------------------------------------------------
