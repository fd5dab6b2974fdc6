"""Every reader bounded by its output, not only its input (issue 39 items 3 and 4;
docs/security.md). Work is asserted bounded by counting it, never by timing it; the times
are in ``bench/hostile.py``."""

from __future__ import annotations

import encodings.punycode
import json
from pathlib import Path

import pytest
from clirun import run, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apisurface.model import Parameter, ParamKind, Signature, Surface, Symbol, SymbolKind
from apisurface.project.sources import SourceFile
from apisurface.surface.collect import surface_from_sources

DOC = '"""Pkg."""\n'


# --- item 3: source codecs, an allow-list of linear decoders ----------------------------


@pytest.fixture
def punycode_decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the characters punycode is asked to decode (quadratic time in them)."""
    calls: list[int] = []
    original = encodings.punycode.punycode_decode

    def counting(text: bytes | str, errors: str) -> str:
        calls.append(len(text))
        return original(text, errors)

    monkeypatch.setattr(encodings.punycode, "punycode_decode", counting)
    return calls


@pytest.mark.parametrize("codec", ["punycode", "idna", "utf-7", "unicode_escape"])
def test_a_module_in_a_codec_that_is_not_linear_is_a_problem_not_decoded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], codec: str, punycode_decodes: list[int]
) -> None:
    """``# coding: punycode`` decoded in quadratic time (800 KB: 37-40 s); ``idna`` text
    the codec refuses raised a bare UnicodeError (a traceback)."""
    body = "x" * 70 + "-" + "é" * 20 if codec != "utf-7" else "x = 1"
    data = f"# coding: {codec}\n".encode() + body.encode("utf-8")
    write(tmp_path, {"pkg/__init__.py": DOC, "pkg/odd.py": data})
    code, out, err = run(capsys, "snapshot", str(tmp_path), "-o", "-", "--no-cache")
    assert code == 0, err
    assert "Traceback" not in err
    problems = json.loads(out)["problems"]
    assert any("pkg/odd.py" in str(problem) and "not read" in str(problem) for problem in problems)
    assert json.loads(out)["complete"] is False
    assert punycode_decodes == []


@pytest.mark.parametrize("codec", ["latin-1", "cp1252", "koi8-r", "shift_jis", "gb18030"])
def test_linear_codecs_are_read(codec: str) -> None:
    text = f"# -*- coding: {codec} -*-\n" + DOC + 'def f():\n    """Fé."""\n'
    data = text.encode(codec, "replace")
    from apisurface.project.sources import decode_source  # noqa: PLC0415

    problems: list[object] = []
    decoded = decode_source(data, "pkg/__init__.py", problems)  # type: ignore[arg-type]
    assert problems == []
    assert decoded is not None and "def f():" in decoded


def test_impact_and_migrate_never_decode_a_codec_that_is_not_linear(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], punycode_decodes: list[int]
) -> None:
    """``ast.parse(bytes)`` decodes with whatever codec the file names."""
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "versions": {"producer": 1, "min_consumer": 1, "bad_consumers": []},
                "kind": "apisurface-migration",
                "package": "pkg",
                "renames": {"pkg.f": "pkg.g"},
                "entries": [
                    {"path": "pkg.f", "rule": "symbol_renamed", "level": "major", "message": "m"}
                ],
            }
        ),
        encoding="utf-8",
    )
    user = tmp_path / "use.py"
    user.write_bytes(b"# coding: punycode\nfrom pkg import f\nf()\n" + b"x" * 200)
    code, _, err = run(capsys, "impact", "--spec", str(spec), str(user))
    assert code == 2
    assert "Traceback" not in err
    assert "source encoding 'punycode' is not read" in err
    assert punycode_decodes == []


# --- item 3: protocol buffer stubs, bounded by the descriptor -----------------------------


def generated_module(proto: object) -> str:
    """A protoc-style ``*_pb2.py`` embedding ``proto`` (a FileDescriptorProto)."""
    data = proto.SerializeToString()  # type: ignore[attr-defined]
    return (
        '"""Generated protocol buffer code."""\n'
        "from google.protobuf import descriptor_pool as _descriptor_pool\n\n"
        f"DESCRIPTOR = _descriptor_pool.Default().AddSerializedFile({data!r})\n"
    )


def long_named_message(name_chars: int, fields: int) -> str:
    from google.protobuf import descriptor_pb2  # noqa: PLC0415

    proto = descriptor_pb2.FileDescriptorProto(name="big.proto", package="big", syntax="proto3")
    message = proto.message_type.add(name="M" * name_chars)
    for number in range(1, fields + 1):
        message.field.add(name=f"f{number}", number=number, type=5, label=1)
    return generated_module(proto)


def test_a_stub_is_bounded_by_its_descriptor(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 10,000-character message name and 20,000 fields: a 201 MB stub (1.28 GB of
    memory), every field's docstring repeating the name. Now the module is unknown (a
    problem), and what was written before giving up is bounded by the descriptor."""
    from apisurface.surface import protobuf  # noqa: PLC0415

    emitted: list[int] = []
    original = protobuf._Writer._emit

    def counting(self: object, depth: int, text: str) -> None:
        emitted.append(4 * depth + len(text))
        original(self, depth, text)  # type: ignore[arg-type]

    monkeypatch.setattr(protobuf._Writer, "_emit", counting)
    text = long_named_message(10_000, 2_000)
    read = protobuf.read_module("pkg.big_pb2", "pkg/big_pb2.py", text)
    assert isinstance(read, str), "the stub was written whole"
    assert "longer than" in read and "unknown" in read
    assert sum(emitted) <= 16 * len(text)
    surface = surface_from_sources(
        "pkg",
        [
            SourceFile("pkg", "pkg/__init__.py", DOC),
            SourceFile("pkg.big_pb2", "pkg/big_pb2.py", text),
        ],
    )
    assert any(problem.file == "pkg/big_pb2.py" for problem in surface.problems)
    emitted.clear()
    many = long_named_message(400, 20_000)  # names under the cap, the stub over it
    read = protobuf.read_module("pkg.big_pb2", "pkg/big_pb2.py", many)
    assert isinstance(read, str) and "times its size" in read
    assert sum(emitted) <= 16 * len(many) + 64 * 1024 + 2_000
    fine = protobuf.read_module("pkg.big_pb2", "pkg/big_pb2.py", long_named_message(40, 200))
    assert not isinstance(fine, str)
    assert "pkg.big_pb2." + "M" * 40 + ".f200" in fine.facts


