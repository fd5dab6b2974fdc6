"""Per-module visit entries: a file's entry is reused only for the same file, and a surface
built from warm entries is exactly the surface a run without any cache builds, whatever
changed in the other files (the link is always redone over every module)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from textwrap import dedent

import pytest

from apisurface.project.sources import SourceFile
from apisurface.store.cache import SurfaceCache
from apisurface.store.modules import ModuleEntries, load_product, module_key
from apisurface.store.snapshot import dumps
from apisurface.surface import conditions, link, visit
from apisurface.surface.collect import surface_from_sources

_BASE = {
    "pkg/__init__.py": '''
        """A package."""
        from pkg.shapes import *
        from pkg import tools
        from pkg.tools import helper as helper

        __all__ = ["Circle", "Square", "tools", "helper"]
    ''',
    "pkg/base.py": '''
        """Bases."""

        class Shape:
            """A shape."""

            def draw(self, colour: str = "red") -> None:
                """Draw it."""

            def area(self) -> float:
                """The area."""
                return 0.0
    ''',
    "pkg/shapes.py": '''
        """Shapes."""
        from pkg.base import Shape

        __all__ = ["Circle", "Square"]

        class Circle(Shape):
            """A circle."""

        class Square(Shape):
            """A square."""

            def side(self) -> float:
                """Its side."""
                return 1.0
    ''',
    "pkg/tools.py": '''
        """Tools."""

        def helper(x: int) -> int:
            """Help."""
            return x
    ''',
}


def _files(texts: dict[str, str]) -> list[SourceFile]:
    files = []
    for relpath, text in sorted(texts.items()):
        module = relpath.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        files.append(SourceFile(module, relpath, dedent(text).lstrip("\n")))
    return files


class _Visits:
    """Counts the files visited (not read back from an entry)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.modules: list[str] = []
        original = visit._visit_alone

        def counting(module: str, relpath: str, text: str) -> visit.Product:
            self.modules.append(module)
            return original(module, relpath, text)

        monkeypatch.setattr(visit, "_visit_alone", counting)


def _snapshot(texts: dict[str, str], cache: SurfaceCache | None) -> str:
    return dumps(surface_from_sources("pkg", _files(texts), cache=cache, workers=0))


_EDITS = {
    "a base class in another file": {
        "pkg/base.py": _BASE["pkg/base.py"].replace("colour: str", "color: str"),
    },
    "a re-exported module": {
        "pkg/tools.py": _BASE["pkg/tools.py"].replace("x: int", "x: int, y: int = 0"),
    },
    "__all__ in another file": {
        "pkg/shapes.py": _BASE["pkg/shapes.py"].replace('"Circle", "Square"', '"Circle"'),
    },
    "a name bound only for type checkers": {
        "pkg/base.py": _BASE["pkg/base.py"]
        + """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            def checked(x: int) -> int:
                \"\"\"Seen by type checkers only.\"\"\"

        def shown() -> None:
            \"\"\"At run time.\"\"\"
    """,
    },
    "a new file": {
        "pkg/extra.py": '"""Extra."""\nfrom pkg.base import Shape\nclass Oval(Shape): pass\n',
        "pkg/__init__.py": _BASE["pkg/__init__.py"].replace(
            "import *", "import *\n        from pkg.extra import Oval"
        ),
    },
}


