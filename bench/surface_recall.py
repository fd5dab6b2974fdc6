"""Issue 36's measure: the static surface's recall against the imported package, per class
of names and per package, and the misses nothing reports (silent ones).

    python bench/surface_recall.py                  # both corpora (89 wheels)
    python bench/surface_recall.py pytest webargs   # some of them
    python bench/surface_recall.py --jsonl FILE     # one record per release, every miss
    python bench/surface_recall.py --misses         # also list each miss, reported or silent

The corpus is bench/verify_corpus.txt (the import check's, issue 35) and
bench/surface_corpus.txt (46 more popular wheels). Each release is read statically (as
``apisurface show NAME==VERSION`` reads it), installed into an environment and checked with
the import check (apisurface.verify.importcheck; environments are shared with
bench/verify.py in ``bench/.cache/verify``). Per class of names (``__all__`` names,
documented names, documented class members, static paths that resolve) the names found and
missed; a **miss** (a name public at run time the surface lacks) is *reported* when the
static surface holds a problem that covers it (of its path or an enclosing one, or of the
file and line of its binding, or of its whole file), else *silent*: the gate is blind there
and nothing says so.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from verify import CLASSES  # the sibling bench script

from apisurface.model import Problem
from apisurface.release.inputs import load_input
from apisurface.verify.environments import Environment, Release, prepare
from apisurface.verify.importcheck import Gap, check_surface

HERE = Path(__file__).resolve().parent
CORPORA = (HERE / "verify_corpus.txt", HERE / "surface_corpus.txt")
ENVIRONMENTS = HERE / ".cache" / "verify"


def corpus(names: list[str]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    rows = []
    for file in CORPORA:
        for line in file.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            dist, version, package, *also = line.split()
            if not names or dist in names or package in names:
                rows.append((dist, version, package, tuple(also)))
    return rows


def reported(gap: Gap, problems: tuple[Problem, ...]) -> bool:
    """Whether a problem of the static surface covers the miss ``gap``."""
    for problem in problems:
        if problem.path and (gap.path == problem.path or gap.path.startswith(problem.path + ".")):
            return True
        if problem.file and problem.file == gap.file and problem.line in (0, gap.line):
            return True
    return False


def measure(dist: str, version: str, package: str, also: tuple[str, ...]) -> dict[str, object]:
    record: dict[str, object] = {"distribution": dist, "version": version, "package": package}
    began = time.monotonic()
    surface = load_input(f"{dist}=={version}", package=package).surface
    record["static_seconds"] = round(time.monotonic() - began, 2)
    environment = prepare(Release.from_index(dist, version, also=also), cache_dir=ENVIRONMENTS)
    if not isinstance(environment, Environment):
        record["not_run"] = environment.reason
        return record
    check = check_surface(surface, environment)
    record["modules_checked"] = len(check.checked)
    record["not_checked"] = dict(check.not_checked)
    record["counts"] = {
        what: {"found": tally.found, "missed": tally.missed} for what, tally in check.counts.items()
    }
    record["misses"] = [
        {
            "path": gap.path,
            "why": gap.why,
            "runtime": gap.runtime_kind,
            "where": f"{gap.file}:{gap.line}",
            "reported": reported(gap, surface.problems),
        }
        for gap in check.gaps
        if gap.kind == "missing"
    ]
    record["unresolved"] = [gap.path for gap in check.gaps if gap.kind == "unresolved"]
    record["kinds"] = [
        [gap.path, gap.static_kind, gap.runtime_kind] for gap in check.gaps if gap.kind == "kind"
    ]
    return record


def _cell(record: dict[str, object], what: str) -> str:
    counts = record.get("counts")
    tally = counts.get(what) if isinstance(counts, dict) else None
    if not isinstance(tally, dict):
        return "-"
    return f"{tally['found']}/{tally['found'] + tally['missed']}"


def table(records: list[dict[str, object]]) -> str:
    lines = [
        "| release | `__all__` names | documented names | documented class members "
        "| static paths resolving | misses (silent) | kinds disagreeing |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    totals = {what: [0, 0] for what in CLASSES}
    misses = silent = kinds = 0
    for record in records:
        name = f"{record['distribution']} {record['version']}"
        if "not_run" in record:
            lines.append(f"| {name} | not run: {record['not_run']} | | | | | |")
            continue
        counts = record.get("counts", {})
        assert isinstance(counts, dict)
        for what in CLASSES:
            tally = counts.get(what, {"found": 0, "missed": 0})
            totals[what][0] += tally["found"]
            totals[what][1] += tally["missed"]
        found = record.get("misses", [])
        assert isinstance(found, list)
        quiet = sum(1 for miss in found if not miss["reported"])
        disagree = len(record.get("kinds", []))  # type: ignore[arg-type]
        misses, silent, kinds = misses + len(found), silent + quiet, kinds + disagree
        lines.append(
            f"| {name} | {_cell(record, '__all__ names')} | {_cell(record, 'documented names')} "
            f"| {_cell(record, 'documented class members')} | {_cell(record, 'static paths')} "
            f"| {len(found)} ({quiet}) | {disagree} |"
        )
    summary = [f"releases: {sum('not_run' not in record for record in records)} checked"]
    for what, (found_count, missed) in totals.items():
        total = found_count + missed
        share = f"{100 * found_count / total:.2f} %" if total else "-"
        summary.append(f"{what}: {found_count} of {total} found ({share})")
    summary.append(f"misses: {misses}, of which silent: {silent}; kinds disagreeing: {kinds}")
    return "\n".join(lines) + "\n\n" + "\n".join(summary) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="distributions or packages of the corpora")
    parser.add_argument("--jsonl", type=Path, help="write one JSON record per release here")
    parser.add_argument("--misses", action="store_true", help="list every miss")
    args = parser.parse_args(argv)
    records = []
    for dist, version, package, also in corpus(args.names):
        try:
            record = measure(dist, version, package, also)
        except Exception as error:  # noqa: BLE001 - a bench: one release's failure, said
            record = {"distribution": dist, "version": version, "not_run": repr(error)[:200]}
        records.append(record)
        print(f"{dist} {version}: {record.get('not_run') or 'done'}", file=sys.stderr)
        if args.jsonl:
            with args.jsonl.open("a", encoding="utf-8") as stream:
                stream.write(json.dumps(record, sort_keys=True) + "\n")
    print(table(records))
    if args.misses:
        for record in records:
            for miss in record.get("misses", []):  # type: ignore[attr-defined]
                state = "reported" if miss["reported"] else "SILENT"
                print(f"{state:8} {miss['path']} ({miss['why']}) {miss['where']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
