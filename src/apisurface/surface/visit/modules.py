"""Visiting module sources with griffe: text in, a tree of griffe modules out.

Nothing is imported or run. Each module is parsed on its own (a syntax error costs that
file, not the package), ``.pyi`` stubs are merged, and exports and star-imports are
expanded once every module is known.

Two steps, as in separate compilation. **Visit** (:func:`visit_file`) reads one file and
nothing else: griffe's tree of that module, detached from any parent, with the problems it
raised and the facts of its text. It is pure, so its product is cached by the file's content
(:mod:`apisurface.store.modules`) and computed in worker processes when many files need it;
both times it travels as plain data (JSON, :mod:`apisurface.surface.visit.summary`), read back
with the same checks (:mod:`apisurface.surface.visit.package` visits a package's files).
**Link** (:func:`link_package`, then :mod:`apisurface.surface.link.walker`) attaches every
module to its package and resolves what depends on other files: stubs, exports,
star-imports, metaclasses, MROs, dataclasses.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import itertools
import logging
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import griffe

from apisurface.model import Problem
from apisurface.project.sources import SourceFile
from apisurface.surface.access import names_in_enclosing_scope
from apisurface.surface.linearize import linearize_package
from apisurface.surface.standins import Answered, StubFacts, unread_exports
from apisurface.surface.visit.allmethods import ListMethodExports, expand_tables
from apisurface.surface.visit.bodies import read_bodies
from apisurface.surface.visit.classbases import BasesAsBound
from apisurface.surface.visit.conditions import (
    prefer_definitions,
    settle_import_fallbacks,
    settle_version_branches,
)
from apisurface.surface.visit.declared import (
    Declarations,
    Shim,
)
from apisurface.surface.visit.docsets import document_at_run_time
from apisurface.surface.visit.facts import ModuleFacts, Served, read_facts
from apisurface.surface.visit.markers import scan_text
from apisurface.surface.visit.reach import absolute_name
from apisurface.surface.visit.shadowing import displaced, settle_shadowing, wildcards
from apisurface.surface.visit.summary import Product, encode_product
from apisurface.surface.visit.unpacking import Unpacking

if TYPE_CHECKING:
    from apisurface.surface.visit.package import Visits

__all__ = [
    "GIVE_UPS",
    "Linked",
    "encoded",
    "linear_next_sibling",
    "link_package",
    "max_nodes",
    "visit_alone",
    "visit_file",
    "visit_files",
]


class _GiveUps(logging.Handler):
    """griffe reports through logging an expression it gave up on (an annotation, a base,
    a decorator nested too deeply to build): it then stands as absent, which would compare
    as "no annotation" and hide a change. Those become problems (the surface is incomplete);
    everything else griffe logs is dropped, as before."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self.messages is None:
            return
        message = record.getMessage()
        if "Failed to get" in message:
            self.messages.append(message)


GIVE_UPS = _GiveUps()
_GRIFFE_LOG = logging.getLogger("griffe")
_GRIFFE_LOG.setLevel(logging.ERROR)
_GRIFFE_LOG.propagate = False
_GRIFFE_LOG.addHandler(GIVE_UPS)


# --- visiting with griffe ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Linked:
    """What the visits of a package's files give the link besides griffe's tree: each
    file's summary (by its relative path, as griffe's ``Module.filepath``) and the
    deprecation markers of every body, by dotted path; what stubs hide."""

    summaries: Mapping[Path, ModuleFacts]
    markers: dict[str, str]
    stubs: Mapping[str, StubFacts]
    """What merging each ``.pyi`` stub into its module hides, by module name."""


