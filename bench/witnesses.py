"""Witness audit: does every witness of a proven MAJOR finding on real releases hold?

    python bench/witnesses.py                  # every pair of bench/audit.py's corpus
    python bench/witnesses.py idna attrs       # only pairs of these distributions
    python bench/witnesses.py --limit 20       # the first 20 pairs with a witness

A proven MAJOR change carries a witness: user code that works on OLD and fails on NEW
(POLICY.md section 3, "Evidence"). tests/test_witnesses.py judges the witnesses of every case
file; this script judges those of real release pairs the same way, for the type-level ones:
each witness is checked by mypy (its defaults, ``--follow-imports=silent``,
``--no-implicit-reexport``) against the OLD release's package and against the NEW one. It
must type-check on OLD and not on NEW. Witnesses judged by running them (``assert``,
``asyncio.run``) are counted and not run: running one imports the release's code, and this
bench never runs code from the package index.

The pairs are bench/audit.py's corpus (fetched by bench/releases.py: sha256 checked, never
built). A pair whose release requires distributions this environment lacks (pydantic 2 and
pydantic-core) is not judged: mypy sees their names as ``Any``, so its witnesses pass on
either side. A witness that fails on OLD for another reason outside the engine (the release
needs a newer Python than mypy's target, stubs of a dependency) shows in the listing with
mypy's first error. Output: one line per pair, then every witness that does not hold, with
its text and mypy's errors; exit status 0.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from mypy.api import run as mypy_run

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

import audit
import releases
from typeoracle import explicit_reexports

from apisurface.compare.witness import runs
from apisurface.project.project import Project

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Judged:
    pair: str
    path: str
    kind: str
    text: str
    old_errors: list[str] = field(default_factory=list)
    new_errors: list[str] = field(default_factory=list)
    blind: str = ""
    """The release's requirements this environment lacks (see missing_requirements)."""

    @property
    def holds(self) -> bool:
        return not self.old_errors and bool(self.new_errors)


_REQUIREMENT = re.compile(r"^Requires-Dist:\s*([A-Za-z0-9][A-Za-z0-9._-]*)([^;]*)$", re.MULTILINE)


def missing_requirements(source: Path) -> list[str]:
    """The release's unconditional requirements (``Requires-Dist`` without a marker, from
    its METADATA or PKG-INFO) that this environment lacks: mypy sees what comes from them
    as ``Any``, so a witness through them passes on either side, whatever the engine did."""
    missing: list[str] = []
    for name in ("*.dist-info/METADATA", "PKG-INFO", "*/PKG-INFO"):
        for metadata in source.glob(name):
            text = metadata.read_text(encoding="utf-8", errors="replace")
            for requirement, _ in _REQUIREMENT.findall(text):
                try:
                    importlib.metadata.distribution(requirement)
                except importlib.metadata.PackageNotFoundError:
                    missing.append(requirement)
            return sorted(set(missing))
    return []


def _package_path(source: Path, package: str) -> Path:
    """The package's directory (or single module file) in an unpacked release."""
    return Project.load(source, package).location.path


