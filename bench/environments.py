"""uv against venv + pip for --verify's environments, on a cold and a warm download cache.

    python bench/environments.py                    # webargs==8.0.1 and flask, 3 rounds
    python bench/environments.py --rounds 5 attrs==23.2.0

Each round makes a new environment and installs the requirements into it, four ways:
``uv venv`` + ``uv pip install`` and ``python -m venv --without-pip`` + ``pip install
--prefix`` (apisurface's own pip, so no code of the installed packages runs), each once
with an empty download cache (cold) and once with the cache of the cold run (warm); and
apisurface's own ``prepare`` (uv through the sandbox) on a warm cache. Both installers reach
PyPI directly (pip's configuration files are not read). Prints the median seconds of each
and the ratios. Timings on a shared machine vary; run it when the machine is quiet.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from apisurface.verify.environments import NO_UV, IndexSettings, Release, find_uv, prepare


def _timed(commands: list[list[str]], env: dict[str, str]) -> float:
    began = time.monotonic()
    for command in commands:
        subprocess.run(command, check=True, env=env, capture_output=True)
    return time.monotonic() - began


def _uv(uv: Path, folder: Path, cache: Path, requirements: list[str]) -> float:
    env = {**os.environ, "UV_CACHE_DIR": str(cache), "UV_NO_CONFIG": "1"}
    venv = folder / "uv-env"
    return _timed(
        [
            [str(uv), "venv", "--quiet", str(venv)],
            [
                str(uv),
                "pip",
                "install",
                "--quiet",
                "--python",
                str(venv / "bin" / "python"),
                *requirements,
            ],
        ],
        env,
    )


def _pip(folder: Path, cache: Path, requirements: list[str]) -> float:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env.update({"PIP_CACHE_DIR": str(cache), "PIP_CONFIG_FILE": os.devnull})
    venv = folder / "pip-env"
    return _timed(
        [
            [sys.executable, "-m", "venv", "--without-pip", str(venv)],
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--index-url",
                "https://pypi.org/simple",
                "--ignore-installed",
                "--prefix",
                str(venv),
                *requirements,
            ],
        ],
        env,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requirements", nargs="*", default=["webargs==8.0.1", "flask"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    uv = find_uv()
    if uv is None:
        print(NO_UV, file=sys.stderr)
        return 2
    times: dict[str, list[float]] = {}
    name, _, version = args.requirements[0].partition("==")
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="bench-envs-") as scratch:
            root = Path(scratch)
            for tool, run in (("uv", _uv), ("pip", None)):
                cache = root / f"{tool}-cache"
                for state in ("cold", "warm"):
                    folder = root / f"{tool}-{state}"
                    folder.mkdir()
                    if run is not None:
                        seconds = _uv(uv, folder, cache, args.requirements)
                    else:
                        seconds = _pip(folder, cache, args.requirements)
                    times.setdefault(f"{tool} {state}", []).append(seconds)
                    shutil.rmtree(folder)
            if version:
                release = Release.from_index(name, version, also=tuple(args.requirements[1:]))
                cold = root / "prepare-cold"
                began = time.monotonic()
                prepare(release, cache_dir=cold, settings=IndexSettings())
                times.setdefault("apisurface prepare (uv cache cold)", []).append(
                    time.monotonic() - began
                )
                shutil.rmtree(cold / "environments")
                began = time.monotonic()
                prepare(release, cache_dir=cold, settings=IndexSettings())
                times.setdefault("apisurface prepare (uv cache warm)", []).append(
                    time.monotonic() - began
                )
                began = time.monotonic()
                prepare(release, cache_dir=cold, settings=IndexSettings())
                times.setdefault("apisurface prepare (environment reused)", []).append(
                    time.monotonic() - began
                )
    medians = {label: statistics.median(values) for label, values in times.items()}
    print(f"requirements: {' '.join(args.requirements)}; {args.rounds} rounds, median seconds")
    for label, seconds in medians.items():
        print(f"  {label:42} {seconds:7.2f}")
    for state in ("cold", "warm"):
        ratio = medians[f"pip {state}"] / medians[f"uv {state}"]
        print(f"  venv + pip / uv, {state}: {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
