"""From a migration spec to a user's code: every use the change set breaks or touches,
and the rewrite of the uses that can be rewritten safely.

User code is read statically with libcst (never imported or run). Names are resolved per
file: imports of the package (``import pkg.mod as m``, ``from pkg.mod import f as g``,
``from pkg import *``) bind local names to public paths, attribute chains extend them,
and inside a class deriving from a class of the package ``self.m(...)`` and
``super().m(...)`` name the base's method. A name the file also binds in any other way
(an assignment, a parameter, a definition, an import from elsewhere) is ambiguous: its
uses are reported, never rewritten.

One pass computes the findings from the original tree; with ``rewrite=True`` the same pass
also returns the rewritten module (formatting and comments kept). What is left after a
rewrite is found by analysing the rewritten text again.
"""

from __future__ import annotations

import ast
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, ImportItem
from libcst.metadata import MetadataWrapper, PositionProvider

from apisurface.errors import SourceError
from apisurface.project.pytext import UnreadEncoding, decode_python
from apisurface.project.safeio import NotRegularFile, TooLarge, read_regular
from apisurface.project.sources import MAX_FILE_BYTES
from apisurface.release.bindings import Bindings, bindings_of
from apisurface.release.migration import Entry, MigrationSpec, through
from apisurface.release.writeback import rewritten_bytes
from apisurface.rows import CHECK_USE, CallCheck, Successor

__all__ = ["FileResult", "Use", "analyse_source", "find_sources", "is_breaking"]

_MAX_FILE = 8 * 1024 * 1024
_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages"})
# Replacements a use is rewritten to (the caller hints of the rows, src/apisurface/changes.py).
_REWRITTEN = frozenset({Successor.NEW_PATH, Successor.NAMED})


@dataclass(frozen=True, slots=True, order=True)
class Use:
    """One use of the package that a change meets: where, which change, what to do."""

    file: str
    line: int
    column: int
    path: str
    rule: str
    level: str
    message: str
    action: str
    fixable: bool = False


def is_breaking(use: Use) -> bool:
    """Whether the use fails or changes meaning on NEW (a MAJOR change)."""
    return use.level == "major"


@dataclass(slots=True)
class FileResult:
    """The uses found in one file, and its rewritten text when asked for."""

    file: str
    uses: list[Use] = field(default_factory=list)
    original: bytes = b""
    rewritten: bytes | None = None
    problem: str | None = None


# --- files ------------------------------------------------------------------------------


