"""One symbol on both sides: every fact about a path OLD and NEW both have.

Kind, async, abstract, deprecation, docstring, bases (and their order), the attribute or
property annotation, the signature (:mod:`apisurface.compare.signatures`) and the
overloads, compared by the calls they accept. Annotations are related through the diff's
:class:`~apisurface.compare.typechanges.TypeContext`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from apisurface.changes import Change, ChangeKind, Evidence, Level
from apisurface.compare.annotations import Relation, relate
from apisurface.compare.binding import (
    MAX_CALLS,
    Comparison,
    comparison_work,
    private_parameter,
    type_arguments_refused,
)
from apisurface.compare.kindsets import CALL_BREAKING
from apisurface.compare.obligations import IMPLEMENTER_BREAKING, must_be_implemented
from apisurface.compare.protobuf import proto_changes
from apisurface.compare.signatures import signature_changes, signature_text
from apisurface.compare.typechanges import TypeContext, annotation_change
from apisurface.grades import PROVEN
from apisurface.model import ParamKind, Signature, Surface, Symbol, SymbolKind
from apisurface.surface.annotationtext import normalize, union_members
from apisurface.surface.spelling import base_origin, contract_base, last_name, parent_path
from apisurface.surface.stdlib import standard_subclass

__all__ = ["SymbolDiffer"]

K = ChangeKind

# Pickling and copying hooks: users reach them only through ``pickle`` and ``copy``, which
# call them with fixed arguments, so only their presence counts (POLICY.md section 3,
# PATCH): their signatures and annotations are not compared.
_PICKLING_HOOKS = frozenset(
    {
        "__getstate__",
        "__setstate__",
        "__reduce__",
        "__reduce_ex__",
        "__getnewargs__",
        "__getnewargs_ex__",
        "__copy__",
        "__deepcopy__",
        "__replace__",
    }
)


_ASSIGNABLE_KINDS = (SymbolKind.PROPERTY, SymbolKind.ATTRIBUTE)
_ANNOTATION_KINDS = frozenset(
    kind for kind in K if kind.name.startswith(("PARAMETER_ANNOTATION_", "RETURN_ANNOTATION_"))
)
"""The kinds of a change of a callable's parameter or return type."""


def _takes_assignment(symbol: Symbol) -> bool:
    """Whether ``obj.NAME = value`` works (:attr:`Symbol.assignable`): a property only
    with a setter, an attribute unless its class's instances are read-only."""
    if symbol.kind is SymbolKind.PROPERTY:
        return symbol.assignable is True
    return symbol.assignable is not False


def _assignment(symbol: Symbol) -> str:
    """How ``symbol`` takes an assignment, in the words of a change's old and new value."""
    if symbol.kind is SymbolKind.PROPERTY:
        return "property with a setter" if symbol.assignable else "read-only property"
    return "attribute" if _takes_assignment(symbol) else "attribute of read-only instances"


_PARAMETER_OK = {Relation.EQUAL, Relation.WIDER, Relation.REFINED}
_RETURN_OK = {Relation.EQUAL, Relation.NARROWER, Relation.REFINED}


class _Fit:
    """One new overload against one old one whose calls it all accepts: which old
    parameters' types it does not accept (by index), and whether the return fits."""

    def __init__(
        self,
        candidate: Signature,
        successors: list[str | None],
        failed: set[int],
        returns_ok: bool,
        fits: Callable[[str | None, str | None], bool],
    ) -> None:
        self.candidate = candidate
        self.successors = successors
        self.failed = failed
        self.returns_ok = returns_ok
        self.fits = fits

    def covers(self, index: int | None = None, member: str | None = None) -> bool:
        """Whether it covers the old overload, with parameter ``index`` typed ``member``
        instead of its own annotation when given."""
        if not self.returns_ok:
            return False
        if index is None:
            return not self.failed
        if self.failed - {index}:
            return False
        successor = self.successors[index]
        return successor is None or self.fits(member, successor or None)


