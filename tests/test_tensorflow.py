"""TensorFlow's way of declaring its API (POLICY.md 2.11, issue 21): a small package in the
``tf_export`` style, read from its decorators (a source checkout) and, where it matters, also
with the generated API modules a wheel ships (``tensorflow/_api/v2/...``)."""

from __future__ import annotations

from pathlib import Path

from casefile import write_tree

from apisurface.model import Surface
from apisurface.surface.collect import load_surface

TF_EXPORT = """\
def tf_export(*names, **kwargs):
    return lambda symbol: symbol
"""

DEPRECATION = """\
def deprecated(date, instructions):
    return lambda symbol: symbol


def deprecated_endpoints(*names):
    return lambda symbol: symbol


def deprecated_args(date, instructions, *names):
    return lambda symbol: symbol


def deprecated_arg_values(date, instructions, **values):
    return lambda symbol: symbol
"""

CONSTANT_OP = '''\
from tensorflow.python.util.tf_export import tf_export


@tf_export("constant", v1=[])
def constant(value, dtype=None):
    """Creates a constant tensor."""


@tf_export(v1=["constant"])
def constant_v1(value, dtype=None, verify_shape=False):
    """Creates a constant tensor (v1)."""
'''

ARRAY_OPS = '''\
from tensorflow.python.util import deprecation
from tensorflow.python.util.tf_export import tf_export


@tf_export(v1=["placeholder"])
def placeholder(dtype, shape=None):
    """A placeholder (v1 only)."""


@tf_export("math.add", "add")
def add(x, y):
    """Returns x + y."""


@tf_export("math.divide", "divide", "div")
@deprecation.deprecated_endpoints("div")
def divide(x, y):
    """Divides x by y."""


@tf_export("math.argmax", "argmax")
@deprecation.deprecated_args(None, "Use the `axis` argument instead", "dimension")
def argmax(input, axis=None, dimension=None):
    """The index of the largest value."""


@tf_export("nn.relu")
@deprecation.deprecated_arg_values(None, "Use features=1", features=0)
def relu(features):
    """Rectified linear."""


@tf_export("old_add")
@deprecation.deprecated(None, "Use tf.math.add")
def old_add(x, y):
    """Returns x + y (deprecated)."""
'''

LITE = '''\
from tensorflow.python.util.tf_export import tf_export as _tf_export


def api_export(*names):
    return lambda symbol: symbol


@_tf_export("lite.Interpreter")
class Interpreter:
    """Runs a TensorFlow Lite model."""

    def invoke(self):
        """Invoke the interpreter."""


@api_export("lite.Other")
class Other:
    """Declared with a decorator apisurface does not know."""
'''


def _source_tree(extra: dict[str, str] | None = None) -> dict[str, str]:
    """A TensorFlow source checkout: the implementation and its declarations only."""
    return {
        "tensorflow/__init__.py": '"""TensorFlow (a placeholder the build replaces)."""\n',
        "tensorflow/python/__init__.py": "",
        "tensorflow/python/util/__init__.py": "",
        "tensorflow/python/util/tf_export.py": TF_EXPORT,
        "tensorflow/python/util/deprecation.py": DEPRECATION,
        "tensorflow/python/framework/__init__.py": "",
        "tensorflow/python/framework/constant_op.py": CONSTANT_OP,
        "tensorflow/python/ops/__init__.py": "",
        "tensorflow/python/ops/array_ops.py": ARRAY_OPS,
        "tensorflow/lite/__init__.py": "",
        "tensorflow/lite/interpreter.py": LITE,
        **(extra or {}),
    }


def _surface(root: Path, files: dict[str, str]) -> Surface:
    return load_surface(write_tree(root, files), "tensorflow")


def _functions(surface: Surface) -> dict[str, str]:
    """Function paths -> the object each names (its definition)."""
    return {
        path: symbol.target
        for path, symbol in surface.symbols.items()
        if symbol.kind.value == "function"
    }


def test_v1_names_are_served_at_compat_v1(tmp_path: Path) -> None:
    surface = _surface(tmp_path, _source_tree())
    functions = _functions(surface)
    impl = "tensorflow.python"
    # Two objects at two paths: no conflict.
    assert functions["tensorflow.constant"] == f"{impl}.framework.constant_op.constant"
    assert functions["tensorflow.compat.v1.constant"] == (
        f"{impl}.framework.constant_op.constant_v1"
    )
    assert not any("declared for 2 objects" in problem for problem in surface.problems)
    # v1 only: never at tf.placeholder.
    assert "tensorflow.placeholder" not in surface.symbols
    assert functions["tensorflow.compat.v1.placeholder"] == f"{impl}.ops.array_ops.placeholder"
    # Without v1=, the v1 names are the positional ones.
    for path, name in [("add", "add"), ("math.add", "add"), ("div", "divide")]:
        assert functions[f"tensorflow.{path}"] == f"{impl}.ops.array_ops.{name}"
        assert functions[f"tensorflow.compat.v1.{path}"] == f"{impl}.ops.array_ops.{name}"
    assert surface.symbols["tensorflow.constant"].export_scope == ("default",)
    assert surface.symbols["tensorflow.compat.v1.constant"].export_scope == ("v1",)
    assert surface.symbols["tensorflow.compat.v1.add"].export_scope == ("v1",)
    # The v1 API is a compat module: covered and deprecated (POLICY.md rule 7).
    assert surface.symbols["tensorflow.compat.v1.add"].deprecated == "compat module"
    assert surface.symbols["tensorflow.compat.v1"].kind.value == "module"


def test_partial_deprecations_deprecate_only_their_part(tmp_path: Path) -> None:
    surface = _surface(tmp_path, _source_tree())
    symbols = surface.symbols
    # deprecated_endpoints("div"): that path only.
    assert symbols["tensorflow.div"].deprecated == "deprecated endpoint"
    assert symbols["tensorflow.divide"].deprecated is None
    assert symbols["tensorflow.math.divide"].deprecated is None
    # deprecated_args / deprecated_arg_values: a parameter or its values, not the function.
    assert symbols["tensorflow.math.argmax"].deprecated is None
    assert symbols["tensorflow.nn.relu"].deprecated is None
    # deprecated(...) still deprecates the whole object.
    assert symbols["tensorflow.old_add"].deprecated is not None


def test_an_aliased_decorator_is_recognised_and_an_unknown_one_noted(tmp_path: Path) -> None:
    surface = _surface(tmp_path, _source_tree())
    assert surface.symbols["tensorflow.lite.Interpreter"].kind.value == "class"
    assert "tensorflow.lite.Interpreter.invoke" in surface.symbols
    assert surface.declared_by == ("tf_export",)
    assert "tensorflow.lite.Other" not in surface.symbols
    (noted,) = [problem for problem in surface.problems if "api_export" in problem]
    assert noted.startswith("tensorflow/lite/interpreter.py:16: api_export(...) looks like")


def test_export_like_calls_are_no_problem_without_declarations(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": '"""Pkg."""\n\nfrom pkg.impl import f as f\n',
        "pkg/impl.py": "def api_export(*names):\n    return lambda f: f\n\n\n"
        '@api_export("pkg.f")\ndef f():\n    """F."""\n',
    }
    surface = load_surface(write_tree(tmp_path, files), "pkg")
    assert surface.declared_by == ()
    assert surface.problems == ()
    assert "pkg.f" in surface.symbols