def find_sources(paths: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The ``.py`` files named by ``paths`` (files, or folders walked without following
    links, skipping hidden folders and caches), and the problems met on the way: a link,
    a FIFO, a device or a folder named like a module is skipped, never opened.
    A path that does not exist is bad input (:class:`SourceError`)."""
    files: list[Path] = []
    problems: list[str] = []
    for name in paths:
        path = Path(name)
        if path.is_symlink() and path.is_file():
            problems.append(f"{name}: a symbolic link; skipped (name the file it points to)")
            continue
        if path.is_file():
            files.append(path)
            continue
        if not path.is_dir():
            if path.exists():
                problems.append(f"{name}: not a regular file (a FIFO or device); skipped")
                continue
            raise SourceError(f"{name}: no such file or folder")
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
            for file_name in sorted(names):
                if not file_name.endswith(".py"):
                    continue
                file = Path(folder) / file_name
                try:
                    mode = file.lstat().st_mode
                except OSError as error:
                    problems.append(f"{file}: cannot read ({error.strerror}); skipped")
                    continue
                if stat.S_ISLNK(mode):
                    problems.append(f"{file}: a symbolic link; skipped")
                elif not stat.S_ISREG(mode):
                    problems.append(f"{file}: not a regular file (a FIFO or device); skipped")
                else:
                    files.append(file)
    unique = sorted(dict.fromkeys(files))
    return unique, problems


# --- the analysis -----------------------------------------------------------------------


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr.value}"
    return None


def _expression(dotted: str) -> cst.BaseExpression:
    parts = dotted.split(".")
    node: cst.BaseExpression = cst.Name(parts[0])
    for part in parts[1:]:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


def _parent(path: str) -> str:
    return path.rpartition(".")[0]


def _name(path: str) -> str:
    return path.rpartition(".")[2]


@dataclass(slots=True)
class _ClassContext:
    bases: list[str]
    own: set[str]


class _Analyser(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, spec: MigrationSpec, file: str, bindings: Bindings, rewrite: bool):
        super().__init__()
        self.spec = spec
        self.file = file
        self.bindings = bindings
        self.rewrite = rewrite
        self.entries = spec.by_path()
        self.known = set(self.entries) | set(spec.renames) | set(spec.modules)
        self.uses: list[Use] = []
        self.needed: list[ImportItem] = []
        self.renamed_locals: dict[str, str] = {}
        self.skip: set[int] = set()
        self.classes: list[_ClassContext | None] = []
        self.functions = 0
        self.package_top = spec.package.partition(".")[0]
        self._plan_imports()

    # -- helpers --

    def position(self, node: cst.CSTNode) -> tuple[int, int]:
        where = self.get_metadata(PositionProvider, node)
        return where.start.line, where.start.column + 1

    def report(
        self, node: cst.CSTNode, entry: Entry, action: str, *, fixable: bool = False
    ) -> None:
        line, column = self.position(node)
        self.uses.append(
            Use(
                self.file,
                line,
                column,
                entry.path,
                entry.rule,
                entry.level,
                entry.message,
                action,
                fixable,
            )
        )

    def symbol_entries(self, path: str) -> list[Entry]:
        return [entry for entry in self.entries.get(path, ()) if entry.parameter is None]

    def replacement(self, path: str) -> tuple[Entry, str] | None:
        """The entry that moves ``path`` and where to, when there is exactly one target."""
        targets = {
            entry.replacement: entry
            for entry in self.symbol_entries(path)
            if entry.replacement is not None and entry.hint.successor in _REWRITTEN
        }
        if len(targets) != 1:
            return None
        target, entry = next(iter(targets.items()))
        return (entry, target) if target else None

    def free(self, name: str) -> bool:
        """Whether ``name`` can be bound to a path of the package in this file without
        clashing with anything the file binds otherwise."""
        return name not in self.bindings.other and name not in self.bindings.imported

    def resolve_name(self, name: str) -> tuple[str, str] | None:
        """The public path a bare name stands for, and how it is bound (``import``,
        ``from``, ``star``); ``None`` when it is not the package's or is ambiguous."""
        if name in self.bindings.other:
            return None
        path = self.bindings.imported.get(name)
        if path is not None:
            return path, "from" if name in self.bindings.via_from else "import"
        hits = [f"{module}.{name}" for module in self.bindings.stars]
        hits = [hit for hit in hits if hit in self.known]
        if len(hits) == 1:
            return hits[0], "star"
        return None

    def resolve_expr(self, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.Name):
            found = self.resolve_name(node.value)
            return None if found is None else found[0]
        if isinstance(node, cst.Attribute):
            head = self.resolve_expr(node.value)
            return None if head is None else f"{head}.{node.attr.value}"
        return None

    def ambiguous(self, name: str) -> list[str]:
        """Paths of the package an ambiguous bare name may stand for."""
        if name not in self.bindings.other:
            return []
        paths = []
        if name in self.bindings.imported:
            paths.append(self.bindings.imported[name])
        paths += [f"{module}.{name}" for module in self.bindings.stars]
        return [path for path in paths if path in self.entries]

    # -- imports --

    def _plan_imports(self) -> None:
        """Local names whose ``from`` import is rewritten to a new name: uses follow."""
        self.import_plan: dict[str, tuple[str, str | None]] = {}  # local -> (path, alias)
        for local, path in self.bindings.imported.items():
            if local not in self.bindings.via_from or local in self.bindings.other:
                continue
            moved = self.replacement(path)
            if moved is None:
                continue
            target = moved[1]
            new_name = _name(target)
            original = _name(path)
            if local != original:  # ``as`` alias: keep it
                alias: str | None = local if local != new_name else None
            elif new_name == local or self.free(new_name):
                alias = None
                if new_name != local:
                    self.renamed_locals[local] = new_name
            else:
                alias = local
            self.import_plan[local] = (target, alias)

    def module_target(self, module: str) -> str | None:
        """Where an imported module went: its own rename or deprecation replacement, or a
        renamed parent package (``pkg.old.sub`` -> ``pkg.new.sub``)."""
        moved = self.replacement(module)
        if moved is not None:
            return moved[1]
        renamed = through(module, self.spec.renames)
        return renamed if renamed != module else None

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            module = _dotted(alias.name)
            if module is None:
                continue
            target = self.import_target(alias, module)
            for entry in self.symbol_entries(module):
                moves = target is not None and entry.replacement == target
                self.report(alias, entry, _action(entry, fixable=moves), fixable=moves)
        return False

    def import_target(self, alias: cst.ImportAlias, module: str) -> str | None:
        """The module ``import module [as name]`` should import instead, when the rewrite
        keeps every use valid: with ``as``, the uses go through the alias; without, the
        chains are rewritten one by one, which needs the top-level name unchanged."""
        target = self.module_target(module)
        if target is None:
            return None
        if alias.asname is None and target.partition(".")[0] != module.partition(".")[0]:
            return None
        return target

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        if not self.rewrite:
            return updated_node
        names = []
        for alias in updated_node.names:
            module = _dotted(alias.name)
            target = None if module is None else self.import_target(alias, module)
            names.append(alias if target is None else alias.with_changes(name=_expression(target)))
        return updated_node.with_changes(names=names)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            if isinstance(node.names, cst.ImportStar) and node.module is not None:
                module = _dotted(node.module)
                for entry in self.symbol_entries(module or ""):
                    self.report(node, entry, _action(entry, fixable=False))
            return False
        module = _dotted(node.module)
        if module is None or not (
            module == self.spec.package or module.startswith(self.spec.package + ".")
        ):
            return False
        for alias in node.names:
            name = _dotted(alias.name) or ""
            local = alias.asname.name.value if alias.asname else name  # type: ignore[union-attr]
            path = f"{module}.{name}"
            fixable = local in self.import_plan and self.import_plan[local][0] is not None
            for entry in self.symbol_entries(path):
                moves = entry.replacement is not None and entry.hint.successor in _REWRITTEN
                self.report(
                    alias,
                    entry,
                    _action(entry, fixable=fixable and moves),
                    fixable=fixable and moves,
                )
        return False

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        if not self.rewrite:
            return updated_node
        body: list[cst.BaseSmallStatement] = []
        extra: list[cst.SimpleStatementLine] = []
        changed = False
        for original, updated in zip(original_node.body, updated_node.body, strict=True):
            if not isinstance(original, cst.ImportFrom):
                body.append(updated)
                continue
            kept, added = self._rewrite_from(original)
            if kept is not original or added:
                changed = True
            if kept is not None:
                body.append(kept)
            extra += [cst.SimpleStatementLine(body=[statement]) for statement in added]
        if not changed:
            return updated_node
        if not body:
            if not extra:
                return cst.RemoveFromParent()
            first = extra[0].with_changes(leading_lines=updated_node.leading_lines)
            return cst.FlattenSentinel([first, *extra[1:]])
        last = body[-1]
        if isinstance(last, cst.ImportFrom | cst.Import | cst.Expr | cst.Assign):
            body[-1] = last.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
        line = updated_node.with_changes(body=body)
        return cst.FlattenSentinel([line, *extra]) if extra else line

    def _rewrite_from(
        self, node: cst.ImportFrom
    ) -> tuple[cst.ImportFrom | None, list[cst.ImportFrom]]:
        """The statement with its moved names taken out or renamed in place, and the new
        statements importing them from where they went."""
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return node, []
        module = _dotted(node.module)
        if module is None:
            return node, []
        kept: list[cst.ImportAlias] = []
        moved: dict[str, list[cst.ImportAlias]] = {}
        changed = False
        for alias in node.names:
            name = _dotted(alias.name) or ""
            local = alias.asname.name.value if alias.asname else name  # type: ignore[union-attr]
            plan = self.import_plan.get(local)
            if plan is None or self.bindings.imported.get(local) != f"{module}.{name}":
                kept.append(alias)
                continue
            changed = True
            target, as_name = plan
            new_alias = cst.ImportAlias(
                name=cst.Name(_name(target)),
                asname=cst.AsName(name=cst.Name(as_name)) if as_name else None,
            )
            if _parent(target) == module:
                kept.append(new_alias.with_changes(comma=alias.comma))
            else:
                moved.setdefault(_parent(target), []).append(new_alias)
        if not changed:
            return node, []
        added = [
            cst.ImportFrom(module=_expression(target_module), names=_commas(aliases))  # type: ignore[arg-type]
            for target_module, aliases in moved.items()
        ]
        if not kept:
            return None, added
        # In parentheses the last name keeps the layout of the original last one (a trailing
        # comma and the new line before ``)``); otherwise it has no comma.
        last_comma = node.names[-1].comma if node.lpar else cst.MaybeSentinel.DEFAULT
        kept[-1] = kept[-1].with_changes(comma=last_comma)
        return node.with_changes(names=kept), added

    # -- classes --

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.skip.add(id(node.name))
        bases = []
        for arg in node.bases:
            path = self.resolve_expr(arg.value)
            if path is not None:
                bases.append(path)
        own = {item.name.value for item in node.body.body if isinstance(item, cst.FunctionDef)}
        self.classes.append(_ClassContext(bases, own) if bases else None)
        if bases:
            for item in node.body.body:
                if isinstance(item, cst.FunctionDef):
                    for base in bases:
                        self._override(item, base)

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        self.classes.pop()
        return updated_node

    def _override(self, method: cst.FunctionDef, base: str) -> None:
        """Report the changes of the base method ``method`` overrides that reach it: the
        base method gone or renamed (the override is no longer called), a parameter the
        override declares removed, renamed or moved, a parameter the base now passes that
        the override does not accept, a change of kind, and a deprecation."""
        params = method.params
        declared = {
            param.name.value
            for param in (*params.posonly_params, *params.params, *params.kwonly_params)
        }
        takes_any = isinstance(params.star_kwarg, cst.Param)
        seen: set[tuple[str, str | None]] = set()
        for spelled in dict.fromkeys([base, through(base, self.spec.renames)]):
            for entry in self.entries.get(f"{spelled}.{method.name.value}", ()):
                if (entry.rule, entry.parameter) in seen:
                    continue
                reaches = entry.hint.overrides
                if entry.parameter is not None:
                    if reaches == "undeclared":
                        if entry.parameter in declared or takes_any:
                            continue
                    elif reaches == "never" or entry.parameter not in declared:
                        continue
                seen.add((entry.rule, entry.parameter))
                self.report(method.name, entry, entry.hint.override.format(path=entry.path))

    # -- names and attribute chains --

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.skip.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.skip.add(id(node.keyword))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.skip.add(id(node.name))

    def visit_Param(self, node: cst.Param) -> None:
        self.skip.add(id(node.name))

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        if id(original_node) in self.skip:
            return updated_node
        name = original_node.value
        for path in self.ambiguous(name):
            for entry in self.symbol_entries(path):
                self.report(
                    original_node,
                    entry,
                    f"'{name}' is also bound otherwise in this file, so this use may be "
                    f"{path}: check it by hand (not rewritten)",
                )
        found = self.resolve_name(name)
        if found is None:
            return updated_node
        path, how = found
        if how in ("from", "import"):
            if name in self.renamed_locals and self.rewrite:
                return updated_node.with_changes(value=self.renamed_locals[name])
            if how == "from":
                for entry in self.symbol_entries(path):
                    if name in self.import_plan and entry.replacement is not None:
                        continue  # reported (and rewritten) at the import
                    self.report(original_node, entry, _action(entry, fixable=False))
            return updated_node
        # Bound by a star import.
        moved = self.replacement(path)
        fixable = moved is not None and self.free(_name(moved[1]))
        for entry in self.symbol_entries(path):
            is_move = moved is not None and entry is moved[0]
            self.report(
                original_node,
                entry,
                _action(entry, fixable=fixable and is_move),
                fixable=fixable and is_move,
            )
        if not (fixable and self.rewrite and moved is not None):
            return updated_node
        target = moved[1]
        star_module = _parent(path)
        if _parent(target) != star_module:
            self.needed.append(ImportItem(_parent(target), _name(target)))
        return updated_node.with_changes(value=_name(target))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        path = self.resolve_expr(original_node)
        if path is None:
            return updated_node
        entries = self.symbol_entries(path)
        if not entries:
            return updated_node
        moved = self.replacement(path)
        replacement = self._spell(original_node, path, moved[1]) if moved else None
        for entry in entries:
            is_move = moved is not None and entry is moved[0] and replacement is not None
            self.report(original_node, entry, _action(entry, fixable=is_move), fixable=is_move)
        if replacement is None or not self.rewrite:
            return updated_node
        if isinstance(replacement, cst.Attribute):
            return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return replacement

    def _spell(self, node: cst.Attribute, path: str, target: str) -> cst.BaseExpression | None:
        """An expression for ``target`` where ``node`` spelled ``path``, or ``None`` when
        it cannot be written without guessing."""
        head_path = self.resolve_expr(node.value)
        if head_path is not None and _parent(target) == head_path:
            return node.with_changes(attr=cst.Name(_name(target)))
        top = self.package_top
        bound = self.bindings.imported.get(top)
        if top in self.bindings.other or (bound is not None and bound != top):
            return None
        if _parent(target) != top:
            self.needed.append(ImportItem(_parent(target)))
        elif bound is None:
            self.needed.append(ImportItem(top))
        return _expression(target)

    # -- calls --

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        target = self._callee(original_node.func)
        if target is None:
            return updated_node
        path, offset = target
        entries = self._parameter_entries(path)
        if not entries:
            return updated_node
        args = list(original_node.args)
        splat = any(arg.star for arg in args)
        positional = [arg for arg in args if arg.keyword is None and not arg.star]
        passed = {arg.keyword.value for arg in args if arg.keyword is not None}
        renames: dict[str, str] = {}
        for entry in entries:
            name = entry.parameter or ""
            position = None if entry.position is None else entry.position + offset
            check = entry.hint.call
            if check is CallCheck.KEYWORD:
                if name in passed:
                    arg = next(a for a in args if a.keyword and a.keyword.value == name)
                    new = entry.replacement or ""
                    fixable = bool(new) and new not in passed
                    fix = _REWRITES if fixable else " (not rewritten: the call already passes it)"
                    self.report(arg, entry, _argument_action(entry, name, fix=fix), fixable=fixable)
                    if fixable:
                        renames[name] = new
                continue
            if check is CallCheck.SHIFT:
                # One entry per shift, at its first changed position: every positional
                # argument from there on may now fill another parameter.
                if position is not None and len(positional) > position:
                    action = _argument_action(entry, name, position=position + 1)
                    self.report(positional[position], entry, action)
                continue
            if check is CallCheck.OMITTED:
                given = name in passed or (position is not None and len(positional) > position)
                if not given and not splat:
                    self.report(original_node, entry, _argument_action(entry, name))
                continue
            hit: cst.CSTNode | None = None
            if name in passed:
                hit = next(a for a in args if a.keyword and a.keyword.value == name)
            elif position is not None and len(positional) > position:
                hit = positional[position]
            if hit is not None:
                self.report(hit, entry, _argument_action(entry, name))
            elif splat:
                self.report(
                    original_node,
                    entry,
                    f"the call unpacks arguments; check by hand whether it passes {name}",
                )
        if not renames or not self.rewrite:
            return updated_node
        new_args = [
            arg.with_changes(keyword=cst.Name(renames[arg.keyword.value]))
            if arg.keyword is not None and arg.keyword.value in renames
            else arg
            for arg in updated_node.args
        ]
        return updated_node.with_changes(args=new_args)

    def _callee(self, func: cst.BaseExpression) -> tuple[str, int] | None:
        """The callable a call names and how many implicit positional arguments it gets
        (``Class.method(obj, ...)`` passes ``self`` explicitly: offset 1)."""
        if isinstance(func, cst.Attribute) and self.classes and self.classes[-1] is not None:
            context = self.classes[-1]
            value = func.value
            through_self = isinstance(value, cst.Name) and value.value in ("self", "cls")
            through_super = (
                isinstance(value, cst.Call)
                and isinstance(value.func, cst.Name)
                and value.func.value == "super"
            )
            name = func.attr.value
            if through_super or (through_self and name not in context.own):
                for base in context.bases:
                    if self._parameter_entries(f"{base}.{name}"):
                        return f"{base}.{name}", 0
                return None
        if isinstance(func, cst.Name) and func.value in self.bindings.inheriting:
            for base in self.bindings.inheriting[func.value]:
                if self._parameter_entries(f"{base}.__init__"):
                    return f"{base}.__init__", 0
            return None
        path = self.resolve_expr(func)
        if path is None:
            return None
        if self._parameter_entries(f"{path}.__init__"):
            return f"{path}.__init__", 0
        kind = self.spec.callables.get(path) or self.spec.callables.get(
            through(path, self.spec.renames)
        )
        return path, (1 if kind == "method" else 0)

    def _parameter_entries(self, path: str) -> list[Entry]:
        found: dict[tuple[str, str | None], Entry] = {}
        for spelled in (path, through(path, self.spec.renames)):
            for entry in self.entries.get(spelled, ()):
                if entry.parameter is not None:
                    found.setdefault((entry.rule, entry.parameter), entry)
        return list(found.values())


def _commas(aliases: list[cst.ImportAlias]) -> list[cst.ImportAlias]:
    return [
        alias.with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            if index < len(aliases) - 1
            else cst.MaybeSentinel.DEFAULT
        )
        for index, alias in enumerate(aliases)
    ]


