"""Growth of call compatibility on overloads of many parameters (issue 20 item 7).

Generates a module ``pkg`` whose function ``f`` has COUNT ``@overload`` definitions of
SIZE parameters each (every parameter typed ``T | int``, so an old overload that no new one
covers whole is tried again per union member), and a second version in which every
overload's last parameter is renamed (no old overload is covered). Then times
the diff of the two surfaces (CPU seconds, the surfaces built first) in a fresh process
with a time limit, at each size, and prints each time as a ratio of the first size's::

    python bench/overloads.py [--sizes 10x12,10x24,10x50] [--timeout 120] [--src PATH]

``--src`` puts another checkout's ``src`` first on ``PYTHONPATH`` (before/after). Sizes past
the cap (``binding.MAX_CALLS``) are reported as inferred, so their time stays flat.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def source(count: int, size: int, *, renamed: bool) -> str:
    lines = ['"""Pkg."""', "from typing import overload", ""]
    for index in range(count):
        names = [f"p{j}" for j in range(size)]
        if renamed:
            names[-1] = f"q{size}"
        parameters = ", ".join(
            f"{name}: T{index} | int" + (" = 1" if j >= size // 2 else "")
            for j, name in enumerate(names)
        )
        lines += ["@overload", f"def f({parameters}) -> R{index}: ..."]
    lines += ["def f(*args, **kwargs):", '    """F."""', ""]
    return "\n".join(lines)


_CHILD = """
import json, sys, time
from apisurface.compare.diff import diff_surfaces
from apisurface.project.sources import SourceFile
from apisurface.surface.collect import surface_from_sources
old, new = (
    surface_from_sources("pkg", [SourceFile("pkg", "pkg/__init__.py", open(p).read())])
    for p in sys.argv[1:3]
)
began = time.process_time()
changes = diff_surfaces(old, new)
elapsed = time.process_time() - began
inferred = sum(not change.evidence.proven for change in changes)
print(json.dumps([elapsed, len(changes), inferred]))
"""


def measure(count: int, size: int, timeout: float, src: str | None) -> tuple[float | None, str]:
    """CPU seconds of the diff alone (the surfaces are built first), in a fresh process."""
    with tempfile.TemporaryDirectory(prefix="apisurface-overloads-") as folder:
        paths = []
        for name, renamed in (("old", False), ("new", True)):
            path = Path(folder) / f"{name}.py"
            path.write_text(source(count, size, renamed=renamed), encoding="utf-8")
            paths.append(str(path))
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        command = [sys.executable, "-c", _CHILD, *paths]
        try:
            completed = subprocess.run(
                command, env=env, capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return None, f"killed after {timeout:.0f} s"
        if completed.returncode != 0:
            return None, (completed.stderr.strip().splitlines() or ["failed"])[-1]
        elapsed, changes, inferred = json.loads(completed.stdout)
        size_kb = len(source(count, size, renamed=False)) / 1024
        return elapsed, f"{changes} changes, {inferred} inferred, {size_kb:.1f} KB of source"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10x12,10x24,10x50,40x50")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--src", help="another checkout's src folder, first on PYTHONPATH")
    args = parser.parse_args()
    first: float | None = None
    for spec in args.sizes.split(","):
        count, size = (int(part) for part in spec.split("x"))
        elapsed, status = measure(count, size, args.timeout, args.src)
        label = f"{count:3} overloads x {size:3} parameters"
        if elapsed is None:
            print(f"{label}  {status}", flush=True)
            continue
        first = first or max(elapsed, 1e-6)
        print(f"{label}  {elapsed:7.2f} s  x{elapsed / first:7.2f}  {status}", flush=True)


if __name__ == "__main__":
    main()
