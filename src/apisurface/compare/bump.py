"""From the changes' levels to the required bump and the next version number.

Versions are read as PEP 440 (``1.3``, ``1.3.0rc1``, ``2.0.post1``, tags such as ``v1.2`` or
``release-1.2``) with ``packaging``, mapped onto semantic versioning, and bumped with
``semver``. 0.y.z follows the Cargo convention by default (POLICY.md section 1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import semver
from packaging.version import InvalidVersion
from packaging.version import Version as Pep440Version

from apisurface.compare.rules import Classified, Level
from apisurface.errors import VersionError

__all__ = [
    "calendar_note",
    "is_calendar_version",
    "next_version",
    "parse_version",
    "required_level",
    "version_from_tag",
]

_LEADING = re.compile(r"^[^\d]*?(?=\d)")


def required_level(changes: Iterable[Classified]) -> Level:
    """The highest effective level of ``changes``; PATCH when nothing public changed."""
    levels = [change.effective_level for change in changes]
    return max([Level.PATCH, *levels])


def version_from_tag(tag: str) -> str | None:
    """The version in a tag name (``v1.2`` -> ``1.2``, ``release-1.2.0`` -> ``1.2.0``)."""
    name = tag.rpartition("/")[2]
    match = _LEADING.match(name)
    if match is None:
        return None
    candidate = name[match.end() :]
    try:
        Pep440Version(candidate)
    except InvalidVersion:
        return None
    return candidate


def parse_version(text: str) -> semver.Version:
    """Map a PEP 440 or semver version string (``v`` prefix allowed) to ``semver.Version``."""
    raw = text.strip()
    stripped = raw[1:] if raw[:1] in ("v", "V") else raw
    try:
        return semver.Version.parse(stripped)
    except (ValueError, TypeError):
        pass
    try:
        version = Pep440Version(stripped)
    except InvalidVersion:
        raise VersionError(
            f"version {text!r} is neither PEP 440 nor semver; pass --current-version X.Y.Z"
        ) from None
    if version.epoch:
        raise VersionError(
            f"version {text!r} has an epoch ({version.epoch}!), which semantic versioning "
            "cannot express; pass --current-version X.Y.Z"
        )
    release = (*version.release, 0, 0)[:3]
    if len(version.release) > 3:
        raise VersionError(
            f"version {text!r} has more than three release numbers; pass --current-version X.Y.Z"
        )
    prerelease: str | None = None
    if version.pre is not None:
        label = {"a": "alpha", "b": "beta", "rc": "rc"}[version.pre[0]]
        prerelease = f"{label}.{version.pre[1]}"
    if version.dev is not None:
        prerelease = f"{prerelease + '.' if prerelease else ''}dev.{version.dev}"
    # A post-release or local version is the same release for API purposes.
    major, minor, patch = release
    return semver.Version(major, minor, patch, prerelease=prerelease)


def next_version(current: str, level: Level, *, zero_breaking: str = "minor") -> str:
    """The version the change set needs after ``current``.

    A pre-release moves to its final release when that covers the bump (``2.0.0rc1`` + any
    change -> ``2.0.0``). On 0.y.z, with ``zero_breaking="minor"`` (Cargo), a breaking change
    gives 0.(y+1).0 and anything else 0.y.(z+1).
    """
    version = parse_version(current)
    part = {Level.MAJOR: "major", Level.MINOR: "minor"}.get(level, "patch")
    if version.major == 0 and zero_breaking == "minor" and not version.prerelease:
        part = {"major": "minor", "minor": "patch"}.get(part, "patch")
    elif version.major == 0 and zero_breaking == "minor" and part == "major":
        part = "minor"
    return str(version.next_version(part))


def is_calendar_version(
    version: str, scheme: str = "auto", history: Iterable[tuple[str, int]] = ()
) -> bool:
    """Whether ``version`` follows calendar versioning (``24.6.0``, ``2024.6.1``): always
    with ``scheme="calver"``, never with ``"semver"``; with ``"auto"`` when its first number
    is a year (2000-2099) and its second a month, or when ``history`` (earlier versions
    with the year each was released, from the tags) shows every version numbered by its
    year (``22.3.0`` released in 2022, ``23.1.0`` in 2023: at least two years)."""
    if scheme != "auto":
        return scheme == "calver"
    try:
        release = Pep440Version(version.strip().lstrip("vV")).release
    except InvalidVersion:
        return False
    if 2000 <= release[0] <= 2099 and len(release) > 1 and 1 <= release[1] <= 12:
        return True
    years: set[int] = set()
    for earlier, year in history:
        try:
            first = Pep440Version(earlier.strip().lstrip("vV")).release[0]
        except InvalidVersion:
            return False
        if first not in (year, year % 100):
            return False
        years.add(year)
    return len(years) >= 2


def calendar_note(version: str, level: Level) -> str:
    """What a report says instead of a semver bump for a calendar-versioned project."""
    return (
        f"calendar versioning ({version}): the next version is the release date, not a "
        f"semver step; this release needs a {level.name} release by the API changes, so say "
        "so in the changelog"
    )