# --- what to do -------------------------------------------------------------------------


_REWRITES = " (apisurface migrate rewrites it)"


def _action(entry: Entry, *, fixable: bool) -> str:
    """What to do at a use of a changed path: its row's caller hint."""
    hint = entry.hint
    if entry.replacement is not None and hint.use_successor:
        fix = _REWRITES if fixable else ""
        return hint.use_successor.format(successor=entry.replacement, fix=fix)
    return hint.use or CHECK_USE


def _argument_action(entry: Entry, name: str, *, fix: str = "", position: int = 0) -> str:
    """What to do at a call a parameter change meets: its row's caller hint."""
    hint = entry.hint
    template = hint.argument
    if entry.replacement is not None and hint.argument_successor:
        template = hint.argument_successor
    return template.format(
        name=name,
        successor=entry.replacement,
        message=entry.message,
        fix=fix,
        position=position,
        path=entry.path,
    )


# --- entry points -----------------------------------------------------------------------


def analyse_source(
    data: bytes, file: str, spec: MigrationSpec, *, rewrite: bool = False
) -> FileResult:
    """The uses of ``spec``'s package in one file's text; with ``rewrite``, the rewritten
    text too (``None`` when nothing changed). A file that cannot be parsed is a result
    with a ``problem``, never an exception."""
    result = FileResult(file=file, original=data)
    if len(data) > _MAX_FILE:
        result.problem = f"{file}: larger than 8 MiB; skipped"
        return result
    top = spec.package.partition(".")[0].encode()
    if top not in data:
        return result  # cannot import the package: not parsed at all (cheap on big trees)
    try:
        tree = ast.parse(decode_python(data))  # not ast.parse(data): any codec it names
        bindings = bindings_of(tree, spec.package)
        if not bindings.imported and not bindings.stars:
            return result  # the file does not import the package
        if not _identifiers(tree) & _tokens(spec):
            return result  # names nothing the change set touches
        module = cst.parse_module(data)
    except SyntaxError as error:
        result.problem = f"{file}:{error.lineno or 0}: syntax error ({error.msg}); skipped"
        return result
    except cst.ParserSyntaxError as error:
        result.problem = f"{file}:{error.raw_line}: syntax error; skipped"
        return result
    except UnreadEncoding as error:
        result.problem = f"{file}: {error}; skipped"
        return result
    except (ValueError, UnicodeError, RecursionError, MemoryError) as error:
        result.problem = f"{file}: cannot parse ({type(error).__name__}); skipped"
        return result
    analyser = _Analyser(spec, file, bindings, rewrite)
    try:
        new_module = MetadataWrapper(module, unsafe_skip_copy=True).visit(analyser)
        result.uses = sorted(set(analyser.uses))
        if rewrite and analyser.needed:
            context = CodemodContext()
            new_module = AddImportsVisitor(context, analyser.needed).transform_module(new_module)
    except RecursionError:
        result.problem = f"{file}: nested too deeply to analyse; skipped"
        return result
    except (cst.CSTValidationError, cst.CSTLogicError) as error:
        # Never expected from a checked spec (names are Python names): one line all the same.
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        result.problem = f"{file}: cannot rewrite ({detail}); not rewritten"
        return result
    if rewrite and new_module.code != module.code:
        result.rewritten, result.problem = rewritten_bytes(module, new_module, data, file)
    return result


