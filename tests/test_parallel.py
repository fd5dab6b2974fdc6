"""Parsing in worker processes gives exactly what a serial run gives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apisurface.store.cache import SurfaceCache
from apisurface.store.snapshot import dumps
from apisurface.surface.collect import SourceFile, surface_from_sources
from apisurface.surface.visit.markers import worker_count


def _generated(modules: int) -> list[SourceFile]:
    files = [SourceFile("gen", "gen/__init__.py", '"""Generated."""\n')]
    for index in range(modules):
        lines = ['"""Module."""', "import warnings", ""]
        for number in range(5):
            lines += [
                f"class C{number}:",
                '    """A class."""',
                "",
                f"    def method(self, value: int = {number}) -> int:",
                '        """A method."""',
                f"        warnings.warn('gone in {index}.{number}', DeprecationWarning)",
                "        return value",
                "",
                f"def f{number}(x, *args, y: str = 'a', **kwargs) -> None:",
                '    """A function."""',
                "    if x:",
                f"        warnings.warn('f{number}', FutureWarning)",
                "",
            ]
        files.append(SourceFile(f"gen.m{index:03}", f"gen/m{index:03}.py", "\n".join(lines)))
    return files


def test_parallel_equals_serial() -> None:
    files = _generated(24)
    serial = dumps(surface_from_sources("gen", files, workers=0))
    parallel = dumps(surface_from_sources("gen", files, workers=2))
    assert parallel == serial
    assert '"deprecated": "gone in 23.4"' in serial


def test_parallel_with_a_cache_equals_serial(tmp_path: Path) -> None:
    files = _generated(12)
    serial = dumps(surface_from_sources("gen", files, workers=0))
    cache = SurfaceCache(tmp_path)
    assert dumps(surface_from_sources("gen", files, workers=2, cache=cache)) == serial
    # Markers are cached per file: a new surface (one file edited) reuses the others.
    edited = [*files[:-1], SourceFile(files[-1].module, files[-1].relpath, files[-1].text + "\n")]
    assert dumps(surface_from_sources("gen", edited, workers=2, cache=cache)) == dumps(
        surface_from_sources("gen", edited, workers=0)
    )


def test_worker_count(monkeypatch: pytest.MonkeyPatch) -> None:
    assert worker_count(10, 3) == 3
    assert worker_count(10) == 0  # too little text to be worth a process
    assert worker_count(10**9) >= 0
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.3, 0.3, 0.3))
    assert worker_count(10**9) == 1
    assert worker_count(6_000_000) == 0  # django: a worker did not pay
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 2.0, 2.0))
    assert worker_count(10**9) == 0  # the spare core is busy with other work
    assert worker_count(10**9, 1) == 1  # asked for: always
