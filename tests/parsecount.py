"""Counting whole-module parses: how often each file's text is parsed during a run.

:func:`counting` patches ``ast.parse``, ``builtins.compile`` (``exec`` mode or
``PyCF_ONLY_AST``, as griffe's visitor calls it) and ``libcst.parse_module`` and records
every parse; :meth:`Parses.per_file` attributes them to the files of a package. A parse is
of a whole module when most of its lines are a file's lines and it has at least 90% as
many lines (a text rewritten line for line, such as a settled version branch, still counts); an
``eval``-mode parse of an expression or a parse of one function's source is not. libcst
parses are counted per file whatever their size (an excerpt of a file counts for it).

Run with ``APISURFACE_WORKERS=0`` so that every parse happens in this process.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import sys
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst


@dataclass
class Parses:
    """Every parse seen: (which parser, the text parsed)."""

    seen: list[tuple[str, str]] = field(default_factory=list)
    callers: list[str] = field(default_factory=list)

    def per_file(self, files: Mapping[str, str]) -> tuple[Counter[str], Counter[str]]:
        """Whole-module ``ast``/``compile`` parses and libcst parses, by relpath of
        ``files`` (relpath -> text). Files of identical text share their parses evenly
        (every empty ``__init__.py`` parses the same text)."""
        line_sets = {relpath: set(text.splitlines()) - {""} for relpath, text in files.items()}
        line_counts = {relpath: len(text.splitlines()) for relpath, text in files.items()}
        by_text: dict[str, list[str]] = {}
        for relpath, text in files.items():
            by_text.setdefault(text, []).append(relpath)
        whole: Counter[str] = Counter()
        cst: Counter[str] = Counter()
        shared: dict[str, Counter[str]] = {}  # parses of a text several files hold
        for parser, text in self.seen:
            if parser == "eval":
                continue  # an expression, never a module
            counter = cst if parser == "libcst" else whole
            owners = by_text.get(text) or _owner(
                text, line_sets, line_counts, whole_module=parser != "libcst"
            )
            if len(owners) > 1:
                key = "\0".join(owners)
                by_text.setdefault(key, owners)
                shared.setdefault(key, Counter())["libcst" if counter is cst else "ast"] += 1
            elif owners:
                counter[owners[0]] += 1
        for text, counts in shared.items():
            owners = by_text[text]
            for kind, total in counts.items():
                counter = cst if kind == "libcst" else whole
                for index, owner in enumerate(owners):
                    share = total // len(owners) + (index < total % len(owners))
                    if share:
                        counter[owner] += share
        return whole, cst

    def whole_module(self, parser: str, text: str, files: Mapping[str, str]) -> bool:
        """Whether one parse seen is of a whole module of ``files`` (or, for libcst, of a
        part of one)."""
        if parser == "eval":
            return False
        if text in files.values():
            return True
        line_sets = {relpath: set(body.splitlines()) - {""} for relpath, body in files.items()}
        line_counts = {relpath: len(body.splitlines()) for relpath, body in files.items()}
        return bool(_owner(text, line_sets, line_counts, whole_module=parser != "libcst"))


def _owner(
    text: str,
    line_sets: Mapping[str, set[str]],
    line_counts: Mapping[str, int],
    *,
    whole_module: bool,
) -> list[str]:
    """The files ``text`` is (a rewriting or, for libcst, an excerpt of): those sharing the
    most lines with it (several when files of two sides are alike)."""
    lines = set(text.splitlines()) - {""}
    if not lines:
        return []
    best: list[str] = []
    shared = 0
    for relpath, file_lines in line_sets.items():
        common = len(lines & file_lines)
        if common > shared:
            best, shared = [relpath], common
        elif common == shared and common:
            best.append(relpath)
    if not best or shared * 2 < len(lines):
        return []
    if whole_module:
        best = [owner for owner in best if len(text.splitlines()) * 10 >= line_counts[owner] * 9]
    return best


def _caller() -> str:
    """The first function outside this file and the standard library that parsed."""
    frame = sys._getframe(2)
    while frame is not None and (
        frame.f_code.co_filename == __file__
        or (
            "/lib/python3" in frame.f_code.co_filename
            and "site-packages" not in frame.f_code.co_filename
        )
    ):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "?"
    return f"{Path(frame.f_code.co_filename).name}:{frame.f_code.co_name}"


@contextlib.contextmanager
def counting() -> Iterator[Parses]:
    """Record every parse while the block runs (``eval``-mode ones as ``"eval"``)."""
    parses = Parses()
    original_parse = ast.parse
    original_compile = builtins.compile
    original_cst = libcst.parse_module
    inside = False

    def parse(source: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal inside
        mode = kwargs.get("mode", args[1] if len(args) > 1 else "exec")
        if isinstance(source, str) and not inside:
            parses.seen.append(("ast" if mode == "exec" else "eval", source))
            parses.callers.append(_caller())
        was, inside = inside, True
        try:
            return original_parse(source, *args, **kwargs)
        finally:
            inside = was

    def compile_(source: Any, *args: Any, **kwargs: Any) -> Any:
        mode = kwargs.get("mode", args[1] if len(args) > 1 else None)
        flags = kwargs.get("flags", args[2] if len(args) > 2 else 0)
        if (
            not inside
            and isinstance(source, str)
            and (mode == "exec" or flags & ast.PyCF_ONLY_AST)
            and mode != "eval"
        ):
            parses.seen.append(("compile", source))
            parses.callers.append(_caller())
        return original_compile(source, *args, **kwargs)

    def parse_module(source: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(source, str):
            parses.seen.append(("libcst", source))
            parses.callers.append(_caller())
        return original_cst(source, *args, **kwargs)

    ast.parse = parse
    builtins.compile = compile_
    libcst.parse_module = parse_module
    try:
        yield parses
    finally:
        ast.parse = original_parse
        builtins.compile = original_compile
        libcst.parse_module = original_cst