def link_package(visits: Visits, problems: list[Problem]) -> tuple[griffe.Module, Linked]:
    """The visited modules of a package attached into one tree, with the facts of their
    summaries for the link (:class:`Linked`); what cannot be linked is added to
    ``problems``. Raise :class:`apisurface.surface.visit.package.Inconsistent` when a file's
    tree cannot be read back."""
    given_up = list(visits.logged)
    GIVE_UPS.messages = given_up
    try:
        with linear_next_sibling(), names_in_enclosing_scope():
            top, stubs = _link_all(visits, problems)
    finally:
        GIVE_UPS.messages = None
    problems.extend(dict.fromkeys(_given_up(message) for message in given_up))
    markers: dict[str, str] = {}
    for item in visits.files:  # in the order of the files: a later file's marker wins
        visited = visits.visited.get(item.relpath)
        # A file no module stands for (a second stub of one module) has markers of its text.
        found = visits.text_markers[item.relpath] if visited is None else visited.facts.markers
        for qualname, message in found.items():
            markers[f"{item.module}.{qualname}" if qualname else item.module] = message
    summaries = {Path(relpath): visited.facts for relpath, visited in visits.visited.items()}
    return top, Linked(summaries, markers, stubs)


_SIBLING_INDEXES = 256
"""How many parents' next-sibling indexes are kept at once while visiting."""


@contextlib.contextmanager
def linear_next_sibling() -> Iterator[None]:
    """griffe finds the statement after each assignment (its docstring) by scanning the
    parent's children from the first: quadratic, 34 s for a module of 10k names. While we
    visit, its visitor gets the same answer from an index built once per parent. Only when
    griffe's visitor still uses its own ``ast_next`` (else griffe is left as it is)."""
    try:
        from griffe._internal.agents import visitor  # noqa: PLC0415
        from griffe._internal.agents.nodes import ast as griffe_ast  # noqa: PLC0415
    except ImportError:
        yield
        return
    original = getattr(visitor, "ast_next", None)
    if original is None or original is not getattr(griffe_ast, "ast_next", None):
        yield
        return
    following: dict[int, tuple[ast.AST, dict[int, ast.AST]]] = {}

    def ast_next(node: ast.AST) -> ast.AST:
        parent = node.parent  # type: ignore[attr-defined]  # AttributeError as in griffe
        entry = following.get(id(parent))
        if entry is None or entry[0] is not parent:
            if len(following) >= _SIBLING_INDEXES:
                # The index holds its parents, and so their trees: keeping one per parent
                # for the whole package kept every module's AST alive (SQLAlchemy 2.0: peak
                # 256 MB instead of 112 MB). A few hundred cover the nesting being visited.
                following.clear()
            children = list(griffe_ast.ast_children(parent))
            entry = (parent, {id(a): b for a, b in itertools.pairwise(children)})
            following[id(parent)] = entry
        found = entry[1].get(id(node))
        if found is None:
            raise griffe.LastNodeError("there is no next node")
        return found

    setattr(visitor, "ast_next", ast_next)  # noqa: B010 - not re-exported by griffe
    try:
        yield
    finally:
        setattr(visitor, "ast_next", original)  # noqa: B010


