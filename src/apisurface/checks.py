"""Release checks: is the committed snapshot current, and is the version bump enough?

Each check returns a :class:`CheckResult`; the CLI decides how to show it and what exit
code it means.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import semver

from apisurface.bump import next_version, parse_version, version_from_tag
from apisurface.config import Config
from apisurface.diff import diff_surfaces
from apisurface.errors import ApisurfaceError, VersionError
from apisurface.inputs import git_tags, load_input
from apisurface.model import Surface
from apisurface.report import Report, build_report
from apisurface.rules import Level, classify
from apisurface.snapshot import dumps, read_snapshot

__all__ = ["CheckResult", "check_snapshot", "check_version", "latest_release_tag"]


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check: passed or not, a one-line summary, detail lines and advice."""

    name: str
    passed: bool
    summary: str
    details: tuple[str, ...] = ()
    advice: str | None = None
    report: Report | None = field(default=None, compare=False)


def check_snapshot(surface: Surface, snapshot_path: Path) -> CheckResult:
    """The committed snapshot must equal the working tree's surface (a golden file)."""
    name = "snapshot current"
    if not snapshot_path.is_file():
        return CheckResult(
            name,
            False,
            f"{snapshot_path} does not exist",
            advice=f"run 'apisurface snapshot' and commit {snapshot_path}",
        )
    committed = read_snapshot(snapshot_path)
    if dumps(committed) == dumps(surface):
        return CheckResult(name, True, f"{snapshot_path} matches the source")
    changes = classify(diff_surfaces(committed, surface))
    details = tuple(f"{item.change.path}: {item.message} [{item.level}]" for item in changes)
    if not details:
        details = ("the snapshot's metadata (version, problems) differs from the source",)
    return CheckResult(
        name,
        False,
        f"{snapshot_path} is stale: {len(changes)} change(s) not recorded",
        details,
        advice=f"run 'apisurface snapshot' and commit {snapshot_path} with the change",
    )


def _is_shallow(cwd: Path) -> bool:
    try:
        completed = subprocess.run(
            ["git", "rev-parse", "--is-shallow-repository"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return completed.stdout.strip() == "true"


def latest_release_tag(cwd: Path) -> str | None:
    """The tag with the highest version (by version order, not date); pre-releases count."""
    best: tuple[semver.Version, str] | None = None
    for tag in git_tags(cwd):
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


def check_version(
    source: Path,
    surface: Surface,
    declared: str | None,
    *,
    against: str | None = None,
    package: str | None = None,
    config: Config | None = None,
) -> CheckResult:
    """The declared version must be at least the bump the changes since the release need."""
    name = "version bump sufficient"
    config = config or Config()
    ref = against
    if ref is None:
        try:
            ref = latest_release_tag(source)
        except ApisurfaceError:
            return CheckResult(name, True, "not a git repository: no release to compare with")
        if ref is None:
            if _is_shallow(source):
                return CheckResult(
                    name,
                    False,
                    "no release tags in this shallow clone",
                    advice="fetch the tags ('git fetch --tags --unshallow') or pass --against REF",
                )
            return CheckResult(name, True, "no release tags: treated as the first release")
    old = load_input(ref, package=package or surface.package, cwd=source)
    report = build_report(
        old.surface, surface, old_label=ref, new_label="working tree", config=config
    )
    released = old.surface.version or version_from_tag(ref)
    if released is None:
        return CheckResult(
            name, False, f"cannot tell the version of {ref}", advice="pass --against a version tag"
        )
    if declared is None:
        return CheckResult(
            name,
            False,
            "the working tree declares no version",
            advice="set [project] version in pyproject.toml or __version__",
            report=report,
        )
    needed = next_version(released, report.level, zero_breaking=config.zero_version_breaking)
    count = report.count(report.level)
    what = f"{count} {report.level.name.lower()} change(s)"
    if report.level is Level.PATCH and count == 0:
        what = "no change to the public surface"
    if parse_version(declared) >= parse_version(needed) or (
        report.level is Level.PATCH and parse_version(declared) > parse_version(released)
    ):
        return CheckResult(
            name,
            True,
            f"{released} -> {declared} covers {report.level.name} ({what} since {ref})",
            report=report,
        )
    if parse_version(declared) == parse_version(released) and report.level is Level.PATCH:
        return CheckResult(
            name,
            True,
            f"{declared} is the released version and nothing public changed",
            report=report,
        )
    details = tuple(
        f"{item.change.path}: {item.message} [{item.level}]"
        for item in report.changes
        if item.effective_level is report.level
    )
    return CheckResult(
        name,
        False,
        f"needs {report.level.name}: {what}, but the version goes {released} -> {declared}",
        details,
        advice=f"set the version to {needed} or later, or accept the changes in "
        "[tool.apisurface] with a reason",
        report=report,
    )
