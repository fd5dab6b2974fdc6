"""The import check (apisurface.verify.importcheck): a package built in the test is read
statically, installed offline, imported in the sandbox, and each disagreement is a surface
gap at its binding; each module that cannot be imported is not checked, with one reason,
and the modules after it are still checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixture_wheels import make_wheel

from apisurface.cli import main
from apisurface.compare.report import scope_unknowns
from apisurface.model import Surface
from apisurface.release.inputs import load_input
from apisurface.verify.environments import Environment, IndexSettings, Release, prepare
from apisurface.verify.importcheck import GAP_PREFIX, ImportCheck, check_surface, with_gaps

FILES = {
    "gappy/__init__.py": '''"""A package whose surface the static reader gets partly wrong."""

__all__ = ["served", "Lazy", "gone"]


def served():
    """Documented."""


def gone():
    """Deleted below: listed, never served."""


del gone


def __getattr__(name):
    if name == "Lazy":
        return type("Lazy", (), {"__doc__": "Made at run time."})
    raise AttributeError(name)
''',
    "gappy/docs.py": '''"""Docstrings set at run time."""
from gappy._factory import documented

plain = documented("plain", __name__)


def written():
    """Documented in the source."""
''',
    "gappy/_factory.py": """def documented(name, module):
    def function():
        pass

    function.__name__ = function.__qualname__ = name
    function.__module__ = module
    function.__doc__ = "Documented at run time, by a function no static reader follows."
    return function


def made_class():
    return type("Made", (), {"__doc__": "A class made by a call."})
