"""How each change is known: proven or inferred, why, and a witness for a proven break.

The diff states facts; this module grades them (POLICY.md section 3, "Evidence"). A change
is *inferred* when it rests on a guess: a path public only through the import-only rule
(POLICY.md 2.8), a type read from an unannotated value, default expressions that are not
literals and so cannot be compared as values, or a guess the diff itself made (a rename
paired by position), which it records on the change. Every other change is *proven*: both
sources state it, and ``why`` says what they state ("OLD defines pkg.parse at
pkg/__init__.py:4; NEW has no pkg.parse"). A proven MAJOR change gets its witness from
:mod:`apisurface.compare.witness`.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import replace

from apisurface.changes import (
    Change,
    ChangeKind,
    Evidence,
    Grade,
    Level,
)
from apisurface.compare.binding import Comparison, bind
from apisurface.compare.kindsets import ATTRIBUTE_ANNOTATION_KINDS, CALL_BREAKING, REMOVALS
from apisurface.compare.obligations import OBLIGATIONS, foreign_base, members_unlisted
from apisurface.compare.witness import CONTRACT_ONLY, witness
from apisurface.model import Guess, Surface, Symbol, SymbolKind
from apisurface.surface.policy import is_dunder
from apisurface.surface.spelling import base_origin
from apisurface.surface.stdlib import standard_attribute

__all__ = ["grade_changes"]

K = ChangeKind

_REMOVED_WHY = {
    K.SYMBOL_REMOVED: "NEW has no {path}",
    K.SYMBOL_RENAMED: "NEW has no {path}; the same object is at {new}",
    K.SYMBOL_MOVED: "NEW has no {path}; the same object is at {new}",
    K.SYMBOL_MADE_PRIVATE: "NEW has it only as the private {new}",
    K.SYMBOL_MADE_EXPERIMENTAL: "NEW has it only inside experimental {new}",
    K.SYMBOL_MOVED_TO_CONTRIB: "NEW has it only inside contrib {new}",
    K.SYMBOL_UNEXPORTED: (
        "NEW drops it from {module}.__all__: `from {module} import *` no longer binds it"
    ),
    K.SYMBOL_EXCLUDED_BY_CONFIG: (
        "NEW's [tool.apisurface] excludes it from the contract; no code fails"
    ),
    K.REEXPORT_REMOVED: "NEW has no {path}; the object is still at {new}",
    K.ENUM_MEMBER_REMOVED: "NEW's enum has no member {name}",
    K.OVERRIDE_REMOVED: "NEW drops the override; {new} still provides it",
}

_ADDED = frozenset(
    {
        K.SYMBOL_ADDED,
        K.SYMBOL_MADE_PUBLIC,
        K.SYMBOL_PROMOTED_FROM_EXPERIMENTAL,
        K.SYMBOL_NOW_DOCUMENTED,
        K.SYMBOL_EXPORTED,
        K.REEXPORT_ADDED,
        K.ENUM_MEMBER_ADDED,
    }
)


_ANNOTATIONS = frozenset(
    {
        K.PARAMETER_ANNOTATION_NARROWED,
        K.PARAMETER_ANNOTATION_CHANGED,
        K.PARAMETER_ANNOTATION_WIDENED,
        K.PARAMETER_ANNOTATION_REFINED,
        K.RETURN_ANNOTATION_WIDENED,
        K.RETURN_ANNOTATION_CHANGED,
        K.RETURN_ANNOTATION_NARROWED,
        K.RETURN_ANNOTATION_REFINED,
        K.ATTRIBUTE_ANNOTATION_CHANGED,
        K.ATTRIBUTE_ANNOTATION_REFINED,
    }
)


def grade_changes(
    changes: list[Change],
    old: Surface,
    new: Surface,
    compared: Mapping[str, tuple[Symbol, Symbol]] | None = None,
) -> list[Change]:
    """``changes`` with their evidence: the grade, why, and a witness for proven breaks.
    ``compared`` maps a path to the symbols it was compared as, where the diff stood in
    for one side (an inherited constructor); other paths are read from the surfaces."""
    compared = compared or {}
    graded = [replace(change, evidence=_evidence(change, old, new, compared)) for change in changes]
    # "Removed without prior deprecation" is a property of the removal at its path: it
    # is as sure as the removal, and the removal's witness shows it.
    removals = {
        change.path: change.evidence
        for change in graded
        if change.kind in REMOVALS and change.kind is not K.REMOVED_WITHOUT_DEPRECATION
    }
    return [
        _as_removal(change, removals[change.path])
        if change.kind is K.REMOVED_WITHOUT_DEPRECATION and change.path in removals
        else change
        for change in graded
    ]


def _as_removal(change: Change, removal: Evidence) -> Change:
    if not removal.proven:
        return replace(change, evidence=removal)
    why = f"{change.evidence.why}; {removal.why}" if change.evidence.proven else removal.why
    return replace(change, evidence=Evidence(Grade.PROVEN, why, removal.witness))


def _split(path: str) -> tuple[str, str | None]:
    base, _, rest = path.partition("(")
    return base, (rest[:-1] if rest else None)


def _at(symbol: Symbol | None) -> str:
    if symbol is None or symbol.location is None:
        return ""
    return f" at {symbol.location.file}:{max(symbol.location.line, 1)}"


def _literal(text: str | None) -> bool:
    if text is None:
        return True
    try:
        ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _guess(
    change: Change, old: Symbol | None, new: Symbol | None, new_init: Symbol | None = None
) -> str | None:
    """The guess ``change`` rests on, in words; ``None`` when both sources state it.
    ``new_init`` is NEW's constructor at the path, for a callable that became a class."""
    base, parameter = _split(change.path)
    for side, symbol in (("OLD", old), ("NEW", new)):
        if symbol is not None and Guess.IMPORT_ONLY in symbol.guesses:
            return (
                f"{base} is public on {side} only because a public module imports it "
                "(the import-only rule, POLICY.md 2.8)"
            )
    signature_part = (
        parameter is not None
        or change.kind in CALL_BREAKING
        or change.kind.value.startswith(("return_annotation", "overload", "keyword_only"))
    )
    for side, symbol in (("OLD", old), ("NEW", new)):
        if (
            signature_part
            and symbol is not None
            and Guess.SIGNATURE_THROUGH_DECORATOR in symbol.guesses
        ):
            return (
                f"the signature of {base} on {side} is read under a decorator called with "
                "a callable, which may return that callable (with its own signature)"
            )
    if change.kind in ATTRIBUTE_ANNOTATION_KINDS:
        for side, symbol in (("OLD", old), ("NEW", new)):
            if symbol is not None and Guess.ANNOTATION_FROM_VALUE in symbol.guesses:
                return (
                    f"the type of {base} on {side} ({symbol.annotation}) is read from its "
                    "value, not written"
                )
    if (
        change.kind in CALL_BREAKING
        and old is not None
        and new is not None
        and old.signature is not None
        and new.signature is not None
    ):
        calls = Comparison(old.signature, new.signature)
        if calls.breaking_call() is None and (
            parameter is None or calls.parameter_breaking_call(parameter) is None
        ):
            return (
                f"no call that {base} accepted on OLD fails or binds differently on NEW "
                "(the call-binding model finds none)"
            )
    if change.kind is K.SYMBOL_NO_LONGER_DOCUMENTED:
        return (
            f"NEW still defines {base}; only its documentation went (POLICY.md 2.5), which "
            "no code observes: whether users lose it is a guess"
        )
    if change.kind is K.KIND_CHANGED and old is not None and new is not None:
        found = _kind_guess(base, old, new, new_init)
        if found is not None:
            return found
    if change.kind is K.PARAMETER_DEFAULT_CHANGED and not (
        _literal(change.old) and _literal(change.new)
    ):
        return (
            f"the defaults of {parameter} ({change.old} -> {change.new}) are expressions, "
            "not literals: they cannot be compared as values"
        )
    return None


