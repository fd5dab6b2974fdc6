"""Grading changes that rest on parts read from code (POLICY.md section 3, "Evidence").

The surface marks the parts of a symbol it read from code rather than from what the source
states (``Symbol.inferred``: a type from an unannotated value, a return type from the
``return`` statements, a keyword read from ``**kwargs``, a default read through a named
constant). A change of such a part is *inferred*; so is a changed default whose old or new
expression is not a literal (two expressions cannot be compared as values). Some changes
are no change at all once the guess is taken into account:

- a default read through a constant bound to the same value on every branch, against a
  literal equal to it (``use_mmap=USE_MMAP`` with ``USE_MMAP = 1``, against ``True``);
- a return type read on one side only (nothing was written on either);
- a return type written wider than the one OLD's returns gave (semver 3.0's ``to_dict``
  annotated ``-> Dict`` over ``return OrderedDict(...)``): OLD's unannotated return was Any
  to a type checker, so it is a return annotation added (PATCH), not a widening; a type
  written on OLD and read on NEW that changed stays an inferred change (the body returns
  something else);
- (a deprecation read through a helper grades ``symbol_deprecated`` inferred; a removal
  after it is no longer "without prior deprecation");
- a keyword read from ``**kwargs`` that the new body no longer reads, while ``**kwargs``
  still takes it: callers' calls still bind, but the keyword is ignored, so the absorption
  is reported as the removal it is (inferred), unless the new body hands its ``**kwargs``
  on to another call (``super().__init__(**kwargs)``), where it may still be read: then it
  stays absorbed (inferred).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from apisurface.changes import Change, ChangeKind, Evidence
from apisurface.compare.kindsets import ATTRIBUTE_ANNOTATION_KINDS
from apisurface.model import ParamKind, Surface, Symbol

__all__ = ["grade_inferred"]

K = ChangeKind

_RETURN_KINDS = frozenset(
    {
        K.RETURN_ANNOTATION_WIDENED,
        K.RETURN_ANNOTATION_CHANGED,
        K.RETURN_ANNOTATION_NARROWED,
        K.RETURN_ANNOTATION_REFINED,
    }
)
_RETURN_ONE_SIDE = frozenset({K.RETURN_ANNOTATION_ADDED, K.RETURN_ANNOTATION_REMOVED})
_DEFAULT_KINDS = frozenset(
    {K.PARAMETER_DEFAULT_CHANGED, K.PARAMETER_DEFAULT_ADDED, K.PARAMETER_DEFAULT_REMOVED}
)

_GONE = frozenset({K.PARAMETER_ABSORBED, K.PARAMETER_REMOVED})
_DEPRECATION_KINDS = frozenset({K.SYMBOL_DEPRECATED, K.SYMBOL_UNDEPRECATED})
_HELPER = "the deprecation is read through a helper the body calls, which warns"
_VALUE_TYPE = "the type is read from the unannotated value, not written"
_RETURN_TYPE = "the return type is read from the return statements, not written"
_KEYWORD = "a keyword the body reads from **kwargs (kwargs.pop/get), not a written parameter"
_CONSTANT = "the default is read through a module constant"
_EXPRESSION = "default expressions that are not literals cannot be compared as values"


def grade_inferred(old: Surface, new: Surface, changes: Iterable[Change]) -> list[Change]:
    """``changes`` with the ones resting on inferred parts graded so, and those that the
    inferred parts show to be no change dropped."""
    graded: list[Change] = []
    for change in changes:
        result = _grade(old, new, change)
        if result is not None:
            graded.append(result)
    return graded


def _parts(surface: Surface, path: str) -> tuple[str, ...]:
    symbol = _symbol(surface, path)
    return symbol.inferred if symbol is not None else ()


def _symbol(surface: Surface, path: str, depth: int = 0) -> Symbol | None:
    """The symbol at ``path``, or, for a member listed only at a base (an inherited
    constructor), the base's member (depth-limited)."""
    found = surface.symbols.get(path)
    if found is not None or depth > 10:
        return found
    owner, _, name = path.rpartition(".")
    cls = surface.symbols.get(owner)
    for base in cls.bases if cls is not None else ():
        found = _symbol(surface, f"{base}.{name}", depth + 1)
        if found is not None:
            return found
    return None


def _grade(old: Surface, new: Surface, change: Change) -> Change | None:
    path, _, rest = change.path.partition("(")
    parameter = rest[:-1] if rest.endswith(")") else None
    parts = set(_parts(old, path)) | set(_parts(new, path))
    why: str | None = None
    kind = change.kind
    if parameter is not None:
        if f"parameter {parameter}" in parts:
            why = _KEYWORD
            if kind in _GONE and f"parameter {parameter}" in _parts(old, path):
                # The new body no longer reads it: removed, unless it hands **kwargs on,
                # where the keyword may still be read (absorbed, as far as is known).
                forwards = "forwards kwargs" in _parts(new, path)
                kind = K.PARAMETER_ABSORBED if forwards else K.PARAMETER_REMOVED
                value = _var_keyword(new, path) if forwards else None
                return Change(change.path, kind, change.old, value, evidence=Evidence.inferred(why))
        elif kind in _DEFAULT_KINDS:
            constant = f"default {parameter}" in parts
            if (
                constant
                and kind is K.PARAMETER_DEFAULT_CHANGED
                and _equal_values(change.old, change.new)
            ):
                return None
            if not (_literal(change.old) and _literal(change.new)):
                why = _EXPRESSION
    elif kind in _DEPRECATION_KINDS and "deprecated" in parts:
        why = _HELPER
    elif kind in _RETURN_ONE_SIDE and "returns" in parts:
        return None
    elif kind in _RETURN_KINDS and "returns" in parts:
        if (
            kind is K.RETURN_ANNOTATION_WIDENED
            and "returns" in _parts(old, path)
            and "returns" not in _parts(new, path)
        ):
            # A type written wider than the one OLD's returns gave: OLD's unannotated
            # return was Any to a type checker, and the body may still return the narrower
            # type, so it is an annotation refinement (POLICY.md 3), not a widening.
            return Change(change.path, K.RETURN_ANNOTATION_ADDED, None, change.new)
        why = _RETURN_TYPE
    elif kind in ATTRIBUTE_ANNOTATION_KINDS and "annotation" in parts:
        why = _VALUE_TYPE
    if why is None:
        return change
    return Change(change.path, kind, change.old, change.new, evidence=Evidence.inferred(why))


def _var_keyword(surface: Surface, path: str) -> str | None:
    """``**name`` of the callable's ``**kwargs`` parameter at ``path``, if it has one."""
    symbol = _symbol(surface, path)
    for parameter in symbol.signature.parameters if symbol and symbol.signature else ():
        if parameter.kind is ParamKind.VAR_KEYWORD:
            return f"**{parameter.name}"
    return None


def _literal(text: str | None) -> bool:
    """Whether a default (source text; ``None``: no default) is a value a reader knows."""
    if text is None:
        return True
    try:
        ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _equal_values(old: str | None, new: str | None) -> bool:
    """Whether two literal defaults are equal as Python compares them (``1 == True``)."""
    if old is None or new is None:
        return False
    try:
        before, after = ast.literal_eval(old), ast.literal_eval(new)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    try:
        return bool(before == after) and type(before) in _NUMBERS and type(after) in _NUMBERS
    except Exception:  # noqa: BLE001 - an odd comparison is no equality
        return False


_NUMBERS = (bool, int, float, complex)
