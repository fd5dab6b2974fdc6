"""Self-diff: does the gate pass a real release compared with itself?

    python bench/selfdiff.py                  # the audit's releases and the NEW ones below
    python bench/selfdiff.py --only new       # only NEW (or: audit)
    python bench/selfdiff.py django sympy     # only these distributions

A release compared with itself has no change, so ``apisurface diff X X --fail-on major``
must exit 0 whatever parts of it a static reader cannot know (POLICY.md section 3,
"Unknowns": an unknown blocks a gate only where it differs between OLD and NEW). For each
release this script fetches the archive the way bench/releases.py does (the sdist where
PyPI has one, else the wheel; by URL, sha256 checked, never built or run), unpacks it once
and runs ``apisurface diff DIR DIR --package NAME --fail-on major --format json`` on that
folder twice. It prints a Markdown table: the exit status, the unknowns reported as notes
and those reported as blocking (a report without the split, from an older apisurface,
counts every entry of its ``incomplete`` list as blocking), and writes it to
bench/results/selfdiff.md (each report in bench/results/selfdiff/). Exit status 0 when
every release exits 0.

The corpus is the newest release of every pair the precision audit diffs (bench/audit.py:
bench/releases.py's pairs and bench/audit_sweep_pairs.txt) plus NEW, releases nobody here
had used before issue 18, several of them with parts a static reader cannot know.
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import tarfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import audit  # the sibling bench scripts
import releases

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

NEW: tuple[tuple[str, str, str], ...] = (
    # (distribution, import name, version)
    ("pyparsing", "pyparsing", "2.4.7"),
    ("python-dateutil", "dateutil", "2.9.0.post0"),
    ("xlrd", "xlrd", "2.0.1"),
    ("bleach", "bleach", "6.2.0"),
    ("html5lib", "html5lib", "1.1"),
    ("sympy", "sympy", "1.14.0"),
    ("django", "django", "5.2.1"),
    ("simplejson", "simplejson", "3.20.1"),
    ("tornado", "tornado", "6.5.1"),
    ("networkx", "networkx", "3.4.2"),
    ("sqlparse", "sqlparse", "0.5.3"),
    ("babel", "babel", "2.17.0"),
    ("chardet", "chardet", "5.2.0"),
    ("webob", "webob", "1.8.9"),
    ("mako", "mako", "1.3.10"),
    ("pycodestyle", "pycodestyle", "2.13.0"),
    ("pyflakes", "pyflakes", "3.3.2"),
    ("parso", "parso", "0.8.4"),
    ("xlsxwriter", "xlsxwriter", "3.2.3"),
)


@dataclass(frozen=True)
class Release:
    source: str
    dist: str
    package: str
    version: str
    wheels: bool


@dataclass
class Outcome:
    release: Release
    status: int | None = None
    notes: int = 0
    blocking: int = 0
    error: str = ""


def corpus() -> list[Release]:
    seen: set[tuple[str, str]] = set()
    found: list[Release] = []
    for case in audit.corpus():
        pair = case.pair
        dist = pair.new_dist or pair.dist
        if (dist.lower(), pair.new) not in seen:
            seen.add((dist.lower(), pair.new))
            found.append(Release("audit", dist, pair.package, pair.new, pair.wheels))
    for dist, package, version in NEW:
        if (dist.lower(), version) not in seen:
            seen.add((dist.lower(), version))
            found.append(Release("new", dist, package, version, False))
    return found


def count_unknowns(report: dict[str, object]) -> tuple[int, int]:
    """(notes, blocking) of one JSON report."""
    unknowns = report.get("unknowns")
    if isinstance(unknowns, dict):
        notes, blocking = unknowns.get("notes", []), unknowns.get("blocking", [])
        assert isinstance(notes, list) and isinstance(blocking, list)
        return len(notes), len(blocking)
    incomplete = report.get("incomplete", [])
    assert isinstance(incomplete, list)
    return 0, len(incomplete)


def run(release: Release, results: Path = RESULTS) -> Outcome:
    outcome = Outcome(release)
    try:
        folder = releases.unpack(
            releases.download(release.dist, release.version, wheels=release.wheels)
        )
    except (RuntimeError, OSError, tarfile.TarError, zipfile.BadZipFile) as error:
        outcome.error = str(error)
        return outcome
    command = [sys.executable, "-m", "apisurface", "diff", str(folder), str(folder)]
    command += ["--package", release.package, "--fail-on", "major", "--format", "json"]
    completed = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=releases.TIMEOUT,
        check=False,
        cwd=releases.ROOT,
    )
    outcome.status = completed.returncode
    try:
        report = json.loads(completed.stdout)
    except json.JSONDecodeError:
        outcome.error = completed.stderr.strip()[-300:]
        return outcome
    outcome.notes, outcome.blocking = count_unknowns(report)
    target = results / "selfdiff" / f"{release.dist}-{release.version}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return outcome


def table(outcomes: list[Outcome]) -> str:
    lines = [
        "| source | distribution | version | exit | notes | blocking |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for item in outcomes:
        release = item.release
        status = "error" if item.status is None else str(item.status)
        lines.append(
            f"| {release.source} | {release.dist} | {release.version} | {status} "
            f"| {item.notes} | {item.blocking} |" + (f" {item.error}" if item.error else "")
        )
    failed = sum(1 for item in outcomes if item.status != 0)
    with_notes = sum(1 for item in outcomes if item.notes or item.blocking)
    lines.append("")
    lines.append(
        f"{len(outcomes)} releases, {failed} not exiting 0, {with_notes} with unknowns; "
        f"notes {sum(item.notes for item in outcomes)}, "
        f"blocking {sum(item.blocking for item in outcomes)}"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dists", nargs="*", help="only releases of these distributions")
    parser.add_argument("--only", choices=("audit", "new"), help="only this part of the corpus")
    parser.add_argument("--jobs", type=int, default=1, help="diffs at once (default 1)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the table goes")
    args = parser.parse_args(argv)
    wanted = {name.lower() for name in args.dists}
    chosen = [
        release
        for release in corpus()
        if (not wanted or release.dist.lower() in wanted) and args.only in (None, release.source)
    ]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(functools.partial(run, results=args.results), chosen))
    text = table(outcomes)
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "selfdiff.md").write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0 if all(item.status == 0 for item in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
