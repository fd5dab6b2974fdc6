"""The call-binding model (apisurface.compare.binding) against the interpreter.

Random pairs of signatures and random calls: the model binds every call exactly as
``inspect.Signature.bind`` does (and as a real function built from the signature does);
when the model says every old call still works, every random call that binds to OLD binds
to NEW with each argument in its successor; when it says a call breaks, its witness binds
to OLD and fails, or lands elsewhere, on NEW. ``make test`` runs a bounded number of
examples (``APISURFACE_FUZZ_EXAMPLES``, default 10 per property); ``make fuzz`` runs more.
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apisurface.compare.binding import ARGS, KWARGS, Binding, Call, Comparison, bind
from apisurface.compare.diff import diff_surfaces, signature_text
from apisurface.compare.rules import Level, classify
from apisurface.model import Parameter, ParamKind, Signature, Surface, Symbol, SymbolKind

FUZZ = settings(
    max_examples=int(os.environ.get("APISURFACE_FUZZ_EXAMPLES", "10")),
    # Fixed examples in `make test` (a gate must not fail at random); `make fuzz`
    # (APISURFACE_FUZZ_EXAMPLES set) explores new ones on every run.
    derandomize="APISURFACE_FUZZ_EXAMPLES" not in os.environ,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

_ORDER = list(ParamKind)
NAMES = ["a", "b", "c", "d", "e"]


@st.composite
def signatures(draw: st.DrawFn) -> Signature:
    """A valid signature over a small pool of names (so old and new share names)."""
    drawn = draw(
        st.lists(
            st.tuples(st.sampled_from(NAMES), st.sampled_from(ParamKind), st.booleans()),
            max_size=5,
            unique_by=lambda item: item[0],
        )
    )
    drawn.sort(key=lambda item: _ORDER.index(item[1]))
    parameters: list[Parameter] = []
    seen_default = False
    variadic: set[ParamKind] = set()
    for name, kind, optional in drawn:
        if kind in (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD):
            if kind in variadic:
                continue
            variadic.add(kind)
            parameters.append(Parameter(name, kind))
            continue
        if kind.is_positional:
            seen_default = seen_default or optional
        has_default = optional or (kind.is_positional and seen_default)
        parameters.append(Parameter(name, kind, "None" if has_default else None))
    return Signature(tuple(parameters))


calls = st.builds(
    Call,
    positional=st.integers(0, 6),
    keywords=st.lists(st.sampled_from([*NAMES, "z"]), unique=True, max_size=4).map(
        lambda names: tuple(sorted(names))
    ),
)


ALL_CALLS = [
    Call(count, tuple(name for bit, name in enumerate([*NAMES, "z"]) if mask >> bit & 1))
    for count in range(7)
    for mask in range(2 ** (len(NAMES) + 1))
]
"""Every call shape over the name pool (up to six positional arguments, more than any
generated signature has positional parameters)."""


def _to_inspect(signature: Signature) -> inspect.Signature:
    return inspect.Signature(
        [
            inspect.Parameter(
                p.name,
                getattr(inspect.Parameter, p.kind.name),
                default=inspect.Parameter.empty if p.default is None else None,
            )
            for p in signature.parameters
        ]
    )


@functools.cache
def _function(signature: str) -> Callable[..., dict[str, Any]]:
    """A real function with this signature that returns where its arguments landed."""
    namespace: dict[str, Any] = {}
    exec(f"def f{signature}:\n    return dict(locals())\n", namespace)  # generated, no body
    return namespace["f"]  # type: ignore[no-any-return]


def _oracle(signature: Signature, call: Call) -> dict[object, str] | None:
    """Where the interpreter puts each argument (position index or keyword name -> a
    parameter name, ``*`` or ``**``), or ``None`` when the call fails.

    Checked with ``inspect.Signature.bind``, which agrees with the interpreter except
    for one corner: it rejects a keyword naming an unfilled positional-only parameter
    even when ``**kwargs`` would take it (Python 3.11); there the real function decides.
    """
    args: list[Any] = [("pos", index) for index in range(call.positional)]
    kwargs: dict[str, Any] = {name: ("kw", name) for name in call.keywords}
    try:
        bound: dict[str, Any] | None = dict(_to_inspect(signature).bind(*args, **kwargs).arguments)
    except TypeError:
        bound = None
    try:
        real: dict[str, Any] | None = _function(signature_text(signature))(*args, **kwargs)
    except TypeError:
        real = None
    before, after = _where(signature, bound), _where(signature, real)
    if before != after:
        positional_only = {
            p.name for p in signature.parameters if p.kind is ParamKind.POSITIONAL_ONLY
        }
        assert set(call.keywords) & positional_only, (signature, call, real, bound)
    return after


def _where(signature: Signature, bound: dict[str, Any] | None) -> dict[object, str] | None:
    if bound is None:
        return None
    places: dict[object, str] = {}
    kinds = {p.name: p.kind for p in signature.parameters}
    for name, value in bound.items():
        if kinds[name] is ParamKind.VAR_POSITIONAL:
            for item in value:
                places[item[1]] = ARGS
        elif kinds[name] is ParamKind.VAR_KEYWORD:
            for item in value.values():
                places[item[1]] = KWARGS
        elif isinstance(value, tuple):
            places[value[1]] = name
    return places


def _places(binding: Binding) -> dict[object, str] | None:
    if not binding.binds:
        return None
    places: dict[object, str] = {}
    for index, where in enumerate(binding.positional):
        assert where is not None
        places[index] = where
    for name, where in binding.keywords:
        assert where is not None
        places[name] = where
    return places


def _works(comparison: Comparison, call: Call) -> bool:
    """Whether ``call`` (bound to OLD) binds to NEW with every argument in its successor,
    judged on the interpreter's bindings."""
    before, after = _oracle(comparison.old, call), _oracle(comparison.new, call)
    assert before is not None
    if after is None:
        return False
    model_before, model_after = bind(comparison.old, call), bind(comparison.new, call)
    # The model's own bindings equal the interpreter's (checked separately too).
    assert _places(model_before) == before and _places(model_after) == after
    return comparison.still_works(call)


