"""Export declarations read in the visit (surface/visit/exportcalls.py) and kept by the link
(surface/link/exports.py): the per-file reading knows no decorator names, so one visit of a
file serves every configuration, and the summary round-trips as checked plain data."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from textwrap import dedent

import pytest

from apisurface.project.config import Config
from apisurface.project.sources import SourceFile
from apisurface.store.cache import SurfaceCache
from apisurface.store.snapshot import dumps
from apisurface.surface.collect import surface_from_sources
from apisurface.surface.visit import facts
from apisurface.surface.visit import package as visit
from apisurface.surface.visit.exportcalls import decode_exports, encode_exports, read_exports
from apisurface.surface.visit.summary import Product

_OPS = '''
    """Operations."""
    from pkg.util import tf_export as _tf_export, api_export
    from pkg.util import deprecated_endpoints

    _also = _tf_export

    @_also("math.add", v1=["math.add", "add"], allow_multiple_exports=True)
    @deprecated_endpoints("add")
    def add(x, y):
        """Add."""

    @api_export("math.sub")
    def sub(x, y):
        """Subtract."""

    try:
        mul = _tf_export("math.mul")(wrapped(_mul))
    except ImportError:
        pass
    newaxis = None
    _tf_export("newaxis").export_constant(__name__, "newaxis")
    _tf_export("bad")(1, 2)
    _tf_export(PATH)(add)
    api_export("ops.sub")(sub)
'''

_UTIL = '''
    """Decorators."""

    def tf_export(*names, **apis):
        """Declare."""
        return lambda obj: obj

    api_export = deprecated_endpoints = tf_export
'''


def _files(texts: dict[str, str]) -> list[SourceFile]:
    files = []
    for relpath, text in sorted(texts.items()):
        module = relpath.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        files.append(SourceFile(module, relpath, dedent(text).lstrip("\n")))
    return files


_PACKAGE = {"pkg/__init__.py": '"""A package."""\n', "pkg/ops.py": _OPS, "pkg/util.py": _UTIL}


def _snapshot(config: Config, cache: SurfaceCache | None) -> str:
    return dumps(surface_from_sources("pkg", _files(_PACKAGE), config=config, cache=cache))


def test_one_visit_of_a_file_serves_every_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The per-file entries do not depend on the configured decorators: a surface under
    another configuration reads them back (no file visited again) and equals a run
    without any cache."""
    cache = SurfaceCache(tmp_path)
    default = _snapshot(Config(), cache)
    assert '"pkg.math.add"' in default and '"pkg.compat.v1.add"' in default
    assert '"pkg.math.sub"' not in default
    assert "api_export(...) looks like an export declaration" in default
    visited: list[str] = []
    original = visit.visit_alone

    def counting(module: str, relpath: str, text: str) -> Product:
        visited.append(module)
        return original(module, relpath, text)

    monkeypatch.setattr(visit, "visit_alone", counting)
    other = Config(export_decorators=("api_export",))
    warm = _snapshot(other, cache)
    assert visited == []
    monkeypatch.setattr(visit, "visit_alone", original)
    assert warm == _snapshot(other, None)
    assert '"pkg.math.sub"' in warm and '"pkg.ops.sub"' in warm
    assert '"pkg.math.add"' not in warm


def test_the_candidates_round_trip_as_plain_data() -> None:
    text = dedent(_OPS).lstrip("\n")
    found = read_exports("pkg/ops.py", text, ast.parse(text))
    assert len(found.sites) == 8  # 3 decorator calls, 5 statements
    assert {alias[1] for alias in found.aliases} == {"_tf_export", "_also"}
    data = json.loads(json.dumps(encode_exports(found)))
    assert decode_exports(data) == found
    summary = facts.read_facts("pkg/ops.py", text, ast.parse(text))
    assert facts.decode(json.loads(json.dumps(facts.encode(summary)))) == summary
    broken = facts.encode(summary)
    broken["exports"][0][0][4] = "one"  # a line that is not a number
    with pytest.raises(facts.Unfit):
        facts.decode(broken)
    broken["exports"] = [[], [], True, []]  # a field missing
    with pytest.raises(facts.Unfit):
        facts.decode(broken)


def test_a_file_with_no_candidates_records_nothing() -> None:
    text = '"""Plain."""\nimport os\n\n@property\ndef f():\n    pass\n'
    assert encode_exports(read_exports("pkg/plain.py", text, ast.parse(text))) is None


@pytest.mark.parametrize(("mention", "noted"), [("# see tf_export\n", True), ("", False)])
def test_export_like_calls_are_noted_where_the_text_invited_it(mention: str, noted: bool) -> None:
    """An export-like decorator the quick pattern misses (``@api_export ("a.b")``) is noted
    only in a file that mentions an export decorator, as when the link read such files."""
    odd = f'"""Odd."""\n{mention}@api_export ("a.b")\ndef f():\n    """F."""\n'
    texts = {**_PACKAGE, "pkg/odd.py": odd}
    surface = surface_from_sources("pkg", _files(texts), workers=0)
    odd_problems = [problem for problem in surface.problems if problem.file == "pkg/odd.py"]
    assert bool(odd_problems) is noted
