"""Declared exports (apisurface.surface.link.exports): export decorators define the surface, the way
TensorFlow and Keras name their public API."""

from __future__ import annotations

from pathlib import Path

import pytest
from casefile import write_tree

from apisurface.cli import main
from apisurface.errors import ConfigError
from apisurface.model import Surface
from apisurface.project.config import parse_config
from apisurface.store.cache import SurfaceCache
from apisurface.store.snapshot import dumps, loads
from apisurface.surface.collect import load_surface

EXPORT = """\
class keras_export:
    def __init__(self, path):
        self.path = path

    def __call__(self, symbol):
        return symbol
"""

LAYER = '''\
class Layer:
    def build(self, shape):
        """Create the weights."""
'''

DENSE = '''\
{imports}from {impl}.layers.layer import Layer


{decorator}class Dense(Layer):
    """A densely-connected layer."""

    def __init__(self, units: int, activation: str | None = None) -> None:
        self.units = units

    def call(self, inputs: "Layer") -> "Layer":
        """Apply the layer."""


class Helper:
    """Implementation only."""
'''

OPS = """\
{imports}
PI = 3.14
{constant}

{decorator}def relu(x: float) -> float:
    return x


def add(x: float, y: float) -> float:
    return x + y
{add}
"""


def _implementation(impl: str, *, declared: bool) -> dict[str, str]:
    """The implementation tree under ``impl`` (``pkg/src`` or ``pkg/_src``)."""
    folder = impl.replace(".", "/")
    imports = f"from {impl}.api_export import keras_export\n" if declared else ""
    return {
        f"{folder}/__init__.py": "",
        f"{folder}/api_export.py": EXPORT,
        f"{folder}/layers/__init__.py": "",
        f"{folder}/layers/layer.py": LAYER,
        f"{folder}/layers/dense.py": DENSE.format(
            imports=imports,
            impl=impl,
            decorator='@keras_export(["pkg.layers.Dense", "pkg.Dense"])\n' if declared else "",
        ),
        f"{folder}/ops/__init__.py": "",
        f"{folder}/ops/nn.py": OPS.format(
            imports=imports,
            constant='keras_export("pkg.ops.PI").export_constant(__name__, "PI")'
            if declared
            else "",
            decorator='@keras_export("pkg.ops.relu")\n' if declared else "",
            add='\nkeras_export("pkg.ops.add")(add)' if declared else "",
        ),
    }


def _generated(impl: str, docstring: str = "") -> dict[str, str]:
    """The re-export modules a build would generate from the declarations (Keras style:
    ``from impl import name as name``)."""
    head = f'"""{docstring}"""\n\n' if docstring else ""
    return {
        "pkg/__init__.py": f'"""Pkg."""\n\nfrom pkg import layers as layers\n'
        f"from pkg import ops as ops\nfrom {impl}.layers.dense import Dense as Dense\n",
        "pkg/layers/__init__.py": f"{head}from {impl}.layers.dense import Dense as Dense\n",
        "pkg/ops/__init__.py": f"{head}from {impl}.ops.nn import PI as PI\n"
        f"from {impl}.ops.nn import add as add\nfrom {impl}.ops.nn import relu as relu\n",
    }


def _surface(root: Path, files: dict[str, str]) -> Surface:
    surface = load_surface(write_tree(root, files), "pkg")
    assert surface.problems == ()
    return surface


