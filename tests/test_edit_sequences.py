"""Random edit sequences: after every edit, a surface built with the per-file cache filled
by the earlier steps equals, byte for byte, a surface built cold.

The packages are copies of real code (the demo's and the migrate example's packages in
fixtures/, and a slice of apisurface's own source); the edits are the ones that move a
surface (issue 19): a base added or removed, a re-export added or removed, an ``__all__``
entry added or removed, a docstring added or removed, a decorator added or removed, a file
added or removed; and two that move no summary, so that the linked surface is reused: a
comment in a function body, a test file nothing reaches. Each sequence is seeded, so a
failure names the seed that repeats it.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from apisurface.project.sources import SourceFile
from apisurface.store.cache import SurfaceCache
from apisurface.store.snapshot import dumps
from apisurface.surface.collect import surface_from_sources

ROOT = Path(__file__).parent.parent
OWN_SLICE = (
    "__init__.py",
    "errors.py",
    "model.py",
    "progress.py",
    "rows.py",
    "store/__init__.py",
    "store/atomic.py",
    "store/codec.py",
    "store/snapshot.py",
)

Texts = dict[str, str]
Edit = Callable[[Texts, random.Random], Texts | None]


def _package(folder: Path, only: tuple[str, ...] = ()) -> Texts:
    found = {
        str(path.relative_to(folder.parent)): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.py"))
    }
    if only:
        found = {
            relpath: text for relpath, text in found.items() if relpath.split("/", 1)[1] in only
        }
    return found


PACKAGES: dict[str, Callable[[], Texts]] = {
    "tinyhttp": lambda: _package(ROOT / "fixtures/demo/new/src/tinyhttp"),
    "textkit": lambda: _package(ROOT / "fixtures/migrate/v2/src/textkit"),
    "apisurface": lambda: _package(ROOT / "src/apisurface", OWN_SLICE),
}


def _files(texts: Texts) -> list[SourceFile]:
    files = []
    for relpath, text in sorted(texts.items()):
        module = relpath.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        files.append(SourceFile(module, relpath, text))
    return files


def _surface(package: str, texts: Texts, cache: SurfaceCache | None) -> str:
    return dumps(surface_from_sources(package, _files(texts), cache=cache, workers=0))


# --- the edits: each returns the edited texts, or None when it finds nowhere to apply ----


def _nodes(text: str, kind: type[ast.AST] | tuple[type[ast.AST], ...]) -> list[ast.AST]:
    return [node for node in ast.walk(ast.parse(text)) if isinstance(node, kind)]


def _replace_line(text: str, number: int, lines: list[str]) -> str:
    old = text.splitlines(keepends=True)
    return "".join([*old[: number - 1], *lines, *old[number:]])


def _pick_file(texts: Texts, rng: random.Random, wanted: Callable[[str], bool]) -> str | None:
    candidates = sorted(relpath for relpath, text in texts.items() if wanted(text))
    return rng.choice(candidates) if candidates else None


def _indent(text: str, number: int) -> str:
    line = text.splitlines()[number - 1]
    return line[: len(line) - len(line.lstrip())]


def add_or_remove_base(texts: Texts, rng: random.Random) -> Texts | None:
    relpath = _pick_file(texts, rng, lambda text: "class " in text)
    if relpath is None:
        return None
    text = texts[relpath]
    classes = [node for node in _nodes(text, ast.ClassDef) if isinstance(node, ast.ClassDef)]
    if not classes:
        return None
    node = rng.choice(classes)
    line = text.splitlines(keepends=True)[node.lineno - 1]
    if node.bases and rng.random() < 0.5 and f"class {node.name}(" in line:
        first = ast.unparse(node.bases[0])
        edited = line.replace(f"({first}, ", "(", 1).replace(f"({first})", "", 1)
    elif f"class {node.name}:" in line:
        edited = line.replace(f"class {node.name}:", f"class {node.name}(Exception):", 1)
    elif f"class {node.name}(" in line:
        edited = line.replace(f"class {node.name}(", f"class {node.name}(Exception, ", 1)
    else:
        return None
    return {**texts, relpath: _replace_line(text, node.lineno, [edited])}


def _top_functions(texts: Texts) -> list[tuple[str, str]]:
    found = []
    for relpath, text in sorted(texts.items()):
        if relpath.endswith("__init__.py"):
            continue
        for node in ast.parse(text).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                found.append((relpath, node.name))
    return found


def _module(relpath: str) -> str:
    return relpath.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def add_or_remove_reexport(texts: Texts, rng: random.Random) -> Texts | None:
    init = sorted(relpath for relpath in texts if relpath.endswith("__init__.py"))[0]
    text = texts[init]
    imports = [
        node for node in ast.parse(text).body if isinstance(node, ast.ImportFrom) and node.module
    ]
    if imports and rng.random() < 0.5:
        node = rng.choice(imports)
        end = node.end_lineno or node.lineno
        lines = text.splitlines(keepends=True)
        return {**texts, init: "".join([*lines[: node.lineno - 1], *lines[end:]])}
    candidates = _top_functions(texts)
    if not candidates:
        return None
    relpath, name = rng.choice(candidates)
    return {**texts, init: f"{text}\nfrom {_module(relpath)} import {name} as {name}\n"}


def add_or_remove_all_entry(texts: Texts, rng: random.Random) -> Texts | None:
    relpath = _pick_file(texts, rng, lambda text: "__all__ = [" in text)
    if relpath is None:
        return None
    text = texts[relpath]
    tree = ast.parse(text)
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.List)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        ):
            names = [ast.literal_eval(item) for item in node.value.elts]
            break
    else:
        return None
    if names and rng.random() < 0.5:
        names.remove(rng.choice(names))
    else:
        defined = [item.name for item in tree.body if isinstance(item, ast.FunctionDef)]
        extra = sorted(set(defined) - set(names)) or ["not_bound"]
        names.append(rng.choice(extra))
    end = node.end_lineno or node.lineno
    lines = text.splitlines(keepends=True)
    edited = [*lines[: node.lineno - 1], f"__all__ = {names!r}\n", *lines[end:]]
    return {**texts, relpath: "".join(edited)}


def _definitions(text: str) -> list[ast.FunctionDef | ast.ClassDef]:
    return [
        node
        for node in _nodes(text, (ast.FunctionDef, ast.ClassDef))
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    ]


def add_or_remove_docstring(texts: Texts, rng: random.Random) -> Texts | None:
    relpath = _pick_file(texts, rng, lambda text: "def " in text or "class " in text)
    if relpath is None:
        return None
    text = texts[relpath]
    node = rng.choice(_definitions(text))
    first = node.body[0]
    documented = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    indent = _indent(text, first.lineno)
    lines = text.splitlines(keepends=True)
    if documented:
        end = first.end_lineno or first.lineno
        rest = [] if len(node.body) > 1 else [f"{indent}pass\n"]
        edited = [*lines[: first.lineno - 1], *rest, *lines[end:]]
    else:
        edited = [*lines[: first.lineno - 1], f'{indent}"""Added."""\n', *lines[first.lineno - 1 :]]
    return {**texts, relpath: "".join(edited)}


def add_or_remove_decorator(texts: Texts, rng: random.Random) -> Texts | None:
    relpath = _pick_file(texts, rng, lambda text: "def " in text)
    if relpath is None:
        return None
    text = texts[relpath]
    functions = [node for node in _definitions(text) if isinstance(node, ast.FunctionDef)]
    if not functions:
        return None
    node = rng.choice(functions)
    lines = text.splitlines(keepends=True)
    if node.decorator_list and rng.random() < 0.5:
        decorator = node.decorator_list[0]
        end = decorator.end_lineno or decorator.lineno
        return {**texts, relpath: "".join([*lines[: decorator.lineno - 1], *lines[end:]])}
    where = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    chosen = rng.choice(["staticmethod", "property", "typing.final", 'deprecated("old")'])
    decorator = f"{_indent(text, where)}@{chosen}\n"
    return {**texts, relpath: "".join([*lines[: where - 1], decorator, *lines[where - 1 :]])}


def add_or_remove_file(texts: Texts, rng: random.Random) -> Texts | None:
    removable = sorted(relpath for relpath in texts if not relpath.endswith("__init__.py"))
    if removable and rng.random() < 0.4:
        edited = dict(texts)
        del edited[rng.choice(removable)]
        return edited
    package = sorted(texts)[0].split("/")[0]
    number = sum(1 for relpath in texts if "/added_" in relpath)
    text = f'"""Added."""\n\n\ndef added_{number}(x: int) -> int:\n    """Added."""\n    return x\n'
    return {**texts, f"{package}/added_{number}.py": text}


def add_a_comment(texts: Texts, rng: random.Random) -> Texts | None:
    """A comment after a one-line statement in a function body: no summary changes (the
    linked surface is reused, tests/test_linked_cache.py)."""
    relpath = _pick_file(texts, rng, lambda text: "def " in text)
    if relpath is None:
        return None
    text = texts[relpath]
    lines = text.splitlines(keepends=True)
    spots = [
        node.lineno
        for function in _nodes(text, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(function)
        if isinstance(node, (ast.Assign, ast.Return, ast.Pass, ast.AugAssign))
        and node.lineno == node.end_lineno
        and node.end_col_offset == len(lines[node.lineno - 1].rstrip())
    ]
    if not spots:
        return None
    where = rng.choice(spots)
    return {**texts, relpath: _replace_line(text, where, [lines[where - 1].rstrip() + "  # x\n"])}


def edit_a_test_file(texts: Texts, rng: random.Random) -> Texts | None:
    """Test code shipped in the package that nothing imports (never read by the visit)."""
    package = sorted(texts)[0].split("/")[0]
    relpath = f"{package}/tests/test_edited.py"
    if relpath not in texts:
        return {**texts, f"{package}/tests/__init__.py": "", relpath: "def test_it():\n    pass\n"}
    return {**texts, relpath: texts[relpath] + f"    assert {rng.randrange(100)}\n"}


EDITS: list[Edit] = [
    add_or_remove_base,
    add_or_remove_reexport,
    add_or_remove_all_entry,
    add_or_remove_docstring,
    add_or_remove_decorator,
    add_or_remove_file,
    add_a_comment,
    edit_a_test_file,
]


def _parses(texts: Texts) -> bool:
    try:
        for text in texts.values():
            ast.parse(text)
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize(
    ("package", "seed", "steps"),
    [("tinyhttp", seed, 8) for seed in range(4)]
    + [("textkit", seed, 8) for seed in range(4)]
    + [("apisurface", 0, 4)],
)
def test_a_warm_cache_after_each_edit_gives_the_cold_surface(
    package: str, seed: int, steps: int, tmp_path: Path
) -> None:
    rng = random.Random(seed)
    texts = PACKAGES[package]()
    cache = SurfaceCache(tmp_path)
    cold = _surface(package, texts, None)
    assert _surface(package, texts, cache) == cold
    applied: list[str] = []
    changed = 0
    while len(applied) < steps:
        edit = rng.choice(EDITS)
        edited = edit(texts, rng)
        if edited is None or edited == texts or not _parses(edited):
            continue
        applied.append(edit.__name__)
        texts = edited
        before, cold = cold, _surface(package, texts, None)
        assert _surface(package, texts, cache) == cold, f"seed {seed}: after {applied}"
        changed += cold != before
    assert changed, f"seed {seed}: no edit of {applied} changed the surface"
