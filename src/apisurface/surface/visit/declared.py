"""What a module's source declares that griffe's model does not keep (POLICY.md 2.8-2.9).

Pure functions of source text, read with ``ast`` (nothing is imported or run):

- the typing spec's re-export forms: redundant aliases (``from m import (A as A, ...)``,
  however many lines the import spans) and ``from . import x``;
- the atpublic package's markers (``@public``, ``public(NAME=value)``);
- every module-level assignment of a name to another name, in any ``if``/``try`` branch
  (griffe keeps one of them);
- PEP 562 deprecation shims: a module ``__getattr__`` answering literal names with a
  ``DeprecationWarning``, and the literal names it answers without one (``__version__``
  read lazily from the installed metadata);
- a constructor that only delegates to its base's (``super().__init__(...)``).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field

from apisurface.surface.annotationtext import final_name
from apisurface.surface.visit.bodies import delegates

__all__ = [
    "Declarations",
    "ImportForms",
    "Shim",
    "block_bindings",
    "declarations",
    "delegates_to_base",
    "module_statements",
    "read_imports",
    "reassigned_candidates",
]

_WARNING_NAMES = frozenset({"DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"})
_ATPUBLIC_MODULES = frozenset({"public", "atpublic"})
_MAX_SHIM_NAMES = 10_000


@dataclass(frozen=True, slots=True)
class Shim:
    """One name a module ``__getattr__`` answers, with a deprecation warning (``message``)
    or, when ``message`` is empty, without one (the name is served, not deprecated)."""

    message: str
    returns: str | None
    """The module-level name (or dotted name) it returns, when literal."""
    lineno: int
    imported: str | None = None
    """The import path of what it returns when the branch imports it first
    (``from .exceptions import X; return X``): ``.exceptions.X``, dots for the level."""


@dataclass(slots=True)
class Declarations:
    """What one module's source declares beyond griffe's model."""

    redundant_aliases: frozenset[str] = frozenset()
    dot_imports: frozenset[str] = frozenset()
    public_names: frozenset[str] = frozenset()
    public_values: dict[str, tuple[str, int]] = field(default_factory=dict)
    assigned_names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    shims: dict[str, Shim] = field(default_factory=dict)
    answered: dict[str, Shim] = field(default_factory=dict)
    """Names a module ``__getattr__`` answers without a warning, selected by a literal
    written in the condition itself (``name == "__version__"``, ``name in ("A", "B")``,
    ``case "A":``); their message is empty."""


_WORTH_PARSING = re.compile(
    r"from[ \t]+\.[ \t]+import|def[ \t]+__getattr__\b|(?:from|import)[ \t]+(?:at)?public\b"
)
_AS = re.compile(r"[ \t]as[ \t]+(\w+)")


def _worth_parsing(text: str) -> bool:
    """A quick look for the forms :func:`declarations` finds (no backtracking patterns:
    this runs on every module)."""
    if _WORTH_PARSING.search(text):
        return True
    for match in _AS.finditer(text):  # ``x as x``: the word before ``as`` is the alias
        before = text[max(match.start() - 200, 0) : match.start()].rstrip(" \t(")
        name = match.group(1)
        if before.endswith(name) and not before[-len(name) - 1 : -len(name)].isidentifier():
            return True
    return False


_INDENTED_ASSIGNMENT = re.compile(r"^[ \t]+(\w+)[ \t]*=[ \t]*[\w.]+[ \t]*(?:#.*)?$", re.MULTILINE)


def reassigned_candidates(text: str) -> frozenset[str]:
    """Names that may be assigned another name inside a block (cheap, by pattern): only
    for these is :func:`declarations` worth asking about ``assigned_names``."""
    return frozenset(_INDENTED_ASSIGNMENT.findall(text))


def declarations(
    text: str, *, assignments: bool = False, tree: ast.Module | None = None
) -> Declarations:
    """The declarations of a module's source; empty when it cannot be parsed, or when a
    quick look finds none of the forms (``assignments``: parse for those anyway).
    ``tree``: ``text`` already parsed."""
    if not assignments and not _worth_parsing(text):
        return Declarations()
    try:
        return _declarations(tree or ast.parse(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Declarations()  # hostile nesting: nothing declared beyond griffe's model


def _declarations(tree: ast.Module) -> Declarations:
    statements = list(_module_statements(tree.body))
    redundant: set[str] = set()
    dot: set[str] = set()
    atpublic = _atpublic_bindings(statements)
    public_names: set[str] = set()
    public_values: dict[str, tuple[str, int]] = {}
    assigned: dict[str, list[str]] = {}
    constants: dict[str, ast.expr] = {}
    for node in statements:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names, dots = _forms(node)
            redundant.update(names)
            dot.update(dots)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if any(_names_atpublic(item, atpublic) for item in node.decorator_list):
                public_names.add(node.name)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            call = node.value
            if _names_atpublic(call.func, atpublic):
                for keyword in call.keywords:
                    if keyword.arg is not None:
                        public_names.add(keyword.arg)
                        public_values[keyword.arg] = (ast.unparse(keyword.value), node.lineno)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name) and node.value is not None:
                constants[targets[0].id] = node.value
                if isinstance(node.value, (ast.Name, ast.Attribute)):
                    assigned.setdefault(targets[0].id, []).append(ast.unparse(node.value))
    shims: dict[str, Shim] = {}
    answered: dict[str, Shim] = {}
    for node in statements:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            found, plain = _shims(node, constants)
            shims.update(found)
            answered.update(plain)
    return Declarations(
        redundant_aliases=frozenset(redundant),
        dot_imports=frozenset(dot),
        public_names=frozenset(public_names),
        public_values=public_values,
        assigned_names={name: tuple(values) for name, values in assigned.items()},
        shims=shims,
        answered={name: shim for name, shim in answered.items() if name not in shims},
    )


def _forms(node: ast.Import | ast.ImportFrom) -> tuple[set[str], set[str]]:
    """An import statement's re-export forms: its redundant aliases (``A as A``) and the
    names of ``from . import x``."""
    redundant = {item.name for item in node.names if item.asname == item.name}
    dot: set[str] = set()
    if isinstance(node, ast.ImportFrom) and node.level == 1 and not node.module:
        dot = {item.name for item in node.names if item.asname in (None, item.name)}
    return redundant, dot


ImportForms = dict[int, tuple[frozenset[str], frozenset[str]]]
"""The re-export forms of import statements, by the line each starts on."""


def read_imports(tree: ast.Module) -> tuple[ImportForms, frozenset[str]]:
    """Of every import statement griffe may turn into aliases (at module and class level,
    in any block; not in a function): the re-export forms (:func:`_forms`) of those that
    have one, by the line each starts on, and what each names, as written (leading dots
    for a relative import): the module, and each name imported from it (which may be a
    submodule)."""
    found: dict[int, tuple[set[str], set[str]]] = {}
    named: set[str] = set()
    stack: list[ast.stmt] = list(tree.body)
    # Imports of a branch only Python 2 runs (``if PY3: ... else: from ._py2 import x``)
    # name nothing a Python 3 import reaches (a vendored Python 2 module stays unread).
    dead = _python2_branches(tree)
    while stack:
        node = stack.pop()
        if id(node) in dead:
            pass
        elif isinstance(node, ast.Import):
            named.update(item.name for item in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = "." * node.level + (node.module or "")
            if node.module:
                named.add(origin)
            joint = "" if origin.endswith(".") else "."
            named.update(f"{origin}{joint}{item.name}" for item in node.names if item.name != "*")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names, dots = _forms(node)
            if names or dots:
                redundant, dot = found.setdefault(node.lineno, (set(), set()))
                redundant.update(names)
                dot.update(dots)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for part in ("body", "orelse", "finalbody"):
                block = getattr(node, part, None)
                if isinstance(block, list):
                    if id(node) in dead:
                        dead.update(id(item) for item in block)
                    stack.extend(block)
            for handler in getattr(node, "handlers", ()):
                stack.extend(handler.body)
            for case in getattr(node, "cases", ()):
                stack.extend(case.body)
    forms = {line: (frozenset(names), frozenset(dots)) for line, (names, dots) in found.items()}
    return forms, frozenset(named)


def _python2_branches(tree: ast.Module) -> set[int]:
    """The statements (by ``id``) of the module-level ``if`` branches that only Python 2
    runs: the test is ``sys.version_info`` against 2 or 3, ``six.PY2``/``six.PY3``, or a
    name the module binds to such a test (``PY3 = sys.version_info[0] >= 3``), possibly
    negated. Anything else is not decided."""
    names: dict[str, bool] = {}
    dead: set[int] = set()
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            value = _on_python3(node.value, names)
            if value is not None:
                names[node.targets[0].id] = value
        elif isinstance(node, ast.If):
            value = _on_python3(node.test, names)
            if value is not None:
                dead.update(id(item) for item in (node.orelse if value else node.body))
    return dead


def _on_python3(test: ast.expr, names: dict[str, bool]) -> bool | None:
    """The value of ``test`` on Python 3, where it is a Python 2/3 check; else None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _on_python3(test.operand, names)
        return None if inner is None else not inner
    if isinstance(test, ast.Name):
        return names.get(test.id)
    if isinstance(test, ast.Attribute) and test.attr in ("PY2", "PY3"):
        base = test.value
        if isinstance(base, ast.Name) and base.id == "six":
            return test.attr == "PY3"
        return None
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, right, op = test.left, test.comparators[0], test.ops[0]
    if isinstance(left, ast.Subscript) and isinstance(left.slice, ast.Constant):
        if left.slice.value != 0:
            return None
        left = left.value
        major = True
    elif isinstance(left, ast.Attribute) and left.attr == "major":
        left = left.value
        major = True
    else:
        major = False
    if not (isinstance(left, ast.Attribute) and left.attr == "version_info"):
        return None
    constant = right.elts[0] if isinstance(right, ast.Tuple) and len(right.elts) == 1 else right
    if (isinstance(right, ast.Tuple) == major) or not isinstance(constant, ast.Constant):
        return None
    number = 2 if constant.value == 2 else 3 if constant.value == 3 else None
    if number is None or type(constant.value) is not int:
        return None
    compare = {
        ast.Eq: number == 3,
        ast.NotEq: number != 3,
        ast.GtE: number <= 3,
        ast.Gt: number < 3,
        ast.Lt: number > 3,
        ast.LtE: number >= 3,
    }
    return compare.get(type(op))


