"""How a change is known (POLICY.md section 3, "Evidence"): proven, with a witness a
user could run, or inferred, with the guess it rests on named. Every change
(:class:`apisurface.changes.Change`) carries one; the bump and the gates count proven
changes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["PROVEN", "Evidence", "Grade"]


class Grade(StrEnum):
    """How sure a change is (POLICY.md section 3, "Evidence")."""

    PROVEN = "proven"
    """Both sources state the fact and the rule table makes it a break (or an addition)."""
    INFERRED = "inferred"
    """The change rests on a guess, which :attr:`Evidence.why` names."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """How a change is known. ``why`` names the fact (proven) or the guess (inferred);
    ``witness`` is a few lines of user code that work on OLD and fail on NEW, when the
    change is a proven break that such code can show."""

    grade: Grade = Grade.PROVEN
    why: str = ""
    witness: str | None = None

    @property
    def proven(self) -> bool:
        """Whether the change counts towards the bump and the gates by default."""
        return self.grade is Grade.PROVEN

    @classmethod
    def inferred(cls, why: str) -> Evidence:
        """Evidence resting on the guess ``why`` ("rename paired by position")."""
        return cls(Grade.INFERRED, why)


PROVEN = Evidence()
"""The evidence of a change stated by both sources, before its witness is written."""