_TOKENS: dict[int, tuple[MigrationSpec, frozenset[str]]] = {}


def _tokens(spec: MigrationSpec) -> frozenset[str]:
    """The identifiers a use of a changed path must contain: the last name of each path
    with entries or a rename (a class's name for its ``__init__``)."""
    found = _TOKENS.get(id(spec))
    if found is not None and found[0] is spec:
        return found[1]
    tokens: set[str] = set()
    for path in (*(entry.path for entry in spec.entries), *spec.renames):
        parts = path.split(".")
        tokens.add(parts[-2] if parts[-1] == "__init__" and len(parts) > 1 else parts[-1])
    frozen = frozenset(tokens)
    _TOKENS.clear()
    _TOKENS[id(spec)] = (spec, frozen)
    return frozen


def _identifiers(tree: ast.Module) -> set[str]:
    """Every identifier a file spells: names, attributes, imported names (each dotted
    component), definitions. A use of a path always spells its last name somewhere here."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.update(node.name.split("."))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
    return found


def analyse_files(
    files: Iterable[Path], spec: MigrationSpec, *, rewrite: bool = False
) -> Iterator[FileResult]:
    """:func:`analyse_source` for each file (read errors become problems)."""
    for path in files:
        try:
            data = read_regular(path, MAX_FILE_BYTES)
        except TooLarge:
            problem = f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB; skipped"
            yield FileResult(file=str(path), problem=problem)
            continue
        except NotRegularFile:
            problem = f"{path}: not a regular file (a FIFO or device); skipped"
            yield FileResult(file=str(path), problem=problem)
            continue
        except OSError as error:
            yield FileResult(file=str(path), problem=f"{path}: cannot read ({error.strerror})")
            continue
        yield analyse_source(data, str(path), spec, rewrite=rewrite)
