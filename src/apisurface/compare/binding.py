"""Call binding: which calls a signature accepts, and whether a new signature still
accepts every call an old one accepted, each argument reaching the same parameter.

A call is described by what binding depends on: how many arguments it passes by position
and which keyword names it uses (values do not matter). :func:`bind` places each argument
as the interpreter does: in a named parameter, in ``*args`` (:data:`ARGS`) or in
``**kwargs`` (:data:`KWARGS`), or nowhere (``None``: the call fails).

An old call still works on the new signature when it binds there and every argument lands
in the *successor* of the parameter it reached before:

- by keyword ``w``: the parameter named ``w``, or a new ``**kwargs`` when no parameter is
  named ``w`` any more (absorbed); a ``**kwargs`` value named like a parameter the new
  signature adds is promoted to it and not judged (what the old ``**kwargs`` did with it
  is unknown), even when it now collides with a positional value;
- by position: the parameter of the same name when it is still positional; otherwise the
  parameter now at that position if its name is new (renamed in place: positional callers
  do not see names), or a new ``*args`` when the name is gone (absorbed); a value that
  went to ``*args`` must still go there, or to a new private parameter split off it
  (``*clauses`` -> ``__first, *clauses``).

Only a *new* variadic absorbs a parameter: one the old signature already had collects
other values (typically passed on to another callable), so a parameter removed into it
(``dump(obj, app=None, **kwargs)`` -> ``dump(obj, **kwargs)``) is a removal. The exception
is a tail replaced by a new ``*args`` beside ``**kwargs``: a parameter whose positions the
new ``*args`` takes is absorbed by name into ``**kwargs`` too, old or new
(``cat_ranges(paths, max_gap=None, **kw)`` -> ``cat_ranges(paths, *args, **kwargs)``, a
wrapper passing the whole tail on together).

A positional argument reaching another existing parameter (parameters reordered, or an
optional one inserted before it) changes the meaning of the call even though it binds,
so it counts as broken. Keywords starting with ``_`` are not calls users write, so they
are not considered; nor is a call whose last positional argument fills an optional private
parameter (named ``_x``, not the ``__x`` positional-only convention): passing it is using
private API (POLICY.md 2.1). A call reaching a public parameter *after* a private one still
counts (the private one occupies a position), and so does one filling a required private
parameter (``__sub__(self, _)``: every call passes it).

Only pure data from :mod:`apisurface.model`; nothing here knows about changes or levels.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Iterator
from dataclasses import dataclass

from apisurface.model import Parameter, ParamKind, Signature

__all__ = [
    "ARGS",
    "CONSTRUCTORLESS_BASES",
    "KWARGS",
    "Binding",
    "Call",
    "Comparison",
    "bind",
    "builtin_constructor",
    "private_parameter",
    "type_arguments_refused",
]

ARGS = "*"
"""Where an argument collected by ``*args`` lands."""
KWARGS = "**"
"""Where an argument collected by ``**kwargs`` lands."""

_VARIADIC = (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD)


@dataclass(frozen=True, slots=True, order=True)
class Call:
    """A call shape: ``positional`` arguments by position, then these keyword names."""

    positional: int
    keywords: tuple[str, ...] = ()

    def text(self, name: str = "f") -> str:
        """The call as code, values elided: ``f(_, _, x=_)``."""
        parts = ["_"] * self.positional + [f"{keyword}=_" for keyword in self.keywords]
        return f"{name}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class Binding:
    """Where each argument of a call lands (``None``: rejected) and which required
    parameters the call leaves unfilled."""

    positional: tuple[str | None, ...]
    keywords: tuple[tuple[str, str | None], ...]
    missing: tuple[str, ...]

    @property
    def binds(self) -> bool:
        """Whether the call succeeds."""
        return (
            not self.missing
            and None not in self.positional
            and all(where is not None for _, where in self.keywords)
        )


def bind(signature: Signature, call: Call) -> Binding:
    """Bind ``call`` to ``signature`` as the interpreter does."""
    positional_names, var_positional, var_keyword, by_keyword, required = _layout(signature)
    filled: set[str] = set()
    positional: list[str | None] = []
    for index in range(call.positional):
        if index < len(positional_names):
            name = positional_names[index]
            positional.append(name)
            filled.add(name)
        else:
            positional.append(ARGS if var_positional else None)
    keywords: list[tuple[str, str | None]] = []
    for keyword in call.keywords:
        where: str | None
        if keyword in by_keyword:
            # Already filled by position: "got multiple values", even with **kwargs.
            where = None if keyword in filled else keyword
            filled.add(keyword)
        else:
            # Unknown names, and names of positional-only parameters, go to **kwargs.
            where = KWARGS if var_keyword else None
        keywords.append((keyword, where))
    missing = tuple(name for name in required if name not in filled)
    return Binding(tuple(positional), tuple(keywords), missing)


_Layout = tuple[tuple[str, ...], bool, bool, frozenset[str], tuple[str, ...]]
"""Positional names, ``*args``?, ``**kwargs``?, names accepted by keyword, required names."""


@functools.lru_cache(maxsize=256)
def _layout(signature: Signature) -> _Layout:
    """What binding needs of a signature: positional names, ``*args``?, ``**kwargs``?,
    names accepted by keyword, required names (computed once per signature)."""
    parameters = signature.parameters
    return (
        tuple(p.name for p in parameters if p.kind.is_positional),
        any(p.kind is ParamKind.VAR_POSITIONAL for p in parameters),
        any(p.kind is ParamKind.VAR_KEYWORD for p in parameters),
        frozenset(p.name for p in parameters if p.kind.is_keyword),
        tuple(p.name for p in parameters if p.required),
    )


def _named(signature: Signature) -> dict[str, Parameter]:
    return {p.name: p for p in signature.parameters if p.kind not in _VARIADIC}


MAX_CALLS = 1_000_000
"""The most representative calls one comparison enumerates (about ``2 * P**2`` for ``P``
parameters: some 700 parameters in all). Beyond it :attr:`Comparison.exact` is false: the
answers are the conservative ones and callers report what they infer as inferred."""


def comparison_work(old: Signature, new: Signature) -> int:
    """How many representative calls :class:`Comparison` enumerates for ``old`` -> ``new``
    (each is judged in constant time: the work is linear in this number)."""
    positional = max(
        sum(p.kind.is_positional for p in old.parameters),
        sum(p.kind.is_positional for p in new.parameters),
    )
    return (positional + 2) * (len(old.parameters) + len(new.parameters) + 2)


class _Scan:
    """What the representative calls found: the first breaking call, and for each place an
    argument reached on OLD (a parameter name, :data:`ARGS`, :data:`KWARGS`) the first call
    whose argument there NEW rejects or sends elsewhere."""

    __slots__ = ("breaking", "by_place")

    def __init__(self) -> None:
        self.breaking: Call | None = None
        self.by_place: dict[str, Call] = {}


class Comparison:
    """OLD and NEW compared by the calls OLD accepts (see the module docstring).

    Every call OLD accepts behaves, for the questions asked here, like one of a finite
    set: at most one more positional argument than either signature has parameters for,
    the keywords OLD requires at that count, plus at most one further keyword (a name
    of either signature, or one unknown to both). Where an argument lands depends only
    on the positional count and its own position or name, and a missing required
    parameter only gets likelier with fewer keywords, so this set finds a broken call
    whenever one exists.

    The set is scanned once, in quadratic time: per positional count, the arguments every
    call of that count shares are placed and judged once, then each further keyword on its
    own (where it lands depends on nothing else). Beyond :data:`MAX_CALLS` nothing is
    scanned and :attr:`exact` is false: then no call is known to still work (every question
    answers "broken"), and the caller reports the result as inferred.
    """

    def __init__(self, old: Signature, new: Signature) -> None:
        self.old = old
        self.new = new
        self._old_named = _named(old)
        self._old_names = {p.name for p in old.parameters}
        self._new_named = _named(new)
        self._new_positional = {p.name for p in new.parameters if p.kind.is_positional}
        old_kinds = {p.kind for p in old.parameters}
        self._had_args = ParamKind.VAR_POSITIONAL in old_kinds
        self._had_kwargs = ParamKind.VAR_KEYWORD in old_kinds
        # A new ``*args`` beside ``**kwargs``: the pair takes the whole tail and passes it on.
        self._forwards_tail = not self._had_args and any(
            p.kind is ParamKind.VAR_POSITIONAL for p in new.parameters
        )
        self._scanned: _Scan | None = None
        # Same names, kinds and required parameters in the same order: every call binds
        # alike (annotations and default values do not take part in binding).
        self._same_shape = _shape(old) == _shape(new)
        self.exact = self._same_shape or comparison_work(old, new) <= MAX_CALLS
        """Whether the answers are exact (else conservative: see the class docstring)."""

    def _names(self) -> list[str]:
        names = sorted(
            {p.name for p in (*self.old.parameters, *self.new.parameters)}
            | {_fresh(self._old_names | {p.name for p in self.new.parameters})}
        )
        return [name for name in names if not name.startswith("_")]

    def _counts(self) -> Iterator[tuple[int, tuple[str, ...]]]:
        """Each positional count with the keywords OLD requires at it (sorted)."""
        old_positional = [p for p in self.old.parameters if p.kind.is_positional]
        new_positional = [p for p in self.new.parameters if p.kind.is_positional]
        for count in range(max(len(old_positional), len(new_positional)) + 2):
            filled = {p.name for p in old_positional[:count]}
            required = [p for p in self.old.parameters if p.required and p.name not in filled]
            if any(not p.kind.is_keyword or p.name.startswith("_") for p in required):
                continue  # a required positional-only parameter left unfilled
            yield count, tuple(sorted(p.name for p in required))

    def calls(self) -> Iterator[Call]:
        """The representative calls (see the class docstring), OLD-binding or not."""
        names = self._names()
        for count, base in self._counts():
            yield Call(count, base)
            for name in names:
                if name not in base:
                    yield Call(count, tuple(sorted((*base, name))))

    def _scan(self) -> _Scan:
        if self._scanned is None:
            scan = _Scan()
            if not self._same_shape and self.exact:
                old, new = _layout(self.old), _layout(self.new)
                names = self._names()
                for count, base in self._counts():
                    _scan_count(self, old, new, count=count, base=base, names=names, scan=scan)
            self._scanned = scan
        return self._scanned

    def _private_call(self, binding: Binding) -> bool:
        """Whether the call's last positional argument fills an optional private
        parameter of OLD (see the module docstring)."""
        if not binding.positional:
            return False
        return self._private_last(binding.positional[-1])

    def _private_last(self, where: str | None) -> bool:
        last = self._old_named.get(where or "")
        return last is not None and private_parameter(last)

    def breaking_call(self) -> Call | None:
        """A call OLD accepts that NEW rejects or binds differently; ``None`` when every
        call OLD accepts still works on NEW. Not :attr:`exact`: ``Call(0)`` unless the
        signatures have the same shape."""
        if not self.exact:
            return Call(0)
        return self._scan().breaking

    def promoted(self, keyword: str) -> bool:
        """Whether ``keyword``, which OLD can only pass on through ``**kwargs``, names a
        parameter new in NEW."""
        return keyword in self._new_named and keyword not in self._old_names

    def still_works(self, call: Call) -> bool:
        """Whether ``call``, which OLD accepts, binds to NEW with every argument in its
        successor."""
        after = bind(self.new, call)
        return not after.missing and self._preserved(bind(self.old, call), after, None)

    def parameter_breaking_call(self, name: str) -> Call | None:
        """A call OLD accepts whose argument for OLD's parameter ``name`` (a ``*args`` or
        ``**kwargs`` name: the arguments it collects) NEW rejects or sends elsewhere;
        ``None`` when all of them still reach its successor. Other parameters' troubles
        (a new required parameter) do not count here. Not :attr:`exact`: ``Call(0)``."""
        parameter = next((p for p in self.old.parameters if p.name == name), None)
        if parameter is None:
            return None
        if not self.exact:
            return Call(0)
        lands = {ParamKind.VAR_POSITIONAL: ARGS, ParamKind.VAR_KEYWORD: KWARGS}.get(
            parameter.kind, name
        )
        return self._scan().by_place.get(lands)

    def _preserved(self, before: Binding, after: Binding, only: str | None) -> bool:
        for index, (was, now) in enumerate(zip(before.positional, after.positional, strict=True)):
            if (only is None or was == only) and not self._positional_ok(index, was, now):
                return False
        for (keyword, was), (_, now) in zip(before.keywords, after.keywords, strict=True):
            if (only is None or was == only) and not self._keyword_ok(keyword, was, now):
                return False
        return True

    def _positional_ok(self, index: int, was: str | None, now: str | None) -> bool:
        del index  # where it lands already depends on the position
        if now is None or was is None:
            return False
        if was == ARGS:
            # Still collected, or split off into a new private parameter (``*clauses`` ->
            # ``__first, *clauses``): nobody names it, it only takes the first values.
            return now == ARGS or (now not in self._old_names and now.startswith("_"))
        if was in self._new_positional:
            return now == was
        if now == ARGS:
            # Absorbed by a new ``*args``, not shadowed by a survivor of its name. An
            # ``*args`` that was there already collects something else (values passed on).
            return not self._had_args and was not in self._new_named
        return now not in self._old_names  # renamed in place

    def _keyword_ok(self, keyword: str, was: str | None, now: str | None) -> bool:
        if was == KWARGS and self.promoted(keyword):
            # Named like a parameter NEW adds: promoted out of ``**kwargs``. What OLD's
            # ``**kwargs`` did with it is unknown, so no call is judged broken for it (not
            # even one that now also fills that parameter by position).
            return True
        if now is None or was is None:
            return False
        if was == KWARGS:
            return now == KWARGS
        if now == KWARGS:
            # Absorbed by a new ``**kwargs`` (an old one passes other options on), or by
            # an old one when a new ``*args`` takes the parameter's positions: the tail
            # became ``*args, **kwargs``, passed on together (a forwarding wrapper).
            absorbed = not self._had_kwargs or self._tail_absorbed(keyword)
            return absorbed and keyword not in self._new_named
        return now == keyword

    def _tail_absorbed(self, keyword: str) -> bool:
        """Whether OLD's parameter ``keyword`` took positions too, which NEW's new ``*args``
        now takes: its name then goes to ``**kwargs`` with the rest of the tail."""
        parameter = self._old_named.get(keyword)
        return (
            self._forwards_tail
            and parameter is not None
            and parameter.kind is ParamKind.POSITIONAL_OR_KEYWORD
        )


def _keyword_place(layout: _Layout, keyword: str, by_position: set[str]) -> str | None:
    """Where ``keyword`` lands in a call whose positional arguments filled ``by_position``
    (as :func:`bind` places it: a keyword's place depends on nothing else)."""
    _, _, var_keyword, by_keyword, _ = layout
    if keyword in by_keyword:
        return None if keyword in by_position else keyword
    return KWARGS if var_keyword else None


def _scan_count(
    comparison: Comparison,
    old: _Layout,
    new: _Layout,
    *,
    count: int,
    base: tuple[str, ...],
    names: list[str],
    scan: _Scan,
) -> None:
    """Judge the representative calls with ``count`` positional arguments: ``base`` (the
    keywords OLD requires), then ``base`` plus each of ``names`` in turn, recording the
    first breaking call and the first call breaking each place in ``scan``."""
    old_positional, old_args = old[0], old[1]
    new_positional, new_args = new[0], new[1]
    places_old = [
        old_positional[i] if i < len(old_positional) else (ARGS if old_args else None)
        for i in range(count)
    ]
    if None in places_old or (places_old and comparison._private_last(places_old[-1])):
        return  # OLD rejects every call of this count, or it passes private API
    places_new = [
        new_positional[i] if i < len(new_positional) else (ARGS if new_args else None)
        for i in range(count)
    ]
    filled_old = set(old_positional[:count])
    filled_new = set(new_positional[:count])
    broken: list[str] = []
    for index, (was, now) in enumerate(zip(places_old, places_new, strict=True)):
        if not comparison._positional_ok(index, was, now):
            broken.append(was)  # type: ignore[arg-type]  # never None here
    for keyword in base:
        was = _keyword_place(old, keyword, filled_old)
        if was is None:
            return  # every call of this count is rejected by OLD
        if not comparison._keyword_ok(keyword, was, _keyword_place(new, keyword, filled_new)):
            broken.append(was)
    base_set = set(base)
    new_by_keyword = new[3]
    missing = [
        name
        for name in new[4]
        if name not in filled_new and not (name in base_set and name in new_by_keyword)
    ]
    call = Call(count, base)
    for place in broken:
        scan.by_place.setdefault(place, call)
    if scan.breaking is None and (missing or broken):
        scan.breaking = call
    # Each further keyword: the base's broken places were recorded at the base call, which
    # comes first; only this keyword's own place, or a breaking call, is new. A Call is
    # built only when it is recorded (at most once per place).
    for name in names:
        if name in base_set:
            continue
        was = _keyword_place(old, name, filled_old)
        if was is None:
            continue  # OLD rejects this call
        kept = comparison._keyword_ok(name, was, _keyword_place(new, name, filled_new))
        if kept and (scan.breaking is not None or not missing):
            continue
        still_missing = bool(missing) and (
            len(missing) > 1 or missing[0] != name or name not in new_by_keyword
        )
        new_place = not kept and was not in scan.by_place
        breaks = scan.breaking is None and (still_missing or not kept)
        if new_place or breaks:
            extended = Call(count, tuple(sorted((*base, name))))
            if new_place:
                scan.by_place[was] = extended
            if breaks:
                scan.breaking = extended


def private_parameter(parameter: Parameter) -> bool:
    """Whether ``parameter`` is outside the contract: optional and named ``_x`` (POLICY.md
    2.1). A leading ``__`` is the positional-only convention (PEP 484), not privacy, and a
    required parameter is passed by every call, whatever its name."""
    name = parameter.name
    return name.startswith("_") and not name.startswith("__") and not parameter.required


def _shape(signature: Signature) -> tuple[tuple[str, ParamKind, bool], ...]:
    return tuple((p.name, p.kind, p.required) for p in signature.parameters)


def _fresh(taken: set[str]) -> str:
    """A keyword name neither signature uses."""
    index = 0
    while f"other{index}" in taken:
        index += 1
    return f"other{index}"


# --- constructors inherited from outside the package -------------------------------------

_P = ParamKind


def _signature(*parameters: tuple[str, ParamKind, str | None]) -> Signature:
    return Signature(tuple(Parameter(name, kind, default) for name, kind, default in parameters))


_ITERABLE = _signature(("iterable", _P.POSITIONAL_ONLY, "()"))
_TEXT = _signature(
    ("object", _P.POSITIONAL_OR_KEYWORD, "''"),
    ("encoding", _P.POSITIONAL_OR_KEYWORD, "'utf-8'"),
    ("errors", _P.POSITIONAL_OR_KEYWORD, "'strict'"),
)
_EXCEPTION = _signature(("args", _P.VAR_POSITIONAL, None))

_BUILTIN_CONSTRUCTORS: dict[str, Signature] = {
    "object": Signature(),
    "dict": _signature(("iterable", _P.POSITIONAL_ONLY, "()"), ("kwargs", _P.VAR_KEYWORD, None)),
    "list": _ITERABLE,
    "tuple": _ITERABLE,
    "set": _ITERABLE,
    "frozenset": _ITERABLE,
    "str": _TEXT,
    "bytes": _signature(
        ("source", _P.POSITIONAL_OR_KEYWORD, "b''"),
        ("encoding", _P.POSITIONAL_OR_KEYWORD, "'utf-8'"),
        ("errors", _P.POSITIONAL_OR_KEYWORD, "'strict'"),
    ),
    "int": _signature(("x", _P.POSITIONAL_ONLY, "0"), ("base", _P.POSITIONAL_OR_KEYWORD, "10")),
    "float": _signature(("x", _P.POSITIONAL_ONLY, "0.0")),
    "BaseException": _EXCEPTION,
    "ImportError": _signature(
        ("args", _P.VAR_POSITIONAL, None),
        ("name", _P.KEYWORD_ONLY, "None"),
        ("path", _P.KEYWORD_ONLY, "None"),
    ),
    "NameError": _signature(("args", _P.VAR_POSITIONAL, None), ("name", _P.KEYWORD_ONLY, "None")),
    "AttributeError": _signature(
        ("args", _P.VAR_POSITIONAL, None),
        ("name", _P.KEYWORD_ONLY, "None"),
        ("obj", _P.KEYWORD_ONLY, "None"),
    ),
}
"""Constructors of builtin classes a package's class may inherit, as callers see them
(``dict(iterable=(), /, **kwargs)``). Exceptions not listed take the constructor of the
nearest listed builtin exception they derive from (``Exception(*args)``); the Unicode
errors and exception groups, which require specific arguments, are left unknown."""

_UNKNOWN_EXCEPTIONS = frozenset(
    {
        "UnicodeError",
        "UnicodeDecodeError",
        "UnicodeEncodeError",
        "UnicodeTranslateError",
        "BaseExceptionGroup",
        "ExceptionGroup",
    }
)

# Bases that add no constructor of their own (``object``'s applies).
CONSTRUCTORLESS_BASES = frozenset(
    {"object", "abc.ABC", "typing.Generic", "typing_extensions.Generic"}
)


def builtin_constructor(base: str) -> Signature | None:
    """The constructor a class inherits from the builtin ``base`` (spelled ``dict`` or
    ``builtins.dict``), or ``None`` when it is not a builtin this table knows."""
    name = base.removeprefix("builtins.")
    found = _BUILTIN_CONSTRUCTORS.get(name)
    if found is not None or name in _UNKNOWN_EXCEPTIONS:
        return found
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        for ancestor in cls.__mro__:
            if ancestor.__name__ in _UNKNOWN_EXCEPTIONS:
                return None
            if ancestor.__name__ in _BUILTIN_CONSTRUCTORS:
                return _BUILTIN_CONSTRUCTORS[ancestor.__name__]
    return None


def type_arguments_refused(old: tuple[str, ...], new: tuple[str, ...]) -> int | None:
    """A number of type arguments OLD's parameters took and NEW's do not (from 1: a bare
    class name always works), or None."""

    def accepted(params: tuple[str, ...], optional: tuple[str, ...]) -> range:
        required = sum(1 for name in params if not name.endswith(optional))
        return range(required, len(params) + 1)

    # Unknown defaults: OLD's taken as absent, NEW's as present (the narrowest OLD and the
    # widest NEW), so that a refusal found is sure.
    before, after = accepted(old, ("=",)), accepted(new, ("=", "?"))
    return next((count for count in before if count >= 1 and count not in after), None)
