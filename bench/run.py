"""Benchmark apisurface on real packages against the floor (ast.parse) and griffe.

Downloads wheels with pip into bench/.cache/run (pure-Python source is what is measured),
then prints, for each package, wall and CPU seconds and peak memory of:
ast.parse of every file, griffe.load, ``apisurface snapshot`` cold/warm/after editing one
file, ``apisurface diff`` of two releases (git tags) cold/warm, and griffe's
``find_breaking_changes`` on the same two releases. Each step runs in its own process.

    python bench/run.py [--packages django,sympy,numpy] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache" / "run"
RESULTS = HERE / "results"
PACKAGES = {
    # name: (old release, new release)
    "django": ("5.1.9", "5.2.1"),
    "sympy": ("1.13.3", "1.14.0"),
    "numpy": ("2.2.6", "2.3.1"),
}
GIT_ENV = {
    **os.environ,
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}

AST_FLOOR = """
import ast, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    try:
        ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        pass
"""
GRIFFE_LOAD = """
import sys, griffe
griffe.load(sys.argv[2], search_paths=[sys.argv[1]], allow_inspection=False)
"""
GRIFFE_CHECK = """
import sys, griffe
old = griffe.load(sys.argv[3], search_paths=[sys.argv[1]], allow_inspection=False)
new = griffe.load(sys.argv[3], search_paths=[sys.argv[2]], allow_inspection=False,
                  modules_collection=griffe.ModulesCollection())
print(sum(1 for _ in griffe.find_breaking_changes(old, new)), "breakages")
"""


@dataclass
class Measure:
    wall: float
    cpu: float
    rss_mb: float


def measure(
    command: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> Measure:
    """Run ``command``; its wall time, CPU time and peak resident memory."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.returncode not in (0, 1):
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{stderr[-2000:]}")
    return Measure(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def download(name: str, version: str, package: str | None = None) -> Path:
    """The unpacked wheel of ``name==version`` (downloaded once): the folder holding its
    import package ``package`` (default: ``name``, e.g. ``tensorflow`` for
    ``tensorflow-cpu``)."""
    package = package or name
    target = CACHE / "src" / f"{name}-{version}"
    if (target / package).is_dir():
        return target
    wheels = CACHE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            str(wheels),
            f"{name}=={version}",
        ],
        check=True,
    )
    wheel = next(wheels.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        members = [item for item in archive.namelist() if item.startswith(f"{package}/")]
        archive.extractall(target, members)
    return target


def git_pair(name: str, old: Path, new: Path, tags: tuple[str, str]) -> Path:
    """A repository with the two releases committed and tagged."""
    repo = CACHE / "git" / name
    if (repo / ".git").is_dir():
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir(parents=True)

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    for source, tag in ((old, tags[0]), (new, tags[1])):
        shutil.rmtree(repo / name, ignore_errors=True)
        shutil.copytree(source / name, repo / name)
        git("add", "-A")
        git("commit", "-q", "-m", tag)
        git("tag", tag)
    return repo


def lines_of(folder: Path) -> tuple[int, int]:
    files = list(folder.rglob("*.py"))
    return len(files), sum(path.read_bytes().count(b"\n") for path in files)


def bench(name: str, rows: list[tuple[str, str, Measure]]) -> None:
    old_version, new_version = PACKAGES[name]
    old, new = download(name, old_version), download(name, new_version)
    files, lines = lines_of(new / name)
    print(f"\n{name} {new_version}: {files} files, {lines} lines", flush=True)
    python, apisurface = sys.executable, [sys.executable, "-m", "apisurface"]
    with tempfile.TemporaryDirectory(prefix="apisurface-bench-") as scratch_name:
        scratch = Path(scratch_name)
        env = {**os.environ, "APISURFACE_CACHE_DIR": str(scratch / "cache")}
        output = str(scratch / "out.json")

        def row(label: str, command: list[str], cwd: Path | None = None) -> Measure:
            result = measure(command, cwd=cwd, env=env)
            rows.append((name, label, result))
            print(
                f"  {label:34} {result.wall:8.2f} s  cpu {result.cpu:7.2f} s  "
                f"{result.rss_mb:7.0f} MB",
                flush=True,
            )
            return result

        row("ast.parse floor", [python, "-c", AST_FLOOR, str(new / name)])
        row("griffe.load", [python, "-c", GRIFFE_LOAD, str(new), name])
        snapshot = [*apisurface, "snapshot", str(new), "--package", name, "-o", output]
        row("snapshot cold", snapshot)
        row("snapshot warm", snapshot)
        # One file edited (a docstring added to a module in the middle of the package).
        edited = scratch / "edited"
        shutil.copytree(new / name, edited / name)
        modules = sorted((edited / name).rglob("*.py"))
        victim = modules[len(modules) // 2]
        row(
            "snapshot warm (copy)",
            [*apisurface, "snapshot", str(edited), "--package", name, "-o", output],
        )
        with victim.open("a", encoding="utf-8") as handle:
            handle.write('\n\ndef added_by_bench():\n    """Added."""\n')
        row(
            "snapshot, one file edited",
            [*apisurface, "snapshot", str(edited), "--package", name, "-o", output],
        )
        repo = git_pair(name, old, new, (old_version, new_version))
        diff = [
            *apisurface,
            "diff",
            old_version,
            new_version,
            "--package",
            name,
            "--format",
            "json",
            "-o",
            output,
        ]
        env["APISURFACE_CACHE_DIR"] = str(scratch / "diff-cache")
        row("diff cold (git tags)", diff, cwd=repo)
        row("diff warm (git tags)", diff, cwd=repo)
        row(
            "griffe check (find_breaking_changes)",
            [python, "-c", GRIFFE_CHECK, str(old), str(new), name],
        )


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 1024 / 1024:.0f} GB RAM"
    except (OSError, ValueError, IndexError):
        pass
    try:
        import prune_source  # noqa: F401, PLC0415

        faster = "griffelib[faster] (prune-source) installed"
    except ImportError:
        faster = "griffelib[faster] not installed"
    return (
        f"{cpu}, {os.cpu_count()} cores{memory}; Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; {faster}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--packages", default=",".join(PACKAGES))
    arguments = parser.parse_args()
    rows: list[tuple[str, str, Measure]] = []
    described = machine()
    print(described)
    for name in arguments.packages.split(","):
        bench(name, rows)
    lines = [
        f"Machine: {described}",
        "",
        "| package | step | wall s | CPU s | peak MB | wall / griffe.load |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    base = {name: m.wall for name, label, m in rows if label == "griffe.load"}
    for name, label, result in rows:
        ratio = result.wall / base[name] if base.get(name) else float("nan")
        lines.append(
            f"| {name} | {label} | {result.wall:.2f} | {result.cpu:.2f} | "
            f"{result.rss_mb:.0f} | {ratio:.2f} |"
        )
    table = "\n".join(lines) + "\n"
    print("\n" + table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"run-{time.strftime('%Y%m%d-%H%M%S')}.md").write_text(table, encoding="utf-8")


if __name__ == "__main__":
    main()
