"""Untrusted pull requests (docs/security.md): bounded work, no writes or reads outside
the project, no gate bypass, one-line errors. Hostile inputs are generated here, small;
the work is asserted bounded by counting it, never by timing it."""

from __future__ import annotations

import json
from pathlib import Path

import griffe
import pytest

from apisurface.cli import main
from apisurface.collect import load_surface, surface_from_sources
from apisurface.linearize import MAX_MRO
from apisurface.sources import SourceFile


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line_error(code: int, err: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("apisurface: error: "), err


# --- 1. the MRO is computed once per class --------------------------------------------


def ladder(levels: int) -> str:
    """Each level's two classes inherit both classes of the level below."""
    lines = ['"""Pkg."""', "class A0:", '    """A."""', "class B0:", '    """B."""']
    for level in range(1, levels):
        below = f"A{level - 1}, B{level - 1}"
        for name in "AB":
            lines += [f"class {name}{level}({below}):", f'    """{name}."""']
    lines.append("@__import__('dataclasses').dataclass")
    lines += [f"class Top(A{levels - 1}, B{levels - 1}):", '    """T."""', "    x: int = 0"]
    return "\n".join(lines) + "\n"


def test_mro_ladder_is_computed_once_per_class(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    resolved_bases = griffe.Class.resolved_bases

    def counting(self: griffe.Class) -> list[griffe.Object]:
        nonlocal calls
        calls += 1
        return resolved_bases.fget(self)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(griffe.Class, "resolved_bases", property(counting))
    levels = 20
    surface = surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", ladder(levels))])
    classes = 2 * levels + 1
    # Python's own order: Top, A19, B19, A18, B18, ... A0, B0, object.
    assert surface.problems == ()
    assert "pkg.Top" in surface.symbols
    assert calls <= 4 * classes, calls  # griffe alone: exponential (2**20 and more)


def test_mro_matches_python_on_a_ladder() -> None:
    from apisurface.visit import visit_modules

    top, _ = visit_modules("pkg", [SourceFile("pkg", "pkg/__init__.py", ladder(12))], [])
    namespace: dict[str, object] = {}
    exec(compile(ladder(12), "ladder", "exec"), namespace)  # noqa: S102 - our own text
    expected = [cls.__name__ for cls in namespace["Top"].__mro__[1:-1]]  # type: ignore[attr-defined]
    top_class = top.members["Top"]
    assert [cls.name for cls in top_class.mro()] == expected  # type: ignore[union-attr]


def test_mro_chain_deeper_than_the_cap_is_a_problem() -> None:
    depth = MAX_MRO + 40
    lines = ['"""Pkg."""', "class C0:", '    """C."""']
    lines += [f'class C{i}(C{i - 1}):\n    """C."""' for i in range(1, depth)]
    surface = surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", "\n".join(lines))])
    assert any(f"more than {MAX_MRO} classes" in problem for problem in surface.problems)
    assert f"pkg.C{depth - 1}" in surface.symbols