# --- item 3: docs names, capped in parts, resolved without trying every prefix ------------


def test_a_docs_name_of_many_parts_costs_its_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``.. autofunction:: x.a.a.a...`` of 16,000 parts: every prefix was tried as a module
    of the other import name ``x`` (36 s, 1 GB). Now only the folders that exist are walked
    down, and a name longer than any public path is not kept."""
    from apisurface.surface import docsources  # noqa: PLC0415
    from apisurface.surface.collect import load_surface  # noqa: PLC0415

    parts = 16_000
    write(
        tmp_path,
        {
            "pkg/__init__.py": DOC + "def f():\n    pass\n",
            "x/__init__.py": '"""X."""\n',
            "x/a/__init__.py": '"""A."""\n',
            "x/a/b.py": "from pkg import f\n",
            "docs/api.rst": ".. autofunction:: x" + ".a" * parts + "\n.. autofunction:: x.a.b.f\n",
        },
    )
    tried: list[int] = []
    original = docsources._module_file

    def counting(folder: Path, names: list[str], root: Path) -> Path | None:
        tried.append(len(names))
        return original(folder, names, root)

    monkeypatch.setattr(docsources, "_module_file", counting)
    surface = load_surface(tmp_path, "pkg")
    assert "pkg.f" in surface.symbols  # documented through x.a.b (the other import name)
    assert sum(tried) < 100, tried[:10]
    index = docsources.scan_docs(tmp_path)
    assert all(name.count(".") < docsources.MAX_NAME_PARTS for name in index.names)


# --- item 3: namespace portions, one pass over the text --------------------------------


def test_namespace_portions_scan_each_text_once(tmp_path: Path) -> None:
    """1,000 folders without ``__init__.py`` beside one 8 MiB module took 39 s: each folder
    ran a regular expression over every text. Counted here: the scans of a text by a
    regular expression while the package is read."""
    import re  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from apisurface.project.locate import locate  # noqa: PLC0415
    from apisurface.project.sources import read_sources  # noqa: PLC0415

    folders = 60
    files = {"pkg/__init__.py": DOC + "from pkg.p7 import m\n" + "x = 1\n" * 5_000}
    files |= {f"pkg/p{i}/m.py": '"""M."""\n' for i in range(folders)}
    files["pkg/p7/n.py"] = "from ..p9 import m\n"
    write(tmp_path, files)
    location = locate(tmp_path, "pkg")
    scans = 0

    def profile(frame: object, event: str, function: object) -> None:
        nonlocal scans
        owner = getattr(function, "__self__", None)
        if event == "c_call" and isinstance(owner, re.Pattern):
            scans += getattr(function, "__name__", "") in ("search", "finditer", "findall")

    sys.setprofile(profile)
    try:
        sources = read_sources(location)
    finally:
        sys.setprofile(None)
    modules = {item.module for item in sources.files}
    assert {"pkg.p7.m", "pkg.p7.n", "pkg.p9.m"} <= modules  # imported: read
    assert "pkg.p8.m" not in modules  # never imported: not read
    assert scans <= len(sources.files) + 1, scans


# --- item 3: rename matching, indexed ------------------------------------------------------


def test_rename_matching_is_indexed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every removed function scanned every added function alike (20,000 look-alike
    functions renamed: 284 s), and every renamed class scanned every path of the old
    surface for its members (16,000 renamed classes: 72 s). Counted: the parent lookups
    of the matching, and the sorts of the old surface's paths."""
    from apisurface.compare import diff as diff_module  # noqa: PLC0415

    count = 600
    old = DOC + "".join(f"def f{i}(a):\n    '''Do.'''\n" for i in range(count))
    old += "".join(
        f"class C{i}:\n    '''C.'''\n    def m{i}(self, b):\n        '''M.'''\n"
        for i in range(count)
    )
    new = old.replace("def f", "def g").replace("class C", "class D").replace("(self, b)", "(self)")
    old_surface = surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", old)])
    new_surface = surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", new)])
    lookups = sorts = 0
    parent_path = diff_module.parent_path

    def counting_parent(path: str) -> str:
        nonlocal lookups
        lookups += 1
        return parent_path(path)

    def counting_sorted(items: object, **options: object) -> list[object]:
        nonlocal sorts
        sorts += 1
        return sorted(items, **options)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(diff_module, "parent_path", counting_parent)
    monkeypatch.setattr(diff_module, "sorted", counting_sorted, raising=False)
    changes = diff_module.diff_surfaces(old_surface, new_surface)
    renamed = {
        (change.path, change.new) for change in changes if change.kind.value == "symbol_renamed"
    }
    assert ("pkg.C7", "pkg.D7") in renamed  # one class alike: a rename
    assert not any(path.startswith("pkg.f") for path, _ in renamed)  # 600 alike: no rename
    removed_parameters = [c for c in changes if c.kind.value == "parameter_removed"]
    assert len(removed_parameters) == count  # each renamed class's member compared
    assert lookups <= 50 * count, lookups  # linear (quadratic: 735,602)
    assert sorts <= 20, sorts


