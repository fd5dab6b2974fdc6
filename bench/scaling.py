"""Scaling check: time per symbol for snapshot and diff on generated packages.

Generates packages of about 1k, 10k and 100k public symbols (100 per module: 10 documented
classes with 9 documented methods each), and a second version of each with 1% of the
methods changed, then times ``apisurface snapshot`` (cold, no cache) of each version and
``apisurface diff`` of the two snapshot files. Per-symbol cost should stay flat. The CPU
column (user + system time of the diff process) is what a busy shared machine disturbs
least.

    python bench/scaling.py [--sizes 1000,10000,100000] [--runs 1]

With ``--runs N`` the diff runs N times: its columns show min-max (us / symbol: of the min).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def generate(root: Path, symbols: int, *, changed: bool) -> None:
    package = root / "gen"
    package.mkdir(parents=True)
    modules = max(symbols // 100, 1)
    (package / "__init__.py").write_text('"""Generated package."""\n', encoding="utf-8")
    for index in range(modules):
        lines = [f'"""Module {index}."""', ""]
        for number in range(10):
            lines += [f"class Class{number}:", f'    """Class {number}."""', ""]
            for method in range(9):
                # 1% of the methods gain a required parameter in the changed version.
                extra = (
                    ", *, extra: int"
                    if changed and (index * 90 + number * 9 + method) % 100 == 0
                    else ""
                )
                lines += [
                    f"    def method{method}(self, value: int, name: str = 'x'{extra}) -> str:",
                    f'        """Method {method}."""',
                    "        return name * value",
                    "",
                ]
        (package / f"module{index:05}.py").write_text("\n".join(lines), encoding="utf-8")


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of running ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode not in (0, 1):
        raise SystemExit(completed.stderr)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _span(values: list[float]) -> str:
    low, high = f"{values[0]:.2f}", f"{values[-1]:.2f}"
    return low if low == high else f"{low}-{high}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=1, help="diff runs per size")
    arguments = parser.parse_args()
    apisurface = [sys.executable, "-m", "apisurface"]
    print("| symbols | snapshot s | us / symbol | diff s | us / symbol | diff CPU s |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    os.environ.setdefault("APISURFACE_WORKERS", "0")
    for size in (int(item) for item in arguments.sizes.split(",")):
        with tempfile.TemporaryDirectory(prefix="apisurface-scaling-") as scratch_name:
            scratch = Path(scratch_name)
            generate(scratch / "old", size, changed=False)
            generate(scratch / "new", size, changed=True)
            old_json, new_json = scratch / "old.json", scratch / "new.json"
            snapshot, _ = timed(
                [*apisurface, "snapshot", str(scratch / "old"), "--no-cache", "-o", str(old_json)]
            )
            timed(
                [*apisurface, "snapshot", str(scratch / "new"), "--no-cache", "-o", str(new_json)]
            )
            diffs = [
                timed(
                    [
                        *apisurface,
                        "diff",
                        str(old_json),
                        str(new_json),
                        "--format",
                        "json",
                        "-o",
                        str(scratch / "report.json"),
                    ]
                )
                for _ in range(arguments.runs)
            ]
            walls = sorted(wall for wall, _ in diffs)
            cpus = sorted(cpu for _, cpu in diffs)
            print(
                f"| {size} | {snapshot:.2f} | {snapshot / size * 1e6:.0f} | {_span(walls)} | "
                f"{walls[0] / size * 1e6:.1f} | {_span(cpus)} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
