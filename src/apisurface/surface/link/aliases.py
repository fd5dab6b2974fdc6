"""Which object a name stands for: griffe's alias resolution, and the bindings it misses.

A name is the object it resolves to through imports, and also through an unannotated
assignment naming a class or function (``VersionInfo = Version``), a synonym helper or
decorator (see :mod:`apisurface.surface.link.synonyms`), another branch of an ``if``/``try``
binding the same name, a subclass's ``@Base.name.setter``, or what a deprecation shim
returns. Used by the link step to decide what each public path names.
"""

from __future__ import annotations

import ast

import griffe

from apisurface.surface.access import safe_str
from apisurface.surface.link.bound import bound_method
from apisurface.surface.link.rendering import annotation_path
from apisurface.surface.link.synonyms import call_result, decorated_synonym
from apisurface.surface.standins import Answered
from apisurface.surface.visit.facts import facts_of

__all__ = ["module_member", "resolve_member", "shim_attribute", "shim_import"]


def resolve_member(member: griffe.Object | griffe.Alias) -> griffe.Object | None:
    if not member.is_alias:
        return _assigned_alias(member) or member  # type: ignore[arg-type,return-value]
    try:
        target = member.final_target  # type: ignore[union-attr]
    except (griffe.AliasResolutionError, griffe.CyclicAliasError, RecursionError):
        # ``try: from ._speedups import X`` / ``except ImportError: X = _PyX``
        return _branch_alias(member)
    return _assigned_alias(target) or target


def _assigned_alias(obj: griffe.Object) -> griffe.Object | None:
    """The class or function a ``Name = other`` assignment names: the same object under a
    second name, like an import alias (semver 3 ``VersionInfo = Version``, a method alias
    ``iteritems = items``), also in a class body (``request_class = Request``, POLICY.md
    2.8) and when annotated with the value a plain name (``formatter_class:
    type[HelpFormatter] = HelpFormatter``, ``__hash__: Callable[..., int] = Base.__hash__``)."""
    if isinstance(obj, griffe.Function):
        return _base_property(obj) or _decorated_alias(obj)
    if not isinstance(obj, griffe.Attribute):
        return None
    annotated = obj.annotation is not None and not _annotation_left_over(obj)
    if annotated and not isinstance(obj.value, (griffe.ExprName, griffe.ExprAttribute)):
        return None
    in_module = obj.parent is not None and obj.parent.is_module
    bound = bound_method(obj, _resolved) if in_module else None
    if bound is not None:
        return bound  # ``use_args = parser.use_args``: the method, bound (link/bound.py)
    target = _named_callable(obj.value)
    if target is None and in_module and not annotated:
        return _branch_alias(obj)  # another branch's ``Name = Cls`` (if/else, try/except)
    return target


def _annotation_left_over(obj: griffe.Attribute) -> bool:
    """Whether an attribute's annotation is not written at its assignment: griffe keeps
    the return annotation of a function the name was bound to before
    (``def f() -> X: ...`` then ``f = synonym("f", g)``)."""
    if not isinstance(obj.value, (griffe.ExprCall, griffe.ExprName, griffe.ExprAttribute)):
        return False
    # An assignment without an annotation starts at its line (as the visit read the file).
    try:
        module = obj.module
    except Exception:  # noqa: BLE001 - an attribute griffe cannot place in a module
        return False
    return obj.lineno is not None and obj.lineno in facts_of(module).bodies.assignments


def _named_callable(value: object, depth: int = 0) -> griffe.Class | griffe.Function | None:
    """The class or function an expression names, when it is a name that resolves: also
    through another module-level alias (``AppDirs = PlatformDirs``), and a call of a
    function declared to return ``type[X]`` names ``X`` (``PlatformDirs =
    _set_platform_dir_class()``: a type checker sees the class ``X``)."""
    if depth > 8:
        return None
    if isinstance(value, griffe.ExprCall):
        function = _named_callable(value.function, depth + 1)
        if not isinstance(function, griffe.Function):
            return None
        argument = call_result(function, value, _object_of)
        if argument is not None:  # ``oneOf = synonym("oneOf", one_of)`` is ``one_of``
            return _named_callable(argument, depth + 1)
        returns = function.returns
        if not isinstance(returns, griffe.ExprSubscript):
            return None
        if safe_str(returns.left).rpartition(".")[2] not in ("type", "Type"):
            return None
        found = _named_callable(returns.slice, depth + 1)
        return found if isinstance(found, griffe.Class) else None
    target = _object_of(value)  # unresolvable names stay attributes
    if target is None:
        return None
    if (
        isinstance(target, griffe.Attribute)
        and target.annotation is None
        and isinstance(target.parent, griffe.Module)
    ):
        return _named_callable(target.value, depth + 1)
    if isinstance(target, griffe.Function) and target.decorators:
        return _decorated_alias(target, depth + 1) or target
    return target if isinstance(target, (griffe.Class, griffe.Function)) else None


