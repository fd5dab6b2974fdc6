"""How often a run parses each file (the harness in tests/parsecount.py)."""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import griffe
import libcst
import pytest
from casefile import parse_case
from clirun import run, write
from parsecount import counting

from apisurface.surface.visit import conditions

TEXT = "import os\n\n\ndef f(a: int) -> int:\n    return a\n"


def test_the_harness_counts_whole_module_parses_and_not_expressions() -> None:
    with counting() as parses:
        griffe.visit("m", filepath=Path("m.py"), code=TEXT)
        ast.parse("a + b", mode="eval")
        ast.parse("def f(a: int) -> int:\n    return a\n")  # an excerpt, not the module
        libcst.parse_module(TEXT)
    whole, cst = parses.per_file({"m.py": TEXT, "other.py": "x = 1\n"})
    assert whole == {"m.py": 1}
    assert cst == {"m.py": 1}


_PACKAGE = {
    "pkg/__init__.py": '''"""A package with every kind of fact the link reads."""
import sys
import warnings
from typing import TYPE_CHECKING

from pkg.shapes import Circle as Circle
from pkg import shapes
from . import compat

if TYPE_CHECKING:
    from pkg.shapes import Square

try:
    import collections.abc as abc_
except ImportError:
    import collections as abc_

if sys.version_info >= (3, 8):
    def size(a: int) -> int:
        """New."""
        return a
else:
    def size(a, b):
        """Old."""
        return a

LIMIT = 2 ** 16
LIMIT = 2 ** 16


def fetch(amount: int = LIMIT) -> None:
    """Fetch."""


def old() -> None:
    """Old."""
    warnings.warn("use fetch", DeprecationWarning)


def __getattr__(name: str) -> object:
    if name == "Gone":
        warnings.warn("Gone is gone", DeprecationWarning)
        return Circle
    raise AttributeError(name)


__all__ = ["Circle", "Gone", "compat", "fetch", "old", "shapes", "size", "LIMIT"]
''',
    "pkg/shapes.py": '''"""Shapes."""
from typing import Any

if True:
    Base = object


class Circle(Base):
    """A circle."""

    radius: float = 1.0

    def area(self) -> Any:
        """Area."""
        return 3.14


class Square:
    """A square."""
''',
    "pkg/shapes.pyi": """from typing import Any as Any

class Circle:
    radius: float
    def area(self) -> Any: ...

class Square: ...
""",
    "pkg/compat.py": '''"""Compat."""
import warnings

warnings.warn("compat is deprecated", DeprecationWarning)
''',
}


def test_each_file_is_parsed_once_per_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The visit parses each file once (griffe is handed that tree) and reads from it
    every fact the link needs, deprecation markers included; the link parses no file
    again, and nothing is parsed with libcst."""
    monkeypatch.setenv("APISURFACE_WORKERS", "0")
    old = write(tmp_path / "old", _PACKAGE)
    new = write(tmp_path / "new", {**_PACKAGE, "pkg/extra.py": '"""More."""\nVALUE = 1\n'})
    files = {
        str(path): path.read_text(encoding="utf-8")
        for side in (old, new)
        for path in sorted(side.rglob("*.py*"))
    }
    with counting() as parses:
        code, out, _ = run(capsys, "diff", str(old), str(new), "--package", "pkg", "--no-cache")
    assert code == 0, out
    assert "pkg.extra" in out
    whole, cst = parses.per_file(files)
    assert set(whole) == set(files)  # every file was read ...
    assert max(whole.values()) == 1, whole  # ... once
    assert cst == {}, "the deprecation markers are read from the visit's tree"
    # The facts were used: the markers, the shim, the settled branch, the constant.
    code, out, _ = run(capsys, "show", str(new), "--package", "pkg", "--no-cache")
    assert code == 0
    assert "def old() -> None  # deprecated: use fetch" in out
    assert "class Gone(object):  # deprecated: Gone is gone" in out
    assert "def size(a: int) -> int" in out
    assert "def fetch(amount: int = 2 ** 16) -> None" in out


def _case_sources() -> list[str]:
    texts: list[str] = []
    root = Path(__file__).parent
    for path in sorted([*root.glob("cases/*.case"), *root.glob("surface_cases/*.case")]):
        case = parse_case(path)
        texts.extend(text for side in (case.old, case.new) for text in side.values())
    return texts


def test_a_settled_tree_reads_as_a_parse_of_the_settled_text() -> None:
    """The visit hands griffe its one tree with the settled conditions edited in: it must
    be what parsing the rewritten text would give, positions included."""
    rewritten = 0
    for text in [*_case_sources(), _PACKAGE["pkg/__init__.py"]]:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        settled = conditions.settle_import_fallbacks(text, tree=tree)
        settled = conditions.settle_version_branches(settled, "pkg", tree=tree)
        settled = conditions.prefer_definitions(settled, "pkg", tree=tree)
        if settled is text:
            continue
        rewritten += 1
        expected = ast.dump(ast.parse(settled), include_attributes=True)
        assert ast.dump(tree, include_attributes=True) == expected, text
    assert rewritten >= 5  # the cases of settled conditions are there


def test_a_diff_does_not_import_libcst(tmp_path: Path) -> None:
    """libcst (a third of a second to import) is for the commands that rewrite code, not
    for reading a surface, even of files whose bodies raise deprecation warnings."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    old = write(tmp_path / "old", _PACKAGE)
    new = write(tmp_path / "new", {**_PACKAGE, "pkg/extra.py": '"""More."""\nVALUE = 1\n'})
    probe = (
        "import sys\nfrom apisurface.cli import main\n"
        f"for argv in (['diff', {str(old)!r}, {str(new)!r}], ['show', {str(new)!r}]):\n"
        "    try:\n        main([*argv, '--package', 'pkg', '--no-cache', '-q'])\n"
        "    except SystemExit:\n        pass\n"
        "print('LOADED', 'libcst' in sys.modules, file=sys.stderr)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "APISURFACE_WORKERS": "0"},
    )
    assert "LOADED False" in completed.stderr, completed.stderr
    assert "pkg.extra" in completed.stdout  # the diff ran ...
    assert "# deprecated: use fetch" in completed.stdout  # ... and the markers were read


