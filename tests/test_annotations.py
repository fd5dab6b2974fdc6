"""Annotation normalisation and variance (POLICY.md section 3, types)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typeoracle import BASES, ask_mypy

from apisurface.compare.annotations import Relation, normalize, relate


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("typing.List[int]", "list[int]"),
        ("typing.Optional[typing.List[int]]", "list[int] | None"),
        ("typing.Union[None, str, int]", "int | str | None"),
        ("int | None", "int | None"),
        ("None | int", "int | None"),
        ("typing.Dict[str, typing.Any]", "dict[str, typing.Any]"),
        ("typing_extensions.Literal['b', 'a']", "typing.Literal['a', 'b']"),
        ("'pkg.Foo'", "pkg.Foo"),
        ("typing.Sequence[int]", "collections.abc.Sequence[int]"),
        ("typing.Union[int, typing.Any]", "int | typing.Any"),
        ("typing.Tuple[()]", "tuple[()]"),
        ("builtins.str", "str"),
        ("typing.ContextManager[None]", "contextlib.AbstractContextManager[None]"),
        ("typing.IO[typing.Any]", "typing.IO"),
        ("typing.Final[typing.List[int]]", "list[int]"),
        ("typing.ClassVar[int]", "int"),
        ("typing.Annotated[bool, annotated_doc.Doc('Case sensitive.')]", "bool"),
        ("typing_extensions.Annotated[typing.List[int], 'meta']", "list[int]"),
        ("typing.Tuple[typing.Any, ...]", "tuple"),
        ("typing.Dict[str, typing.Any]", "dict[str, typing.Any]"),
        ("typing.Callable[..., typing.Any]", "collections.abc.Callable"),
        ("typing.Union[int, typing.Union[str, bytes]]", "bytes | int | str"),
        ("not ( valid", "not ( valid"),
    ],
)
def test_normalize(written: str, canonical: str) -> None:
    assert normalize(written) == canonical


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        ("int", "int", Relation.EQUAL),
        ("typing.Optional[int]", "int | None", Relation.EQUAL),
        ("int", "int | None", Relation.WIDER),
        ("int | str", "int", Relation.NARROWER),
        ("int", "str", Relation.INCOMPATIBLE),
        ("int", "float", Relation.WIDER),
        ("bool", "int", Relation.WIDER),
        ("list[int]", "collections.abc.Sequence[int]", Relation.WIDER),
        ("list[int]", "typing.Iterable[int]", Relation.WIDER),
        ("list[int]", "list[float]", Relation.INCOMPATIBLE),
        ("collections.abc.Sequence[int]", "collections.abc.Sequence[float]", Relation.WIDER),
        ("dict[str, int]", "collections.abc.Mapping[str, int]", Relation.WIDER),
        ("int", "typing.Any", Relation.REFINED),
        ("int", "object", Relation.WIDER),
        ("typing.Literal['a']", "typing.Literal['a', 'b']", Relation.WIDER),
        ("typing.Literal['a']", "str", Relation.WIDER),
        ("str", "typing.Literal['a']", Relation.NARROWER),
        # TypeGuard[X] / TypeIs[X] are bools that narrow (TypeIs: only in typing_extensions
        # before 3.13, so not in the mypy table below)
        ("bool", "typing_extensions.TypeIs[int]", Relation.NARROWER),
        ("typing_extensions.TypeIs[int]", "bool", Relation.WIDER),
        ("typing_extensions.TypeIs[bool]", "typing_extensions.TypeIs[int]", Relation.INCOMPATIBLE),
        # an expanded generic alias given arguments: its type variables are already Any
        ("(int | list[typing.Any])[str]", "int | list[typing.Any] | None", Relation.WIDER),
    ],
)
def test_relate(old: str, new: str, relation: Relation) -> None:
    assert relate(old, new) is relation


def test_relate_uses_package_classes() -> None:
    bases = {"pkg.Child": ("pkg.Base",), "pkg.Base": ()}

    def bases_of(path: str) -> tuple[str, ...]:
        return bases.get(path, ())

    assert relate("pkg.Child", "pkg.Base", bases_of) is Relation.WIDER
    assert relate("pkg.Base", "pkg.Child", bases_of) is Relation.NARROWER
    assert relate("pkg.Base", "pkg.Other", bases_of) is Relation.INCOMPATIBLE


def test_relate_survives_cyclic_bases() -> None:
    def bases_of(path: str) -> tuple[str, ...]:
        return {"pkg.A": ("pkg.B",), "pkg.B": ("pkg.A",)}.get(path, ())

    assert relate("pkg.A", "pkg.C", bases_of) is Relation.INCOMPATIBLE


# --- mypy as the oracle -----------------------------------------------------------------
#
# Each row is a pair (old, new) and the relation written out by hand; the test checks that
# apisurface and mypy (tests/typeoracle.py) both say so. All pairs go through one mypy run.

C = "collections.abc."
ORACLE_TABLE: list[tuple[str, str, Relation]] = [
    # spellings
    ("typing.List[int]", "list[int]", Relation.EQUAL),
    ("typing.Optional[int]", "typing.Union[int, None]", Relation.EQUAL),
    ("int | str | None", "None | str | int", Relation.EQUAL),
    ("int | bool", "int", Relation.EQUAL),
    ("float | int", "float", Relation.EQUAL),
    ("bool", "typing.Literal[True, False]", Relation.EQUAL),
    # nominal classes, numbers, None
    ("pkg.Child", "pkg.Base", Relation.WIDER),
    ("pkg.GrandChild", "pkg.Base", Relation.WIDER),
    ("pkg.Base", "pkg.Other", Relation.INCOMPATIBLE),
    ("int", "float", Relation.WIDER),
    ("bool", "complex", Relation.WIDER),
    ("float", "int", Relation.NARROWER),
    ("int", "int | None", Relation.WIDER),
    ("int", "object", Relation.WIDER),
    ("object", "int", Relation.NARROWER),
    ("bytearray", "bytes", Relation.INCOMPATIBLE),
    ("typing.NoReturn", "None", Relation.WIDER),
    # protocols
    ("int", "typing.SupportsIndex", Relation.WIDER),
    ("int", "typing.SupportsInt", Relation.WIDER),
    ("float", "typing.SupportsIndex", Relation.INCOMPATIBLE),
    ("float", "typing.SupportsFloat", Relation.WIDER),
    ("complex", "typing.SupportsAbs[float]", Relation.WIDER),
    ("int", "typing.SupportsAbs[int]", Relation.WIDER),
    ("bytes", "typing.SupportsBytes", Relation.WIDER),
    ("str", "typing.SupportsInt", Relation.INCOMPATIBLE),
    ("typing.Literal[1]", "typing.SupportsIndex", Relation.WIDER),
    ("str", C + "Hashable", Relation.WIDER),
    ("list[int]", C + "Hashable", Relation.INCOMPATIBLE),
    ("tuple[int, str]", C + "Hashable", Relation.WIDER),
    ("pkg.Base", C + "Hashable", Relation.WIDER),
    ("pkg.IntList", C + "Hashable", Relation.INCOMPATIBLE),
    ("None", C + "Hashable", Relation.WIDER),
    ("str", C + "Sized", Relation.WIDER),
    ("dict[str, int]", C + "Container[str]", Relation.WIDER),
    ("dict[str, int]", C + "Reversible[str]", Relation.WIDER),
    (C + "Mapping[str, int]", C + "Reversible[str]", Relation.INCOMPATIBLE),
    (C + "Generator[int, None, None]", C + "Iterator[int]", Relation.WIDER),
    (C + "Coroutine[None, None, int]", C + "Awaitable[int]", Relation.WIDER),
    # the collections.abc hierarchy and variance
    ("list[int]", C + "Sequence[int]", Relation.WIDER),
    ("list[int]", C + "MutableSequence[int]", Relation.WIDER),
    ("pkg.IntList", C + "Sequence[int]", Relation.WIDER),
    ("str", C + "Sequence[str]", Relation.WIDER),
    ("bytes", C + "Sequence[int]", Relation.WIDER),
    ("dict[str, int]", C + "MutableMapping[str, int]", Relation.WIDER),
    (C + "MutableMapping[str, int]", C + "Mapping[str, int]", Relation.WIDER),
    (C + "Mapping[str, int]", C + "Collection[str]", Relation.WIDER),
    ("set[int]", C + "Set[int]", Relation.WIDER),
    ("typing.AbstractSet[int]", C + "Set[int]", Relation.EQUAL),
    ("frozenset[int]", C + "MutableSet[int]", Relation.INCOMPATIBLE),
    ("list[int]", "list[float]", Relation.INCOMPATIBLE),
    (C + "Sequence[int]", C + "Sequence[float]", Relation.WIDER),
    (C + "Mapping[str, int]", C + "Mapping[str, float]", Relation.WIDER),
    (C + "Mapping[bool, int]", C + "Mapping[int, int]", Relation.INCOMPATIBLE),
    ("dict[str, pkg.Child]", "dict[str, pkg.Base]", Relation.INCOMPATIBLE),
    (C + "Sequence[pkg.Child]", C + "Iterable[pkg.Base]", Relation.WIDER),
    ("collections.defaultdict[str, int]", C + "Mapping[str, int]", Relation.WIDER),
    ("collections.Counter[str]", "dict[str, int]", Relation.WIDER),
    ("pathlib.Path", "os.PathLike[str]", Relation.WIDER),
    ("pathlib.Path", "typing.SupportsBytes", Relation.WIDER),  # PurePath.__bytes__
    ("pathlib.Path | typing.SupportsBytes", "typing.SupportsBytes", Relation.EQUAL),
    # tuples
    ("tuple[int, str]", "tuple[int, str | None]", Relation.WIDER),
    ("tuple[int, int]", "tuple[int, ...]", Relation.WIDER),
    ("tuple[int, ...]", "tuple[int, int]", Relation.NARROWER),
    ("tuple[()]", C + "Sequence[int]", Relation.WIDER),
    ("tuple[int, str]", C + "Sequence[int | str]", Relation.WIDER),
    ("tuple[int]", "tuple[int, int]", Relation.INCOMPATIBLE),
    # callables
    (C + "Callable[[], int]", C + "Callable[[], int | str]", Relation.WIDER),
    (C + "Callable[[int], None]", C + "Callable[[bool], None]", Relation.WIDER),
    (C + "Callable[[pkg.Base], pkg.Child]", C + "Callable[[pkg.Child], pkg.Base]", Relation.WIDER),
    (C + "Callable[[int], None]", C + "Callable[[int, int], None]", Relation.INCOMPATIBLE),
    (C + "Callable[[int], int]", C + "Callable[..., int]", Relation.REFINED),
    ("type[pkg.Child]", C + "Callable[..., pkg.Base]", Relation.WIDER),
    # TypeGuard[X] is a bool (asked as a return: mypy reads it as bool elsewhere)
    (
        C + "Callable[[object], bool]",
        C + "Callable[[object], typing.TypeGuard[int]]",
        Relation.NARROWER,
    ),
    (
        C + "Callable[[object], typing.TypeGuard[int]]",
        C + "Callable[[object], bool]",
        Relation.WIDER,
    ),
    (
        C + "Callable[[object], typing.TypeGuard[bool]]",
        C + "Callable[[object], typing.TypeGuard[int]]",
        Relation.WIDER,
    ),
    (
        C + "Callable[[object], typing.TypeGuard[int]]",
        C + "Callable[[object], typing.TypeGuard[str]]",
        Relation.INCOMPATIBLE,
    ),
    # a protocol with __call__ (and more) is a callable
    (C + "Callable[..., int]", "pkg.IntCall", Relation.NARROWER),
    (C + "Callable[..., float]", "pkg.IntCall", Relation.NARROWER),
    (C + "Callable", "pkg.IntCall", Relation.NARROWER),
    (C + "Callable[..., str]", "pkg.IntCall", Relation.INCOMPATIBLE),
    ("pkg.IntCall", C + "Callable[..., int]", Relation.WIDER),
    # type[X]
    ("type[pkg.Child]", "type[pkg.Base]", Relation.WIDER),
    ("type[pkg.Base]", "type[pkg.Child] | type[pkg.Other]", Relation.INCOMPATIBLE),
    ("type[pkg.Child | pkg.Other]", "type[pkg.Base | pkg.Other]", Relation.WIDER),
    # Literal
    ("typing.Literal['a']", "str", Relation.WIDER),
    ("typing.Literal['a']", "typing.Literal['a', 'b']", Relation.WIDER),
    ("typing.Literal['a'] | typing.Literal['b']", "typing.Literal['b', 'a']", Relation.EQUAL),
    ("typing.Literal[1]", "float", Relation.WIDER),
    ("typing.Literal['a']", "typing.LiteralString", Relation.WIDER),
    ("typing.Literal[1]", "str", Relation.INCOMPATIBLE),
    ("str", "typing.Literal['a']", Relation.NARROWER),
    # gradual typing: Any written, or implied by a bare generic, is a refinement
    ("typing.Any", "int", Relation.REFINED),
    ("int", "typing.Any", Relation.REFINED),
    ("typing.Any", "object", Relation.REFINED),
    ("list", "list[int]", Relation.REFINED),
    ("list[typing.Any]", "list[str]", Relation.REFINED),
    ("os.PathLike", "os.PathLike[str]", Relation.REFINED),
    ("typing.IO", "typing.IO[bytes]", Relation.REFINED),
    ("dict[str, typing.Any]", "dict[str, int]", Relation.REFINED),
    ("tuple", "tuple[int, str]", Relation.REFINED),
    ("type", "type[pkg.Base]", Relation.REFINED),
    (C + "Callable", C + "Callable[[int], str]", Relation.REFINED),
    ("int | typing.Any", "int", Relation.REFINED),
    ("list[typing.Any]", C + "Sequence[int]", Relation.WIDER),
    (C + "Sequence[typing.Any]", "list[int]", Relation.NARROWER),
    ("int | typing.Any", "str", Relation.NARROWER),
    ("int", "str | list[typing.Any]", Relation.INCOMPATIBLE),
]


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the oracle tests: typeshed is analysed once."""
    return tmp_path_factory.mktemp("mypy-cache")


