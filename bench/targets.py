"""Issue 19's targets, measured in one run: apisurface (BASE and NEW) against griffe.

    python bench/targets.py                 # every target, 3 rounds, BASE = main
    python bench/targets.py --base REF      # another base (any ref or commit)
    python bench/targets.py --rounds 5 --only small,django
    python bench/targets.py --only tensorflow    # 250 MB wheel; minutes per round
    python bench/targets.py --pool          # where a worker pool starts to pay

Targets (issue 19, "Targets"), each a ratio of two steps measured in the same round and
reported as the median over the rounds (the rounds interleave every step, so a busy shared
machine disturbs both sides of a ratio alike):

- small:  ``diff OLD NEW`` of four small real packages with an empty cache (a PR bot on a
          fresh CI machine), summed, against griffe's ``load`` + ``load`` +
          ``find_breaking_changes`` on the same pairs: at most 1.0x;
- sympy:  ``snapshot`` with an empty cache against ``griffe.load``: at most 0.6x; one file
          edited (warm per-file entries) against a cold run of the edited tree: at most 15%;
- tensorflow: ``snapshot`` of the tensorflow-cpu 2.20.0 wheel's ``tensorflow`` package with
          an empty cache against ``griffe.load``: at most 0.8x;
- django: ``diff`` 5.1.9 -> 5.2.1 with a warm cache against griffe's check: >= 10x faster.

Each step runs in its own process (``wait4``: wall, CPU = user + system of the process and
the workers it waited for, peak resident memory). BASE is exported with ``git archive``
into a temporary folder; NEW is the tree this script is in; both run as ``python -m
apisurface`` with ``PYTHONPATH`` set to their ``src`` (byte-compiled first, as an install
is: see :func:`compiled`) and their own cache folders. Wheels
come from PyPI with ``pip download --only-binary=:all:`` (bench/run.py's ``download``; never
built or run). ``--pool`` times ``snapshot --no-cache`` of packages of growing size with
``APISURFACE_WORKERS=0`` and ``=1`` (NEW only), the measurement behind
``surface/visit/workers.py``'s threshold.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import GRIFFE_CHECK, GRIFFE_LOAD, Measure, download, machine, measure  # noqa: E402

SMALL = {
    # name: (old release, new release): small pure-Python packages, wheels on PyPI
    "idna": ("3.6", "3.7"),
    "click": ("8.1.7", "8.1.8"),
    "packaging": ("23.2", "24.1"),
    "platformdirs": ("4.2.2", "4.3.6"),
}
SYMPY = ("sympy", "1.14.0")
DJANGO = ("django", "5.1.9", "5.2.1")
TENSORFLOW = ("tensorflow-cpu", "2.20.0", "tensorflow")  # distribution, version, package
POOL_SIZES = [
    ("idna", "3.7"),
    ("platformdirs", "4.3.6"),
    ("packaging", "24.1"),
    ("click", "8.1.8"),
    ("requests", "2.32.3"),
    ("attrs", "24.2.0"),
    ("pyparsing", "3.2.0"),
    ("urllib3", "2.2.3"),
    ("jinja2", "3.1.4"),
    ("pygments", "2.18.0"),
    ("django", "5.2.1"),
    ("sympy", "1.14.0"),
]

Rounds = dict[str, list[Measure]]


def export(ref: str, folder: Path) -> Path:
    """``ref``'s tree, exported with git archive (its ``src`` is what runs)."""
    root = HERE.parent
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref, "src"], cwd=root, capture_output=True, check=True
    ).stdout
    folder.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def compiled(src: Path) -> None:
    """Byte-compile a tree's ``src``, as ``pip install`` does for griffe (and for apisurface
    from a wheel): with ``PYTHONDONTWRITEBYTECODE`` set (this machine sets it), a tree run
    from its sources would otherwise compile each of its modules again in every process
    (0.24 s of a 1 s cold diff of idna), a cost no installed user pays."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True)


class Runner:
    """Runs steps in fresh processes and keeps every measurement by label."""

    def __init__(self, scratch: Path, tools: dict[str, Path]) -> None:
        self.scratch = scratch
        self.tools = tools
        self.results: Rounds = defaultdict(list)
        self.caches = 0

    def fresh_cache(self) -> Path:
        self.caches += 1
        return self.scratch / f"cache-{self.caches}"

    def tool(
        self, label: str, tool: str, args: list[str], cache: Path, env: dict[str, str] | None = None
    ) -> Measure:
        environment = {
            **os.environ,
            "PYTHONPATH": str(self.tools[tool] / "src"),
            "APISURFACE_CACHE_DIR": str(cache),
            **(env or {}),
        }
        result = measure([sys.executable, "-m", "apisurface", *args], env=environment)
        return self.keep(f"{label} [{tool}]", result)

    def python(self, label: str, code: str, *args: str) -> Measure:
        return self.keep(label, measure([sys.executable, "-c", code, *args]))

    def keep(self, label: str, result: Measure) -> Measure:
        self.results[label].append(result)
        print(
            f"  {label:46} {result.wall:7.2f} s  cpu {result.cpu:6.2f} s  {result.rss_mb:6.0f} MB",
            flush=True,
        )
        return result


def small_round(runner: Runner, out: Path) -> None:
    for name, (old_version, new_version) in SMALL.items():
        old, new = download(name, old_version), download(name, new_version)
        runner.python(f"small {name}: griffe check", GRIFFE_CHECK, str(old), str(new), name)
        for tool in runner.tools:
            args = ["diff", str(old), str(new), "--package", name, "--format", "json"]
            runner.tool(
                f"small {name}: diff cold", tool, [*args, "-o", str(out)], runner.fresh_cache()
            )


def sympy_round(runner: Runner, out: Path, number: int) -> None:
    name, version = SYMPY
    source = download(name, version)
    runner.python("sympy: griffe.load", GRIFFE_LOAD, str(source), name)
    for tool in runner.tools:
        tree = runner.scratch / f"sympy-{tool}-{number}"
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(source / name, tree / name)
        cache = runner.fresh_cache()
        snapshot = ["snapshot", str(tree), "--package", name, "-o", str(out)]
        runner.tool("sympy: snapshot cold (empty cache)", tool, snapshot, cache)
        victim = tree / name / "core" / "add.py"
        with victim.open("a", encoding="utf-8") as handle:
            handle.write(f'\n\ndef added_by_bench_{number}():\n    """Added."""\n')
        runner.tool("sympy: snapshot, one file edited", tool, snapshot, cache)
        runner.tool("sympy: edited tree cold (empty cache)", tool, snapshot, runner.fresh_cache())


def tensorflow_round(runner: Runner, out: Path) -> None:
    name, version, package = TENSORFLOW
    source = download(name, version, package)
    runner.python("tensorflow: griffe.load", GRIFFE_LOAD, str(source), package)
    for tool in runner.tools:
        snapshot = ["snapshot", str(source), "--package", package, "-o", str(out)]
        runner.tool("tensorflow: snapshot cold (empty cache)", tool, snapshot, runner.fresh_cache())


def django_round(runner: Runner, out: Path, caches: dict[str, Path]) -> None:
    name, old_version, new_version = DJANGO
    old, new = download(name, old_version), download(name, new_version)
    runner.python("django: griffe check", GRIFFE_CHECK, str(old), str(new), name)
    for tool in runner.tools:
        args = ["diff", str(old), str(new), "--package", name, "--format", "json", "-o", str(out)]
        if tool not in caches:
            caches[tool] = runner.fresh_cache()
            runner.tool("django: diff cold (fills the cache)", tool, args, caches[tool])
        runner.tool("django: diff warm", tool, args, caches[tool])


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ratios(
    results: Rounds, top: Callable[[int], float], bottom: Callable[[int], float], rounds: int
) -> list[float]:
    found = []
    for index in range(rounds):
        try:
            found.append(top(index) / bottom(index))
        except (IndexError, ZeroDivisionError):
            continue
    return found


def report(runner: Runner, rounds: int) -> None:
    results = runner.results
    print("\nmedians over the rounds (wall s, CPU s, peak MB):")
    for label, measured in results.items():
        print(
            f"  {label:46} {_median([m.wall for m in measured]):7.2f}  "
            f"{_median([m.cpu for m in measured]):7.2f}  "
            f"{_median([m.rss_mb for m in measured]):6.0f}"
        )

    def wall(label: str) -> Callable[[int], float]:
        return lambda index: results[label][index].wall

    def cpu(label: str) -> Callable[[int], float]:
        return lambda index: results[label][index].cpu

    def total(labels: list[str], pick: str) -> Callable[[int], float]:
        return lambda index: sum(getattr(results[label][index], pick) for label in labels)

    print("\ntargets (median of the per-round ratios, wall; CPU in brackets):")
    for tool in runner.tools:
        rows: list[tuple[str, list[float], list[float], float, bool]] = []
        if any(label.startswith("small ") for label in results):
            ours = [f"small {name}: diff cold [{tool}]" for name in SMALL]
            theirs = [f"small {name}: griffe check" for name in SMALL]
            rows.append(
                (
                    "small packages, cold diff / griffe check (<= 1.0)",
                    ratios(results, total(ours, "wall"), total(theirs, "wall"), rounds),
                    ratios(results, total(ours, "cpu"), total(theirs, "cpu"), rounds),
                    1.0,
                    False,
                )
            )
        if "sympy: griffe.load" in results:
            cold = f"sympy: snapshot cold (empty cache) [{tool}]"
            edited = f"sympy: snapshot, one file edited [{tool}]"
            edited_cold = f"sympy: edited tree cold (empty cache) [{tool}]"
            rows.append(
                (
                    "sympy cold snapshot / griffe.load (<= 0.6)",
                    ratios(results, wall(cold), wall("sympy: griffe.load"), rounds),
                    ratios(results, cpu(cold), cpu("sympy: griffe.load"), rounds),
                    0.6,
                    False,
                )
            )
            rows.append(
                (
                    "sympy one file edited / cold (<= 0.15)",
                    ratios(results, wall(edited), wall(edited_cold), rounds),
                    ratios(results, cpu(edited), cpu(edited_cold), rounds),
                    0.15,
                    False,
                )
            )
        if "tensorflow: griffe.load" in results:
            cold = f"tensorflow: snapshot cold (empty cache) [{tool}]"
            rows.append(
                (
                    "tensorflow cold snapshot / griffe.load (<= 0.8)",
                    ratios(results, wall(cold), wall("tensorflow: griffe.load"), rounds),
                    ratios(results, cpu(cold), cpu("tensorflow: griffe.load"), rounds),
                    0.8,
                    False,
                )
            )
        if "django: griffe check" in results:
            warm = f"django: diff warm [{tool}]"
            rows.append(
                (
                    "django griffe check / warm diff (>= 10)",
                    ratios(results, wall("django: griffe check"), wall(warm), rounds),
                    ratios(results, cpu("django: griffe check"), cpu(warm), rounds),
                    10.0,
                    True,
                )
            )
        print(f"  {tool}:")
        for title, by_wall, by_cpu, limit, at_least in rows:
            value = _median(by_wall)
            met = value >= limit if at_least else value <= limit
            spread = f"{min(by_wall):.2f}-{max(by_wall):.2f}" if by_wall else "-"
            print(
                f"    {title:50} {value:6.2f} ({spread}) [cpu {_median(by_cpu):.2f}]  "
                f"{'met' if met else 'NOT met'}"
            )


def pool(runner: Runner, out: Path, rounds: int) -> None:
    """Serial against one worker, by the size of the package's text."""
    sizes = {}
    for name, version in POOL_SIZES:
        try:
            folder = download(name, version)
        except subprocess.CalledProcessError:
            print(f"  {name}=={version}: not downloadable, skipped")
            continue
        sizes[name] = (folder, sum(p.stat().st_size for p in (folder / name).rglob("*.py")))
    for _ in range(rounds):
        for name, (folder, _size) in sorted(sizes.items(), key=lambda item: item[1][1]):
            for workers in ("0", "1"):
                runner.tool(
                    f"pool {name}: workers={workers}",
                    "new",
                    ["snapshot", str(folder), "--package", name, "--no-cache", "-o", str(out)],
                    runner.scratch / "unused",
                    env={"APISURFACE_WORKERS": workers},
                )
    print("\nmedian wall s (CPU s) by bytes of source; workers=1 / workers=0:")
    for name, (_folder, size) in sorted(sizes.items(), key=lambda item: item[1][1]):
        serial = runner.results[f"pool {name}: workers=0 [new]"]
        parallel = runner.results[f"pool {name}: workers=1 [new]"]
        per_round = [p.wall / s.wall for s, p in zip(serial, parallel, strict=False)]
        print(
            f"  {name:14} {size / 1e6:7.2f} MB  serial {_median([m.wall for m in serial]):6.2f} "
            f"({_median([m.cpu for m in serial]):5.2f})  one worker "
            f"{_median([m.wall for m in parallel]):6.2f} "
            f"({_median([m.cpu for m in parallel]):5.2f})"
            f"  ratio {_median(per_round):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="the ref to compare with (default: main)")
    parser.add_argument("--no-base", action="store_true", help="measure NEW only")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--only", default="small,sympy,django", help="any of small,sympy,tensorflow,django"
    )
    parser.add_argument("--pool", action="store_true", help="measure the worker threshold")
    args = parser.parse_args()
    print(machine(), flush=True)
    with tempfile.TemporaryDirectory(prefix="apisurface-targets-") as scratch_name:
        scratch = Path(scratch_name)
        tools = {"new": HERE.parent}
        if not args.no_base and not args.pool:
            tools = {"base": export(args.base, scratch / "base"), **tools}
        for folder in tools.values():
            compiled(folder / "src")
        runner = Runner(scratch, tools)
        out = scratch / "out.json"
        if args.pool:
            pool(runner, out, args.rounds)
            return
        only = set(args.only.split(","))
        django_caches: dict[str, Path] = {}
        for number in range(args.rounds):
            print(f"round {number + 1} of {args.rounds}", flush=True)
            if "small" in only:
                small_round(runner, out)
            if "sympy" in only:
                sympy_round(runner, out, number)
            if "tensorflow" in only:
                tensorflow_round(runner, out)
            if "django" in only:
                django_round(runner, out, django_caches)
        report(runner, args.rounds)


if __name__ == "__main__":
    main()
