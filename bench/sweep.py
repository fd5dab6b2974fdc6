"""The real-world sweep: snapshot popular pure-Python packages and diff consecutive releases.

For each name in bench/sweep_packages.txt (or --packages FILE) this script

1. downloads the newest wheel and the newest one before it with
   ``pip download --no-deps --only-binary=:all:`` into bench/.cache/ (wheels only: pip
   would run an sdist's setup.py to read its metadata, and we never execute analysed code);
2. unpacks the ``.py``/``.pyi`` files of each wheel (paths leaving the folder are skipped);
3. runs ``apisurface snapshot`` on each release and ``apisurface diff`` on the two snapshots,
   each in its own process with a time limit;
4. records crashes (a traceback, a signal, or an exit code other than 0/1/2), bad-input
   errors (exit 2), incomplete surfaces (with their problems) and times.

It prints a summary and writes a Markdown table (``--out``, default docs/sweep.md) and the
raw results as JSON (bench/results/sweep.json). Re-runs use the downloads already cached.

    python bench/sweep.py                 # every package of the list, 2 at a time
    python bench/sweep.py --limit 10      # the first 10
    python bench/sweep.py requests click  # just these
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMEOUT = 600
_WHEEL_NAME = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)(-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$")


# Why each incomplete surface of the last sweep is incomplete (read from the packages'
# sources); a new incomplete package without a note is flagged in the report.
NOTES = {
    "typing-extensions": "the names re-exported from typing are assigned in a loop "
    "(`globals()[name] = getattr(typing, name)`), invisible to a static reader",
    "python-dateutil": "weekday constants come from tuple unpacking "
    "(`MO, TU, ... = weekdays = tuple(...)`) and `TZPATH` from a module `__getattr__`",
    "pydantic": "PEP 562 lazy imports (a module `__getattr__`) in `pydantic/__init__.py`; "
    "in `pydantic.v1`, star-imported names defined under `if TYPE_CHECKING:` / `else:`",
    "pygments": "`__all__` is built from the lexer and formatter registries at import time",
    "flask": "`flask/sansio/` has no `__init__.py` (an implicit namespace portion inside a "
    "regular package), which apisurface does not walk (docs/decisions.md)",
}


@dataclass
class Run:
    """One apisurface process: exit code, seconds, and the last stderr line."""

    code: int
    seconds: float
    message: str = ""
    crashed: bool = False


@dataclass
class Result:
    """Everything the sweep learned about one package."""

    name: str
    package: str = ""
    old_version: str = ""
    new_version: str = ""
    files: int = 0
    symbols: int = 0
    skipped: str = ""
    snapshots: list[Run] = field(default_factory=list)
    diff: Run | None = None
    bump: str = ""
    changes: int = 0
    problems: dict[str, list[str]] = field(default_factory=dict)

    @property
    def crashed(self) -> bool:
        runs = [*self.snapshots, *([self.diff] if self.diff else [])]
        return any(run.crashed for run in runs)

    @property
    def errored(self) -> bool:
        runs = [*self.snapshots, *([self.diff] if self.diff else [])]
        return any(run.code == 2 for run in runs)


def _pip_download(requirement: str, folder: Path) -> Path | None:
    folder.mkdir(parents=True, exist_ok=True)
    wheels = sorted(folder.glob("*.whl"))
    if wheels:
        return wheels[0]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            str(folder),
            requirement,
        ],
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    wheels = sorted(folder.glob("*.whl"))
    return wheels[0] if wheels else None


def _version(wheel: Path) -> str:
    match = _WHEEL_NAME.match(wheel.name)
    return match.group("version") if match else "?"


def _unpack(wheel: Path, target: Path) -> tuple[int, list[str]]:
    """Extract the Python files of ``wheel``; return their count and the top-level names."""
    marker = target / ".unpacked"
    if not marker.exists():
        with zipfile.ZipFile(wheel) as archive:
            for info in archive.infolist():
                parts = PurePosixPath(info.filename).parts
                if (
                    not parts
                    or any(part in ("", "..") for part in parts)
                    or info.filename[0] in "/\\"
                ):
                    continue
                wanted = info.filename.endswith((".py", ".pyi")) or parts[-1] == "top_level.txt"
                if not wanted or info.is_dir():
                    continue
                destination = target.joinpath(*parts)
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(archive.read(info))
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("")
    files = sum(1 for _ in target.rglob("*.py")) + sum(1 for _ in target.rglob("*.pyi"))
    tops: list[str] = []
    for top_level in target.glob("*.dist-info/top_level.txt"):
        tops = [line.strip() for line in top_level.read_text().splitlines() if line.strip()]
    if not tops:
        tops = sorted(
            entry.stem
            for entry in target.iterdir()
            if not entry.name.endswith((".dist-info", ".data"))
            and (entry.is_dir() or entry.suffix == ".py")
            and entry.stem.isidentifier()
        )
    return files, tops


def _choose_package(name: str, tops: list[str], folder: Path) -> str:
    """The top-level package that matches the distribution name, else the largest one."""
    wanted = re.sub(r"[-.]+", "_", name).lower()
    present = [top.replace("/", ".").split(".")[0] for top in tops]
    present = [
        top
        for top in dict.fromkeys(present)
        if (folder / top).exists() or (folder / f"{top}.py").exists()
    ]
    for candidate in (wanted, wanted.removeprefix("python_"), wanted.removesuffix("_api")):
        if candidate in present:
            return candidate
    public = [top for top in present if not top.startswith("_")] or present

    def size(top: str) -> int:
        path = folder / top
        return sum(1 for _ in path.rglob("*.py")) if path.is_dir() else 1

    return max(public, key=size) if public else wanted


def _apisurface(args: list[str]) -> tuple[Run, str]:
    started = time.perf_counter()
    try:
        completed = subprocess.run(
            [sys.executable, "-m", "apisurface", *args],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
    except subprocess.TimeoutExpired:
        return Run(-1, time.perf_counter() - started, f"timed out after {TIMEOUT} s", True), ""
    seconds = time.perf_counter() - started
    stderr = completed.stderr.strip()
    crashed = "Traceback (most recent call last)" in stderr or completed.returncode not in (0, 1, 2)
    lines = [line for line in stderr.splitlines() if not line.startswith("warning:")]
    message = lines[-1] if lines else ""
    return Run(completed.returncode, round(seconds, 2), message[:300], crashed), completed.stdout


def sweep_one(name: str, cache: Path) -> Result:
    """Download, snapshot and diff one distribution."""
    result = Result(name)
    new_wheel = _pip_download(name, cache / name / "new")
    if new_wheel is None:
        result.skipped = "no wheel for this Python"
        return result
    result.new_version = _version(new_wheel)
    old_wheel = _pip_download(f"{name}<{result.new_version}", cache / name / "old")
    result.old_version = _version(old_wheel) if old_wheel else ""
    snapshots: list[Path] = []
    for wheel, side in ((old_wheel, "old"), (new_wheel, "new")):
        if wheel is None:
            continue
        source = cache / name / f"{side}-src"
        files, tops = _unpack(wheel, source)
        package = _choose_package(name, tops, source)
        result.package = package
        if side == "new":
            result.files = files
        output = cache / name / f"{side}.json"
        run, _ = _apisurface(
            ["snapshot", str(source), "--package", package, "-q", "-o", str(output)]
        )
        result.snapshots.append(run)
        if run.code == 0 and output.is_file():
            snapshots.append(output)
            data = json.loads(output.read_text(encoding="utf-8"))
            if data.get("problems"):
                result.problems[side] = list(data["problems"])
            if side == "new":
                result.symbols = len(data.get("symbols", {}))
    if len(snapshots) == 2:
        run, stdout = _apisurface(
            [
                "diff",
                str(snapshots[0]),
                str(snapshots[1]),
                "--format",
                "json",
                "--current-version",
                result.old_version,
            ]
        )
        result.diff = run
        if run.code == 0:
            report = json.loads(stdout)
            result.bump = str(report.get("bump", ""))
            result.changes = len(report.get("changes", []))
    return result


def _table(results: list[Result], seconds: float) -> str:
    crashed = [item for item in results if item.crashed]
    errored = [item for item in results if item.errored and not item.crashed]
    incomplete = [item for item in results if item.problems]
    analysed = [item for item in results if item.snapshots]
    lines = [
        "# The real-world sweep",
        "",
        "`python bench/sweep.py` downloads the newest wheel of each package in",
        "`bench/sweep_packages.txt` and the release before it (`pip download --no-deps",
        "--only-binary=:all:`, into the git-ignored `bench/.cache/`), snapshots both with",
        "`apisurface snapshot` and diffs the two snapshots with `apisurface diff`, each in its",
        "own process. A *crash* is a traceback, a signal or an exit code other than 0, 1 or 2.",
        "",
        f"- packages: {len(results)} listed, {len(analysed)} analysed, "
        f"{len(results) - len(analysed)} skipped",
        f"- crashes: {len(crashed)}; bad-input errors (exit 2): {len(errored)}",
        f"- incomplete surfaces: {len(incomplete)} (explained below)",
        f"- wall time: {seconds:.0f} s on 2 workers",
        "",
        "| package | import name | previous -> newest | .py files | public paths | "
        "snapshot s (old/new) | diff s | required bump | changes | status |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |",
    ]
    for item in results:
        times = "/".join(f"{run.seconds:.1f}" for run in item.snapshots)
        diff = f"{item.diff.seconds:.1f}" if item.diff else ""
        if item.skipped:
            status = f"skipped: {item.skipped}"
        elif item.crashed:
            status = "CRASH"
        elif item.errored:
            status = "error: " + "; ".join(run.message for run in item.snapshots if run.code == 2)
        elif item.problems:
            status = "incomplete"
        else:
            status = "ok"
        lines.append(
            f"| {item.name} | {item.package} | {item.old_version or '-'} -> {item.new_version} "
            f"| {item.files} | {item.symbols} | {times} | {diff} | {item.bump} | {item.changes} "
            f"| {status} |"
        )
    if incomplete:
        lines += [
            "",
            "## Incomplete surfaces",
            "",
            "Each is incomplete for a reason a static reader cannot overcome; the surface",
            'is still produced and marked `"complete": false`, with these problems:',
            "",
        ]
        for item in incomplete:
            note = NOTES.get(item.name, "**not yet explained**")
            lines.append(f"- **{item.name}**: {note}.")
            seen: dict[str, list[str]] = {}
            for side, problems in sorted(item.problems.items(), reverse=True):
                version = item.old_version if side == "old" else item.new_version
                for problem in problems:
                    seen.setdefault(problem, []).append(version)
            for problem, versions in seen.items():
                lines.append(f"  - {' and '.join(versions)}: {problem}")
    if crashed or errored:
        lines += ["", "## Crashes and errors", ""]
        for item in [*crashed, *errored]:
            for run in [*item.snapshots, *([item.diff] if item.diff else [])]:
                if run.crashed or run.code == 2:
                    lines.append(f"- {item.name}: exit {run.code}: {run.message}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="distributions (default: the list file)")
    parser.add_argument("--packages", type=Path, default=HERE / "sweep_packages.txt")
    parser.add_argument("--limit", type=int, default=0, help="only the first N of the list")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=HERE / ".cache")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "sweep.md")
    args = parser.parse_args()
    names = args.names or [
        line.split("#")[0].strip()
        for line in args.packages.read_text(encoding="utf-8").splitlines()
        if line.split("#")[0].strip()
    ]
    if args.limit:
        names = names[: args.limit]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda name: sweep_one(name, args.cache), names))
    seconds = time.perf_counter() - started
    if not args.names:
        args.out.write_text(_table(results, seconds), encoding="utf-8")
    output = HERE / "results" / "sweep.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps([asdict(item) for item in results], indent=1), encoding="utf-8")
    for item in results:
        flag = "CRASH" if item.crashed else "error" if item.errored else "ok"
        print(
            f"{flag:5} {item.name} {item.old_version}->{item.new_version} {item.symbols} paths "
            f"{len(item.problems)} incomplete {item.skipped}"
        )
    crashes = sum(item.crashed for item in results)
    print(f"{len(results)} packages, {crashes} crashes, {seconds:.0f} s")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
