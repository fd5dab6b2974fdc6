"""Reading the annotated case files of tests/cases, src/apisurface/cases (each change
kind's example, shipped in the package for ``apisurface explain``) and tests/surface_cases."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent
EXAMPLE_CASES = HERE.parent / "src" / "apisurface" / "cases"
"""The plain case of each change kind, ``KIND.case``: its example (package data)."""
CHANGE_CASES = sorted([*(HERE / "cases").glob("*.case"), *EXAMPLE_CASES.glob("*.case")])
SURFACE_CASES = sorted((HERE / "surface_cases").glob("*.case"))


def case_path(name: str) -> Path:
    """The change case file named ``name`` (without ``.case``), in either folder."""
    example = EXAMPLE_CASES / f"{name}.case"
    return example if example.is_file() else HERE / "cases" / f"{name}.case"


_SECTION = re.compile(r"^--- (?:(old|new|both) )?(\S+)\s*$")


@dataclass
class Case:
    """One case: header fields and the files of the old and new trees."""

    name: str
    description: str = ""
    expect: set[tuple[str, str]] = field(default_factory=set)
    inferred: set[tuple[str, str]] = field(default_factory=set)
    bump: str | None = None
    reexport: bool = True
    public: set[tuple[str, str]] = field(default_factory=set)
    excluded: set[tuple[str, str]] = field(default_factory=set)
    unknowns: set[str] = field(default_factory=set)
    entries: set[tuple[str, str, tuple[str, ...], str]] = field(default_factory=set)
    old: dict[str, str] = field(default_factory=dict)
    new: dict[str, str] = field(default_factory=dict)


def parse_case(path: Path) -> Case:
    case = Case(path.stem)
    side: str | None = None
    target: str | None = None
    buffer: list[str] = []

    def flush() -> None:
        if target is None:
            return
        text = "\n".join(buffer).rstrip("\n") + "\n"
        if side in ("old", "both", None):
            case.old[target] = text
        if side in ("new", "both", None):
            case.new[target] = text

    # Lines as Python reads source: a form feed or another separator ``str.splitlines``
    # breaks at is part of its line (flush drops the trailing empty line).
    for line in path.read_text(encoding="utf-8").split("\n"):
        match = _SECTION.match(line)
        if match:
            flush()
            side, target, buffer = match.group(1), match.group(2), []
            continue
        if target is not None:
            buffer.append(line)
            continue
        key, _, value = line.lstrip("# ").partition(":")
        value = value.strip()
        if key == "description":
            case.description = value
        elif key == "expect":
            where, kind = value.rsplit(None, 1)
            case.expect.add((where, kind))
        elif key == "entry":
            case.entries.add(_entry(value))
        elif key == "inferred":
            where, kind = value.rsplit(None, 1)
            case.inferred.add((where, kind))
        elif key == "bump":
            case.bump = value
        elif key == "reexport":
            case.reexport = value != "no"
        elif key == "public":
            where, kind = value.rsplit(None, 1)
            case.public.add((where, kind))
        elif key == "excluded":
            where, reason = value.rsplit(None, 1)
            case.excluded.add((where, reason))
        elif key == "unknown":
            case.unknowns.add(value)
    flush()
    return case


def _entry(value: str) -> tuple[str, str, tuple[str, ...], str]:
    """``PATH KIND [also_at P1,P2] at FILE:LINE``: one entry of the report, after changes
    of one object at several paths are merged."""
    path, kind, *rest = value.split()
    fields = dict(zip(rest[::2], rest[1::2], strict=True))
    also_at = tuple(sorted(fields["also_at"].split(","))) if "also_at" in fields else ()
    return path, kind, also_at, fields.get("at", "")


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        destination = root / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_text(text, encoding="utf-8")
    return root


def reexported(files: dict[str, str]) -> dict[str, str] | None:
    """Move ``pkg/__init__.py`` to ``pkg/_impl.py`` and re-export its public names."""
    source = files.get("pkg/__init__.py")
    if source is None:
        return None
    tree = ast.parse(source)
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            # Unpacking targets (``A, B = ...``) bind their names too.
            names.extend(
                name.id
                for target in node.targets
                for name in ast.walk(target)
                if isinstance(name, ast.Name)
            )
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    public = sorted({name for name in names if not name.startswith("_")})
    docstring = ast.get_docstring(tree) or "Pkg."
    result = dict(files)
    result["pkg/_impl.py"] = source
    imports = f"from pkg._impl import {', '.join(public)}\n" if public else ""
    result["pkg/__init__.py"] = f'"""{docstring}"""\n{imports}__all__ = {public!r}\n'
    return result