_BINDINGS = (
    ast.Assign,
    ast.AnnAssign,
    ast.Import,
    ast.ImportFrom,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
)


def block_bindings(tree: ast.Module) -> frozenset[int]:
    """The lines of module-level bindings written inside a block (an ``if``, ``try`` or
    ``with`` at module level): griffe keeps one binding of a name, the others may be in
    another branch."""
    found: set[int] = set()
    for block in tree.body:
        if not isinstance(block, (ast.If, ast.Try, ast.TryStar, ast.With)):
            continue
        for node in _module_statements([block]):
            if node is not block and isinstance(node, _BINDINGS):
                found.add(node.lineno)
                decorators = getattr(node, "decorator_list", None)
                if decorators:  # griffe places a decorated definition at its first decorator
                    found.add(decorators[0].lineno)
    return frozenset(found)


def _module_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    return module_statements(body)


def module_statements(body: list[ast.stmt], *, loops: bool = False) -> Iterator[ast.stmt]:
    """Statements that run at module level: the body, and the bodies of its ``if``,
    ``try`` and ``with`` blocks (with ``loops``, of its ``for`` and ``while`` loops too; not
    functions or classes), in source order, however deeply they nest (a stack of blocks,
    not recursion: no depth at which the walk stops)."""
    blocks: list[Iterator[ast.stmt]] = [iter(body)]
    while blocks:
        node = next(blocks[-1], None)
        if node is None:
            blocks.pop()
            continue
        yield node
        nested: list[list[ast.stmt]] = []
        if isinstance(node, ast.If):
            nested = [node.body, node.orelse]
        elif isinstance(node, (ast.Try, ast.TryStar)):
            nested = [node.body, node.orelse, node.finalbody]
            nested += [handler.body for handler in node.handlers]
        elif isinstance(node, ast.With) or (loops and isinstance(node, (ast.For, ast.While))):
            nested = [node.body]
        blocks.extend(iter(block) for block in reversed(nested))


