"""Which test-code files the visit reads (surface/visit/reach.py): only those a file read may
reach, by its imports or by a dotted name it spells; the surface is the same as when every
file is read (POLICY.md 2.4: the walk never enters test code)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from apisurface.project.config import Config
from apisurface.project.sources import SourceFile
from apisurface.surface.collect import surface_from_sources
from apisurface.surface.policy import never_walked
from apisurface.surface.visit import facts as facts_module
from apisurface.surface.visit.reach import absolute_name, reached

WAITING = (
    "pkg/tests/__init__.py",
    "pkg/tests/base.py",
    "pkg/tests/deep/__init__.py",
    "pkg/tests/deep/util.py",
    "pkg/core/tests/__init__.py",
    "pkg/core/tests/test_add.py",
    "pkg/polys/tests/test_ring.py",
    "pkg/test_misc.py",
)


def _source(relpath: str, text: str = "") -> SourceFile:
    parts = Path(relpath).with_suffix("").parts
    module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return SourceFile(module, relpath, text)


def _reached_by(relpath: str, text: str) -> list[str]:
    item = _source(relpath, text)
    summary = facts_module.read_facts(relpath, text, ast.parse(text))
    waiting = {}
    for path in WAITING:
        source = _source(path)
        component = never_walked(source.module, Config())
        assert component is not None, path
        waiting[path] = (source, component)
    return sorted(found.relpath for found in reached([item], {relpath: summary}, waiting))


@pytest.mark.parametrize(
    ("relpath", "text", "expected"),
    [
        # The package itself, and a module of it, are no reason to read its tests.
        ("pkg/api.py", "import pkg\nfrom pkg import core\nimport pkg.core\n", []),
        ("pkg/api.py", '"""See the tests: pkg/tests, test_misc."""\n', []),
        # An import of something in a test module reads it and the packages above it
        # (spelled out, ``pkg.tests`` reads all below it, as a dotted name would).
        ("pkg/__init__.py", "from .tests.base import Base\n", WAITING[:2]),
        ("pkg/api.py", "from pkg.tests.base import Base\n", WAITING[:4]),
        ("pkg/core/__init__.py", "from .tests import test_add\n", WAITING[4:6]),
        ("pkg/core/api.py", "from ..test_misc import x\n", ["pkg/test_misc.py"]),
        # An outside module imported: anything below it may be named through it.
        ("pkg/api.py", "from pkg import tests as t\n", WAITING[:4]),
        ("pkg/tests/other.py", "from . import deep\n", [WAITING[0], *WAITING[2:4]]),
        # A dotted name through the outside component: every module below it.
        ("pkg/api.py", "import pkg\nBase = pkg.tests.base.Base\n", WAITING[:4]),
        ("pkg/api.py", "from pkg import core\nX = core.tests.X\n", WAITING[4:6]),
        # Imports inside a function bind nothing griffe follows.
        ("pkg/__init__.py", "def f():\n    from .tests import base\n", []),
    ],
)
def test_what_a_file_reaches(relpath: str, text: str, expected: list[str]) -> None:
    assert _reached_by(relpath, text) == sorted(expected)


def test_absolute_names_of_relative_imports() -> None:
    assert absolute_name(".tests.x", "pkg.core", package_file=True) == "pkg.core.tests.x"
    assert absolute_name(".tests.x", "pkg.core.api", package_file=False) == "pkg.core.tests.x"
    assert absolute_name("..tests", "pkg.core.api", package_file=False) == "pkg.tests"
    assert absolute_name("pkg.tests", "pkg.core", package_file=True) == "pkg.tests"


def test_include_patterns_read_every_file() -> None:
    """``include`` may take test code back into the surface: then nothing waits."""
    assert never_walked("pkg.tests.base", Config()) == "tests"
    assert never_walked("pkg.tools", Config()) == "tools"
    assert never_walked("pkg.testing", Config()) is None
    assert never_walked("tests", Config()) is None  # the package itself is walked
    included = dataclasses.replace(Config(), include=("pkg.tests.*",))
    assert never_walked("pkg.tests.base", included) is None


def test_the_surface_is_the_same_as_with_every_file_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skipping unreached test code changes no public path, kind or signature: the surface
    of a package whose public code reaches into its tests both ways equals the surface with
    nothing waiting (the stand-ins of unread files aside, which the walk never enters)."""
    files = [
        _source(
            "pkg/__init__.py", '"""Pkg."""\nfrom .tests.base import Base\n__all__ = ["Base"]\n'
        ),
        _source(
            "pkg/api.py",
            '"""Api."""\nimport pkg\n\n\nclass Sub(pkg.tests.deep.util.U):\n    """Sub."""\n',
        ),
        _source("pkg/tests/__init__.py"),
        _source(
            "pkg/tests/base.py",
            'class Base:\n    """Base."""\n\n    def run(self):\n        """Run."""\n',
        ),
        _source("pkg/tests/deep/__init__.py"),
        _source(
            "pkg/tests/deep/util.py",
            'class U:\n    """U."""\n\n    def go(self):\n        """Go."""\n',
        ),
        _source("pkg/core/__init__.py", '"""Core."""\n'),
        _source("pkg/core/tests/test_add.py", "def test_add(:\n"),
    ]
    skipping = surface_from_sources("pkg", files, workers=0)
    from apisurface.surface.visit import package  # noqa: PLC0415

    original = package._reached_products

    def every_file(files, outside, **kwargs):  # type: ignore[no-untyped-def]
        return original(files, None, **kwargs)

    monkeypatch.setattr(package, "_reached_products", every_file)
    reading_all = surface_from_sources("pkg", files, workers=0)
    assert skipping.symbols == reading_all.symbols
    assert "pkg.api.Sub.go" in skipping.symbols and "pkg.Base.run" in skipping.symbols
    assert [problem.file for problem in reading_all.problems] == ["pkg/core/tests/test_add.py"]
    assert not skipping.problems