def test_generated_modules_and_decorators_give_the_same_surface(tmp_path: Path) -> None:
    # Decorators only, as in a source checkout: no generated module exists.
    decorated = _surface(
        tmp_path / "decorated",
        {"pkg/__init__.py": '"""Pkg."""\n', **_implementation("pkg.src", declared=True)},
    )
    # Generated re-export modules only, over a private implementation: the layout walk.
    generated = _surface(
        tmp_path / "generated",
        {**_generated("pkg._src"), **_implementation("pkg._src", declared=False)},
    )
    # Both, as in a Keras wheel: the generated modules and the decorators they came from.
    both = _surface(
        tmp_path / "both",
        {**_generated("pkg.src"), **_implementation("pkg.src", declared=True)},
    )
    assert decorated.declared_by == both.declared_by == ("keras_export",)
    assert generated.declared_by == ()
    expected = {
        "pkg",
        "pkg.Dense",
        "pkg.Dense.__init__",
        "pkg.Dense.build",
        "pkg.Dense.call",
        "pkg.Dense.units",
        "pkg.layers",
        "pkg.layers.Dense",
        "pkg.layers.Dense.__init__",
        "pkg.layers.Dense.build",
        "pkg.layers.Dense.call",
        "pkg.layers.Dense.units",
        "pkg.ops",
        "pkg.ops.PI",
        "pkg.ops.add",
        "pkg.ops.relu",
    }
    assert set(decorated.symbols) == expected
    # Symbols compare everything a user depends on: kinds, signatures (annotations spelled
    # by public path), bases, docstrings; not where the implementation lives.
    # Every public member of a declared class is public (POLICY.md 2.11), documented or
    # not: the undocumented attribute ``units`` is left out by the layout walk only.
    undocumented = {"pkg.Dense.units", "pkg.layers.Dense.units"}
    assert both.symbols == decorated.symbols
    assert {
        path: symbol for path, symbol in decorated.symbols.items() if path not in undocumented
    } == generated.symbols
    assert decorated.symbols["pkg.layers.Dense.call"].signature == (
        generated.symbols["pkg.layers.Dense.call"].signature
    )
    # The path a user types is the declared one; the location is the definition.
    location = decorated.symbols["pkg.layers.Dense"].location
    assert location is not None
    assert location.file == "pkg/src/layers/dense.py"
    assert decorated.excluded["pkg.src"].value == "not_exported"


def test_generated_module_docstrings_are_kept(tmp_path: Path) -> None:
    note = "DO NOT EDIT. This file was autogenerated."
    both = _surface(
        tmp_path / "both",
        {**_generated("pkg.src", note), **_implementation("pkg.src", declared=True)},
    )
    generated = _surface(
        tmp_path / "generated",
        {**_generated("pkg._src", note), **_implementation("pkg._src", declared=False)},
    )
    undocumented = {"pkg.Dense.units", "pkg.layers.Dense.units"}
    assert {
        path: symbol for path, symbol in both.symbols.items() if path not in undocumented
    } == generated.symbols
    assert both.symbols["pkg.layers"].docstring_hash is not None