# --- atpublic ----------------------------------------------------------------------------


def _atpublic_bindings(statements: list[ast.stmt]) -> set[str]:
    """The spellings that name atpublic's ``public`` here: ``public`` after ``from public
    import public``, ``atpublic.public`` after ``import atpublic``."""
    bindings: set[str] = set()
    for node in statements:
        if isinstance(node, ast.ImportFrom) and node.module in _ATPUBLIC_MODULES:
            bindings.update(
                item.asname or item.name for item in node.names if item.name == "public"
            )
        elif isinstance(node, ast.Import):
            for item in node.names:
                if item.name in _ATPUBLIC_MODULES:
                    bindings.add(f"{item.asname or item.name}.public")
    return bindings


def _names_atpublic(node: ast.expr, bindings: set[str]) -> bool:
    if not bindings or not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    return ast.unparse(node) in bindings


# --- deprecation shims -------------------------------------------------------------------


def _shims(
    func: ast.FunctionDef, constants: dict[str, ast.expr]
) -> tuple[dict[str, Shim], dict[str, Shim]]:
    """The names ``def __getattr__(name)`` answers with a deprecation warning: tested
    literally (``name == "OLD"``, ``name in ("A", "B")``, ``name in _DEPRECATED`` for a
    literal dict, set, list or tuple, ``match name: case "OLD":``) in a branch that warns,
    or looked up in a literal dict (``_MOVED[name]``) by a body that always warns; and
    the names it answers without a warning, written literally in the condition."""
    params = [*func.args.posonlyargs, *func.args.args]
    if not params:
        return {}, {}
    param = params[0].arg
    local = {
        target.id
        for node in ast.walk(func)
        if isinstance(node, (ast.Assign, ast.For, ast.withitem, ast.AnnAssign))
        for target in _targets(node)
    }
    found: dict[str, Shim] = {}
    answered: dict[str, Shim] = {}
    _ShimScan(param, constants, local, found, answered).scan(func.body)
    if not found and _warns(_unconditional(func.body)):
        for node in ast.walk(func):
            table = _looked_up(node, param)
            if table is not None and table in constants:
                keys = _literal_keys(constants[table])
                message = _warning_message(_unconditional(func.body), param)
                for key, value in (keys or {}).items():
                    found[key] = Shim(message.replace("\x00", key), _named(value), func.lineno)
                break
    return (
        dict(list(found.items())[:_MAX_SHIM_NAMES]),
        dict(list(answered.items())[:_MAX_SHIM_NAMES]),
    )


