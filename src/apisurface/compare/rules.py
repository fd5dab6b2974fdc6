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
    counted: bool = True
    """Whether the change counts towards the bump and the gates: proven, or counted in
    strict mode (POLICY.md section 3, "Evidence"). An uncounted change is "to review"."""
    parts: tuple[Classified, ...] = ()
    """The changes this entry stands for, when it is one edit to one signature that touches
    several parameters (``compare/report``): each with its own kind, values and evidence.
    Empty for an entry that is one change."""

    @property
    def each(self) -> tuple[Classified, ...]:
        """The changes of this entry: its parts, or itself."""
        return self.parts or (self,)

    @property
    def effective_level(self) -> Level:
        """The level counted towards the required bump (accepted changes, notes, and
        inferred ones outside strict mode, count as none)."""
        if self.accepted is not None or self.is_note or not self.counted:
            return Level.IGNORE
        return self.level

    @property
    def to_review(self) -> bool:
        """An inferred change not counted (not strict), not accepted: the reader judges it."""
        return not self.counted and self.accepted is None and not self.is_note

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
    strict: bool = False,
) -> list[Classified]:
    """Judge each change with the rule table, project overrides and accepted changes.

    Changes whose effective level is ``IGNORE`` through an override are dropped; accepted
    changes are kept (marked) so that reports still show them. A qualifier of a change
    (:attr:`~apisurface.changes.Change.qualifiers`) is judged by its own rule: re-levelled
    to ``IGNORE`` it is dropped from the change, otherwise the change's level is the higher
    of the two and its message says so; accepting the change under either id accepts it.
    Inferred changes count only when ``strict``; otherwise they are kept, to review.
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
        counted = strict or change.evidence.proven
        result.append(Classified(change, level, message, reason, counted))
    return result


def base_path(path: str) -> str:
    """The symbol a change path names: ``pkg.f(x)`` -> ``pkg.f``."""
    return path.split("(", 1)[0]
