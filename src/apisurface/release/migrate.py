"""``impact`` and ``migrate`` over a user's files: run the analysis, build the unified
diff, write the rewritten files atomically, and find what is left.

A file that cannot be parsed is skipped and listed in ``problems``; the other files are
still analysed (and rewritten). The CLI exits 2 when there are problems.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from apisurface.release.impact import FileResult, Use, analyse_files, analyse_source, find_sources
from apisurface.release.migration import MigrationSpec
from apisurface.release.writeback import replace_unchanged

__all__ = ["ImpactReport", "MigrationRun", "run_impact", "run_migration", "write_changes"]


@dataclass(frozen=True, slots=True)
class ImpactReport:
    """The uses found in a set of files, for the renderers."""

    spec: MigrationSpec
    uses: tuple[Use, ...]
    files: int
    problems: tuple[str, ...] = ()

    @property
    def breaking(self) -> tuple[Use, ...]:
        """The uses that fail or change meaning on NEW."""
        return tuple(use for use in self.uses if use.level == "major")


@dataclass(slots=True)
class MigrationRun:
    """What ``migrate`` rewrote (``changed``) and the impact report of what is left."""

    changed: list[FileResult] = field(default_factory=list)
    fixed: list[Use] = field(default_factory=list)
    left: ImpactReport | None = None

    def diff(self) -> str:
        """The rewrite as one unified diff (``a/``, ``b/`` prefixes, like git)."""
        parts: list[str] = []
        for result in self.changed:
            assert result.rewritten is not None
            before = _text(result.original)
            after = _text(result.rewritten)
            name = Path(result.file).as_posix()
            parts.extend(
                difflib.unified_diff(
                    before.splitlines(keepends=True),
                    after.splitlines(keepends=True),
                    f"a/{name}",
                    f"b/{name}",
                )
            )
        return "".join(line if line.endswith("\n") else line + "\n" for line in parts)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def run_impact(paths: Sequence[str], spec: MigrationSpec) -> ImpactReport:
    """Every use in ``paths`` the change set breaks or touches."""
    files, problems = find_sources(paths)
    uses: list[Use] = []
    for result in analyse_files(files, spec):
        if result.problem:
            problems.append(result.problem)
        uses.extend(result.uses)
    return ImpactReport(spec, tuple(sorted(uses)), len(files), tuple(problems))


def run_migration(paths: Sequence[str], spec: MigrationSpec) -> MigrationRun:
    """Rewrite in memory what can be rewritten; the report is the impact of the result."""
    files, problems = find_sources(paths)
    run = MigrationRun()
    left: list[Use] = []
    for result in analyse_files(files, spec, rewrite=True):
        if result.problem:
            problems.append(result.problem)
            left.extend(result.uses)  # a file not rewritten keeps every use it has
            continue
        if result.rewritten is None:
            left.extend(result.uses)
            continue
        run.changed.append(result)
        run.fixed.extend(use for use in result.uses if use.fixable)
        after = analyse_source(result.rewritten, result.file, spec)
        if after.problem:  # never expected: a rewrite that does not parse is not written
            problems.append(f"{result.file}: the rewrite does not parse; not rewritten")
            run.changed.remove(result)
            left.extend(result.uses)
            continue
        left.extend(after.uses)
    run.left = ImpactReport(spec, tuple(sorted(left)), len(files), tuple(problems))
    return run


def write_changes(run: MigrationRun) -> list[str]:
    """Write each rewritten file (:func:`apisurface.release.writeback.replace_unchanged`:
    atomically, unless it changed since it was read); the files written. A file left as it
    was is no longer among ``run.changed``: its uses are back among what is left, with a
    one-line problem saying why (the CLI exits 2)."""
    written: list[str] = []
    kept: list[tuple[FileResult, str]] = []
    for result in run.changed:
        assert result.rewritten is not None
        problem = replace_unchanged(Path(result.file), result.original, result.rewritten)
        if problem is None:
            written.append(result.file)
        else:
            kept.append((result, problem))
    if kept and run.left is not None:
        files = {result.file for result, _ in kept}
        run.changed = [result for result in run.changed if result.file not in files]
        run.fixed = [use for use in run.fixed if use.file not in files]
        uses = [use for use in run.left.uses if use.file not in files]
        uses += [use for result, _ in kept for use in result.uses]
        problems = (*run.left.problems, *(problem for _, problem in kept))
        run.left = replace(run.left, uses=tuple(sorted(uses)), problems=problems)
    return written