def _targets(node: ast.AST) -> Iterator[ast.Name]:
    if isinstance(node, ast.Assign):
        targets: list[ast.expr] = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.For)):
        targets = [node.target]
    else:
        assert isinstance(node, ast.withitem)
        targets = [node.optional_vars] if node.optional_vars is not None else []
    for target in targets:
        for item in ast.walk(target):
            if isinstance(item, ast.Name):
                yield item


@dataclass(slots=True)
class _ShimScan:
    """The branches of one ``__getattr__(param)`` that select literal names: those that
    warn go to ``found``, the others (names written in the condition) to ``answered``."""

    param: str
    constants: dict[str, ast.expr]
    local: set[str]
    found: dict[str, Shim]
    answered: dict[str, Shim]

    def scan(self, body: list[ast.stmt]) -> None:
        """The branches in ``body``, in source order, however deeply they nest (a stack of
        blocks, not recursion: no depth at which the scan stops)."""
        blocks: list[Iterator[ast.stmt]] = [iter(body)]
        while blocks:
            node = next(blocks[-1], None)
            if node is None:
                blocks.pop()
            elif isinstance(node, ast.If):
                nested = self.branch(node)
                blocks.extend(iter(block) for block in reversed(nested))
            elif isinstance(node, ast.Match) and _is_name(node.subject, self.param):
                for case in node.cases:
                    names = _case_names(case.pattern)
                    if names and case.guard is None:
                        tested: dict[str, ast.expr | None] = dict.fromkeys(names)
                        warns = _warns(case.body)
                        self.record(tested, case.body, case.pattern.lineno, warns=warns)
            elif isinstance(node, (ast.Try, ast.TryStar, ast.With)):
                blocks.append(iter(node.body))

    def branch(self, node: ast.If) -> list[list[ast.stmt]]:
        """Record what the ``if`` selects; the blocks of it still to scan, in order."""
        tested = _tested(node.test, self.param, self.constants)
        if tested is not None and _warns(node.body):
            self.record(tested, node.body, node.lineno, warns=True)
        elif tested is not None:
            # No warning: only names written in the condition itself, not looked up in a
            # table (``name in __all__`` is the lazy-import idiom: what it serves is unknown).
            written = _tested(node.test, self.param, {})
            if written is not None:
                self.record(written, node.body, node.lineno, warns=False)
        else:
            return [node.body, node.orelse]
        return [node.orelse]

    def record(
        self, tested: dict[str, ast.expr | None], body: list[ast.stmt], line: int, *, warns: bool
    ) -> None:
        message = _warning_message(body, self.param) if warns else ""
        into = self.found if warns else self.answered
        imports = _imports(body)
        returned = _returned(body, self.local)
        imported = imports.get(returned) if returned is not None else None
        for name, value in tested.items():
            target = _named(value) or returned
            shim = Shim(message.replace("\x00", name), target, line, imported)
            into.setdefault(name, shim)


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _tested(
    test: ast.expr, param: str, constants: dict[str, ast.expr]
) -> dict[str, ast.expr | None] | None:
    """The literal names a condition on ``param`` selects (each with the table value it
    maps to, when it is a dict), or None when it is not such a condition."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        merged: dict[str, ast.expr | None] = {}
        for value in test.values:
            part = _tested(value, param, constants)
            if part is None:
                return None
            merged.update(part)
        return merged
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, ast.Eq):
        if _is_name(right, param):
            left, right = right, left
        if _is_name(left, param) and isinstance(right, ast.Constant):
            return {right.value: None} if isinstance(right.value, str) else None
        return None
    if isinstance(op, ast.In) and _is_name(left, param):
        if (
            isinstance(right, ast.Call)
            and isinstance(right.func, ast.Attribute)
            and right.func.attr == "keys"
            and not right.args
        ):
            right = right.func.value
        if isinstance(right, ast.Name) and right.id in constants:
            right = constants[right.id]
        return _literal_keys(right)
    return None


def _literal_keys(node: ast.expr) -> dict[str, ast.expr | None] | None:
    """The string keys of a literal dict (with their values), or the strings of a literal
    set, list or tuple (also inside ``frozenset(...)``, ``set(...)``)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and len(node.args) == 1
        and node.func.id in ("frozenset", "set", "tuple", "list", "dict")
    ):
        node = node.args[0]
    if isinstance(node, ast.Dict):
        keys: dict[str, ast.expr | None] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                keys[key.value] = value
            else:
                return None
        return keys
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items: dict[str, ast.expr | None] = {}
        for item in node.elts:
            if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
                return None
            items[item.value] = None
        return items
    return None


