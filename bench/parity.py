"""Parity: does the refactored apisurface give the same reports as the one before it?

    python bench/parity.py                          # ddc7698 vs the working tree, 40 pairs
    python bench/parity.py --new ddc7698            # base vs itself: must find 0 different
    python bench/parity.py --new main               # base vs a ref (any ref or commit)
    python bench/parity.py --pairs all              # every pair of bench/audit.py
    python bench/parity.py --pairs 0 --cases 50     # quick: 50 cases and apisurface itself
    python bench/parity.py idna click               # only the pairs of these distributions

BASE (``--base``, default ddc7698, the last commit before issue 13's refactor) is exported
with ``git archive`` into a temporary folder; NEW is the working tree this script lives in,
or, with ``--new REF``, another export. Each side runs as ``python -m apisurface`` with
``PYTHONPATH=<that tree>/src`` (the same interpreter and installed dependencies: this
script's), and each has its own cache folder (``--cache-dir``, never the user's cache).
Three kinds of inputs, each run by both sides with the same arguments from the same folder:

(a) every change case of tests/cases and src/apisurface/cases (NEW's case files), written
    out as tests/casefile.py does, as written and re-exported through ``__init__`` where
    test_cases.py does so too: ``diff old new --format json`` with a cold cache;
(b) real release pairs: the corpus of bench/audit.py (bench/releases.py pairs and the pinned
    sweep pairs), fetched by bench/releases.py's own code (PyPI's JSON API, sha256 checked,
    never built; cached in bench/.cache/releases): ``diff --format json`` with a cold cache,
    again with the cache warm, with ``--no-cache``, then ``snapshot -o FILE`` of both
    releases (warm). ``--pairs N`` takes N pairs spread evenly over the corpus (default 40);
(c) apisurface itself: the ``src`` and ``pyproject.toml`` of BASE and NEW copied side by
    side: ``snapshot`` of each (cold, then NEW again with ``--no-cache``) and
    ``diff base new --format json`` (warm, then ``--no-cache``).

Each step is compared on its exit status, its stdout and the file it wrote (``-o``), byte for
byte after normalisation. Normalised: the absolute paths of the temporary folders (each
side's scratch folder becomes ``<scratch>``, the run's folder ``<cwd>``, the side's tree
``<tool>``, the temporary root ``<tmp>``); paths on the command line are relative, so
reports carry none of these unless a side starts printing absolute paths. Excluded: stderr
when the step succeeds (progress notes and their timings), all but its last line when it
fails (the one-line error is compared). Nothing else is normalised: the JSON report has no
timing or tool version field (its ``old``/``new`` fields are the relative arguments), and a
snapshot's ``versions`` header is the file format's, which "no behaviour change" must keep.

Output: for each difference, the input, the step, the command and the first lines of a
unified diff (the whole of both sides goes to bench/results/parity/); then one line
``parity: N compared, M identical, K different`` (plus pairs skipped because they could not
be fetched). Exit status 1 if any step differs, 2 if a tree cannot be exported or run.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import io
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results" / "parity"
BASE = "ddc7698"
TIMEOUT = 1800
T = TypeVar("T")


@dataclass(frozen=True)
class Tool:
    """One side: an apisurface source tree run as ``python -m apisurface``."""

    name: str
    root: Path

    def env(self, scratch: Path) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.root / "src")
        env["APISURFACE_CACHE_DIR"] = str(scratch / "cache")
        env["NO_COLOR"] = "1"
        env.pop("FORCE_COLOR", None)
        return env


@dataclass(frozen=True)
class Step:
    """One command of an input; ``{cache}`` and ``{out}`` are the side's own folder/file."""

    name: str
    args: tuple[str, ...]

    @property
    def writes(self) -> bool:
        return "{out}" in self.args

    def argv(self, scratch: Path) -> list[str]:
        cache, out = str(scratch / "cache"), str(scratch / "out.json")
        return [arg.replace("{cache}", cache).replace("{out}", out) for arg in self.args]


@dataclass(frozen=True)
class Unit:
    """One input (a case, a release pair, apisurface itself): steps run in order per side."""

    label: str
    prepare: Callable[[], tuple[Path, tuple[Step, ...]]]
    """Makes the input ready (writes or fetches it); returns the folder the commands run
    from and the steps."""


@dataclass(frozen=True)
class Comparison:
    label: str
    step: str
    command: str
    base: str
    new: str

    @property
    def same(self) -> bool:
        return self.base == self.new

    @property
    def failed(self) -> bool:
        """Whether the base side's step failed (then both failing alike is still "same")."""
        return not self.base.startswith("exit: 0\n")