def _link_all(
    visits: Visits, problems: list[Problem]
) -> tuple[griffe.Module, dict[str, StubFacts]]:
    package, stubs, ordered, products = (
        visits.package,
        visits.stubs,
        visits.ordered,
        visits.visited,
    )
    modules_collection = griffe.ModulesCollection()
    lines_collection = griffe.LinesCollection()
    extensions = griffe.load_extensions()
    loader = griffe.GriffeLoader(
        extensions=extensions,
        allow_inspection=False,
        modules_collection=modules_collection,
        lines_collection=lines_collection,
    )
    collections = (lines_collection, modules_collection)
    modules: dict[str, griffe.Module] = {}
    pending: list[tuple[SourceFile, SourceFile, griffe.Module | None]] = []
    # What a package's own code binds to a submodule's name (see visit/shadowing.py).
    displaced_by: dict[tuple[str, str], griffe.Object | griffe.Alias] = {}
    for source in ordered:
        parts = source.module.split(".")
        parent = _parent_module(parts, modules, lines_collection, modules_collection)
        module = _attach(products[source.relpath].product(), source, parent, collections, problems)
        stub = stubs.get(source.module)
        if stub is not None and stub is not source:
            pending.append((source, stub, parent))
        modules[source.module] = module
        if parent is not None:
            bound = displaced(parent, parts[-1])
            if bound is not None:
                displaced_by[parent.path, parts[-1]] = bound
            parent.set_member(parts[-1], module)
    top = modules.get(package) or griffe.Module(package, filepath=Path(f"{package}/__init__.py"))
    modules_collection.set_member(package, top)
    # The other top-level packages of the distribution (pytest's ``_pytest``): in the same
    # collection, so that re-exports from them resolve (POLICY.md 2.8).
    tops = [top]
    for name, module in sorted(modules.items()):
        if "." not in name and name != package:
            modules_collection.set_member(name, module)
            tops.append(module)
    # Stubs are merged once every module is known, so that an import the stub redefines
    # can be followed to its target (attrs: make_class imported in .py, declared in .pyi).
    merged_stubs = _merge_stubs(pending, modules, visits, collections, problems)
    for source in ordered:
        facts = products[source.relpath].facts
        if facts.dynamic:
            _declare_dynamic_names(modules[source.module], facts.declared)
        if facts.served:
            _declare_served_names(modules[source.module], facts.served)
    for module in modules.values():
        _metaclass_properties(module, modules_collection)
    for each in tops:
        _bound_star_imports(each, problems)
    stars = wildcards(modules.values())
    _expand(loader, tops, modules, problems)
    loads = {item.module: products[item.relpath].facts.loads for item in ordered}
    settle_shadowing(displaced_by, stars, modules, loads)
    # Docstrings set at run time (``f.__doc__ = ...``, ``wraps``), once aliases resolve.
    document_at_run_time(
        modules, {item.module: products[item.relpath].facts.docsets for item in ordered}
    )
    for each in tops:
        # Before griffe's dataclass support asks for MROs, which it recomputes exponentially.
        linearize_package(each, problems)
        try:
            extensions.call("on_package", pkg=each, loader=loader)
        except Exception:  # noqa: BLE001 - an extension failing on odd code must not stop the walk
            problems.append(
                Problem("", "dataclass constructors could not all be derived", path=each.path)
            )
    return top, merged_stubs


def _merge_stubs(
    pending: list[tuple[SourceFile, SourceFile, griffe.Module | None]],
    modules: dict[str, griffe.Module],
    visits: Visits,
    collections: tuple[griffe.LinesCollection, griffe.ModulesCollection],
    problems: list[Problem],
) -> dict[str, StubFacts]:
    """Merge each ``.pyi`` stub of ``pending`` (module file, stub file, parent) into its
    module; what merging hides, by module name."""
    products = visits.visited
    merged_stubs: dict[str, StubFacts] = {}
    for source, stub, parent in pending:
        module = modules[source.module]
        stubbed = _attach(products[stub.relpath].product(), stub, parent, collections, problems)
        reexports = _stub_reexports(stubbed, products[stub.relpath].facts.declared)
        # An import the stub replaces by a definition of its own: the imported object is
        # still the one users get at this path (surface/link/walker.py: it has a public path).
        shadowed = {
            name: str(member.target_path)  # type: ignore[union-attr]
            for name, member in module.members.items()
            if member.is_alias and name in stubbed.members and not stubbed.members[name].is_alias
        }
        try:
            _drop_shadowed_imports(module, stubbed)
            griffe.merge_stubs(module, stubbed)
        except Exception:  # noqa: BLE001 - odd stubs must not stop the walk
            problems.append(
                Problem(
                    stub.relpath,
                    f"cannot be merged with {source.relpath}",
                    related=(source.relpath,),
                )
            )
        merged_stubs[source.module] = StubFacts(shadowed, frozenset(reexports))
        if parent is not None:
            parent.set_member(source.module.rpartition(".")[2], module)
    return merged_stubs