def test_a_path_declared_for_two_objects_is_a_problem(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": '"""Pkg."""\n',
        "pkg/src/__init__.py": "",
        "pkg/src/api_export.py": EXPORT,
        "pkg/src/a.py": "from pkg.src.api_export import keras_export\n\n\n"
        '@keras_export(["pkg.Dense", "pkg.A"])\nclass Dense:\n    """A."""\n',
        "pkg/src/b.py": "from pkg.src.api_export import keras_export\n\n\n"
        '@keras_export("pkg.Dense")\nclass Dense:\n    """B."""\n',
    }
    surface = load_surface(write_tree(tmp_path, files), "pkg")
    assert not surface.complete
    assert "pkg.Dense" not in surface.symbols
    assert "pkg.A" in surface.symbols
    (found,) = surface.problems
    problem = str(found)
    assert "pkg/src/a.py:4" in problem and "pkg/src/b.py:4" in problem
    assert "pkg.Dense is declared for 2 objects" in problem
    assert "pkg.src.a.Dense" in problem and "pkg.src.b.Dense" in problem


def test_the_same_object_declared_twice_is_one_path(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": '"""Pkg."""\n',
        "pkg/src.py": 'from pkg.api import keras_export\n\n\n@keras_export("pkg.f")\n'
        'def f():\n    pass\n\n\nkeras_export("pkg.f")(f)\n',
        "pkg/api.py": EXPORT,
    }
    surface = _surface(tmp_path, files)
    assert set(surface.symbols) == {"pkg", "pkg.f"}


def test_declarations_that_cannot_be_read_are_problems(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": '"""Pkg."""\n',
        "pkg/api.py": EXPORT,
        "pkg/src.py": "from pkg.api import keras_export\n\nNAMES = ['pkg.g']\n\n\n"
        '@keras_export(NAMES)\ndef g():\n    pass\n\n\n@keras_export("pkg.h")\n'
        'def h():\n    pass\n\n\nkeras_export("pkg.missing")(missing)\n',
    }
    surface = load_surface(write_tree(tmp_path, files), "pkg")
    assert set(surface.symbols) == {"pkg", "pkg.h"}
    assert len(surface.problems) == 2
    texts = [str(item) for item in surface.problems]
    assert any("pkg/src.py:6" in item and "not a literal" in item for item in texts)
    assert any(
        "pkg/src.py:16" in item and "pkg.missing" in item and "not defined statically" in item
        for item in texts
    )


def test_keyword_restrictions_are_kept(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": '"""Pkg."""\n',
        "pkg/util.py": "def tf_export(*names, **kwargs):\n    return lambda symbol: symbol\n",
        "pkg/ops.py": "from pkg.util import tf_export\n\n\n"
        '@tf_export("math.add", "add", v1=["math.add", "math.old_add"],'
        " allow_multiple_exports=True)\ndef add(x, y):\n    pass\n\n\n"
        '@tf_export("sub")\ndef sub(x, y):\n    pass\n',
    }
    surface = _surface(tmp_path, files)
    scopes = {path: symbol.export_scope for path, symbol in surface.symbols.items()}
    option = "allow_multiple_exports=True"
    # v1= names the v1 API, served at compat.v1 (POLICY.md 2.11); without v1= (``sub``),
    # the v1 names are the positional ones.
    assert scopes == {
        "pkg": (),
        "pkg.math": (),
        "pkg.math.add": ("default", option),
        "pkg.add": ("default", option),
        "pkg.sub": (),
        "pkg.compat": (),
        "pkg.compat.v1": (),
        "pkg.compat.v1.math": (),
        "pkg.compat.v1.math.add": ("v1", option),
        "pkg.compat.v1.math.old_add": ("v1", option),
        "pkg.compat.v1.sub": ("v1",),
    }
    # Kept through a snapshot and the cache.
    again = loads(dumps(surface))
    assert again.declared_by == ("tf_export",)
    assert {path: symbol.export_scope for path, symbol in again.symbols.items()} == scopes
    cache = SurfaceCache(tmp_path / "cache")
    load_surface(tmp_path, "pkg", cache=cache)
    cached = load_surface(tmp_path, "pkg", cache=cache)
    assert cached.declared_by == ("tf_export",)
    assert {path: symbol.export_scope for path, symbol in cached.symbols.items()} == scopes


def test_snapshots_of_layout_surfaces_keep_their_shape(tmp_path: Path) -> None:
    surface = _surface(tmp_path, {"pkg/__init__.py": '"""Pkg."""\n\n\ndef f():\n    """F."""\n'})
    text = dumps(surface)
    assert "declared_by" not in text and "export_scope" not in text
    assert loads(text) == surface


def test_configured_decorators(tmp_path: Path) -> None:
    implementation = (
        "from pkg.api import api_export\n\n\n@api_export('pkg.run')\ndef run():\n    pass\n\n\n"
        "def walk():\n    '''Documented.'''\n"
    )
    base = {
        "pkg/__init__.py": '"""Pkg."""\n',
        "pkg/api.py": "def api_export(path):\n    return lambda symbol: symbol\n",
        "pkg/impl.py": implementation,
    }
    configured = {
        **base,
        "pyproject.toml": '[tool.apisurface]\nexport_decorators = ["api_export"]\n',
    }
    surface = _surface(tmp_path / "configured", configured)
    assert set(surface.symbols) == {"pkg", "pkg.run"}
    assert surface.declared_by == ("api_export",)
    # Not a well-known name: without configuration the layout walk defines the surface.
    layout = _surface(tmp_path / "layout", base)
    assert layout.declared_by == ()
    assert "pkg.impl.walk" in layout.symbols
    # An empty list turns declared exports off, also for the well-known names.
    off = {**base, "pyproject.toml": "[tool.apisurface]\nexport_decorators = []\n"}
    off["pkg/impl.py"] = implementation.replace("api_export", "tf_export")
    off["pkg/api.py"] = off["pkg/api.py"].replace("api_export", "tf_export")
    assert _surface(tmp_path / "off", off).declared_by == ()


@pytest.mark.parametrize("value", ['"tf_export"', '["tf.export"]', "[1]"])
def test_bad_export_decorators_are_refused(value: str) -> None:
    import tomllib  # noqa: PLC0415

    table = tomllib.loads(f"export_decorators = {value}")
    with pytest.raises(ConfigError, match="export_decorators"):
        parse_config(table)


def test_show_names_the_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_tree(
        tmp_path,
        {"pkg/__init__.py": '"""Pkg."""\n', **_implementation("pkg.src", declared=True)},
    )
    assert main(["show", str(root), "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "declared by @keras_export" in out
    assert "class Dense" in out and "pkg.src" not in out