@pytest.mark.parametrize("edit", sorted(_EDITS))
def test_warm_entries_give_what_a_cold_run_gives(
    edit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = SurfaceCache(tmp_path)
    assert _snapshot(_BASE, cache) == _snapshot(_BASE, None)
    edited = {**_BASE, **_EDITS[edit]}
    visits = _Visits(monkeypatch)
    warm = _snapshot(edited, cache)
    # Only the edited or new files were visited again.
    assert sorted(visits.modules) == sorted(f.module for f in _files(_EDITS[edit]))
    assert warm == _snapshot(edited, None)
    assert warm != _snapshot(_BASE, None)  # the edit shows in the surface


def test_names_bound_for_type_checkers_come_with_the_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The link reads which names exist only under ``if TYPE_CHECKING:`` from the visit's
    product (a whole-file parse, cached with it), not by parsing the file again."""
    texts = {**_BASE, **_EDITS["a name bound only for type checkers"]}
    cache = SurfaceCache(tmp_path)
    cold = _snapshot(texts, None)
    assert '"pkg.base.shown"' in cold
    assert "pkg.base.checked" not in cold
    assert _snapshot(texts, cache) == cold
    parsed: list[str] = []
    original = conditions.type_checking_names

    def counting(text: str) -> frozenset[str]:
        parsed.append(text)
        return original(text)

    monkeypatch.setattr(link, "type_checking_names", counting)
    edited = {**texts, **_EDITS["__all__ in another file"]}
    assert _snapshot(edited, cache) == _snapshot(edited, None)
    assert not any("TYPE_CHECKING" in text for text in parsed)


def test_a_deleted_file(tmp_path: Path) -> None:
    cache = SurfaceCache(tmp_path)
    _snapshot(_BASE, cache)
    fewer = {name: text for name, text in _BASE.items() if name != "pkg/tools.py"}
    fewer["pkg/__init__.py"] = (
        _BASE["pkg/__init__.py"]
        .replace("from pkg import tools\n        from pkg.tools import helper as helper\n", "")
        .replace(', "tools", "helper"', "")
    )
    assert _snapshot(fewer, cache) == _snapshot(fewer, None)
    assert "pkg.tools" not in _snapshot(fewer, cache)


def test_an_entry_is_keyed_by_module_name_and_path(tmp_path: Path) -> None:
    """The same text at another path is another module (its relative imports differ)."""
    text = '"""M."""\nfrom . import sibling\n'
    keys = {
        module_key("pkg.a", "pkg/a.py", text),
        module_key("pkg.sub.a", "pkg/sub/a.py", text),
        module_key("pkg.a", "pkg/a/__init__.py", text),
        module_key("pkg.a", "pkg/a.py", text + "\n"),
    }
    assert len(keys) == 4


def test_bad_entries_are_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = SurfaceCache(tmp_path)
    _snapshot(_BASE, cache)
    entries = sorted((tmp_path / "module").rglob("*.pickle"))
    assert len(entries) == len(_BASE)
    hostile = pickle.dumps(os.getcwd)  # names a callable: never loaded
    with pytest.raises(pickle.UnpicklingError):
        load_product(hostile)
    for number, path in enumerate(entries):
        data = path.read_bytes()
        head = data[: data.index(b"\n", data.index(b"\n") + 1) + 1]
        path.write_bytes(
            [head + hostile, head + b"junk", data[: len(data) // 2], b"foreign"][number % 4]
        )
    edited = {**_BASE, "pkg/tools.py": _BASE["pkg/tools.py"] + "\n"}
    visits = _Visits(monkeypatch)
    warm = _snapshot(edited, cache)
    assert len(visits.modules) == len(_BASE)  # every entry was refused, then rebuilt
    assert warm == _snapshot(edited, None)
    replaced = {f.relpath: f for f in _files(_BASE)}["pkg/tools.py"]
    for path in entries:
        key = path.stem
        if key == module_key(replaced.module, replaced.relpath, replaced.text):
            continue  # the text before the edit: not needed again, left as it was
        stored = ModuleEntries(tmp_path).get(key)
        assert stored is not None
        assert load_product(stored)[0] is not None


def test_a_file_griffe_cannot_read_is_cached_as_a_problem(tmp_path: Path) -> None:
    broken = {**_BASE, "pkg/tools.py": '"""Tools."""\ndef helper(:\n'}
    cache = SurfaceCache(tmp_path)
    cold = surface_from_sources("pkg", _files(broken), workers=0)
    assert any("pkg/tools.py:2: syntax error" in str(problem) for problem in cold.problems)
    surface_from_sources("pkg", _files(broken), cache=cache, workers=0)
    again = {**broken, "pkg/base.py": _BASE["pkg/base.py"] + "\n"}
    assert _snapshot(again, cache) == _snapshot(again, None)


def test_workers_and_entries_give_the_serial_surface(tmp_path: Path) -> None:
    files = _files(_BASE)
    serial = dumps(surface_from_sources("pkg", files, workers=0))
    cache = SurfaceCache(tmp_path)
    assert dumps(surface_from_sources("pkg", files, workers=2, cache=cache)) == serial
    edited = {**_BASE, "pkg/base.py": _BASE["pkg/base.py"].replace("-> float", "-> int")}
    assert dumps(surface_from_sources("pkg", _files(edited), workers=2, cache=cache)) == (
        _snapshot(edited, None)
    )


def test_an_entry_whose_tree_is_not_a_visit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only griffe's classes can be built from an entry, but their shape is checked too: a
    cycle of parents or a resolved alias (which a visit never leaves) is a miss."""
    cache = SurfaceCache(tmp_path)
    _snapshot(_BASE, cache)
    entries = ModuleEntries(tmp_path)
    shapes = {f.relpath: f for f in _files(_BASE)}["pkg/shapes.py"]
    key = module_key(shapes.module, shapes.relpath, shapes.text)
    stored = entries.get(key)
    assert stored is not None
    module, problems, given_up = load_product(stored)
    circle, square = module.members["Circle"], module.members["Square"]
    square.members["side"].parent = circle  # held by one, parented by another
    entries.put(key, pickle.dumps((module, problems, given_up)))
    visits = _Visits(monkeypatch)
    edited = {**_BASE, "pkg/tools.py": _BASE["pkg/tools.py"] + "\n"}
    warm = _snapshot(edited, cache)
    assert sorted(visits.modules) == ["pkg.shapes", "pkg.tools"]
    assert warm == _snapshot(edited, None)
    module, problems, given_up = load_product(stored)
    module.members["Shape"].parent = None
    alias = module.members["Shape"]
    assert alias.is_alias
    alias._target = module  # as if resolved
    entries.put(key, pickle.dumps((module, problems, given_up)))
    visits.modules.clear()
    edited = {**_BASE, "pkg/tools.py": _BASE["pkg/tools.py"] + "\n\n"}
    warm = _snapshot(edited, cache)
    assert sorted(visits.modules) == ["pkg.shapes", "pkg.tools"]
    assert warm == _snapshot(edited, None)
