"""The rule table: what each kind of change costs (POLICY.md section 3).

One :class:`Rule` per :class:`~apisurface.changes.ChangeKind`: the bump it requires and the
message shown to the reader. Projects may override levels in ``[tool.apisurface]``; the
table below is the default and mirrors POLICY.md line by line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum

from apisurface.changes import Change, ChangeKind

__all__ = ["RULES", "Classified", "Level", "Rule", "base_path", "classify"]


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


@dataclass(frozen=True, slots=True)
class Rule:
    """How one kind of change is judged. ``template`` may use ``{old}`` and ``{new}``."""

    kind: ChangeKind
    level: Level
    template: str


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


K = ChangeKind
MAJOR, MINOR, PATCH = Level.MAJOR, Level.MINOR, Level.PATCH

_TABLE: tuple[Rule, ...] = (
    # --- symbols leaving the surface (MAJOR) ---
    Rule(K.SYMBOL_REMOVED, MAJOR, "{old} removed"),
    Rule(K.SYMBOL_RENAMED, MAJOR, "renamed to {new}"),
    Rule(K.SYMBOL_MOVED, MAJOR, "moved to {new} without a re-export at the old path"),
    Rule(K.SYMBOL_MADE_PRIVATE, MAJOR, "made private ({new})"),
    Rule(K.SYMBOL_MADE_EXPERIMENTAL, MAJOR, "moved into experimental ({new})"),
    Rule(K.SYMBOL_MOVED_TO_CONTRIB, MAJOR, "moved into contrib ({new})"),
    Rule(K.SYMBOL_NO_LONGER_DOCUMENTED, MAJOR, "no longer documented, so no longer public"),
    Rule(K.SYMBOL_UNEXPORTED, MAJOR, "dropped from __all__"),
    Rule(K.SYMBOL_EXCLUDED_BY_CONFIG, MAJOR, "excluded by the project's configuration"),
    Rule(K.REEXPORT_REMOVED, MAJOR, "re-export dropped (still available as {new})"),
    Rule(K.ENUM_MEMBER_REMOVED, MAJOR, "enum member removed"),
    Rule(
        K.REMOVED_WITHOUT_DEPRECATION,
        MAJOR,
        "removed without prior deprecation (deprecate it in a release first)",
    ),
    # --- what a symbol is (MAJOR) ---
    Rule(K.KIND_CHANGED, MAJOR, "changed kind: {old} -> {new}"),
    Rule(K.FUNCTION_MADE_ASYNC, MAJOR, "became async"),
    Rule(K.FUNCTION_MADE_SYNC, MAJOR, "is no longer async"),
    Rule(K.METHOD_MADE_ABSTRACT, MAJOR, "became abstract (subclasses must implement it)"),
    Rule(K.BASE_REMOVED, MAJOR, "base class {old} removed"),
    Rule(
        K.BASES_REORDERED,
        MAJOR,
        "bases reordered: ({old}) -> ({new}); the method resolution order changes",
    ),
    # --- parameters (MAJOR) ---
    Rule(K.PARAMETER_REMOVED, MAJOR, "parameter removed"),
    Rule(K.PARAMETER_RENAMED, MAJOR, "parameter renamed {old} -> {new}"),
    Rule(
        K.PARAMETER_MOVED,
        MAJOR,
        "positional parameter moved from position {old} to {new}"
        " (counted from 1, self/cls not counted)",
    ),
    Rule(K.PARAMETER_ADDED_REQUIRED, MAJOR, "required parameter added"),
    Rule(
        K.PARAMETER_INSERTED,
        MAJOR,
        "optional parameter inserted before existing positional ones (positional calls shift)",
    ),
    Rule(
        K.FIELD_ADDED_REQUIRED,
        MAJOR,
        "field added without a default (constructor gains a required parameter)",
    ),
    Rule(K.PARAMETER_DEFAULT_REMOVED, MAJOR, "default removed ({old}): parameter is now required"),
    Rule(K.PARAMETER_DEFAULT_CHANGED, MAJOR, "default changed: {old} -> {new}"),
    Rule(K.PARAMETER_KIND_NARROWED, MAJOR, "parameter kind narrowed: {old} -> {new}"),
    Rule(K.VAR_POSITIONAL_REMOVED, MAJOR, "*{old} removed"),
    Rule(K.VAR_KEYWORD_REMOVED, MAJOR, "**{old} removed"),
    Rule(
        K.SIGNATURE_INCOMPATIBLE,
        MAJOR,
        "a call the old signature accepted now fails or binds differently: {new}",
    ),
    Rule(K.OVERLOAD_REMOVED, MAJOR, "overload removed: {old}"),
    # --- annotations (MAJOR) ---
    Rule(K.PARAMETER_ANNOTATION_NARROWED, MAJOR, "parameter type narrowed: {old} -> {new}"),
    Rule(K.PARAMETER_ANNOTATION_CHANGED, MAJOR, "parameter type changed: {old} -> {new}"),
    Rule(K.RETURN_ANNOTATION_WIDENED, MAJOR, "return type widened: {old} -> {new}"),
    Rule(K.RETURN_ANNOTATION_CHANGED, MAJOR, "return type changed: {old} -> {new}"),
    Rule(K.ATTRIBUTE_ANNOTATION_CHANGED, MAJOR, "type changed: {old} -> {new}"),
    # --- additions (MINOR) ---
    Rule(K.SYMBOL_ADDED, MINOR, "{new} added"),
    Rule(K.SYMBOL_MADE_PUBLIC, MINOR, "made public (was {old})"),
    Rule(K.SYMBOL_PROMOTED_FROM_EXPERIMENTAL, MINOR, "promoted from experimental"),
    Rule(K.SYMBOL_NOW_DOCUMENTED, MINOR, "now documented, so now public"),
    Rule(K.SYMBOL_EXPORTED, MINOR, "added to __all__"),
    Rule(K.REEXPORT_ADDED, MINOR, "added; the same object is also available as {old}"),
    Rule(K.ENUM_MEMBER_ADDED, MINOR, "enum member added"),
    Rule(K.BASE_ADDED, MINOR, "base class {new} added"),
    Rule(K.METHOD_NO_LONGER_ABSTRACT, MINOR, "is no longer abstract"),
    Rule(K.PARAMETER_ADDED_OPTIONAL, MINOR, "optional parameter added (default {new})"),
    Rule(K.FIELD_ADDED_OPTIONAL, MINOR, "field added with a default ({new})"),
    Rule(K.PARAMETER_DEFAULT_ADDED, MINOR, "default added ({new})"),
    Rule(K.PARAMETER_KIND_WIDENED, MINOR, "parameter kind widened: {old} -> {new}"),
    Rule(
        K.PARAMETER_ABSORBED,
        MINOR,
        "parameter removed but absorbed by {new}: calls passing it still bind",
    ),
    Rule(
        K.PARAMETER_RENAMED_KEEPING_OLD_NAME,
        MINOR,
        "positional parameter renamed {old} -> {new}; {old} is still accepted as a keyword",
    ),
    Rule(K.VAR_POSITIONAL_ADDED, MINOR, "*{new} added"),
    Rule(K.VAR_KEYWORD_ADDED, MINOR, "**{new} added"),
    Rule(K.OVERLOAD_ADDED, MINOR, "overload added: {new}"),
    Rule(
        K.OVERLOAD_WIDENED,
        MINOR,
        "overload {old} replaced by {new}, which accepts every call it accepted",
    ),
    Rule(K.PARAMETER_ANNOTATION_WIDENED, MINOR, "parameter type widened: {old} -> {new}"),
    Rule(K.RETURN_ANNOTATION_NARROWED, MINOR, "return type narrowed: {old} -> {new}"),
    Rule(K.SYMBOL_DEPRECATED, MINOR, "deprecated ({new})"),
    Rule(K.SYMBOL_UNDEPRECATED, MINOR, "no longer deprecated"),
    # --- no change to what callers can rely on (PATCH) ---
    Rule(
        K.POSITIONAL_ONLY_PARAMETER_RENAMED,
        PATCH,
        "positional-only parameter renamed {old} -> {new}",
    ),
    Rule(K.KEYWORD_ONLY_PARAMETERS_REORDERED, PATCH, "keyword-only parameters reordered"),
    Rule(K.DOCSTRING_CHANGED, PATCH, "docstring changed"),
    Rule(
        K.DOCUMENTATION_UNKNOWN,
        PATCH,
        "documented only by docs sources, which the other side lacks: not judged",
    ),
    Rule(K.OVERRIDE_REMOVED, PATCH, "override removed; still inherited from {new}"),
    # Annotation refinements: only Any changed (written, implied by a bare generic, or by
    # a missing annotation), so every use that type-checked still does.
    Rule(K.PARAMETER_ANNOTATION_ADDED, PATCH, "parameter type added: {new} (was Any)"),
    Rule(K.PARAMETER_ANNOTATION_REMOVED, PATCH, "parameter type removed (was {old}; now Any)"),
    Rule(K.PARAMETER_ANNOTATION_REFINED, PATCH, "parameter type refined: {old} -> {new}"),
    Rule(K.RETURN_ANNOTATION_ADDED, PATCH, "return type added: {new} (was Any)"),
    Rule(K.RETURN_ANNOTATION_REMOVED, PATCH, "return type removed (was {old}; now Any)"),
    Rule(K.RETURN_ANNOTATION_REFINED, PATCH, "return type refined: {old} -> {new}"),
    Rule(K.ATTRIBUTE_ANNOTATION_ADDED, PATCH, "type added: {new} (was Any)"),
    Rule(K.ATTRIBUTE_ANNOTATION_REMOVED, PATCH, "type removed (was {old}; now Any)"),
    Rule(K.ATTRIBUTE_ANNOTATION_REFINED, PATCH, "type refined: {old} -> {new}"),
)

RULES: Mapping[ChangeKind, Rule] = {rule.kind: rule for rule in _TABLE}


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
