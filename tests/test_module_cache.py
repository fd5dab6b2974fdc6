"""Per-module visit entries: a file's entry is reused only for the same file, and a surface
built from warm entries is exactly the surface a run without any cache builds, whatever
changed in the other files (the link is redone over every module, unless a surface was
linked before from the same summaries: tests/test_linked_cache.py)."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import pickle
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from cacheentries import payload, store

from apisurface.model import Problem
from apisurface.project.sources import SourceFile
from apisurface.store.cache import SurfaceCache
from apisurface.store.modules import ModuleEntries, entry_limit, module_key
from apisurface.store.snapshot import dumps
from apisurface.surface.collect import surface_from_sources
from apisurface.surface.visit import conditions, facts, package, summary
from apisurface.surface.visit import modules as visit

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
        original = package.visit_alone

        def counting(module: str, relpath: str, text: str) -> summary.Product:
            self.modules.append(module)
            return original(module, relpath, text)

        monkeypatch.setattr(package, "visit_alone", counting)


class _Links:
    """Counts the packages linked (not read back from a surface entry)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = visit.link_package

        def counting(visits: package.Visits, problems: list[Problem]) -> Any:
            self.count += 1
            return original(visits, problems)

        monkeypatch.setattr(visit, "link_package", counting)


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
    product (its summary, cached with it): a warm run does not read the file again."""
    texts = {**_BASE, **_EDITS["a name bound only for type checkers"]}
    cache = SurfaceCache(tmp_path)
    cold = _snapshot(texts, None)
    assert '"pkg.base.shown"' in cold
    assert "pkg.base.checked" not in cold
    assert _snapshot(texts, cache) == cold
    edited = {**texts, **_EDITS["__all__ in another file"]}
    expected = _snapshot(edited, None)
    parsed: list[str] = []
    original = conditions.type_checking_names

    def counting(text: str, *, tree: ast.Module | None = None) -> frozenset[str]:
        parsed.append(text)
        return original(text, tree=tree)

    monkeypatch.setattr(facts, "type_checking_names", counting)
    assert _snapshot(edited, cache) == expected
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


class _RunsCode:
    """Pickled, it runs a shell command when unpickled: what a crafted entry would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def _entries(folder: Path, kind: str = "module") -> list[Path]:
    return sorted((folder / kind).rglob("*.json"))


def _entry(data: bytes) -> dict[str, Any]:
    """A product's two lines (summary, tree) as one JSON object, the tree under "module"."""
    head, tree = data.split(b"\n")
    return {**json.loads(head), "module": json.loads(tree)}


def _bytes(entry: dict[str, Any]) -> bytes:
    """:func:`_entry` the other way: the summary's keys on the first line, the tree on the
    second (what :func:`apisurface.surface.visit.summary.encode_product` writes)."""
    head = {key: value for key, value in entry.items() if key != "module"}
    return json.dumps(head).encode() + b"\n" + json.dumps(entry.get("module")).encode()


