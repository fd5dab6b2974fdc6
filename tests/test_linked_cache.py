"""A surface linked before from the same summaries is reused, and only then.

The link reads the files' summaries and nothing else of them (tests/test_parses.py), so a
package whose summaries are all as they were (an edited comment, a test file nothing reaches)
has the surface linked from them before: it is stored under the digests of the summaries it
read (``linked`` entries of the cache). One thing in a surface reads texts: a problem records
the digest of the text it concerns, and a problem of the whole package the digest of every
text; so a linked surface is reused only when those texts are as they were too.
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from cacheentries import store

from apisurface.model import Problem
from apisurface.project.sources import SourceFile
from apisurface.store.cache import FORMAT, SurfaceCache
from apisurface.store.snapshot import dumps
from apisurface.surface.collect import surface_from_sources
from apisurface.surface.visit import modules as visit
from apisurface.surface.visit.package import Visits

_TEXTS = {
    "pkg/__init__.py": '''
        """A package."""
        from pkg.core import area, Shape

        __all__ = ["area", "Shape"]
    ''',
    "pkg/core.py": '''
        """Core."""

        class Shape:
            """A shape."""

        def area(side: float) -> float:
            """The area of a square."""
            result = side * side
            return result
    ''',
    "pkg/partial.py": '''
        """Names it cannot bind statically."""

        __all__ = ["made_at_run_time"]

        def helper() -> None:
            """Help."""
            value = 1
            return None
    ''',
    "pkg/tests/__init__.py": "",
    "pkg/tests/test_core.py": """
        def test_area():
            assert True
    """,
}


def _files(texts: dict[str, str]) -> list[SourceFile]:
    files = []
    for relpath, text in sorted(texts.items()):
        module = relpath.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        files.append(SourceFile(module, relpath, dedent(text).lstrip("\n")))
    return files


class _Links:
    """Counts the packages linked (not read back from a cache entry)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = visit.link_package

        def counting(visits: Visits, problems: list[Problem]) -> Any:
            self.count += 1
            return original(visits, problems)

        monkeypatch.setattr(visit, "link_package", counting)


def _snapshot(texts: dict[str, str], cache: SurfaceCache | None) -> str:
    return dumps(surface_from_sources("pkg", _files(texts), cache=cache, workers=0))


def _edited(relpath: str, old: str, new: str) -> dict[str, str]:
    assert old in _TEXTS[relpath]
    return {**_TEXTS, relpath: _TEXTS[relpath].replace(old, new)}


_SAME_SUMMARIES = {
    "a test file nothing reaches": _edited("pkg/tests/test_core.py", "True", "1 + 1 == 2"),
    "a comment in a function body": _edited(
        "pkg/core.py", "result = side * side", "result = side * side  # a square"
    ),
}


@pytest.mark.parametrize("edit", sorted(_SAME_SUMMARIES))
def test_an_edit_that_leaves_every_summary_as_it_was_is_not_linked_again(
    edit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = SurfaceCache(tmp_path)
    assert _snapshot(_TEXTS, cache) == _snapshot(_TEXTS, None)
    texts = _SAME_SUMMARIES[edit]
    links = _Links(monkeypatch)
    assert _snapshot(texts, cache) == _snapshot(texts, None)
    assert links.count == 1  # the cold run's; the cached one linked nothing
    assert _snapshot(texts, cache) == _snapshot(texts, None)  # from the surface by texts now
    assert links.count == 2


def test_summaries_that_differ_are_linked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = SurfaceCache(tmp_path)
    _snapshot(_TEXTS, cache)
    texts = _edited("pkg/core.py", '"""The area of a square."""', '"""The area."""')
    links = _Links(monkeypatch)
    warm = _snapshot(texts, cache)
    assert links.count == 1
    assert warm == _snapshot(texts, None)
    # A docstring's digest is in the surface (not in its snapshot, which records the contract).
    fresh = surface_from_sources("pkg", _files(texts), cache=cache, workers=0)
    before = surface_from_sources("pkg", _files(_TEXTS), cache=None, workers=0)
    digest = fresh.symbols["pkg.area"].docstring_hash
    assert digest is not None and digest != before.symbols["pkg.area"].docstring_hash


def test_a_problem_is_reused_only_with_the_text_it_concerns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pkg/partial.py's ``__all__`` lists a name it never binds: a problem of that file,
    which records the digest of its text. A comment edited there leaves every summary as
    it was, but not that digest: the surface is linked again, and records the new one."""
    cache = SurfaceCache(tmp_path)
    cold = surface_from_sources("pkg", _files(_TEXTS), cache=cache, workers=0)
    assert [problem.file for problem in cold.problems] == ["pkg/partial.py"]
    elsewhere = _edited("pkg/core.py", "result = side * side", "result = side * side  # a")
    there = _edited("pkg/partial.py", "value = 1", "value = 1  # one")
    links = _Links(monkeypatch)
    assert _snapshot(elsewhere, cache) == _snapshot(elsewhere, None)
    assert links.count == 1  # the cold run's only
    warm = _snapshot(there, cache)
    assert links.count == 2  # linked again
    assert warm == _snapshot(there, None)
    assert warm != _snapshot(_TEXTS, None)


def test_a_problem_of_the_whole_package_reads_every_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A problem no file holds records the digest of every file's text: then any edit,
    even of a test file nothing reaches, links the package again."""
    monkeypatch.setattr(visit, "MAX_STAR_PAIRS", 1)
    texts = {
        **_TEXTS,
        "pkg/a.py": '"""A."""\nfrom pkg.b import *\nX = 1\n"""X."""\n',
        "pkg/b.py": '"""B."""\nfrom pkg.a import *\nY = 1\n"""Y."""\n',
    }
    cache = SurfaceCache(tmp_path)
    cold = surface_from_sources("pkg", _files(texts), cache=cache, workers=0)
    assert any(not problem.file for problem in cold.problems)
    edited = {**texts, "pkg/tests/test_core.py": texts["pkg/tests/test_core.py"] + "\n"}
    links = _Links(monkeypatch)
    warm = _snapshot(edited, cache)
    assert links.count == 1
    assert warm == _snapshot(edited, None)
    assert warm != _snapshot(texts, None)  # the package problem's digest


def test_a_linked_entry_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged ``linked`` entry is a miss: the package is linked again, as without it."""
    cache = SurfaceCache(tmp_path)
    _snapshot(_TEXTS, cache)
    entries = sorted((tmp_path / "linked").rglob("*.json"))
    assert len(entries) == 1
    damaged = {"format": FORMAT, "kind": "linked", "key": entries[0].stem, "data": []}
    store(entries[0], json.dumps(damaged).encode())  # sealed: checked behind the HMAC too
    texts = _SAME_SUMMARIES["a test file nothing reaches"]
    links = _Links(monkeypatch)
    assert _snapshot(texts, cache) == _snapshot(texts, None)
    assert links.count == 2
