"""Versions: current version x required bump -> next version (POLICY.md section 1), the
versions that cannot be mapped, and where the current version comes from."""

from __future__ import annotations

from pathlib import Path

import pytest

from apisurface.changes import Change, ChangeKind
from apisurface.compare.bump import (
    is_calendar_version,
    next_version,
    parse_version,
    required_level,
    version_from_tag,
)
from apisurface.compare.report import build_report
from apisurface.compare.rules import Level, classify
from apisurface.errors import VersionError
from apisurface.project.config import Config
from apisurface.project.locate import declared_version, locate
from apisurface.surface.collect import load_surface

MAJOR, MINOR, PATCH = Level.MAJOR, Level.MINOR, Level.PATCH

# current version, then the next version for a MAJOR, a MINOR and a PATCH bump.
TABLE = [
    # plain semver
    ("1.4.2", "2.0.0", "1.5.0", "1.4.3"),
    ("1.0.0", "2.0.0", "1.1.0", "1.0.1"),
    # PEP 440 short forms and a v prefix
    ("1.3", "2.0.0", "1.4.0", "1.3.1"),
    ("1", "2.0.0", "1.1.0", "1.0.1"),
    ("v1.2", "2.0.0", "1.3.0", "1.2.1"),
    ("V1.2.0", "2.0.0", "1.3.0", "1.2.1"),
    (" 1.2 ", "2.0.0", "1.3.0", "1.2.1"),
    # post-releases and local versions are the same release for the API
    ("2.0.post1", "3.0.0", "2.1.0", "2.0.1"),
    ("1.2.3+local.7", "2.0.0", "1.3.0", "1.2.4"),
    # pre-releases move to the final release when that covers the bump
    ("2.0.0rc1", "2.0.0", "2.0.0", "2.0.0"),
    ("2.0.0-rc.1", "2.0.0", "2.0.0", "2.0.0"),
    ("1.0a1", "1.0.0", "1.0.0", "1.0.0"),
    ("1.0b2", "1.0.0", "1.0.0", "1.0.0"),
    ("2.0.0.dev3", "2.0.0", "2.0.0", "2.0.0"),
    ("1.3.0rc1", "2.0.0", "1.3.0", "1.3.0"),
    ("1.2.3rc1", "2.0.0", "1.3.0", "1.2.3"),
    # 0.y.z, Cargo convention: breaking -> 0.(y+1).0, anything else -> 0.y.(z+1)
    ("0.4.2", "0.5.0", "0.4.3", "0.4.3"),
    ("0.4", "0.5.0", "0.4.1", "0.4.1"),
    ("v0.23.3", "0.24.0", "0.23.4", "0.23.4"),
    ("0.0.3", "0.1.0", "0.0.4", "0.0.4"),
    ("0.1.0rc1", "0.1.0", "0.1.0", "0.1.0"),
]


@pytest.mark.parametrize(("current", "major", "minor", "patch"), TABLE)
def test_next_version(current: str, major: str, minor: str, patch: str) -> None:
    assert next_version(current, MAJOR) == major
    assert next_version(current, MINOR) == minor
    assert next_version(current, PATCH) == patch


@pytest.mark.parametrize(
    ("current", "major", "minor", "patch"),
    [("0.4.2", "1.0.0", "0.5.0", "0.4.3"), ("0.0.3", "1.0.0", "0.1.0", "0.0.4")],
)
def test_zero_versions_with_zero_breaking_major(
    current: str, major: str, minor: str, patch: str
) -> None:
    assert next_version(current, MAJOR, zero_breaking="major") == major
    assert next_version(current, MINOR, zero_breaking="major") == minor
    assert next_version(current, PATCH, zero_breaking="major") == patch


@pytest.mark.parametrize(
    ("tag", "version"),
    [
        ("v1.2", "1.2"),
        ("release-1.2", "1.2"),
        ("release-1.2.0", "1.2.0"),
        ("pkg-2.0.0rc1", "2.0.0rc1"),
        ("refs/tags/v3.1.4", "3.1.4"),
        ("1.2.3", "1.2.3"),
        ("stable", None),
        ("main", None),
        ("v1.x", None),
    ],
)
def test_version_from_tag(tag: str, version: str | None) -> None:
    assert version_from_tag(tag) == version


@pytest.mark.parametrize(
    ("tag", "major", "minor", "patch"),
    [
        ("release-1.2", "2.0.0", "1.3.0", "1.2.1"),
        ("v1.3.0rc1", "2.0.0", "1.3.0", "1.3.0"),
        ("pkg-0.9.1", "0.10.0", "0.9.2", "0.9.2"),
    ],
)
def test_tags_bump_through_their_version(tag: str, major: str, minor: str, patch: str) -> None:
    version = version_from_tag(tag)
    assert version is not None
    assert [next_version(version, level) for level in (MAJOR, MINOR, PATCH)] == [
        major,
        minor,
        patch,
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1!2.0", ["epoch", "--current-version"]),
        ("1.2.3.4", ["more than three release numbers", "--current-version"]),
        ("banana", ["neither PEP 440 nor semver", "--current-version"]),
        ("", ["neither PEP 440 nor semver"]),
        ("release-1.2", ["neither PEP 440 nor semver"]),
        ("1.2.x", ["neither PEP 440 nor semver"]),
    ],
)
def test_unmappable_versions_say_why(text: str, words: list[str]) -> None:
    with pytest.raises(VersionError) as raised:
        next_version(text, MAJOR)
    message = str(raised.value)
    assert repr(text) in message
    for word in words:
        assert word in message
    assert "\n" not in message
    assert isinstance(raised.value, ValueError)