# --- item 4: no silent cut-off -----------------------------------------------------------


def nested_classes(levels: int, parameters: str) -> str:
    lines = [DOC.rstrip("\n")]
    for level in range(levels):
        lines += ["    " * level + f"class C{level}:", "    " * (level + 1) + f'"""C{level}."""']
    lines += ["    " * levels + f"def m({parameters}):", "    " * (levels + 1) + '"""M."""']
    return "\n".join(lines) + "\n"


def test_a_member_nested_deeper_than_the_walk_is_a_problem_where_it_stops() -> None:
    """A method 40 classes deep was dropped silently: a parameter removed there was PATCH
    and the snapshot said complete."""
    from apisurface.compare.diff import diff_surfaces  # noqa: PLC0415

    old, new = (
        surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", nested_classes(40, p))])
        for p in ("self, a, b", "self, a")
    )
    (problem,) = old.problems
    assert problem.file == "pkg/__init__.py" and problem.line > 1
    assert "nested more than 32" in problem.message
    assert problem.path.startswith("pkg.C0.C1.") and problem.path in problem.message
    assert problem.digest is not None  # a note only where both sides read the same bytes
    assert not diff_surfaces(old, new)  # nothing seen to change: the gate is what blocks
    assert old.problems[0].digest != new.problems[0].digest