_DECLARING = {
    "pkg/__init__.py": '"""A package that declares its API with export decorators."""\n',
    "pkg/util/__init__.py": "",
    "pkg/util/tf_export.py": '''"""The export decorator."""


def tf_export(*names, **apis):
    """Declare the public paths of an object."""
    return lambda obj: obj
''',
    "pkg/ops.py": '''"""Operations."""
from pkg.util.tf_export import tf_export as _tf_export

api_export = _tf_export


@api_export("math.add", v1=["math.add", "add"])
def add(x, y):
    """Add."""
    return x + y


def _mul(x, y):
    return x * y


mul = _tf_export("math.mul")(_mul)
newaxis = None
_tf_export("newaxis").export_constant(__name__, "newaxis")
''',
    "pkg/_api/__init__.py": "",
    "pkg/_api/v2/__init__.py": "",
    "pkg/_api/v2/v2.py": (
        '"""The API."""\nfrom pkg._api.v2 import math\nfrom pkg.ops import newaxis\n'
    ),
    "pkg/_api/v2/math/__init__.py": (
        '"""Math."""\nfrom pkg.ops import add\nfrom pkg.ops import mul\n'
    ),
}


def test_declared_exports_are_read_from_the_visit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Export declarations and the generated API modules are read from the visit's one
    parse of each file (the link reads their summaries)."""
    monkeypatch.setenv("APISURFACE_WORKERS", "0")
    root = write(tmp_path / "src", _DECLARING)
    files = {str(path): path.read_text(encoding="utf-8") for path in sorted(root.rglob("*.py"))}
    with counting() as parses:
        code, out, _ = run(capsys, "show", str(root), "--package", "pkg", "--no-cache")
    assert code == 0, out
    whole, _ = parses.per_file(files)
    assert set(whole) == set(files)
    assert max(whole.values()) == 1, whole
    # The declarations were read (through an alias, a wrapping call, a constant, v1) and
    # the generated modules too (they export no v1 paths: those are reported).
    assert "declared by @tf_export" in out
    assert "module pkg.math\n    def add(x, y)\n    def mul(x, y)\n" in out
    assert "module pkg\n    newaxis: None\n" in out
    assert "4 paths (pkg.compat.v1.add, " in out
    assert "module pkg.ops" not in out


_BODIES = '''"""A package whose surface needs what the link reads of function bodies."""
import warnings


def _warn_old(name):
    warnings.warn(f"{name} is deprecated", DeprecationWarning)


def synonym(name, fn):
    return fn


def one_of(items: str) -> list:
    """One of."""
    return items.split()


oneOf = synonym("oneOf", one_of)


def replaced_by(fn):
    def decorate(function):
        return fn

    return decorate


@replaced_by(one_of)
def anyOf(): ...


def later() -> int: ...


later = synonym("later", one_of)


def options(a, **kwargs):
    """Options."""
    repeat = kwargs.pop("repeat", True)
    return [a, repeat]


def build(name):
    """Build."""
    return Thing(name)


class Paren:
    def __init__(self, text):
        self.text = text


def infix(lpar="("):
    """Infix."""
    lpar = Paren(lpar) if isinstance(lpar, str) else lpar
    return lpar


def legacy():
    """Legacy."""
    _warn_old("legacy")


class Thing:
    def __init__(self, name):
        """Make."""
        warnings.warn("Thing is deprecated", DeprecationWarning)


class Base:
    def __init__(self, name):
        """Base."""
        warnings.warn("Base is deprecated", DeprecationWarning)


class Sub(Base):
    def __init__(self, name):
        super().__init__(name)


__all__ = ["Base", "Paren", "Sub", "Thing", "anyOf", "build", "infix", "later", "legacy", "oneOf",
           "one_of", "options", "replaced_by", "synonym"]
'''


def test_the_link_parses_no_function_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every reading of a body the link makes (keywords of ``**kwargs``, returned types,
    synonyms, placeholders, conversions, deprecation helpers, delegating constructors, an
    annotation left over) comes from the facts the visit read: no module of the link parses
    anything but an expression."""
    monkeypatch.setenv("APISURFACE_WORKERS", "0")
    root = write(tmp_path / "src", {"pkg/__init__.py": _BODIES})
    with counting() as parses:
        code, out, _ = run(capsys, "show", str(root), "--package", "pkg", "--no-cache")
    assert code == 0, out
    link = {
        path.name
        for path in (Path(__file__).parents[1] / "src/apisurface/surface/link").glob("*.py")
    }
    in_link = [
        (caller, text[:60])
        for (parser, text), caller in zip(parses.seen, parses.callers, strict=True)
        if parser != "eval" and caller.partition(":")[0] in link
    ]
    assert not in_link, in_link
    whole, _ = parses.per_file({str(root / "pkg/__init__.py"): _BODIES})
    statements = [parser for parser, _ in parses.seen if parser in ("ast", "compile")]
    assert len(statements) == sum(whole.values()) == 1, parses.callers
    # The facts were read: each line below rests on a reading of a body.
    for line in (
        "def anyOf(items: str) -> list",  # a placeholder made a synonym by its decorator
        "def oneOf(items: str) -> list",  # a helper returning its parameter
        "def later(items: str) -> list",  # ... over the annotation of a name bound before
        "def options(a, *, repeat=True, **kwargs) -> list",  # a keyword, the returned type
        "def build(name) -> pkg.Thing",  # a returned class
        "def infix(lpar=Paren('('))",  # a converted default
        "def legacy()  # deprecated",  # a deprecation helper
        "class Sub(pkg.Base):  # deprecated: Base is deprecated",  # a delegating __init__
    ):
        assert line in out, out