@FUZZ
@given(signatures(), calls)
def test_bind_matches_the_interpreter(signature: Signature, call: Call) -> None:
    assert _places(bind(signature, call)) == _oracle(signature, call)


@FUZZ
@given(signatures(), signatures())
def test_compatible_means_old_calls_still_work(old: Signature, new: Signature) -> None:
    comparison = Comparison(old, new)
    witness = comparison.breaking_call()
    if witness is None:
        for call in ALL_CALLS:
            # The model's one exception: a keyword OLD only passed on through **kwargs,
            # named like a parameter NEW adds, is promoted and not judged.
            before = bind(old, call)
            if any(
                where == KWARGS and comparison.promoted(name) for name, where in before.keywords
            ):
                continue
            if _oracle(old, call) is not None:
                assert _works(comparison, call), (call, signature_text(old), signature_text(new))
    else:
        assert _oracle(old, witness) is not None
        assert not _works(comparison, witness)


@FUZZ
@given(signatures(), signatures())
def test_parameter_witness_breaks_that_parameter(old: Signature, new: Signature) -> None:
    comparison = Comparison(old, new)
    for parameter in old.parameters:
        witness = comparison.parameter_breaking_call(parameter.name)
        if witness is not None:
            assert _oracle(old, witness) is not None
            assert comparison.breaking_call() is not None


@FUZZ
@given(signatures(), signatures())
def test_the_scan_finds_what_binding_each_representative_call_finds(
    old: Signature, new: Signature
) -> None:
    """The quadratic scan (issue 20) against the plain enumeration it replaces: bind each
    representative call to both sides and judge it whole. Same first breaking call, same
    first call breaking each parameter."""
    comparison = Comparison(old, new)
    checked = []
    for call in comparison.calls():
        before = bind(old, call)
        if before.binds and not comparison._private_call(before):
            checked.append((call, before, bind(new, call)))
    breaking = next(
        (
            call
            for call, before, after in checked
            if after.missing or not comparison._preserved(before, after, None)
        ),
        None,
    )
    assert comparison.breaking_call() == (None if comparison._same_shape else breaking)
    places = {ParamKind.VAR_POSITIONAL: ARGS, ParamKind.VAR_KEYWORD: KWARGS}
    for parameter in old.parameters:
        lands = places.get(parameter.kind, parameter.name)
        expected = next(
            (
                call
                for call, before, after in checked
                if not comparison._preserved(before, after, lands)
            ),
            None,
        )
        found = comparison.parameter_breaking_call(parameter.name)
        assert found == (None if comparison._same_shape else expected), parameter.name


