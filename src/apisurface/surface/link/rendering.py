"""Annotation rendering: a griffe expression as text with every name by its full path.

Names resolve where Python evaluates them (the scope enclosing the function, never its
parameters or instance attributes), quoted forward references are read, a TypeVar or a
private type alias of the package stands for what it ranges over, and the text is put in
the one spelling of :mod:`apisurface.surface.annotationtext`. The public spelling of the
package's own names is chosen later, once every public path is known
(:mod:`apisurface.surface.spelling`).
"""

from __future__ import annotations

import ast
import re

import griffe

from apisurface.surface.access import exports_of, safe_str, safe_target_path
from apisurface.surface.annotationtext import normalize
from apisurface.surface.policy import is_dunder
from apisurface.surface.visit.facts import facts_of

__all__ = [
    "annotation_path",
    "assigned_value_of",
    "forward_reference",
    "implicit_alias",
    "render_annotation",
    "self_type_var",
]


def render_annotation(
    expr: object, scope: griffe.Object | None = None, self_var: str | None = None
) -> str:
    """Render a griffe expression with every name spelled by its full import path.

    ``scope`` (the class or module the annotation is written in) resolves quoted names
    that griffe leaves as strings under ``from __future__ import annotations``. A TypeVar of
    the package stands for what it ranges over (its bound, its constraints, or
    ``typing.Any``), except ``self_var``, the method's own self type (``typing.Self``)."""
    if expr is None:
        return ""
    parts: list[str] = []
    try:
        _spell(expr, parts, 0, scope, self_var)
    except Exception:  # noqa: BLE001 - fall back to the written text
        return normalize(safe_str(expr))
    return normalize("".join(parts))


_VALUE_SUBSCRIPTS = frozenset({"Literal", "Annotated"})


def _spell(
    expr: object,
    parts: list[str],
    depth: int,
    scope: griffe.Object | None,
    self_var: str | None = None,
    *,
    chosen: dict[str, str] | None = None,
) -> None:
    if depth > 200:
        raise RecursionError("annotation nested too deeply")
    if isinstance(expr, str):
        reference = forward_reference(expr, scope) if scope is not None else None
        if reference is None:
            parts.append(expr)
        else:
            _spell(reference, parts, depth + 1, None, self_var, chosen=chosen)
    elif isinstance(expr, (griffe.ExprName, griffe.ExprAttribute)):
        try:
            path = annotation_path(expr)
        except Exception:  # noqa: BLE001 - unresolvable names stay as written
            parts.append(str(expr))
            return
        if self_var is not None and path == self_var:
            parts.append("typing.Self")
            return
        if chosen is not None and path in chosen:
            parts.append(f"({chosen[path]})")
            return
        name = expr.last if isinstance(expr, griffe.ExprAttribute) else expr
        ranges = _type_var_range(name, path) if isinstance(name, griffe.ExprName) else None
        if ranges is None:
            parts.append(path)
        else:
            parts.append(f"({ranges})")
    else:
        if isinstance(expr, griffe.ExprSubscript):
            head = safe_str(expr.left).rpartition(".")[2]
            if head in _VALUE_SUBSCRIPTS:
                scope = None  # strings in Literal[...] / Annotated[...] are values
            elif head == "Callable" and _spell_per_constraint(
                expr, parts, depth, scope, self_var=self_var, chosen=chosen
            ):
                return
        for item in expr.iterate(flat=False):  # type: ignore[attr-defined]
            _spell(item, parts, depth + 1, scope, self_var, chosen=chosen)


_MAX_CHOICES = 8


def _spell_per_constraint(
    expr: griffe.ExprSubscript,
    parts: list[str],
    depth: int,
    scope: griffe.Object | None,
    *,
    self_var: str | None,
    chosen: dict[str, str] | None,
) -> bool:
    """Spell ``Callable[[..., T, ...], R]`` with a constrained TypeVar ``T`` (``AnyStr``)
    among its parameters as the union of the callable per constraint
    (``Callable[[bytes], R] | Callable[[str], R]``): each call picks one, so a callback taking
    only ``str`` fits, which ``Callable[[bytes | str], R]`` (the TypeVar's range, right for
    ``x: T``) would refuse. False when there is no such TypeVar (or too many choices)."""
    elements = getattr(expr.slice, "elements", None)
    if not elements or not isinstance(elements[0], griffe.ExprList):
        return False
    found: dict[str, tuple[str, ...]] = {}
    for item in elements[0].iterate(flat=True):
        if not isinstance(item, griffe.ExprName) or len(found) > 2:
            continue
        try:
            path = annotation_path(item)
        except Exception:  # noqa: BLE001 - unresolvable: not a TypeVar we know
            continue
        if (chosen is None or path not in chosen) and path not in found:
            constraints = _type_var_constraints(item, path)
            if constraints is not None:
                found[path] = constraints
    if not found:
        return False
    choices: list[dict[str, str]] = [dict(chosen or {})]
    for path, constraints in sorted(found.items()):
        choices = [{**choice, path: item} for choice in choices for item in constraints]
        if len(choices) > _MAX_CHOICES:
            return False
    spelled: list[str] = []
    for choice in choices:
        one: list[str] = []
        for item in expr.iterate(flat=False):
            _spell(item, one, depth + 1, scope, self_var, chosen=choice)
        spelled.append("".join(one))
    parts.append("(" + " | ".join(spelled) + ")")
    return True