def test_a_protocol_buffer_message_nested_99_deep_is_not_dropped_silently() -> None:
    from google.protobuf import descriptor_pb2  # noqa: PLC0415

    proto = descriptor_pb2.FileDescriptorProto(name="deep.proto", package="deep", syntax="proto3")
    message = proto.message_type.add(name="M0")
    for level in range(1, 99):
        message = message.nested_type.add(name=f"M{level}")
    message.field.add(name="x", number=1, type=5, label=1)
    surface = surface_from_sources(
        "pkg",
        [
            SourceFile("pkg", "pkg/__init__.py", DOC),
            SourceFile("pkg.deep_pb2", "pkg/deep_pb2.py", generated_module(proto)),
        ],
    )
    assert surface.problems, "messages below the walk's depth were dropped silently"
    assert all(problem.file == "pkg/deep_pb2.py" for problem in surface.problems)


def test_module_level_blocks_are_read_however_deeply_they_nest() -> None:
    """The readers of module-level statements stopped at 20 or 50 nested blocks."""
    import ast  # noqa: PLC0415

    from apisurface.surface.visit import conditions, declared  # noqa: PLC0415

    depth = 60
    lines = []
    for level in range(depth):
        lines.append("    " * level + f"if X{level}:")
    lines.append("    " * depth + "try:")
    lines.append("    " * (depth + 1) + "DEEP = 1")
    lines.append("    " * depth + "except ImportError:")
    lines.append("    " * (depth + 1) + "DEEP = 2")
    tree = ast.parse("\n".join(lines) + "\n")
    statements = list(declared._module_statements(tree.body))
    assert sum(isinstance(node, ast.Assign) for node in statements) == 2
    assert len(conditions._branching(tree.body)) == depth + 1
    assert sum(isinstance(node, ast.Assign) for node in conditions._module_level(tree.body)) == 2


# --- item 8: no traceback from any value of a snapshot or a protocol buffer fact ----------

HUGE = ["0x" + "f" * 5_000, "9" * 5_000, "1e99999", "-" + "9" * 30]
NUMBERS = ["1", "0", "²", "١٢", "-1", "99999999999999999999999999", *HUGE]
ODD_NAMES = ["None", "class", "a²", "x y", "1a", "ß", "名前", ""]


def _facts() -> st.SearchStrategy[str]:
    number = st.sampled_from(NUMBERS)
    kind = st.sampled_from(["int32", "string", "message a.B", "enum a.C", "map<int32,string>", ""])
    card = st.sampled_from(["optional", "repeated", "singular", "required", "oneof x", ""])
    field = st.builds(lambda n, k, c: f"field {n} {k} {c}", number, kind, card)
    ranges = st.lists(st.builds(lambda a, b: f"{a}-{b}", number, number) | number, max_size=3)
    names = st.lists(st.sampled_from(ODD_NAMES), max_size=3)
    message = st.builds(
        lambda r, n: (
            "message a.B"
            + (f" reserved {','.join(r)}" if r else "")
            + (f" names {','.join(n)}" if n else "")
        ),
        ranges,
        names,
    )
    return field | message | st.builds(lambda n: f"enum_value {n}", number) | st.text(max_size=8)


