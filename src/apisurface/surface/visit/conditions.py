"""Settle ``if sys.version_info ...`` branches before griffe reads a module.

griffe visits both branches of an ``if`` and keeps the definition it sees last, which for
``if sys.version_info >= (3, 8): def f(a) ... else: def f(a, b) ...`` is the branch for old
Pythons. Like a type checker, apisurface decides such conditions for one target version
(:data:`TARGET_PYTHON`, fixed so that a snapshot does not depend on the Python that runs
apisurface) and blanks the dead branch, keeping every line number. Conditions it cannot
decide are left alone (griffe's last-definition-wins applies). See docs/decisions.md.
"""

from __future__ import annotations

import ast
import builtins
import functools
import operator
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = [
    "TARGET_PYTHON",
    "branch_kinds",
    "prefer_definitions",
    "settle_import_fallbacks",
    "settle_version_branches",
    "type_checking_names",
]

TARGET_PYTHON = (3, 14)
"""The Python version ``sys.version_info`` conditions are decided for: the newest release."""

_COMPARE: dict[type[ast.cmpop], Callable[[tuple[int, ...], tuple[int, ...]], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


def settle_version_branches(
    text: str, package: str | None = None, *, tree: ast.Module | None = None
) -> str:
    """``text`` with the dead branch of each decidable version check blanked out (with
    ``package``, a definition the taken branch only imports from outside it is kept,
    see :func:`prefer_definitions`). ``tree``: ``text`` already parsed.

    Raises :class:`SyntaxError` (and what :func:`ast.parse` raises) for unparsable code.
    """
    if "version_info" not in text:
        return text
    tree = tree or ast.parse(text)
    outside = _Outside.of(tree, package) if package else None
    lines = text.splitlines(keepends=True)
    blanked: list[tuple[int, int]] = []
    edits: list[Callable[[], None]] = []
    for node in _top_level_ifs(tree.body):
        if any(start <= node.lineno - 1 <= end for start, end in blanked):
            continue  # inside a branch already removed
        verdict = _decide(node.test)
        if verdict is None or node.body[0].lineno <= node.test.end_lineno:  # type: ignore[operator]
            continue
        dead = node.orelse if verdict else node.body
        if not dead:
            continue
        live = node.body if verdict else node.orelse
        kept = _blank_all_but_definitions(dead, live, lines, outside)
        if kept is not None and outside is not None:
            blanked.extend(kept)
            keep = _kept_definitions(dead, live, outside)
            edits.append(functools.partial(_keep_only, dead, keep))
            continue
        first, last = dead[0], dead[-1]
        start = _first_line(first) - 1
        end = (last.end_lineno or last.lineno) - 1
        before = lines[start][: first.col_offset].strip() if start < len(lines) else "x"
        chain = verdict and isinstance(first, ast.If) and lines[start].lstrip().startswith("elif")
        if chain:
            # ``elif``: blank the whole chain; a ``pass`` at the ``if``'s column ends it.
            column = node.col_offset
        elif before:
            continue  # the branch shares its line with other code (``else: x = 1``)
        else:
            column = first.col_offset
        indent = _indentation(lines[start], column)
        blank = _pass(start + 1, len(indent.encode("utf-8")))
        if chain:
            edits.append(functools.partial(_end_chain, tree, node, blank, list(lines)))
        else:
            edits.append(functools.partial(dead.__setitem__, slice(None), [blank]))
        for index in range(start, end + 1):
            lines[index] = "\n"
        lines[start] = indent + "pass\n"
        blanked.append((start, end))
    for change in edits:  # the tree made to read as the text now does, line for line
        change()
    if edits:
        _refit(tree)
    return "".join(lines) if blanked else text


def _pass(line: int, column: int) -> ast.Pass:
    """The ``pass`` statement a blanked statement leaves, as ``ast.parse`` reads it."""
    return ast.Pass(lineno=line, col_offset=column, end_lineno=line, end_col_offset=column + 4)


def _containing(tree: ast.Module, statement: ast.stmt) -> list[ast.stmt] | None:
    """The list of statements of ``tree`` that holds ``statement``."""
    for node in ast.walk(tree):
        for _, value in ast.iter_fields(node):
            if isinstance(value, list) and any(item is statement for item in value):
                return value
    return None


def _replace(tree: ast.Module, statement: ast.stmt, by: list[ast.stmt]) -> None:
    holder = _containing(tree, statement)
    if holder is not None:
        index = next(i for i, item in enumerate(holder) if item is statement)
        holder[index : index + 1] = by


def _end_chain(tree: ast.Module, node: ast.If, blank: ast.Pass, lines: list[str]) -> None:
    """``node``'s ``elif`` chain dropped, and the ``pass`` left at its first line after the
    ``if`` the chain belongs to (it sits at that ``if``'s column)."""
    node.orelse[:] = []
    current: ast.stmt = node
    holder = _containing(tree, current)
    while holder is not None and lines[current.lineno - 1].lstrip().startswith("elif"):
        outer = next(
            (
                item
                for item in ast.walk(tree)
                if isinstance(item, ast.If) and item.orelse is holder and len(holder) == 1
            ),
            None,
        )
        if outer is None:
            break
        current, holder = outer, _containing(tree, outer)
    if holder is not None:
        index = next(i for i, item in enumerate(holder) if item is current)
        holder.insert(index + 1, blank)


def _keep_only(dead: list[ast.stmt], keep: list[ast.stmt]) -> None:
    """The tree of :func:`_blank_all_but_definitions`: only the kept definitions remain."""
    dead[:] = [statement for statement in dead if any(statement is kept for kept in keep)]


def _blank_all_but_definitions(
    dead: list[ast.stmt], live: list[ast.stmt], lines: list[str], outside: _Outside | None
) -> list[tuple[int, int]] | None:
    """Blank the dead branch except the classes and functions it defines under a name the
    live branch assigns an object from outside the package (``X = typing.X``, which would
    read as a plain attribute): the definition is kept for :func:`prefer_definitions`, and
    gives the name its kind. An import in the live branch keeps the settled reading (the
    name is then not on the surface; keeping the definition would add it). The blanked
    line ranges, or None (nothing kept, or a statement shares its line with other code:
    blank the branch whole)."""
    if outside is None:
        return None
    keep = _kept_definitions(dead, live, outside)
    if not keep:
        return None
    ranges: list[tuple[int, int]] = []
    for statement in dead:
        if statement in keep:
            continue
        start = _first_line(statement) - 1
        end = (statement.end_lineno or statement.lineno) - 1
        if start >= len(lines) or lines[start][: statement.col_offset].strip():
            return None
        ranges.append((start, end))
    for start, end in ranges:
        for index in range(start, end + 1):
            lines[index] = "\n"
    return ranges


def _kept_definitions(
    dead: list[ast.stmt], live: list[ast.stmt], outside: _Outside
) -> list[ast.stmt]:
    referenced = {
        name
        for statement in live
        if isinstance(statement, ast.Assign)
        for name in outside.references(statement) or ()
    }
    return [
        statement
        for statement in dead
        if isinstance(statement, _DEFINITIONS) and statement.name in referenced
    ]


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BRANCH_OPENERS = frozenset({"if", "elif", "else", "try", "except"})
_DEFINITION_LINE = re.compile(r"(?:async\s+)?(?:def|class)\s+(\w+)")
_BINDING_LINE = re.compile(r"(\w+)\s*=\s*[\w.]+\s*(?:#.*)?$|(?:from\s+[\w.]+\s+)?import\s+([^#;]+)")


def _branch_names(text: str) -> tuple[set[str], set[str]]:
    """A cheap look, line by line, at the names defined (``def``/``class``) anywhere and
    bound (imports, ``X = name``) directly inside ``if``/``else``/``try``/``except``
    blocks: only a name in both is worth parsing the module for."""
    defined: set[str] = set()
    bound: set[str] = set()
    stack: list[tuple[int, str]] = []  # the block openers enclosing the current line
    for line in text.splitlines():
        stripped = line.lstrip()
        if not stripped or stripped.startswith(("#", "@")):
            continue
        indent = len(line) - len(stripped)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        in_branch = bool(stack) and stack[-1][1] in _BRANCH_OPENERS
        if match := _DEFINITION_LINE.match(stripped):
            # in a branch, or before one (the path that does not rebind the name keeps it)
            defined.add(match.group(1))
        elif in_branch and (match := _BINDING_LINE.match(stripped)):
            bound.add(match.group(1) or "")
            bound.update(re.findall(r"\w+", match.group(2) or ""))
        if stripped.rstrip().endswith(":"):
            stack.append((indent, re.split(r"[\s:(]", stripped, maxsplit=1)[0]))
    return defined, bound


@dataclass(frozen=True, slots=True)
class _Outside:
    """What a module binds to objects from outside its package: names imported from
    other distributions or the standard library, and the builtins."""

    package: str
    names: frozenset[str]

    @classmethod
    def of(cls, tree: ast.Module, package: str) -> _Outside:
        names = set(dir(builtins))
        for statement in _module_level(tree.body):
            if isinstance(statement, ast.Import):
                for item in statement.names:
                    if item.name.partition(".")[0] != package:
                        names.add(item.asname or item.name.partition(".")[0])
            elif isinstance(statement, ast.ImportFrom) and cls.foreign(statement, package):
                names.update(item.asname or item.name for item in statement.names)
        return cls(package, frozenset(names))

    @staticmethod
    def foreign(statement: ast.ImportFrom, package: str) -> bool:
        return statement.level == 0 and (statement.module or "").partition(".")[0] != package

    def references(self, statement: ast.stmt) -> list[str] | None:
        """The names an import from outside the package, or ``X = name`` / ``X = mod.name``
        with ``name``/``mod`` from outside, binds; None for any other statement."""
        if isinstance(statement, ast.Import):
            if any(item.name.partition(".")[0] == self.package for item in statement.names):
                return None
            names = [item.asname or item.name for item in statement.names]
            return None if any("." in name for name in names) else names
        if isinstance(statement, ast.ImportFrom):
            if not self.foreign(statement, self.package):
                return None
            names = [item.asname or item.name for item in statement.names]
            return None if "*" in names else names
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, (ast.Name, ast.Attribute))
        ):
            root: ast.expr = statement.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in self.names:
                return [statement.targets[0].id]
        return None


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` and the blocks of its ``if`` and ``try`` statements, in source order,
    however deeply they nest (a stack of blocks, not recursion: no depth cut-off)."""
    found: list[ast.stmt] = []
    blocks: list[Iterator[ast.stmt]] = [iter(body)]
    while blocks:
        statement = next(blocks[-1], None)
        if statement is None:
            blocks.pop()
            continue
        found.append(statement)
        if isinstance(statement, (ast.If, ast.Try)):
            nested = [block for block, _ in _branches(statement)]
            blocks.extend(iter(block) for block in reversed(nested))
    return found


def prefer_definitions(text: str, package: str, *, tree: ast.Module | None = None) -> str:
    """``text`` with an import or a name assignment of an object from outside
    ``package`` blanked out when another branch of the same ``if``/``try`` defines that
    name by ``def`` or ``class``: the definition wins, whichever branch griffe would see
    last (it is what the project wrote and documents; the outside object's kind and
    signature are unknown). A definition under ``if TYPE_CHECKING:`` does not count: it
    only declares types. See docs/decisions.md. ``tree``: ``text`` already parsed.

    Raises :class:`SyntaxError` (and what :func:`ast.parse` raises) for unparsable code.
    """
    defined_somewhere, bound = _branch_names(text)
    if defined_somewhere.isdisjoint(bound):
        return text  # no name both defined and bound in branches
    tree = tree or ast.parse(text)
    outside = _Outside.of(tree, package)
    lines = text.splitlines(keepends=True)
    changed = False
    blanks: list[tuple[ast.stmt, ast.Pass]] = []
    for node, before in _branching(tree.body):
        branches = _branches(node)
        defined: dict[str, set[int]] = {}
        for index, (branch, typing_only) in enumerate(branches):
            for statement in branch:
                if isinstance(statement, _DEFINITIONS) and not typing_only:
                    defined.setdefault(statement.name, set()).add(index)
        # A definition before the statement survives on every path that does not bind
        # the name again (``except ImportError: pass``, an ``if`` without ``else``).
        paths = [_bound_in(branch) for branch, _ in branches]
        if isinstance(node, ast.If) and not _ends_in_else(node):
            paths.append(frozenset())  # the path where no condition holds
        if _always_first(node):
            paths = paths[:1]  # the other paths never run on the target Python
        for name in before:
            for index, rebound in enumerate(paths):
                if name not in rebound:
                    defined.setdefault(name, set()).add(index)
        if not defined:
            continue
        for index, (branch, _) in enumerate(branches):
            for statement in branch:
                names = outside.references(statement)
                if not names or not all(defined.get(name, set()) - {index} for name in names):
                    continue
                changed |= _blank_statement(statement, lines, blanks)
    _apply(tree, blanks)
    return "".join(lines) if changed else text


def _bound_in(branch: list[ast.stmt]) -> frozenset[str]:
    """The names a block binds directly (definitions, imports, ``X = ...``), through its
    ``if``/``try`` statements however deeply they nest."""
    found: set[str] = set()
    pending = list(branch)
    while pending:
        statement = pending.pop()
        if isinstance(statement, _DEFINITIONS):
            found.add(statement.name)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            found.update((item.asname or item.name).partition(".")[0] for item in statement.names)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                found.update(item.id for item in ast.walk(target) if isinstance(item, ast.Name))
        elif isinstance(statement, (ast.If, ast.Try)):
            pending.extend(item for block, _ in _branches(statement) for item in block)
    return frozenset(found)


def _always_first(node: ast.If | ast.Try) -> bool:
    """Whether the first branch always runs on the target Python: a version check decided
    true, or a ``try`` that only imports the standard library."""
    if isinstance(node, ast.If):
        return _decide(node.test) is True
    if not any(map(_catches_import_error, node.handlers)):
        return False
    return bool(node.body) and all(_stdlib_import_names(item) for item in node.body)


def _ends_in_else(node: ast.If) -> bool:
    """Whether an ``if``/``elif`` chain ends in an ``else`` (some branch always runs)."""
    while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        node = node.orelse[0]
    return bool(node.orelse)


def _branching(body: list[ast.stmt]) -> list[tuple[ast.If | ast.Try, frozenset[str]]]:
    """``if`` and ``try`` statements of a module or class body, nested ones included, in
    source order, however deeply they nest (no depth cut-off); each with the names defined
    (``def``/``class``) before it in the same block and not bound again since."""
    found: list[tuple[ast.If | ast.Try, frozenset[str]]] = []
    blocks: list[tuple[Iterator[ast.stmt], set[str]]] = [(iter(body), set())]
    while blocks:
        statements, before = blocks[-1]
        statement = next(statements, None)
        if statement is None:
            blocks.pop()
        elif isinstance(statement, (ast.If, ast.Try)):
            found.append((statement, frozenset(before)))
            before -= _bound_in([statement])
            nested = [branch for branch, _ in _branches(statement)]
            blocks.extend((iter(branch), set()) for branch in reversed(nested))
        elif isinstance(statement, ast.ClassDef):
            before.add(statement.name)
            blocks.append((iter(statement.body), set()))
        elif isinstance(statement, _DEFINITIONS):
            before.add(statement.name)
        else:
            before -= _bound_in([statement])
    return found


def _branches(node: ast.If | ast.Try) -> list[tuple[list[ast.stmt], bool]]:
    """The alternative blocks of one statement: ``if``/``elif``/``else`` bodies, or a
    ``try`` body (with its ``else``) and each handler's body; each with whether it is
    only for type checkers (the body of a condition naming ``TYPE_CHECKING``)."""
    if isinstance(node, ast.Try):
        return [
            ([*node.body, *node.orelse], False),
            *((handler.body, False) for handler in node.handlers),
        ]
    branches = [(node.body, _names_type_checking(node.test))]
    rest = node.orelse
    while len(rest) == 1 and isinstance(rest[0], ast.If):  # an ``elif`` chain
        branches.append((rest[0].body, _names_type_checking(rest[0].test)))
        rest = rest[0].orelse
    if rest:
        branches.append((rest, False))
    return branches


def _names_type_checking(test: ast.expr) -> bool:
    return any(_is_type_checking(node) for node in ast.walk(test) if isinstance(node, ast.expr))


def _blank_statement(
    statement: ast.stmt, lines: list[str], edits: list[tuple[ast.stmt, ast.Pass]]
) -> bool:
    """Replace a statement alone on its lines by ``pass`` (line numbers kept), and note the
    replacement for the tree in ``edits``."""
    start, end = statement.lineno - 1, (statement.end_lineno or statement.lineno) - 1
    if end >= len(lines) or lines[start][: statement.col_offset].strip():
        return False
    tail = lines[end].encode("utf-8")[statement.end_col_offset or 0 :]
    rest = tail.decode("utf-8", errors="replace").strip()
    if rest and not rest.startswith("#"):
        return False
    indent = _indentation(lines[start], statement.col_offset)
    for index in range(start, end + 1):
        lines[index] = "\n"
    lines[start] = indent + "pass\n"
    edits.append((statement, _pass(start + 1, len(indent.encode("utf-8")))))
    return True


def _apply(tree: ast.Module, edits: list[tuple[ast.stmt, ast.Pass]]) -> None:
    """The statements of ``edits`` replaced in ``tree`` by their ``pass``."""
    for statement, blank in edits:
        _replace(tree, statement, [blank])
    if edits:
        _refit(tree)


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _refit(node: ast.AST) -> tuple[int, int] | None:
    """Each compound statement under ``node`` made to end where its last statement now
    ends (as a parse of the edited text places it); the end of ``node``'s own blocks."""
    last: tuple[int, int] | None = None
    for name in _BLOCKS:
        items = getattr(node, name, None)
        if not isinstance(items, list):
            continue
        for item in items:
            end = _refit(item)
            if isinstance(item, ast.stmt | ast.excepthandler):
                end = (item.end_lineno or item.lineno, item.end_col_offset or 0)
            if end is not None and (last is None or end > last):
                last = end
    if last is not None and isinstance(node, ast.stmt | ast.excepthandler):
        node.end_lineno, node.end_col_offset = last
    return last


def _indentation(line: str, column: int) -> str:
    """The indentation of a ``pass`` replacing the statement at ``column`` of ``line``: the
    line's own leading whitespace (tabs stay tabs: a tab-indented module, pathspec's, must
    stay valid), or ``column`` spaces when the line has other text before that column."""
    prefix = line[:column]
    return prefix if prefix and not prefix.strip(" \t") else " " * column


def _first_line(statement: ast.stmt) -> int:
    """The first line of a statement, its decorators included."""
    decorators = getattr(statement, "decorator_list", None) or []
    return min([statement.lineno, *(int(decorator.lineno) for decorator in decorators)])


def _top_level_ifs(body: list[ast.stmt]) -> list[ast.If]:
    """``if`` statements of a module or class body, nested ifs and try blocks included."""
    found: list[ast.If] = []
    for statement in body:
        if isinstance(statement, ast.If):
            found.append(statement)
            found.extend(_top_level_ifs(statement.body))
            found.extend(_top_level_ifs(statement.orelse))
        elif isinstance(statement, ast.ClassDef):
            found.extend(_top_level_ifs(statement.body))
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                found.extend(_top_level_ifs(block))
            for handler in statement.handlers:
                found.extend(_top_level_ifs(handler.body))
    return found


def _decide(test: ast.expr) -> bool | None:
    """True/False for ``sys.version_info <op> (3, N)`` (also ``[:2]``, ``>= (3,)``)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _decide(test.operand)
        return None if inner is None else not inner
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, right, compare = test.left, test.comparators[0], type(test.ops[0])
    if isinstance(left, ast.Subscript) and isinstance(left.slice, ast.Slice):
        left = left.value
    is_version = (isinstance(left, ast.Attribute) and left.attr == "version_info") or (
        isinstance(left, ast.Name) and left.id == "version_info"
    )
    if not is_version or compare not in _COMPARE or not isinstance(right, ast.Tuple):
        return None
    numbers: list[int] = []
    for element in right.elts:
        if not isinstance(element, ast.Constant) or type(element.value) is not int:
            return None
        numbers.append(element.value)
    if not numbers or len(numbers) > 2:
        return None
    return _COMPARE[compare](TARGET_PYTHON[: len(numbers)], tuple(numbers))


def branch_kinds(tree: ast.Module) -> dict[str, tuple[tuple[int, str], ...]]:
    """Module-level names defined as a class in one branch of an ``if``/``try`` and as a
    function in another: name -> (line, ``"class"`` or ``"function"``) of each definition.
    Branches the target Python settles (a version check) or that only type checkers see
    are left out: their kind is known."""
    found: dict[str, tuple[tuple[int, str], ...]] = {}
    for node, _ in _branching(tree.body):
        if isinstance(node, ast.If) and _decide(node.test) is not None:
            continue
        kinds: dict[str, dict[int, tuple[int, str]]] = {}
        for index, (branch, typing_only) in enumerate(_branches(node)):
            if typing_only:
                continue
            for statement in branch:
                if isinstance(statement, _DEFINITIONS):
                    kind = "class" if isinstance(statement, ast.ClassDef) else "function"
                    kinds.setdefault(statement.name, {})[index] = (statement.lineno, kind)
        for name, seen in kinds.items():
            if len({kind for _, kind in seen.values()}) > 1:
                found[name] = tuple(sorted(seen.values()))
    return found


def type_checking_names(text: str, *, tree: ast.Module | None = None) -> frozenset[str]:
    """Module-level names bound only inside ``if TYPE_CHECKING:`` (however spelled:
    ``typing.TYPE_CHECKING``, ``t.TYPE_CHECKING``), or only inside ``if __name__ ==
    "__main__":`` (when the module runs as a script): they do not exist when it is
    imported. Class members bound so are listed too, dotted (``Class.member``).

    A name also bound outside such a block (an ``else:`` branch, a later assignment) is
    not listed. Nor is a name of ``__all__`` in a module that defines ``__getattr__``
    (PEP 562): the lazy-import idiom serves it at run time. Unparsable code gives no names
    (the visit reports it). ``tree``: ``text`` already parsed."""
    if "TYPE_CHECKING" not in text and "__main__" not in text:
        return frozenset()
    try:
        tree = tree or ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    guarded: set[str] = set()
    runtime: set[str] = set()
    _bound_names(tree.body, guarded, runtime, in_guard=False)
    if "__getattr__" in runtime:
        runtime |= _literal_all(tree.body)
    return frozenset(guarded - runtime) | frozenset(_class_guarded(tree.body, ""))


def _class_guarded(body: list[ast.stmt], prefix: str) -> set[str]:
    """Members of the classes defined in ``body`` (and of their nested classes) bound only
    inside ``if TYPE_CHECKING:`` in the class body, each as ``Class.member``
    (``Outer.Inner.member``): declarations for type checkers that the class's namespace
    lacks at run time (sqlalchemy declares ``__eq__`` so)."""
    found: set[str] = set()
    for statement in body:
        if isinstance(statement, ast.ClassDef):
            qualified = f"{prefix}{statement.name}"
            guarded: set[str] = set()
            runtime: set[str] = set()
            _bound_names(statement.body, guarded, runtime, in_guard=False)
            found.update(f"{qualified}.{name}" for name in guarded - runtime)
            found |= _class_guarded(statement.body, f"{qualified}.")
        elif isinstance(statement, ast.If):
            found |= _class_guarded(statement.body, prefix) | _class_guarded(
                statement.orelse, prefix
            )
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                found |= _class_guarded(block, prefix)
    return found


def _literal_all(body: list[ast.stmt]) -> set[str]:
    """The strings of a module-level ``__all__ = [...]`` (or tuple), if written literally."""
    names: set[str] = set()
    for statement in body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            value = statement.value
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and isinstance(
                value, (ast.List, ast.Tuple)
            ):
                names.update(
                    item.value
                    for item in value.elts
                    if isinstance(item, ast.Constant) and isinstance(item.value, str)
                )
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_main(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    if not isinstance(test.ops[0], ast.Eq):
        return False
    sides = (test.left, test.comparators[0])
    return any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides) and any(
        isinstance(side, ast.Constant) and side.value == "__main__" for side in sides
    )


def _bound_names(
    body: list[ast.stmt], guarded: set[str], runtime: set[str], *, in_guard: bool
) -> None:
    for statement in body:
        names = guarded if in_guard else runtime
        if isinstance(statement, ast.If):
            test = statement.test
            guard = in_guard or _is_type_checking(test) or _is_main(test)
            _bound_names(statement.body, guarded, runtime, in_guard=guard)
            _bound_names(statement.orelse, guarded, runtime, in_guard=in_guard)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                _bound_names(block, guarded, runtime, in_guard=in_guard)
            for handler in statement.handlers:
                _bound_names(handler.body, guarded, runtime, in_guard=in_guard)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            _bound_names(statement.body, guarded, runtime, in_guard=in_guard)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            for alias in statement.names:
                names.add(alias.asname or alias.name.partition(".")[0])
        elif isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                names.update(node.id for node in ast.walk(target) if isinstance(node, ast.Name))


# Standard-library modules removed before TARGET_PYTHON (PEP 594, PEP 632, 3.12's removals):
# an import of one of them fails there, whatever the running Python has.
_REMOVED_STDLIB = frozenset(
    {
        "aifc", "asynchat", "asyncore", "audioop", "cgi", "cgitb", "chunk", "crypt",
        "distutils", "imghdr", "imp", "mailcap", "msilib", "nis", "nntplib", "ossaudiodev",
        "pipes", "smtpd", "sndhdr", "spwd", "sunau", "telnetlib", "uu", "xdrlib",
    }
)  # fmt: skip
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def settle_import_fallbacks(text: str, *, tree: ast.Module | None = None) -> str:
    """``text`` with the fallback of a decidable standard-library import blanked out:
    ``try: import collections.abc as abc_ except ImportError: import collections as abc_``
    binds the ``try`` branch's module on every Python the check is decided for (the
    module exists in the standard library there), so the ``except`` branch's imports of
    the same names are dead (griffe would otherwise keep the last binding). Imports of
    other packages are left alone: whether they are installed is not known. ``tree``:
    ``text`` already parsed.

    Raises :class:`SyntaxError` (and what :func:`ast.parse` raises) for unparsable code."""
    if "ImportError" not in text and "ModuleNotFoundError" not in text:
        return text
    tree = tree or ast.parse(text)
    lines = text.splitlines(keepends=True)
    changed = False
    blanks: list[tuple[ast.stmt, ast.Pass]] = []
    for node, _ in _branching(tree.body):
        if not isinstance(node, ast.Try) or not any(map(_catches_import_error, node.handlers)):
            continue
        bound: set[str] = set()
        for statement in node.body:
            names = _stdlib_import_names(statement)
            if names is None:
                bound.clear()
                break  # the try branch does more than import the standard library
            bound |= names
        if not bound:
            continue
        for handler in node.handlers:
            for statement in handler.body:
                names = _stdlib_import_names(statement)
                if names and names <= bound:
                    changed |= _blank_statement(statement, lines, blanks)
    _apply(tree, blanks)
    return "".join(lines) if changed else text


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    items = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(isinstance(item, ast.Name) and item.id in _IMPORT_ERRORS for item in items)


def _stdlib_import_names(statement: ast.stmt) -> set[str] | None:
    """The names an import of standard-library modules binds; None for anything else."""
    if isinstance(statement, ast.Import):
        modules = [item.name for item in statement.names]
        names = {item.asname or item.name.partition(".")[0] for item in statement.names}
    elif isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
        modules = [statement.module]
        names = {item.asname or item.name for item in statement.names}
    else:
        return None
    for module in modules:
        top = module.partition(".")[0]
        if top not in sys.stdlib_module_names or top in _REMOVED_STDLIB:
            return None
    return names