def _mypy_errors(
    parent: Path, package: str, texts: dict[str, str], work: Path
) -> dict[str, list[str]]:
    """mypy's errors for each witness module, checked beside ``package`` (copied from
    ``parent``, its folder or module file, so that no other top-level name of the release
    is in the way)."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    if parent.is_dir():
        shutil.copytree(parent, work / package, symlinks=True)
        # POLICY.md 2.8 re-exports ``from .m import x`` of an ``__init__.py``; mypy's
        # --no-implicit-reexport only ``x as x``: spelled so, as tests/test_witnesses.py does.
        for init in (work / package).rglob("__init__.py"):
            if init.is_file() and not init.is_symlink():
                text = init.read_text(encoding="utf-8", errors="replace")
                init.write_text(explicit_reexports(text), encoding="utf-8")
    else:
        shutil.copyfile(parent, work / parent.name)
    for module, text in texts.items():
        (work / f"{module}.py").write_text(text + "\n", encoding="utf-8")
    (work / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    stdout, _, _ = mypy_run(
        [
            "--config-file",
            str(work / "mypy.ini"),
            "--follow-imports=silent",
            "--no-implicit-reexport",
            "--no-error-summary",
            "--no-incremental",
            "--python-version",
            f"{sys.version_info[0]}.{sys.version_info[1]}",
            *(str(work / f"{module}.py") for module in texts),
        ]
    )
    errors: dict[str, list[str]] = {module: [] for module in texts}
    for line in stdout.splitlines():
        module = Path(line.partition(":")[0]).stem
        if module in errors and ": error:" in line:
            errors[module].append(line.partition(": error:")[2].strip())
    return errors


def judge_pair(case: audit.Case, scratch: Path) -> tuple[list[Judged], int, str]:
    """The judged type-level witnesses of one pair, how many run-level ones it has, and an
    error (empty when the pair was diffed)."""
    pair = case.pair
    outcome, report = releases.run_pair(pair, wheels=pair.wheels)
    if report is None:
        return [], 0, outcome.error or "no report"
    found: dict[str, Judged] = {}
    skipped = 0
    parts = [part for entry in report["changes"] for part in releases.each_change(entry)]  # type: ignore[union-attr]
    for change in parts:
        evidence = change.get("evidence") or {}
        text = evidence.get("witness")
        if change.get("bump") != "major" or evidence.get("grade") != "proven" or not text:
            continue
        if runs(text):
            skipped += 1
            continue
        module = f"witness_{len(found)}"
        found[module] = Judged(
            f"{pair.dist} {pair.old}->{pair.new}", change["path"], change["kind"], text
        )
    if not found:
        return [], skipped, ""
    old_dir = releases.unpack(releases.download(pair.dist, pair.old, wheels=pair.wheels))
    new_dir = releases.unpack(
        releases.download(pair.new_dist or pair.dist, pair.new, wheels=pair.wheels)
    )
    texts = {module: item.text for module, item in found.items()}
    old = _mypy_errors(_package_path(old_dir, pair.package), pair.package, texts, scratch / "old")
    new = _mypy_errors(_package_path(new_dir, pair.package), pair.package, texts, scratch / "new")
    blind = ", ".join(sorted({*missing_requirements(old_dir), *missing_requirements(new_dir)}))
    for module, item in found.items():
        item.old_errors, item.new_errors, item.blind = old[module], new[module], blind
    return list(found.values()), skipped, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dists", nargs="*", help="only pairs of these distributions")
    parser.add_argument("--limit", type=int, default=0, help="stop after N pairs with witnesses")
    args = parser.parse_args(argv)
    wanted = {audit._norm(name) for name in args.dists}
    judged: list[Judged] = []
    skipped = pairs = 0
    with tempfile.TemporaryDirectory(prefix="apisurface-witnesses-") as folder:
        for case in audit.corpus():
            if wanted and audit._norm(case.pair.dist) not in wanted:
                continue
            try:
                found, runnable, error = judge_pair(case, Path(folder))
            except Exception as failure:  # noqa: BLE001 - one odd release must not stop the run
                found, runnable, error = [], 0, f"{type(failure).__name__}: {failure}"
            name = f"{case.pair.dist} {case.pair.old} -> {case.pair.new}"
            if error:
                print(f"{name}: not diffed ({error[:100]})", flush=True)
                continue
            held = sum(item.holds for item in found)
            if found and found[0].blind:
                name += f" (not judged: {found[0].blind} not installed)"
            print(
                f"{name}: {len(found)} type witnesses, {held} hold; {runnable} run-level",
                flush=True,
            )
            judged += found
            skipped += runnable
            pairs += bool(found)
            if args.limit and pairs >= args.limit:
                break
    seen = [item for item in judged if not item.blind]
    wrong = [item for item in seen if not item.holds]
    blind = len(judged) - len(seen)
    print(
        f"\n{len(judged)} type-level witnesses on {pairs} pairs; {blind} of pairs whose "
        "requirements are not installed (mypy sees their names as Any: not judged); of the "
        f"other {len(seen)}: {len(seen) - len(wrong)} hold, "
        f"{sum(bool(item.old_errors) for item in wrong)} fail on OLD, "
        f"{sum(not item.old_errors and not item.new_errors for item in wrong)} pass on NEW; "
        f"{skipped} run-level witnesses not run"
    )
    for item in wrong:
        where = f"fails on OLD: {item.old_errors[:2]}" if item.old_errors else "passes on NEW"
        print(f"\n{item.pair}: {item.path} {item.kind}: {where}")
        print("\n".join(f"    {line}" for line in item.text.splitlines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