def _evidence(
    change: Change,
    old_surface: Surface,
    new_surface: Surface,
    compared: Mapping[str, tuple[Symbol, Symbol]],
) -> Evidence:
    base, _ = _split(change.path)
    old = old_surface.symbols.get(base)
    new = new_surface.symbols.get(base)
    if base in compared:
        old, new = compared[base]
    if not change.evidence.proven:
        return change.evidence
    guess = _guess(change, old, new, new_surface.symbols.get(f"{base}.__init__"))
    if guess is None and change.kind is K.BASE_REMOVED:
        guess = _unnamed_base(change.old, base, old_surface)
    if guess is None and change.kind is K.SYMBOL_REMOVED and change.path == base:
        guess = _still_answered(base, new_surface)
    if guess is None and change.kind in (K.ABSTRACT_METHOD_ADDED, K.PROTOCOL_MEMBER_ADDED):
        owner, _, name = base.rpartition(".")
        foreign = foreign_base(owner, new_surface)
        if foreign is not None:
            guess = (
                f"NEW's {owner} derives from {foreign} (outside the package and the standard "
                f"library), which may already ask its subclasses for {name}"
            )
    if guess is not None:
        return Evidence.inferred(guess)
    why = _why(change, old, new)
    found = None
    if change.kind.rule.level is Level.MAJOR and change.kind not in CONTRACT_ONLY:
        found = witness(change, old, new, old_surface.symbols)
        owner = base.rpartition(".")[0]
        if change.kind in OBLIGATIONS and members_unlisted(change.kind, owner, old_surface):
            found = None  # code written from the listed members alone may not fit OLD
    return Evidence(Grade.PROVEN, why, found)


