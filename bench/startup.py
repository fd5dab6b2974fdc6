"""Start-up cost: `apisurface --version`, `-V`, `--help` and a mistyped flag, against
`python -c pass` (the floor: starting the interpreter).

The command imports the analysis stack (griffe, libcst, rich) only in the commands that
load a source, so these should cost little more than the interpreter itself. Prints the
median of N runs of each and its ratio to the floor.

    python bench/startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def median_seconds(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=False)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs per command (default: 20)")
    args = parser.parse_args()
    entry = [sys.executable, "-c", "from apisurface.cli import run; run()"]
    floor = median_seconds([sys.executable, "-c", "pass"], args.runs)
    print(f"{'python -c pass':32} {floor * 1000:7.1f} ms   1.00x")
    for label, extra in (
        ("apisurface --version", ["--version"]),
        ("apisurface -V", ["-V"]),
        ("apisurface --help", ["--help"]),
        ("apisurface diff --help", ["diff", "--help"]),
        ("apisurface diff a b --fromat x", ["diff", "a", "b", "--fromat", "x"]),
    ):
        seconds = median_seconds([*entry, *extra], args.runs)
        print(f"{label:32} {seconds * 1000:7.1f} ms {seconds / floor:6.2f}x")


if __name__ == "__main__":
    main()
