"""Kinds of change grouped by what they say about a use: the paths that leave the surface,
the calls that stop binding, the changes of an attribute's type. The diff, the evidence,
the witnesses and the release checks ask these questions of a change's kind."""

from __future__ import annotations

from apisurface.changes import ChangeKind

__all__ = ["ATTRIBUTE_ANNOTATION_KINDS", "CALL_BREAKING", "REMOVALS"]

K = ChangeKind

REMOVALS = frozenset(
    {
        K.SYMBOL_REMOVED,
        K.SYMBOL_RENAMED,
        K.SYMBOL_MOVED,
        K.SYMBOL_MADE_PRIVATE,
        K.SYMBOL_MADE_EXPERIMENTAL,
        K.SYMBOL_MOVED_TO_CONTRIB,
        K.SYMBOL_NO_LONGER_DOCUMENTED,
        K.SYMBOL_UNEXPORTED,
        K.SYMBOL_EXCLUDED_BY_CONFIG,
        K.ENUM_MEMBER_REMOVED,
        K.REEXPORT_REMOVED,
    }
)
"""Kinds by which a public path leaves the surface: removals for its users, which must
follow a deprecation (POLICY.md section 3)."""

CALL_BREAKING = frozenset(
    {
        K.PARAMETER_REMOVED,
        K.PARAMETER_RENAMED,
        K.PARAMETER_MOVED,
        K.PARAMETER_ADDED_REQUIRED,
        K.PARAMETER_INSERTED,
        K.FIELD_ADDED_REQUIRED,
        K.PARAMETER_DEFAULT_REMOVED,
        K.PARAMETER_KIND_NARROWED,
        K.VAR_POSITIONAL_REMOVED,
        K.VAR_KEYWORD_REMOVED,
        K.SIGNATURE_INCOMPATIBLE,
    }
)
"""Kinds stating that some call the old signature accepted fails, or binds differently,
on the new one (see :mod:`apisurface.compare.binding`)."""

ATTRIBUTE_ANNOTATION_KINDS = frozenset(
    {
        K.ATTRIBUTE_ANNOTATION_CHANGED,
        K.ATTRIBUTE_ANNOTATION_ADDED,
        K.ATTRIBUTE_ANNOTATION_REMOVED,
        K.ATTRIBUTE_ANNOTATION_REFINED,
    }
)
"""Kinds stating a change of an attribute's (or constant's) type."""
