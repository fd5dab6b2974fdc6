"""How often each file is parsed in one run: whole-module parses per file, and libcst parses.

    python bench/parses.py diff OLD NEW --package click
    python bench/parses.py snapshot src --package apisurface

Runs ``apisurface ARGS --no-cache`` in this process with no workers (so every parse is
seen) under the counting harness of tests/parsecount.py, and prints, for the files of the
sources given (every ``.py``/``.pyi`` under them): the whole-module parses in total and the
most of one file, and the libcst parses. Numbers, not a pass/fail test
(tests/test_parses.py asserts the bound).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from parsecount import counting  # noqa: E402


def _files(source: Path) -> dict[str, str]:
    found = {}
    for path in sorted([*source.rglob("*.py"), *source.rglob("*.pyi")]):
        if path.is_file():
            found[str(path)] = path.read_text(encoding="utf-8", errors="surrogateescape")
    return found


def main(argv: list[str]) -> int:
    os.environ["APISURFACE_WORKERS"] = "0"
    from apisurface.cli import main as cli  # noqa: PLC0415

    sources = [Path(arg) for arg in argv[1:] if not arg.startswith("-") and Path(arg).is_dir()]
    out = io.StringIO()
    with counting() as parses, contextlib.redirect_stdout(out):
        code = cli([*argv, "--no-cache"])
    files: dict[str, str] = {}
    for source in sources:
        files.update(_files(source))
    whole, cst = parses.per_file(files)
    sides = max(len(sources), 1)
    print(
        f"{' '.join(argv)}: exit {code}; {len(files)} files ({sides} side(s)): "
        f"{sum(whole.values())} whole-module parses "
        f"({sum(whole.values()) / max(len(files), 1):.2f} per file, most for one file "
        f"{max(whole.values(), default=0)}), {sum(cst.values())} libcst parses "
        f"(most for one file {max(cst.values(), default=0)}); "
        f"{len(parses.seen)} parses seen in all"
    )
    callers = Counter(
        f"{parser}:{caller}"
        for (parser, text), caller in zip(parses.seen, parses.callers, strict=True)
        if parses.whole_module(parser, text, files)
    )
    print("  whole-module parses by caller:", dict(callers.most_common()))
    rest = Counter(
        f"{parser}:{caller}"
        for (parser, text), caller in zip(parses.seen, parses.callers, strict=True)
        if not parses.whole_module(parser, text, files)
    )
    print("  other parses (excerpts, expressions) by caller:", dict(rest.most_common()))
    for relpath, count in whole.most_common(3):
        print(f"  {count} x {relpath}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