class SymbolDiffer:
    """Compares one path's OLD and NEW symbol, appending the facts to ``changes``."""

    def __init__(
        self, old: Surface, new: Surface, types: TypeContext, changes: list[Change]
    ) -> None:
        self.old = old
        self.new = new
        self.types = types
        self.changes = changes
        # The symbols each path was compared as (an inherited constructor or base member
        # stands in for a side that lists none): the evidence of its changes reads them.
        self.compared: dict[str, tuple[Symbol, Symbol]] = {}

    def compare(self, path: str, old: Symbol, new: Symbol) -> None:
        if old is new:
            return  # the common case on large surfaces (the very same object)
        start = len(self.changes)
        self.compare_facts(path, old, new)
        if len(self.changes) > start:
            self.compare_implementation(path, old, new, self.changes[start:])

    def compare_implementation(
        self, path: str, old: Symbol, new: Symbol, found: list[Change]
    ) -> None:
        """A member user code implements (a protocol's, an abstract method) whose new
        signature only widens what callers may do, which is what an implementation written
        for OLD no longer does: one MAJOR change at the member, beside the MINOR ones found.
        Nothing more when a change found already breaks callers (MAJOR): it is the break.
        The calls are judged the other way round (every call NEW accepts must bind to OLD's
        signature, as an implementation has it); the types by the changes found."""
        owner = parent_path(path)
        old_owner, new_owner = self.old.symbols.get(owner), self.new.symbols.get(owner)
        if old.signature is None or new.signature is None:
            return
        if not must_be_implemented(path, old, new, old_owner, new_owner):
            return
        own = [change for change in found if change.path.partition("(")[0] == path]
        if any(change.kind.rule.level is Level.MAJOR for change in own):
            return
        typed = [change for change in own if change.kind in IMPLEMENTER_BREAKING]
        reverse = Comparison(new.signature, old.signature)
        calls = reverse.exact and reverse.breaking_call() is not None
        if not calls and not typed:
            return
        proven = [change for change in typed if change.evidence.proven]
        evidence = PROVEN if calls or proven else typed[0].evidence
        before, after = signature_text(old.signature), signature_text(new.signature)
        self.changes.append(Change(path, K.IMPLEMENTATION_NO_LONGER_FITS, before, after, evidence))

    def compare_docstring(self, path: str, old: Symbol, new: Symbol) -> None:
        """A docstring reworded (a note): only where both sides were read from source, which
        keeps a digest of the text (a snapshot records whether a symbol is documented, not
        its prose)."""
        if old.docstring_hash and new.docstring_hash and old.docstring_hash != new.docstring_hash:
            self.changes.append(Change(path, K.DOCSTRING_CHANGED))

    def compare_facts(self, path: str, old: Symbol, new: Symbol) -> None:
        if old == new:  # equal but for what is kept and not compared
            self.compare_kept(path, old, new)
            self.compare_docstring(path, old, new)
            return
        if last_name(path) in _PICKLING_HOOKS and old.kind.is_callable and new.kind.is_callable:
            return  # only their presence counts
        self.compared[path] = (old, new)
        add = self.changes.append
        if SymbolKind.UNKNOWN in (old.kind, new.kind):
            # A name bound at run time exists on both sides; what it is cannot be compared
            # (a kind read on one side only is no proven change). Its file's unknown blocks
            # a gate where it differs (POLICY.md section 3, "Unknowns").
            return
        if SymbolKind.EXTERNAL in (old.kind, new.kind):
            # Another distribution's name (POLICY.md 2.8): what it is is that distribution's
            # contract; the path resolving on both sides is all this one promises.
            return
        if old.kind != new.kind:
            add(Change(path, K.KIND_CHANGED, old.kind.value, new.kind.value))
            return
        self.compare_kept(path, old, new)
        if old.proto is not None and new.proto is not None:
            self.changes.extend(proto_changes(path, old.proto, new.proto))
        if old.is_async != new.is_async:
            add(Change(path, K.FUNCTION_MADE_ASYNC if new.is_async else K.FUNCTION_MADE_SYNC))
        if old.is_abstract != new.is_abstract:
            kind = K.METHOD_MADE_ABSTRACT if new.is_abstract else K.METHOD_NO_LONGER_ABSTRACT
            add(Change(path, kind))
        if not self.compare_deprecation(path, old, new):
            self.compare_docstring(path, old, new)
        self.compare_bases(path, old, new)
        if new.kind.value == "property":
            # A property is read, like a return value: narrowing it is compatible.
            self.changes.extend(
                annotation_change(
                    path,
                    old.annotation,
                    new.annotation,
                    self.types.self_bases_of(path),
                    parameter=False,
                    prepare=self.types.prepare_annotations,
                )
            )
        else:
            read = "annotation" in old.inferred or "annotation" in new.inferred
            self.compare_annotation(path, old.annotation, new.annotation, read_from_value=read)
        found: list[Change] = []
        if old.signature is not None and new.signature is not None:
            from_fields = new.constructor_from_fields
            found = signature_changes(
                path,
                old.signature,
                new.signature,
                from_fields,
                self.types.self_bases_of(path),
                prepare=self.types.prepare_annotations,
            )
            if new.overloads and not old.overloads:
                # Type checkers match calls against NEW's overloads, not the implementation
                # below them: its annotations are no change callers see (its binding is:
                # calls run through it).
                found = [change for change in found if change.kind not in _ANNOTATION_KINDS]
            self.changes.extend(found)
        if new.overloads and not old.overloads and old.signature is not None:
            binding = any(change.kind in CALL_BREAKING for change in found)
            self.compare_into_overloads(path, old.signature, new, calls_broken=binding)
            return
        self.compare_overloads(path, old, new)

    def compare_into_overloads(
        self, path: str, old: Signature, new: Symbol, *, calls_broken: bool
    ) -> None:
        """A signature that became overloads: its calls must match some of them (as an old
        overload's must, :meth:`compare_overloads`). The overloads that take them stand for
        it (nothing to report when one is the old signature itself); the others are added.
        When the implementation already refuses old calls (``calls_broken``: a change of
        its parameters says so), that is the break, not one more. A signature that takes
        ``*args`` or ``**kwargs`` accepts call shapes no overload lists, and overloads
        written over it (arrow 1.0's ``get``, sqlalchemy 2.0's ``create_engine``) state the
        shapes it served: they are additions, as before."""
        candidates = list(new.overloads)
        text = signature_text(old)
        covers = None
        if sum(comparison_work(old, candidate) for candidate in candidates) <= MAX_CALLS:
            covers = self.overload_covers(path, old, candidates)
        spelled = [signature_text(item) for item in covers or ()]
        catch_all = any(
            parameter.kind in (ParamKind.VAR_POSITIONAL, ParamKind.VAR_KEYWORD)
            for parameter in old.parameters
        )
        if covers is None and not calls_broken and not catch_all:
            self.changes.append(Change(path, K.OVERLOAD_REMOVED, text, None))
        elif covers is not None and spelled != [text]:
            self.changes.append(Change(path, K.OVERLOAD_WIDENED, text, " or ".join(spelled)))
        for item in sorted(signature_text(candidate) for candidate in candidates):
            if item not in spelled:
                self.changes.append(Change(path, K.OVERLOAD_ADDED, None, item))

    def compare_assignment(self, path: str, old: Symbol, new: Symbol) -> None:
        """A property that lost or gained its setter, an attribute whose class's instances
        became read-only (a frozen dataclass or attrs class) or mutable: ``obj.NAME = value``
        fails, or works, where it did not. Only where both sides record it (a surface of
        engine 3 or later: older snapshots read every property as having no setter; for a
        property, engine 6, which reads a ``cached_property`` as taking one)."""
        if old.kind is not new.kind or old.kind not in _ASSIGNABLE_KINDS:
            return
        if not self.both_from_engine(3):
            return
        if old.kind is SymbolKind.PROPERTY and not self.both_from_engine(6):
            return  # before engine 6 a functools.cached_property read as taking no assignment
        before, after = _takes_assignment(old), _takes_assignment(new)
        if before == after:
            return
        self.compared[path] = (old, new)
        kind = K.ATTRIBUTE_MADE_WRITABLE if after else K.ATTRIBUTE_MADE_READ_ONLY
        self.changes.append(Change(path, kind, _assignment(old), _assignment(new)))

    def both_from_engine(self, engine: int) -> bool:
        """Whether both surfaces come from ``engine`` or a later one: a fact that engine
        began to record is compared only then (an older snapshot lacks it)."""
        return all(
            side.engine is not None and side.engine >= engine for side in (self.old, self.new)
        )

    def compare_kept(self, path: str, old: Symbol, new: Symbol) -> None:
        """The facts kept out of ``==`` that the diff compares on their own."""
        self.compare_assignment(path, old, new)
        self.compare_requirement(path, old, new)
        self.compare_final(path, old, new)
        self.compare_type_params(path, old, new)
        self.compare_hashing(path, old, new)

    def compare_hashing(self, path: str, old: Symbol, new: Symbol) -> None:
        """A class whose instances stop (or start) hashing: ``hash(obj)``, a dict key or a
        set member raise TypeError where they worked. Only where both sides record it
        (engine 6 or later), and once, at the class that made it: a public base that made
        the same change reports it for its subclasses. When a base outside the package
        decided OLD's answer, the change rests on a guess about that base."""
        if old.kind is not SymbolKind.CLASS or new.kind is not SymbolKind.CLASS:
            return
        if old.unhashable is new.unhashable or new.unhashable is None:
            return
        if not self.both_from_engine(6):
            return
        for base in new.bases:
            before = self.old.symbols.get(base_origin(base))
            after = self.new.symbols.get(base_origin(base))
            if before is None or after is None:
                continue
            if (before.unhashable, after.unhashable) == (old.unhashable, new.unhashable):
                return  # reported at the base
        self.compared[path] = (old, new)
        if not new.unhashable:
            if old.unhashable is True:
                self.changes.append(Change(path, K.MADE_HASHABLE))
            return
        evidence = PROVEN
        if old.unhashable is None:
            evidence = Evidence.inferred(
                f"OLD's {path} took __hash__ from a base outside the package and the standard "
                "library, which is guessed to hash its instances"
            )
        self.changes.append(Change(path, K.MADE_UNHASHABLE, evidence=evidence))

    def compare_requirement(self, path: str, old: Symbol, new: Symbol) -> None:
        """A TypedDict key that was optional (``NotRequired``, a non-total class) and is
        required now: a dict built without it no longer fits. Only where both sides record
        it (a surface of engine 5 or later)."""
        if old.required is False and new.required is True:
            self.compared[path] = (old, new)
            self.changes.append(Change(path, K.TYPEDDICT_KEY_MADE_REQUIRED, "optional", "required"))

    def compare_final(self, path: str, old: Symbol, new: Symbol) -> None:
        """A class or method marked ``@final``, or no longer: subclasses and overrides stop
        (or start) type-checking. Only where both sides record it (engine 5 or later)."""
        if old.is_final == new.is_final or old.kind is not new.kind:
            return
        if not self.both_from_engine(5):
            return
        self.compared[path] = (old, new)
        self.changes.append(Change(path, K.MADE_FINAL if new.is_final else K.NO_LONGER_FINAL))

    def compare_type_params(self, path: str, old: Symbol, new: Symbol) -> None:
        """A generic class whose type parameters no longer take a number of type arguments
        they took (``Pair[str, int]`` after a parameter went, ``Source[int]`` after one
        without a default came). Only where both sides declare them."""
        if old.type_params is None or new.type_params is None:
            return
        if type_arguments_refused(old.type_params, new.type_params) is None:
            return
        self.compared[path] = (old, new)
        self.changes.append(
            Change(
                path,
                K.TYPE_PARAMETERS_CHANGED,
                ", ".join(old.type_params),
                ", ".join(new.type_params),
            )
        )

    def compare_overloads(self, path: str, old: Symbol, new: Symbol) -> None:
        """Overloads are compared by the calls they accept, not by their text: an old
        overload whose every call some new overload accepts, with parameter types equal
        or wider and a return equal or narrower, is widened (possibly split: one new
        overload per member of a union parameter), not removed. Each pair of old and new
        overloads is compared once (a union's members reuse it); when all pairs together
        exceed :data:`~apisurface.compare.binding.MAX_CALLS`, none is compared: removed
        and added overloads are reported as inferred."""
        old_overloads = {signature_text(item): item for item in old.overloads}
        new_overloads = {signature_text(item): item for item in new.overloads}
        added = sorted(set(new_overloads) - set(old_overloads))
        removed = sorted(set(old_overloads) - set(new_overloads))
        candidates = list(new_overloads.values())
        if not candidates and new.signature is not None:
            # No overloads left: a type checker takes every call by the signature itself
            # (an unannotated one takes any argument and gives Any).
            candidates = [new.signature]
        work = sum(
            comparison_work(old_overloads[text], candidate)
            for text in removed
            for candidate in candidates
        )
        if work > MAX_CALLS:
            largest = max(len(item.parameters) for item in (*old.overloads, *new.overloads))
            evidence = Evidence.inferred(
                f"signature too large to check exactly ({len(removed)} old and "
                f"{len(candidates)} new overloads of up to {largest} parameters): compared "
                "by their text only"
            )
            for text in removed:
                self.changes.append(Change(path, K.OVERLOAD_REMOVED, text, None, evidence))
            for text in added:
                self.changes.append(Change(path, K.OVERLOAD_ADDED, None, text, evidence))
            return
        covering: set[str] = set()
        for text in removed:
            covers = self.overload_covers(path, old_overloads[text], candidates)
            if covers is None:
                self.changes.append(Change(path, K.OVERLOAD_REMOVED, text, None))
                continue
            spelled = [signature_text(item) for item in covers]
            covering.update(spelled)
            self.changes.append(Change(path, K.OVERLOAD_WIDENED, text, " or ".join(spelled)))
        for text in added:
            if text not in covering:
                self.changes.append(Change(path, K.OVERLOAD_ADDED, None, text))

    def overload_covers(
        self, path: str, overload: Signature, candidates: list[Signature]
    ) -> list[Signature] | None:
        """The new overloads that together accept every call ``overload`` accepted: one
        that covers it whole, or one per member of a union-typed parameter; ``None``.
        Binding does not depend on annotations, so each candidate's calls are compared
        once, and each parameter's type once; a union member only relates its own type."""
        fits = [
            fit
            for candidate in candidates
            if (fit := self.overload_fit(path, overload, candidate)) is not None
        ]
        whole = next((fit.candidate for fit in fits if fit.covers()), None)
        if whole is not None:
            return [whole]
        for index, parameter in enumerate(overload.parameters):
            members = union_members(parameter.annotation) if parameter.annotation else []
            if len(members) < 2:
                continue
            found: list[Signature] = []
            for member in members:
                cover = next((fit.candidate for fit in fits if fit.covers(index, member)), None)
                if cover is None:
                    break
                if cover not in found:
                    found.append(cover)
            else:
                return found
        return None

    def overload_fit(self, path: str, old: Signature, new: Signature) -> _Fit | None:
        """How ``new`` takes ``old``'s calls: ``None`` when a call ``old`` accepted breaks
        (or the binding model cannot tell exactly), else each parameter's successor."""
        comparison = Comparison(old, new)
        if not comparison.exact or comparison.breaking_call() is not None:
            return None
        bases_of = self.types.self_bases_of(path)

        def fits(before: str | None, after: str | None, allowed: set[Relation]) -> bool:
            if before is None or after is None:
                return True
            return relate(*self.types.prepare_annotations(before, after), bases_of) in allowed

        new_named = {p.name: p for p in new.parameters}
        new_positional = [p for p in new.parameters if p.kind.is_positional]
        old_positional = [p for p in old.parameters if p.kind.is_positional]
        successors: list[str | None] = []
        failed: set[int] = set()
        for index, parameter in enumerate(old.parameters):
            successor = new_named.get(parameter.name)
            if successor is None and parameter in old_positional:
                at = old_positional.index(parameter)
                successor = new_positional[at] if at < len(new_positional) else None
            if successor is None:
                wanted = (
                    ParamKind.VAR_POSITIONAL
                    if parameter.kind.is_positional or parameter.kind is ParamKind.VAR_POSITIONAL
                    else ParamKind.VAR_KEYWORD
                )
                successor = next((p for p in new.parameters if p.kind is wanted), None)
            if private_parameter(parameter) or successor is None:
                # Its type is internal, or none takes it yet the binding model found no
                # broken call: its type takes no part.
                successors.append(None)
                continue
            successors.append(successor.annotation or "")
            if not fits(parameter.annotation, successor.annotation, _PARAMETER_OK):
                failed.add(index)
        returns_ok = fits(old.returns, new.returns, _RETURN_OK)
        return _Fit(new, successors, failed, returns_ok, lambda a, b: fits(a, b, _PARAMETER_OK))

    def compare_deprecation(self, path: str, old: Symbol, new: Symbol) -> bool:
        """Report a deprecation marked or lifted; whether the state changed at all."""
        if (old.deprecated is None) == (new.deprecated is None):
            return False
        parent = parent_path(path)
        old_parent, new_parent = self.old.symbols.get(parent), self.new.symbols.get(parent)
        if (
            old_parent is not None
            and new_parent is not None
            and (old_parent.deprecated is None) != (new_parent.deprecated is None)
            and new_parent.deprecated == new.deprecated
            and old_parent.deprecated == old.deprecated
        ):
            return True  # inherited from the parent, reported there
        if new.deprecated is not None:
            self.changes.append(Change(path, K.SYMBOL_DEPRECATED, None, new.deprecated))
        else:
            self.changes.append(Change(path, K.SYMBOL_UNDEPRECATED, old.deprecated, None))
        return True

    def compare_bases(self, path: str, old: Symbol, new: Symbol) -> None:
        """Bases a user can name: ``object`` is implicit (``class A(object)`` is ``class A``)
        and a private base is outside the contract (the members it supplied are compared as
        members; ``isinstance`` against it is not something a user can write)."""
        # A base is compared by its class: ``ParamType[str]`` -> ``ParamType[T, str]`` is
        # the same base with other type arguments (a typing detail, not a lost base).
        # OLD's bases are keyed as NEW spells the same class: a base that NEW re-exports at
        # a shorter path (sqlalchemy 2.0: ``sqlalchemy.types.SchemaType``) is the same base.
        respell = self.types.respell_old
        old_bases = {base_origin(respell(base)): base for base in old.bases if contract_base(base)}
        new_bases = {base_origin(base): base for base in new.bases if contract_base(base)}
        old_spelled = [respell(base) for base in old.bases]
        for origin, base in old_bases.items():
            if origin not in new_bases and not self.still_inherits(new.bases, origin):
                self.changes.append(Change(path, K.BASE_REMOVED, base, None))
        for origin, base in new_bases.items():
            if origin not in old_bases and not self.still_inherits(old_spelled, origin):
                self.changes.append(Change(path, K.BASE_ADDED, None, base))
        # The bases kept on both sides, in another order: the MRO, and so which method
        # runs, changes. (Bases added, removed or replaced by a subclass are their own
        # facts above.)
        old_order = [origin for origin in old_bases if origin in new_bases]
        new_order = [origin for origin in new_bases if origin in old_bases]
        if old_order != new_order:
            self.changes.append(
                Change(
                    path,
                    K.BASES_REORDERED,
                    ", ".join(old_bases[origin] for origin in old_order),
                    ", ".join(new_bases[origin] for origin in new_order),
                )
            )

    def still_inherits(self, bases: Iterable[str], wanted: str, depth: int = 0) -> bool:
        """Whether a class with ``bases`` has the class ``wanted`` in its method resolution
        order: among the bases, through the bases of the package's classes, or through the
        standard library's own hierarchy (``ValueError`` derives from ``Exception``)."""
        if depth > 50:
            return False
        for base in bases:
            origin = base_origin(base)
            if (
                origin == wanted
                or standard_subclass(origin, wanted)
                or self.still_inherits(self.types.bases_of(origin), wanted, depth + 1)
            ):
                return True
        return False

    def compare_annotation(
        self, path: str, old: str | None, new: str | None, *, read_from_value: bool = False
    ) -> None:
        if old == new:
            return
        if old is None:
            self.changes.append(Change(path, K.ATTRIBUTE_ANNOTATION_ADDED, None, new))
        elif new is None:
            self.changes.append(Change(path, K.ATTRIBUTE_ANNOTATION_REMOVED, old, None))
        else:
            # Read and written: any change of type is a change, unless only Any changed.
            # An attribute typed only `None` is the unannotated `x = None` idiom ("set
            # later"): the value is no declared type, so an Optional annotation added to it
            # (or dropped from it) is a missing annotation made precise (or the reverse).
            relation = relate(*self.types.prepare_annotations(old, new), self.types.type_bases_of)
            if (
                relation is Relation.REFINED
                or (relation is Relation.WIDER and normalize(old) == "None")
                or (relation is Relation.NARROWER and normalize(new) == "None")
            ):
                self.changes.append(Change(path, K.ATTRIBUTE_ANNOTATION_REFINED, old, new))
            elif relation is Relation.NARROWER and read_from_value:
                pass  # a value's type narrowed (1 -> True): every read of the old one still works
            elif relation is not Relation.EQUAL:
                self.changes.append(Change(path, K.ATTRIBUTE_ANNOTATION_CHANGED, old, new))