_STDLIB_TYPE_VARS = {"typing.AnyStr": "bytes | str", "typing_extensions.AnyStr": "bytes | str"}


def _imported_path(expr: griffe.ExprName, path: str) -> str:
    """Where ``path`` leads through the package's imports, without loading the target
    (``pkg._typing.AnyStr`` -> ``typing.AnyStr``)."""
    parent = expr.parent
    while isinstance(parent, (griffe.ExprName, griffe.ExprAttribute)):
        parent = parent.parent
    if not isinstance(parent, griffe.Object):
        return path
    for _ in range(16):
        try:
            found = parent.modules_collection.get_member(path)
        except Exception:  # noqa: BLE001 - outside the analysed code: the path is final
            return path
        if not isinstance(found, griffe.Alias):
            return path
        path = safe_target_path(found)
    return path


def _outside_path(expr: griffe.ExprName, path: str) -> str:
    """The module a qualifier names when the package's imports lead outside the package:
    ``typing`` in ``typing.Optional`` is ``typing`` even when the name reached the module
    through a star import of a sibling that imported it (pyparsing 3.1 ``core`` gets
    ``typing`` from ``from .exceptions import *``; ``typing.Optional`` is not the package's
    ``Optional`` class)."""
    final = _imported_path(expr, path)
    if final == path:
        return path
    parent = expr.parent
    while isinstance(parent, (griffe.ExprName, griffe.ExprAttribute)):
        parent = parent.parent
    if not isinstance(parent, griffe.Object):
        return path
    try:
        parent.modules_collection.get_member(final)
    except Exception:  # noqa: BLE001 - outside the analysed code
        return final
    return path


def _type_var_range(expr: griffe.ExprName, path: str) -> str | None:
    """What a TypeVar defined in the analysed code ranges over: its bound, the union of
    its constraints, or ``typing.Any``. Comparing signatures through the range makes
    ``-> str | bytes`` becoming ``-> AnyPath`` (``TypeVar(bound=str | bytes)``) no change.
    The standard library's own TypeVar ``typing.AnyStr`` ranges over ``bytes | str``, also
    when a module of the package imports it (``try: from typing import AnyStr``)."""
    if _imported_path(expr, path) in _STDLIB_TYPE_VARS:
        return _STDLIB_TYPE_VARS[_imported_path(expr, path)]
    if path.startswith(("typing.", "typing_extensions.", "collections.", "builtins.")):
        return None
    target = assigned_value_of(expr)
    if target is None:
        return None
    memo = target.extra["apisurface"]
    if "type_var_range" not in memo:
        memo["type_var_range"] = _compute_type_var_range(target) or _private_alias(target)
    return memo["type_var_range"]  # type: ignore[no-any-return]


def _type_var_constraints(expr: griffe.ExprName, path: str) -> tuple[str, ...] | None:
    """The constraints of a constrained TypeVar (``TypeVar("T", str, bytes)``, the standard
    library's ``AnyStr``), each spelled; None for any other name."""
    if _imported_path(expr, path) in _STDLIB_TYPE_VARS:
        return ("bytes", "str")
    if path.startswith(("typing.", "typing_extensions.", "collections.", "builtins.")):
        return None
    target = assigned_value_of(expr)
    if target is None:
        return None
    value = target.value
    if not isinstance(value, griffe.ExprCall) or not _TYPE_VAR_CALL.search(safe_str(value)):
        return None
    constraints = [
        argument
        for argument in value.arguments[1:]
        if not isinstance(
            argument, (griffe.ExprKeyword, griffe.ExprVarPositional, griffe.ExprVarKeyword)
        )
    ]
    if len(constraints) < 2:
        return None
    return tuple(render_annotation(item, target.parent) for item in constraints)


def _private_alias(target: griffe.Attribute) -> str | None:
    """The type a private type alias names (``_Hint = Callable[[str], bool]``): it has no
    public path, so annotations are compared through what it stands for, and writing a
    type inline or through a private alias is no change."""
    if is_dunder(target.name) or not (target.name.startswith("_") or _undeclared(target)):
        return None
    value = target.value
    annotation = safe_str(getattr(target, "annotation", None) or "")
    if not (annotation.endswith("TypeAlias") or _is_type_expression(value)):
        return None
    target.extra["apisurface"]["type_var_range"] = "typing.Any"  # an alias naming itself
    return render_annotation(value, target.parent)


