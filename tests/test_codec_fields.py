"""No silent gap in the codec (issue 24): every field of the model a snapshot or a cache
entry holds is written and read back.

The values are made from the dataclass fields themselves, each set to something other
than its default, so a field added to :class:`Symbol` (or :class:`Signature`,
:class:`Parameter`, :class:`Problem`, :class:`Surface`) fails here until the codec writes
it, reads it and tells it apart when sharing values; a field of a new type fails until
it has a sample in :data:`SAMPLES` below (and in tests/test_fuzz.py's strategies).
"""

from __future__ import annotations

from dataclasses import MISSING, Field, fields, replace
from pathlib import Path
from typing import Any

import pytest

from apisurface.errors import ApisurfaceError
from apisurface.model import (
    ENGINE,
    ExclusionReason,
    Guess,
    Location,
    Parameter,
    ParamKind,
    Problem,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.store.cache import SurfaceCache
from apisurface.store.codec import NOT_IN_SNAPSHOT, NOT_IN_VALUE, symbol_texts
from apisurface.store.snapshot import dumps, loads

SAMPLES: dict[str, object] = {
    "str": "pkg.text",
    "str | None": "a text",
    "bool": True,
    "bool | None": True,
    "int": 7,
    "int | None": ENGINE + 1,
    "tuple[str, ...]": ("one", "two"),
    "tuple[str, ...] | None": ("T", "U="),
    "SymbolKind": SymbolKind.CLASS,
    "ParamKind": ParamKind.KEYWORD_ONLY,
    "Location | None": Location("pkg/mod.py", 12),
    "tuple[Guess, ...]": tuple(sorted(Guess)),
    "dict[str, ExclusionReason]": {"pkg._hidden": ExclusionReason.PRIVATE},
}
"""A value other than the default for each field type of the model (nested values below)."""


def sample(item: Field[Any]) -> object:
    """A value of the field's type other than its default."""
    assert isinstance(item.type, str)
    if item.type not in SAMPLES:
        pytest.fail(f"no sample value for field {item.name}: {item.type}; add one to SAMPLES")
    value = SAMPLES[item.type]
    assert value != item.default, f"the sample of {item.name} is its default"
    return value


def _full(cls: type[Any], **given: object) -> Any:
    """An instance of ``cls`` with every field not in ``given`` set to its sample."""
    return cls(**{item.name: given.get(item.name) or sample(item) for item in fields(cls)})


_PARAMETER = _full(Parameter, name="a")
SAMPLES["tuple[Parameter, ...]"] = (_PARAMETER,)
_SIGNATURE = _full(Signature)
SAMPLES["Signature | None"] = _SIGNATURE
SAMPLES["tuple[Signature, ...]"] = (_SIGNATURE, Signature())
SAMPLES["tuple[Problem, ...]"] = (_full(Problem, digest="ab" * 32),)

SYMBOL_FIELDS = [item.name for item in fields(Symbol)]
VALUE_FIELDS = [name for name in SYMBOL_FIELDS if name not in NOT_IN_VALUE]
SNAPSHOT_FIELDS = [name for name in VALUE_FIELDS if name not in NOT_IN_SNAPSHOT]


def _default(item: Field[Any]) -> object:
    if item.default is not MISSING:
        return item.default
    assert item.default_factory is not MISSING, item.name
    return item.default_factory()


def full_symbol() -> Symbol:
    symbol: Symbol = _full(Symbol, path="pkg.thing")
    return symbol


def one_field_set(name: str) -> Symbol:
    """A symbol with defaults everywhere but at ``name`` (and its path and kind)."""
    base = Symbol("pkg.thing", SymbolKind.FUNCTION)
    item = next(item for item in fields(Symbol) if item.name == name)
    return replace(base, **{name: sample(item)})


def _values(symbol: Symbol, names: list[str]) -> dict[str, object]:
    return {name: getattr(symbol, name) for name in names}


def test_not_in_value_names_symbol_fields() -> None:
    assert set(NOT_IN_VALUE) <= set(SYMBOL_FIELDS)


def test_every_symbol_field_survives_a_snapshot() -> None:
    symbol = full_symbol()
    back = loads(dumps(Surface("pkg", {symbol.path: symbol}))).symbols[symbol.path]
    assert _values(back, SNAPSHOT_FIELDS) == _values(symbol, SNAPSHOT_FIELDS)
    # Compared field by field: most are ``compare=False``, which ``==`` would not see.
    for name in SNAPSHOT_FIELDS:
        alone = one_field_set(name)
        again = loads(dumps(Surface("pkg", {alone.path: alone}))).symbols[alone.path]
        assert getattr(again, name) == getattr(alone, name), name


def test_snapshots_leave_out_only_what_they_say() -> None:
    """Of the fields not in a symbol value, a snapshot records the target (format 9) and
    leaves out the location, which reads back as its default; of the value, it leaves out
    the prose (a docstring's digest: format 14)."""
    symbol = full_symbol()
    assert symbol.target and symbol.target != symbol.path
    back = loads(dumps(Surface("pkg", {symbol.path: symbol}))).symbols[symbol.path]
    for item in fields(Symbol):
        if item.name == "target":
            assert back.target == symbol.target
        elif item.name in (NOT_IN_VALUE | NOT_IN_SNAPSHOT) - {"path"}:
            assert getattr(back, item.name) == _default(item), item.name


def test_a_snapshot_symbol_defined_where_it_is_has_its_own_path_as_target() -> None:
    symbol = replace(full_symbol(), target="")
    back = loads(dumps(Surface("pkg", {symbol.path: symbol}))).symbols[symbol.path]
    assert back.target == symbol.path


def test_a_snapshot_target_for_no_symbol_is_refused() -> None:
    symbol = full_symbol()
    text = dumps(Surface("pkg", {symbol.path: symbol}))
    bad = text.replace(f'"{symbol.path}": "{symbol.target}"', f'"pkg.nothing": "{symbol.target}"')
    assert bad != text
    with pytest.raises(ApisurfaceError, match=r"'targets' names 'pkg\.nothing'"):
        loads(bad)


def test_every_symbol_field_survives_the_cache(tmp_path: Path) -> None:
    symbol = full_symbol()
    cache = SurfaceCache(tmp_path)
    cache.put_surface("cd" * 32, Surface("pkg", {symbol.path: symbol}))
    back = cache.get_surface("cd" * 32)
    assert back is not None
    assert _values(back.symbols[symbol.path], SYMBOL_FIELDS) == _values(symbol, SYMBOL_FIELDS)


@pytest.mark.parametrize("name", VALUE_FIELDS)
def test_every_value_field_tells_values_apart(name: str) -> None:
    """Equal values are encoded once: a symbol that differs in any one field of its value
    is encoded on its own, not as the value of a symbol seen before."""
    base = Symbol("pkg.thing", SymbolKind.FUNCTION)
    changed = one_field_set(name)
    assert changed != base or name in {item.name for item in fields(Symbol) if not item.compare}
    first, second = symbol_texts([base, changed], snapshot=name in SNAPSHOT_FIELDS)
    assert first != second, f"{name} is not written, or not part of the shared-value key"


def test_every_surface_and_problem_field_survives_a_snapshot() -> None:
    symbol = full_symbol()
    surface: Surface = _full(Surface, package="pkg", symbols={symbol.path: symbol})
    back = loads(dumps(surface))
    names = [item.name for item in fields(Surface) if item.name != "symbols"]
    assert _values(back, names) == _values(surface, names)
    problem_names = [item.name for item in fields(Problem)]
    assert [_values(item, problem_names) for item in back.problems] == [
        _values(item, problem_names) for item in surface.problems
    ]


def test_every_surface_field_but_engine_survives_the_cache(tmp_path: Path) -> None:
    """A cache entry is made and read by the same apisurface (its key holds the version),
    so it reads back as this engine's."""
    symbol = full_symbol()
    surface: Surface = _full(Surface, package="pkg", symbols={symbol.path: symbol})
    cache = SurfaceCache(tmp_path)
    cache.put_surface("ef" * 32, surface)
    back = cache.get_surface("ef" * 32)
    assert back is not None
    names = [item.name for item in fields(Surface) if item.name not in ("symbols", "engine")]
    assert _values(back, names) == _values(surface, names)
    assert back.engine == ENGINE
    problem_names = [item.name for item in fields(Problem)]
    assert [_values(item, problem_names) for item in back.problems] == [
        _values(item, problem_names) for item in surface.problems
    ]
