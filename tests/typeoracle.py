"""mypy as the oracle of the annotation relation (POLICY.md section 3, types).

One generated module holds every assignability question of a batch, one function per line
(``def q_7_0(x: OLD) -> None: y: NEW = x``), and goes through ``mypy.api.run`` once; each
``assignment`` error is mapped back to its line. For each pair mypy is asked four
questions: OLD -> NEW and NEW -> OLD, once as written (``Any`` consistent with every type)
and once with every ``Any`` (written or implied) replaced by an opaque class of its own.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from mypy.api import run as _run

from apisurface.compare.annotations import Relation

# The classes of the generated package and their bases, as apisurface's ``bases_of`` sees
# them. ``Opaque`` stands for ``Any`` in the strict reading.
PACKAGE = """
import typing
class Base: ...
class Child(Base): ...
class GrandChild(Child): ...
class Other: ...
class IntList(list[int]): ...
class Opaque: ...
class IntCall(typing.Protocol):
    statistics: int
    def __call__(self, *args: typing.Any, **kwargs: typing.Any) -> int: ...
"""
BASES: dict[str, tuple[str, ...]] = {
    "pkg.Base": (),
    "pkg.Child": ("pkg.Base",),
    "pkg.GrandChild": ("pkg.Child",),
    "pkg.Other": (),
    "pkg.IntList": ("list[int]",),
    # A class with ``__call__`` names the callable type it is (as apisurface's diff does).
    "pkg.IntCall": ("collections.abc.Callable[..., int]",),
}
OPAQUE = "pkg.Opaque"

# How many type parameters a generic has, to spell a bare generic with its implied ``Any``
# arguments (a fact about typeshed, independent of the code under test).
_ARITY = {
    "list": 1,
    "set": 1,
    "frozenset": 1,
    "dict": 2,
    "collections.deque": 1,
    "collections.defaultdict": 2,
    "typing.AbstractSet": 1,
    "collections.abc.Sequence": 1,
    "collections.abc.MutableSequence": 1,
    "collections.abc.Iterable": 1,
    "collections.abc.Iterator": 1,
    "collections.abc.Collection": 1,
    "collections.abc.Container": 1,
    "collections.abc.Reversible": 1,
    "collections.abc.Set": 1,
    "collections.abc.MutableSet": 1,
    "collections.abc.Mapping": 2,
    "collections.abc.MutableMapping": 2,
    "collections.abc.Awaitable": 1,
    "os.PathLike": 1,
    "typing.IO": 1,
    "typing.List": 1,
    "typing.Dict": 2,
    "typing.Sequence": 1,
    "typing.Mapping": 2,
    "typing.Iterable": 1,
}
_HEADER = (
    "import collections\nimport collections.abc\nimport os\nimport pathlib\nimport typing\n"
    "import pkg\n"
)
_ERROR = re.compile(r":(\d+): error: (.*)")


def strict_spelling(text: str) -> str:
    """``text`` with every ``Any`` (written, or implied by a bare generic or ``...``
    parameters) spelled as the opaque class."""
    return ast.unparse(_Opaque().visit(ast.parse(text, mode="eval"))).strip()


class _Opaque(ast.NodeTransformer):
    def opaque(self) -> ast.expr:
        return ast.parse(OPAQUE, mode="eval").body

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        origin = ast.unparse(node.value)
        if origin in ("typing.Literal", "typing.Annotated"):
            return node
        if origin.endswith("Callable") and isinstance(node.slice, ast.Tuple):
            params, ret = node.slice.elts
            if isinstance(params, ast.Constant) and params.value is Ellipsis:
                params = ast.List([self.opaque()])
            else:
                params = self.visit(params)
            node.slice = ast.Tuple([params, self.visit(ret)])
            return node
        node.slice = self.visit(node.slice)
        return node

    def bare(self, node: ast.expr) -> ast.AST:
        name = ast.unparse(node)
        if name == "typing.Any":
            return self.opaque()
        arity = _ARITY.get(name)
        if arity is not None:
            args = [self.opaque() for _ in range(arity)]
            return ast.Subscript(node, args[0] if arity == 1 else ast.Tuple(args))
        if name in ("tuple", "typing.Tuple"):
            return ast.Subscript(node, ast.Tuple([self.opaque(), ast.Constant(...)]))
        if name in ("type", "typing.Type"):
            return ast.Subscript(node, self.opaque())
        if name.endswith("Callable"):
            return ast.Subscript(node, ast.Tuple([ast.List([self.opaque()]), self.opaque()]))
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.bare(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        return self.bare(node)


@dataclass(frozen=True, slots=True)
class Verdict:
    """mypy's answers for one pair."""

    forward: bool  # OLD assignable to NEW (NEW accepts every OLD value)
    backward: bool
    strict_forward: bool
    strict_backward: bool

    @property
    def relation(self) -> Relation:
        """The relation apisurface should report, derived from mypy's answers."""
        if self.forward and self.backward:
            if self.strict_forward and self.strict_backward:
                return Relation.EQUAL
            return Relation.REFINED
        if self.forward:
            return Relation.WIDER
        if self.backward:
            return Relation.NARROWER
        return Relation.INCOMPATIBLE


