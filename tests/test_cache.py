"""The surface cache: a hit gives exactly what a fresh run gives; a bad entry is rebuilt."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest
from cacheentries import payload, store
from gitrepo import Repo, pyproject

from apisurface import SurfaceCache, load_input, load_surface
from apisurface.model import Surface
from apisurface.store.cache import CACHE_ENV, default_cache_dir
from apisurface.store.snapshot import dumps

_PACKAGE = {
    "pkg/__init__.py": '''
        """A package."""
        from pkg.shapes import Circle, Shape

        __all__ = ["Circle", "Shape", "area"]

        def area(shape: Shape, *, scale: float = 1.0) -> float:
            """The area."""
            return 0.0
    ''',
    "pkg/shapes.py": '''
        """Shapes."""
        import warnings

        class Shape:
            """A shape."""

            def __init__(self, name: str) -> None:
                self.name: str = name

            def draw(self, colour: str = "red") -> None:
                """Draw it."""

        class Circle(Shape):
            """A circle."""

            def old(self) -> None:
                """Old."""
                warnings.warn("use draw", DeprecationWarning)
    ''',
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def _full(surface: Surface) -> list[object]:
    """Everything about a surface, including what snapshots leave out."""
    return [dumps(surface)] + [
        (symbol.path, symbol.target, symbol.location) for symbol in surface.symbols.values()
    ]


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted((folder / kind).rglob("*.json"))


def test_a_hit_equals_a_fresh_run(tmp_path: Path) -> None:
    source = _write(tmp_path / "src", _PACKAGE)
    cache = SurfaceCache(tmp_path / "cache")
    fresh = load_surface(source)
    first = load_surface(source, cache=cache)
    assert _entries(cache.folder, "surface")
    assert _entries(cache.folder, "module")  # the visits, deprecation markers included
    second = load_surface(source, cache=cache)
    assert _full(fresh) == _full(first) == _full(second)
    assert second.symbols["pkg.Circle.old"].deprecated == "use draw"


def test_an_edit_misses(tmp_path: Path) -> None:
    source = _write(tmp_path / "src", _PACKAGE)
    cache = SurfaceCache(tmp_path / "cache")
    load_surface(source, cache=cache)
    (source / "pkg" / "__init__.py").write_text(
        '"""A package."""\n__all__ = ["area"]\ndef area(x: int) -> int:\n    """A."""\n',
        encoding="utf-8",
    )
    edited = load_surface(source, cache=cache)
    assert _full(edited) == _full(load_surface(source))
    assert len(_entries(cache.folder, "surface")) == 2


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"\xff\xfe not json",
        b"[1, 2, 3]",
        b'{"format": 1, "kind": "surface", "key": "someone else", "data": {}}',
        b'{"format": 999, "kind": "surface", "key": "KEY", "data": {}}',
        b'{"format": 1, "kind": "surface", "key": "KEY", "data": {"symbols": 5}}',
        b'{"format": 1, "kind": "surface", "key": "KEY", "data": {"package": "pkg",'
        b' "version": null, "problems": [], "excluded": [], "signatures": [],'
        b' "symbols": [["pkg", 0, "pkg", 7, [], 0, [], null, null, null, 0, null]]}}',
        b'{"format": 1, "kind": "markers", "key": "KEY", "data": {"Circle.draw": 3}}',
    ],
)
def test_corrupt_or_foreign_entries_are_rebuilt(tmp_path: Path, garbage: bytes) -> None:
    source = _write(tmp_path / "src", _PACKAGE)
    cache = SurfaceCache(tmp_path / "cache")
    expected = _full(load_surface(source))
    load_surface(source, cache=cache)
    for entry in _entries(cache.folder, "surface") + _entries(cache.folder, "markers"):
        # Sealed, as a run holding the key would have written it: what is behind the HMAC
        # is checked all the same.
        store(entry, garbage.replace(b"KEY", entry.stem.encode()))
    assert _full(load_surface(source, cache=cache)) == expected
    # ... and the entries were written again, so the next run hits.
    assert _full(load_surface(source, cache=cache)) == expected
    for entry in _entries(cache.folder, "surface"):
        assert json.loads(payload(entry))["key"] == entry.stem


def test_an_unwritable_cache_is_not_fatal(tmp_path: Path) -> None:
    source = _write(tmp_path / "src", _PACKAGE)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    surface = load_surface(source, cache=SurfaceCache(blocker / "cache"))
    assert _full(surface) == _full(load_surface(source))


def test_the_policy_is_part_of_the_key(tmp_path: Path) -> None:
    source = _write(tmp_path / "src", _PACKAGE)
    cache = SurfaceCache(tmp_path / "cache")
    load_surface(source, cache=cache)
    (source / "pyproject.toml").write_text(
        '[project]\nname = "pkg"\n[tool.apisurface]\nrequire_docstrings = false\n',
        encoding="utf-8",
    )
    relaxed = load_surface(source, cache=cache)
    assert "pkg.shapes.Shape.name" in relaxed.symbols
    assert _full(relaxed) == _full(load_surface(source))


def test_git_refs_are_cached_by_blob_ids(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write({"pyproject.toml": pyproject("1.0.0"), **_PACKAGE}).commit(tag="v1.0.0")
    # The package moves into src/ (same content): found at both refs.
    (repo.root / "src").mkdir()
    (repo.root / "pkg").rename(repo.root / "src" / "pkg")
    repo.commit("move into src", tag="v1.0.1")
    cache = SurfaceCache(tmp_path / "cache")
    for ref in ("v1.0.0", "v1.0.1"):
        fresh = load_input(ref, cwd=repo.root)
        first = load_input(ref, cwd=repo.root, cache=cache)
        second = load_input(ref, cwd=repo.root, cache=cache)
        assert _full(fresh.surface) == _full(first.surface) == _full(second.surface)
        assert fresh.config == second.config
    assert load_input("v1.0.1", cwd=repo.root, cache=cache).surface.version == "1.0.0"


def test_default_folder_honours_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "elsewhere"))
    assert default_cache_dir() == tmp_path / "elsewhere"
    assert SurfaceCache().folder == tmp_path / "elsewhere"


def _cli(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apisurface", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **env},
    )


def test_cli_cache_options(tmp_path: Path) -> None:
    source = _write(tmp_path / "src", _PACKAGE)
    env_cache = tmp_path / "env-cache"
    env = {CACHE_ENV: str(env_cache)}
    plain = _cli("snapshot", ".", "-o", "-", "--no-cache", cwd=source, env=env)
    assert plain.returncode == 0, plain.stderr
    assert not env_cache.exists()
    for _ in range(2):
        cached = _cli("snapshot", ".", "-o", "-", cwd=source, env=env)
        assert cached.stdout == plain.stdout
    assert _entries(env_cache, "surface")
    chosen = tmp_path / "chosen"
    other = _cli("snapshot", ".", "-o", "-", "--cache-dir", str(chosen), cwd=source, env=env)
    assert other.stdout == plain.stdout
    assert _entries(chosen, "surface")
    diff = _cli("diff", ".", ".", "--format", "json", cwd=source, env=env)
    assert json.loads(diff.stdout)["bump"] is not None
    assert diff.stderr == ""
