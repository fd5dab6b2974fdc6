"""The rule table: what each kind of change costs (POLICY.md section 3).

One :class:`Rule` per :class:`~apisurface.changes.ChangeKind`: the bump it requires and the
message shown to the reader. Each rule is written once, as the row of its ``ChangeKind``
member (:mod:`apisurface.changes`); :data:`RULES` indexes the rows, and :class:`Level` and
:class:`Rule` are re-exported from there. Projects may override levels in
``[tool.apisurface]``; the rows are the default and mirror POLICY.md line by line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from apisurface.changes import Change, ChangeKind, Level, Rule

__all__ = ["RULES", "Classified", "Level", "Rule", "base_path", "classify"]


@dataclass(frozen=True, slots=True)
class Classified:
    """A change with its level and message, as reported."""

    change: Change
    level: Level
    message: str
    accepted: str | None = None

    @property
    def effective_level(self) -> Level:
        """The level counted towards the required bump (accepted changes count as none)."""
        return Level.IGNORE if self.accepted is not None else self.level


RULES: Mapping[ChangeKind, Rule] = {kind: kind.rule for kind in ChangeKind}


def classify(
    changes: Iterable[Change],
    *,
    overrides: Mapping[ChangeKind, Level] | None = None,
    accepted: Mapping[tuple[str, ChangeKind], str] | None = None,
) -> list[Classified]:
    """Judge each change with the rule table, project overrides and accepted changes.

    Changes whose effective level is ``IGNORE`` through an override are dropped; accepted
    changes are kept (marked) so that reports still show them. A qualifier of a change
    (:attr:`~apisurface.changes.Change.qualifiers`) is judged by its own rule: re-levelled
    to ``IGNORE`` it is dropped from the change, otherwise the change's level is the higher
    of the two and its message says so; accepting the change under either id accepts it.
    """
    overrides = overrides or {}
    accepted = accepted or {}
    result: list[Classified] = []
    for change in sorted(set(changes)):
        rule = RULES[change.kind]
        level = overrides.get(change.kind, rule.level)
        qualifiers = tuple(
            kind
            for kind in change.qualifiers
            if overrides.get(kind, kind.rule.level) > Level.IGNORE
        )
        if qualifiers != change.qualifiers:
            change = replace(change, qualifiers=qualifiers)  # noqa: PLW2901 - as judged
        level = max([level, *(overrides.get(kind, kind.rule.level) for kind in qualifiers)])
        if level is Level.IGNORE:
            continue
        message = "; ".join(
            RULES[kind].template.format(old=change.old, new=change.new)
            for kind in (change.kind, *qualifiers)
        )
        reason = None
        for kind in (change.kind, *qualifiers):
            for path in (change.path, base_path(change.path)):
                reason = reason if reason is not None else accepted.get((path, kind))
        result.append(Classified(change, level, message, reason))
    return result


def base_path(path: str) -> str:
    """The symbol a change path names: ``pkg.f(x)`` -> ``pkg.f``."""
    return path.split("(", 1)[0]
