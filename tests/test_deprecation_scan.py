"""The deprecation scan reads the visit's ``ast`` tree and finds what a libcst reading of
the same rules finds (tests/cstmarkers.py): on tricky snippets, on the Python files of
every case, and on apisurface's own source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from casefile import CHANGE_CASES, SURFACE_CASES, parse_case
from cstmarkers import cst_markers

from apisurface.surface.visit.deprecations import scan_deprecations
from apisurface.surface.visit.mentions import mentions_warning

MODULE = '''"""Mod."""
import warnings

CONSTANT = 1


@decorator(
    "arg",
)
def old_function(x):
    """Old."""
    warnings.warn("use new_function", DeprecationWarning, stacklevel=2)
    return x


class Holder:
    """Holds things."""

    def old_method(self):
        warnings.warn("use keep", DeprecationWarning)

    class Inner:
        def older(self):
            warnings.warn("gone soon", FutureWarning)

    def __init__(self):
        warn_deprecated("construct Other", category=PendingDeprecationWarning)


if CONSTANT:
    warnings.warn("conditional module warning", DeprecationWarning)
'''

SNIPPETS = {
    "module": MODULE,
    "elif and else-if": (
        "def a(x):\n"
        "    if x:\n        pass\n"
        "    elif y:\n        warn('a', DeprecationWarning)\n"
        "def b(x):\n"
        "    if x:\n        pass\n"
        "    else:\n        if y:\n            warn('b', DeprecationWarning)\n"
        "def c(x):\n"
        "    if ok:\n        warn('c', DeprecationWarning)\n"
        "    else:\n        raise ValueError\n"
        "def d(x):\n"
        "    if ok:\n        warn('d', DeprecationWarning)\n"
        "    elif x:\n        raise ValueError\n"
    ),
    "loops, tries, match, conditional expressions": (
        "def a():\n    for x in warn('a', DeprecationWarning):\n        pass\n"
        "def b():\n    while True:\n        pass\n"
        "    else:\n        warn('b', DeprecationWarning)\n"
        "def c():\n    try:\n        warn('c1', DeprecationWarning)\n"
        "    except E:\n        warn('c2', DeprecationWarning)\n"
        "    else:\n        warn('c3', DeprecationWarning)\n"
        "    finally:\n        warn('c4', DeprecationWarning)\n"
        "def d():\n    try:\n        pass\n    finally:\n        warn('d', FutureWarning)\n"
        "def e(x):\n    match x:\n        case 1:\n            warn('e', DeprecationWarning)\n"
        "def f(x):\n    return warn('f', DeprecationWarning) if x else None\n"
        "def g():\n    with catch_warnings():\n        warn('g', DeprecationWarning)\n"
        "def h():\n    lam = lambda: warn('h', DeprecationWarning)\n"
    ),
    "scopes": (
        "def outer():\n    def inner():\n        warn('inner', DeprecationWarning)\n"
        "    if x:\n        def hidden():\n            warn('hidden', DeprecationWarning)\n"
        "    class Local:\n        def method(self):\n            warn('m', DeprecationWarning)\n"
        "@warn_on_use(DeprecationWarning)\nclass K:\n    pass\n"
        "def defaults(a=warn('default', DeprecationWarning), *, b: int = 1) -> None:\n"
        "    pass\n"
        "class N:\n    def __new__(cls):\n        warnings.warn(category=DeprecationWarning)\n"
        "async def coroutine():\n    async for x in y:\n        warn('af', DeprecationWarning)\n"
        "    warn('async', DeprecationWarning)\n"
    ),
    "not issuing, messages": (
        "warnings.filterwarnings('ignore', category=DeprecationWarning)\n"
        "warnings.simplefilter('ignore', DeprecationWarning)\n"
        "def a():\n    warn('one ' 'two', DeprecationWarning)\n"
        "def b():\n    warn(f'{x}', 'second', DeprecationWarning)\n"
        "def c():\n    warn(b'bytes', DeprecationWarning)\n"
        "def d():\n    warn(('paren'), DeprecationWarning)\n"
        "def e():\n    warn(msg, *args, **{'category': DeprecationWarning})\n"
        "def f():\n    warn(first(warn('nested', DeprecationWarning)), DeprecationWarning)\n"
        "def g():\n    warn('a', DeprecationWarning); warn('b', DeprecationWarning)\n"
        "def h():\n    x = [warn('l1', FutureWarning), warn('l2', FutureWarning)]\n"
        "def i():\n    warn(\n        'long'\n        '  text',\n"
        "        DeprecationWarning,\n    )\n"
        "def j():\n    warnings.warn('ünïcode \\u00e9', DeprecationWarning)\n"
        "def k():\n    get()(x, DeprecationWarning)\n"
        "def m():\n    warn(r'raw\\d', category=warnings.DeprecationWarning)\n"
    ),
    "line endings": "def b():\r    if x:\r        pass\r    else:\r        if y:\r"
    "            warn('b', DeprecationWarning)\r\n"
    "def a():\r\n    if x:\r\n        pass\r\n"
    "    elif y:\r\n        warn('a', DeprecationWarning)\r\n",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_the_scan_finds_what_the_libcst_reading_finds(name: str) -> None:
    code = SNIPPETS[name]
    assert scan_deprecations(code) == cst_markers(code)


def test_the_snippets_reach_each_rule() -> None:
    found = {name: scan_deprecations(code) for name, code in SNIPPETS.items()}
    assert set(found["module"]) == {
        "old_function",
        "Holder.old_method",
        "Holder.Inner.older",
        "Holder.__init__",
        "Holder",
    }
    assert set(found["elif and else-if"]) == {"c"}
    assert set(found["loops, tries, match, conditional expressions"]) == {"c", "d", "g", "h"}
    assert found["loops, tries, match, conditional expressions"]["c"] == "c1"
    assert set(found["scopes"]) == {
        "outer.Local.method",
        "K",
        "defaults",
        "N.__new__",
        "N",
        "coroutine",
    }
    messages = found["not issuing, messages"]
    assert "" not in messages  # filters issue nothing
    assert messages["a"] == "raises DeprecationWarning"  # one ' ' two: not one literal
    assert messages["b"] == "second"  # the first positional plain string
    assert messages["c"] == "raises DeprecationWarning"
    assert messages["d"] == "paren"
    assert messages["f"] == "raises DeprecationWarning"  # the outer call is read first
    assert messages["g"] == "a"
    assert messages["h"] == "l1"
    assert messages["j"] == "ünïcode é"
    assert "e" not in messages and "k" not in messages
    assert messages["i"] == "raises DeprecationWarning" and messages["m"] == "raw\\d"


def _python_files() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for path in (*CHANGE_CASES, *SURFACE_CASES):
        case = parse_case(path)
        for side in (case.old, case.new):
            found += [
                (f"{path.name}:{name}", text)
                for name, text in side.items()
                if name.endswith((".py", ".pyi"))
            ]
    source = Path(__file__).parent.parent / "src" / "apisurface"
    found += [(str(path), path.read_text()) for path in sorted(source.rglob("*.py"))]
    return found


def test_every_case_file_and_our_own_source_read_alike() -> None:
    compared = 0
    differing: list[str] = []
    for name, text in _python_files():
        if not mentions_warning(text):
            continue  # never scanned (apisurface.surface.visit.markers.scan_text)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        if scan_deprecations(text, tree=tree) != cst_markers(text):
            differing.append(name)
        compared += 1
    assert compared >= 20
    assert differing == []