def test_relation_agrees_with_mypy(tmp_path: Path, mypy_cache: Path) -> None:
    pairs = [(old, new) for old, new, _ in ORACLE_TABLE]
    verdicts = ask_mypy(pairs, tmp_path, mypy_cache)
    wrong = []
    for (old, new, expected), verdict in zip(ORACLE_TABLE, verdicts, strict=True):
        ours = relate(old, new, _package_bases)
        if not (ours is verdict.relation is expected):
            wrong.append(f"{old} -> {new}: expected {expected}, ours {ours}, mypy {verdict}")
    assert not wrong, "\n".join(wrong)


def _package_bases(path: str) -> tuple[str, ...]:
    return BASES.get(path, ())


# --- property: apisurface agrees with mypy on generated pairs ---------------------------
#
# Each example is a batch of pairs checked by one mypy run; ``make test`` runs
# APISURFACE_FUZZ_EXAMPLES // 5 batches of 25 pairs (default 2), ``make fuzz`` 400.

FUZZ = settings(
    max_examples=max(1, int(os.environ.get("APISURFACE_FUZZ_EXAMPLES", "10")) // 5),
    # Fixed examples in `make test` (a gate must not fail at random); `make fuzz`
    # (APISURFACE_FUZZ_EXAMPLES set) explores new ones on every run.
    derandomize="APISURFACE_FUZZ_EXAMPLES" not in os.environ,
    deadline=None,
    database=None,
    # No shrinking: each step is a mypy run; the failure lists every disagreeing pair.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)

_CLASSES = ["pkg.Base", "pkg.Child", "pkg.GrandChild", "pkg.Other", "int", "bool", "str"]
_LEAVES = [
    *_CLASSES,
    "float",
    "complex",
    "bytes",
    "bytearray",
    "None",
    "object",
    "pkg.IntList",
    "typing.Any",
    "typing.Literal['a']",
    "typing.Literal['a', 'b']",
    "typing.Literal[1]",
    "typing.Literal[True]",
    "typing.SupportsIndex",
    "typing.SupportsInt",
    "typing.SupportsFloat",
    "typing.SupportsBytes",
    "typing.SupportsAbs[int]",
    C + "Hashable",
    C + "Sized",
    C + "Awaitable[int]",
    C + "Coroutine[None, None, int]",
    "pathlib.Path",
    "os.PathLike[str]",  # not bare: see _Opaque in typeoracle.py
    "list",
    "dict",
    "tuple",
    C + "Sequence",
    C + "Callable",
]
_FAMILIES = [
    [
        "list",
        "typing.List",
        C + "MutableSequence",
        C + "Sequence",
        C + "Collection",
        C + "Iterable",
        C + "Iterator",
        C + "Reversible",
        C + "Container",
        "set",
        "frozenset",
        C + "Set",
        C + "MutableSet",
        "typing.AbstractSet",
    ],
    ["dict", C + "MutableMapping", C + "Mapping", "typing.Dict", "collections.defaultdict"],
]
# Related leaves, so that edits also narrow (a subclass, a member of a union).
_NEIGHBOURS = {
    "pkg.Base": ["pkg.Child", "pkg.GrandChild"],
    "pkg.Child": ["pkg.Base", "pkg.GrandChild"],
    "pkg.GrandChild": ["pkg.Child"],
    "int": ["bool", "float", "typing.Literal[1]", "typing.SupportsIndex"],
    "float": ["int", "complex", "typing.SupportsFloat"],
    "str": ["typing.Literal['a']", "typing.Literal['a', 'b']", C + "Sequence[str]"],
    "object": ["int", "pkg.Base", C + "Hashable"],
    "typing.SupportsIndex": ["int", "bool"],
    "typing.SupportsFloat": ["float", "int"],
    "typing.SupportsInt": ["float", "str"],
    C + "Hashable": ["str", "int", "pkg.Base"],
    C + "Sized": ["str", "list[int]", "dict[str, int]"],
    "bytes": ["bytearray", C + "Sequence[int]"],
    "typing.Literal['a', 'b']": ["typing.Literal['a']", "str"],
}
_ONE = _FAMILIES[0]
_TWO = _FAMILIES[1]


def _types(with_type: bool) -> st.SearchStrategy[str]:
    """Annotations from a small grammar; ``with_type`` adds ``type[X]`` and leaves out
    callables with listed parameters (a class's constructor signature is not known here)."""
    leaves = st.sampled_from(_LEAVES)

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        forms = [
            st.tuples(st.sampled_from(_ONE), inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(st.sampled_from(_TWO), inner, inner).map(lambda t: f"{t[0]}[{t[1]}, {t[2]}]"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]} | {t[1]}"),
            inner.map(lambda t: f"typing.Optional[{t}]"),
            inner.map(lambda t: f"tuple[{t}, ...]"),
            st.tuples(inner, inner).map(lambda t: f"tuple[{t[0]}, {t[1]}]"),
            inner.map(lambda t: f"{C}Callable[..., {t}]"),
        ]
        if with_type:
            forms.append(st.sampled_from(_CLASSES).map(lambda t: f"type[{t}]"))
        else:
            forms.append(st.tuples(inner, inner).map(lambda t: f"{C}Callable[[{t[0]}], {t[1]}]"))
        return st.one_of(forms)

    return st.recursive(leaves, extend, max_leaves=4)


def _type_positions(node: ast.expr) -> list[ast.expr]:
    """The sub-expressions of an annotation that are types (not Literal values, not ``...``;
    not the class in ``type[X]``, which must stay a class)."""
    found = [node]
    if isinstance(node, ast.BinOp):
        found += _type_positions(node.left) + _type_positions(node.right)
    elif isinstance(node, ast.Subscript) and ast.unparse(node.value) not in (
        "type",
        "typing.Literal",
        "os.PathLike",  # its parameter is constrained to str and bytes
    ):
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for item in items:
            for element in item.elts if isinstance(item, ast.List) else [item]:
                if not (isinstance(element, ast.Constant) and element.value is Ellipsis):
                    found += _type_positions(element)
    return found


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[str, str]:
    """An (old, new) pair: mostly a small edit of OLD (a part replaced by a neighbour, a
    generic's origin swapped within its family, its arguments dropped), sometimes unrelated."""
    with_type = draw(st.booleans())
    types = _types(with_type)
    old = draw(types)
    if draw(st.integers(0, 4)) == 0:
        return old, draw(types)
    tree = ast.parse(old, mode="eval")
    positions = _type_positions(tree.body)
    chosen = positions[draw(st.sampled_from(range(len(positions))))]
    part = ast.unparse(chosen)
    choices = [draw(types), "typing.Any", "object", f"{part} | None", f"{part} | int"]
    choices += _NEIGHBOURS.get(part, [])
    if isinstance(chosen, ast.BinOp):  # a union: one of its members
        choices += [ast.unparse(chosen.left), ast.unparse(chosen.right)]
    if isinstance(chosen, ast.Subscript) and not ast.unparse(chosen.value).endswith("Literal"):
        origin = ast.unparse(chosen.value)
        if origin in (*_ONE, *_TWO, "tuple", C + "Callable"):
            choices.append(origin)  # bare: arguments are Any
        for family in _FAMILIES:
            if origin in family:
                args = ast.unparse(chosen.slice)
                choices += [f"{other}[{args}]" for other in family]
    replacement = draw(st.sampled_from(choices))

    class Replace(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            if node is chosen:
                return ast.parse(replacement, mode="eval").body
            return super().visit(node)

    new = ast.unparse(Replace().visit(tree))
    return (new, old) if draw(st.booleans()) else (old, new)  # edits mostly widen


@FUZZ
@given(st.lists(_pairs(), min_size=25, max_size=25))
def test_relation_agrees_with_mypy_on_generated_pairs(
    tmp_path_factory: pytest.TempPathFactory, mypy_cache: Path, pairs: list[tuple[str, str]]
) -> None:
    verdicts = ask_mypy(pairs, tmp_path_factory.mktemp("oracle"), mypy_cache)
    wrong = [
        f"{old} -> {new}: ours {relate(old, new, _package_bases)}, mypy {verdict.relation}"
        for (old, new), verdict in zip(pairs, verdicts, strict=True)
        if relate(old, new, _package_bases) is not verdict.relation
    ]
    assert not wrong, "\n".join(wrong)