def test_examples_from_the_policy() -> None:
    def sig(*parameters: tuple[str, ParamKind, str | None]) -> Signature:
        return Signature(tuple(Parameter(n, k, d) for n, k, d in parameters))

    po, pk, va, ko, vk = list(ParamKind)
    compatible = [
        (sig(("x", po, None)), sig(("x", va, None))),
        (sig(("x", ko, None)), sig(("x", vk, None))),
        (sig(("x", pk, None)), sig(("y", va, None), ("x", vk, None))),
        (
            sig(("a", pk, None), ("b", pk, "1")),
            sig(("a", pk, None), ("args", va, None), ("kw", vk, None)),
        ),
        (sig(("old", pk, None)), sig(("new", pk, "None"), ("old", ko, "None"))),
        (sig(("a", po, None)), sig(("b", po, None))),
        (sig(("a", ko, None), ("b", ko, None)), sig(("b", ko, None), ("a", ko, None))),
    ]
    breaking = [
        (sig(("a", pk, None), ("b", pk, None)), sig(("b", pk, None), ("a", pk, None))),
        (sig(("a", pk, None)), sig(("b", pk, None))),
        (
            sig(("m", pk, None), ("level", pk, "1")),
            sig(("m", pk, None), ("args", va, None), ("level", ko, "1")),
        ),
        (sig(("a", pk, "1")), sig(("a", pk, None))),
        (sig(("a", pk, None)), sig(("a", po, None))),
    ]
    for old, new in compatible:
        assert Comparison(old, new).breaking_call() is None, (
            signature_text(old),
            signature_text(new),
        )
    for old, new in breaking:
        assert Comparison(old, new).breaking_call() is not None, (
            signature_text(old),
            signature_text(new),
        )


def _report(old: Signature, new: Signature) -> dict[str, Level]:
    def surface(signature: Signature) -> Surface:
        symbol = Symbol("pkg.f", SymbolKind.FUNCTION, target="pkg.f", signature=signature)
        return Surface("pkg", {"pkg.f": symbol})

    found = classify(diff_surfaces(surface(old), surface(new)))
    return {f"{item.change.path} {item.change.kind.value}": item.level for item in found}


@FUZZ
@given(signatures(), signatures())
def test_the_diff_is_major_exactly_when_a_call_breaks(old: Signature, new: Signature) -> None:
    """The facts reported for a signature change are judged MAJOR exactly when the model
    finds an old call that breaks (defaults are all ``None`` here, so no default change
    hides or adds a level)."""
    report = _report(old, new)
    breaking = Comparison(old, new).breaking_call() is not None
    assert (Level.MAJOR in report.values()) == breaking, (
        signature_text(old),
        signature_text(new),
        report,
    )


def test_moved_parameters_report_their_real_positions() -> None:
    """Positions are counted from 1 in the signature as written (``self`` not counted),
    not among the parameters both sides share; one that still takes the same argument
    while others move around it is not reported."""
    pk = ParamKind.POSITIONAL_OR_KEYWORD
    old = Signature((Parameter("a", pk), Parameter("b", pk), Parameter("c", pk)))
    new = Signature(
        (Parameter("a", pk), Parameter("x", pk, "None"), Parameter("c", pk), Parameter("b", pk))
    )
    surfaces = [
        Surface("pkg", {"pkg.f": Symbol("pkg.f", SymbolKind.FUNCTION, signature=signature)})
        for signature in (old, new)
    ]
    found = classify(diff_surfaces(*surfaces))
    # One entry for the whole shift, at the first position that changed (x's insertion),
    # naming every parameter whose position moved: b, not c.
    shifts = [
        item
        for item in found
        if item.change.kind.value in ("parameter_moved", "parameter_inserted")
    ]
    assert [(item.change.path, item.change.kind.value, item.change.new) for item in shifts] == [
        ("pkg.f(x)", "parameter_inserted", "x inserted at 2; b 2 -> 4")
    ]
    assert "x inserted at 2; b 2 -> 4" in shifts[0].message


