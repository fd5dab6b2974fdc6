"""Precision audit: is every MAJOR finding on real releases a real break?

    python bench/audit.py                 # diff the whole corpus, then judge (a few minutes)
    python bench/audit.py --reuse         # judge the reports of the last run again, no diffs
    python bench/audit.py idna click      # only pairs of these distributions
    python bench/audit.py --only sweep    # only the pinned sweep pairs (or: releases)
    python bench/audit.py --results /tmp/after   # write reports and tables elsewhere
    python bench/audit.py --reuse --results /tmp/after --before /tmp/before
                                          # ... and compare with a BEFORE run's findings

Only MAJOR findings graded *proven* are in the precision count: the bump and the gates
count those (POLICY.md section 3, "Evidence"); MAJOR findings graded *inferred* are counted
and judged on their own line.

The corpus is every pair of bench/releases.py (sdists where PyPI has them, fetched by URL
with their sha256 checked, never built) and every pair of bench/audit_sweep_pairs.txt (the
sweep's newest-vs-previous wheels, pinned so BEFORE and AFTER runs diff the same releases).
For each pair it runs ``apisurface diff OLD NEW --package NAME --format json`` (2 at a time),
collects every MAJOR finding (pair, path, kind, old, new) and joins it with the committed
judgements in bench/audit_judgements.json: each finding is judged ``real`` (a use that worked
on OLD fails or behaves incompatibly on NEW, per POLICY.md) or ``false`` (an engine error,
with the mechanism that produced it). A judgement is keyed by distribution, versions, kind
and path (no line numbers, no messages), so it survives cosmetic report changes; when the
engine reports an object once at its shortest path, a judgement of any of the paths the
change lists is used.

Pairs in LARGE (hundreds to thousands of MAJORs: click 8, urllib3 2, Jinja2 3, marshmallow 3,
werkzeug 2.3, pydantic 2, sqlalchemy 2) are not judged finding by finding: they are left out
of the precision count, and a fixed sample of their findings (the SAMPLE keys with the
smallest sha256, stable from run to run) is judged and reported on its own.

Output: the tables (Markdown) on stdout and in bench/results/audit.md, the reports in
bench/results/audit/, the findings and their judgements in bench/results/audit.json, and the
findings nobody judged yet in bench/results/audit-unjudged.json, in the judgements file's own
format (fill in "verdict", "mechanism" and "reason", then move them into
bench/audit_judgements.json). Exit status 0 unless a pair could not be fetched or diffed.

Evidence (POLICY.md section 3): each finding carries the grade its report gives it (a report
from before grades existed counts every finding as proven, which is how it counted). The
tables say how many MAJOR findings are proven and how many inferred (listed to review, not
counted), how many of those judged false are inferred, and the share of those judged real
that are proven. ``--before DIR`` compares with the findings of an earlier run kept in DIR:
of the findings judged false there, how many are gone, inferred or still proven now.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import releases  # the sibling bench script

from apisurface.changes import ChangeKind
from apisurface.compare.rules import RULES, Level

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
JUDGEMENTS = HERE / "audit_judgements.json"
SWEEP_PAIRS = HERE / "audit_sweep_pairs.txt"
SAMPLE = 30
LARGE = {
    ("click", "7.1.2", "8.0.0"),
    ("urllib3", "1.26.15", "2.0.0"),
    ("jinja2", "2.11.3", "3.0.0"),
    ("marshmallow", "2.21.0", "3.0.0"),
    ("werkzeug", "2.2.3", "2.3.0"),
    ("pydantic", "1.10.13", "2.0"),
    ("sqlalchemy", "1.4.49", "2.0.0"),
}


def _norm(dist: str) -> str:
    return dist.lower().replace("_", "-").replace(".", "-")


@dataclass(frozen=True)
class Case:
    """One pair of the corpus: where it comes from and how to fetch it."""

    source: str
    pair: releases.Pair

    @property
    def name(self) -> str:
        return f"{_norm(self.pair.dist)} {self.pair.old} -> {self.pair.new}"

    @property
    def large(self) -> bool:
        return (_norm(self.pair.dist), self.pair.old, self.pair.new) in LARGE

    @property
    def step(self) -> str:
        return releases.version_step(self.pair.old, self.pair.new)


def corpus() -> list[Case]:
    cases = [Case("releases", pair) for pair in releases.PAIRS]
    for line in SWEEP_PAIRS.read_text(encoding="utf-8").splitlines():
        fields = line.split("#")[0].split()
        if fields:
            dist, package, old, new = fields
            cases.append(Case("sweep", releases.Pair(dist, package, old, new, wheels=True)))
    return cases


@dataclass
class Finding:
    case: str
    dist: str
    old_version: str
    new_version: str
    path: str
    kind: str
    old: object
    new: object
    paths: tuple[str, ...]
    evidence: str = "proven"
    verdict: str = ""
    mechanism: str = ""
    reason: str = ""
    grade: str = "proven"

    @property
    def key(self) -> str:
        return f"{self.dist} {self.old_version} {self.new_version} {self.kind} {self.path}"


@dataclass
class Row:
    case: Case
    bump: str = ""
    error: str = ""
    findings: list[Finding] = field(default_factory=list)
    checks: list[tuple[str, bool]] = field(default_factory=list)
    entries: int = 0
    """The MAJOR entries of the report (what a reader counts: one per object, one per edit
    to one signature); ``findings`` has one per change, each part of an entry on its own."""


def _report_file(case: Case, results: Path) -> Path:
    pair = case.pair
    return results / "audit" / f"{case.source}-{_norm(pair.dist)}-{pair.old}-{pair.new}.json"


def run_case(case: Case, *, reuse: bool, results: Path = RESULTS) -> Row:
    row = Row(case)
    target = _report_file(case, results)
    report: dict[str, object] | None = None
    if reuse and target.is_file():
        report = json.loads(target.read_text(encoding="utf-8"))
    else:
        outcome, report = releases.run_pair(case.pair, wheels=case.pair.wheels)
        if report is None:
            row.error = outcome.error or "no report"
            return row
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    changes = report.get("changes")
    assert isinstance(changes, list)
    # The bump the gate gives: the report's own, which counts proven changes only (POLICY.md
    # section 3: inferred changes are listed to review and not counted).
    row.bump = str(report.get("bump", ""))
    row.entries = sum(1 for change in changes if change.get("bump") == "major")
    # One edit to one signature is one entry of parts: each part is judged on its own.
    for change in [part for entry in changes for part in releases.each_change(entry)]:
        if change.get("bump") != "major":
            continue
        # Other public paths of the same object, if the report lists them (any list of
        # strings in the change): a judgement of any of them applies.
        others = sorted(releases.change_paths(change) - {str(change["path"])})
        graded = change.get("evidence")
        evidence = str(graded.get("grade", "proven") if isinstance(graded, dict) else "proven")
        # Every MAJOR finding is judged, proven or inferred (``grade`` says which).
        row.findings.append(
            Finding(
                case.name,
                _norm(case.pair.dist),
                case.pair.old,
                case.pair.new,
                str(change["path"]),
                str(change["kind"]),
                change.get("old"),
                change.get("new"),
                tuple(others),
                evidence,
                grade=evidence,
            )
        )
    for check in case.pair.checks:
        hit = any(
            check.path in releases.change_paths(part) and part["kind"] in check.kinds
            for change in changes
            for part in releases.each_change(change)
        )
        row.checks.append((check.entry, hit))
    return row


def load_judgements(path: Path = JUDGEMENTS) -> dict[str, dict[str, str]]:
    """Key (dist old new kind path) -> {"verdict", "mechanism", "reason"}."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return load_judgements_from(data.get("judgements", []))