@dataclass
class Outcome:
    label: str
    comparisons: list[Comparison] = field(default_factory=list)
    skipped: str = ""


def normalise(text: str, places: Sequence[tuple[Path, str]]) -> str:
    """``text`` with each folder of ``places`` (longest first) replaced by its placeholder."""
    spelled: list[tuple[str, str]] = []
    for path, placeholder in places:
        for form in {str(path), os.path.realpath(path)}:
            spelled.append((form, placeholder))
    for form, placeholder in sorted(spelled, key=lambda item: -len(item[0])):
        text = text.replace(form, placeholder)
    return text


def render(code: int, stdout: str, output: str | None, stderr: str) -> str:
    """One text per step run: what is compared between the two sides."""
    parts = [f"exit: {code}\n", "--- stdout\n", stdout]
    if output is not None:
        parts += ["--- output file\n", output]
    if code != 0:
        last = stderr.strip().splitlines()[-1:] or [""]
        parts += ["--- error\n", last[0] + "\n"]
    return "".join(parts)


def excerpt(base: str, new: str, lines: int = 40) -> str:
    """The first ``lines`` lines of a unified diff from ``base`` to ``new``."""
    diff = list(
        difflib.unified_diff(
            base.splitlines(keepends=True), new.splitlines(keepends=True), "base", "new", n=2
        )
    )
    shown = [line if line.endswith("\n") else line + "\n" for line in diff[:lines]]
    if len(diff) > lines:
        shown.append(f"... ({len(diff) - lines} more diff lines)\n")
    return "".join(shown)


def summary(outcomes: Iterable[Outcome]) -> str:
    outcomes = list(outcomes)
    compared = [item for outcome in outcomes for item in outcome.comparisons]
    same = sum(1 for item in compared if item.same)
    skipped = sum(1 for outcome in outcomes if outcome.skipped)
    failed = sum(1 for item in compared if item.same and item.failed)
    line = f"parity: {len(compared)} compared, {same} identical, {len(compared) - same} different"
    notes = [f"{failed} of the identical failed on both sides"] if failed else []
    notes += [f"{skipped} inputs skipped: could not be fetched"] if skipped else []
    return line + (f" ({'; '.join(notes)})" if notes else "")


