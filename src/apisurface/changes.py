"""The vocabulary of differences: every kind of change the diff can report.

``diff`` emits :class:`Change` values whose ``kind`` is one of :class:`ChangeKind`; ``rules``
holds exactly one rule (bump level, message template) per kind. Keeping the names here, below
both, lets the diff state facts without judging them and the rule table judge without
re-deriving facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["CALL_BREAKING", "REMOVALS", "Change", "ChangeKind"]


class ChangeKind(StrEnum):
    """Stable identifiers of change kinds. Never rename one: reports and configs use them."""

    # The symbol itself.
    SYMBOL_REMOVED = "symbol_removed"
    SYMBOL_ADDED = "symbol_added"
    SYMBOL_RENAMED = "symbol_renamed"
    SYMBOL_MOVED = "symbol_moved"
    SYMBOL_MADE_PRIVATE = "symbol_made_private"
    SYMBOL_MADE_PUBLIC = "symbol_made_public"
    SYMBOL_MADE_EXPERIMENTAL = "symbol_made_experimental"
    SYMBOL_PROMOTED_FROM_EXPERIMENTAL = "symbol_promoted_from_experimental"
    SYMBOL_MOVED_TO_CONTRIB = "symbol_moved_to_contrib"
    SYMBOL_NO_LONGER_DOCUMENTED = "symbol_no_longer_documented"
    SYMBOL_NOW_DOCUMENTED = "symbol_now_documented"
    DOCUMENTATION_UNKNOWN = "documentation_unknown"
    SYMBOL_UNEXPORTED = "symbol_unexported"
    SYMBOL_EXPORTED = "symbol_exported"
    SYMBOL_EXCLUDED_BY_CONFIG = "symbol_excluded_by_config"
    REEXPORT_REMOVED = "reexport_removed"
    REEXPORT_ADDED = "reexport_added"
    OVERRIDE_REMOVED = "override_removed"
    REMOVED_WITHOUT_DEPRECATION = "removed_without_deprecation"
    ENUM_MEMBER_REMOVED = "enum_member_removed"
    ENUM_MEMBER_ADDED = "enum_member_added"
    KIND_CHANGED = "kind_changed"
    FUNCTION_MADE_ASYNC = "function_made_async"
    FUNCTION_MADE_SYNC = "function_made_sync"
    METHOD_MADE_ABSTRACT = "method_made_abstract"
    METHOD_NO_LONGER_ABSTRACT = "method_no_longer_abstract"
    SYMBOL_DEPRECATED = "symbol_deprecated"
    SYMBOL_UNDEPRECATED = "symbol_undeprecated"
    DOCSTRING_CHANGED = "docstring_changed"
    # Classes.
    BASE_REMOVED = "base_removed"
    BASE_ADDED = "base_added"
    BASES_REORDERED = "bases_reordered"
    # Parameters.
    PARAMETER_REMOVED = "parameter_removed"
    PARAMETER_RENAMED = "parameter_renamed"
    PARAMETER_RENAMED_KEEPING_OLD_NAME = "parameter_renamed_keeping_old_name"
    PARAMETER_ABSORBED = "parameter_absorbed"
    POSITIONAL_ONLY_PARAMETER_RENAMED = "positional_only_parameter_renamed"
    PARAMETER_MOVED = "parameter_moved"
    KEYWORD_ONLY_PARAMETERS_REORDERED = "keyword_only_parameters_reordered"
    PARAMETER_ADDED_REQUIRED = "parameter_added_required"
    PARAMETER_ADDED_OPTIONAL = "parameter_added_optional"
    PARAMETER_INSERTED = "parameter_inserted"
    FIELD_ADDED_REQUIRED = "field_added_required"
    FIELD_ADDED_OPTIONAL = "field_added_optional"
    PARAMETER_DEFAULT_REMOVED = "parameter_default_removed"
    PARAMETER_DEFAULT_ADDED = "parameter_default_added"
    PARAMETER_DEFAULT_CHANGED = "parameter_default_changed"
    PARAMETER_KIND_NARROWED = "parameter_kind_narrowed"
    PARAMETER_KIND_WIDENED = "parameter_kind_widened"
    VAR_POSITIONAL_REMOVED = "var_positional_removed"
    VAR_POSITIONAL_ADDED = "var_positional_added"
    VAR_KEYWORD_REMOVED = "var_keyword_removed"
    VAR_KEYWORD_ADDED = "var_keyword_added"
    SIGNATURE_INCOMPATIBLE = "signature_incompatible"
    OVERLOAD_REMOVED = "overload_removed"
    OVERLOAD_ADDED = "overload_added"
    OVERLOAD_WIDENED = "overload_widened"
    # Annotations.
    PARAMETER_ANNOTATION_NARROWED = "parameter_annotation_narrowed"
    PARAMETER_ANNOTATION_WIDENED = "parameter_annotation_widened"
    PARAMETER_ANNOTATION_CHANGED = "parameter_annotation_changed"
    PARAMETER_ANNOTATION_ADDED = "parameter_annotation_added"
    PARAMETER_ANNOTATION_REMOVED = "parameter_annotation_removed"
    PARAMETER_ANNOTATION_REFINED = "parameter_annotation_refined"
    RETURN_ANNOTATION_NARROWED = "return_annotation_narrowed"
    RETURN_ANNOTATION_WIDENED = "return_annotation_widened"
    RETURN_ANNOTATION_CHANGED = "return_annotation_changed"
    RETURN_ANNOTATION_ADDED = "return_annotation_added"
    RETURN_ANNOTATION_REMOVED = "return_annotation_removed"
    RETURN_ANNOTATION_REFINED = "return_annotation_refined"
    ATTRIBUTE_ANNOTATION_CHANGED = "attribute_annotation_changed"
    ATTRIBUTE_ANNOTATION_ADDED = "attribute_annotation_added"
    ATTRIBUTE_ANNOTATION_REMOVED = "attribute_annotation_removed"
    ATTRIBUTE_ANNOTATION_REFINED = "attribute_annotation_refined"


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


@dataclass(frozen=True, slots=True, order=True)
class Change:
    """One difference between two surfaces, stated as a fact.

    ``path`` is the dotted public path; for a parameter change it is the callable's path
    followed by ``(param)``. ``old``/``new`` are short JSON-able values (a signature line,
    an annotation, a default, a path) shown to the reader.
    """

    path: str
    kind: ChangeKind
    old: str | None = None
    new: str | None = None
