"""Annotation normalisation and variance (POLICY.md section 3, types)."""

from __future__ import annotations

import pytest

from apisurface.annotations import Relation, normalize, relate


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
        ("typing.Union[int, typing.Any]", "typing.Any"),
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
        ("int", "typing.Any", Relation.WIDER),
        ("int", "object", Relation.WIDER),
        ("typing.Literal['a']", "typing.Literal['a', 'b']", Relation.WIDER),
        ("typing.Literal['a']", "str", Relation.WIDER),
        ("str", "typing.Literal['a']", Relation.NARROWER),
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
