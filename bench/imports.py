"""What a command imports: modules loaded and the sum of their own import times
(``python -X importtime``), median of N runs, for this tree and optionally another one.

Each command imports only what it uses (rich for a console, libcst for deprecation markers
and migrations, urllib.request for a download): this shows what a small diff or ``--help``
loads. With ``--base SRC`` (another checkout's ``src`` folder) each run of this tree is
interleaved with one of the other, and the ratio is printed.

    python bench/imports.py [--runs 5] [--base /work/main/src]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "fixtures" / "demo"


def measure(argv: list[str], src: Path) -> tuple[int, int]:
    """(modules imported, sum of their self import times in microseconds) of one run."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    completed = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "apisurface", *argv],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    rows = [
        line
        for line in completed.stderr.splitlines()
        if line.startswith("import time:") and "self [us]" not in line
    ]
    return len(rows), sum(int(row.split(":", 1)[1].split("|")[0]) for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per command (default: 5)")
    parser.add_argument("--base", type=Path, help="another tree's src folder to compare with")
    args = parser.parse_args()
    trees = {"this": ROOT / "src"} | ({"base": args.base} if args.base else {})
    with tempfile.TemporaryDirectory() as cache:
        warm = ["diff", str(DEMO / "old"), str(DEMO / "new"), "--cache-dir", cache]
        commands = {
            "--help": ["--help"],
            "diff demo, cold (--no-cache)": [*warm[:3], "--no-cache"],
            "diff demo, warm cache": warm,
            "diff demo, warm, --format json": [*warm, "--format", "json"],
        }
        for src in trees.values():  # fill the cache of both trees' keys
            measure(commands["diff demo, warm cache"], src)
        for label, argv in commands.items():
            counts: dict[str, list[int]] = {name: [] for name in trees}
            times: dict[str, list[int]] = {name: [] for name in trees}
            for _ in range(args.runs):
                for name, src in trees.items():
                    count, micros = measure(argv, src)
                    counts[name].append(count)
                    times[name].append(micros)
            line = f"{label:34}"
            for name in trees:
                count, ms = statistics.median(counts[name]), statistics.median(times[name]) / 1000
                line += f"  {name}: {count:5.0f} modules {ms:7.1f} ms"
            if args.base:
                ratio = statistics.median(times["this"]) / statistics.median(times["base"])
                line += f"  this/base {ratio:4.2f}x"
            print(line)


if __name__ == "__main__":
    main()