""",
    "gappy/kinds.py": '''"""Kinds the static reader reads otherwise."""
from gappy._factory import documented, made_class


class Parser:
    """A parser."""

    DEFAULT: type = made_class()

    def use(self, value):
        """Use it."""
        return value


parser = Parser()
use = parser.use


class Store(dict):
    """A dict whose get overrides a documented method (POLICY 2.5: it inherits the docs)."""

    def get(self, key, default=None):
        return default


class Made:
    """A class whose method is made by a call."""

    run = documented("run", __name__)
''',
    "gappy/exits.py": '"""Ends the interpreter when imported."""\nimport os\n\nos._exit(7)\n',
    "gappy/hangs.py": '"""Never ends its import."""\nimport time\n\ntime.sleep(600)\n',
    "gappy/hides.py": '''"""Hangs where the alarm cannot reach it."""
import signal
import time

signal.signal(signal.SIGALRM, signal.SIG_IGN)
time.sleep(600)
''',
    "gappy/loud.py": '"""Prints megabytes."""\nimport os\n\nos.write(1, b"x" * 3_000_000)\n',
    "gappy/chatty.py": '''"""Prints megabytes through print()."""
print("y" * 3_000_000)


def talk():
    """Talks."""
''',
    "gappy/writes.py": '"""Writes to the current folder."""\nopen("state.txt", "w").write("x")\n',
    "gappy/needs.py": '"""Needs an optional dependency."""\nimport not_installed_anywhere\n',
    "gappy/shapes.py": '''"""What Python makes of classes, which is no gap."""
import dataclasses
import typing


class Slotted:
    """Slots, and methods Python makes static or class methods."""

    __slots__ = ("x",)

    def __new__(cls):
        return super().__new__(cls)

    def __init_subclass__(cls, **options):
        super().__init_subclass__(**options)


class Pair(typing.NamedTuple):
    """A pair."""

    left: int
    right: int


@dataclasses.dataclass
class Point:
    x: int
    y: int
''',
    "gappy/zzz.py": '"""After the troublemakers."""\n\n\ndef last():\n    """Still checked."""\n',
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Surface, Environment, ImportCheck]:
    folder = tmp_path_factory.mktemp("gappy")
    wheel = make_wheel(folder / "wheels", "gappy", "1.0", FILES)
    surface = load_input(str(wheel), package="gappy").surface
    environment = prepare(
        Release.wheel(wheel),
        cache_dir=folder / "cache",
        settings=IndexSettings(find_links=(folder / "wheels",), no_index=True),
    )
    assert isinstance(environment, Environment), environment
    check = check_surface(surface, environment, module_seconds=2, run_seconds=8)
    return surface, environment, check


def _gaps(check: ImportCheck) -> dict[tuple[str, str], str]:
    return {(gap.kind, gap.path): gap.message() for gap in check.gaps}


def test_names_public_at_run_time_and_missing_statically_are_gaps(
    built: tuple[Surface, Environment, ImportCheck],
) -> None:
    surface, _, check = built
    gaps = _gaps(check)
    assert "gappy.docs.plain" not in surface.symbols  # the static reader: undocumented
    assert gaps[("missing", "gappy.docs.plain")] == (
        f"{GAP_PREFIX}gappy.docs.plain is public at run time (documented, a function) "
        "but not in the static surface"
    )
    # A bound method of a module's instance, and an override documented by a
    # standard-library base: read statically (issue 36), so no gap.
    assert "gappy.kinds.use" in surface.symbols
    assert "gappy.kinds.Store.get" in surface.symbols
    assert ("missing", "gappy.kinds.use") not in gaps
    # Listed in __all__ and served by a module __getattr__: statically an attribute.
    assert gaps[("kind", "gappy.Lazy")].endswith(
        "is an attribute statically but a class at run time"
    )
    gap = next(gap for gap in check.gaps if gap.path == "gappy.docs.plain")
    assert (gap.file, gap.line) == ("gappy/docs.py", 4)
    member = next(gap for gap in check.gaps if gap.path == "gappy.kinds.Made.run")
    assert (member.kind, member.why, member.file, member.line) == (
        "missing",
        "a documented member",
        "gappy/kinds.py",
        29,
    )


def test_what_agrees_is_no_gap(built: tuple[Surface, Environment, ImportCheck]) -> None:
    _, _, check = built
    paths = {gap.path for gap in check.gaps}
    assert {"gappy.served", "gappy.docs.written", "gappy.zzz.last"}.isdisjoint(paths)
    assert not [gap for gap in check.gaps if gap.path.startswith("gappy.chatty")]
    # __slots__ members and named tuple fields are attributes, __new__ a static method, a
    # dataclass's generated docstring documents nothing.
    assert not [gap for gap in check.gaps if gap.path.startswith("gappy.shapes")], check.gaps


def test_a_static_path_that_does_not_resolve_is_a_gap(
    built: tuple[Surface, Environment, ImportCheck],
) -> None:
    surface, _, check = built
    assert "gappy.gone" in surface.symbols
    message = _gaps(check)[("unresolved", "gappy.gone")]
    assert message.startswith(f"{GAP_PREFIX}gappy.gone (function) does not resolve at run time")


def test_kinds_that_disagree_are_gaps(built: tuple[Surface, Environment, ImportCheck]) -> None:
    _, _, check = built
    assert _gaps(check)[("kind", "gappy.kinds.Parser.DEFAULT")] == (
        f"{GAP_PREFIX}gappy.kinds.Parser.DEFAULT is an attribute statically but a class at run time"
    )


def test_each_module_that_cannot_be_imported_says_why(
    built: tuple[Surface, Environment, ImportCheck],
) -> None:
    _, _, check = built
    reasons = dict(check.not_checked)
    assert reasons["gappy.exits"] == "importing it ended the interpreter (exited with status 7)"
    assert reasons["gappy.hangs"] == "importing it took longer than 2 s"
    assert reasons["gappy.hides"] == "importing it did not end: took longer than 8 s (killed)"
    assert reasons["gappy.loud"] == "importing it printed more than 1 MiB (killed)"
    assert reasons["gappy.needs"].startswith(
        "import failed: ModuleNotFoundError: No module named 'not_installed_anywhere'"
    )
    if check.confinement.filesystem.startswith("landlock"):
        assert reasons["gappy.writes"].startswith("import failed: PermissionError")
    else:
        assert any("state.txt" in note for note in check.notes)
    # The modules after those that killed the child were still imported and checked.
    assert {"gappy", "gappy.docs", "gappy.kinds", "gappy.chatty", "gappy.zzz"} <= set(check.checked)
    assert "gappy.chatty printed 2 MiB while imported (cut)" in check.notes


def test_gaps_are_problems_that_scope_like_unknowns(
    built: tuple[Surface, Environment, ImportCheck],
) -> None:
    surface, _, check = built
    verified = with_gaps(surface, check)
    gap_problems = [p for p in verified.problems if p.message.startswith(GAP_PREFIX)]
    assert len(gap_problems) == len(check.gaps)
    assert all(problem.digest for problem in gap_problems)
    # The same release on both sides: the same gaps over the same bytes are notes.
    assert not [unknown for unknown in scope_unknowns(verified, verified) if unknown.blocking]
    # On one side only, each gap blocks.
    blocking = [u for u in scope_unknowns(surface, verified) if u.blocking]
    assert {u.problem for u in blocking} >= set(gap_problems)


def test_counts_measure_recall(built: tuple[Surface, Environment, ImportCheck]) -> None:
    _, _, check = built
    assert check.counts["__all__ names"].found == 2  # served, Lazy (gone is not served)
    assert check.counts["documented names"].missed >= 1  # plain
    assert check.counts["documented names"].found >= 2  # written, use


def test_show_verify_lists_the_gaps_in_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        name: text
        for name, text in FILES.items()
        if name.endswith(("__init__.py", "docs.py", "_factory.py"))
    }
    wheel = make_wheel(tmp_path, "gappy", "1.0", files)
    assert main(["show", "--verify", "--package", "gappy", str(wheel)]) == 0
    text = capsys.readouterr().out
    assert "gappy/docs.py:4: surface gap: gappy.docs.plain is public at run time" in text
    assert main(["show", "--verify", "--format", "json", "--package", "gappy", str(wheel)]) == 0
    document = json.loads(capsys.readouterr().out)
    verification = document["verification"]
    assert verification["outcome"] == "run"
    assert {gap["path"] for gap in verification["gaps"]} >= {"gappy.docs.plain", "gappy.gone"}
    assert any(item["message"].startswith(GAP_PREFIX) for item in document["unknowns"])
    monkeypatch.setenv("APISURFACE_VERIFY", "0")
    assert main(["show", "--verify", "--package", "gappy", str(wheel)]) == 0
    captured = capsys.readouterr()
    assert "surface gap" not in captured.out
    assert "APISURFACE_VERIFY=0 forbids running the analysed code here" in captured.err


def test_show_verify_of_a_snapshot_says_why_not_and_shows_the_surface(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wheel = make_wheel(tmp_path, "gappy", "1.0", {"gappy/__init__.py": FILES["gappy/__init__.py"]})
    snapshot = tmp_path / "gappy.json"
    assert main(["snapshot", str(wheel), "--package", "gappy", "-o", str(snapshot), "-q"]) == 0
    assert main(["show", "--verify", str(snapshot)]) == 0
    captured = capsys.readouterr()
    assert "verification: not run: a snapshot holds no code to import" in captured.out
    assert "warning: verification not run:" in captured.err
    assert "def served" in captured.out or "served" in captured.out