def _kind_guess(base: str, old: Symbol, new: Symbol, constructor: Symbol | None) -> str | None:
    """Why a change of kind may go unnoticed by every use but one inspecting the kind: a
    callable that became a class accepting the same calls, an attribute that became a
    property reading and taking assignments alike, a property that became an attribute."""
    if (
        old.kind.is_callable
        and new.kind is SymbolKind.CLASS
        and old.signature is not None
        and constructor is not None
        and constructor.signature is not None
        and Comparison(old.signature, constructor.signature).breaking_call() is None
    ):
        return (
            f"{base} became a class whose constructor accepts every call the "
            f"{old.kind.value} accepted: only code inspecting its kind notices"
        )
    if (
        old.kind is SymbolKind.ATTRIBUTE
        and new.kind is SymbolKind.PROPERTY
        and (old.assignable is False or new.assignable is True)
    ):
        how = (
            "its setter takes the assignment the attribute took"
            if new.assignable is True
            else "an instance refuses an assignment on both sides (read-only instances)"
        )
        return (
            f"{base} became a property that reads as the attribute did, and {how}: only "
            "code inspecting its kind or reading it from the class notices"
        )
    if old.kind is SymbolKind.PROPERTY and new.kind is SymbolKind.ATTRIBUTE:
        return (
            f"{base} became an attribute that reads as the property did (and may take an "
            "assignment the property refused): only code inspecting its kind or reading it "
            "from the class notices"
        )
    return None


def _still_answered(path: str, surface: Surface) -> str | None:
    """Why a member removed from a class may still resolve on NEW: the class answers other
    names through ``__getattr__`` (werkzeug 2.3's ``Authorization.username``), or it
    inherits the name from a standard-library base (``LimitedStream.read`` from
    ``io.RawIOBase``); None when neither holds."""
    owner, _, name = path.rpartition(".")
    cls = surface.symbols.get(owner)
    if cls is None or cls.kind is not SymbolKind.CLASS:
        return None
    dynamic = surface.symbols.get(f"{owner}.__getattr__")
    if dynamic is not None and not is_dunder(name):
        returns = dynamic.signature.returns if dynamic.signature is not None else None
        gives = f" (giving {returns})" if returns else ""
        return (
            f"NEW's {owner} answers the names it does not define through __getattr__{gives}: "
            f"{path} may still resolve, so whether a use of it breaks is a guess"
        )
    for written in cls.bases:
        origin = base_origin(written)
        if _standard_member(origin, name):
            return (
                f"NEW's {owner} inherits {name} from {origin} (standard library): {path} "
                "still resolves; whether it behaves as the removed one did is a guess"
            )
    return None


def _standard_member(base: str, name: str) -> bool:
    """Whether the standard-library (or builtin) class ``base`` has an attribute ``name``.
    Only standard-library modules are imported, never the analysed code."""
    return standard_attribute(base, name) is not None


def _unnamed_base(text: str | None, owner: str, surface: Surface) -> str | None:
    """Why user code cannot name the removed base ``text`` of the class ``owner``, so that
    no use of it shows the break; None when it can. A base written as a call
    (``namedtuple("Url", ...)``) is a class made on the fly; a class of the package with no
    public path is spelled by the package and its own name (``pkg.Base``), which is no path
    a user could type, the more so when it is the class's own."""
    if not text:
        return None
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if any(isinstance(item, ast.Call) for item in ast.walk(node)):
        return (
            f"the removed base {text} of {owner} is a class made by a call, which user code "
            "cannot name: whether a use relied on it is a guess"
        )
    package, _, name = text.partition(".")
    unlisted = package == surface.package and name.isidentifier()
    if unlisted and (text == owner or text not in surface.symbols):
        return (
            f"the removed base of {owner} has no public path (spelled {text}, by the package "
            "and its own name), so user code cannot name it: whether a use relied on it is "
            "a guess"
        )
    return None


