"""Witnesses: a few lines of user code that work on OLD and fail on NEW.

A proven break (POLICY.md section 3, "Evidence") comes with a witness, written here from
the change and the symbols on both sides, never by running or importing the analysed code.
Each witness is judged by one of two oracles (tests/test_witnesses.py runs both on every
case file):

- a type checker (mypy): the witness type-checks against OLD and not against NEW. Paths
  that no longer resolve (``from pkg.mod import X``), members gone (``obj.run``), calls
  that bound and no longer bind (``pkg.f(_, flag=_)``), types narrowed or widened
  (``def use(value: int | str) -> None: pkg.f(value)``), kinds changed;
- running it (``python``): the witness runs on OLD and raises on NEW. For what no type
  checker sees: a default value changed, an argument that now lands in another parameter,
  a function made sync (these observe the value with :mod:`inspect`, or await the call).

A few MAJOR kinds break the documented contract and no code at all (:data:`CONTRACT_ONLY`):
the object is still there on NEW, only no longer documented (graded inferred for that
reason) or excluded by the project's configuration; they have no witness. Nor has a path of a
generated API module that the analysed tree does not hold (declared exports, POLICY.md
2.11): no code can import it from that tree.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from apisurface.changes import Change, ChangeKind
from apisurface.compare.annotations import Relation, relate
from apisurface.compare.binding import (
    ARGS,
    KWARGS,
    Call,
    Comparison,
    bind,
    type_arguments_refused,
)
from apisurface.compare.kindsets import CALL_BREAKING, REMOVALS
from apisurface.compare.obligations import (
    OBLIGATIONS,
    Owner,
    implementation_witness,
    obligation_witness,
    provided_lines,
)
from apisurface.model import Parameter, ParamKind, Signature, Symbol, SymbolKind
from apisurface.surface.annotationtext import union_members

__all__ = ["CONTRACT_ONLY", "runs", "witness"]

K = ChangeKind

CONTRACT_ONLY = frozenset(
    {K.SYMBOL_NO_LONGER_DOCUMENTED, K.SYMBOL_EXCLUDED_BY_CONFIG, K.DOCUMENTATION_UNKNOWN}
)
"""MAJOR kinds whose object still resolves on NEW: no user code fails, so no witness."""

_GONE = (REMOVALS - CONTRACT_ONLY - {K.SYMBOL_UNEXPORTED}) | {K.REMOVED_WITHOUT_DEPRECATION}
"""Kinds by which a path no longer resolves on NEW (an unexported name has its own
witness: ``from module import *``)."""
_MEMBER_KINDS = frozenset(
    {
        SymbolKind.METHOD,
        SymbolKind.PROPERTY,
        SymbolKind.ATTRIBUTE,
        SymbolKind.CLASSMETHOD,
        SymbolKind.STATICMETHOD,
        SymbolKind.CLASS,
        SymbolKind.ENUM_MEMBER,
        SymbolKind.TYPE_ALIAS,
        SymbolKind.FUNCTION,
    }
)


def runs(text: str) -> bool:
    """Whether the witness ``text`` is judged by running it (it observes a value with
    ``assert`` or awaits a call) rather than by a type checker."""
    return any(line.startswith(("assert ", "asyncio.run(")) for line in text.splitlines())


def _base(path: str) -> tuple[str, str | None]:
    """``pkg.f(x)`` -> (``pkg.f``, ``x``); ``pkg.f`` -> (``pkg.f``, None)."""
    base, _, rest = path.partition("(")
    return base, (rest[:-1] if rest else None)


class _Reach:
    """How user code names a path: the imports, the parameters of ``use`` and the
    expression (``obj.run`` with ``obj: C``, ``C`` for a class, ``pkg.mod`` for a module)."""

    def __init__(self, path: str, symbols: Mapping[str, Symbol]) -> None:
        self.imports: list[str] = []
        self.params: list[str] = []
        self.symbols = symbols
        self.path = path
        module = path
        while module and not self._is_module(module):
            module = module.rpartition(".")[0]
        if not module:
            module = path.partition(".")[0]
        self.module = module
        if module == path:
            self.imports.append(f"import {path}")
            self.expr = self.dotted = path
            self.owner: str | None = None
            return
        self.module = module
        rest = path[len(module) + 1 :].split(".")
        self.dotted = ".".join(rest)
        self.imports.append(f"from {module} import {rest[0]}")
        self.owner = f"{module}.{'.'.join(rest[:-1])}" if len(rest) > 1 else None
        owner_symbol = symbols.get(self.owner) if self.owner else None
        symbol = symbols.get(path)
        on_class = (
            owner_symbol is not None
            and owner_symbol.kind is SymbolKind.CLASS
            and (
                symbol is None
                or symbol.kind
                not in (
                    SymbolKind.CLASSMETHOD,
                    SymbolKind.STATICMETHOD,
                    SymbolKind.ENUM_MEMBER,
                    SymbolKind.CLASS,  # a nested class is named through its owner: C.Inner
                )
            )
            and rest[-1] != "__init__"
        )
        if on_class and len(rest) == 2:
            self.params.append(f"obj: {rest[0]}")
            self.expr = f"obj.{rest[1]}"
        else:
            self.expr = ".".join(rest)

    def _is_module(self, path: str) -> bool:
        symbol = self.symbols.get(path)
        return symbol is not None and symbol.kind is SymbolKind.MODULE

    def callee(self) -> str:
        """The expression a call goes through: the class for a constructor."""
        if self.path.endswith(".__init__"):
            return self.expr.rpartition(".")[0] or self.expr
        return self.expr


def _function(reach: _Reach, body: list[str], *, extra: list[str] | None = None) -> str:
    params = [*reach.params, *(extra or [])]
    uses_any = any("Any" in item for item in params)
    head = ["from typing import Any"] if uses_any else []
    define = "def"
    symbol = reach.symbols.get(reach.path)
    if symbol is not None and symbol.is_async and symbol.kind.is_callable:
        # A call of a coroutine function that is not awaited is an error of its own
        # (mypy's unused-coroutine): the caller awaits it, as a user does.
        callee = f"{reach.callee()}("
        awaited = [f"await {line}" if line.startswith(callee) else line for line in body]
        if awaited != body:
            body, define = awaited, "async def"
    lines = [*head, *reach.imports, "", "", f"{define} use({', '.join(params)}) -> None:"]
    lines += [f"    {line}" for line in body]
    return "\n".join(lines)


def _imports_for(annotation: str, symbols: Mapping[str, Symbol]) -> list[str] | None:
    """``import`` lines that make the dotted names of ``annotation`` resolvable; ``None``
    when it cannot be parsed."""
    try:
        tree = ast.parse(annotation, mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            parts: list[str] = []
            current: ast.expr = node
            while isinstance(current, ast.Attribute):
                parts.append(current.attr)
                current = current.value
            if not isinstance(current, ast.Name):
                continue
            parts.append(current.id)
            dotted = ".".join(reversed(parts))
            module = dotted.rpartition(".")[0]
            while module and module in symbols and symbols[module].kind is not SymbolKind.MODULE:
                module = module.rpartition(".")[0]
            if module:
                found.add(module)
    # Inner chains are walked too: keep the longest module of each.
    kept = {m for m in found if not any(o.startswith(m + ".") for o in found)}
    return [f"import {module}" for module in sorted(kept)]


def _rejected_member(old: str, new: str, symbols: Mapping[str, Symbol]) -> str:
    """The member of the union ``old`` that ``new`` does not accept (all of ``old`` when
    it is no union, or when every member alone is accepted)."""
    members = union_members(old)
    if len(members) < 2:
        return old
    for member in members:
        if relate(member, new) not in (Relation.EQUAL, Relation.WIDER, Relation.REFINED):
            return member
    return old


def _call_args(call: Call) -> str:
    parts = ["_"] * call.positional + [f"{keyword}=_" for keyword in call.keywords]
    return ", ".join(parts)


def _minimal_call(signature: Signature, wanted: Parameter, value: str) -> str:
    """A call binding to ``signature`` that passes ``value`` for ``wanted`` and ``_`` for
    every other required parameter."""
    positional: list[str] = []
    keywords: list[str] = []
    pos_params = [p for p in signature.parameters if p.kind.is_positional]
    required_at = [index for index, p in enumerate(pos_params) if p.required]
    if wanted.kind.is_positional and (wanted.required or wanted.kind is ParamKind.POSITIONAL_ONLY):
        last = max([pos_params.index(wanted), *required_at])
        for parameter in pos_params[: last + 1]:
            positional.append(value if parameter is wanted else "_")
    else:
        positional = ["_" for p in pos_params if p.required]
        if wanted.kind is ParamKind.VAR_POSITIONAL:
            positional.append(value)
        elif wanted.kind is ParamKind.VAR_KEYWORD:
            keywords.append(f"_extra={value}")
        else:
            keywords.append(f"{wanted.name}={value}")
    keywords += [
        f"{p.name}=_"
        for p in signature.parameters
        if p.kind is ParamKind.KEYWORD_ONLY and p.required
    ]
    return ", ".join([*positional, *dict.fromkeys(keywords)])


def witness(
    change: Change, old: Symbol | None, new: Symbol | None, old_symbols: Mapping[str, Symbol]
) -> str | None:
    """The witness of ``change``, a MAJOR change, or ``None`` when none can be written.

    ``old``/``new`` are the symbols the change was found on (the callable for a parameter
    change), ``old_symbols`` the OLD surface, which tells modules from classes.
    """
    kind = change.kind
    if kind in CONTRACT_ONLY:
        return None
    reach = _Reach(_reached_path(change, old, old_symbols), old_symbols)
    served = old_symbols.get(reach.module)
    if served is not None and served.location is None:
        return None  # a generated API module (declared exports) the tree does not hold
    if kind in _GONE:
        return _gone_witness(reach, old, old_symbols)
    if kind is K.SYMBOL_UNEXPORTED:
        module, _, name = reach.path.rpartition(".")
        return f"from {module} import *\n\n{name}"
    if kind in OBLIGATIONS and new is not None:
        if reach.owner is None:
            return None
        init = old_symbols.get(f"{reach.owner}.__init__")
        args = _call_args(_first_call(init.signature)) if init and init.signature else ""
        owner = Owner(reach.owner, reach.dotted.rpartition(".")[0], tuple(reach.imports), args)
        return obligation_witness(kind, owner, old_symbols)
    if old is None or new is None:
        return None
    builder = _BUILDERS.get(kind)
    if builder is None:
        return None
    return builder(_Found(change, reach, old, new, old_symbols))


def _reached_path(change: Change, old: Symbol | None, old_symbols: Mapping[str, Symbol]) -> str:
    """The path the witness names: the changed object's, or the same object at its
    definition, when that path is public too and names it the same way in another module: a
    type checker sees a definition, not a module ``__getattr__`` that serves it elsewhere
    (an inherited member keeps its path)."""
    base, _ = _base(change.path)
    if (
        change.kind not in _GONE
        and old is not None
        and old.target != base
        and old.target in old_symbols
        and _Reach(base, old_symbols).dotted == _Reach(old.target, old_symbols).dotted
    ):
        return old.target
    return base


def _gone_witness(reach: _Reach, old: Symbol | None, symbols: Mapping[str, Symbol]) -> str:
    """A path that no longer resolves on NEW, named as user code names it."""
    if old is not None and old.proto is not None:
        return _proto_gone(reach, old, symbols)
    if old is not None and old.kind.value == "unknown" and not reach.params:
        # Bound at run time (``__all__`` says it exists): only running the import shows it.
        name = reach.dotted.partition(".")[0]
        return f"from {reach.module} import *\n\nassert {reach.dotted} is not None or {name}"
    owner, _, name = reach.dotted.rpartition(".")
    if owner and name.startswith("__") and name.endswith("__"):
        # ``object`` has it too: what changes is whose it is (``==`` by identity).
        return "\n".join([*reach.imports, "", f"assert {name!r} in vars({owner})"])
    return _gone(reach)


@dataclass(frozen=True)
class _Found:
    """What a witness builder reads: the change, how user code reaches its path, the
    symbols it was found on (both sides present) and the OLD surface."""

    change: Change
    reach: _Reach
    old: Symbol
    new: Symbol
    symbols: Mapping[str, Symbol]

    @property
    def parameter(self) -> str | None:
        """The parameter a parameter-level change is about (``pkg.f(x)`` -> ``x``)."""
        return _base(self.change.path)[1]


_Builder = Callable[[_Found], str | None]


def _call_broken(found: _Found) -> str | None:
    old, new = found.old.signature, found.new.signature
    if old is None or new is None:
        return None
    return _call_witness(found.change, found.reach, old, new)


def _default_changed(found: _Found) -> str | None:
    if found.parameter is None:
        return None
    return _default_witness(found.reach, found.parameter, found.change.old)


def _old_type_imports(found: _Found) -> list[str] | None:
    """The imports a witness needs to name the change's old type; None when there is no
    old type or it cannot be imported."""
    if not found.change.old:
        return None
    return _imports_for(found.change.old, found.symbols)


def _parameter_annotation(found: _Found) -> str | None:
    """A value of the old parameter type (the member of a union NEW rejects), passed."""
    change, reach, signature = found.change, found.reach, found.old.signature
    if signature is None or found.parameter is None or change.old is None:
        return None
    wanted = next((p for p in signature.parameters if p.name == found.parameter), None)
    imports = _imports_for(change.old, found.symbols)
    if wanted is None or imports is None:
        return None
    reach.imports += imports
    given = _rejected_member(change.old, change.new or "", found.symbols)
    call = _minimal_call(signature, wanted, "given")
    return _function(reach, [f"{reach.callee()}({call})"], extra=["_: Any", f"given: {given}"])


def _return_annotation(found: _Found) -> str | None:
    """The result used as a value of the old return type."""
    change, reach, old = found.change, found.reach, found.old
    imports = _old_type_imports(found)
    if imports is None or not change.old:
        return None
    reach.imports += imports
    if old.kind is SymbolKind.PROPERTY:
        return _function(reach, [f"result: {change.old} = {reach.expr}"])
    if old.signature is None:
        return None
    call = _call_args(_first_call(old.signature))
    return _function(reach, [f"result: {change.old} = {reach.callee()}({call})"], extra=["_: Any"])


def _attribute_annotation(found: _Found) -> str | None:
    """The attribute read as, and written with, a value of its old type."""
    change, reach = found.change, found.reach
    imports = _old_type_imports(found)
    if imports is None or not change.old:
        return None
    reach.imports += imports
    target = reach.expr
    if not reach.params and reach.owner is None and reach.module != reach.path:
        reach.imports[0] = f"import {reach.module}"  # a module attribute, written
        target = f"{reach.module}.{reach.dotted}"
    return _function(
        reach,
        [f"read: {change.old} = {target}", f"{target} = given"],
        extra=[f"given: {change.old}"],
    )


def _made_async(found: _Found) -> str | None:
    """The caller uses the result as a value; on NEW it is a coroutine."""
    reach, signature = found.reach, found.old.signature
    if signature is None:
        return None
    returns = signature.returns
    imports = _imports_for(returns, found.symbols) if returns else []
    if imports is None:
        return None
    reach.imports += imports
    call = _call_args(_first_call(signature))
    target = returns or "int"
    return _function(reach, [f"result: {target} = {reach.callee()}({call})"], extra=["_: Any"])


def _made_sync(found: _Found) -> str | None:
    """The caller awaits the call; on NEW there is nothing to await (run it)."""
    reach, old = found.reach, found.old
    if old.signature is None:
        return None
    needed = _first_call(old.signature)
    arguments = ", ".join(["None"] * needed.positional + [f"{k}=None" for k in needed.keywords])
    target = reach.dotted
    if reach.params and old.kind is SymbolKind.METHOD:
        arguments = ", ".join(part for part in ("None", arguments) if part)
    return "\n".join(
        [
            "import asyncio",
            *reach.imports,
            "",
            "",
            "async def use() -> None:",
            f"    await {target}({arguments})",
            "",
            "",
            "asyncio.run(use())",
        ]
    )


def _bases_reordered(found: _Found) -> str | None:
    """Code relying on the order of two bases kept in the MRO (run)."""
    change, reach = found.change, found.reach
    if not change.old or not change.new:
        return None
    first = change.old.split(", ")
    kept = [base for base in first if base in change.new.split(", ")]
    imports = _imports_for(", ".join(kept), found.symbols)
    if imports is None or len(kept) < 2:
        return None
    return "\n".join(
        [
            *reach.imports,
            *imports,
            "",
            f"mro = {reach.dotted}.__mro__",
            f"assert mro.index({kept[0]}) < mro.index({kept[1]})",
        ]
    )


def _overload_removed(found: _Found) -> str | None:
    if not found.change.old:
        return None
    return _overload_witness(found.reach, found.change.old, found.symbols)


def _made_abstract(found: _Found) -> str | None:
    """The class instantiated: NEW has an abstract method no subclass was told to write."""
    reach, symbols = found.reach, found.symbols
    if reach.owner is None:
        return None
    owner = reach.owner.rpartition(".")[2]
    imports = list(reach.imports)
    members = [
        path.rpartition(".")[2]
        for path, symbol in symbols.items()
        if path.rpartition(".")[0] == reach.owner and symbol.is_abstract
    ]
    if members:
        return None  # already abstract before: instantiating failed on OLD too
    init = symbols.get(f"{reach.owner}.__init__")
    args = _call_args(_first_call(init.signature)) if init and init.signature else ""
    return "\n".join(
        [
            "from typing import Any",
            *imports,
            "",
            "",
            "def use(_: Any) -> None:",
            f"    {owner}({args})",
        ]
    )


def _implementation(found: _Found) -> str | None:
    """A class implementing the member exactly as OLD declares it (see
    :func:`apisurface.compare.obligations.implementation_witness`)."""
    reach, old = found.reach, found.old
    if reach.owner is None or old.signature is None:
        return None
    texts = [p.annotation for p in old.signature.parameters if p.annotation]
    imports: list[str] = []
    for text in [*texts, *([old.signature.returns] if old.signature.returns else [])]:
        found_imports = _imports_for(text, found.symbols)
        if found_imports is None:
            return None
        imports += [line for line in found_imports if line not in imports]
    owner = Owner(reach.owner, reach.dotted.rpartition(".")[0], tuple(reach.imports), "")
    return implementation_witness(owner, old, found.symbols, imports)


def _made_unhashable(found: _Found) -> str | None:
    """The class's ``__hash__``, which hashing an instance calls: None on NEW (judged by
    running it; no instance is needed, and a type checker does not see every way a
    ``__hash__`` becomes None)."""
    return "\n".join(
        [*found.reach.imports, "", f"assert {found.reach.dotted}.__hash__ is not None"]
    )


def _made_final(found: _Found) -> str | None:
    """A subclass of the class, or one overriding the method, as OLD allowed."""
    reach, old = found.reach, found.old
    if old.kind is SymbolKind.CLASS:
        base, body = reach.dotted, ["pass"]
    elif reach.owner is not None and (old.kind.is_callable or old.kind is SymbolKind.PROPERTY):
        base, body = reach.dotted.rpartition(".")[0], provided_lines(old, protocol=False)
    else:
        return None
    lines = ["from typing import Any", *reach.imports, "", "", f"class Mine({base}):"]
    return "\n".join([*lines, *(f"    {line}" for line in body)])


def _type_parameters(found: _Found) -> str | None:
    """An annotation giving the class as many type arguments as OLD took and NEW refuses."""
    old, new = found.old.type_params, found.new.type_params
    count = type_arguments_refused(old, new) if old is not None and new is not None else None
    if count is None:
        return None
    given = ", ".join(["Any"] * count)
    return _function(found.reach, ["pass"], extra=[f"given: {found.reach.dotted}[{given}]"])


def _made_read_only(found: _Found) -> str:
    """The assignment OLD took (any value: a read-only target refuses every one)."""
    return _function(found.reach, [f"{found.reach.expr} = given"], extra=["given: Any"])


def _base_removed(found: _Found) -> str | None:
    """An instance used as a value of the removed base."""
    change, reach = found.change, found.reach
    imports = _old_type_imports(found)
    if imports is None or not change.old:
        return None
    name = reach.expr
    return "\n".join(
        [
            *reach.imports,
            *imports,
            "",
            "",
            f"def use(obj: {name}) -> None:",
            f"    base: {change.old} = obj",
        ]
    )


def _overload_witness(reach: _Reach, text: str, symbols: Mapping[str, Symbol]) -> str | None:
    """A call that only the removed overload ``text`` (``(value: bytes) -> bytes``)
    accepts, with arguments of its parameter types and the result of its return type."""
    try:
        tree = ast.parse(f"def f{text}: ...")
    except (SyntaxError, ValueError, RecursionError):
        return None
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    arguments = function.args
    if reach.params and arguments.args and arguments.args[0].arg in ("self", "cls"):
        arguments.args.pop(0)
    params: list[str] = []
    passed: list[str] = []
    positional = [*arguments.posonlyargs, *arguments.args]
    required = len(positional) - len(arguments.defaults)  # defaults belong to the tail
    for index, argument in enumerate(positional[:required]):
        annotation = ast.unparse(argument.annotation) if argument.annotation else "Any"
        params.append(f"arg{index}: {annotation}")
        passed.append(f"arg{index}")
    for argument, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        if default is None:
            annotation = ast.unparse(argument.annotation) if argument.annotation else "Any"
            params.append(f"{argument.arg}: {annotation}")
            passed.append(f"{argument.arg}={argument.arg}")
    returns = ast.unparse(function.returns) if function.returns else None
    for node in ast.walk(function):
        if isinstance(node, (ast.arg, ast.FunctionDef)):
            written = node.annotation if isinstance(node, ast.arg) else node.returns
            if written is not None:
                reach.imports += _imports_for(ast.unparse(written), symbols) or []
    reach.imports = list(dict.fromkeys(reach.imports))
    call = f"{reach.callee()}({', '.join(passed)})"
    body = [f"result: {returns} = {call}"] if returns else [call]
    return _function(reach, body, extra=params)


def _gone(reach: _Reach) -> str:
    if not reach.params and "." not in reach.expr:
        return "\n".join(reach.imports)
    return _function(reach, [reach.expr])


def _first_call(signature: Signature) -> Call:
    """The call filling exactly the required parameters (positional ones by position)."""
    positional = [p for p in signature.parameters if p.kind.is_positional and p.required]
    keywords = tuple(
        p.name for p in signature.parameters if p.kind is ParamKind.KEYWORD_ONLY and p.required
    )
    return Call(len(positional), keywords)


def _call_witness(change: Change, reach: _Reach, old: Signature, new: Signature) -> str | None:
    """A call OLD accepts that NEW rejects (mypy judges it), or, when it only lands an
    argument elsewhere, code observing where it lands (run)."""
    comparison = Comparison(old, new)
    _, parameter = _base(change.path)
    call = comparison.parameter_breaking_call(parameter) if parameter else None
    call = call or comparison.breaking_call()
    if call is None:
        return None
    after = bind(new, call)
    before = bind(old, call)
    if not after.binds:
        return _function(reach, [f"{reach.callee()}({_call_args(call)})"], extra=["_: Any"])
    # Binds on both: an argument lands in another parameter. Observe it.
    values = [str(index + 1) for index in range(call.positional)]
    values += [
        f"{keyword}={call.positional + index + 1}" for index, keyword in enumerate(call.keywords)
    ]
    variadic = {p.kind: p.name for p in old.parameters}
    collected = tuple(str(index + 1) for index, was in enumerate(before.positional) if was == ARGS)
    for index, (was, now) in enumerate(zip(before.positional, after.positional, strict=True)):
        if was == now:
            continue
        if was == ARGS:
            spelled = f"({', '.join(collected)},)"
            return _bound(reach, ", ".join(values), variadic[ParamKind.VAR_POSITIONAL], spelled)
        if was is not None and was != KWARGS:
            return _bound(reach, ", ".join(values), was, str(index + 1))
    for offset, ((_keyword, was), (_, now)) in enumerate(
        zip(before.keywords, after.keywords, strict=True)
    ):
        if was != now and was not in (ARGS, KWARGS, None):
            return _bound(reach, ", ".join(values), was, str(call.positional + offset + 1))
    return None


def _signature_of(reach: _Reach) -> tuple[str, str]:
    """The expression whose :func:`inspect.signature` has the parameters as the diff
    lists them, and the arguments to prepend (``self``)."""
    symbol = reach.symbols.get(reach.path)
    if reach.path.endswith(".__init__") or (
        symbol is not None and symbol.kind is SymbolKind.METHOD
    ):
        return reach.dotted, "None, "
    return reach.dotted, ""


def _bound(reach: _Reach, arguments: str, name: str, value: str) -> str:
    target, prefix = _signature_of(reach)
    return "\n".join(
        [
            "import inspect",
            *reach.imports,
            "",
            f"bound = inspect.signature({target}).bind({prefix}{arguments})",
            f"assert bound.arguments[{name!r}] == {value}",
        ]
    )


_PROTO = frozenset(
    {
        K.PROTO_FIELD_RENUMBERED,
        K.PROTO_FIELD_TYPE_CHANGED,
        K.PROTO_FIELD_CARDINALITY_CHANGED,
        K.PROTO_FIELD_ONEOF_CHANGED,
        K.PROTO_ENUM_VALUE_RENUMBERED,
        K.PROTO_TYPE_NAME_CHANGED,
    }
)
# FieldDescriptor type and label numbers for the facts' words (descriptor.proto).
_PROTO_TYPES = {
    "double": 1, "float": 2, "int64": 3, "uint64": 4, "int32": 5, "fixed64": 6, "fixed32": 7,
    "bool": 8, "string": 9, "group": 10, "message": 11, "bytes": 12, "uint32": 13,
    "enum": 14, "sfixed32": 15, "sfixed64": 16, "sint32": 17, "sint64": 18,
}  # fmt: skip


def _proto_gone(reach: _Reach, old: Symbol, symbols: Mapping[str, Symbol]) -> str:
    """A removed protocol buffer path, looked up at run time: a generated module defines
    nothing a type checker can see (its classes are built from the descriptor)."""
    holder, _, name = reach.dotted.rpartition(".")
    lines = [*reach.imports, ""]
    if not holder:
        return "\n".join([*lines, f"assert {name} is not None"])
    owner = symbols.get(f"{reach.module}.{holder}")
    if old.proto is not None and old.proto.startswith("field "):
        return "\n".join([*lines, f"assert {holder}.DESCRIPTOR.fields_by_name[{name!r}]"])
    if owner is not None and (owner.proto or "").startswith("enum "):
        return "\n".join([*lines, f"assert {holder}.Value({name!r}) is not None"])
    return "\n".join([*lines, f"assert {reach.dotted} is not None"])


def _proto_witness(change: Change, reach: _Reach) -> str | None:
    """What OLD's descriptor says and NEW's does not, read through the generated module
    (protobuf builds it from the same bytes that data written by OLD code follows)."""
    holder, _, name = reach.dotted.rpartition(".")
    kind, old = change.kind, change.old or ""
    lines = [*reach.imports, ""]
    if kind is K.PROTO_TYPE_NAME_CHANGED:
        return "\n".join([*lines, f"assert {reach.dotted}.DESCRIPTOR.full_name == {old!r}"])
    if kind is K.PROTO_ENUM_VALUE_RENUMBERED:
        if not holder:
            return "\n".join([*lines, f"assert {name} == {int(old)}"])
        return "\n".join([*lines, f"assert {holder}.Value({name!r}) == {int(old)}"])
    if not holder:
        return None
    lines.append(f"field = {holder}.DESCRIPTOR.fields_by_name[{name!r}]")
    if kind is K.PROTO_FIELD_RENUMBERED:
        return "\n".join([*lines, f"assert field.number == {int(old)}"])
    if kind is K.PROTO_FIELD_TYPE_CHANGED:
        base, _, type_name = old.partition(" ")
        number = _PROTO_TYPES.get(base)
        if number is None:
            return None  # a map: its entry message is a type of its own
        lines.append(f"assert field.type == {number}")
        if type_name:
            holder_of = "message_type" if base in ("message", "group") else "enum_type"
            lines.append(f"assert field.{holder_of}.full_name == {type_name!r}")
        return "\n".join(lines)
    if kind is K.PROTO_FIELD_CARDINALITY_CHANGED:
        facts = {
            "repeated": (True, False, False),
            "required": (False, True, True),
            "optional": (False, False, True),
            "singular": (False, False, False),
        }.get(old)
        if facts is None:
            return None
        return "\n".join(
            [
                *lines,
                f"assert (field.is_repeated, field.is_required, field.has_presence) == {facts}",
            ]
        )
    if kind is K.PROTO_FIELD_ONEOF_CHANGED:
        expected = None if old == "(none)" else old
        return "\n".join(
            [
                *lines,
                "oneof = field.containing_oneof",
                f"assert (oneof.name if oneof is not None else None) == {expected!r}",
            ]
        )
    return None


def _default_witness(reach: _Reach, parameter: str, default: str | None) -> str | None:
    if default is None:
        return None
    try:
        value = ast.literal_eval(default)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    target, _ = _signature_of(reach)
    return "\n".join(
        [
            "import inspect",
            *reach.imports,
            "",
            f"default = inspect.signature({target}).parameters[{parameter!r}].default",
            # Its type too: ``1`` is not ``True`` for a caller relying on it.
            f"assert (type(default).__name__, default) == ({type(value).__name__!r}, {default})",
        ]
    )


def _kind_witness(reach: _Reach, old: Symbol, new: Symbol) -> str | None:
    was, now = old.kind, new.kind
    if was is SymbolKind.MODULE:
        return "\n".join([f"import {reach.path}"])
    if was is SymbolKind.CLASS:
        return "\n".join(
            [*reach.imports, "", "", f"def use(obj: {reach.expr}) -> None:", "    pass"]
        )
    if was.is_callable and old.signature is not None:
        call = _call_args(_first_call(old.signature))
        if was is SymbolKind.METHOD and now in (SymbolKind.STATICMETHOD, SymbolKind.CLASSMETHOD):
            owner = reach.path.split(".")[-2]
            name = reach.path.rpartition(".")[2]
            inner = ", ".join(part for part in ("obj", call) if part)
            return _function(reach, [f"{owner}.{name}({inner})"], extra=["_: Any"])
        if was in (SymbolKind.STATICMETHOD, SymbolKind.CLASSMETHOD) and now is SymbolKind.METHOD:
            return _function(reach, [f"{reach.expr}({call})"], extra=["_: Any"])
        if not now.is_callable and now is not SymbolKind.CLASS:
            return _observed_kind(reach, was)
    if was is SymbolKind.PROPERTY and now is not SymbolKind.ATTRIBUTE:  # (that one reads alike)
        annotation = old.annotation or "int"  # unannotated: any value type tells a method
        imports = _imports_for(annotation, {})
        if imports is None:
            return None
        reach.imports += imports
        return _function(reach, [f"value: {annotation} = {reach.expr}"])
    if (
        was is SymbolKind.ATTRIBUTE
        and now is SymbolKind.PROPERTY
        and old.annotation
        and old.assignable is not False  # an instance of OLD takes the assignment...
        and new.assignable is not True  # ... and NEW's property has no setter to take it
    ):
        return _function(reach, [f"{reach.expr} = given"], extra=[f"given: {old.annotation}"])
    if was is SymbolKind.ATTRIBUTE:
        return _observed_kind(reach, now, negated=True)
    return _observed_kind(reach, was)


_KIND_TESTS = {
    SymbolKind.FUNCTION: "inspect.isfunction({})",
    SymbolKind.METHOD: "inspect.isfunction({})",
    SymbolKind.STATICMETHOD: "isinstance({}, staticmethod)",
    SymbolKind.CLASSMETHOD: "isinstance({}, classmethod)",
    SymbolKind.PROPERTY: "isinstance({}, property)",
    SymbolKind.CLASS: "inspect.isclass({})",
    SymbolKind.ENUM_MEMBER: "isinstance({}, enum.Enum)",
}


def _observed_kind(reach: _Reach, kind: SymbolKind, *, negated: bool = False) -> str | None:
    """Code that relies on what the object was (run: a type checker does not tell a
    function from a class that accepts the same calls), or, ``negated``, on what it was
    not (an attribute that became a function: ``not inspect.isfunction(...)``)."""
    test = _KIND_TESTS.get(kind)
    if test is None:
        return None
    owner, _, name = reach.dotted.rpartition(".")
    found = f"inspect.getattr_static({owner}, {name!r})" if owner else reach.dotted
    if kind is SymbolKind.ENUM_MEMBER:
        found = reach.dotted  # the member itself, not the descriptor behind it
    modules = ["import enum"] if kind is SymbolKind.ENUM_MEMBER else []
    condition = test.format(found)
    return "\n".join(
        [
            "import inspect",
            *modules,
            *reach.imports,
            "",
            f"assert {'not ' if negated else ''}{condition}",
        ]
    )


def _table(*rows: tuple[Iterable[ChangeKind], _Builder]) -> dict[ChangeKind, _Builder]:
    """The builders by kind; a kind given two builders is a mistake caught on import."""
    table: dict[ChangeKind, _Builder] = {}
    for kinds, builder in rows:
        for kind in kinds:
            if kind in table:
                raise AssertionError(f"two witness builders for {kind.value}")
            table[kind] = builder
    return table


_BUILDERS = _table(
    (_PROTO, lambda found: _proto_witness(found.change, found.reach)),
    (CALL_BREAKING, _call_broken),
    ((K.PARAMETER_DEFAULT_CHANGED,), _default_changed),
    ((K.PARAMETER_ANNOTATION_NARROWED, K.PARAMETER_ANNOTATION_CHANGED), _parameter_annotation),
    ((K.RETURN_ANNOTATION_WIDENED, K.RETURN_ANNOTATION_CHANGED), _return_annotation),
    ((K.ATTRIBUTE_ANNOTATION_CHANGED,), _attribute_annotation),
    ((K.KIND_CHANGED,), lambda found: _kind_witness(found.reach, found.old, found.new)),
    ((K.FUNCTION_MADE_ASYNC,), _made_async),
    ((K.FUNCTION_MADE_SYNC,), _made_sync),
    ((K.BASES_REORDERED,), _bases_reordered),
    ((K.OVERLOAD_REMOVED,), _overload_removed),
    ((K.METHOD_MADE_ABSTRACT,), _made_abstract),
    ((K.MADE_FINAL,), _made_final),
    ((K.MADE_UNHASHABLE,), _made_unhashable),
    ((K.IMPLEMENTATION_NO_LONGER_FITS,), _implementation),
    ((K.TYPE_PARAMETERS_CHANGED,), _type_parameters),
    ((K.ATTRIBUTE_MADE_READ_ONLY,), _made_read_only),
    ((K.BASE_REMOVED,), _base_removed),
)
"""The witness builder of each kind a symbol on both sides can break with (the kinds of
removed paths, :data:`_GONE`, are written before a NEW symbol is asked for)."""
