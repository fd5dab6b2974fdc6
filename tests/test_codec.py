"""One encoding of symbols for snapshots and cache entries (store/codec.py): the fast ways
of reading (all lines at once, lines shared with the snapshot read last, symbols built
column by column) give exactly what reading the whole document as JSON gives."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from cacheentries import payload, store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apisurface.errors import SnapshotError
from apisurface.model import (
    ExclusionReason,
    Location,
    Parameter,
    ParamKind,
    Signature,
    Surface,
    Symbol,
    SymbolKind,
)
from apisurface.store.cache import SurfaceCache
from apisurface.store.codec import SymbolDecoder, build_symbols
from apisurface.store.snapshot import dumps, loads

FUZZ = settings(
    max_examples=int(os.environ.get("APISURFACE_FUZZ_EXAMPLES", "10")) * 5,
    # Fixed examples in `make test` (a gate must not fail at random); `make fuzz` explores.
    derandomize="APISURFACE_FUZZ_EXAMPLES" not in os.environ,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def surface(changed: bool = False) -> Surface:
    shared = Signature((Parameter("self", ParamKind.POSITIONAL_OR_KEYWORD),), "int")
    symbols = {"pkg": Symbol("pkg", SymbolKind.MODULE, docstring_hash="d0")}
    for index in range(4):
        cls = f"pkg.C{index}"
        symbols[cls] = Symbol(cls, SymbolKind.CLASS, bases=("pkg.Base",), docstring_hash="d1")
        for name in ("run", "stop"):
            path = f"{cls}.{name}"
            signature = shared
            if changed and index == 2 and name == "run":
                extra = Parameter("x", ParamKind.KEYWORD_ONLY, annotation="str | None")
                signature = replace(shared, parameters=(*shared.parameters, extra))
            symbols[path] = Symbol(
                path, SymbolKind.METHOD, signature=signature, docstring_hash="d2"
            )
    symbols["pkg.VALUE"] = Symbol(
        "pkg.VALUE", SymbolKind.ATTRIBUTE, annotation='dict[str, "int"]', deprecated="é"
    )
    return Surface(
        "pkg",
        symbols,
        excluded={"pkg._x": ExclusionReason.PRIVATE},
        version="1.0",
        declared_by=("pkg_export",),
        docs_sources=True,
    )


def outcome(text: str) -> object:
    try:
        result = loads(text, "pkg.json")
    except SnapshotError as error:
        return str(error)
    return (result, list(result.symbols))


MUTATIONS = ['"', "\\", '": ', ",", "", "\x01", "}", "{", '\\"', " ", "\n", '"": {}']


@FUZZ
@given(
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.sampled_from(MUTATIONS),
    st.booleans(),
    st.booleans(),
)
def test_line_reading_equals_whole_document_reading(
    line_seed: int, column_seed: int, insert: str, replace_char: bool, read_before: bool
) -> None:
    """A snapshot edited anywhere in its symbol lines reads as the same document in
    another layout (one line, which only ``json.loads`` reads): the same surface in the
    same order, or the same one-line error; also right after reading a similar file."""
    original = dumps(surface(changed=True))
    lines = original.split("\n")
    first = lines.index('  "symbols": {') + 1
    last = lines.index("  },", first)
    index = first + line_seed % (last - first)
    line = lines[index]
    column = column_seed % (len(line) + 1)
    lines[index] = line[:column] + insert + line[column + int(replace_char) :]
    text = "\n".join(lines)
    if read_before:
        loads(dumps(surface()))
    try:
        document = json.loads(text)
    except ValueError:
        with pytest.raises(SnapshotError, match="not valid JSON"):
            loads(text, "pkg.json")
        return
    assert outcome(text) == outcome(json.dumps(document))


@pytest.mark.parametrize(
    "line",
    [
        '    ": {"kind": "module"},',
        '    "": {"kind": "module"},',
        '    "pkg.a"b": {"kind": "module"},',
        '    "pkg.a\\"b": {"kind": "module"},',
        '    "pkg.\\u00e9": {"kind": "module"},',
        '    "pkg.\x01": {"kind": "module"},',
        '    "pkg.x" : {"kind": "module"},',
        '\t"pkg.x": {"kind": "module"},',
        '    "pkg.x": {"kind": "module"} ,',
        '    "pkg.x": {"kind": "module", "x": "\\ud800"},',
        '    "pkg.x": {"kind": "module"}, "pkg.y": {"kind": "module"},',
    ],
)
def test_unusual_lines_read_as_json_does(line: str) -> None:
    lines = dumps(surface()).split("\n")
    first = lines.index('  "symbols": {') + 1
    text = "\n".join([*lines[:first], line, *lines[first:]])
    loads(dumps(surface()))  # a similar snapshot read last
    try:
        expected = outcome(json.dumps(json.loads(text)))
    except ValueError:
        expected = "not valid JSON"
    for _ in range(2):  # then with every line in the snapshot read last
        found = outcome(text)
        assert found == expected or (isinstance(expected, str) and expected in str(found))


def test_repeated_path_reads_as_json_does() -> None:
    lines = dumps(surface()).split("\n")
    first = lines.index('  "symbols": {') + 1
    repeated = lines[first + 1].replace('"pkg.C0"', '"pkg"')
    text = "\n".join([*lines[: first + 1], repeated, *lines[first + 2 :]])
    assert outcome(text) == outcome(json.dumps(json.loads(text)))
    assert loads(text).symbols["pkg"].kind is SymbolKind.CLASS  # the last one, as in JSON
    loads(dumps(surface()))
    twice = "\n".join([*lines[: first + 2], lines[first + 1], *lines[first + 2 :]])
    assert outcome(twice) == outcome(json.dumps(json.loads(twice)))


def test_second_read_shares_the_symbols_of_identical_lines() -> None:
    old = loads(dumps(surface()))
    new = loads(dumps(surface(changed=True)))
    assert new.symbols["pkg.C0.run"] is old.symbols["pkg.C0.run"]
    assert new.symbols["pkg.C2.run"] is not old.symbols["pkg.C2.run"]
    loads(dumps(Surface("other", {"other": Symbol("other", SymbolKind.MODULE)})))
    fresh = loads(dumps(surface(changed=True)))
    assert fresh == new and list(fresh.symbols) == list(new.symbols)
    assert dumps(new) == dumps(surface(changed=True))


def test_an_invalid_file_leaves_nothing_to_share() -> None:
    good = dumps(surface())
    bad = good.replace('"kind": "class"', '"kind": "rocket"', 1)
    with pytest.raises(SnapshotError, match="unknown kind 'rocket'"):
        loads(bad, "bad.json")
    assert loads(good) == surface()


def test_build_symbols_equals_the_constructor() -> None:
    templates = list(surface().symbols.values())
    paths = [f"pkg.at{index}" for index in range(len(templates))]
    locations = [Location("f.py", index) if index % 2 else None for index in range(len(paths))]
    targets = [f"pkg.t{index}" for index in range(len(paths))]
    built = build_symbols(paths, templates, targets=targets, locations=locations)
    expected = [
        replace(template, path=path, target=target, location=location)
        for template, path, target, location in zip(
            templates, paths, targets, locations, strict=True
        )
    ]
    assert built == expected
    assert [repr(item) for item in built] == [repr(item) for item in expected]
    assert [hash(item) for item in built] == [hash(item) for item in expected]
    with pytest.raises(ValueError, match="as many"):
        build_symbols(paths[:1], templates)


def test_the_decoder_shares_equal_signatures() -> None:
    decoder = SymbolDecoder("x.json")
    value = {
        "kind": "function",
        "signature": {"parameters": [{"name": "a", "kind": "var-positional"}]},
    }
    one = decoder.symbol("pkg.f", json.loads(json.dumps(value)))
    two = decoder.symbol("pkg.g", json.loads(json.dumps(value)))
    assert one.signature is two.signature


def cached(tmp_path: Path) -> tuple[SurfaceCache, Surface, Path]:
    stored = surface()
    stored = replace(
        stored,
        symbols={
            path: replace(symbol, target=f"{path}.t", location=Location("m.py", 3))
            for path, symbol in stored.symbols.items()
        },
    )
    cache = SurfaceCache(tmp_path)
    cache.put_surface("ab" * 32, stored)
    (entry,) = (tmp_path / "surface").rglob("*.json")
    return cache, stored, entry


def test_cache_entries_keep_targets_and_locations(tmp_path: Path) -> None:
    cache, stored, _ = cached(tmp_path)
    back = cache.get_surface("ab" * 32)
    assert back == stored
    assert back is not None
    for path, symbol in stored.symbols.items():
        assert (back.symbols[path].target, back.symbols[path].location) == (
            symbol.target,
            symbol.location,
        )


@pytest.mark.parametrize(
    "tamper",
    [
        lambda data: data["values"][0].update(kind="rocket"),
        lambda data: data["values"][0].update(signature=[[]]),
        lambda data: data["values"].append(5),
        lambda data: data["value_ids"].__setitem__(0, 99),
        lambda data: data["value_ids"].__setitem__(0, True),
        lambda data: data["targets"].__setitem__(0, None),
        lambda data: data["locations"].__setitem__(0, 7),
        lambda data: data["paths"].__setitem__(0, "elsewhere.x"),
        lambda data: data.pop("values"),
    ],
)
def test_tampered_cache_entries_are_misses(tmp_path: Path, tamper: object) -> None:
    cache, _, entry = cached(tmp_path)
    document = json.loads(payload(entry))
    assert callable(tamper)
    tamper(document["data"])
    store(entry, json.dumps(document).encode())  # sealed: the checks behind the HMAC hold
    assert cache.get_surface("ab" * 32) is None