def load_judgements_from(entries: list[dict[str, object]]) -> dict[str, dict[str, str]]:
    table: dict[str, dict[str, str]] = {}
    for entry in entries:
        dist, old, new = str(entry["pair"]).split()
        paths = entry["paths"]
        assert isinstance(paths, list)
        for where in paths:
            key = f"{_norm(dist)} {old} {new} {entry['kind']} {where}"
            table[key] = {
                "verdict": str(entry["verdict"]),
                "mechanism": str(entry.get("mechanism", "")),
                "reason": str(entry.get("reason", "")),
            }
    return table


def judge(findings: list[Finding], table: dict[str, dict[str, str]]) -> None:
    """Give each finding the judgement of its path or, failing that, of its other paths.

    A finding reported once for an object at several paths (``also_at``) takes the judgement
    of whichever path was judged on its merits: a ``duplicate-path`` judgement (this path
    only repeated another one) is used only when no other path has a judgement.
    """
    for finding in findings:
        keys = [finding.key] + [
            f"{finding.dist} {finding.old_version} {finding.new_version} {finding.kind} {other}"
            for other in finding.paths
        ]
        found = [table[key] for key in keys if key in table]
        merits = [item for item in found if item["mechanism"] != "duplicate-path"]
        for item in (merits or found)[:1]:
            finding.verdict = item["verdict"]
            finding.mechanism = item["mechanism"]
            finding.reason = item["reason"]


