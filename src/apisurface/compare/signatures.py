"""Signature facts: the parameter-level changes between two signatures of one callable.

Parameters are paired (by name, by position when renamed in place, variadics by kind),
then each pair, removal and addition is reported as a fact; whether a fact breaks callers
is decided by the call-binding model (:mod:`apisurface.compare.binding`). Also the text of
a signature as Python spells it, for reports.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from apisurface.changes import Change, ChangeKind, Evidence
from apisurface.compare.binding import Comparison, private_parameter
from apisurface.compare.kindsets import CALL_BREAKING
from apisurface.compare.typechanges import annotation_change
from apisurface.model import Parameter, ParamKind, Signature
from apisurface.surface.spelling import last_name, parent_path

__all__ = ["signature_changes", "signature_text"]

K = ChangeKind


def signature_text(signature: Signature) -> str:
    """A signature as Python spells it: ``(a: int, /, b=1, *args, c, **kw) -> str``."""
    parts: list[str] = []
    kinds = [parameter.kind for parameter in signature.parameters]
    for index, parameter in enumerate(signature.parameters):
        if (
            parameter.kind is ParamKind.KEYWORD_ONLY
            and ParamKind.VAR_POSITIONAL not in kinds[:index]
        ) and (index == 0 or kinds[index - 1] is not ParamKind.KEYWORD_ONLY):
            parts.append("*")
        text = parameter.name
        if parameter.kind is ParamKind.VAR_POSITIONAL:
            text = "*" + text
        elif parameter.kind is ParamKind.VAR_KEYWORD:
            text = "**" + text
        if parameter.annotation:
            text += f": {parameter.annotation}"
        if parameter.default is not None:
            text += f" = {parameter.default}" if parameter.annotation else f"={parameter.default}"
        parts.append(text)
        is_last_positional_only = parameter.kind is ParamKind.POSITIONAL_ONLY and (
            index + 1 == len(kinds) or kinds[index + 1] is not ParamKind.POSITIONAL_ONLY
        )
        if is_last_positional_only:
            parts.append("/")
    result = f"({', '.join(parts)})"
    if signature.returns:
        result += f" -> {signature.returns}"
    return result


def _positional(parameters: Iterable[Parameter]) -> list[Parameter]:
    return [parameter for parameter in parameters if parameter.kind.is_positional]


def _kind_change(old: ParamKind, new: ParamKind) -> ChangeKind | None:
    if old == new:
        return None
    widened = {
        (ParamKind.KEYWORD_ONLY, ParamKind.POSITIONAL_OR_KEYWORD),
        (ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL_OR_KEYWORD),
    }
    return K.PARAMETER_KIND_WIDENED if (old, new) in widened else K.PARAMETER_KIND_NARROWED


_VARIADICS = (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD)


@dataclass(frozen=True)
class _Sides:
    """The two signatures of one callable, indexed as the pairing reads them."""

    path: str
    old: Signature
    new: Signature
    calls: Comparison
    old_names: dict[str, Parameter]
    new_names: dict[str, Parameter]
    old_pos: list[Parameter]
    new_pos: list[Parameter]

    @classmethod
    def of(cls, path: str, old: Signature, new: Signature) -> _Sides:
        return cls(
            path,
            old,
            new,
            Comparison(old, new),
            {parameter.name: parameter for parameter in old.parameters},
            {parameter.name: parameter for parameter in new.parameters},
            _positional(old.parameters),
            _positional(new.parameters),
        )

    def at(self, name: str) -> str:
        """Where a fact about the parameter ``name`` is reported: ``pkg.f(name)``."""
        return f"{self.path}({name})"


@dataclass
class _Pairing:
    """Which old parameter became which new one, as the pairing steps decide it."""

    pairs: list[tuple[Parameter, Parameter]]
    renamed_old: set[str] = field(default_factory=set)
    renamed_new: set[str] = field(default_factory=set)
    # Positional parameters kept as a keyword-only alias while a new name took the position.
    aliased: set[str] = field(default_factory=set)
    # Names kept only weakly (see _weak_names) whose pairing by name a rename replaced.
    dropped_weak: set[str] = field(default_factory=set)
    # Removed parameters whose successor is only a guess (``connect(addr)`` ->
    # ``connect(host)``, nothing written to agree on): named on the removal for the
    # reader, never paired, never rewritten by ``migrate``.
    guesses: dict[str, str] = field(default_factory=dict)
    guessed: set[str] = field(default_factory=set)  # their successors, when reported removed


def signature_changes(
    path: str,
    old: Signature,
    new: Signature,
    from_fields: bool,
    bases_of: object,
    *,
    prepare: Callable[[str, str], tuple[str, str]] | None = None,
) -> list[Change]:
    """The parameter-level facts of ``old`` -> ``new``. Whether a fact breaks callers is
    decided by the call-binding model (:mod:`apisurface.compare.binding`): a parameter removed,
    renamed or changed in kind whose old calls all still bind, each argument reaching its
    successor, is reported with a compatible kind (absorbed, renamed keeping the old name,
    kind widened); any call the model finds broken that no breaking fact explains is
    reported as ``signature_incompatible`` with that call."""
    sides = _Sides.of(path, old, new)
    pairing = _pair_by_name(sides)
    # The steps run in this order: each one reads what the ones before it paired.
    changes = _aliases(sides, pairing)
    changes += _positional_renames(sides, pairing)
    changes += _keyword_rename(sides, pairing)
    changes += _removals(sides, pairing)
    added, inserted = _additions(sides, pairing, from_fields)
    changes += added
    for before, after in pairing.pairs:
        changes += _pair_changes(sides, pairing, before, after, bases_of=bases_of, prepare=prepare)
    changes += _order_changes(sides, pairing, inserted)
    if not any(change.kind in CALL_BREAKING for change in changes):
        changes += _incompatible(sides)
    if not sides.calls.exact:
        # The calls were not enumerated: every fact above rests on the conservative answer.
        evidence = Evidence.inferred(
            f"signature too large to check exactly ({len(old.parameters)} and "
            f"{len(new.parameters)} parameters): judged by parameter names, every call "
            "assumed broken"
        )
        changes = [replace(change, evidence=evidence) for change in changes]
    changes.extend(
        annotation_change(
            path, old.returns, new.returns, bases_of, parameter=False, prepare=prepare
        )
    )
    return changes


def _pair_by_name(sides: _Sides) -> _Pairing:
    """Parameters kept by name, and ``*args`` and ``**kwargs`` matched by kind: callers
    never type their names, so ``**attrs`` -> ``**kwargs`` is no change (click 7 -> 8)."""
    old_names, new_names = sides.old_names, sides.new_names
    pairing = _Pairing(
        [(old_names[name], new_names[name]) for name in old_names if name in new_names]
    )
    for variadic in _VARIADICS:
        before_var = next((p for p in sides.old.parameters if p.kind is variadic), None)
        after_var = next((p for p in sides.new.parameters if p.kind is variadic), None)
        if (
            before_var is not None
            and after_var is not None
            and before_var.name != after_var.name
            and before_var.name not in new_names
            and after_var.name not in old_names
        ):
            pairing.renamed_old.add(before_var.name)
            pairing.renamed_new.add(after_var.name)
            pairing.pairs.append((before_var, after_var))
    return pairing


def _aliases(sides: _Sides, pairing: _Pairing) -> list[Change]:
    """A positional parameter that stays as a keyword-only alias while a new name takes its
    position (``f(old)`` -> ``f(new=None, *, old=None)``): one rename, old calls bind."""
    changes: list[Change] = []
    new_pos = sides.new_pos
    for index, parameter in enumerate(sides.old_pos):
        survivor = sides.new_names.get(parameter.name)
        if (
            parameter.kind is ParamKind.POSITIONAL_OR_KEYWORD
            and survivor is not None
            and not survivor.kind.is_positional
            and index < len(new_pos)
            and new_pos[index].name not in sides.old_names
            and new_pos[index].name not in pairing.renamed_new
            and not new_pos[index].required  # else keyword calls leave it unfilled
            and sides.calls.parameter_breaking_call(parameter.name) is None
        ):
            candidate = new_pos[index]
            pairing.aliased.add(parameter.name)
            pairing.renamed_new.add(candidate.name)
            changes.append(
                Change(
                    sides.at(parameter.name),
                    K.PARAMETER_RENAMED_KEEPING_OLD_NAME,
                    parameter.name,
                    candidate.name,
                )
            )
    return changes


def _weak_names(sides: _Sides) -> set[str]:
    """Names kept only by a variadic (``a`` -> ``*a``), or positional-only names (callers
    never typed them) now naming a parameter that is not positional: a weaker tie than the
    position a new name took, ``(a, /)`` -> ``(b, /, *a)`` renamed ``a`` to ``b``."""
    old_names, new_names = sides.old_names, sides.new_names
    return {
        name
        for name in old_names
        if name in new_names
        and (
            (old_names[name].kind in _VARIADICS) != (new_names[name].kind in _VARIADICS)
            or (
                old_names[name].kind is ParamKind.POSITIONAL_ONLY
                and not new_names[name].kind.is_positional
            )
        )
    }


def _positional_renames(sides: _Sides, pairing: _Pairing) -> list[Change]:
    """A positional parameter whose position a new name took: renamed when the evidence
    agrees (:func:`_rename_agrees`), else removed + added, the new one named as a guess
    when nothing contradicts it."""
    changes: list[Change] = []
    weak = _weak_names(sides)
    new_pos = sides.new_pos
    for index, parameter in enumerate(sides.old_pos):
        if (parameter.name in sides.new_names and parameter.name not in weak) or index >= len(
            new_pos
        ):
            continue
        candidate = new_pos[index]
        if candidate.name in sides.old_names or candidate.name in pairing.renamed_new:
            continue
        if not _rename_agrees(parameter, candidate, sides.calls):
            # Removed + added; a successor nothing contradicts is named as a guess.
            if _may_succeed(parameter, candidate):
                pairing.guesses[parameter.name] = candidate.name
            continue
        if parameter.name in weak:
            pairing.dropped_weak.add(parameter.name)
            pairing.pairs.remove((parameter, sides.new_names[parameter.name]))
        pairing.renamed_old.add(parameter.name)
        pairing.renamed_new.add(candidate.name)
        pairing.pairs.append((parameter, candidate))
        kind = _rename_kind(parameter, candidate, sides.calls)
        changes.append(Change(sides.at(parameter.name), kind, parameter.name, candidate.name))
    return changes


def _keyword_rename(sides: _Sides, pairing: _Pairing) -> list[Change]:
    """The only keyword removed and the only one added stand in for a position; alike in a
    written default or annotation, or the same words respelled, they are one parameter
    renamed. Alike only in having neither (``*, key`` -> ``*, name``), the successor is a
    guess."""
    removed_keywords = [
        p
        for p in sides.old.parameters
        if p.kind is ParamKind.KEYWORD_ONLY and p.name not in sides.new_names
    ]
    added_keywords = [
        p
        for p in sides.new.parameters
        if p.kind is ParamKind.KEYWORD_ONLY and p.name not in sides.old_names
    ]
    if len(removed_keywords) != 1 or len(added_keywords) != 1:
        return []
    before, after = removed_keywords[0], added_keywords[0]
    same = before.annotation == after.annotation and before.default == after.default
    respelled = _respelled(before.name, after.name)
    evident = before.default is not None or bool(before.annotation) or respelled
    if same and not evident and not _keyword_still_accepted(before, after, sides.calls):
        pairing.guesses[before.name] = after.name
    elif same or respelled:
        pairing.renamed_old.add(before.name)
        pairing.renamed_new.add(after.name)
        pairing.pairs.append((before, after))
        kind = _rename_kind(before, after, sides.calls)
        return [Change(sides.at(before.name), kind, before.name, after.name)]
    return []


def _removals(sides: _Sides, pairing: _Pairing) -> list[Change]:
    """The old parameters neither kept nor renamed: absorbed when every call still binds
    (a variadic takes them), else removed."""
    changes: list[Change] = []
    for parameter in sides.old.parameters:
        if parameter.name in sides.new_names or parameter.name in pairing.renamed_old:
            continue
        where = sides.at(parameter.name)
        if sides.calls.parameter_breaking_call(parameter.name) is None:
            if private_parameter(parameter):
                continue  # outside the contract, and no call users write changed
            absorbers = _absorbers(parameter, sides.new)
            changes.append(Change(where, K.PARAMETER_ABSORBED, parameter.name, absorbers))
        elif parameter.kind is ParamKind.VAR_POSITIONAL:
            changes.append(Change(where, K.VAR_POSITIONAL_REMOVED, parameter.name))
        elif parameter.kind is ParamKind.VAR_KEYWORD:
            changes.append(Change(where, K.VAR_KEYWORD_REMOVED, parameter.name))
        else:
            guess = pairing.guesses.get(parameter.name)
            changes.append(Change(where, K.PARAMETER_REMOVED, parameter.name, guess))
            if guess is not None:
                pairing.guessed.add(guess)
    return changes


def _additions(
    sides: _Sides, pairing: _Pairing, from_fields: bool
) -> tuple[list[Change], list[tuple[int, str]]]:
    """The new parameters neither kept nor renamed, and the (position from 1, name) of the
    optional ones inserted where they shift positional calls (reported by
    :func:`_order_changes`, one entry per callable)."""
    changes: list[Change] = []
    inserted: list[tuple[int, str]] = []
    shifting = _shifting(sides, pairing)
    for parameter in sides.new.parameters:
        if (parameter.name in sides.old_names and parameter.name not in pairing.dropped_weak) or (
            parameter.name in pairing.renamed_new
        ):
            continue
        where = sides.at(parameter.name)
        if parameter.kind is ParamKind.VAR_POSITIONAL:
            changes.append(Change(where, K.VAR_POSITIONAL_ADDED, None, parameter.name))
        elif parameter.kind is ParamKind.VAR_KEYWORD:
            changes.append(Change(where, K.VAR_KEYWORD_ADDED, None, parameter.name))
        elif parameter.required:
            if parameter.name in pairing.guessed:
                # The guessed successor of a required parameter: every old call filled that
                # one, by position (still does) or by name (the removal breaks it).
                continue
            kind = K.FIELD_ADDED_REQUIRED if from_fields else K.PARAMETER_ADDED_REQUIRED
            changes.append(Change(where, kind, None, parameter.name))
        elif (at := shifting(parameter)) is not None:
            inserted.append((at + 1, parameter.name))
        elif not private_parameter(parameter):  # else outside the contract (POLICY.md 2.1)
            kind = K.FIELD_ADDED_OPTIONAL if from_fields else K.PARAMETER_ADDED_OPTIONAL
            changes.append(Change(where, kind, None, parameter.default))
    return changes, inserted


def _shifting(sides: _Sides, pairing: _Pairing) -> Callable[[Parameter], int | None]:
    """The position (from 0) of a new optional parameter when it takes the values callers
    passed at its position, because something took them before: a positional parameter, or
    ``*args`` (kept; a private one split off ``*args`` only takes its first values, by
    design). ``None`` when it shifts nothing."""
    common_positional = {
        after.name for before, after in pairing.pairs if before.kind.is_positional
    } | pairing.renamed_new
    old_takes_more = any(p.kind is ParamKind.VAR_POSITIONAL for p in sides.old.parameters) and any(
        p.kind is ParamKind.VAR_POSITIONAL for p in sides.new.parameters
    )
    old_pos, new_pos = sides.old_pos, sides.new_pos

    def position(parameter: Parameter) -> int | None:
        at = new_pos.index(parameter) if parameter.kind.is_positional else -1
        shifts = at >= 0 and (
            any(p.name in common_positional for p in new_pos[at + 1 :])
            or (old_takes_more and not parameter.name.startswith("_"))
            # It takes the position of an old parameter it is not (a rename the
            # evidence did not confirm): positional callers now fill it.
            or (at < len(old_pos) and not private_parameter(old_pos[at]))
        )
        return at if shifts else None

    return position


def _pair_changes(
    sides: _Sides,
    pairing: _Pairing,
    before: Parameter,
    after: Parameter,
    *,
    bases_of: object,
    prepare: Callable[[str, str], tuple[str, str]] | None,
) -> list[Change]:
    """The facts of one parameter on both sides: its kind, default and annotation."""
    if (
        private_parameter(before)
        and private_parameter(after)
        and sides.calls.parameter_breaking_call(before.name) is None
    ):
        return []  # outside the contract, and every call users write still reaches it
    where = sides.at(before.name)
    changes: list[Change] = []
    kind_change = _kind_change(before.kind, after.kind)
    if kind_change is K.PARAMETER_KIND_NARROWED and (
        before.name in pairing.aliased or sides.calls.parameter_breaking_call(before.name) is None
    ):
        # Every call passing it still reaches it: not narrowed for callers. Kept by
        # name, it went into a variadic (``*, x`` -> ``**x``), a widening; renamed, or
        # kept as an alias, the rename (keeping the old name) is the fact.
        renamed = before.name in pairing.aliased or before.name != after.name
        kind_change = None if renamed else K.PARAMETER_KIND_WIDENED
    if kind_change is not None:
        changes.append(Change(where, kind_change, before.kind.value, after.kind.value))
    if private_parameter(before) and private_parameter(after):
        return changes  # its default and type are internal: callers do not pass it
    default_change = _default_change(where, before, after)
    if default_change is not None:
        changes.append(default_change)
    changes += annotation_change(
        where, before.annotation, after.annotation, bases_of, parameter=True, prepare=prepare
    )
    return changes


def _default_change(where: str, before: Parameter, after: Parameter) -> Change | None:
    """A default removed, added or changed (as a value, :func:`_same_default`)."""
    if after.kind in _VARIADICS:
        return None  # a variadic has no default: absorbing the parameter dropped it
    if before.default is not None and after.default is None:
        return Change(where, K.PARAMETER_DEFAULT_REMOVED, before.default, None)
    if before.default is None and after.default is not None:
        return Change(where, K.PARAMETER_DEFAULT_ADDED, None, after.default)
    if before.default is not None and not _same_default(before.default, after.default):
        return Change(where, K.PARAMETER_DEFAULT_CHANGED, before.default, after.default)
    return None


def _order_changes(
    sides: _Sides, pairing: _Pairing, inserted: list[tuple[int, str]]
) -> list[Change]:
    """Order among positional parameters present on both sides (shifts from insertions and
    removals are not moves: the relative order is what callers depend on), and among
    keyword-only ones. Positions printed are the real ones: counted from 1 in the signature
    as written, without ``self``/``cls``."""
    changes: list[Change] = []
    new_of = {before.name: after.name for before, after in pairing.pairs}
    new_pos_names = [p.name for p in sides.new_pos]
    old_order = [new_of[p.name] for p in sides.old_pos if new_of.get(p.name) in new_pos_names]
    new_order = [name for name in new_pos_names if name in set(old_order)]
    shift = _shift(
        sides.path,
        sides.old_pos,
        new_pos_names,
        new_of,
        inserted,
        reordered=old_order != new_order,
    )
    if shift is not None:
        changes.append(shift)
    new_keyword_names = {p.name for p in sides.new.parameters if p.kind is ParamKind.KEYWORD_ONLY}
    old_keywords = [
        new_of[p.name]
        for p in sides.old.parameters
        if p.kind is ParamKind.KEYWORD_ONLY and new_of.get(p.name) in new_keyword_names
    ]
    new_keywords = [p.name for p in sides.new.parameters if p.name in set(old_keywords)]
    if old_keywords != new_keywords:
        changes.append(
            Change(
                sides.path,
                K.KEYWORD_ONLY_PARAMETERS_REORDERED,
                ", ".join(old_keywords),
                ", ".join(new_keywords),
            )
        )
    return changes


def _incompatible(sides: _Sides) -> list[Change]:
    """A call the binding model finds broken, when no breaking fact explains it."""
    witness = sides.calls.breaking_call()
    if witness is None:
        return []
    path = sides.path
    # A constructor is called through its class: ``Client(_, x=_)``.
    callee = last_name(parent_path(path)) if last_name(path) == "__init__" else last_name(path)
    text = witness.text(callee) if sides.calls.exact else f"{callee}(...) (calls not checked)"
    return [Change(path, K.SIGNATURE_INCOMPATIBLE, None, text)]


def _rename_agrees(before: Parameter, after: Parameter, calls: Comparison) -> bool:
    """Whether the evidence confirms that ``after``, which took the position of ``before``,
    is ``before`` renamed: callers never typed the old name (positional-only or private),
    the old name is still accepted (an alias, ``**kwargs``), the new name is the same words
    respelled (``tagStr`` -> ``tag_str``), or the two agree on a written default value or a
    written annotation. Otherwise a different parameter took the position (``strip=False``
    -> ``attrs=set()``): removed + added."""
    if before.kind is ParamKind.POSITIONAL_ONLY or before.name.startswith("_"):
        return True
    if _keyword_still_accepted(before, after, calls):
        return True
    if _respelled(before.name, after.name):
        return True  # the same words: ``tagStr`` -> ``tag_str``
    same_default = before.default is not None and _same_default(before.default, after.default)
    return same_default or (bool(before.annotation) and before.annotation == after.annotation)


def _respelled(old: str, new: str) -> bool:
    """Whether two names are the same words spelled another way (case, underscores)."""
    return old.replace("_", "").lower() == new.replace("_", "").lower()


def _keyword_still_accepted(before: Parameter, after: Parameter, calls: Comparison) -> bool:
    """Whether every call passing ``before`` still reaches ``after`` (an alias or
    ``**kwargs`` takes the old keyword)."""
    return not after.required and calls.parameter_breaking_call(before.name) is None


def _may_succeed(before: Parameter, after: Parameter) -> bool:
    """Whether nothing contradicts ``after`` (at ``before``'s position) being ``before``
    renamed: both required, and no two different written annotations."""
    if before.default is not None or after.default is not None:
        return False
    return not (before.annotation and after.annotation and before.annotation != after.annotation)


def _shift(
    path: str,
    old_pos: list[Parameter],
    new_pos_names: list[str],
    new_of: dict[str, str],
    inserted: list[tuple[int, str]],
    *,
    reordered: bool,
) -> Change | None:
    """One entry for everything that makes positional calls bind differently: parameters
    inserted before existing positional ones and positional parameters reordered. It names
    every parameter whose position moved (``mode inserted at 2, dst 2 -> 3``) and sits at
    the parameter of the first position that changed: ``parameter_inserted`` when that is
    an inserted one, ``parameter_moved`` otherwise."""
    if not inserted and not reordered:
        return None
    facts: list[tuple[int, str, str, ChangeKind]] = [
        (at, f"{name} inserted at {at}", name, K.PARAMETER_INSERTED) for at, name in inserted
    ]
    for before_at, parameter in enumerate(old_pos, start=1):
        after = new_of.get(parameter.name)
        if after is None or after not in new_pos_names:
            continue
        after_at = new_pos_names.index(after) + 1
        if after_at != before_at:
            named = parameter.name if after == parameter.name else f"{parameter.name} ({after})"
            facts.append(
                (before_at, f"{named} {before_at} -> {after_at}", parameter.name, K.PARAMETER_MOVED)
            )
    if not inserted and not any(kind is K.PARAMETER_MOVED for *_, kind in facts):
        return None  # others moved around them; each still takes the same argument
    facts.sort(key=lambda fact: (fact[0], fact[3] is not K.PARAMETER_INSERTED))
    _, _, name, kind = facts[0]
    if kind is K.PARAMETER_MOVED and not reordered:
        # Positions moved only by the insertions: the insertion is the fact.
        _, _, name, kind = next(fact for fact in facts if fact[3] is K.PARAMETER_INSERTED)
    ordered = sorted(facts, key=lambda fact: fact[0])
    moved = "; ".join(
        ", ".join(text for _, text, _, fact_kind in ordered if fact_kind is wanted)
        for wanted in (K.PARAMETER_INSERTED, K.PARAMETER_MOVED)
        if any(fact[3] is wanted for fact in ordered)
    )
    return Change(f"{path}({name})", kind, None, moved)


def _rename_kind(before: Parameter, after: Parameter, calls: Comparison) -> ChangeKind:
    """How a parameter renamed in place is reported: freely when callers pass it by
    position only (positional-only, or a private name nobody passes by keyword), keeping
    the old name when keyword calls still bind (an alias or ``**kwargs`` takes them)."""
    if (before.kind is ParamKind.POSITIONAL_ONLY and after.kind.is_positional) or (
        before.name.startswith("_") and after.kind.is_positional
    ):
        return K.POSITIONAL_ONLY_PARAMETER_RENAMED
    if not after.required and calls.parameter_breaking_call(before.name) is None:
        # (A required new name would be missing from calls using the old keyword.)
        return K.PARAMETER_RENAMED_KEEPING_OLD_NAME
    return K.PARAMETER_RENAMED


def _absorbers(parameter: Parameter, new: Signature) -> str:
    """The variadic parameters of ``new`` that now take what callers passed as
    ``parameter``: ``*args`` for its positions, ``**kwargs`` for its name."""
    takes_positions = parameter.kind.is_positional or parameter.kind is ParamKind.VAR_POSITIONAL
    takes_names = parameter.kind.is_keyword or parameter.kind is ParamKind.VAR_KEYWORD
    spelled = []
    for kind, prefix, used in (
        (ParamKind.VAR_POSITIONAL, "*", takes_positions),
        (ParamKind.VAR_KEYWORD, "**", takes_names),
    ):
        variadic = next((p for p in new.parameters if p.kind is kind), None)
        if used and variadic is not None:
            spelled.append(prefix + variadic.name)
    return ", ".join(spelled)


# The mutable-default idiom: an empty container default replaced by ``None`` (and created
# in the body) changes nothing for callers.
_EMPTY_CONTAINERS = frozenset(
    {"[]", "{}", "()", "set()", "list()", "dict()", "tuple()", "frozenset()"}
)


def _same_default(old: str, new: str | None) -> bool:
    """Whether two defaults, as source text, are the same value: literals are compared as
    values (``'.'`` = ``"."``, ``1_000`` = ``1000``; ``1`` is not ``1.0`` or ``True``)."""
    if new is None or old == new:
        return old == new
    if new == "None" and old.replace(" ", "") in _EMPTY_CONTAINERS:
        return True
    try:
        before, after = ast.literal_eval(old), ast.literal_eval(new)
        # repr of an int of more than 4,300 digits raises ValueError, as literal_eval may.
        return _canonical(before) == _canonical(after)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False


def _canonical(value: object) -> object:
    """A literal value as a comparable key that keeps its type (``1`` != ``True``)."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_canonical(item) for item in value))
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, tuple(sorted(repr(_canonical(item)) for item in value)))
    if isinstance(value, dict):
        items = sorted((repr(_canonical(k)), repr(_canonical(v))) for k, v in value.items())
        return ("dict", tuple(items))
    if type(value) is int:
        return ("int", value)  # by value: repr refuses more than 4,300 digits
    return (type(value).__name__, repr(value))