def _hostile_surfaces() -> st.SearchStrategy[Surface]:
    value = st.sampled_from([*HUGE, *ODD_NAMES, "[" * 50, "{'a': [1, 2]}", "'x'", "1_000"])
    value = value | st.text(max_size=6)
    parameter = st.builds(
        Parameter,
        name=st.sampled_from(["a", "b", "None", "a²"]),
        kind=st.sampled_from(ParamKind),
        default=st.none() | value,
        annotation=st.none() | value,
    )
    signature = st.builds(
        Signature, parameters=st.lists(parameter, max_size=3).map(tuple), returns=st.none() | value
    )
    symbol = st.fixed_dictionaries(
        {
            "kind": st.sampled_from(SymbolKind),
            "signature": st.none() | signature,
            "annotation": st.none() | value,
            "proto": st.none() | _facts(),
            "docstring_hash": st.none() | st.sampled_from(["a1", "b2"]),
            "deprecated": st.none() | value,
            "bases": st.lists(value, max_size=2).map(tuple),
        }
    )
    paths = st.lists(st.sampled_from(["f", "C", "C.m", "a²", "None", "M.x", "g"]), unique=True)

    @st.composite
    def build(draw: st.DrawFn) -> Surface:
        chosen = draw(paths)
        symbols = {f"pkg.{p}": Symbol(path=f"pkg.{p}", **draw(symbol)) for p in chosen}
        return Surface(package="pkg", symbols=symbols)

    return build()


def test_no_traceback_from_any_snapshot_value_or_protocol_buffer_fact(tmp_path: Path) -> None:
    """A snapshot default of 5,000 hex digits (``repr`` of an int beyond Python's limit),
    a fact or reserved name with ``²`` (``isdigit``, then ``int``), a name that is no
    identifier: tracebacks. Fuzzed: two snapshots of hostile values, through ``show``,
    ``diff`` in every format and ``migrate``; each ends in an exit code, never raises."""
    import contextlib  # noqa: PLC0415
    import io  # noqa: PLC0415
    import os  # noqa: PLC0415

    from apisurface.cli import main  # noqa: PLC0415
    from apisurface.store.snapshot import dumps  # noqa: PLC0415

    user = tmp_path / "use.py"
    user.write_text("import pkg\nfrom pkg import f, C\nf(a=1)\nC.m(b=2)\npkg.M.x\n")

    def run_quietly(*argv: str) -> int:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return main(list(argv))

    @settings(
        max_examples=max(30, int(os.environ.get("APISURFACE_FUZZ_EXAMPLES", "0"))),
        derandomize="APISURFACE_FUZZ_EXAMPLES" not in os.environ,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(_hostile_surfaces(), _hostile_surfaces())
    def check(old: Surface, new: Surface) -> None:
        paths = []
        for name, surface in (("old", old), ("new", new)):
            path = tmp_path / f"{name}.json"
            try:
                path.write_text(dumps(surface), encoding="utf-8")
            except UnicodeEncodeError:
                return
            paths.append(str(path))
        assert run_quietly("show", paths[1]) in (0, 2)
        for form in ("text", "json", "markdown", "github", "sarif", "html"):
            assert run_quietly("diff", *paths, "--format", form) in (0, 1, 2)
        assert run_quietly("diff", *paths, "--fail-on", "major") in (0, 1, 2)
        assert run_quietly("migrate", *paths, str(user), "--no-cache") in (0, 1, 2)
        assert run_quietly("impact", *paths, str(user), "--no-cache") in (0, 1, 2)

    check()
