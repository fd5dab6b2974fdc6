"""Protocol buffer wire facts on both sides: POLICY.md section 3, "Protocol buffers".

A message, field, enum or enum value read from a ``*_pb2`` module's descriptor carries its
wire facts (``Symbol.proto``, see :mod:`apisurface.surface.protobuf`). The Python path of
each is compared like any other path (a field removed is a symbol removed, an enum value
removed an enum member removed, a message renamed or moved a removal); what only the wire
format knows is compared here, with buf's rule categories as the model: a field's number,
type, cardinality and oneof, an enum value's number, a message's full name, and a removal
that reserved the field's number and name.
"""

from __future__ import annotations

from apisurface.changes import Change, ChangeKind
from apisurface.surface.protobuf import (
    enum_number,
    is_reserved,
    parse_field,
    python_type,
    wire_group,
)

__all__ = ["proto_changes", "removed_reserved"]

K = ChangeKind


def proto_changes(path: str, old: str, new: str) -> list[Change]:
    """The wire changes between the facts ``old`` and ``new`` of one path."""
    if old == new:
        return []
    old_field, new_field = parse_field(old), parse_field(new)
    if old_field is not None and new_field is not None:
        changes = []
        if old_field.number != new_field.number:
            changes.append(
                Change(path, K.PROTO_FIELD_RENUMBERED, str(old_field.number), str(new_field.number))
            )
        if old_field.type != new_field.type:
            compatible = wire_group(old_field.type) == wire_group(
                new_field.type
            ) != -1 and python_type(old_field.type) == python_type(new_field.type)
            kind = K.PROTO_FIELD_TYPE_COMPATIBLE if compatible else K.PROTO_FIELD_TYPE_CHANGED
            changes.append(Change(path, kind, old_field.type, new_field.type))
        # A member of a oneof has presence: joining or leaving one is the oneof change.
        by_oneof = old_field.oneof != new_field.oneof and {
            old_field.cardinality,
            new_field.cardinality,
        } <= {"singular", "optional"}
        if (
            old_field.cardinality != new_field.cardinality
            and not _both_maps(old, new)
            and not by_oneof
        ):
            kind = (
                K.PROTO_FIELD_PRESENCE_ADDED
                if (old_field.cardinality, new_field.cardinality) == ("singular", "optional")
                else K.PROTO_FIELD_CARDINALITY_CHANGED
            )
            changes.append(Change(path, kind, old_field.cardinality, new_field.cardinality))
        if old_field.oneof != new_field.oneof:
            changes.append(
                Change(
                    path,
                    K.PROTO_FIELD_ONEOF_CHANGED,
                    old_field.oneof or "(none)",
                    new_field.oneof or "(none)",
                )
            )
        return changes
    old_number, new_number = enum_number(old), enum_number(new)
    if old_number is not None and new_number is not None:
        if old_number == new_number:
            return []
        return [Change(path, K.PROTO_ENUM_VALUE_RENUMBERED, str(old_number), str(new_number))]
    old_name, new_name = _type_name(old), _type_name(new)
    if old_name is not None and new_name is not None and old_name != new_name:
        return [Change(path, K.PROTO_TYPE_NAME_CHANGED, old_name, new_name)]
    return []


def removed_reserved(name: str, old_fact: str | None, new_owner_fact: str | None) -> bool:
    """Whether the field ``name`` (its OLD fact ``old_fact``), gone from a message whose
    NEW fact is ``new_owner_fact``, had its number and name reserved there."""
    if old_fact is None or new_owner_fact is None:
        return False
    field = parse_field(old_fact)
    return field is not None and is_reserved(new_owner_fact, field.number, name)


def _both_maps(old: str, new: str) -> bool:
    return "map<" in old and "map<" in new


def _type_name(fact: str) -> str | None:
    """The full name a ``message NAME ...`` or ``enum NAME`` fact states."""
    words = fact.split()
    if len(words) >= 2 and words[0] in ("message", "enum"):
        return words[1]
    return None