def spread(items: Sequence[T], count: int | None) -> list[T]:
    """``count`` items spread evenly over ``items`` (all when ``count`` is None or larger)."""
    if count is None or count >= len(items):
        return list(items)
    return [items[index * len(items) // count] for index in range(count)]


def _count(text: str) -> int | None:
    return None if text == "all" else int(text)


def resolve(ref: str) -> str:
    """The commit ``ref`` names in this repository."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    if not commit:
        raise SystemExit(f"parity: {ref!r} is not a commit of {ROOT}")
    return commit


def export(ref: str, into: Path) -> Path:
    """A clean copy of commit ``ref`` of this repository (``git archive``) in ``into``."""
    commit = resolve(ref)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        capture_output=True,
        check=True,
    ).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def check_tool(tool: Tool, scratch: Path) -> None:
    """Refuse to compare if ``python -m apisurface`` would not import ``tool``'s tree."""
    scratch.mkdir(parents=True, exist_ok=True)
    found = subprocess.run(
        [sys.executable, "-c", "import apisurface; print(apisurface.__file__)"],
        capture_output=True,
        text=True,
        env=tool.env(scratch),
        cwd=scratch,
        check=False,
    ).stdout.strip()
    if not found or not Path(found).resolve().is_relative_to((tool.root / "src").resolve()):
        raise SystemExit(f"parity: {tool.name} imports apisurface from {found!r}, not its tree")


def run_step(tool: Tool, step: Step, cwd: Path, scratch: Path, tmp: Path) -> str:
    scratch.mkdir(parents=True, exist_ok=True)
    out = scratch / "out.json"
    out.unlink(missing_ok=True)
    completed = subprocess.run(
        [sys.executable, "-m", "apisurface", *step.argv(scratch)],
        capture_output=True,
        text=True,
        env=tool.env(scratch),
        cwd=cwd,
        timeout=TIMEOUT,
        check=False,
    )
    output = None
    if step.writes:
        output = out.read_text(encoding="utf-8") if out.is_file() else "(no file written)\n"
    places = [(scratch, "<scratch>"), (cwd, "<cwd>"), (tool.root, "<tool>"), (tmp, "<tmp>")]
    text = render(completed.returncode, completed.stdout, output, completed.stderr)
    return normalise(text, places)


def command(step: Step, cwd: Path, tmp: Path) -> str:
    """The step as a shell command (``<tmp>``: the run's temporary folder, kept by --keep)."""
    shown = {"{cache}": "<scratch>/cache", "{out}": "<scratch>/out.json"}
    args = " ".join(shown.get(arg) or shlex.quote(arg) for arg in step.args)
    where = normalise(str(cwd), [(tmp, "<tmp>")])
    return f"(cd {where} && PYTHONPATH=<tree>/src python -m apisurface {args})"


def run_unit(unit: Unit, base: Tool, new: Tool, tmp: Path, index: int) -> Outcome:
    outcome = Outcome(unit.label)
    try:
        cwd, steps = unit.prepare()
    except Exception as error:  # noqa: BLE001 - a pair that cannot be fetched is reported
        outcome.skipped = f"{type(error).__name__}: {error}"
        return outcome
    runs: dict[str, list[str]] = {}
    for tool in (base, new):
        scratch = tmp / "scratch" / f"{index}-{tool.name}"
        runs[tool.name] = [run_step(tool, step, cwd, scratch, tmp) for step in steps]
        shutil.rmtree(scratch, ignore_errors=True)
    for step, old_text, new_text in zip(steps, runs[base.name], runs[new.name], strict=True):
        outcome.comparisons.append(
            Comparison(unit.label, step.name, command(step, cwd, tmp), old_text, new_text)
        )
    return outcome


# ---------------------------------------------------------------------------- the inputs


def _sibling(folder: Path, name: str) -> Any:
    """Module ``name`` of ``folder`` (the tests' case reader, the audit's corpus)."""
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(name)


def case_units(cases_dirs: Sequence[Path], tmp: Path, count: int | None) -> list[Unit]:
    casefile = _sibling(ROOT / "tests", "casefile")  # the tests' own case reader
    parse_case, write_tree, reexported = (
        casefile.parse_case,
        casefile.write_tree,
        casefile.reexported,
    )
    steps = (
        Step(
            "diff --format json (cold cache)",
            ("diff", "old", "new", "--format", "json", "--cache-dir", "{cache}"),
        ),
    )
    units: list[Unit] = []
    cases = sorted(path for folder in cases_dirs for path in folder.glob("*.case"))
    for path in spread(cases, count):
        case = parse_case(path)
        variants = [("as written", case.old, case.new)]
        old, new = reexported(case.old), reexported(case.new)
        if case.reexport and old is not None and new is not None:
            variants.append(("re-exported", old, new))
        for how, old_files, new_files in variants:
            folder = tmp / "cases" / f"{case.name}.{how.replace(' ', '-')}"

            def prepare(
                folder: Path = folder,
                old: dict[str, str] = old_files,
                new: dict[str, str] = new_files,
            ) -> tuple[Path, tuple[Step, ...]]:
                write_tree(folder / "old", old)
                write_tree(folder / "new", new)
                return folder, steps

            units.append(Unit(f"case {case.name} ({how})", prepare))
    return units


def pair_units(count: int | None, dists: Sequence[str]) -> list[Unit]:
    audit = _sibling(HERE, "audit")  # the precision audit's corpus
    releases = _sibling(HERE, "releases")  # and the download code it uses

    def norm(name: str) -> str:
        return name.lower().replace("_", "-").replace(".", "-")

    wanted = {norm(name) for name in dists}
    corpus = [case for case in audit.corpus() if not wanted or norm(case.pair.dist) in wanted]
    units: list[Unit] = []
    for case in spread(corpus, count):

        def prepare(pair: Any = case.pair) -> tuple[Path, tuple[Step, ...]]:
            src = releases.CACHE / "src"
            old = releases.unpack(releases.download(pair.dist, pair.old, wheels=pair.wheels))
            new = releases.unpack(
                releases.download(pair.new_dist or pair.dist, pair.new, wheels=pair.wheels)
            )
            steps = pair_steps(str(old.relative_to(src)), str(new.relative_to(src)), pair.package)
            return src, steps

        units.append(Unit(f"{case.source} {case.name}", prepare))
    return units


def pair_steps(old: str, new: str, package: str) -> tuple[Step, ...]:
    diff = ("diff", old, new, "--package", package, "--format", "json")
    return (
        Step("diff --format json (cold cache)", (*diff, "--cache-dir", "{cache}")),
        Step("diff --format json (warm cache)", (*diff, "--cache-dir", "{cache}")),
        Step("diff --format json (--no-cache)", (*diff, "--no-cache")),
        Step(
            f"snapshot {old} (warm cache)",
            ("snapshot", old, "--package", package, "-o", "{out}", "--cache-dir", "{cache}"),
        ),
        Step(
            f"snapshot {new} (warm cache)",
            ("snapshot", new, "--package", package, "-o", "{out}", "--cache-dir", "{cache}"),
        ),
    )


def self_unit(base_root: Path, new_root: Path, tmp: Path) -> Unit:
    """apisurface's own surface: the two trees' sources, snapshotted and diffed."""

    def prepare() -> tuple[Path, tuple[Step, ...]]:
        folder = tmp / "self"
        for name, root in (("base", base_root), ("new", new_root)):
            shutil.copytree(
                root / "src", folder / name / "src", ignore=shutil.ignore_patterns("__pycache__")
            )
            shutil.copy2(root / "pyproject.toml", folder / name / "pyproject.toml")
        return folder, steps

    cache = ("--cache-dir", "{cache}")
    steps = (
        Step("snapshot base (cold cache)", ("snapshot", "base", "-o", "{out}", *cache)),
        Step("snapshot new (cold cache)", ("snapshot", "new", "-o", "{out}", *cache)),
        Step(
            "diff base new --format json (warm cache)",
            ("diff", "base", "new", "--format", "json", *cache),
        ),
        Step(
            "diff base new --format json (--no-cache)",
            ("diff", "base", "new", "--format", "json", "--no-cache"),
        ),
        Step("snapshot new (--no-cache)", ("snapshot", "new", "-o", "{out}", "--no-cache")),
    )
    return Unit("apisurface itself", prepare)


# ---------------------------------------------------------------------------- the run


def report(outcomes: Sequence[Outcome], results: Path, lines: int) -> str:
    """The differences (input, step, command, diff excerpt) and the summary line."""
    text: list[str] = []
    shutil.rmtree(results, ignore_errors=True)
    for outcome in outcomes:
        if outcome.skipped:
            text.append(f"SKIPPED {outcome.label}: {outcome.skipped}\n")
        for number, item in enumerate(outcome.comparisons):
            if item.same:
                continue
            name = "".join(ch if ch.isalnum() or ch in ".-" else "_" for ch in item.label)
            results.mkdir(parents=True, exist_ok=True)
            for side, body in (("base", item.base), ("new", item.new)):
                (results / f"{name}.{number}.{side}.txt").write_text(body, encoding="utf-8")
            text.append(
                f"DIFFERENT {item.label}: {item.step}\n  {item.command}\n"
                + excerpt(item.base, item.new, lines)
            )
    text.append(summary(outcomes) + "\n")
    return "".join(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dists", nargs="*", help="only the release pairs of these distributions")
    parser.add_argument("--base", default=BASE, help=f"base commit or ref (default {BASE})")
    parser.add_argument("--new", help="a ref to compare instead of the working tree")
    parser.add_argument(
        "--pairs", type=_count, default=40, help="N release pairs spread over the corpus, or all"
    )
    parser.add_argument("--cases", type=_count, default=None, help="N case files, or all")
    parser.add_argument("--no-self", action="store_true", help="leave apisurface itself out")
    parser.add_argument("--jobs", type=int, default=2, help="inputs run at the same time")
    parser.add_argument("--lines", type=int, default=40, help="diff lines shown per difference")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where both sides go")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)

    began = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="apisurface-parity-"))
    try:
        base = Tool("base", export(args.base, tmp / "base-tree"))
        new = Tool("new", export(args.new, tmp / "new-tree") if args.new else ROOT)
        for tool in (base, new):
            check_tool(tool, tmp / "scratch" / f"check-{tool.name}")
        units: list[Unit] = []
        if args.cases != 0:
            folders = [new.root / "tests" / "cases", new.root / "src" / "apisurface" / "cases"]
            units += case_units(folders, tmp, args.cases)
        if args.pairs != 0:
            units += pair_units(args.pairs, args.dists)
        if not args.no_self:
            units.append(self_unit(base.root, new.root, tmp))
        new_name = f"{args.new} ({resolve(args.new)[:10]})" if args.new else "the working tree"
        print(
            f"parity: {args.base} ({resolve(args.base)[:10]}) vs {new_name}: {len(units)} inputs",
            file=sys.stderr,
            flush=True,
        )

        def one(numbered: tuple[int, Unit]) -> Outcome:
            outcome = run_unit(numbered[1], base, new, tmp, numbered[0])
            same = all(compared.same for compared in outcome.comparisons)
            state = "skipped" if outcome.skipped else ("same" if same else "DIFFERENT")
            print(
                f"  {numbered[0] + 1}/{len(units)} {outcome.label}: {state}",
                file=sys.stderr,
                flush=True,
            )
            return outcome

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(one, enumerate(units)))
        sys.stdout.write(report(outcomes, args.results, args.lines))
        print(f"parity: {time.monotonic() - began:.0f} s", file=sys.stderr)
    finally:
        if args.keep:
            print(f"parity: kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    differ = any(not c.same for outcome in outcomes for c in outcome.comparisons)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
