"""A package attribute that shadows a submodule of the same name, as the import system
decides it (POLICY.md section 2: the public path is what users type).

Loading ``pkg.sub`` the first time sets the attribute ``pkg.sub`` to the module; a binding
of ``sub`` in ``pkg/__init__.py`` after that (``from .sub import sub``, ``from .sub import *``
when ``sub`` exports ``sub``, a ``def sub``) replaces it, and loading it again sets nothing.
So the object wins unless the package's own code first loads the submodule after binding
the name (``def later(): ...`` then ``import pkg.later``). griffe keeps one member per name
and the submodule must stay one (paths through it resolve there): the binding that wins is
kept aside for the walk (:func:`apisurface.surface.standins.shadowing`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import griffe

from apisurface.surface.standins import shadow
from apisurface.surface.visit.reach import absolute_name

__all__ = ["displaced", "settle_shadowing", "wildcards"]


def displaced(parent: griffe.Module, name: str) -> griffe.Object | griffe.Alias | None:
    """What ``parent``'s own code binds to ``name`` (about to be replaced by the submodule
    of that name), when it is not that submodule."""
    existing = parent.members.get(name)
    if existing is None or isinstance(existing, griffe.Module):
        return None
    return existing


def wildcards(modules: Iterable[griffe.Module]) -> list[tuple[griffe.Module, str, int]]:
    """The star-imports of package ``__init__`` modules, before griffe expands them:
    (package, the module imported from, line)."""
    found: list[tuple[griffe.Module, str, int]] = []
    for module in modules:
        if not module.is_init_module:
            continue
        for member in module.members.values():
            target = getattr(member, "wildcard", None) if member.is_alias else None
            if isinstance(target, str):
                line = getattr(member, "alias_lineno", None) or member.lineno or 0
                found.append((module, target, line))
    return found


def settle_shadowing(
    displaced_by: Mapping[tuple[str, str], griffe.Object | griffe.Alias],
    stars: list[tuple[griffe.Module, str, int]],
    modules: Mapping[str, griffe.Module],
    loads: Mapping[str, Mapping[str, int]],
) -> None:
    """Record, for each package whose own binding of a submodule's name wins (see the
    module's docstring), that binding: ``displaced_by`` holds what each package's code bound
    before its submodule was attached ((package, name) -> member), ``stars`` its
    star-imports (:func:`wildcards`), ``loads`` the modules each package's code loads, by
    package (``ModuleFacts.loads``)."""
    candidates: dict[tuple[str, str], tuple[griffe.Object | griffe.Alias, int]] = {}
    for (holder, name), member in displaced_by.items():
        line = getattr(member, "alias_lineno", None) or member.lineno or 0
        candidates[holder, name] = (member, line)
    for package, source, line in stars:
        for name, member in package.members.items():
            if not isinstance(member, griffe.Module):
                continue
            exported = _exported(modules.get(source), name)
            if exported is not None:
                alias = griffe.Alias(name, exported, lineno=line, endlineno=line, parent=package)
                earlier = candidates.get((package.path, name))
                if earlier is None or earlier[1] < line:
                    candidates[package.path, name] = (alias, line)
    for (path, name), (member, line) in candidates.items():
        found = modules.get(path)
        if found is None:
            continue
        first = _first_load(path, name, loads.get(path, {}))
        if first is None or first <= line:
            shadow(found, name, member)


def _exported(module: griffe.Module | None, name: str) -> str | None:
    """The path of ``name`` as a star-import of ``module`` gives it (its ``__all__``, else
    its public names), when it is not a module; else None."""
    if module is None:
        return None
    member = module.members.get(name)
    if member is None or isinstance(member, griffe.Module):
        return None
    try:
        exports = module.exports
    except Exception:  # noqa: BLE001 - a dynamic __all__: not known statically
        return None
    if exports is not None:
        listed = {item if isinstance(item, str) else item.name for item in exports}
        if name not in listed:
            return None
    elif name.startswith("_"):
        return None
    return f"{module.path}.{name}"


def _first_load(package: str, name: str, loads: Mapping[str, int]) -> int | None:
    """The first line where the package's code loads its submodule ``name``."""
    submodule = f"{package}.{name}"
    lines = [
        line
        for written, line in loads.items()
        if (found := absolute_name(written, package, package_file=True)) == submodule
        or found.startswith(submodule + ".")
    ]
    return min(lines, default=None)
