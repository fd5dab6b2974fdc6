"""The release check that the changelog names each public object and parameter removed or
renamed since the last release (``release-check``'s "changelog names removals")."""

from __future__ import annotations

import re
from pathlib import Path

from apisurface.model import Surface
from apisurface.project.safeio import MAX_TEXT_BYTES, read_regular
from apisurface.release.inputs import CHANGELOG_NAMES
from apisurface.release.results import (
    PARAMETER_REMOVALS,
    SYMBOL_REMOVALS,
    CheckResult,
    Release,
    no_release,
    plural,
)

__all__ = ["check_changelog", "find_changelogs"]


_UNDERLINE = re.compile(r"^\s*([=\-~^*+#])\1{2,}\s*$")


def find_changelogs(root: Path) -> list[Path]:
    """``CHANGELOG*``, ``CHANGES*``, ``NEWS*``, ``HISTORY*`` in the project folder, or
    ``changelog*`` (and the others) in its ``docs/`` or ``doc/`` (any case)."""
    found: list[Path] = []
    for folder in (root, root / "docs", root / "doc"):
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            stem = entry.name.lower()
            if entry.is_file() and stem.startswith(CHANGELOG_NAMES):
                found.append(entry)
    return found


def _unreleased(text: str, version: str | None) -> tuple[str, bool]:
    """The part of a changelog above the heading of ``version`` (the last release)."""
    if not version:
        return text, False
    pattern = re.compile(rf"(?<![\w.])v?{re.escape(version)}(?![\w]|\.\d)")
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if not pattern.search(line):
            continue
        following = lines[number + 1] if number + 1 < len(lines) else ""
        stripped = line.strip()
        heading = (
            stripped.startswith(("#", "[", "=", "*"))
            or _UNDERLINE.match(following) is not None
            or stripped.lower().startswith(("version", "release", "v", version))
        )
        if heading:
            return "\n".join(lines[:number]), True
    return text, False


def _shortest(path: str) -> tuple[int, str]:
    return (len(path), path)


def _mentions(paths: set[str], package: str, text: str) -> bool:
    """Whether ``text`` names one object known by ``paths`` (its public paths): a path in
    full, relative to the package (``Client.get`` for ``pkg.Client.get``), or its bare
    name (``get``) as a word of its own."""
    candidates = set(paths)
    candidates |= {path[len(package) + 1 :] for path in paths if path.startswith(package + ".")}
    candidates |= {path.rpartition(".")[2] for path in paths}
    candidates.discard("")
    return any(
        re.search(rf"(?<![\w.]){re.escape(candidate)}(?!\w)", text) for candidate in candidates
    )


def _removed_objects(release: Release) -> list[tuple[str, ...]]:
    """The objects removed or renamed since the release, each as its removed paths
    (shortest first): the same object removed at ``pkg.f`` and ``pkg.core.f`` is one."""
    report, old = release.report, release.old
    if report is None or old is None:
        return []
    # The report names an object once (a method and its overrides once, at the class that
    # defines it), with its other paths beside it; the changelog may name it at any of them.
    # Entries whose paths name one object (by where it is defined) are one.
    objects: list[set[str]] = []
    owner: dict[str, int] = {}
    for item in report.changes:
        if item.change.kind not in SYMBOL_REMOVALS:
            continue
        paths = {item.change.path, *report.other_paths(item)}
        keys = {_defined_at(old, path) for path in paths}
        joined = sorted({owner[key] for key in keys if key in owner})
        if joined:
            index = joined[0]
            for other in joined[1:]:
                objects[index] |= objects[other]
                objects[other] = set()
        else:
            index = len(objects)
            objects.append(set())
        objects[index] |= paths
        for key in keys | {_defined_at(old, path) for path in objects[index]}:
            owner[key] = index
    return sorted(
        tuple(sorted(paths, key=lambda p: (p.count("."), len(p), p))) for paths in objects if paths
    )


def _defined_at(surface: Surface, path: str) -> str:
    symbol = surface.symbols.get(path)
    return symbol.target if symbol is not None and symbol.target else path


