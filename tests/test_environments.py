"""Environments of a release (apisurface.verify.environments): made with uv from wheels
made in the test (offline: --no-index --find-links), cached by key, never reused half-built;
a release that cannot be installed or built is a value with one line, never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fixture_wheels import make_source_tree, make_wheel

from apisurface.verify import environments
from apisurface.verify.environments import (
    Environment,
    IndexSettings,
    Release,
    Unavailable,
    prepare,
    release_of,
)
from apisurface.verify.sandbox import run_python


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wheels")
    make_wheel(folder, "dep-pkg", "1.0", {"dep_pkg/__init__.py": "VALUE = 41\n"})
    make_wheel(
        folder,
        "main-pkg",
        "0.1",
        {"main_pkg/__init__.py": '"""Main."""\nfrom dep_pkg import VALUE\nANSWER = VALUE + 1\n'},
        requires=["dep-pkg>=1"],
    )
    make_wheel(folder, "needs-missing", "1.0", {"nm/__init__.py": ""}, requires=["not-there>=1"])
    return folder


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def _offline(wheels: Path) -> IndexSettings:
    return IndexSettings(find_links=(wheels,), no_index=True)


def _answer(environment: Environment | Unavailable) -> str:
    assert isinstance(environment, Environment), environment
    run = run_python(environment.python, "import main_pkg\nprint(main_pkg.ANSWER)")
    assert run.ok, run.stderr
    return run.stdout.strip()


def test_a_release_is_installed_with_its_dependencies_and_reused(wheels: Path, cache: Path) -> None:
    release = Release.from_index("main-pkg", "0.1")
    first = prepare(release, cache_dir=cache, settings=_offline(wheels))
    assert _answer(first) == "42"
    assert isinstance(first, Environment)
    assert (first.distribution, first.version, first.reused) == ("main-pkg", "0.1", False)
    assert first.origin == "wheel from the index"
    again = prepare(release, cache_dir=cache, settings=_offline(wheels))
    assert isinstance(again, Environment)
    assert again.reused and again.root == first.root
    assert not list((cache / "environments").glob(".building-*"))


def test_a_wheel_file_is_installed_with_its_dependencies(wheels: Path, cache: Path) -> None:
    wheel = wheels / "main_pkg-0.1-py3-none-any.whl"
    environment = prepare(Release.wheel(wheel), cache_dir=cache, settings=_offline(wheels))
    assert _answer(environment) == "42"
    assert isinstance(environment, Environment) and environment.origin == "wheel file"


def test_a_half_built_or_foreign_environment_is_never_reused(wheels: Path, tmp_path: Path) -> None:
    release = Release.from_index("main-pkg", "0.1")
    made = prepare(release, cache_dir=tmp_path, settings=_offline(wheels))
    assert isinstance(made, Environment)
    marker = made.root / "apisurface-environment.json"
    # A marker of another key, then none at all: both are made again, never trusted.
    marker.write_text(json.dumps({"key": "other"}), encoding="utf-8")
    again = prepare(release, cache_dir=tmp_path, settings=_offline(wheels))
    assert isinstance(again, Environment) and not again.reused
    shutil.rmtree(again.root / "lib")
    (again.root / "apisurface-environment.json").unlink()
    third = prepare(release, cache_dir=tmp_path, settings=_offline(wheels))
    assert _answer(third) == "42"


def test_a_missing_dependency_is_one_line(wheels: Path, cache: Path) -> None:
    result = prepare(
        Release.from_index("needs-missing", "1.0"), cache_dir=cache, settings=_offline(wheels)
    )
    assert isinstance(result, Unavailable)
    assert result.reason.startswith("cannot install: ")
    assert "not-there" in result.reason and "\n" not in result.reason
    assert str(result).startswith("needs-missing==1.0: ")


def test_a_release_that_does_not_exist_is_one_line(wheels: Path, cache: Path) -> None:
    result = prepare(
        Release.from_index("main-pkg", "9.9"), cache_dir=cache, settings=_offline(wheels)
    )
    assert isinstance(result, Unavailable)
    assert "main-pkg" in result.reason and "\n" not in result.reason


def test_without_uv_verification_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, cache: Path
) -> None:
    monkeypatch.setattr(environments, "find_uv", lambda: None)
    result = prepare(Release.from_index("main-pkg", "0.1"), cache_dir=cache)
    assert isinstance(result, Unavailable)
    assert result.reason == environments.NO_UV
    assert "verify' extra" in result.reason


_BUILD_PROBE = """\
import os, socket
report = []
try:
    socket.create_connection(("127.0.0.1", int(os.environ.get("PORT", "9")) or 9), timeout=2)
    report.append("network")
except OSError:
    report.append("no network")
try:
    open(os.path.expanduser("~/../../escaped-by-build"), "w").write("x")
    report.append("wrote outside")
except OSError:
    report.append("no write outside")
with open("built_pkg/facts.py", "w") as stream:
    stream.write(f"FACTS = {report!r}\\n")
"""


def test_a_folder_is_built_in_the_sandbox(wheels: Path, cache: Path, tmp_path: Path) -> None:
    source = make_source_tree(
        tmp_path / "project",
        "built-pkg",
        "2.0",
        {"built_pkg/__init__.py": '"""Built."""\n'},
        build_code=_BUILD_PROBE,
    )
    environment = prepare(Release.source(source), cache_dir=cache, settings=_offline(wheels))
    assert isinstance(environment, Environment), environment
    assert (environment.distribution, environment.version) == ("built-pkg", "2.0")
    assert "build backend ran" in environment.origin
    run = run_python(environment.python, "from built_pkg.facts import FACTS\nprint(FACTS)")
    assert run.ok, run.stderr
    facts = run.stdout.strip()
    assert "'no write outside'" in facts and "'no network'" in facts
    assert not (source / "built_pkg" / "facts.py").exists()  # built in a copy


def test_a_failing_build_is_one_line(wheels: Path, cache: Path, tmp_path: Path) -> None:
    source = make_source_tree(
        tmp_path / "broken",
        "broken-pkg",
        "1.0",
        {"broken_pkg/__init__.py": ""},
        build_code="raise RuntimeError('this project does not build')",
    )
    result = prepare(Release.source(source), cache_dir=cache, settings=_offline(wheels))
    assert isinstance(result, Unavailable)
    assert result.reason.startswith("the build failed (its build backend ran): ")
    assert "\n" not in result.reason
    assert "this project does not build" in result.details


def test_release_of_names_what_cannot_be_installed(tmp_path: Path) -> None:
    snapshot = tmp_path / "pkg.json"
    snapshot.write_text("{}", encoding="utf-8")
    assert release_of(str(snapshot)) == Unavailable(
        str(snapshot), "a snapshot holds no code to import"
    )
    assert release_of("webargs==8.0.1") == Release.from_index("webargs", "8.0.1")
    assert release_of(str(tmp_path)) == Release.source(tmp_path)
    ref = release_of("v1.2")
    assert isinstance(ref, Unavailable) and "git ref" in ref.reason


@pytest.mark.network
def test_a_release_of_the_index_gets_the_dependencies_of_its_date(tmp_path: Path) -> None:
    environment = prepare(Release.from_index("webargs", "8.0.1"), cache_dir=tmp_path)
    assert isinstance(environment, Environment), environment
    assert environment.origin == "wheel from the index, dependencies as of 2021-08-12"
    run = run_python(environment.python, "import marshmallow\nprint(marshmallow.__version__)")
    assert run.ok and run.stdout.startswith("3."), run.stderr