def _case_names(pattern: ast.pattern) -> list[str]:
    if isinstance(pattern, ast.MatchValue):
        value = pattern.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return [value.value]
        return []
    if isinstance(pattern, ast.MatchOr):
        names = [_case_names(item) for item in pattern.patterns]
        return [name for group in names for name in group] if all(names) else []
    return []


def _looked_up(node: ast.AST, param: str) -> str | None:
    """``TABLE[param]`` or ``TABLE.get(param)`` / ``TABLE.pop(param)``: the table's name."""
    if isinstance(node, ast.Subscript) and _is_name(node.slice, param):
        return node.value.id if isinstance(node.value, ast.Name) else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("get", "pop")
        and node.args
        and _is_name(node.args[0], param)
        and isinstance(node.func.value, ast.Name)
    ):
        return node.func.value.id
    return None


def _named(value: ast.expr | None) -> str | None:
    """The name a table value stands for: ``NEW``, ``"NEW"``, ``("NEW", "message")``."""
    if isinstance(value, ast.Tuple) and value.elts:
        value = value.elts[0]
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value if value.value.isidentifier() else None
    return None


def _returned(body: list[ast.stmt], local: set[str]) -> str | None:
    """The module-level name a branch returns (``return NEW``, ``return mod.NEW``)."""
    for node in body:
        if isinstance(node, ast.Return) and isinstance(node.value, (ast.Name, ast.Attribute)):
            root: ast.expr = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id not in local:
                return ast.unparse(node.value)
    return None


