"""The rule table: what each kind of change costs (POLICY.md section 3).

One :class:`Rule` per :class:`~apisurface.changes.ChangeKind`: the bump it requires and the
message shown to the reader. Each rule is written once, as the row of its ``ChangeKind``
member (:mod:`apisurface.changes`); :data:`RULES` indexes the rows, and :class:`Level` and
:class:`Rule` are re-exported from there. Projects may override levels in
``[tool.apisurface]``; the rows are the default and mirror POLICY.md line by line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from apisurface.changes import Change, ChangeKind, Level, Rule

__all__ = ["NOTE_KINDS", "RULES", "Classified", "Level", "Rule", "base_path", "classify"]

NOTE_KINDS = frozenset({ChangeKind.DOCSTRING_CHANGED, ChangeKind.DOCUMENTATION_UNKNOWN})
"""Kinds that change nothing a caller can use (docstring wording; documentation that
cannot be judged): at their default level (PATCH) they are *notes*: reported, but not
public API changes, so they are not counted, reach no ``--fail-on`` level, and are no
code-scanning result. A project that re-levels one (``levels``) makes it count."""


@dataclass(frozen=True, slots=True)
class Classified:
    """A change with its level and message, as reported."""

    change: Change
    level: Level
    message: str
    accepted: str | None = None

    @property
    def effective_level(self) -> Level:
        """The level counted towards the required bump (accepted changes and notes count
        as none)."""
        return Level.IGNORE if self.accepted is not None or self.is_note else self.level

    @property
    def is_note(self) -> bool:
        """Whether this is a note (:data:`NOTE_KINDS` at PATCH): no public API change."""
        return self.change.kind in NOTE_KINDS and self.level is Level.PATCH


RULES: Mapping[ChangeKind, Rule] = {kind: kind.rule for kind in ChangeKind}


def classify(
    changes: Iterable[Change],
    *,
    overrides: Mapping[ChangeKind, Level] | None = None,
    accepted: Mapping[tuple[str, ChangeKind], str] | None = None,
) -> list[Classified]:
    """Judge each change with the rule table, project overrides and accepted changes.

    Changes whose effective level is ``IGNORE`` through an override are dropped; accepted
    changes are kept (marked) so that reports still show them.
    """
    overrides = overrides or {}
    accepted = accepted or {}
    result: list[Classified] = []
    for change in sorted(set(changes)):
        rule = RULES[change.kind]
        level = overrides.get(change.kind, rule.level)
        if level is Level.IGNORE:
            continue
        message = rule.template.format(old=change.old, new=change.new)
        reason = accepted.get((change.path, change.kind))
        if reason is None:
            reason = accepted.get((base_path(change.path), change.kind))
        result.append(Classified(change, level, message, reason))
    return result


def base_path(path: str) -> str:
    """The symbol a change path names: ``pkg.f(x)`` -> ``pkg.f``."""
    return path.split("(", 1)[0]
