"""What a module's export list says (POLICY.md 2.6, 2.8-2.9), and the notes the walk makes
about a module's names as a whole.

``__all__`` as griffe read it, merged with PEP 842's ``__export__`` and atpublic's
declarations; every part of it the static reader cannot know is a problem of the module
(never a silent drop). Used by :mod:`apisurface.surface.link.walker`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import griffe

from apisurface.model import Location, Problem, Symbol, SymbolKind
from apisurface.surface.access import exports_of, source_name
from apisurface.surface.link.moduleread import export_list, star_imports, static_all
from apisurface.surface.policy import is_dunder, matches_any
from apisurface.surface.standins import unread_parts
from apisurface.surface.visit.facts import facts_of

__all__ = [
    "branch_kind_notes",
    "module_exports",
    "module_notes",
    "restricts",
    "run_time_notes",
    "unmatched_includes",
    "version_symbol",
]


def module_exports(mod: griffe.Module, problems: list[Problem]) -> set[str] | None:
    """The names of ``__all__``; None when absent or computed at run time (recorded in
    ``problems``, like names it lists that the module does not define)."""
    exports = exports_of(mod)
    where = source_name(mod)
    declared = export_list(mod)
    if declared is None:
        problems.append(
            Problem(
                where,
                "__export__ is computed at run time; treated as absent, so the "
                "export list may differ",
                path=mod.path,
            )
        )
    elif declared:
        exports = (exports or set()) | declared
    facts = facts_of(mod)
    found = facts.declared if facts.dynamic else None
    if found is not None and found.public_names:
        exports = (exports or set()) | found.public_names  # atpublic's @public, public()
    if exports is None:
        return None
    if not static_all(mod):
        problems.append(
            Problem(
                where,
                "__all__ is computed at run time; treated as absent, so the export list may differ",
                path=mod.path,
            )
        )
        return None
    unread = unread_parts(mod)
    if unread:
        shown = ", ".join(unread[:3]) + (f" and {len(unread) - 3} more" if len(unread) > 3 else "")
        listed = mod.members.get("__all__")
        line = 0 if listed is None or listed.is_alias else listed.lineno or 0
        problems.append(
            Problem(
                where,
                f"__all__ includes {shown}, not in the package: its names are unknown, so "
                "the list restricts nothing (names it may hold follow the rules for a "
                "module without __all__)",
                line=line,
                path=mod.path,
            )
        )
    unknown = sorted(name for name in exports if name not in mod.members and not is_dunder(name))
    if unknown:
        shown = ", ".join(unknown[:5]) + (
            f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        )
        outcome = "left out" if star_imports(mod) else "public, of unknown kind"
        problems.append(
            Problem(
                where,
                f"__all__ lists names not bound statically ({shown}); {outcome}",
                path=mod.path,
            )
        )
    return exports


def restricts(mod: griffe.Module) -> bool:
    """Whether ``mod``'s ``__all__`` (when read) leaves out every name it does not list:
    not when part of it could not be read (:func:`module_exports` reports it)."""
    return not unread_parts(mod)


def branch_kind_notes(
    mod: griffe.Module, path: str, symbols: Mapping[str, Symbol]
) -> list[Problem]:
    """A note for each public name the module defines as a class in one branch and as a
    function in another: what users get depends on the branch taken at run time."""
    notes: list[Problem] = []
    for name, kinds in facts_of(mod).branch_kinds.items():
        child = f"{path}.{name}"
        symbol = symbols.get(child)
        if symbol is None:
            continue
        spelled = " and ".join(f"a {kind} (line {line})" for line, kind in kinds)
        message = f"{child}: defined in branches as {spelled}; read as a {symbol.kind.value}"
        notes.append(Problem(source_name(mod), message, line=kinds[0][0], path=child))
    return notes


def run_time_notes(mod: griffe.Module) -> list[Problem]:
    """A problem for each place the module binds names no static reader can list
    (``globals()[name] = ...``, an import hook, a ``__getattr__`` without a static
    answer): names public there may be missing, and nothing else would say so."""
    where = source_name(mod)
    return [
        Problem(where, f"{what}; the names it binds are unknown", line=line, path=mod.path)
        for line, what in facts_of(mod).run_time
    ]


def module_notes(mod: griffe.Module, path: str, symbols: Mapping[str, Symbol]) -> list[Problem]:
    """The notes of :func:`branch_kind_notes` and :func:`run_time_notes` for ``mod``."""
    return [*branch_kind_notes(mod, path, symbols), *run_time_notes(mod)]


def unmatched_includes(patterns: tuple[str, ...], symbols: Mapping[str, Symbol]) -> list[Problem]:
    """A note for each ``include`` pattern that matches no public path: a misspelt path
    would otherwise change nothing and say nothing (a decision, never blocking)."""
    notes: list[Problem] = []
    for pattern in patterns:
        single = (pattern,)  # one tuple: its compiled form is reused for every path
        if not any(matches_any(path, single) for path in symbols):
            message = f"include pattern {pattern!r} matches no path of the package; check it"
            notes.append(Problem("pyproject.toml", message, decided=True))
    return notes


def version_symbol(
    symbol: Symbol | None,
    mod: griffe.Module,
    member: griffe.Object | griffe.Alias,
    path: str,
    deprecated: str | None,
) -> Symbol:
    """The package's ``__version__`` (POLICY.md 2.10) at ``path`` (``symbol``: what the
    walk made of it, if anything): public, its value is not, and its type is a version
    string unless written otherwise (``version("pkg")`` of importlib.metadata, or read from
    a compiled module)."""
    if symbol is None:
        line = getattr(member, "alias_lineno", None) or member.lineno or 0
        location = Location(source_name(mod), line)
        symbol = Symbol(path, SymbolKind.ATTRIBUTE, path, location=location)
    if symbol.kind is SymbolKind.ATTRIBUTE and symbol.annotation is None:
        symbol = replace(symbol, annotation="str")
    return replace(symbol, deprecated=symbol.deprecated or deprecated)
