"""The import check over a corpus of real wheels: the static surface's recall against the
imported package, the gaps by class, and the time the check adds (issue 35 item 5, the
recall half; issue 36 measures its target with it).

    python bench/verify.py                      # the corpus of bench/verify_corpus.txt
    python bench/verify.py requests flask       # some of it
    python bench/verify.py --fresh              # environments made anew (cold), in a temp folder
    python bench/verify.py --jsonl results.jsonl  # one record per release, for other scripts

Each release is read statically (``NAME==VERSION`` from the index, as ``apisurface show``
reads it), installed into an environment (apisurface.verify.environments: the wheel and its
declared dependencies, as of its release date), and checked (apisurface.verify.importcheck).
Environments are kept in ``bench/.cache/verify`` (shared by the engineers of this machine:
warm runs reuse them); ``--fresh`` makes them in a temporary folder (uv's download cache stays
warm: bench/environments.py measures a cold one). Per release: modules checked / not checked,
``__all__`` names found / missed, documented module-level names and documented class members
found / missed, static paths that do not resolve, gaps by kind, and the seconds of the static
read, the environment (new or reused) and the check.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from apisurface.release.inputs import load_input
from apisurface.verify.environments import Environment, Release, prepare
from apisurface.verify.importcheck import check_surface

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "verify_corpus.txt"
CLASSES = ("__all__ names", "documented names", "documented class members", "static paths")


def corpus(names: list[str]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        dist, version, package, *also = line.split()
        if not names or dist in names or package in names:
            rows.append((dist, version, package, tuple(also)))
    return rows


def measure(
    dist: str, version: str, package: str, also: tuple[str, ...], envs: Path
) -> dict[str, object]:
    record: dict[str, object] = {"distribution": dist, "version": version, "package": package}
    began = time.monotonic()
    surface = load_input(f"{dist}=={version}", package=package).surface
    record["static_seconds"] = round(time.monotonic() - began, 2)
    began = time.monotonic()
    environment = prepare(Release.from_index(dist, version, also=also), cache_dir=envs)
    record["environment_seconds"] = round(time.monotonic() - began, 2)
    if not isinstance(environment, Environment):
        record["not_run"] = environment.reason
        return record
    record["environment_reused"] = environment.reused
    check = check_surface(surface, environment)
    record["check_seconds"] = round(check.seconds, 2)
    record["modules_checked"] = len(check.checked)
    record["not_checked"] = dict(check.not_checked)
    record["counts"] = {
        what: {"found": tally.found, "missed": tally.missed} for what, tally in check.counts.items()
    }
    record["gaps"] = [
        {
            "kind": gap.kind,
            "path": gap.path,
            "why": gap.why,
            "static": gap.static_kind,
            "runtime": gap.runtime_kind,
            "where": f"{gap.file}:{gap.line}",
        }
        for gap in check.gaps
    ]
    record["unchecked_instance_attributes"] = check.unchecked
    record["confinement"] = check.confinement.describe()
    return record


def _cell(record: dict[str, object], what: str) -> str:
    counts = record.get("counts")
    tally = counts.get(what) if isinstance(counts, dict) else None
    if not isinstance(tally, dict):
        return "-"
    return f"{tally['found']}/{tally['found'] + tally['missed']}"


def table(records: list[dict[str, object]]) -> str:
    lines = [
        "| release | modules (not checked) | `__all__` | documented names | class members "
        "| static paths resolving | gaps (missing/unresolved/kind) | env s | check s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    totals = {what: [0, 0] for what in CLASSES}
    for record in records:
        name = f"{record['distribution']} {record['version']}"
        if "not_run" in record:
            lines.append(f"| {name} | not run: {record['not_run']} | | | | | | | |")
            continue
        gaps = record.get("gaps", [])
        assert isinstance(gaps, list)
        by_kind = [
            sum(1 for gap in gaps if gap["kind"] == kind)
            for kind in ("missing", "unresolved", "kind")
        ]
        not_checked = record.get("not_checked", {})
        assert isinstance(not_checked, dict)
        counts = record.get("counts", {})
        assert isinstance(counts, dict)
        for what in CLASSES:
            tally = counts.get(what, {"found": 0, "missed": 0})
            totals[what][0] += tally["found"]
            totals[what][1] += tally["missed"]
        lines.append(
            f"| {name} | {record['modules_checked']} ({len(not_checked)}) "
            f"| {_cell(record, '__all__ names')} | {_cell(record, 'documented names')} "
            f"| {_cell(record, 'documented class members')} | {_cell(record, 'static paths')} "
            f"| {'/'.join(map(str, by_kind))} | {record['environment_seconds']} "
            f"| {record['check_seconds']} |"
        )
    summary = []
    for what, (found, missed) in totals.items():
        total = found + missed
        share = f"{100 * found / total:.1f} %" if total else "-"
        summary.append(f"{what}: {found} of {total} found ({share})")
    return "\n".join(lines) + "\n\n" + "\n".join(summary) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="distributions or packages of the corpus")
    parser.add_argument("--fresh", action="store_true", help="make every environment anew")
    parser.add_argument("--jsonl", type=Path, help="write one JSON record per release here")
    args = parser.parse_args(argv)
    envs = (
        Path(tempfile.mkdtemp(prefix="verify-bench-")) if args.fresh else HERE / ".cache" / "verify"
    )
    records = []
    try:
        for dist, version, package, also in corpus(args.names):
            record = measure(dist, version, package, also, envs)
            records.append(record)
            print(f"{dist} {version}: {record.get('not_run') or 'done'}", file=sys.stderr)
            if args.jsonl:
                with args.jsonl.open("a", encoding="utf-8") as stream:
                    stream.write(json.dumps(record, sort_keys=True) + "\n")
    finally:
        if args.fresh:
            shutil.rmtree(envs, ignore_errors=True)
    print(table(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