def _imports(body: list[ast.stmt]) -> dict[str, str]:
    """Names a block binds by ``from m import x`` -> their import path (``.m.x``)."""
    found: dict[str, str] = {}
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                for item in node.names:
                    joined = f"{base}.{item.name}" if node.module else base + item.name
                    found[item.asname or item.name] = joined
    return found


def _unconditional(body: list[ast.stmt]) -> list[ast.stmt]:
    return [node for node in body if isinstance(node, (ast.Expr, ast.Assign, ast.Return))]


def _warning_calls(body: list[ast.stmt]) -> Iterator[ast.Call]:
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and _is_warning(node):
                yield node


def _warns(body: list[ast.stmt]) -> bool:
    return next(_warning_calls(body), None) is not None


def _is_warning(call: ast.Call) -> bool:
    """``warn(..., DeprecationWarning)`` (any helper named ``*warn*`` given a deprecation
    category) or a call of a helper named ``*deprecat*`` (``warn_deprecated(...)``)."""
    name = (final_name(call.func) or "").lower()
    if "filter" in name or name in ("catch_warnings", "warns"):
        return False
    if "deprecat" in name:
        return True
    if "warn" not in name:
        return False
    for value in [*call.args, *(keyword.value for keyword in call.keywords)]:
        spelled = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", None)
        if spelled in _WARNING_NAMES:
            return True
    return False


def _warning_message(body: list[ast.stmt], param: str) -> str:
    """The first warning's message, with ``{name}`` of an f-string filled in later
    (``\\x00`` stands for the name answered)."""
    for call in _warning_calls(body):
        if not call.args:
            continue
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return " ".join(first.value.split())[:200] or "deprecated"
        if isinstance(first, ast.JoinedStr):
            parts: list[str] = []
            for item in first.values:
                if isinstance(item, ast.Constant):
                    parts.append(str(item.value))
                elif isinstance(item, ast.FormattedValue) and _is_name(item.value, param):
                    parts.append("\x00")
                else:
                    parts.append("...")
            return " ".join("".join(parts).split())[:200] or "deprecated"
    return "raises DeprecationWarning"


# --- constructors --------------------------------------------------------------------------


def delegates_to_base(source: str) -> bool:
    """Whether a method's source only calls its base's method of the same name:
    ``super().__init__(...)``, ``super(Cls, self).__init__(...)``, ``Base.__init__(self,
    ...)`` (also returned), besides a docstring and ``pass``."""
    try:
        tree = ast.parse(textwrap.dedent(source))
        return _delegates(tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _delegates(tree: ast.Module) -> bool:
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return delegates(tree.body[0])
