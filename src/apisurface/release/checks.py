"""Release checks: the CI gate (``check``) and the release manager's checklist.

Each check returns a :class:`CheckResult` (pass, warn or fail, a one-line summary, detail
lines and what to do); the CLI decides how to show it and what exit code it means. The
checks that compare with the last release share one :class:`Release`, found once.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import semver

from apisurface.changes import ChangeKind
from apisurface.compare.bump import next_version, parse_version, version_from_tag
from apisurface.compare.diff import diff_surfaces
from apisurface.compare.report import Report, Unknown, build_report, scope_unknowns
from apisurface.compare.rules import Classified, Level, classify
from apisurface.errors import ApisurfaceError, GitRefError, SnapshotError, VersionError
from apisurface.model import ENGINE, Surface
from apisurface.project.config import Config
from apisurface.project.git import Repository
from apisurface.project.origins import source_root
from apisurface.project.project import Project
from apisurface.release.changelog import check_changelog, find_changelogs
from apisurface.release.inputs import (
    derive_again,
    engine_text,
    load_input,
    refuse_unreadable,
)
from apisurface.release.results import (
    SYMBOL_REMOVALS,
    CheckResult,
    Release,
    no_release,
    plural,
)
from apisurface.store.snapshot import dumps, read_snapshot, to_json

__all__ = [
    "SYMBOL_REMOVALS",
    "CheckResult",
    "Release",
    "check_accepts",
    "check_breaking_accepted",
    "check_changelog",
    "check_complete",
    "check_deprecations",
    "check_experimental_reexports",
    "check_snapshot",
    "check_version",
    "find_changelogs",
    "find_release",
    "latest_release_tag",
    "public_part",
    "release_checks",
    "snapshot_current",
]

K = ChangeKind

_WORDS = {
    Level.MAJOR: "breaking change",
    Level.MINOR: "backward-compatible addition",
    Level.PATCH: "patch-level change",
}


# --- the snapshot -----------------------------------------------------------------------


def public_part(surface: Surface) -> Surface:
    """``surface`` without its excluded names: what the snapshot gate compares.

    The snapshot file keeps the excluded names (private, undocumented, experimental, ...)
    so that a diff with a snapshot explains a move out of (or into) the surface the way a
    diff of the sources does; but they are not part of the contract, so a change to them
    alone (a private helper added, an undocumented function renamed) leaves the snapshot
    current (docs/decisions.md, "The snapshot gate").
    """
    return replace(surface, excluded={}) if surface.excluded else surface


def snapshot_current(committed: Surface, surface: Surface) -> bool:
    """Whether the committed snapshot records the public surface of ``surface`` (the
    engine that made each is not part of what they record)."""
    return dumps(replace(public_part(committed), engine=ENGINE)) == dumps(
        replace(public_part(surface), engine=ENGINE)
    )


def check_snapshot(
    surface: Surface,
    snapshot_path: Path,
    *,
    command: str = "apisurface snapshot",
    source: Path | None = None,
) -> CheckResult:
    """The committed snapshot must record the working tree's public surface (a golden
    file); names outside the surface do not count.

    A snapshot made by another apisurface engine is compared by what it describes: when
    the source it was made from is at hand (``source`` is in the git repository that
    holds it, :func:`~apisurface.release.inputs.derive_again`), that source's surface
    under this engine is; otherwise a difference may come from the rules rather than the
    code, so it is a warning, never a failure (upgrading apisurface fails no gate)."""
    name = "snapshot current"
    update = f"run '{command}' and commit {snapshot_path}"
    if not snapshot_path.is_file():
        return CheckResult(name, False, f"{snapshot_path} does not exist", advice=update)
    try:
        committed = read_snapshot(snapshot_path)
    except SnapshotError as error:
        return CheckResult(name, False, f"{snapshot_path} cannot be read: {error}", advice=update)
    if snapshot_current(committed, surface):
        return CheckResult(name, True, f"{snapshot_path} matches the source")
    if committed.other_engine:
        again = derive_again(committed, snapshot_path, source) if source is not None else None
        record = f"run '{command}' to record this engine"
        if again is None:
            changes = classify(diff_surfaces(committed, surface))
            return CheckResult(
                name,
                True,
                f"{snapshot_path} was made by {engine_text(committed)} and differs from the "
                f"source in {plural(len(changes), 'change')}, which the engine change could "
                "explain (inferred; the source it was made from is not at hand)",
                tuple(f"{item.change.path}: {item.message} [{item.level}]" for item in changes),
                advice=f"review them, then {record}",
                warning=True,
            )
        if snapshot_current(again.surface, surface):
            return CheckResult(
                name,
                True,
                f"{snapshot_path} matches the source ({again.note})",
                advice=record,
                warning=True,
            )
        committed = again.surface  # what changed since, both under this engine
    changes = classify(diff_surfaces(committed, surface))
    details = [f"{item.change.path}: {item.message} [{item.level}]" for item in changes]
    differing: list[str] = []
    for what, old, new in (
        ("package", committed.package, surface.package),
        ("version", committed.version, surface.version),
        (
            "problems",
            "; ".join(map(str, committed.problems)),
            "; ".join(map(str, surface.problems)),
        ),
    ):
        if old != new:
            differing.append(what)
            details.append(f"{what}: {old or '(none)'} -> {new or '(none)'}")
    if not details:
        # Stored detail the diff does not report as a change: name the symbols.
        old_symbols = to_json(committed)["symbols"]
        new_symbols = to_json(surface)["symbols"]
        for path in sorted(old_symbols.keys() | new_symbols.keys()):
            before, after = old_symbols.get(path), new_symbols.get(path)
            if before != after:
                differing.append("symbols")
                details.append(
                    f"{path}: recorded as {json.dumps(before, sort_keys=True)}, "
                    f"the source gives {json.dumps(after, sort_keys=True)}"
                )
    summary = f"{snapshot_path} is stale: {plural(len(changes), 'change')} not recorded"
    if not changes:
        what = " and ".join(dict.fromkeys(differing)) or "content"
        verb = "differ" if what.endswith("s") or " and " in what else "differs"
        summary = f"{snapshot_path} is stale: its {what} {verb} from the source"
    return CheckResult(name, False, summary, tuple(details), advice=f"{update} with the change")


def check_complete(
    surface: Surface, release: Release | None = None, *, snapshot_path: Path | None = None
) -> CheckResult:
    """Nothing that could not be analysed may hide a change: an unknown part of the working
    tree or of the release compared with blocks where it differs between the two (or is on
    one side only); in content the same on both sides it is a note (POLICY.md section 3,
    "Unknowns"). The other side is the release, else the committed snapshot at
    ``snapshot_path``; with neither, every unknown blocks (docs/security.md)."""
    name = "surface complete"
    baseline: Surface | None = None
    label = "the last release"
    if release is not None and release.old is not None:
        baseline, label = release.old, release.ref or label
    elif snapshot_path is not None and snapshot_path.is_file():
        try:
            baseline, label = read_snapshot(snapshot_path), str(snapshot_path)
        except SnapshotError:
            baseline = None
    if baseline is None:
        unknowns = tuple(
            Unknown("working tree", problem, False, "a decision, not an unknown")
            if problem.decided
            else Unknown("working tree", problem, True, "nothing to compare it with")
            for problem in surface.problems
        )
    else:
        unknowns = tuple(
            replace(unknown, side=label if unknown.side == "old" else "working tree")
            if unknown.side != "both"
            else unknown
            for unknown in scope_unknowns(baseline, surface)
        )
    blocking = [unknown for unknown in unknowns if unknown.blocking]
    notes = [f"note: {unknown.problem}" for unknown in unknowns if not unknown.blocking]
    if not blocking:
        if not notes:
            return CheckResult(name, True, "every module was analysed")
        return CheckResult(
            name,
            True,
            f"{plural(len(notes), 'part')} not verified, unchanged since {label} (notes)",
            tuple(notes),
        )
    return CheckResult(
        name,
        False,
        f"{plural(len(blocking), 'part')} not verified where the working tree differs "
        f"from {label}: a change there would go unseen",
        tuple(f"{unknown} ({unknown.reason})" for unknown in blocking) + tuple(notes),
        advice="fix or remove what could not be analysed",
    )


# --- the last release -------------------------------------------------------------------


def latest_release_tag(
    cwd: Path | Repository, *, at: str = "HEAD", before: bool = False
) -> str | None:
    """The release ``at`` (default ``HEAD``) comes from: of the tags in its history (``git
    tag --merged``), the one with the highest version (by version order, not date);
    pre-releases count. So on a maintenance branch cut from ``v5.0.1`` it is ``v5.0.1``,
    whatever ``main`` has tagged since. With ``before``, the tags of ``at``'s own commit
    do not count: the release before it (``check v5.0.0`` compares with ``v4.1.0``).

    Tags that carry no version (``latest``, ``stable``) are skipped; between tags naming
    the same version (``v1.2`` and ``1.2.0``) the name decides, so the choice is stable.
    """
    best: tuple[semver.Version, str] | None = None
    repository = cwd if isinstance(cwd, Repository) else Repository(cwd)
    own = set(repository.tags(points_at=at)) if before else set()
    for tag in sorted(set(repository.tags(merged=at)) - own):
        text = version_from_tag(tag)
        if text is None:
            continue
        try:
            version = parse_version(text)
        except VersionError:
            continue
        if best is None or version > best[0]:
            best = (version, tag)
    return best[1] if best else None


def find_release(
    project: Project,
    surface: Surface,
    *,
    against: str | None = None,
    allow_incomplete: bool = True,
) -> Release:
    """Find the last release (the highest version tag, or ``against``) and diff it with
    ``surface`` (the working tree of ``project``) under the project's configuration.
    Without ``allow_incomplete``, a release with a file its public surface reaches that
    does not parse is bad input (:func:`~apisurface.release.inputs.refuse_unreadable`)."""
    source, config, declared = project.source, project.config, project.version
    ref = against
    if ref is None:
        try:
            # For a ref (check v5.0.0), the release before it; the working tree at a
            # tagged commit is that release.
            ref = latest_release_tag(
                project.repository, at=project.ref or "HEAD", before=project.ref is not None
            )
        except ApisurfaceError:
            return Release(
                None, None, declared, note="not a git repository: no release to compare with"
            )
        if ref is None:
            if project.repository.is_shallow():
                return Release(
                    None,
                    None,
                    declared,
                    note="no release tags in this shallow clone (the tags were not fetched)",
                    blocked=True,
                )
            return Release(
                None, None, declared, note="no release tags: treated as the first release"
            )
    try:
        old = load_input(ref, package=surface.package, cwd=project.repository.cwd)
    except GitRefError as error:
        if project.repository.is_shallow():
            return Release(
                None,
                None,
                declared,
                note=f"{ref} cannot be read in this shallow clone ({error})",
                blocked=True,
            )
        raise
    if not allow_incomplete:
        refuse_unreadable(
            old.surface, ref, old.kind, project=old.project, cwd=project.repository.cwd
        )
    released = old.surface.version or version_from_tag(ref)
    if against is None:
        released = version_from_tag(ref) or released
    report = build_report(
        old.surface,
        surface,
        old_label=ref,
        new_label=project.ref or "working tree",
        current_version=released,
        config=config,
        # Locations relative to the repository, as in diff's reports.
        old_root=source_root(ref, old.kind, surface.package, cwd=project.repository.cwd),
        new_root=source_root(".", "folder", surface.package, cwd=source.resolve(), project=project),
    )
    return Release(ref, released, declared, report, old.surface)


def _final(version: str) -> semver.Version:
    """A pre-release or development version counts as the release it leads to."""
    return parse_version(version).finalize_version()


def _released_as(release: Release, level: Level, config: Config) -> bool:
    """Whether the declared version is a release of at least ``level`` after the last one."""
    if release.version is None or release.declared is None:
        return False
    declared = parse_version(release.declared)
    if declared <= parse_version(release.version):
        return False
    needed = next_version(release.version, level, zero_breaking=config.zero_version_breaking)
    return _final(release.declared) >= parse_version(needed)


def _line(report: Report, item: Classified) -> str:
    """One change for a check's details: its path (and its other paths), message, kind,
    level, acceptance and where it is defined."""
    accepted = f" (accepted: {item.accepted})" if item.accepted is not None else ""
    path = item.change.path
    others = report.other_paths(item)
    if others:
        path += f" (also at {', '.join(others)})"
    location = report.location(item)
    at = f" {location.file}:{max(location.line, 1)}" if location is not None else ""
    return f"{path}: {item.message} [{item.change.kind.value}, {item.level}]{accepted}{at}"


def check_version(release: Release, *, config: Config | None = None) -> CheckResult:
    """The declared version must be at least the bump the changes since the release need.

    A pre-release or development version counts as the release it leads to
    (``2.0.0rc1`` is a major release after ``1.4.2``).
    """
    name = "version bump sufficient"
    config = config or Config()
    report = release.report
    if release.ref is None or report is None:
        return no_release(name, release)
    released, declared, ref = release.version, release.declared, release.ref
    if released is None:
        return CheckResult(
            name,
            False,
            f"cannot tell the version of {ref}",
            advice="pass --against a version tag (such as v1.2.0)",
            report=report,
        )
    if declared is None:
        return CheckResult(
            name,
            False,
            "the working tree declares no version",
            advice="set [project] version in pyproject.toml or __version__",
            report=report,
        )
    level = report.level
    count = report.count(level)
    what = plural(count, _WORDS[level])
    if not report.changed:
        what = "no public API change"
    elif level is Level.PATCH and count == 0:
        what = "nothing but accepted changes"
    needed = next_version(released, level, zero_breaking=config.zero_version_breaking)
    details = tuple(_line(report, item) for item in report.changes if item.effective_level is level)
    if parse_version(declared) < parse_version(released):
        return CheckResult(
            name,
            False,
            f"the version goes backwards: {ref} released {released}, the working tree "
            f"declares {declared}",
            advice=f"set the version to {needed} or later",
            report=report,
        )
    if parse_version(declared) == parse_version(released):
        if level is Level.PATCH:
            return CheckResult(
                name,
                True,
                f"{declared} is the released version and nothing public changed"
                + (f" ({what})" if report.changed else ""),
                report=report,
            )
        return CheckResult(
            name,
            False,
            f"needs {level.name}: {what}, but the version is still {declared} ({ref})",
            details,
            advice=f"set the version to {needed} or later, or accept the changes in "
            "[tool.apisurface] with a reason",
            report=report,
        )
    if _final(declared) >= parse_version(needed):
        return CheckResult(
            name,
            True,
            f"{released} -> {declared} covers {level.name} ({what} since {ref})",
            report=report,
        )
    return CheckResult(
        name,
        False,
        f"needs {level.name}: {what}, but the version goes {released} -> {declared}",
        details,
        advice=f"set the version to {needed} or later, or accept the changes in "
        "[tool.apisurface] with a reason",
        report=report,
    )


# --- the release checklist --------------------------------------------------------------


def _accept_example(item: Classified) -> tuple[str, ...]:
    return (
        "to accept one, add to pyproject.toml:",
        "  [[tool.apisurface.accept]]",
        f'  path = "{item.change.path}"',  # (a path naming several parameters accepts each)
        f'  rule = "{item.change.kind.value}"',
        '  reason = "why users are not affected"',
    )


def check_breaking_accepted(release: Release, *, config: Config | None = None) -> CheckResult:
    """Every breaking change since the release is accepted, or the release is major."""
    name = "breaking changes accepted or major"
    config = config or Config()
    report = release.report
    if release.ref is None or report is None:
        return no_release(name, release)
    # Inferred changes are to review, not counted (unless strict: POLICY.md 3, "Evidence").
    breaking = [item for item in report.changes if item.level is Level.MAJOR and item.counted]
    open_items = [item for item in breaking if item.accepted is None]
    accepted = len(breaking) - len(open_items)
    if not breaking:
        return CheckResult(name, True, f"no breaking changes since {release.ref}")
    if not open_items:
        return CheckResult(
            name,
            True,
            f"{plural(len(breaking), _WORDS[Level.MAJOR])}, all accepted",
            tuple(_line(report, item) for item in breaking),
        )
    if _released_as(release, Level.MAJOR, config):
        return CheckResult(
            name,
            True,
            f"{plural(len(breaking), _WORDS[Level.MAJOR])}, released as a major version "
            f"({release.version} -> {release.declared})",
            tuple(_line(report, item) for item in breaking),
        )
    major = (
        next_version(release.version, Level.MAJOR, zero_breaking=config.zero_version_breaking)
        if release.version
        else "a new major version"
    )
    summary = (
        f"{plural(len(open_items), _WORDS[Level.MAJOR])} neither accepted nor released as major"
    )
    if accepted:
        summary += f" ({accepted} accepted)"
    return CheckResult(
        name,
        False,
        summary,
        (*(_line(report, item) for item in open_items), *_accept_example(open_items[0])),
        advice=f"release {major}, or accept each in [tool.apisurface] with a reason "
        "(example in the details)",
    )


def check_deprecations(release: Release, *, config: Config | None = None) -> CheckResult:
    """Removals follow the deprecation policy: a removed symbol was deprecated in an
    earlier release, and it is removed only in a major release."""
    name = "removals were deprecated first"
    config = config or Config()
    report = release.report
    if release.ref is None or report is None or release.old is None:
        return no_release(name, release)
    removals = [
        item for item in report.changes if item.change.kind in SYMBOL_REMOVALS and item.counted
    ]
    major = _released_as(release, Level.MAJOR, config)
    problems: list[str] = []
    for item in removals:
        path = item.change.path
        if report.other_paths(item):
            path += f" (also at {', '.join(report.other_paths(item))})"
        if K.REMOVED_WITHOUT_DEPRECATION in item.change.qualifiers:
            if item.accepted is None:
                problems.append(f"{path}: removed without being deprecated in {release.ref} first")
        elif not major and item.accepted is None:
            problems.append(
                f"{path}: deprecated in {release.ref}, but removed in a release that is not "
                f"major ({release.version} -> {release.declared})"
            )
    gone = {path for item in removals for path in (item.change.path, *report.other_paths(item))}
    removable = sorted(
        path
        for path, symbol in release.old.symbols.items()
        if symbol.deprecated is not None
        and path not in gone
        and not _deprecated_parent(release.old, symbol.parent)
    )
    if problems:
        return CheckResult(
            name,
            False,
            f"{plural(len(problems), 'removal')} break the deprecation policy",
            tuple(problems),
            advice="restore each symbol and deprecate it in a release first (then remove it in "
            "the next major), or accept the change with a reason",
        )
    details = tuple(
        f"{path}: deprecated in {release.ref}, may be removed in the next major release"
        for path in removable
    )
    if not removals:
        return CheckResult(name, True, f"nothing removed since {release.ref}", details)
    return CheckResult(
        name,
        True,
        f"{plural(len(removals), 'removal')}, each deprecated first and released as major "
        "(or accepted)",
        details,
    )


def _deprecated_parent(surface: Surface, path: str) -> bool:
    parent = surface.symbols.get(path)
    return parent is not None and parent.deprecated is not None


def _experimental(path: str) -> bool:
    return any("experimental" in part.lower() for part in path.split("."))


def check_experimental_reexports(surface: Surface) -> CheckResult:
    """No object defined in an experimental module or class is offered at a public path."""
    name = "no experimental re-exports"
    found: list[str] = []
    for path in sorted(surface.symbols):
        symbol = surface.symbols[path]
        if not symbol.target or not _experimental(symbol.target) or _experimental(path):
            continue
        parent = surface.symbols.get(symbol.parent)
        if parent is not None and parent.target and _experimental(parent.target):
            continue  # reported with its class or module
        found.append(f"{path} is {symbol.target}")
    if not found:
        return CheckResult(name, True, "no experimental symbol is offered at a public path")
    return CheckResult(
        name,
        False,
        f"{plural(len(found), 'experimental symbol')} re-exported at a public path",
        tuple(found),
        advice="move it out of the experimental module to promote it, or stop re-exporting "
        "it (or list the path in [tool.apisurface] exclude)",
    )


def check_accepts(release: Release, config: Config) -> CheckResult:
    """Every ``[[tool.apisurface.accept]]`` entry matches a change since the release."""
    name = "accept entries current"
    report = release.report
    if not config.accept:
        return CheckResult(name, True, "no accepted changes configured")
    if release.ref is None or report is None:
        return CheckResult(
            name,
            True,
            f"{plural(len(config.accept), 'accept entry')} not checked: {release.note}",
            warning=True,
        )
    if report.stale_accepts:
        return CheckResult(
            name,
            True,
            f"{len(report.stale_accepts)} of {len(config.accept)} accept entries match no "
            f"change since {release.ref} (stale)",
            report.stale_accepts,
            advice=f"remove the stale entries from {config.source}",
            warning=True,
        )
    if len(config.accept) == 1:
        return CheckResult(name, True, "the accept entry matches a change")
    return CheckResult(name, True, f"all {len(config.accept)} accept entries match a change")


def release_checks(
    surface: Surface,
    *,
    project: Project,
    snapshot_path: Path,
    against: str | None = None,
    snapshot_command: str = "apisurface snapshot",
    allow_incomplete: bool = True,
) -> list[CheckResult]:
    """The release manager's checklist, in order."""
    config = project.config
    release = find_release(project, surface, against=against, allow_incomplete=allow_incomplete)
    return [
        check_snapshot(surface, snapshot_path, command=snapshot_command, source=project.source),
        check_complete(surface, release, snapshot_path=snapshot_path),
        check_version(release, config=config),
        check_breaking_accepted(release, config=config),
        check_deprecations(release, config=config),
        check_changelog(release, project.root),
        check_experimental_reexports(surface),
        check_accepts(release, config),
    ]