def _removed_parameters(release: Release) -> list[tuple[str, ...]]:
    """The parameters removed or renamed since the release and not accepted (an accepted
    one, such as a parameter documented as positional-only, is one the project says no
    caller passes by name), each as its change paths (``pkg.f(x)``, shortest first)."""
    report = release.report
    if report is None:
        return []
    found = {
        tuple(
            sorted(
                (item.change.path, *report.other_paths(item)),
                key=lambda p: (p.count("."), len(p), p),
            )
        )
        for entry in report.changes
        for item in entry.each  # the parts of one edit to one signature
        if item.change.kind in PARAMETER_REMOVALS and item.accepted is None
    }
    return sorted(found)


_ENTRY = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)]|#)\s)")


def _mentions_parameter(paths: tuple[str, ...], package: str, text: str) -> bool:
    """Whether one entry of ``text`` (a paragraph or a list item) names the parameter
    (``x`` of ``pkg.f(x)``, as a word) together with its callable (as :func:`_mentions`
    reads it)."""
    parameter = paths[0].partition("(")[2].rstrip(")").lstrip("*")
    callables = {path.partition("(")[0] for path in paths}
    word = re.compile(rf"(?<![\w.]){re.escape(parameter)}(?!\w)")
    return any(
        word.search(entry) and _mentions(callables, package, entry) for entry in _ENTRY.split(text)
    )


def _removals_noun(symbols: int, parameters: int) -> str:
    count = symbols + parameters
    if not parameters:
        return plural(count, "removed or renamed symbol")
    if not symbols:
        return plural(count, "removed or renamed parameter")
    return f"{count} removed or renamed symbols and parameters"


def _object_line(paths: tuple[str, ...]) -> str:
    if len(paths) == 1:
        return paths[0]
    return f"{paths[0]} (also {', '.join(paths[1:])})"


_ANNOUNCE = (
    "name each one in the changelog's unreleased section (its dotted path, such as "
    "`Client.get`, or its name)"
)


def check_changelog(release: Release, project_root: Path) -> CheckResult:
    """The changelog names each public object removed or renamed since the release, by
    any of its removed paths or its bare name, and each parameter removed or renamed, by
    its name together with its callable in one entry (``fetch(timeout)``, or "`fetch`:
    `timeout` is now `wait`").

    Without a changelog the row is a warning, with a changelog that misses one a failure;
    both say the same thing: which objects are not named where. Only the part above the
    last release's heading is read when that heading is found.
    """
    name = "changelog names removals"
    report = release.report
    changelogs = find_changelogs(project_root)
    looked = "CHANGELOG*, CHANGES*, NEWS*, HISTORY* (or docs/changelog*)"
    absent = f"no changelog found in {project_root} ({looked})"
    if release.ref is None or report is None or release.old is None:
        if release.blocked:
            return no_release(name, release)
        if not changelogs:
            return CheckResult(name, True, absent, advice="add a CHANGELOG.md", warning=True)
        return CheckResult(name, True, release.note)
    symbols = _removed_objects(release)
    parameters = _removed_parameters(release)
    objects = symbols + parameters
    what = _removals_noun(len(symbols), len(parameters))
    if not changelogs:
        if not objects:
            return CheckResult(
                name,
                True,
                f"{absent}; nothing removed or renamed since {release.ref}",
                advice="add a CHANGELOG.md",
                warning=True,
            )
        return CheckResult(
            name,
            True,
            f"{len(objects)} of {what} not named in a changelog: {absent}",
            tuple(_object_line(paths) for paths in objects),
            advice=f"add a CHANGELOG.md and {_ANNOUNCE}",
            warning=True,
        )
    if not objects:
        return CheckResult(name, True, f"nothing removed or renamed since {release.ref}")
    sections: list[str] = []
    scope = "whole file"
    for changelog in changelogs:
        try:
            text = read_regular(changelog, MAX_TEXT_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
        section, cut = _unreleased(text, release.version)
        if cut:
            scope = f"above the {release.version} heading"
        sections.append(section)
    text = "\n".join(sections)
    package = release.old.package
    missing = [paths for paths in symbols if not _mentions(set(paths), package, text)]
    missing += [paths for paths in parameters if not _mentions_parameter(paths, package, text)]
    names = ", ".join(path.name for path in changelogs)
    if missing:
        return CheckResult(
            name,
            False,
            f"{len(missing)} of {what} not named in {names} ({scope})",
            tuple(_object_line(paths) for paths in missing),
            advice=_ANNOUNCE,
        )
    return CheckResult(name, True, f"{names} names all {what}")