_GENERIC_ORIGINS = frozenset({"dict", "list", "tuple", "set", "frozenset", "type"})


# A union with one of these (or a typing generic) is a type, not a value like Flag.A | Flag.B.
_BUILTIN_TYPES = frozenset(
    {"None", "int", "float", "complex", "bool", "str", "bytes", "bytearray", "object"}
    | _GENERIC_ORIGINS
)


def _undeclared(target: griffe.Attribute) -> bool:
    """No docstring and not in its module's ``__all__``: not public, so no public path."""
    if target.docstring is not None and target.docstring.value.strip():
        return False
    parent = target.parent
    exports = exports_of(parent) if isinstance(parent, griffe.Module) else None
    return not exports or target.name not in exports


def implicit_alias(value: object) -> bool:
    """Whether a module-level value without annotation is a type alias by its shape:
    ``Union[...]``, ``Callable[...]``, ``dict[str, int]``, ``X | None``... (a generic of
    ``typing``, ``collections.abc`` or the builtins, or a union holding one or ``None``).
    A union is read as its members, however many (no depth cut-off)."""
    if isinstance(value, griffe.ExprBinOp) and value.operator == "|":
        members = _union_members(value)
        typed = all(_is_type_expression(side) or safe_str(side) == "None" for side in members)
        return typed and any(
            safe_str(side) in _BUILTIN_TYPES or _generic_alias(side) for side in members
        )
    return _generic_alias(value)


def _generic_alias(value: object) -> bool:
    """Whether ``value`` is a generic of ``typing``, ``collections.abc`` or the builtins."""
    if not isinstance(value, griffe.ExprSubscript):
        return False
    try:
        origin = value.left.canonical_path  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001
        return False
    module, _, name = origin.rpartition(".")
    return (
        module in ("typing", "typing_extensions", "collections.abc")
        or (not module and name in _GENERIC_ORIGINS)
        or origin in ("builtins." + item for item in _GENERIC_ORIGINS)
    )


def _union_members(value: griffe.ExprBinOp) -> list[object]:
    """The members of ``A | B | C`` (nested ``|`` flattened, in order, without recursion)."""
    members: list[object] = []
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, griffe.ExprBinOp) and item.operator == "|":
            pending += [item.right, item.left]
        else:
            members.append(item)
    return members