# --- bounded work (issue 20 item 7): overloads of many parameters --------------------------


def _overloaded(count: int, size: int, *, new: bool) -> Surface:
    """``pkg.f`` with ``count`` overloads of ``size`` parameters typed ``int | str`` (each
    union is tried member by member when an old overload is not covered whole); NEW renames
    every overload's last parameter, so no old overload is covered."""
    pk = ParamKind.POSITIONAL_OR_KEYWORD
    overloads = []
    for index in range(count):
        parameters = [
            Parameter(f"p{j}", pk, None if j < size // 2 else "1", f"T{index} | int")
            for j in range(size)
        ]
        if new:
            parameters[-1] = Parameter(f"q{size}", pk, "1", "int | str")
        overloads.append(Signature(tuple(parameters), returns=f"R{index}"))
    symbol = Symbol(
        "pkg.f",
        SymbolKind.FUNCTION,
        target="pkg.f",
        signature=overloads[0],
        overloads=tuple(overloads),
        docstring_hash="x",
    )
    return Surface("pkg", {"pkg.f": symbol})


class _Budget:
    """Counts the argument placements the binding model makes; fails past ``limit`` (so a
    regression to the old, about cubic-per-pair enumeration fails fast instead of hanging)."""

    def __init__(self, monkeypatch: Any, limit: int) -> None:
        import apisurface.compare.binding as binding_module  # noqa: PLC0415

        self.used = 0
        for name in ("bind", "_scan_count"):
            original = getattr(binding_module, name, None)
            if original is None:
                continue

            def counting(
                *args: Any, _original: Callable[..., Any] = original, **kwargs: Any
            ) -> Any:
                self.used += 1
                if self.used > limit:
                    raise AssertionError(f"more than {limit} binding steps")
                return _original(*args, **kwargs)

            monkeypatch.setattr(binding_module, name, counting)


def test_ten_overloads_of_fifty_parameters_are_compared_exactly_in_bounded_work(
    monkeypatch: Any,
) -> None:
    budget = _Budget(monkeypatch, limit=20_000)
    changes = diff_surfaces(_overloaded(10, 50, new=False), _overloaded(10, 50, new=True))
    kinds = {change.kind.value for change in changes}
    assert "overload_removed" in kinds and "overload_added" in kinds
    assert all(change.evidence.proven for change in changes)
    assert budget.used > 0


def test_overloads_beyond_the_cap_are_inferred_not_hung(monkeypatch: Any) -> None:
    _Budget(monkeypatch, limit=20_000)
    changes = diff_surfaces(_overloaded(60, 60, new=False), _overloaded(60, 60, new=True))
    overloads = [change for change in changes if change.kind.value.startswith("overload_")]
    assert overloads
    for change in overloads:
        assert not change.evidence.proven
        assert "signature too large to check exactly" in change.evidence.why


def test_one_signature_beyond_the_cap_is_inferred(monkeypatch: Any) -> None:
    _Budget(monkeypatch, limit=20_000)
    pk = ParamKind.POSITIONAL_OR_KEYWORD
    old = Signature(tuple(Parameter(f"p{j}", pk) for j in range(2000)))
    new = Signature((*old.parameters[:-1], Parameter("q", pk)))
    surfaces = [
        Surface("pkg", {"pkg.f": Symbol("pkg.f", SymbolKind.FUNCTION, signature=signature)})
        for signature in (old, new)
    ]
    changes = diff_surfaces(*surfaces)
    assert changes
    for change in changes:
        assert not change.evidence.proven
        assert "signature too large to check exactly" in change.evidence.why