def test_parse_version_maps_pre_releases() -> None:
    assert str(parse_version("1.3.0rc1")) == "1.3.0-rc.1"
    assert str(parse_version("1.0a2")) == "1.0.0-alpha.2"
    assert str(parse_version("1.0b3.dev4")) == "1.0.0-beta.3.dev.4"
    assert str(parse_version("2.0.post1")) == "2.0.0"


def test_required_level_is_the_highest_and_patch_when_empty() -> None:
    assert required_level(classify([])) is PATCH
    assert required_level(classify([Change("pkg.f", ChangeKind.DOCSTRING_CHANGED)])) is PATCH
    changes = [
        Change("pkg.f", ChangeKind.SYMBOL_ADDED),
        Change("pkg.g", ChangeKind.DOCSTRING_CHANGED),
    ]
    assert required_level(classify(changes)) is MINOR
    changes.append(Change("pkg.h", ChangeKind.SYMBOL_REMOVED))
    assert required_level(classify(changes)) is MAJOR


# --- where the current version comes from -------------------------------------------------


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "version"),
    [
        ({"pyproject.toml": '[project]\nname = "pkg"\nversion = "1.2.0"\n'}, "1.2.0"),
        ({"pkg/__init__.py": '__version__ = "0.3.1"\n'}, "0.3.1"),
        # requests and httpx keep it in pkg/__version__.py
        ({"pkg/__version__.py": '__version__ = "2.27.1"\n'}, "2.27.1"),
        ({"pkg/_version.py": 'version = "4.0.0rc1"\n'}, "4.0.0rc1"),
        # an unpacked sdist whose version is computed at run time: PKG-INFO has it
        (
            {
                "pkg/__init__.py": "__version__ = _get_version((3, 3, 7))\n",
                "PKG-INFO": "Metadata-Version: 2.1\nName: pkg\nVersion: 3.3.7\n\nVersion: 9\n",
            },
            "3.3.7",
        ),
        # an unpacked wheel (setuptools-scm, importlib.metadata): its dist-info has it
        (
            {"pkg_dist-23.2.0.dist-info/METADATA": "Metadata-Version: 2.1\nVersion: 23.2.0\n"},
            "23.2.0",
        ),
        # two dist-info folders: which one is ours is not known
        (
            {
                "a-1.0.dist-info/METADATA": "Version: 1.0\n",
                "b-2.0.dist-info/METADATA": "Version: 2.0\n",
            },
            None,
        ),
        ({"pkg/__init__.py": '"""No version."""\n'}, None),
    ],
)
def test_declared_version(tmp_path: Path, files: dict[str, str], version: str | None) -> None:
    files = {"pkg/__init__.py": "", **files}
    root = _project(tmp_path, files)
    assert declared_version(locate(root, "pkg")) == version


@pytest.mark.parametrize(
    ("version", "scheme", "history", "calendar"),
    [
        ("2024.6.1", "auto", [], True),  # a year, then a month
        ("v2024.12.0", "auto", [], True),
        ("2024.13.0", "auto", [], False),  # no month
        ("24.6.0", "auto", [], False),  # 24 alone could be a semver major
        ("24.8.0", "auto", [("22.3.0", 2022), ("23.1.0", 2023), ("24.6.0", 2024)], True),
        ("13.0.0", "auto", [("12.6.0", 2022), ("13.0.0", 2022)], False),  # rich: not years
        ("24.6.0", "auto", [("24.1.0", 2024)], False),  # one year says nothing
        ("24.6.0", "calver", [], True),
        ("2024.6.1", "semver", [], False),
    ],
)
def test_calendar_versions(
    version: str, scheme: str, history: list[tuple[str, int]], calendar: bool
) -> None:
    assert is_calendar_version(version, scheme, history) is calendar


def test_calendar_versioned_report_says_the_next_version_is_the_date(tmp_path: Path) -> None:
    (tmp_path / "old" / "pkg").mkdir(parents=True)
    (tmp_path / "new" / "pkg").mkdir(parents=True)
    (tmp_path / "old" / "pkg" / "__init__.py").write_text('"""P."""\ndef f():\n    """F."""\n')
    (tmp_path / "new" / "pkg" / "__init__.py").write_text('"""P."""\n')
    old, new = load_surface(tmp_path / "old"), load_surface(tmp_path / "new")
    for current, config in (("24.6.0", Config(version_scheme="calver")), ("2024.6.1", Config())):
        report = build_report(old, new, config=config, current_version=current)
        assert report.next_version is None
        assert report.version_note is not None
        assert "release date" in report.version_note and "MAJOR" in report.version_note
    semver_report = build_report(old, new, config=Config(), current_version="24.6.0")
    assert semver_report.next_version == "25.0.0"