def _why(change: Change, old: Symbol | None, new: Symbol | None) -> str:
    base, parameter = _split(change.path)
    kind = change.kind
    name = base.rpartition(".")[2]
    if kind is K.REMOVED_WITHOUT_DEPRECATION:
        return f"OLD does not mark {base} deprecated"
    if kind in _REMOVED_WHY:
        tail = _REMOVED_WHY[kind].format(
            path=base, new=change.new, name=name, module=base.rpartition(".")[0]
        )
        return f"OLD defines {base}{_at(old)}; {tail}"
    if kind in _ADDED:
        return f"NEW defines {base}{_at(new)}; OLD has no public {base}"
    if kind is K.ABSTRACT_METHOD_ADDED:
        return (
            f"NEW defines {base} as abstract{_at(new)}; OLD's {base.rpartition('.')[0]} has no "
            f"{name}, so its subclasses do not implement it"
        )
    if kind is K.TYPEDDICT_KEY_ADDED:
        return (
            f"NEW's TypedDict {base.rpartition('.')[0]} requires the key {name}{_at(new)}; "
            "OLD's has no such key"
        )
    if kind is K.TYPEDDICT_KEY_MADE_REQUIRED:
        return (
            f"OLD's TypedDict {base.rpartition('.')[0]} lets a dict leave out {name}; NEW's "
            f"requires it{_at(new)}"
        )
    if kind is K.PROTOCOL_MEMBER_ADDED:
        return (
            f"NEW's protocol {base.rpartition('.')[0]} declares {name}{_at(new)}; OLD's does "
            "not, so its implementations lack it"
        )
    if (
        kind in CALL_BREAKING
        and old is not None
        and new is not None
        and old.signature is not None
        and new.signature is not None
    ):
        return _call_why(change, old, new)
    if kind is K.KIND_CHANGED:
        return (
            f"OLD has {base} as {_article(change.old)}{_at(old)}, "
            f"NEW as {_article(change.new)}{_at(new)}"
        )
    if kind in (
        K.PARAMETER_DEFAULT_CHANGED,
        K.PARAMETER_DEFAULT_REMOVED,
        K.PARAMETER_DEFAULT_ADDED,
    ):
        return (
            f"OLD defaults {parameter} to {change.old or 'nothing (required)'}, "
            f"NEW to {change.new or 'nothing (required)'}"
        )
    if kind in _ANNOTATIONS:
        what = (
            f"parameter {parameter}"
            if parameter
            else ("the return of " + base if kind.value.startswith("return") else base)
        )
        return f"OLD annotates {what} as {change.old}, NEW as {change.new}"
    message = kind.rule.template.format(old=change.old, new=change.new)
    return f"both sources state it: {message}"


def _article(word: str | None) -> str:
    text = word or "nothing"
    return f"an {text}" if text[:1] in "aeiou" else f"a {text}"


def _call_why(change: Change, old: Symbol, new: Symbol) -> str:
    assert old.signature is not None and new.signature is not None
    comparison = Comparison(old.signature, new.signature)
    _, parameter = _split(change.path)
    call = comparison.parameter_breaking_call(parameter) if parameter else None
    call = call or comparison.breaking_call()
    callee = change.path.partition("(")[0]
    if callee.endswith(".__init__"):
        callee = callee.rpartition(".")[0]
    if call is None:
        message = change.kind.rule.template.format(old=change.old, new=change.new)
        return f"both sources state it: {message}"
    text = call.text(callee)
    after = bind(new.signature, call)
    if not after.binds:
        return f"the call {text} binds to OLD and not to NEW"
    before = bind(old.signature, call)
    for index, (was, now) in enumerate(zip(before.positional, after.positional, strict=True)):
        if was != now:
            return (
                f"the call {text} binds to both, but its argument {index + 1} lands in "
                f"{was} on OLD and in {now} on NEW"
            )
    return f"the call {text} binds to OLD and binds differently to NEW"