def _is_type_expression(value: object) -> bool:
    """Whether an assigned value reads as a type: names, ``X[...]`` and ``X | Y`` of them
    (walked with a stack, however deep)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, griffe.ExprSubscript):
            pending.append(item.left)
        elif isinstance(item, griffe.ExprBinOp) and item.operator == "|":
            pending += [item.left, item.right]
        elif not (
            isinstance(item, (griffe.ExprName, griffe.ExprAttribute)) or safe_str(item) == "None"
        ):
            return False
    return True


def annotation_path(expr: griffe.ExprName | griffe.ExprAttribute) -> str:
    """The full path of a name in an annotation, resolved where Python evaluates it: in the
    scope enclosing the function or attribute (the class body, then the module), never to
    the function's own parameters nor to attributes only instances carry
    (``self.type = path_type`` does not make ``type`` in ``__init__(path_type: type)``
    anything but the builtin). A name the module does not bind is the builtin."""
    if isinstance(expr, griffe.ExprAttribute):
        expr = expr.last
    parent = expr.parent
    if isinstance(parent, (griffe.ExprName, griffe.ExprAttribute)):
        head = annotation_path(parent)
        if isinstance(parent, griffe.ExprName):
            head = _outside_path(parent, head)
        return f"{head}.{expr.name}"
    path = expr.canonical_path
    if isinstance(parent, griffe.Module):
        path = _imported_first(parent, expr.name) or path
    if not isinstance(parent, griffe.Object) or not _bound_by_instance(parent, path):
        return path
    scope: griffe.Object | None = parent
    while scope is not None and not isinstance(scope, griffe.Module):
        scope = scope.parent
    if scope is None:
        return expr.name
    try:
        found = scope.resolve(expr.name)
    except griffe.NameResolutionError:
        return expr.name  # a builtin
    return expr.name if _bound_by_instance(scope, found) else found


def _imported_first(module: griffe.Module, name: str) -> str | None:
    """What a ``name`` the module imports and later binds again means in an annotation
    (``from typing import Any``, then ``Any = raw_op(...)`` in TensorFlow's generated ops):
    the import, as type checkers read it (the first definition is the name's type; the
    later one is a redefinition). None when the module's binding of ``name`` is an import
    or nothing rebinds it."""
    member = module.members.get(name)
    if member is None or member.is_alias or not member.lineno or name not in module.imports:
        return None  # (griffe records every import of the module, also one rebound later)
    imports = facts_of(module).early_imports
    earlier = [target for at, target in imports.get(name, ()) if at < member.lineno]
    return earlier[0] if earlier else None


def _bound_by_instance(scope: griffe.Object, path: str) -> bool:
    """Whether ``path`` names a function parameter (``Cls(param)``) or an attribute that
    only instances carry: names no annotation can mean."""
    if "(" in path:
        return True
    if "." not in path:
        return False
    try:
        found = scope.modules_collection.get_member(path)
    except Exception:  # noqa: BLE001 - outside the analysed code
        return False
    if not isinstance(found, griffe.Attribute):
        return False  # an import (an alias) is a binding of its scope
    labels: set[str] = found.labels
    return "instance-attribute" in labels and "class-attribute" not in labels


def assigned_value_of(name: griffe.ExprName) -> griffe.Attribute | None:
    """The attribute a name resolves to, when it is assigned a value (``T = TypeVar(...)``)."""
    try:
        path = annotation_path(name)
        if "." not in path:
            return None  # a builtin
        parent = name.parent
        while isinstance(parent, (griffe.ExprName, griffe.ExprAttribute)):
            parent = parent.parent
        if not isinstance(parent, griffe.Object):
            return None
        target: object = parent.modules_collection.get_member(path)
        if isinstance(target, griffe.Alias):
            target = target.final_target
    except Exception:  # noqa: BLE001 - an unresolvable name is no known TypeVar
        return None
    if not isinstance(target, griffe.Attribute) or target.value is None:
        return None
    return target


def _compute_type_var_range(target: griffe.Attribute) -> str | None:
    value = target.value
    if isinstance(value, griffe.ExprCall) and _PARAM_SPEC_CALL.search(safe_str(value)):
        return "..."  # a ParamSpec stands for any parameters: Callable[P, R] ~ Callable[..., R]
    if isinstance(value, griffe.ExprCall) and _TYPE_VAR_TUPLE_CALL.search(safe_str(value)):
        return "typing.Any"  # *args: Unpack[Ts] accepts anything
    if not isinstance(value, griffe.ExprCall) or not _TYPE_VAR_CALL.search(safe_str(value)):
        return None
    target.extra["apisurface"]["type_var_range"] = "typing.Any"  # a bound naming itself
    bound: object = None
    default: object = None
    constraints: list[object] = []
    for argument in value.arguments[1:]:
        if isinstance(argument, griffe.ExprKeyword):
            if argument.name == "bound":
                bound = argument.value
            elif argument.name == "default":
                default = argument.value
        elif not isinstance(argument, (griffe.ExprVarPositional, griffe.ExprVarKeyword)):
            constraints.append(argument)
    # The default (PEP 696) is what an unspecialised use means; then the bound.
    for chosen in (default, bound):
        if chosen is not None:
            return render_annotation(chosen, target.parent)
    if constraints:
        return " | ".join(render_annotation(item, target.parent) for item in constraints)
    return "typing.Any"


def forward_reference(text: str, scope: griffe.Object) -> object | None:
    """The expression a quoted annotation (``"Client"``) names, resolved in ``scope``;
    None when ``text`` is not a quoted string holding an expression."""
    if len(text) < 2 or text[0] not in "'\"" or text[-1] != text[0]:
        return None
    try:
        value = ast.literal_eval(text)
        if not isinstance(value, str):
            return None
        node = ast.parse(value.strip(), mode="eval").body
        return griffe.get_expression(node, parent=scope, parse_strings=False)  # type: ignore[arg-type]
    except (SyntaxError, ValueError, RecursionError, MemoryError, TypeError):
        return None


_TYPE_VAR_CALL = re.compile(r"(?:^|\.)TypeVar\(")


_PARAM_SPEC_CALL = re.compile(r"(?:^|\.)ParamSpec\(")


_TYPE_VAR_TUPLE_CALL = re.compile(r"(?:^|\.)TypeVarTuple\(")


def self_type_var(annotation: object, scope: griffe.Object | None) -> str | None:
    """A TypeVar annotating ``self`` (``self: T``) or ``cls`` (``cls: type[T]``) stands for
    ``typing.Self`` in the method's signature: the TypeVar's full path, or None."""
    if isinstance(annotation, str) and scope is not None:
        annotation = forward_reference(annotation, scope)
    if isinstance(annotation, griffe.ExprSubscript):
        if safe_str(annotation.left).rpartition(".")[2] not in ("type", "Type"):
            return None
        annotation = annotation.slice
    if not isinstance(annotation, griffe.ExprName):
        return None
    target = assigned_value_of(annotation)
    if target is None or not _TYPE_VAR_CALL.search(safe_str(target.value)):
        return None
    try:
        return annotation.canonical_path
    except Exception:  # noqa: BLE001
        return None