def sample(findings: list[Finding], size: int = SAMPLE) -> list[Finding]:
    """The ``size`` findings with the smallest sha256 of their key (stable across runs)."""
    return sorted(findings, key=lambda item: hashlib.sha256(item.key.encode()).hexdigest())[:size]


def _documents_break(check: releases.Check) -> bool:
    """Whether a changelog check expects a MAJOR kind (a documented break)."""
    known = {kind.value: kind for kind in ChangeKind}
    return any(
        kind in known and known[kind] in RULES and RULES[known[kind]].level == Level.MAJOR
        for kind in check.kinds
    )


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def tables(rows: list[Row]) -> str:
    counted = [row for row in rows if not row.case.large and not row.error]
    findings = [finding for row in counted for finding in row.findings]
    real = sum(1 for item in findings if item.verdict == "real")
    false = sum(1 for item in findings if item.verdict == "false")
    unjudged = len(findings) - real - false
    dups = sum(1 for item in findings if item.mechanism == "duplicate-path")
    large = [finding for row in rows if row.case.large for finding in row.findings]
    drawn = sample(large)
    sampled_false = sum(1 for item in drawn if item.verdict == "false")
    sampled_judged = sum(1 for item in drawn if item.verdict in ("real", "false"))
    patch_rows = [row for row in counted if row.case.step == "patch"]
    patch_major = [row for row in patch_rows if row.bump == "major"]
    patch_false_major = [
        row for row in patch_major if not any(item.verdict == "real" for item in row.findings)
    ]
    checks = [hit for row in rows for _, hit in row.checks]
    breaks = [
        hit
        for row in rows
        for (_, hit), check in zip(row.checks, row.case.pair.checks, strict=True)
        if _documents_break(check)
    ]
    proven = [item for item in findings if item.grade == "proven"]
    false_inferred = sum(
        1 for item in findings if item.verdict == "false" and item.grade == "inferred"
    )
    real_proven = sum(1 for item in proven if item.verdict == "real")
    inferred = [item for item in findings if item.grade == "inferred"]
    inferred_verdicts = Counter(item.verdict for item in inferred)
    with_false = [row for row in counted if any(f.verdict == "false" for f in row.findings)]
    with_major = [row for row in counted if row.findings]
    lines = [
        "## Totals",
        "",
        f"- pairs: {len(rows)} ({sum(1 for row in rows if row.case.source == 'releases')} "
        f"release pairs, {sum(1 for row in rows if row.case.source == 'sweep')} sweep pairs); "
        f"errors: {sum(1 for row in rows if row.error)}",
        f"- MAJOR entries a reader sees in those pairs (one per object, one per edit to one "
        f"signature): **{sum(row.entries for row in counted)}**",
        f"- MAJOR findings in the precision count (all pairs but the {len(LARGE)} large ones): "
        f"**{len(findings)}**; judged real {real}, judged false **{false}** "
        f"(false share **{_share(false, real + false)}** of those judged), unjudged {unjudged}",
        f"- MAJOR findings graded inferred (outside the gate, listed to review): "
        f"{len(inferred)}; judged real {inferred_verdicts['real']}, false "
        f"{inferred_verdicts['false']}, unjudged {inferred_verdicts['']}",
        f"- the same without the findings judged duplicate-path (one object, several paths): "
        f"{real + false - dups} judged, false {false - dups} "
        f"({_share(false - dups, real + false - dups)})",
        f"- large pairs (not counted): {len(large)} MAJOR findings; sample of {len(drawn)}: "
        f"{sampled_false} judged false of {sampled_judged} judged "
        f"({_share(sampled_false, sampled_judged)})",
        f"- patch releases: {len(patch_rows)}; MAJOR verdict on {len(patch_major)}; "
        f"MAJOR verdict with no real MAJOR finding (API-neutral by judgement, or unjudged): "
        f"**{len(patch_false_major)}**",
        f"- pairs with a false MAJOR finding: {len(with_false)} of the {len(with_major)} "
        "counted pairs that have MAJOR findings",
        f"- changelog checks found (recall): {sum(checks)}/{len(checks)}; of them documented "
        f"breaks (a MAJOR kind expected): {sum(breaks)}/{len(breaks)}",
        f"- evidence: {len(proven)} of the {len(findings)} MAJOR findings proven (counted), "
        f"{len(findings) - len(proven)} inferred (to review); of the {false} judged false, "
        f"**{false_inferred}** inferred and {false - false_inferred} proven; of the {real} "
        f"judged real, **{real_proven}** proven (**{_share(real_proven, real)}**)",
        "",
        "## Per pair",
        "",
        "| source | pair | step | bump | MAJOR | real | false | unjudged | note |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        verdicts = Counter(item.verdict for item in row.findings)
        note = row.error[:80] if row.error else ("large: sampled" if row.case.large else "")
        if row.case.step == "patch" and row.bump == "major" and not verdicts["real"]:
            note = "MAJOR on an API-neutral patch" if not verdicts[""] else "MAJOR on a patch"
        lines.append(
            f"| {row.case.source} | {row.case.name} | {row.case.step} | {row.bump or '-'} | "
            f"{len(row.findings)} | {verdicts['real']} | {verdicts['false']} | "
            f"{verdicts['']} | {note} |"
        )
    lines += [
        "",
        "## Patch releases",
        "",
        "| source | pair | bump | MAJOR real/false/unjudged | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in patch_rows:
        verdicts = Counter(item.verdict for item in row.findings)
        if row.bump != "major":
            verdict = "no MAJOR verdict"
        elif verdicts["real"]:
            verdict = "MAJOR, with real breaks"
        elif verdicts[""]:
            verdict = "MAJOR, findings not all judged"
        else:
            verdict = "**false MAJOR verdict** (no real break)"
        lines.append(
            f"| {row.case.source} | {row.case.name} | {row.bump} | "
            f"{verdicts['real']}/{verdicts['false']}/{verdicts['']} | {verdict} |"
        )
    missed = [f"- {row.case.name}: {entry}" for row in rows for entry, hit in row.checks if not hit]
    lines += ["", "## Changelog checks missed", "", *(missed or ["- none"])]
    mechanisms = Counter(item.mechanism or "?" for item in findings if item.verdict == "false")
    lines += [
        "",
        "## False MAJOR findings by mechanism (precision count)",
        "",
        "| mechanism | findings |",
        "| --- | ---: |",
    ]
    lines += [f"| {name} | {count} |" for name, count in mechanisms.most_common()]
    return "\n".join(lines) + "\n"


def compare_before(rows: list[Row], before_file: Path) -> str:
    """What became of the findings an earlier run reported (its audit.json): per verdict,
    how many are gone now, reported inferred, or still proven (counted pairs only)."""
    before = json.loads(before_file.read_text(encoding="utf-8"))
    now: dict[str, Finding] = {}
    for row in rows:
        if row.case.large or row.error:
            continue
        for item in row.findings:
            for path in (item.path, *item.paths):
                key = f"{row.case.name} {item.kind} {path}"
                now.setdefault(key, item)
    fates: Counter[tuple[str, str]] = Counter()
    for entry in before:
        if entry["large"] or entry["error"]:
            continue
        for item in entry["findings"]:
            keys = [
                f"{entry['case']} {item['kind']} {path}" for path in (item["path"], *item["paths"])
            ]
            found = next((now[key] for key in keys if key in now), None)
            fate = "gone" if found is None else found.grade
            fates[(item["verdict"] or "unjudged", fate)] += 1
    lines = [
        "",
        f"## Compared with {before_file}",
        "",
        "| judged (before) | findings before | gone now | inferred now | proven now |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for verdict in ("real", "false", "unjudged"):
        total = sum(count for (seen, _), count in fates.items() if seen == verdict)
        lines.append(
            f"| {verdict} | {total} | {fates[(verdict, 'gone')]} | "
            f"{fates[(verdict, 'inferred')]} | {fates[(verdict, 'proven')]} |"
        )
    return "\n".join(lines) + "\n"


def unjudged_entries(rows: list[Row]) -> list[dict[str, object]]:
    large = [finding for row in rows if row.case.large for finding in row.findings]
    wanted = [finding for row in rows if not row.case.large for finding in row.findings] + sample(
        large
    )
    return [
        {
            "pair": f"{item.dist} {item.old_version} {item.new_version}",
            "kind": item.kind,
            "paths": [item.path],
            "old": item.old,
            "new": item.new,
            "verdict": "",
            "mechanism": "",
            "reason": "",
        }
        for item in wanted
        if not item.verdict
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dists", nargs="*", help="only pairs of these distributions")
    parser.add_argument("--only", choices=("releases", "sweep"), help="only this part")
    parser.add_argument("--reuse", action="store_true", help="reuse the last run's reports")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--results",
        type=Path,
        default=RESULTS,
        help="folder for the reports and tables (default bench/results; use another to keep "
        "a BEFORE run beside an AFTER run)",
    )
    parser.add_argument(
        "--before",
        type=Path,
        help="the --results folder of an earlier run: compare its false findings with these",
    )
    args = parser.parse_args(argv)
    wanted = {_norm(name) for name in args.dists}
    cases = [
        case
        for case in corpus()
        if (not wanted or _norm(case.pair.dist) in wanted) and args.only in (None, case.source)
    ]

    def one(case: Case) -> Row:
        if not args.reuse:
            print(f"{case.source}: {case.name} ...", file=sys.stderr, flush=True)
        return run_case(case, reuse=args.reuse, results=args.results)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(one, cases))
    judge([finding for row in rows for finding in row.findings], load_judgements())
    text = tables(rows)
    if args.before is not None:
        text += compare_before(rows, args.before / "audit.json")
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "audit.md").write_text(text, encoding="utf-8")
    (args.results / "audit.json").write_text(
        json.dumps(
            [
                {
                    "case": row.case.name,
                    "source": row.case.source,
                    "step": row.case.step,
                    "bump": row.bump,
                    "error": row.error,
                    "large": row.case.large,
                    "checks": row.checks,
                    "findings": [
                        {
                            "path": item.path,
                            "kind": item.kind,
                            "old": item.old,
                            "new": item.new,
                            "paths": item.paths,
                            "verdict": item.verdict,
                            "mechanism": item.mechanism,
                            "reason": item.reason,
                            "grade": item.grade,
                        }
                        for item in row.findings
                    ],
                }
                for row in rows
            ],
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    (args.results / "audit-unjudged.json").write_text(
        json.dumps({"judgements": unjudged_entries(rows)}, indent=1) + "\n", encoding="utf-8"
    )
    sys.stdout.write(text)
    return 1 if any(row.error for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
