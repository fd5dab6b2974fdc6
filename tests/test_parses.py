"""How often a run parses each file (the harness in tests/parsecount.py)."""

from __future__ import annotations

import ast

import griffe
import libcst
from parsecount import counting

TEXT = "import os\n\n\ndef f(a: int) -> int:\n    return a\n"


def test_the_harness_counts_whole_module_parses_and_not_expressions() -> None:
    with counting() as parses:
        griffe.visit("m", filepath=__import__("pathlib").Path("m.py"), code=TEXT)
        ast.parse("a + b", mode="eval")
        ast.parse("def f(a: int) -> int:\n    return a\n")  # an excerpt, not the module
        libcst.parse_module(TEXT)
    whole, cst = parses.per_file({"m.py": TEXT, "other.py": "x = 1\n"})
    assert whole == {"m.py": 1}
    assert cst == {"m.py": 1}