_LINES = {
    "pkg/__init__.py": '"""Pkg."""\n',
    "pkg/core.py": '"""Core."""\n\n\nclass Client:\n    """A client."""\n\n\n'
    'class Fallback:\n    """Another."""\n',
    "pkg/api.py": '"""Api."""\n\nfrom pkg.core import (\n    Client as Client,\n)\n'
    "from . import core\n\n#: Seconds to wait.\nTIMEOUT = 30\n\nLIMIT = 10  #: Per second.\n\n"
    "try:\n    from pkg.core import Client as Chosen\nexcept ImportError:\n"
    "    Chosen = Fallback\n",
}


def test_the_link_reads_no_line_of_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the link asks of a file's lines (an import statement's re-export forms over
    all its lines, ``from . import x``, Sphinx ``#:`` comments, a binding inside a block)
    comes from the facts the visit read: no module of the link (or what it calls) reads
    griffe's lines of a file."""
    monkeypatch.setenv("APISURFACE_WORKERS", "0")
    root = write(tmp_path / "src", _LINES)
    readers: list[str] = []
    original = griffe.LinesCollection.__getitem__

    def spy(self: griffe.LinesCollection, key: Path) -> list[str]:
        frame = sys._getframe(1)  # who reads the lines
        readers.append(f"{Path(frame.f_code.co_filename).parent.name}/{frame.f_code.co_name}")
        return original(self, key)

    monkeypatch.setattr(griffe.LinesCollection, "__getitem__", spy)
    code, out, _ = run(capsys, "show", str(root), "--package", "pkg", "--no-cache")
    assert code == 0, out
    assert not [reader for reader in readers if reader.startswith("link/")], readers
    # Each read: a re-export over two lines, a dot-import, both forms of Sphinx comments.
    assert "module pkg.api\n    class Client:\n    LIMIT: int\n    TIMEOUT: int\n" in out, out
    assert "module pkg.api.core\n" in out, out
