"""The vocabulary of differences: every kind of change the diff can report, with its rule.

``diff`` emits :class:`Change` values whose ``kind`` is one of :class:`ChangeKind`, each
member one :class:`Row` written by keyword (:mod:`apisurface.rows`): the id, the
:class:`Level` it requires, its message, why, and the :class:`CallerHint` (what code using
the changed object must do). The rule table (:mod:`apisurface.compare.rules`), ``explain``,
docs/policy.md's table, ``impact``, ``migrate`` and the report's hints all read these rows;
a kind's example is its case file, src/apisurface/cases/KIND.case, which ``explain`` shows
and the tests run. A new kind is its row here, its detection (:mod:`apisurface.compare`)
and that case file; the diff states facts without judging them, the rule table judges.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from apisurface.grades import PROVEN, Evidence, Grade
from apisurface.rows import CHECK, MOVED, CallCheck, CallerHint, Level, Row, Rule, Successor

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (as in __init__)
if TYPE_CHECKING:
    from typing import Self

__all__ = [
    "CallCheck",
    "CallerHint",
    "Change",
    "ChangeKind",
    "Evidence",
    "Grade",
    "Level",
    "Row",
    "Rule",
    "Successor",
]


class ChangeKind(StrEnum):
    """Stable identifiers of change kinds. Never rename one: reports and configs use them.

    Each member is one :class:`Row` (its id is the member's value; ``rule`` holds its level,
    message, reason and caller hint), grouped by level as docs/policy.md lists them.
    """

    rule: Rule
    """How this kind is judged and documented."""

    def __new__(cls, value: Row | str) -> Self:
        # Called once per member with its row; after the class is made, ``ChangeKind(id)``
        # looks a member up by its id instead (hence ``str`` in the signature).
        if not isinstance(value, Row):
            raise TypeError(f"a member of ChangeKind is a Row(id=..., ...), not {value!r}")
        row = value
        member = str.__new__(cls, row.id)
        member._value_ = row.id
        hint = row.caller_hint or (CHECK if row.level is Level.MAJOR else CallerHint())
        member.rule = Rule(
            kind=member, level=row.level, template=row.message, why=row.why, caller_hint=hint
        )
        return member

    # --- symbols leaving the surface (MAJOR) ---
    SYMBOL_REMOVED = Row(
        id="symbol_removed",
        level=Level.MAJOR,
        message="{old} removed",
        why="Code that imports or calls it fails with ImportError or AttributeError.",
        caller_hint=CallerHint(
            use="gone in the new release, with no replacement known: rewrite this use by hand",
            successor=Successor.GUESS,
            use_successor=(
                "gone in the new release; {successor} may replace it (a guess, not rewritten):"
                " check and rewrite this use by hand"
            ),
        ),
    )
    SYMBOL_RENAMED = Row(
        id="symbol_renamed",
        level=Level.MAJOR,
        message="renamed to {new}",
        why=(
            "The old name is gone: code using it fails, although the object lives on under the new"
            " name."
        ),
        caller_hint=MOVED,
    )
    SYMBOL_MOVED = Row(
        id="symbol_moved",
        level=Level.MAJOR,
        message="moved to {new} without a re-export at the old path",
        why=(
            "The object is defined at a new path and the old path no longer offers it: imports of"
            " the old path fail."
        ),
        caller_hint=MOVED,
    )
    SYMBOL_MADE_PRIVATE = Row(
        id="symbol_made_private",
        level=Level.MAJOR,
        message="made private ({new})",
        why=(
            "A leading underscore takes a name out of the contract; users of the public name break."
        ),
    )
    SYMBOL_MADE_EXPERIMENTAL = Row(
        id="symbol_made_experimental",
        level=Level.MAJOR,
        message="moved into experimental ({new})",
        why=(
            "Experimental code is outside the guarantee, so moving a symbol there withdraws it from"
            " users."
        ),
    )
    SYMBOL_MOVED_TO_CONTRIB = Row(
        id="symbol_moved_to_contrib",
        level=Level.MAJOR,
        message="moved into contrib ({new})",
        why="contrib is outside the guarantee, so moving a symbol there withdraws it from users.",
    )
    SYMBOL_NO_LONGER_DOCUMENTED = Row(
        id="symbol_no_longer_documented",
        level=Level.MAJOR,
        message="no longer documented, so no longer public",
        why=(
            "Only documented names are public: losing the docstring withdraws the promise, reported"
            " apart so the reviewer sees why."
        ),
    )
    SYMBOL_UNEXPORTED = Row(
        id="symbol_unexported",
        level=Level.MAJOR,
        message="dropped from __all__",
        why=(
            "A name dropped from __all__ is no longer exported from that module: star-imports and"
            " checkers stop offering it."
        ),
    )
    SYMBOL_EXCLUDED_BY_CONFIG = Row(
        id="symbol_excluded_by_config",
        level=Level.MAJOR,
        message="excluded by the project's configuration",
        why=(
            "The project's [tool.apisurface] exclude now leaves it out of the contract: for users"
            " it is a removal."
        ),
    )
    REEXPORT_REMOVED = Row(
        id="reexport_removed",
        level=Level.MAJOR,
        message="re-export dropped (still available as {new})",
        why="The object still exists at another path, but code using the dropped path fails.",
        caller_hint=MOVED,
    )
    ENUM_MEMBER_REMOVED = Row(
        id="enum_member_removed",
        level=Level.MAJOR,
        message="enum member removed",
        why="Code naming the member (Color.RED) fails, and stored values no longer convert.",
        caller_hint=CallerHint(
            use="gone in the new release, with no replacement known: rewrite this use by hand"
        ),
    )
    REMOVED_WITHOUT_DEPRECATION = Row(
        id="removed_without_deprecation",
        level=Level.MAJOR,
        message="removed without prior deprecation (deprecate it in a release first)",
        why=(
            "The policy removes functionality only after a release that deprecated it, so users had"
            " a warning and time to migrate. A property of the removal, shown on its one entry"
            " (not a change of its own): accepting either rule id for the path accepts the entry."
        ),
    )
    # --- what a symbol is (MAJOR) ---
    KIND_CHANGED = Row(
        id="kind_changed",
        level=Level.MAJOR,
        message="changed kind: {old} -> {new}",
        why=(
            "A class that became a function (or a method a property, ...) is used differently:"
            " calls, subclassing or attribute access break."
        ),
    )
    FUNCTION_MADE_ASYNC = Row(
        id="function_made_async",
        level=Level.MAJOR,
        message="became async",
        why="Callers now get a coroutine instead of the result; every call site must await it.",
    )
    FUNCTION_MADE_SYNC = Row(
        id="function_made_sync",
        level=Level.MAJOR,
        message="is no longer async",
        why="Callers that await the result now fail: a plain value is not awaitable.",
    )
    METHOD_MADE_ABSTRACT = Row(
        id="method_made_abstract",
        level=Level.MAJOR,
        message="became abstract (subclasses must implement it)",
        why="Subclasses that do not implement it can no longer be instantiated.",
    )
    ABSTRACT_METHOD_ADDED = Row(
        id="abstract_method_added",
        level=Level.MAJOR,
        message="abstract {new} added (subclasses must implement it)",
        why=(
            "Subclasses written for the old class do not implement it, so they can no longer be"
            " instantiated: the same break as a method made abstract."
        ),
    )
    PROTOCOL_MEMBER_ADDED = Row(
        id="protocol_member_added",
        level=Level.MAJOR,
        message="{new} added to a protocol (implementations must provide it)",
        why=(
            "A class that implemented the old protocol lacks the new member, so a type checker"
            " no longer accepts it where the protocol is expected."
        ),
    )
    IMPLEMENTATION_NO_LONGER_FITS = Row(
        id="implementation_no_longer_fits",
        level=Level.MAJOR,
        message="implementations of the old signature {old} no longer fit the new {new}",
        why=(
            "A class implementing it for the old release (a protocol's member, an abstract"
            " method) does not accept every call, or give the result, the new signature promises."
        ),
    )
    TYPE_PARAMETERS_CHANGED = Row(
        id="type_parameters_changed",
        level=Level.MAJOR,
        message="type parameters changed: [{old}] -> [{new}]",
        why="An annotation that gave the class as many type arguments as it took now fails.",
    )
    MADE_FINAL = Row(
        id="made_final",
        level=Level.MAJOR,
        message="marked @final",
        why="A type checker refuses a subclass of a final class, or an override of a final method.",
    )
    MADE_UNHASHABLE = Row(
        id="made_unhashable",
        level=Level.MAJOR,
        message="instances no longer hashable (__hash__ is None)",
        why="hash(obj), obj as a dict key or in a set raise TypeError where they worked.",
    )
    TYPEDDICT_KEY_ADDED = Row(
        id="typeddict_key_added",
        level=Level.MAJOR,
        message="required key added",
        why="A dict built for the old TypedDict lacks the key: a type checker refuses it.",
    )
    TYPEDDICT_KEY_MADE_REQUIRED = Row(
        id="typeddict_key_made_required",
        level=Level.MAJOR,
        message="key made required",
        why="A dict built without the key, as the old TypedDict allowed, no longer fits it.",
    )
    ATTRIBUTE_MADE_READ_ONLY = Row(
        id="attribute_made_read_only",
        level=Level.MAJOR,
        message="no longer takes an assignment ({old} -> {new})",
        why="Code that sets it (obj.NAME = value) fails: the setter or mutable instances are gone.",
    )
    BASE_REMOVED = Row(
        id="base_removed",
        level=Level.MAJOR,
        message="base class {old} removed",
        why="isinstance checks, inherited methods and the method resolution order change.",
    )
    BASES_REORDERED = Row(
        id="bases_reordered",
        level=Level.MAJOR,
        message="bases reordered: ({old}) -> ({new}); the method resolution order changes",
        why=(
            "The method resolution order changes, and with it which inherited method or attribute"
            " wins."
        ),
    )
    # --- parameters (MAJOR) ---
    PARAMETER_REMOVED = Row(
        id="parameter_removed",
        level=Level.MAJOR,
        message="parameter removed",
        why="Calls that pass it (by position or keyword) fail with TypeError.",
        caller_hint=CallerHint(
            use="stop passing it: the parameter is gone",
            successor=Successor.GUESS,
            argument="stop passing {name}: the parameter is gone",
            argument_successor=(
                "stop passing {name}: the parameter is gone; {successor} may replace it (a"
                " guess, not rewritten): check by hand"
            ),
        ),
    )
    PARAMETER_RENAMED = Row(
        id="parameter_renamed",
        level=Level.MAJOR,
        message="parameter renamed {old} -> {new}",
        why=(
            "Calls that pass it by keyword fail with TypeError. Paired only on evidence: the same"
            " position and the same default value or annotation (else removed + added)."
        ),
        caller_hint=CallerHint(
            use="pass the new keyword instead of the old one",
            successor=Successor.NEW_NAME,
            call=CallCheck.KEYWORD,
            argument="pass {successor}= instead of {name}={fix}",
        ),
    )
    PARAMETER_MOVED = Row(
        id="parameter_moved",
        level=Level.MAJOR,
        message=(
            "positional parameters moved: {new} (positions counted from 1, self/cls not counted;"
            " positional calls bind differently)"
        ),
        why=(
            "Positional calls now bind their arguments to different parameters. One entry per"
            " callable names every parameter whose position moved."
        ),
        caller_hint=CallerHint(
            use="pass the arguments from its old position on by keyword",
            call=CallCheck.SHIFT,
            argument=(
                "arguments from position {position} on now fill other parameters: pass them by"
                " keyword"
            ),
        ),
    )
    PARAMETER_ADDED_REQUIRED = Row(
        id="parameter_added_required",
        level=Level.MAJOR,
        message="required parameter added",
        why="Every existing call lacks the new argument and fails with TypeError.",
        caller_hint=CallerHint(
            use="pass the new required parameter",
            call=CallCheck.OMITTED,
            argument="pass {name}= (it is now required)",
            overrides="undeclared",
        ),
    )
    PARAMETER_INSERTED = Row(
        id="parameter_inserted",
        level=Level.MAJOR,
        message=(
            "optional parameter inserted before existing positional ones: {new} (positional calls"
            " shift)"
        ),
        why=(
            "An optional parameter inserted before existing positional ones shifts every positional"
            " call. One entry per callable names every parameter whose position moved."
        ),
        caller_hint=CallerHint(
            use="pass the arguments from its old position on by keyword",
            call=CallCheck.SHIFT,
            argument=(
                "arguments from position {position} on now fill other parameters: pass them by"
                " keyword"
            ),
            overrides="undeclared",
        ),
    )
    FIELD_ADDED_REQUIRED = Row(
        id="field_added_required",
        level=Level.MAJOR,
        message="field added without a default (constructor gains a required parameter)",
        why=(
            "A dataclass or NamedTuple field without a default is a required constructor argument:"
            " old constructions fail."
        ),
    )
    PARAMETER_DEFAULT_REMOVED = Row(
        id="parameter_default_removed",
        level=Level.MAJOR,
        message="default removed ({old}): parameter is now required",
        why="Calls that relied on the default now fail: the parameter is required.",
        caller_hint=CallerHint(
            use="pass the parameter: it is now required",
            call=CallCheck.OMITTED,
            argument="pass {name}= (it is now required)",
            overrides="never",
        ),
    )
    PARAMETER_DEFAULT_CHANGED = Row(
        id="parameter_default_changed",
        level=Level.MAJOR,
        message="default changed: {old} -> {new}",
        why=(
            "Callers relying on the default silently change behaviour (projects may downgrade this"
            " rule)."
        ),
        caller_hint=CallerHint(
            use="pass the parameter explicitly to keep the old default",
            call=CallCheck.OMITTED,
            argument="pass {name}= explicitly to keep the old default",
            overrides="never",
        ),
    )
    PARAMETER_KIND_NARROWED = Row(
        id="parameter_kind_narrowed",
        level=Level.MAJOR,
        message="parameter kind narrowed: {old} -> {new}",
        why=(
            "A parameter that could be passed by position or keyword now accepts only one way: some"
            " calls fail."
        ),
        caller_hint=CallerHint(
            use="check how the parameter is passed",
            argument="check how {name} is passed: {message}",
        ),
    )
    VAR_POSITIONAL_REMOVED = Row(
        id="var_positional_removed",
        level=Level.MAJOR,
        message="*{old} removed",
        why="Calls passing extra positional arguments fail.",
    )
    VAR_KEYWORD_REMOVED = Row(
        id="var_keyword_removed",
        level=Level.MAJOR,
        message="**{old} removed",
        why="Calls passing extra keyword arguments fail.",
    )
    SIGNATURE_INCOMPATIBLE = Row(
        id="signature_incompatible",
        level=Level.MAJOR,
        message="a call the old signature accepted now fails or binds differently: {new}",
        why=(
            "A call the old signature accepted fails, or sends an argument to another parameter,"
            " and no other parameter fact explains it; the report shows the call."
        ),
    )
    OVERLOAD_REMOVED = Row(
        id="overload_removed",
        level=Level.MAJOR,
        message="overload removed: {old}",
        why="Calls matching the removed overload no longer type-check.",
    )
    # --- annotations (MAJOR) ---
    PARAMETER_ANNOTATION_NARROWED = Row(
        id="parameter_annotation_narrowed",
        level=Level.MAJOR,
        message="parameter type narrowed: {old} -> {new}",
        why="Arguments of the old type that are not of the new one no longer type-check.",
    )
    PARAMETER_ANNOTATION_CHANGED = Row(
        id="parameter_annotation_changed",
        level=Level.MAJOR,
        message="parameter type changed: {old} -> {new}",
        why=(
            "The new type accepts values the old did not and rejects some it did: callers must"
            " check."
        ),
    )
    RETURN_ANNOTATION_WIDENED = Row(
        id="return_annotation_widened",
        level=Level.MAJOR,
        message="return type widened: {old} -> {new}",
        why="Callers handling the old return type may now receive values they do not handle.",
    )
    RETURN_ANNOTATION_CHANGED = Row(
        id="return_annotation_changed",
        level=Level.MAJOR,
        message="return type changed: {old} -> {new}",
        why="Callers relying on the old return type no longer type-check.",
    )
    ATTRIBUTE_ANNOTATION_CHANGED = Row(
        id="attribute_annotation_changed",
        level=Level.MAJOR,
        message="type changed: {old} -> {new}",
        why="Readers and writers of the attribute relying on its type no longer type-check.",
    )
    # --- protocol buffer wire facts (MAJOR) ---
    PROTO_FIELD_RENUMBERED = Row(
        id="proto_field_renumbered",
        level=Level.MAJOR,
        message="field number changed from {old} to {new}",
        why=(
            "Protocol buffer data names a field by its number: data written by old code is read "
            "as an unknown field (or as another field), and old readers lose the new field."
        ),
    )
    PROTO_FIELD_TYPE_CHANGED = Row(
        id="proto_field_type_changed",
        level=Level.MAJOR,
        message="field type changed from {old} to {new}",
        why=(
            "The new type reads the old bytes differently on the wire, or its Python value has "
            "another type (str and bytes, another message class): old data is misread and code "
            "using the value breaks."
        ),
    )
    PROTO_FIELD_CARDINALITY_CHANGED = Row(
        id="proto_field_cardinality_changed",
        level=Level.MAJOR,
        message="field cardinality changed from {old} to {new}",
        why=(
            "A field made repeated (or singular, required, or without presence) has another "
            "Python value (a list, no HasField) and old readers keep one element or fail on "
            "missing required data."
        ),
    )
    PROTO_FIELD_ONEOF_CHANGED = Row(
        id="proto_field_oneof_changed",
        level=Level.MAJOR,
        message="field moved from oneof {old} to oneof {new}",
        why=(
            "Moving a field into, out of or between oneofs changes which fields clear each other "
            "when set: messages that set both lose one (buf's FIELD_SAME_ONEOF)."
        ),
    )
    PROTO_ENUM_VALUE_RENUMBERED = Row(
        id="proto_enum_value_renumbered",
        level=Level.MAJOR,
        message="enum value number changed from {old} to {new}",
        why=(
            "Stored and sent data holds the number: values written by old code now read as "
            "another name, or as unknown."
        ),
    )
    PROTO_TYPE_NAME_CHANGED = Row(
        id="proto_type_name_changed",
        level=Level.MAJOR,
        message="full protocol buffer name changed from {old} to {new}",
        why=(
            "The Python path stays, but the full name (proto package and name) is what Any type "
            "URLs, the JSON and text formats and gRPC method descriptors use: data and peers "
            "using the old name no longer match."
        ),
    )
    # --- additions (MINOR) ---
    SYMBOL_ADDED = Row(
        id="symbol_added",
        level=Level.MINOR,
        message="{new} added",
        why="A new public name: existing code keeps working, new code may depend on it.",
    )
    SYMBOL_MADE_PUBLIC = Row(
        id="symbol_made_public",
        level=Level.MINOR,
        message="made public (was {old})",
        why="A private name made public joins the contract: a backward-compatible addition.",
    )
    SYMBOL_PROMOTED_FROM_EXPERIMENTAL = Row(
        id="symbol_promoted_from_experimental",
        level=Level.MINOR,
        message="promoted from experimental",
        why="An experimental symbol promoted joins the guarantee: a backward-compatible addition.",
    )
    SYMBOL_NOW_DOCUMENTED = Row(
        id="symbol_now_documented",
        level=Level.MINOR,
        message="now documented, so now public",
        why=(
            "A docstring (or a listing in __all__ or the API docs) puts an existing name into the"
            " contract."
        ),
    )
    SYMBOL_EXPORTED = Row(
        id="symbol_exported",
        level=Level.MINOR,
        message="added to __all__",
        why="A name added to __all__ is newly exported from that module.",
    )
    REEXPORT_ADDED = Row(
        id="reexport_added",
        level=Level.MINOR,
        message="added; the same object is also available as {old}",
        why="The object becomes available at one more public path.",
    )
    ENUM_MEMBER_ADDED = Row(
        id="enum_member_added",
        level=Level.MINOR,
        message="enum member added",
        why="A new member: existing code keeps working (exhaustive matches may want a new case).",
    )
    BASE_ADDED = Row(
        id="base_added",
        level=Level.MINOR,
        message="base class {new} added",
        why="A new base class adds behaviour and isinstance relations; old uses keep working.",
    )
    METHOD_NO_LONGER_ABSTRACT = Row(
        id="method_no_longer_abstract",
        level=Level.MINOR,
        message="is no longer abstract",
        why="Subclasses no longer have to implement it; old subclasses keep working.",
    )
    NO_LONGER_FINAL = Row(
        id="no_longer_final",
        level=Level.MINOR,
        message="no longer @final",
        why="Subclassing or overriding it now type-checks; code that only used it keeps working.",
    )
    MADE_HASHABLE = Row(
        id="made_hashable",
        level=Level.MINOR,
        message="instances now hashable",
        why="Instances can now be dict keys and set members; code that did not hash them works.",
    )
    ATTRIBUTE_MADE_WRITABLE = Row(
        id="attribute_made_writable",
        level=Level.MINOR,
        message="now takes an assignment ({old} -> {new})",
        why="Setting it (obj.NAME = value) now works; code that only read it keeps working.",
    )
    PARAMETER_ADDED_OPTIONAL = Row(
        id="parameter_added_optional",
        level=Level.MINOR,
        message="optional parameter added (default {new})",
        why="Old calls bind as before (the default applies); new calls may pass it.",
    )
    FIELD_ADDED_OPTIONAL = Row(
        id="field_added_optional",
        level=Level.MINOR,
        message="field added with a default ({new})",
        why=(
            "A field with a default is an optional constructor argument: old constructions keep"
            " working."
        ),
    )
    PARAMETER_DEFAULT_ADDED = Row(
        id="parameter_default_added",
        level=Level.MINOR,
        message="default added ({new})",
        why="Calls that passed it keep working; calls may now leave it out.",
        caller_hint=CallerHint(overrides="never"),
    )
    PARAMETER_KIND_WIDENED = Row(
        id="parameter_kind_widened",
        level=Level.MINOR,
        message="parameter kind widened: {old} -> {new}",
        why="A parameter that accepts more ways of being passed: every old call still binds.",
    )
    PARAMETER_ABSORBED = Row(
        id="parameter_absorbed",
        level=Level.MINOR,
        message="parameter removed but absorbed by {new}: calls passing it still bind",
        why=(
            "The parameter is gone but a new *args or **kwargs takes its positions and its name:"
            " every old call still binds."
        ),
    )
    PARAMETER_RENAMED_KEEPING_OLD_NAME = Row(
        id="parameter_renamed_keeping_old_name",
        level=Level.MINOR,
        message="positional parameter renamed {old} -> {new}; {old} is still accepted as a keyword",
        why=(
            "A new name takes the position while the old name is still accepted as a keyword (an"
            " alias or a new **kwargs): old calls still bind."
        ),
    )
    VAR_POSITIONAL_ADDED = Row(
        id="var_positional_added",
        level=Level.MINOR,
        message="*{new} added",
        why="The function accepts extra positional arguments: old calls still bind.",
    )
    VAR_KEYWORD_ADDED = Row(
        id="var_keyword_added",
        level=Level.MINOR,
        message="**{new} added",
        why="The function accepts extra keyword arguments: old calls still bind.",
    )
    OVERLOAD_ADDED = Row(
        id="overload_added",
        level=Level.MINOR,
        message="overload added: {new}",
        why="A new accepted call shape; old calls match as before.",
    )
    OVERLOAD_WIDENED = Row(
        id="overload_widened",
        level=Level.MINOR,
        message="overload {old} replaced by {new}, which accepts every call it accepted",
        why=(
            "Every call the old overload accepted matches a new overload (one or, split by a union"
            " parameter, several; with no overload left, the function's own signature) whose"
            " parameter types are equal or wider and whose return is equal or narrower: old"
            " calls still type-check."
        ),
    )
    PARAMETER_ANNOTATION_WIDENED = Row(
        id="parameter_annotation_widened",
        level=Level.MINOR,
        message="parameter type widened: {old} -> {new}",
        why="The parameter accepts more types than before: old calls still type-check.",
    )
    RETURN_ANNOTATION_NARROWED = Row(
        id="return_annotation_narrowed",
        level=Level.MINOR,
        message="return type narrowed: {old} -> {new}",
        why="The function returns a subset of what it returned: callers still type-check.",
    )
    SYMBOL_DEPRECATED = Row(
        id="symbol_deprecated",
        level=Level.MINOR,
        message="deprecated ({new})",
        why=(
            "A deprecation warns users ahead of a removal in a later major release: a"
            " backward-compatible change."
        ),
        caller_hint=CallerHint(
            use="deprecated: plan to replace this use",
            successor=Successor.NAMED,
            use_successor="use {successor}{fix}",
            override="this method overrides a deprecated method",
        ),
    )
    SYMBOL_UNDEPRECATED = Row(
        id="symbol_undeprecated",
        level=Level.MINOR,
        message="no longer deprecated",
        why="A deprecation withdrawn: code keeps working and the warning stops.",
    )
    # --- protocol buffer wire facts (MINOR) ---
    PROTO_FIELD_TYPE_COMPATIBLE = Row(
        id="proto_field_type_compatible",
        level=Level.MINOR,
        message="field type changed from {old} to {new}, compatibly on the wire",
        why=(
            "The two types share their wire encoding and their Python type (int32 and int64 are "
            "one varint and one int): old data still parses; values beyond the narrower type's "
            "range are truncated by old readers."
        ),
    )
    PROTO_FIELD_PRESENCE_ADDED = Row(
        id="proto_field_presence_added",
        level=Level.MINOR,
        message="field now tracks presence ({old} to {new})",
        why=(
            "A proto3 field declared optional reads and writes the same bytes; code may now ask "
            "HasField, which it could not before."
        ),
    )
    PROTO_FIELD_REMOVED_RESERVED = Row(
        id="proto_field_removed_reserved",
        level=Level.MINOR,
        message="field removed, its number and name reserved",
        why=(
            "POLICY.md section 3: a field removed with its number and name reserved cannot be "
            "reused by mistake, so old data stays readable (its value is kept as an unknown "
            "field). Code that reads the Python attribute must stop using it."
        ),
    )
    # --- no change to what callers can rely on (PATCH) ---
    POSITIONAL_ONLY_PARAMETER_RENAMED = Row(
        id="positional_only_parameter_renamed",
        level=Level.PATCH,
        message="positional-only parameter renamed {old} -> {new}",
        why=(
            "A positional-only parameter cannot be passed by name, so its name is not part of the"
            " contract."
        ),
    )
    KEYWORD_ONLY_PARAMETERS_REORDERED = Row(
        id="keyword_only_parameters_reordered",
        level=Level.PATCH,
        message="keyword-only parameters reordered",
        why=(
            "Keyword-only parameters are passed by name, so their order does not matter to callers."
        ),
    )
    DOCSTRING_CHANGED = Row(
        id="docstring_changed",
        level=Level.PATCH,
        message="docstring changed",
        why="Wording only: code does not depend on it.",
    )
    DOCUMENTATION_UNKNOWN = Row(
        id="documentation_unknown",
        level=Level.PATCH,
        message="documented only by docs sources, which the other side lacks: not judged",
        why=(
            "Documented only by the API docs sources, compared with a release that ships none (a"
            " wheel, an sdist without docs/): whether it is still documented cannot be told, so it"
            " is neither removed nor added."
        ),
    )
    OVERRIDE_REMOVED = Row(
        id="override_removed",
        level=Level.PATCH,
        message="override removed; still inherited from {new}",
        why="The method is still inherited from a public base: callers see the same name.",
    )
    # Annotation refinements: only Any changed (written, implied by a bare generic, or by
    # a missing annotation), so every use that type-checked still does.
    PARAMETER_ANNOTATION_ADDED = Row(
        id="parameter_annotation_added",
        level=Level.PATCH,
        message="parameter type added: {new} (was Any)",
        why=(
            "A type where there was none: a missing annotation is Any, so this is a refinement"
            " (PATCH) and every old call still type-checks."
        ),
    )
    PARAMETER_ANNOTATION_REMOVED = Row(
        id="parameter_annotation_removed",
        level=Level.PATCH,
        message="parameter type removed (was {old}; now Any)",
        why="The type is gone (now Any): old calls still type-check.",
    )
    PARAMETER_ANNOTATION_REFINED = Row(
        id="parameter_annotation_refined",
        level=Level.PATCH,
        message="parameter type refined: {old} -> {new}",
        why=(
            "Only Any changed: Any (written, implied by a bare generic such as os.PathLike, or by"
            " ...) is consistent with every type, so old calls still type-check."
        ),
    )
    RETURN_ANNOTATION_ADDED = Row(
        id="return_annotation_added",
        level=Level.PATCH,
        message="return type added: {new} (was Any)",
        why="A return type where there was none (Any).",
    )
    RETURN_ANNOTATION_REMOVED = Row(
        id="return_annotation_removed",
        level=Level.PATCH,
        message="return type removed (was {old}; now Any)",
        why="The return type is gone (now Any).",
    )
    RETURN_ANNOTATION_REFINED = Row(
        id="return_annotation_refined",
        level=Level.PATCH,
        message="return type refined: {old} -> {new}",
        why="Only Any in the return type changed: a refinement type checkers accept either way.",
    )
    ATTRIBUTE_ANNOTATION_ADDED = Row(
        id="attribute_annotation_added",
        level=Level.PATCH,
        message="type added: {new} (was Any)",
        why="A type where there was none (Any).",
    )
    ATTRIBUTE_ANNOTATION_REMOVED = Row(
        id="attribute_annotation_removed",
        level=Level.PATCH,
        message="type removed (was {old}; now Any)",
        why="The type is gone (now Any).",
    )
    ATTRIBUTE_ANNOTATION_REFINED = Row(
        id="attribute_annotation_refined",
        level=Level.PATCH,
        message="type refined: {old} -> {new}",
        why="Only Any in the attribute type changed: a refinement type checkers accept either way.",
    )


@dataclass(frozen=True, slots=True, order=True)
class Change:
    """One difference between two surfaces, stated as a fact.

    ``path`` is the dotted public path; for a parameter change it is the callable's path
    followed by ``(param)``. ``old``/``new`` are short JSON-able values (a signature line,
    an annotation, a default, a path) shown to the reader. ``evidence`` says how the
    change is known; it takes no part in comparing or sorting changes. ``qualifiers`` are
    rules that hold of this same change and are reported on its entry, not as changes of
    their own (a removal that was not deprecated first carries
    ``removed_without_deprecation``): each is judged, re-levelled and accepted under its own
    id, and the entry's level is the highest of its kind's and theirs.
    """

    path: str
    kind: ChangeKind
    old: str | None = None
    new: str | None = None
    evidence: Evidence = field(default=PROVEN, compare=False)
    qualifiers: tuple[ChangeKind, ...] = ()