def ask_mypy(pairs: list[tuple[str, str]], folder: Path, cache: Path) -> list[Verdict]:
    """mypy's verdict on every pair, from one mypy run."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pkg.py").write_text(PACKAGE, encoding="utf-8")
    config = folder / "mypy.ini"
    config.write_text("[mypy]\n", encoding="utf-8")
    lines = _HEADER.splitlines()
    questions: dict[int, tuple[int, int]] = {}
    for index, (old, new) in enumerate(pairs):
        strict_old, strict_new = strict_spelling(old), strict_spelling(new)
        asked = [(old, new), (new, old), (strict_old, strict_new), (strict_new, strict_old)]
        for which, (source, target) in enumerate(asked):
            lines.append(f"def q_{index}_{which}(x: {source}) -> None: y: {target} = x")
            questions[len(lines)] = (index, which)
    check = folder / "check.py"
    check.write_text("\n".join(lines) + "\n", encoding="utf-8")
    limit = sys.getrecursionlimit()  # mypy raises it; hypothesis wants it back
    try:
        stdout, stderr, _ = _run(
            [
                "--config-file",
                str(config),
                "--cache-dir",
                str(cache),
                "--python-version",
                "3.11",
                "--no-error-summary",
                "--show-error-codes",
                "--no-pretty",
                str(check),
                str(folder / "pkg.py"),
            ]
        )
    finally:
        sys.setrecursionlimit(limit)
    answers = [[True] * 4 for _ in pairs]
    unexpected: list[str] = []
    for line in stdout.splitlines():
        match = _ERROR.search(line)
        if match is None:
            continue
        where = questions.get(int(match.group(1)))
        # A strict spelling may be no valid type (``os.PathLike[Opaque]``: the parameter
        # is constrained to str and bytes, so no opaque argument exists); mypy's answer then
        # is "not assignable", right for ``os.PathLike`` -> ``os.PathLike[str]`` but not for
        # a pair that keeps the bare generic on both sides, so the generated pairs never
        # use a bare constrained generic (the table has the cases that matter).
        if where is None or ("[assignment]" not in match.group(2) and where[1] < 2):
            unexpected.append(line)
            continue
        answers[where[0]][where[1]] = False
    if unexpected or stderr:
        raise AssertionError(
            "mypy could not read the questions:\n" + "\n".join(unexpected) + stderr
        )
    return [Verdict(*answer) for answer in answers]


def explicit_reexports(text: str) -> str:
    """An ``__init__.py`` with ``from .m import x`` spelled ``from .m import x as x``: the
    typing spec (and POLICY.md 2.8) re-exports both forms in an ``__init__.py``; mypy's
    ``--no-implicit-reexport`` only the second."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    lines = text.splitlines()
    for node in reversed(tree.body):
        if isinstance(node, ast.ImportFrom) and node.level and node.end_lineno is not None:
            names = ", ".join(
                f"{item.name} as {item.asname or item.name}" if item.name != "*" else "*"
                for item in node.names
            )
            spelled = f"from {'.' * node.level}{node.module or ''} import {names}"
            lines[node.lineno - 1 : node.end_lineno] = [spelled]
    return "\n".join(lines) + "\n"