def _expand(
    loader: griffe.GriffeLoader,
    tops: list[griffe.Module],
    modules: Mapping[str, griffe.Module],
    problems: list[Problem],
) -> None:
    """Expand every module's export list (griffe goes no further than a package without
    one), then the star-imports of every top-level package."""
    steps: list[tuple[Callable[[griffe.Module], None], list[griffe.Module]]] = [
        (loader.expand_exports, [modules[name] for name in sorted(modules)]),
        (functools.partial(loader.expand_wildcards, external=False), tops),
    ]
    for module in modules.values():
        unread = expand_tables(module)
        _unread_exports(module, loader.modules_collection, unread)
    failed: set[str] = set()
    for step, each_of in steps:
        for each in each_of:  # every export list first: star-imports read them
            try:
                step(each)
            except (RecursionError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                failed.add(each.package.path)
    for path in sorted(failed):
        message = "circular __all__ or star-imports; some exports unknown"
        problems.append(Problem("", message, path=path))


def _unread_exports(
    module: griffe.Module, collection: griffe.ModulesCollection, unread: list[str]
) -> None:
    """Record the other lists ``module``'s ``__all__`` includes that are not in the package
    (griffe's expansion drops them) besides the tables ``unread`` that could not be read:
    the link reports them, and the list then restricts nothing (see
    :func:`apisurface.surface.standins.unread_exports`)."""
    try:
        exports = module.exports
    except Exception:  # noqa: BLE001 - a dynamic __all__: reported by the link
        return
    for item in exports or ():
        if not isinstance(item, griffe.ExprName):
            continue
        try:
            path = item.canonical_path.rsplit(".", 1)[0]
            collection.get_member(path)
        except Exception:  # noqa: BLE001 - another distribution's module, or unresolvable
            unread.append(item.path)
    if unread:
        unread_exports(module, unread)


def _metaclass_properties(module: griffe.Module, collection: griffe.ModulesCollection) -> None:
    """A class whose metaclass (defined in the package) has public properties answers
    them as class attributes (``Cls.NAME``; bs4 4.15 moved ``EntitySubstitution``'s tables
    there): each becomes an attribute of the class, with the property's annotation and
    docstring, unless the class defines the name itself."""
    pending: list[griffe.Object] = [module]
    seen = 0
    while pending and seen < 100_000:
        holder = pending.pop()
        for member in list(holder.members.values()):
            if not isinstance(member, griffe.Class):
                continue
            seen += 1
            pending.append(member)
            meta = _metaclass(member, collection)
            if meta is None:
                continue
            for name, prop in meta.members.items():
                if name in member.members or name.startswith("_") or prop.is_alias:
                    continue
                if not (prop.is_attribute and "property" in prop.labels):
                    continue
                same_file = meta.module is member.module
                line = prop.lineno if same_file else member.lineno
                attribute = griffe.Attribute(
                    name,
                    annotation=getattr(prop, "annotation", None),
                    lineno=line,
                    endlineno=line,
                    docstring=prop.docstring,
                )
                attribute.labels.add("class-attribute")
                member.set_member(name, attribute)


def _metaclass(cls: griffe.Class, collection: griffe.ModulesCollection) -> griffe.Class | None:
    """The class named by ``metaclass=`` in ``cls``'s bases, when it is in the package."""
    spelled = getattr(cls, "keywords", {}).get("metaclass")
    if not isinstance(spelled, (griffe.ExprName, griffe.ExprAttribute)):
        return None
    try:
        found: object = collection.get_member(spelled.canonical_path)
        if isinstance(found, griffe.Alias):
            found = found.final_target
    except Exception:  # noqa: BLE001 - outside the package (``abc.ABCMeta``), or unresolvable
        return None
    return found if isinstance(found, griffe.Class) and found is not cls else None


# Module pairs joined by chains of star-imports (yaml, the most among the packages we
# checked: 55). griffe's expansion follows each alias's chain to its end: the cube of the
# chain's length (a cycle of 200 modules: 20 s; of 1,000: most of an hour).
MAX_STAR_PAIRS = 5_000


def _bound_star_imports(top: griffe.Module, problems: list[Problem]) -> None:
    """Leave star-imports unexpanded (and the surface incomplete) when they chain more
    module pairs than :data:`MAX_STAR_PAIRS`."""
    graph: dict[str, list[str]] = {}
    wildcards: list[tuple[griffe.Module, str]] = []
    stack: list[griffe.Module] = [top]
    seen: set[int] = set()
    while stack:
        module = stack.pop()
        if id(module) in seen:
            continue
        seen.add(id(module))
        for name, member in module.members.items():
            if member.is_alias:
                target = getattr(member, "wildcard", None)
                if isinstance(target, str):
                    graph.setdefault(module.path, []).append(target)
                    wildcards.append((module, name))
            elif isinstance(member, griffe.Module):
                stack.append(member)
    pairs = 0
    for start in graph:
        reached = {start}
        queue = [start]
        while queue and pairs <= MAX_STAR_PAIRS:
            for target in graph.get(queue.pop(), ()):
                if target not in reached:
                    reached.add(target)
                    queue.append(target)
                    pairs += 1
        if pairs > MAX_STAR_PAIRS:
            break
    if pairs <= MAX_STAR_PAIRS:
        return
    for module, name in wildcards:
        module.del_member(name)
    problems.append(
        Problem(
            "",
            f"star-imports chain more than {MAX_STAR_PAIRS} pairs of modules; "
            "not expanded, the surface is incomplete",
            path=top.path,
        )
    )


_LOGGED = re.compile(r"(?P<file>[^\n:]+):(?P<line>\d+): (?P<message>.+)", re.DOTALL)


_RECURSION_DETAIL = re.compile(r"RecursionError: maximum recursion depth exceeded[^;]*")


def _given_up(message: str, relpath: str = "") -> Problem:
    """An expression griffe gave up on as a problem of the file it names (griffe writes
    ``FILE:LINE: Failed to get ...``), else of ``relpath``."""
    # Python words a RecursionError by where the limit struck ("... exceeded in comparison"),
    # which depends on the depth the visit ran at: the problem says only what gave up.
    message = _RECURSION_DETAIL.sub("RecursionError", message)
    found = _LOGGED.fullmatch(message)
    suffix = "; the surface is incomplete without it"
    if found is None:
        return Problem(relpath, message + suffix)
    file = found["file"] if not relpath or found["file"] == relpath else relpath
    return Problem(file, found["message"] + suffix, line=int(found["line"]))


def _of_object(problem: Problem, module: griffe.Module, name: str, lines: list[str]) -> Problem:
    """An expression griffe gave up on concerns the innermost object defined around its
    line: the problem names that object and records the digest of the object's own lines,
    so that the rest of the file can change without it blocking a gate (POLICY.md section
    3, "Unknowns")."""
    if not problem.line:
        return problem
    found: tuple[str, int, int] | None = None
    pending: list[tuple[griffe.Object, str]] = [(module, name)]
    while pending:
        holder, path = pending.pop()
        for member_name, member in holder.members.items():
            if member.is_alias or not isinstance(member, griffe.Object):
                continue
            start, end = member.lineno or 0, member.endlineno or member.lineno or 0
            if start <= problem.line <= end:
                found = (f"{path}.{member_name}", start, end)
                pending.append((member, found[0]))
    if found is None:
        return problem
    path, start, end = found
    digest = hashlib.sha256()
    digest.update(path.encode("utf-8", "surrogatepass") + b"\0")
    digest.update("\n".join(lines[start - 1 : end]).encode("utf-8", "surrogatepass"))
    message = f"{path}: {problem.message}"
    return replace(problem, message=message, path=path, digest=digest.hexdigest())


@functools.cache
def _extensions() -> griffe.Extensions:
    return griffe.load_extensions(Unpacking(), BasesAsBound(), ListMethodExports())


def visit_alone(module: str, relpath: str, text: str) -> Product:
    """Visit one file with nothing else known: its parents are empty stand-ins (a module's
    own code never looks into them), and the result is detached from them."""
    parts = module.split(".")
    parent: griffe.Module | None = None
    for depth in range(1, len(parts)):
        parent = griffe.Module(
            parts[depth - 1], filepath=Path(*parts[:depth], "__init__.py"), parent=parent
        )
    filepath = Path(relpath)
    lines_collection = griffe.LinesCollection()
    lines_collection[filepath] = text.splitlines()
    top = parts[0]
    problems: list[Problem] = []
    logged: list[str] = []
    previous, GIVE_UPS.messages = GIVE_UPS.messages, logged
    found: griffe.Module | None = None
    facts: ModuleFacts | None = None

    def visit(code: str) -> griffe.Module:
        nonlocal facts
        # The one parse of the file: every fact of its text is read from this tree (before
        # griffe's visitor marks it up), and griffe visits it unless a condition is settled.
        tree = ast.parse(code)
        if code is text:
            facts = read_facts(relpath, text, tree)
        elif facts is None:  # the text without its type parameters, line for line the file's:
            # its markers and function bodies are the file's (griffe reads its lines)
            facts = ModuleFacts(
                relpath=relpath, markers=scan_text(code, tree=tree), bodies=read_bodies(tree, code)
            )
        settled, settled_tree = _settled(code, top, tree)
        with linear_next_sibling(), names_in_enclosing_scope(), _given_tree(settled_tree):
            return griffe.visit(
                parts[-1],
                filepath=filepath,
                code=settled,
                extensions=_extensions(),
                parent=parent,
                lines_collection=lines_collection,
                modules_collection=griffe.ModulesCollection(),
            )

    try:
        try:
            found = visit(text)
        except SyntaxError:
            # PEP 695 syntax the running Python cannot parse (``class C[T]:`` in a stub,
            # read on 3.11): the file without its type parameters, rather than no file
            # (names resolved through it would otherwise resolve differently).
            recovered = _without_type_parameters(text)
            if recovered == text:
                raise
            found = visit(recovered)
            problems.append(
                Problem(
                    relpath,
                    "uses type parameter syntax (PEP 695) this Python cannot parse; "
                    "read without its type parameters",
                    # The surface records no type parameters: nothing compared is lost.
                    decided=True,
                )
            )
    except SyntaxError as error:
        problems.append(_syntax_error(relpath, error))
    except (RecursionError, MemoryError) as error:
        problems.append(
            Problem(
                relpath,
                f"cannot be analysed ({type(error).__name__}: nested too deeply "
                "or too large); the surface is incomplete without this file",
            )
        )
    except Exception as error:  # noqa: BLE001 - griffe on hostile code: report, go on
        problems.append(
            Problem(
                relpath,
                f"cannot be analysed ({type(error).__name__}); "
                "the surface is incomplete without this file",
            )
        )
    finally:
        GIVE_UPS.messages = previous
    given_up = list(dict.fromkeys(_given_up(message, relpath) for message in logged))
    if found is not None:
        lines = lines_collection[filepath]
        given_up = [_of_object(problem, found, module, lines) for problem in given_up]
        found.parent = None
        found._lines_collection = None  # reattached by _attach
        found._modules_collection = None
    if facts is None:  # not parsed (a syntax error, reported): no facts of the text
        facts = ModuleFacts(relpath=relpath)
    return found, problems, given_up, facts


def _syntax_error(relpath: str, error: SyntaxError) -> Problem:
    """A file that does not parse: bad input where the public surface reaches it (the link
    decides that, :meth:`apisurface.surface.collect._Job.scoped_errors`), at its line and
    column as the compiler gives them."""
    line = error.lineno or 0
    column = (error.offset or 0) if line else 0
    return Problem(relpath, f"syntax error: {error.msg}", line=line, column=column, error=True)


def _settled(code: str, top: str, tree: ast.Module) -> tuple[str, ast.Module]:
    """``code`` with decidable conditions settled (:mod:`apisurface.surface.visit.conditions`),
    and ``tree`` edited to read as the settled text does (line for line, as a parse of it
    would)."""
    settled = settle_import_fallbacks(code, tree=tree)
    settled = settle_version_branches(settled, top, tree=tree)
    return prefer_definitions(settled, top, tree=tree), tree


@contextlib.contextmanager
def _given_tree(tree: ast.Module | None) -> Iterator[None]:
    """While griffe visits, its visitor's compile step answers with ``tree`` (the text it
    is given, already parsed) instead of parsing it again. Only when griffe's visitor
    still compiles through the ``compile`` builtin (else griffe parses, as before)."""
    if tree is None:
        yield
        return
    try:
        from griffe._internal.agents import visitor  # noqa: PLC0415
    except ImportError:
        yield
        return
    if "compile" in vars(visitor) or "_compile_module" not in vars(visitor):
        yield
        return
    given = [tree]

    def compile_(source: object, *args: object, **kwargs: object) -> object:
        flags = kwargs.get("flags", 0)
        if given and isinstance(flags, int) and flags & ast.PyCF_ONLY_AST:
            return given.pop()  # the first compile of the visit is of the module's text
        return compile(source, *args, **kwargs)  # type: ignore[call-overload]

    setattr(visitor, "compile", compile_)  # noqa: B010 - shadows the builtin there only
    try:
        yield
    finally:
        delattr(visitor, "compile")


_TYPE_PARAMETERS = re.compile(
    r"^([ \t]*(?:async[ \t]+)?(?:class|def)[ \t]+\w+)[ \t]*\[[^\]\n]*(?:\[[^\]\n]*\][^\]\n]*)*\]"
    r"(?=[ \t]*[(:])",
    re.MULTILINE,
)
_TYPE_STATEMENT = re.compile(
    r"^([ \t]*)type[ \t]+(\w+)[ \t]*(?:\[[^\]\n]*\])?[ \t]*=", re.MULTILINE
)


def _without_type_parameters(text: str) -> str:
    """``text`` without PEP 695 syntax, for a Python older than 3.12: the type parameter
    lists of ``class``/``def`` headers dropped, ``type X = ...`` read as ``X = ...``.
    Unchanged on 3.12 and later (it parses there)."""
    if sys.version_info >= (3, 12):
        return text
    text = _TYPE_PARAMETERS.sub(r"\1", text)
    return _TYPE_STATEMENT.sub(r"\1\2 =", text)


def max_nodes(text: str) -> int:
    """The most objects a product of ``text`` may hold: real visits made at most 38% of this
    (sympy, django; a floor for tiny files)."""
    return len(text) // 4 + 1_000


def encoded(product: Product, text: str) -> bytes | None:
    """``product`` as plain data, or None when it cannot be (then it is used only here)."""
    return encode_product(product, max_nodes(text))


def visit_file(module: str, relpath: str, text: str) -> bytes | None:
    """One file's product as plain data (None: visit it where it is needed instead)."""
    return encoded(visit_alone(module, relpath, text), text)


def visit_files(items: Sequence[tuple[str, str, str]]) -> list[bytes | None]:
    """:func:`visit_file` for each (module, relpath, text): what a worker runs."""
    return [visit_file(*item) for item in items]


def _attach(
    product: Product,
    source: SourceFile,
    parent: griffe.Module | None,
    collections: tuple[griffe.LinesCollection, griffe.ModulesCollection],
    problems: list[Problem],
) -> griffe.Module:
    """Link one visited file into the package; a file griffe cannot read is recorded and
    stands as an empty module."""
    found, file_problems, given_up, _ = product
    lines_collection, modules_collection = collections
    filepath = Path(source.relpath)
    # No lines are attached: the link reads the summaries, never a file's lines again
    # (tests/test_parses.py), and holding them cost every file's text a second time.
    problems.extend(file_problems)
    problems.extend(given_up)
    if found is None:
        return griffe.Module(source.module.rpartition(".")[2], filepath=filepath, parent=parent)
    found.parent = parent
    found._lines_collection = lines_collection  # as griffe.visit sets them
    found._modules_collection = modules_collection
    return found


def _drop_shadowed_imports(module: griffe.Module, stub: griffe.Module) -> None:
    """An import in the ``.py`` that the stub defines itself (``from attr import field`` in
    attrs, ``def field(...)`` in its stub) gives way to the stub's definition: griffe cannot
    merge into an alias it cannot resolve."""
    for name, overloads in list(stub.overloads.items()):
        if overloads and name not in stub.members:
            # Only ``@overload`` declarations (normal in a stub): the last one stands for
            # the function, with all of them as its overloads.
            overloads[-1].overloads = list(overloads)
            stub.set_member(name, overloads[-1])
    for name in stub.members:
        member = module.members.get(name)
        stub_member = stub.members.get(name)
        if member is None or not member.is_alias or (stub_member and stub_member.is_alias):
            continue
        try:
            member.final_target  # type: ignore[union-attr]  # noqa: B018 - resolvable?
        except Exception:  # noqa: BLE001
            module.del_member(name)


def _stub_reexports(stub: griffe.Module, declared: Declarations) -> set[str]:
    """Remember the names a stub re-exports with ``import x as x`` (the typing convention),
    since after merging, their line numbers no longer point into the module's own file."""
    redundant = declared.redundant_aliases
    return {name for name, member in stub.members.items() if member.is_alias and name in redundant}


def _declare_dynamic_names(module: griffe.Module, found: Declarations) -> None:
    """Add the names a module binds at run time in a declared way, so that they can be
    re-exported and walked like others: ``public(NAME=value)`` of atpublic, and the literal
    names a ``__getattr__`` deprecation shim answers (POLICY.md 2.8-2.9), and the literal
    names a ``__getattr__`` answers without a warning: plain attributes, public under the
    usual rules (``__version__`` of the package, ``__all__``, docs sources)."""
    for name, (value, lineno) in found.public_values.items():
        if name.isidentifier() and name not in module.members:
            module.set_member(name, griffe.Attribute(name, value=value, lineno=lineno))
    for name, shim in found.shims.items():
        if name.isidentifier() and name not in module.members:
            module.set_member(name, _shim_member(module, name, shim))
    for name, answer in found.answered.items():
        if name.isidentifier() and name not in module.members:
            module.set_member(name, _shim_member(module, name, answer, deprecated=False))


def _declare_served_names(module: griffe.Module, served: Mapping[str, Served]) -> None:
    """Add the names a module serves lazily from a table that names their module
    (:mod:`apisurface.surface.visit.lazy`) and binds nowhere else, each standing for the
    object it imports (``"connect": ".asyncio.client"`` is ``.asyncio.client.connect``)."""
    for name, item in served.items():
        if item.source is None or name in module.members:
            continue
        joint = "" if item.source.endswith(".") else "."
        imported = absolute_name(f"{item.source}{joint}{name}", module.path, module.is_init_module)
        if imported == f"{module.path}.{name}":
            continue  # a submodule of its own (lazy_loader's ``submodules``)
        module.set_member(
            name,
            Answered(name, value=None, lineno=item.lineno, warning=None, imported=imported),
        )


def _shim_member(
    module: griffe.Module, name: str, shim: Shim, *, deprecated: bool = True
) -> Answered:
    """A stand-in for a name answered by a module ``__getattr__``: ``name = returned``
    (marked deprecated when the shim warns)."""
    value: str | griffe.Expr | None = None
    if shim.returns is not None:
        try:
            node = ast.parse(shim.returns, mode="eval").body
            value = griffe.get_expression(node, parent=module, parse_strings=False)
        except (SyntaxError, ValueError, RecursionError, TypeError):
            value = None
    return Answered(
        name,
        value=value,
        lineno=shim.lineno,
        warning=shim.message if deprecated else None,
        imported=(
            None
            if shim.imported is None
            else absolute_name(shim.imported, module.path, module.is_init_module)
        ),
    )


def _parent_module(
    parts: list[str],
    modules: dict[str, griffe.Module],
    lines: griffe.LinesCollection,
    collection: griffe.ModulesCollection,
) -> griffe.Module | None:
    if len(parts) == 1:
        return None
    dotted = ".".join(parts[:-1])
    parent = modules.get(dotted)
    if parent is None:
        grandparent = _parent_module(parts[:-1], modules, lines, collection)
        parent = griffe.Module(
            parts[-2],
            filepath=Path(*parts[:-1], "__init__.py"),
            parent=grandparent,
            lines_collection=lines,
            modules_collection=collection,
        )
        if grandparent is not None:
            grandparent.set_member(parts[-2], parent)
        modules[dotted] = parent
    return parent
