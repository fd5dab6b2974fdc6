"""Each class's method resolution order, computed once (C3 over memoised results).

griffe recomputes a class's MRO from scratch on every ``Class.mro()`` call, recursing into
every base without memoising: a "ladder" of 20 levels (each class inheriting both classes
of the level below) takes more than two minutes, a chain of 250 classes 53 s. Here every
class's MRO is merged once from its bases' results, without recursion, and capped at
:data:`MAX_MRO` classes (far deeper than real code goes). Every class of the package gets
the result as its own ``mro()``, so griffe's dataclass support and its inherited members
use it too. What cannot be linearised (a cycle, an inconsistent order, too deep) has an
empty MRO and is recorded as a problem: the surface is then incomplete.
"""

from __future__ import annotations

from pathlib import Path

import griffe

from apisurface.model import Problem

__all__ = ["MAX_MRO", "class_mro", "linearize_package"]

MAX_MRO = 256
_KEY = "mro"
_FAILED = "mro_failed"


class _MroError(ValueError):
    """Raised by a class's ``mro()`` when its MRO could not be computed (griffe's own
    ``mro()`` raises ``ValueError`` then too)."""


def class_mro(cls: griffe.Class) -> list[griffe.Class]:
    """The classes ``cls`` inherits from, nearest first (``cls`` itself excluded); empty
    when they cannot be linearised. The list is shared: do not change it."""
    memo = cls.extra["apisurface"]
    if _KEY not in memo:
        _linearize(cls)
    return memo[_KEY]  # type: ignore[no-any-return]


def mro_failure(cls: griffe.Class) -> str | None:
    """Why ``cls`` has no MRO, or None when it has one."""
    class_mro(cls)
    return cls.extra["apisurface"].get(_FAILED)


def linearize_package(top: griffe.Module, problems: list[Problem]) -> None:
    """Compute the MRO of every class in the package, make it each class's ``mro()``, and
    record the classes whose MRO could not be computed as problems."""
    seen: set[int] = set()
    stack: list[griffe.Object] = [top]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, griffe.Class):
            _install(obj)
            failure = mro_failure(obj)
            if failure is not None:
                file, *related = _files(obj)
                problems.append(
                    Problem(
                        file,
                        f"{obj.path}: {failure}; its inherited members are unknown "
                        "and the surface is incomplete",
                        line=obj.lineno or 0,
                        path=obj.path,
                        related=tuple(sorted(set(related) - {file})),
                    )
                )
        for member in obj.members.values():
            if not member.is_alias and isinstance(member, (griffe.Module, griffe.Class)):
                stack.append(member)


def _files(cls: griffe.Class) -> list[str]:
    """The file of ``cls``, then the files of the classes it inherits from (as far as they
    resolve): what its MRO depends on."""
    found: list[str] = []
    seen: set[int] = set()
    pending = [cls]
    while pending and len(seen) <= MAX_MRO:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        filepath = current.filepath
        file = Path(filepath).as_posix() if isinstance(filepath, Path) else current.module.path
        if file not in found:
            found.append(file)
        pending.extend(_bases(current))
    return found


def _install(cls: griffe.Class) -> None:
    def mro() -> list[griffe.Class]:
        if mro_failure(cls) is not None:
            raise _MroError(mro_failure(cls))
        return list(class_mro(cls))

    # An instance attribute shadows the method: griffe's callers (inherited members, the
    # dataclass extension, ``Alias.mro``) all go through the public ``mro()``.
    cls.mro = mro  # type: ignore[method-assign]


def _bases(cls: griffe.Class) -> list[griffe.Class]:
    try:
        resolved = cls.resolved_bases
    except Exception:  # noqa: BLE001 - odd bases: treated as unresolvable, like griffe
        return []
    return [base for base in resolved if isinstance(base, griffe.Class)]


def _linearize(start: griffe.Class) -> None:
    """Fill the memo of ``start`` and of every class it inherits from, bases first."""
    in_progress: set[int] = set()
    stack: list[tuple[griffe.Class, bool]] = [(start, False)]
    while stack:
        cls, expanded = stack.pop()
        memo = cls.extra["apisurface"]
        if _KEY in memo:
            continue
        bases = _bases(cls)
        if not expanded:
            if id(cls) in in_progress:
                continue  # met again through another base before it finished: merged later
            in_progress.add(id(cls))
            stack.append((cls, True))
            stack.extend(
                (base, False) for base in reversed(bases) if _KEY not in base.extra["apisurface"]
            )
            continue
        in_progress.discard(id(cls))
        failure = None
        for base in bases:
            if _KEY not in base.extra["apisurface"]:
                failure = f"inherits from itself (through {base.path})"
            elif base.extra["apisurface"].get(_FAILED):
                failure = base.extra["apisurface"][_FAILED]
            if failure is not None:
                break
        mro: list[griffe.Class] = []
        if failure is None and bases:
            mro = _merge([[base, *base.extra["apisurface"][_KEY]] for base in bases] + [bases])
            if not mro:
                failure = "no consistent method resolution order (C3) for its bases"
            elif len(mro) > MAX_MRO:
                failure = f"inherits from more than {MAX_MRO} classes, not analysed"
        if failure is not None:
            memo[_FAILED] = failure
            mro = []
        memo[_KEY] = mro


def _merge(sequences: list[list[griffe.Class]]) -> list[griffe.Class]:
    """C3 merge in time linear in the total length (times the number of sequences); an
    empty list when the sequences admit no consistent order or the result would be longer
    than :data:`MAX_MRO` (the caller tells the two apart by the result's length)."""
    in_tails: dict[int, int] = {}
    for sequence in sequences:
        for item in sequence[1:]:
            in_tails[id(item)] = in_tails.get(id(item), 0) + 1
    heads = [0] * len(sequences)
    result: list[griffe.Class] = []
    while True:
        candidate = None
        pending = False
        for index, sequence in enumerate(sequences):
            if heads[index] < len(sequence):
                pending = True
                head = sequence[heads[index]]
                if not in_tails.get(id(head)):
                    candidate = head
                    break
        if not pending:
            return result
        if candidate is None:
            return []
        result.append(candidate)
        if len(result) > MAX_MRO:
            return result
        for index, sequence in enumerate(sequences):
            position = heads[index]
            if position < len(sequence) and sequence[position] is candidate:
                heads[index] = position + 1
                if position + 1 < len(sequence):
                    following = id(sequence[position + 1])
                    in_tails[following] -= 1