def _decorated_alias(
    function: griffe.Function, depth: int = 0
) -> griffe.Class | griffe.Function | None:
    """The class or function a decorator makes ``function``'s name a synonym of
    (``@replaced_by_pep8(one_of) def oneOf(): ...`` is ``one_of``; see synonyms.py)."""
    if not function.decorators:
        return None
    expression = decorated_synonym(function, _object_of)
    if expression is None:
        return None
    target = _named_callable(expression, depth + 1)
    return target if target is not function else None


_ACCESSORS = frozenset({"setter", "getter", "deleter"})


def _base_property(function: griffe.Function) -> griffe.Object | None:
    """The property a function redefines an accessor of when the decorator names another
    class's property (``@BaseLock.lifetime.setter`` in a subclass, filelock 4.3.1): the
    name is still that property, not a method."""
    for decorator in function.decorators:
        value = decorator.value
        if not isinstance(value, griffe.ExprAttribute) or len(value.values) < 3:
            continue
        name, accessor = value.values[-2:]
        if safe_str(accessor) not in _ACCESSORS or safe_str(name) != function.name:
            continue
        if not isinstance(name, griffe.ExprName):
            continue
        try:
            found = function.modules_collection.get_member(annotation_path(name))
            if isinstance(found, griffe.Alias):
                found = found.final_target
        except Exception:  # noqa: BLE001 - outside the analysed code
            return None
        if found is not function and "property" in getattr(found, "labels", ()):
            return found if isinstance(found, griffe.Object) else None
    return None


def _resolved(value: object) -> griffe.Object | None:
    """The object an expression names: a class or function through module-level aliases
    and calls (:func:`_named_callable`), else what the name resolves to."""
    return _named_callable(value) or _object_of(value)


def _object_of(value: object) -> griffe.Object | None:
    """The object a name (or the last part of a dotted name) resolves to, through aliases."""
    if isinstance(value, griffe.ExprAttribute):
        value = value.last
    if not isinstance(value, griffe.ExprName):
        return None
    try:
        target: object = value.resolved
        if isinstance(target, griffe.Alias):
            target = target.final_target
    except Exception:  # noqa: BLE001 - unresolvable names resolve to nothing
        return None
    return target if isinstance(target, griffe.Object) else None


def _branch_alias(member: griffe.Object | griffe.Alias) -> griffe.Object | None:
    """The class or function another module-level assignment of the same name names:
    griffe keeps one binding of ``if/else`` or ``try/except`` branches, a type checker
    (and a user's import) sees the class or function of the other."""
    mod = member.parent
    if not isinstance(mod, griffe.Module) or not _in_block(mod, member):
        return None
    for text in _assigned_names(mod, member.name):
        try:
            node = ast.parse(text, mode="eval").body
            value = griffe.get_expression(node, parent=mod, parse_strings=False)
        except (SyntaxError, ValueError, RecursionError, TypeError):
            continue
        found = _named_callable(value)
        if found is not None:
            return found
    return None


def shim_attribute(member: griffe.Object) -> griffe.Object | None:
    """The attribute a deprecation shim's name returns (``return LIMIT``): the name then
    has that constant's kind and type."""
    target = _object_of(getattr(member, "value", None))
    return target if isinstance(target, griffe.Attribute) and target is not member else None


def shim_import(mod: griffe.Module, member: griffe.Object) -> griffe.Object | None:
    """What a deprecation shim imports and returns (``from .exceptions import X``)."""
    path = member.imported if isinstance(member, Answered) else None
    if not path:
        return None
    try:
        found = mod.modules_collection.get_member(path)
        if found.is_alias:
            found = found.final_target
    except Exception:  # noqa: BLE001 - not in the package, or not defined statically
        return None
    return found if isinstance(found, griffe.Object) else None


def _in_block(mod: griffe.Module, member: griffe.Object | griffe.Alias) -> bool:
    """Whether a module-level binding is written inside a block (``if``, ``try``...), as
    the visit of the module's file found."""
    lineno = getattr(member, "alias_lineno", None) or member.lineno or 0
    return lineno in facts_of(mod).block_lines


def _assigned_names(mod: griffe.Module, name: str) -> tuple[str, ...]:
    """The names ``name`` is assigned at module level, in any branch (parsed only when
    a quick look finds an indented ``name = other``)."""
    facts = facts_of(mod)
    if name not in facts.reassigned:
        return ()
    return facts.assigned_names.get(name, ())


def module_member(function: griffe.Function, name: str) -> griffe.Object | None:
    """What ``name`` means in the module defining ``function`` (through imports)."""
    scope = function.parent
    while scope is not None and not isinstance(scope, griffe.Module):
        scope = scope.parent
    if scope is None:
        return None
    try:
        found: object = scope.modules_collection.get_member(scope.resolve(name))
        if isinstance(found, griffe.Alias):
            found = found.final_target
    except Exception:  # noqa: BLE001 - a builtin, or outside the analysed code
        return None
    return found if isinstance(found, griffe.Object) else None
