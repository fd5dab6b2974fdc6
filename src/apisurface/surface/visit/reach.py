"""Which files of a package the visit must read: all but those of modules the walk never
enters (test code, ``tools/``: POLICY.md section 2, rule 4), which are read only when a file
read may reach them. Pure functions of the files' names, texts and summaries."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from apisurface.project.sources import SourceFile
from apisurface.surface.visit.facts import ModuleFacts

__all__ = ["Outside", "absolute_name", "module_of", "reached", "surface_reaches"]

Outside = Callable[[str], str | None]
"""For a dotted module name, the component of it that puts the module outside what the walk
enters whatever a module holds (test code, ``tools/``: POLICY.md section 2, rule 4), or None."""


def reached(
    batch: list[SourceFile],
    facts: Mapping[str, ModuleFacts],
    waiting: Mapping[str, tuple[SourceFile, str]],
) -> list[SourceFile]:
    """The waiting files (each with its outside component) that the files just visited
    (``batch``) may reach, as a static reader can tell:

    - an import names the module or something in it (``from pkg.tests.util import helper``,
      ``from .tests import util``);
    - an import names an outside module it is inside (``import pkg.tests`` may give
      ``pkg.tests.x``);
    - a text spells the outside component after the one before it (``pkg.tests.Base``
      after ``import pkg``; ``core.tests`` after ``from pkg import core``): every module
      below that component is reached."""
    named: set[str] = set()
    imported: set[str] = set()
    spelled: set[tuple[str, str]] = set()
    for item in batch:
        package_file = Path(item.relpath).stem == "__init__"
        for reference in facts[item.relpath].references:
            name = absolute_name(reference, item.module, package_file)
            imported.add(name)
            parts = name.split(".")
            named.update(".".join(parts[:end]) for end in range(1, len(parts)))
    pairs = {_pair(item.module, component) for item, component in waiting.values()}
    for component in {component for _, component in pairs}:
        written = re.compile(rf"(\w+)\.{re.escape(component)}\b")
        for item in batch:
            if f".{component}" in item.text:
                spelled.update((match, component) for match in written.findall(item.text))
    found: list[SourceFile] = []
    for item, component in waiting.values():
        parts = item.module.split(".")
        inside = range(parts.index(component) + 1, len(parts) + 1)  # from the outside one
        if (
            item.module in named
            or _pair(item.module, component) in spelled
            or any(".".join(parts[:end]) in imported for end in inside)
        ):
            found.append(item)
    return found


def _pair(module: str, component: str) -> tuple[str, str]:
    """The outside ``component`` of ``module`` and the name before it."""
    parts = module.split(".")
    index = parts.index(component)
    return (parts[index - 1] if index else "", component)


def absolute_name(reference: str, module: str, package_file: bool) -> str:
    """An import path written in ``module`` (an ``__init__`` when ``package_file``), such as
    ``.exceptions.X``, as an absolute dotted name."""
    level = len(reference) - len(reference.lstrip("."))
    if not level:
        return reference
    base = module.split(".") if package_file else module.split(".")[:-1]
    base = base[: max(len(base) - (level - 1), 0)]
    rest = reference[level:]
    return ".".join([*base, rest] if rest else base)


def module_of(relpath: str) -> str:
    """The dotted module a file stands for, from its path relative to the folder holding
    the package (``pkg/sub/__init__.py`` -> ``pkg.sub``, ``pkg/core.pyi`` -> ``pkg.core``)."""
    parts = relpath.split("/")
    parts[-1] = parts[-1].partition(".")[0]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def surface_reaches(
    package: str,
    files: Sequence[SourceFile],
    facts: Mapping[str, ModuleFacts],
    public: Callable[[str], bool],
    others: Iterable[str] = (),
) -> set[str]:
    """The modules of the package the public surface reaches, as a static reader can tell:
    the package, every module whose own name is public (``public``: no private, test or
    tools component), and every module a reached one imports or imports from (and the
    packages above it), again and again. ``others`` names modules of files that were not
    read (they import nothing known). A module outside this set (a vendored Python 2 file
    no public module imports, test code) cannot change what users reach."""
    known = {item.module for item in files} | set(others)
    reached = {module for module in known if module == package or public(module)}
    by_module: dict[str, list[SourceFile]] = {}
    for item in files:
        by_module.setdefault(item.module, []).append(item)
    pending = sorted(reached)
    while pending:
        for item in by_module.get(pending.pop(), ()):
            found = facts.get(item.relpath)
            if found is None:
                continue
            package_file = Path(item.relpath).stem == "__init__"
            for reference in found.references:
                parts = absolute_name(reference, item.module, package_file).split(".")
                for end in range(1, len(parts) + 1):
                    name = ".".join(parts[:end])
                    if name in known and name not in reached:
                        reached.add(name)
                        pending.append(name)
    return reached
