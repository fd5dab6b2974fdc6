"""TensorFlow's way of declaring its API (POLICY.md 2.11, issue 21): a small package in the
``tf_export`` style, read from its decorators (a source checkout) and, where it matters, also
with the generated API modules a wheel ships (``tensorflow/_api/v2/...``)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from casefile import write_tree

from apisurface.model import Surface
from apisurface.surface.collect import load_surface
from apisurface.surface.visit.conditions import settle_import_fallbacks

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
        "tensorflow/__init__.py": '"""TensorFlow (a placeholder the build replaces)."""\n\n'
        "from tensorflow.python.framework.versions import VERSION as __version__\n",
        "tensorflow/python/framework/versions.py": 'VERSION = "2.20.0"\n',
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
    assert not any("declared for 2 objects" in str(problem) for problem in surface.problems)
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
    (noted,) = [problem for problem in surface.problems if "api_export" in str(problem)]
    assert str(noted).startswith("tensorflow/lite/interpreter.py:16: api_export(...) looks like")


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


XLA = '''\
from tensorflow.python.util.tf_export import tf_export


@tf_export("xla_op")
def xla_op(x):
    """An op whose module the API generator never reads."""
'''

OPS = "tensorflow.python.ops.array_ops"
CONSTANT = "tensorflow.python.framework.constant_op"
V2_NAMES = [
    ("", CONSTANT, "constant", None),
    ("", OPS, "add", None),
    ("", OPS, "divide", None),
    ("", OPS, "divide", "div"),
    ("", OPS, "argmax", None),
    ("", OPS, "old_add", None),
    ("math", OPS, "add", None),
    ("math", OPS, "divide", None),
    ("math", OPS, "argmax", None),
    ("nn", OPS, "relu", None),
    ("lite", "tensorflow.lite.interpreter", "Interpreter", None),
    ("compat", OPS, "as_bytes", None),
    ("test", OPS, "is_gpu_available", None),  # a test module: outside POLICY's contract
]
V1_NAMES = [
    ("compat/v1", CONSTANT, "constant_v1", "constant"),
    ("compat/v1", OPS, "placeholder", None),
    *(
        (f"compat/v1/{namespace}".rstrip("/"), module, name, alias)
        for namespace, module, name, alias in V2_NAMES
        if name != "constant"  # tf_export("constant", v1=[]): not in the v1 API
    ),
    # Exported by the build without a declaration apisurface reads.
    ("compat/v1", OPS, "helper", None),
]


def _generated_tree() -> dict[str, str]:
    """The API modules a build generates (``tensorflow/_api/v2``), in the generator's
    spelling (``from M import N # line: L``), with its ``compat.v2`` mirror."""
    modules: dict[str, list[str]] = {}
    names = [*V2_NAMES, *V1_NAMES, *(("compat/v2", m, n, a) for _, m, n, a in V2_NAMES)]
    for namespace, module, name, alias in names:
        spelled = f" as {alias}" if alias else ""
        modules.setdefault(namespace, []).append(f"from {module} import {name}{spelled} # line: 1")
    for namespace in list(modules):
        parts = namespace.split("/")
        for end in range(1, len(parts)):
            modules.setdefault("/".join(parts[:end]), [])
    for namespace in list(modules):
        parent, _, child = namespace.rpartition("/")
        if namespace:
            base = "tensorflow._api.v2" + (f".{parent.replace('/', '.')}" if parent else "")
            modules.setdefault(parent, []).insert(0, f"from {base} import {child}")
    files: dict[str, str] = {
        "tensorflow/_api/__init__.py": "",
        "tensorflow/_api/v2/__init__.py": "",
    }
    head = "# This file is MACHINE GENERATED! Do not edit.\n"
    for namespace, lines in modules.items():
        text = f'{head}"""Public API for tf._api.v2.{namespace} namespace"""\n\n' + "\n".join(
            sorted(lines)
        )
        if namespace:
            files[f"tensorflow/_api/v2/{namespace}/__init__.py"] = text + "\n"
        else:
            files["tensorflow/_api/v2/v2.py"] = text + "\n"
            files["tensorflow/__init__.py"] = (
                '"""TensorFlow."""\n\n'
                "from tensorflow.python.framework.versions import VERSION as __version__\n"
                + "\n".join(sorted(lines))
            )
    return files


def _with_xla() -> dict[str, str]:
    extra = {
        "tensorflow/compiler/__init__.py": "",
        "tensorflow/compiler/tf2xla/__init__.py": "",
        "tensorflow/compiler/tf2xla/ops/__init__.py": "",
        "tensorflow/compiler/tf2xla/ops/gen_xla_ops.py": XLA,
    }
    tree = _source_tree(extra)
    tree["tensorflow/python/ops/array_ops.py"] += (
        '\n\ndef helper(x):\n    """Exported by the build only."""\n'
        '\n\n@tf_export("compat.as_bytes")\ndef as_bytes(x):\n    """Bytes."""\n'
        '\n\n@tf_export("test.is_gpu_available")\ndef is_gpu_available():\n    """GPU?"""\n'
    )
    return tree


def test_the_generated_modules_decide_what_was_exported(tmp_path: Path) -> None:
    checkout = _surface(tmp_path / "checkout", _with_xla())
    wheel = _surface(tmp_path / "wheel", {**_with_xla(), **_generated_tree()})
    # A source checkout: the declarations are all there is.
    assert "tensorflow.xla_op" in checkout.symbols
    assert "tensorflow.compat.v1.helper" not in checkout.symbols
    # A wheel: a declaration the generator never read is not API, and the report says so.
    assert "tensorflow.xla_op" not in wheel.symbols
    (left_out,) = [problem for problem in wheel.problems if "xla_op" in str(problem)]
    assert str(left_out).startswith("tensorflow/compiler/tf2xla/ops/gen_xla_ops.py: 2 paths")
    assert "not exported by the generated API modules" in str(left_out)
    # A name the build exports without a declaration read here is public, and noted.
    assert wheel.symbols["tensorflow.compat.v1.helper"].target == f"{OPS}.helper"
    assert any("compat.v1.helper" in str(problem) for problem in wheel.problems)
    # The package's __version__ is public (POLICY.md 2.10) in both.
    assert checkout.symbols["tensorflow.__version__"].kind.value == "attribute"
    assert wheel.symbols["tensorflow.__version__"].annotation == "str"
    # The generator's mirror compat.v2 is a name, not a second copy of the API.
    assert wheel.symbols["tensorflow.compat.v2"].kind.value == "module"
    assert not any(path.startswith("tensorflow.compat.v2.") for path in wheel.symbols)
    # Otherwise both read the same API: the same paths, described the same way.
    differing = {"tensorflow.xla_op", "tensorflow.compat.v1.xla_op"}
    differing |= {"tensorflow.compat.v1.helper", "tensorflow.compat.v2"}
    shared = (set(checkout.symbols) | set(wheel.symbols)) - differing
    assert {path for path in shared if path.startswith("tensorflow.python")} == set()
    for path in sorted(shared):
        assert path in checkout.symbols and path in wheel.symbols, path
        ours, built = checkout.symbols[path], wheel.symbols[path]
        if ours.kind.value == "module":  # the generated modules have docstrings of their own
            ours = replace(ours, docstring_hash=None, documented=False)
            built = replace(built, docstring_hash=None, documented=False)
        assert ours == built, path
    # What the generator exports, apisurface lists (the module-level names).
    for namespace, _, name, alias in [*V2_NAMES, *V1_NAMES]:
        path = ".".join(["tensorflow", *filter(None, namespace.split("/")), alias or name])
        assert (path in wheel.symbols) is (namespace.rpartition("/")[2] != "test"), path
    # compat.v1.compat is the v1 API's compat module, not one of the mirrors.
    assert "tensorflow.compat.v1.compat.as_bytes" in wheel.symbols
    assert not any("as_bytes" in str(problem) for problem in wheel.problems)
    assert wheel.excluded["tensorflow.test"].value == "tools"


TYPE_SPEC = '''\
import abc
import collections

from tensorflow.python.util.tf_export import tf_export


@tf_export("TypeSpec")
class TypeSpec(metaclass=abc.ABCMeta):
    """Specifies a TensorFlow value type."""

    @abc.abstractproperty
    def value_type(self):
        """The Python type for values compatible with this TypeSpec."""

    def cast(self, value):
        """Casts a value to this type."""


class BatchableTypeSpec(TypeSpec):
    """An implementation base without a path of its own."""

    def batch(self, size):
        """Batches."""


@tf_export("IndexedSlicesSpec")
class IndexedSlicesSpec(BatchableTypeSpec):
    """Type specification for a tf.IndexedSlices."""

    value_type = property(lambda self: IndexedSlices)


class IndexedSlices:
    pass


@tf_export("dtypes.DType", "DType")
class DType:
    """Represents the type of the elements in a Tensor."""

    @property
    def is_bool(self):
        return self._type_enum == 10

    def _private(self):
        pass


@tf_export("AggregationMethod")
class AggregationMethod:
    """A class listing aggregation methods used to combine gradients."""

    ADD_N = 0
    DEFAULT = ADD_N


@tf_export("config.LogicalDevice")
class LogicalDevice(collections.namedtuple("LogicalDevice", ["name", "device_type"])):
    """Abstraction for a logical device initialized by the runtime."""
'''

GEN_MATH_OPS = '''\
from typing import Any, TypeVar

from typing_extensions import Annotated

from tensorflow.python.util.tf_export import tf_export

TV_Abs_T = TypeVar("TV_Abs_T")


def to_raw_op(f):
    return f


@tf_export("math.abs")
def abs(x: Annotated[Any, TV_Abs_T], name=None) -> Annotated[Any, TV_Abs_T]:
    """Computes the absolute value of a tensor."""


def _any(input, axis, keep_dims=False, name=None):
    """Computes the logical or of elements across dimensions of a tensor."""


Any = tf_export("raw_ops.Any")(to_raw_op(_any))


@tf_export("math.acos")
def acos(x: Annotated[Any, TV_Abs_T], name=None) -> Annotated[Any, TV_Abs_T]:
    """Computes acos of x element-wise (written after the rebinding of Any)."""
'''


def test_members_of_declared_classes(tmp_path: Path) -> None:
    extra = {
        "tensorflow/python/framework/type_spec.py": TYPE_SPEC,
        "tensorflow/python/ops/gen_math_ops.py": GEN_MATH_OPS,
    }
    symbols = _surface(tmp_path, _source_tree(extra)).symbols
    kinds = {path: symbol.kind.value for path, symbol in symbols.items()}
    spec = "tensorflow.IndexedSlicesSpec"
    impl = "tensorflow.python.framework.type_spec"
    # Inherited members are listed at the path a user types, also from a public base.
    assert symbols[f"{spec}.cast"].target == f"{impl}.TypeSpec.cast"
    assert symbols[f"{spec}.batch"].target == f"{impl}.BatchableTypeSpec.batch"
    assert "tensorflow.TypeSpec.cast" in symbols
    # property(lambda ...) and @abc.abstractproperty are properties.
    assert kinds[f"{spec}.value_type"] == "property"
    assert kinds["tensorflow.TypeSpec.value_type"] == "property"
    # Every public member is public, documented or not; private ones stay out.
    assert kinds["tensorflow.DType.is_bool"] == "property"
    assert kinds["tensorflow.dtypes.DType.is_bool"] == "property"
    assert "tensorflow.DType._private" not in symbols
    assert kinds["tensorflow.AggregationMethod.ADD_N"] == "attribute"
    # namedtuple fields, and tuple's count and index.
    device = "tensorflow.config.LogicalDevice"
    assert kinds[f"{device}.name"] == kinds[f"{device}.device_type"] == "property"
    assert kinds[f"{device}.count"] == kinds[f"{device}.index"] == "method"
    # Annotated[Any, T]: typing.Any as type checkers read it (the import is the name's
    # first definition), not the raw op the module binds to the name later.
    for path in ("tensorflow.math.abs", "tensorflow.math.acos"):
        signature = symbols[path].signature
        assert signature is not None
        assert signature.parameters[0].annotation == signature.returns == "typing.Any"
    assert kinds["tensorflow.raw_ops.Any"] == "function"


STUB = """\
class ItemsView{params}:
    def __len__(self) -> int: ...

class PyGraph:
    def version(self) -> int: ...
"""

SESSION = """\
from tensorflow.python.client._pywrap_tf_session import *
"""

GRAPH = '''\
from tensorflow.python.client import pywrap_tf_session
from tensorflow.python.util.tf_export import tf_export


@tf_export("Graph")
class Graph(pywrap_tf_session.PyGraph):
    """A TensorFlow computation, represented as a dataflow graph."""

    def as_default(self):
        """Returns a context manager that makes this Graph the default graph."""
'''


def test_a_stub_this_python_cannot_parse_gives_the_same_answer(tmp_path: Path) -> None:
    def tree(params: str) -> dict[str, str]:
        return _source_tree(
            {
                "tensorflow/python/client/__init__.py": "",
                "tensorflow/python/client/_pywrap_tf_session.pyi": STUB.format(params=params),
                "tensorflow/python/client/pywrap_tf_session.py": SESSION,
                "tensorflow/python/framework/ops.py": GRAPH,
            }
        )

    plain = _surface(tmp_path / "plain", tree(""))
    generic = _surface(tmp_path / "generic", tree("[int, object]"))  # PEP 695 (2.15.1)
    graph = {path: s for path, s in plain.symbols.items() if path.startswith("tensorflow.Graph")}
    assert graph == {
        path: s for path, s in generic.symbols.items() if path.startswith("tensorflow.Graph")
    }
    assert "tensorflow.Graph.version" in graph  # known through the stub
    noted = [problem for problem in generic.problems if "_pywrap_tf_session.pyi" in str(problem)]
    if sys.version_info < (3, 12):
        (problem,) = noted
        assert "PEP 695" in str(problem)
    else:
        assert noted == []


COMPAT = """\
try:
    import collections.abc as collections_abc
except ImportError:
    import collections as collections_abc
"""

DATASET = '''\
from tensorflow.python.util.compat import collections_abc
from tensorflow.python.util.tf_export import tf_export


@tf_export("data.Dataset", v1=[])
class DatasetV2(collections_abc.Iterable):
    """Represents a potentially large set of elements."""
'''


def test_a_standard_library_import_fallback_is_dead_code(tmp_path: Path) -> None:
    # TensorFlow 2.15.1's compat.py: the except branch never runs on Python 3.3 and later.
    files = _source_tree(
        {
            "tensorflow/python/util/compat.py": COMPAT,
            "tensorflow/python/data/__init__.py": "",
            "tensorflow/python/data/dataset_ops.py": DATASET,
        }
    )
    surface = _surface(tmp_path, files)
    assert surface.symbols["tensorflow.data.Dataset"].bases == ("collections.abc.Iterable",)


def test_only_standard_library_fallbacks_are_settled() -> None:
    optional = "try:\n    import ujson as json\nexcept ImportError:\n    import json\n"
    assert settle_import_fallbacks(optional) == optional  # whether ujson is installed: unknown
    removed = "try:\n    import imp\nexcept ImportError:\n    import importlib as imp\n"
    assert settle_import_fallbacks(removed) == removed  # imp is gone from Python 3.12 on
    settled = settle_import_fallbacks(COMPAT)
    assert "import collections as" not in settled
    assert "import collections.abc as collections_abc" in settled
