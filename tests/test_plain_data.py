"""Nothing apisurface reads can name code: no pickle, marshal, shelve or the like in src/.

A cache restored in CI may have been written by an untrusted pull request, and worker
processes hand back what they parsed from untrusted source. Both travel as plain data
(JSON, checked on read: surface/visit/summary.py); a format that can name a callable to run on
load is not imported anywhere in the package, directly, lazily or through
``importlib``/``__import__``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import apisurface

PACKAGE = Path(apisurface.__file__).parent

CODE_CAPABLE = frozenset(
    {
        "pickle",
        "_pickle",
        "cPickle",
        "pickletools",
        "copyreg",
        "marshal",
        "shelve",
        "dill",
        "cloudpickle",
        "jsonpickle",
        "joblib",
        "yaml",  # yaml.load builds arbitrary objects with the default loaders
        "multiprocessing.reduction",
    }
)


def _forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in CODE_CAPABLE)


def code_capable_imports(path: Path) -> list[str]:
    """Each import of a code-capable format in ``path``, as ``line: name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Call) and node.args:
            function = node.func
            called = (
                function.id
                if isinstance(function, ast.Name)
                else function.attr
                if isinstance(function, ast.Attribute)
                else ""
            )
            argument = node.args[0]
            if called in ("__import__", "import_module") and isinstance(argument, ast.Constant):
                names = [str(argument.value)]
        found += [f"{node.lineno}: {name}" for name in names if _forbidden(name)]
    return found


def test_no_module_of_the_package_imports_a_code_capable_format() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50
    offenders = {
        str(path.relative_to(PACKAGE)): found
        for path in modules
        if (found := code_capable_imports(path))
    }
    assert offenders == {}


def test_the_check_finds_each_spelling(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import pickle\n"
        "from marshal import loads\n"
        "import os, shelve as store\n"
        "def f():\n"
        "    import importlib\n"
        "    importlib.import_module('dill')\n"
        "    __import__('_pickle')\n"
        "import json\n"
        "from . import pickle_free\n",
        encoding="utf-8",
    )
    assert code_capable_imports(sample) == [
        "1: pickle",
        "2: marshal",
        "2: marshal.loads",
        "3: shelve",
        "6: dill",
        "7: _pickle",
    ]