def _hostile_entries(marker: Path) -> dict[str, Callable[[bytes, Path], None]]:
    """Ways to replace an entry (its stored bytes, its path) with what a pull request could
    have left in a restored cache. Most are sealed (tests/cacheentries.py), as if a run
    holding the cache key had written them, so the reader's own checks behind the HMAC are
    what is tested; "unsealed" and "truncated" ones fail the HMAC."""
    code = pickle.dumps(_RunsCode(marker), protocol=pickle.HIGHEST_PROTOCOL)
    deep = b"[" * 100_000 + b"]" * 100_000
    nested = b'{"format":1,"module":' + b'["L",' * 5_000 + b"1" + b"]" * 5_000 + b',"x":1}'

    def write(data: bytes) -> Callable[[bytes, Path], None]:
        return lambda stored, path: store(path, data)

    def junk_tree(stored: bytes, path: Path) -> None:
        # A summary that reads as one, and a tree that is not: the summary was used (which
        # files are read, which linked surface is known) before the tree is read.
        if _kind(path) != "module":
            store(path, b"junk")
            return
        product = payload(path)
        store(path, product[: product.index(b"\n") + 1] + b'["O","Module",{"name":"x"}]')

    def references(stored: bytes, path: Path) -> None:
        # Every member is the module itself: a shared node, which JSON cannot spell except
        # through a reference, and references are refused where a value is held.
        if _kind(path) != "module":
            store(path, b"junk")  # a surface entry: no tree
            return
        entry = _entry(payload(path))
        if entry["module"] is not None:
            members = entry["module"][2].get("members", ["D", {}])[1]
            entry["module"][2]["members"] = ["D", {name: ["R", 0] for name in members or {"x": 0}}]
        store(path, _bytes(entry))

    def oversized(stored: bytes, path: Path) -> None:
        store(path, payload(path))
        with path.open("r+b") as handle:
            handle.truncate(1 << 31)  # 2 GiB, sparse: refused by its size, never read

    return {
        "a pickle that runs code": write(code),
        "a pickle, unsealed": lambda stored, path: path.write_bytes(code),
        "brackets nested 100k deep": write(deep),
        "values nested 5k deep": write(nested),
        "members that are references": references,
        "an entry of 2 GiB": oversized,
        "junk": write(b"junk"),
        "a summary with a tree that is not one": junk_tree,
        "truncated": lambda stored, path: path.write_bytes(stored[: len(stored) // 2]),
    }


def _kind(path: Path) -> str:
    return path.parent.parent.name


def _summary_reads(folder: Path, path: Path) -> bool:
    """Whether a (damaged) module entry's first line still reads as a summary, read as the
    visit reads it (refused unread when larger than any file of the package allows)."""
    limit = max(entry_limit(text) for text in _BASE.values())
    data = ModuleEntries(folder).get(path.stem, limit)
    if data is None:
        return False
    with contextlib.suppress(summary.Unfit):
        summary.read_summary(data)
        return True
    return False


@pytest.mark.parametrize("hostile", sorted(_hostile_entries(Path("marker"))))
def test_every_entry_replaced_by_a_hostile_one(
    hostile: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restored cache is untrusted: whatever its entries hold, nothing runs, nothing
    hangs, and the surface is the one a run without the cache gives (each file visited)."""
    folder = tmp_path / "cache"
    cache = SurfaceCache(folder)
    _snapshot(_BASE, cache)
    entries = _entries(folder)
    assert len(entries) == len(_BASE)
    entries += _entries(folder, "surface") + _entries(folder, "linked")
    assert len(entries) == len(_BASE) + 2  # and the surface, by texts and by summaries
    marker = tmp_path / "ran"
    replace = _hostile_entries(marker)[hostile]
    for path in entries:
        replace(path.read_bytes(), path)
    kept = any(_summary_reads(folder, path) for path in _entries(folder))
    cold = _snapshot(_BASE, None)
    visits = _Visits(monkeypatch)
    links = _Links(monkeypatch)
    assert _snapshot(_BASE, cache) == cold
    assert len(visits.modules) == len(_BASE)  # every entry was refused, then rebuilt
    # and the surface linked again: twice where a summary still read but its tree did not
    # (met while linking; then every file is visited again and linked)
    assert links.count == (2 if kept else 1)
    assert not marker.exists()
    demo = tmp_path / "demo"
    pickle.loads(pickle.dumps(_RunsCode(demo)))  # the payload is live: unpickling runs it
    assert demo.exists()


@pytest.mark.parametrize("damage", ["junk", "a summary with a tree that is not one"])
def test_rebuilt_entries_are_used_again(
    damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = SurfaceCache(tmp_path)
    _snapshot(_BASE, cache)
    replace = _hostile_entries(tmp_path / "ran")[damage]
    for path in _entries(tmp_path):
        replace(path.read_bytes(), path)
    edited = {**_BASE, "pkg/tools.py": _BASE["pkg/tools.py"] + "\n"}
    _snapshot(edited, cache)
    again = {**edited, "pkg/tools.py": edited["pkg/tools.py"] + "\n"}
    cold = _snapshot(again, None)
    visits = _Visits(monkeypatch)
    assert _snapshot(again, cache) == cold
    assert visits.modules == ["pkg.tools"]


def test_a_tiny_entry_cannot_make_the_reader_allocate_much(tmp_path: Path) -> None:
    """A 47-byte pickle could allocate 2 GB (``bytearray`` of a large size, a repeated
    list). JSON has no repetition: what is read is what is spelled, and an entry larger
    than its file allows is refused before a byte of it is read."""
    small = [
        b'{"format":1,"module":null,"problems":["x"],"given_up":[]}',
        b'{"format":1,"module":["L",' + b"9" * 40 + b'],"problems":[],"given_up":[]}',
        b'{"format":1,"module":["O","Module",{"name":"m","members":["D",{}]}]}',
        b"\x80\x04\x95" + b"\xff" * 44,  # pickle opcodes: not JSON
        b"[" * 47,
    ]
    path = tmp_path / "module" / "ab" / "abcd.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    with path.open("r+b") as handle:
        handle.truncate(1 << 31)
    tracemalloc.start()
    try:
        for data in small:
            with contextlib.suppress(summary.Unfit):
                summary.decode_product(data, max_nodes=1_000)
        assert ModuleEntries(tmp_path).get("abcd", limit=1 << 20) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_a_file_griffe_cannot_read_is_cached_as_a_problem(tmp_path: Path) -> None:
    broken = {**_BASE, "pkg/tools.py": '"""Tools."""\ndef helper(:\n'}
    cache = SurfaceCache(tmp_path)
    cold = surface_from_sources("pkg", _files(broken), workers=0)
    assert any("pkg/tools.py:2:12: syntax error" in str(problem) for problem in cold.problems)
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


def _product_json(tmp_path: Path, relpath: str) -> tuple[bytes, SourceFile]:
    source = {f.relpath: f for f in _files(_BASE)}[relpath]
    data = visit.visit_file(source.module, source.relpath, source.text)
    assert data is not None
    return data, source


def _refused(data: object, max_nodes: int = 10_000) -> bool:
    encoded = _bytes(data) if isinstance(data, dict) else data
    assert isinstance(encoded, bytes)
    try:
        summary.decode_product(encoded, max_nodes)
    except summary.Unfit:
        return True
    return False


def _name(name: str, parent: object) -> list[object]:
    return ["O", "ExprName", {"name": name, "parent": parent, "member": None}]


def _module_with_value(value: object) -> dict[str, object]:
    attribute = [
        "O",
        "Attribute",
        {"parent": ["R", 0], "name": "x", "runtime": True, "value": value},
    ]
    module = ["O", "Module", {"name": "m", "runtime": True, "members": ["D", {"x": attribute}]}]
    return {
        "format": summary.FORMAT,
        "module": module,
        "problems": [],
        "given_up": [],
        "facts": facts.encode(facts.ModuleFacts()),
    }


def test_a_real_product_reads_back_as_it_was_written(tmp_path: Path) -> None:
    data, _ = _product_json(tmp_path, "pkg/shapes.py")
    module, _, _, read = summary.decode_product(data, 10_000)
    assert module is not None
    assert sorted(module.members) == ["Circle", "Shape", "Square", "__all__"]
    assert module.members["Square"].members["side"].parent is module.members["Square"]
    assert summary.encode_product((module, [], [], read), 10_000) == data
    assert not _refused(_module_with_value(_name("y", ["R", 0])))


def test_entries_outside_the_schema_are_refused(tmp_path: Path) -> None:
    """Each of these is one edit of a well-formed entry; each makes the whole entry a miss."""
    data, _ = _product_json(tmp_path, "pkg/shapes.py")
    entry = _entry(data)
    square = entry["module"][2]["members"][1]["Square"]
    assert not _refused(entry)
    edits: dict[str, Callable[[dict[str, Any]], None]] = {
        "a class outside the schema": lambda e: e["module"].__setitem__(1, "posix.system"),
        "an attribute outside the schema": lambda e: e["module"][2].__setitem__("__class__", 1),
        "a name that is not a string": lambda e: e["module"][2].__setitem__("name", 5),
        "a float": lambda e: e["module"][2].__setitem__("lineno", 1.5),
        "a member under another name": lambda e: square[2].__setitem__("name", "Other"),
        "a member parented elsewhere": lambda e: square[2].__setitem__("parent", ["R", 1]),
        "a reference where a value is held": lambda e: square[2].__setitem__(
            "members", ["D", {"side": ["R", 0]}]
        ),
        "a resolved alias": lambda e: e["module"][2]["members"][1]["Shape"][2].__setitem__(
            "_target", ["R", 0]
        ),
        "another format": lambda e: e.__setitem__("format", summary.FORMAT + 1),
        "a problem that is not text": lambda e: e.__setitem__("problems", [["x"]]),
    }
    for reason, edit in edits.items():
        copy = _entry(data)
        square = copy["module"][2]["members"][1]["Square"]
        edit(copy)
        assert _refused(copy), reason


def test_references_must_end(tmp_path: Path) -> None:
    """A name's scope may come later in the file, so references are resolved once all is
    read; a cycle of them, or a chain longer than MAX_CHAIN, is refused (griffe follows
    them recursively)."""
    assert _refused(_module_with_value(_name("y", ["R", 2])))  # its own parent
    cycle = ["O", "ExprList", {"elements": ["L", _name("a", ["R", 4]), _name("b", ["R", 3])]}]
    assert _refused(_module_with_value(cycle))
    chain = [_name("n0", ["R", 0])]
    for index in range(1, summary.MAX_CHAIN + 2):
        chain.append(
            _name(f"n{index}", ["R", index + 2])
        )  # the name before it (nodes 0-2: module, attribute, list)
    assert _refused(_module_with_value(["O", "ExprList", {"elements": ["L", *chain]}]))
    shorter = chain[: summary.MAX_CHAIN - 5]
    assert not _refused(_module_with_value(["O", "ExprList", {"elements": ["L", *shorter]}]))


def test_the_reader_caps_objects_and_nesting() -> None:
    many = ["O", "ExprList", {"elements": ["L", *(_name(f"n{i}", ["R", 0]) for i in range(50))]}]
    assert not _refused(_module_with_value(many), max_nodes=100)
    assert _refused(_module_with_value(many), max_nodes=40)
    for depth, refused in ((10, False), (summary.MAX_DEPTH, True)):
        value = _bytes(_module_with_value("HERE"))
        opening = b'["O","ExprList",{"elements":["L",' * depth
        deep = value.replace(b'"HERE"', opening + b'"x"' + b"]}]" * depth)
        assert _refused(deep) is refused


def test_worker_answers_are_checked_like_entries(tmp_path: Path) -> None:
    """A worker's product is plain data read back with the same checks as an entry."""
    data, source = _product_json(tmp_path, "pkg/shapes.py")
    read = package.Visited.read(source, data)
    assert read is not None and read.module() is not None
    assert package.Visited.read(source, pickle.dumps(data)) is None
    other = {f.relpath: f for f in _files(_BASE)}["pkg/tools.py"]
    assert package.Visited.read(other, data) is None  # another module's product
    assert package.Visited.read(source, "text") is None
