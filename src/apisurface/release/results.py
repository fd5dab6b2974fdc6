"""What every release check returns (:class:`CheckResult`) and what the checks comparing with
the last release share (:class:`Release`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from apisurface.changes import ChangeKind
from apisurface.compare.kindsets import REMOVALS
from apisurface.compare.report import Report
from apisurface.model import Surface

__all__ = [
    "PARAMETER_REMOVALS",
    "SYMBOL_REMOVALS",
    "CheckResult",
    "Release",
    "no_release",
    "plural",
]

K = ChangeKind

#: Change kinds by which a public path leaves the surface (a removal for users).
SYMBOL_REMOVALS = REMOVALS
#: Change kinds by which a parameter name callers may pass goes away: the changelog names
#: these too.
PARAMETER_REMOVALS = frozenset(
    {
        K.PARAMETER_REMOVED,
        K.PARAMETER_RENAMED,
        K.VAR_POSITIONAL_REMOVED,
        K.VAR_KEYWORD_REMOVED,
    }
)

FETCH_TAGS = "run 'git fetch --tags --unshallow' (actions/checkout: fetch-depth: 0)"


def plural(count: int, word: str) -> str:
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word[:-1] + 'ies' if word.endswith('ry') else word + 's'}"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check: passed or not (a warning passes), a one-line summary, details, advice."""

    name: str
    passed: bool
    summary: str
    details: tuple[str, ...] = ()
    advice: str | None = None
    report: Report | None = field(default=None, compare=False)
    warning: bool = False

    @property
    def status(self) -> str:
        """``"pass"``, ``"warn"`` or ``"fail"``."""
        if not self.passed:
            return "fail"
        return "warn" if self.warning else "pass"


@dataclass(frozen=True, slots=True)
class Release:
    """The last release and what changed since: the context of the version checks.

    ``ref`` is ``None`` when there is nothing to compare with; ``note`` says why, and
    ``blocked`` is true when that is a problem (a shallow clone without its tags) rather
    than a first release.
    """

    ref: str | None
    version: str | None
    declared: str | None
    report: Report | None = None
    old: Surface | None = None
    note: str = ""
    blocked: bool = False


def no_release(name: str, release: Release) -> CheckResult:
    if release.blocked:
        return CheckResult(name, False, release.note, advice=f"{FETCH_TAGS}, or pass --against REF")
    return CheckResult(name, True, release.note)
