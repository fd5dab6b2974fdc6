"""How one row of the rule table is written and what it holds: the :class:`Level` a change
requires, the :class:`CallerHint` (what code using the changed object must do), the
:class:`Row` each member of :class:`~apisurface.changes.ChangeKind` is written as (by
keyword only) and the :class:`Rule` the member carries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (as in __init__)
if TYPE_CHECKING:
    from typing import Literal

    from apisurface.changes import ChangeKind

__all__ = [
    "CHECK",
    "CHECK_USE",
    "EXAMPLES",
    "MOVED",
    "CallCheck",
    "CallerHint",
    "Level",
    "Row",
    "Rule",
    "Successor",
    "case_header",
    "example_case",
]


class Level(IntEnum):
    """A semantic-versioning level; ``IGNORE`` drops a change from the required bump."""

    IGNORE = 0
    PATCH = 1
    MINOR = 2
    MAJOR = 3

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Level:
        """Read ``major``/``minor``/``patch``/``ignore`` (any case)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            choices = ", ".join(str(level) for level in cls)
            raise ValueError(f"unknown level {text!r}: use one of {choices}") from None


class Successor(StrEnum):
    """What the replacement a change names is, for the code using the changed object."""

    NONE = "none"
    """The change names no replacement."""
    NEW_PATH = "new_path"
    """The change's new value is where the object went: uses are rewritten to it."""
    NEW_NAME = "new_name"
    """The change's new value is the parameter's new name: keywords are rewritten to it."""
    NAMED = "named"
    """The deprecation names a replacement: uses are rewritten to it."""
    GUESS = "guess"
    """The change's new value may succeed it (a guess): shown, never rewritten."""


class CallCheck(StrEnum):
    """Which calls a parameter change meets (``apisurface impact``)."""

    ARGUMENT = "argument"
    """A call passing the parameter, by keyword or at its position."""
    KEYWORD = "keyword"
    """A call passing it by its old keyword."""
    SHIFT = "shift"
    """A call with positional arguments from the parameter's position on."""
    OMITTED = "omitted"
    """A call that does not pass it."""


CHECK_USE = "check this use against the new release"
"""What to do at a use of a changed path when the row says nothing more specific."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CallerHint:
    """What code using the changed object must do: the actions of ``apisurface impact``
    and ``migrate``, and the hint of the diff report (:attr:`use`).

    Templates may use ``{successor}`` (the replacement), ``{fix}`` (a note that ``migrate``
    rewrites the use, or why not), ``{name}`` (the parameter), ``{message}`` (the change's
    message), ``{position}`` (the 1-based position of the first shifted argument) and
    ``{path}`` (the changed path).
    """

    use: str = ""
    """At a use of the changed path (an import, a name, an attribute); empty: nothing
    specific (``impact`` says :data:`CHECK_USE`, the diff report gives no hint)."""
    successor: Successor = Successor.NONE
    """What the replacement the change names is."""
    use_successor: str = ""
    """At a use of the changed path when the change names a replacement (else :attr:`use`)."""
    call: CallCheck = CallCheck.ARGUMENT
    """Which calls a parameter change meets."""
    argument: str = "check the argument for {name}: {message}"
    """At a call that :attr:`call` meets."""
    argument_successor: str = ""
    """At such a call when the change names a replacement (else :attr:`argument`)."""
    override: str = "this method overrides {path}, which changed: update the override"
    """At a method overriding the changed one."""
    overrides: Literal["declared", "undeclared", "never"] = "declared"
    """Which overrides a parameter change reaches: those declaring the parameter, those
    that neither declare it nor take ``**kwargs`` (the base now passes it), or none."""


CHECK = CallerHint(use=CHECK_USE)
"""The hint of a breaking change that needs no specific action (look at each use): the
hint of a MAJOR row that names none."""

MOVED = CallerHint(
    use=CHECK_USE, successor=Successor.NEW_PATH, use_successor="use {successor}{fix}"
)
"""The hint of a path that left while its object lives on at the change's new path."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """One row of the rule table, as written in :class:`ChangeKind`: only by keyword, so
    a row whose fields are out of order is refused, not silently misread."""

    id: str
    level: Level
    message: str
    """The message shown to the reader; it may use ``{old}`` and ``{new}``."""
    why: str
    """What breaks (or why nothing does)."""
    caller_hint: CallerHint | None = None
    """What code using the changed object must do; ``None``: :data:`CHECK` for a MAJOR
    row, nothing for the others."""


@dataclass(frozen=True, slots=True)
class Rule:
    """How one kind of change is judged. ``template`` (the row's message) may use
    ``{old}`` and ``{new}``. ``why`` says what breaks (or why nothing does) and
    ``caller_hint`` what code using the changed object must do; both document the rule and
    take no part in comparing rules. Its example is the kind's case file (``KIND.case``
    in src/apisurface/cases), which ``apisurface explain`` shows."""

    kind: ChangeKind
    level: Level
    template: str
    why: str = field(default="", compare=False, repr=False)
    caller_hint: CallerHint = field(default=CallerHint(), compare=False, repr=False)

    @property
    def example(self) -> str:
        """The kind's minimal release pair: the files of its example case (``--- old
        PATH``, ``--- new PATH`` or ``--- both PATH``, each followed by that file's text);
        empty when the package has no example case for it."""
        case = example_case(self.kind.value) or ""
        found = _SECTION.search(case)
        return case[found.start() :] if found else ""

    @property
    def reported(self) -> str:
        """The public path at which apisurface reports the example (the first ``# expect:``
        line of the case naming this kind); empty when there is none."""
        return case_header(example_case(self.kind.value) or "", self.kind.value)[1]


EXAMPLES = "cases"
"""The folder of the package holding each kind's example case, ``KIND.case``."""

SECTION = re.compile(r"^--- (?:(old|new|both) )?(\S+)\s*$")
"""A case file's section line: the file that follows, before, after or on both sides."""

_SECTION = re.compile(SECTION.pattern, re.MULTILINE)
_EXPECT = re.compile(r"^# expect:\s*(\S+)\s+(\S+)\s*$")


def example_case(rule: str) -> str | None:
    """The text of ``rule``'s example case file (``KIND.case`` in :data:`EXAMPLES`), or
    ``None`` when the package has none."""
    from importlib.resources import files  # noqa: PLC0415 - only `explain` reads cases

    try:
        return files("apisurface").joinpath(EXAMPLES, f"{rule}.case").read_text("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None


def case_header(case: str, rule: str) -> tuple[str, str]:
    """The description of a case and the first path its ``# expect:`` lines report
    ``rule`` at (as a kind or a qualifier after ``+``), from the lines before its files."""
    description = reported = ""
    for line in case.splitlines():
        if SECTION.match(line):
            break
        if line.startswith("# description:") and not description:
            description = line.partition(":")[2].strip()
        match = _EXPECT.match(line)
        if match and not reported and rule in match.group(2).split("+"):
            reported = match.group(1)
    return description, reported
